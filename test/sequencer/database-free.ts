/**
 * Which test files cannot touch a database, so that CI runs them in one suite only (the SQLite one): whatever
 * DATABASE_URL says, they run the same code. A file is database-free when nothing it reaches at runtime (its
 * imports, as TypeScript emits them, followed through relative paths) loads a database driver or TypeORM, reads
 * DATABASE_URL, or starts a process or a thread, which could do either out of this check's sight.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { importGraphFrom, tsconfigOptions } from '../helpers/import-graph';

const DATABASE_PACKAGES = /^(?:typeorm|pg|pg-[\w-]+|better-sqlite3)(?:\/|$)/;
const PROCESS_OR_THREAD_PACKAGES = /^(?:node:)?(?:child_process|worker_threads|cluster)$|^piscina$/;
const READS_DATABASE_URL = /\bDATABASE_URL\b/;

/** For each test file (relative to root): why it may touch a database (the first file and reason found), or null. */
export function databaseReach(root: string, testFiles: string[]): Map<string, string | null> {
  const graph = importGraphFrom(root, testFiles, tsconfigOptions(root));
  const own = new Map<string, string | null>();
  for (const [file, pkgs] of graph.packages) {
    const pkg = pkgs.find((p) => DATABASE_PACKAGES.test(p) || PROCESS_OR_THREAD_PACKAGES.test(p));
    own.set(file, pkg ? `${file} requires ${pkg}` : READS_DATABASE_URL.test(fs.readFileSync(path.join(root, file), 'utf8')) ? `${file} reads DATABASE_URL` : null);
  }
  const out = new Map<string, string | null>();
  for (const test of testFiles) {
    let why: string | null = null;
    const seen = new Set<string>();
    const queue = [test];
    while (queue.length && !why) {
      const file = queue.pop()!;
      if (seen.has(file)) continue;
      seen.add(file);
      why = own.get(file) ?? null;
      queue.push(...(graph.edges.get(file) ?? []));
    }
    out.set(test, why);
  }
  return out;
}
