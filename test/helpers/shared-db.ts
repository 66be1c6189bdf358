/**
 * A database several processes share: a SQLite FILE in a temporary directory (WAL), or a fresh PostgreSQL
 * database when DATABASE_URL is a postgres:// URL. `url` is what a child process gets as DATABASE_URL.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { DatabaseConfig } from '../../src/config';
import { createTestDatabaseConfig, testDialect } from './db';

export interface SharedDatabase {
  url: string;
  database: DatabaseConfig;
  drop(): Promise<void>;
}

export async function sharedDatabase(label: string): Promise<SharedDatabase> {
  if (testDialect() === 'postgres') {
    const { database, drop } = await createTestDatabaseConfig();
    if (database.type !== 'postgres') throw new Error('expected a postgres database');
    return { url: database.url, database, drop };
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `gw-${label}-`));
  const file = path.join(dir, `${label}.sqlite`);
  return { url: `sqlite:${file}`, database: { type: 'sqlite', path: file }, drop: async () => fs.rmSync(dir, { recursive: true, force: true }) };
}
