/**
 * The classifier behind CI's PostgreSQL suite filter (test/sequencer/database-only.js): a file it calls
 * database-free runs in the SQLite suite only, so it must never call a file free that can reach a database.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { databaseReach } from '../sequencer/database-free';

const ROOT = path.resolve(__dirname, '..', '..');

function testFiles(dir: string, out: string[] = []): string[] {
  for (const e of fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
    const rel = `${dir}/${e.name}`;
    if (e.isDirectory()) testFiles(rel, out);
    else if (/\.(spec|e2e)\.ts$/.test(e.name)) out.push(rel);
  }
  return out;
}

describe('database-free test files', () => {
  it('never include a file that starts an app, a database, a server process or a shared database', () => {
    const files = testFiles('test');
    const reach = databaseReach(ROOT, files);
    const opensOne = files.filter((f) => /\b(?:startTestApp|openTestDatabase|createTestDatabaseConfig|startServerProcess|sharedDatabase|openDatabase)\(/.test(fs.readFileSync(path.join(ROOT, f), 'utf8')));
    expect(opensOne.length).toBeGreaterThan(50);
    expect(opensOne.filter((f) => reach.get(f) === null)).toEqual([]);
    // and the pure engine tests are free (else the filter would save nothing)
    expect(reach.get('test/unit/workflow/engine/jsonata.spec.ts')).toBeNull();
  });

  describe('on a small tree', () => {
    let root: string;
    const write = (file: string, text: string) => {
      fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
      fs.writeFileSync(path.join(root, file), text);
    };
    beforeAll(() => {
      root = fs.mkdtempSync(path.join(os.tmpdir(), 'dbfree-'));
      write('tsconfig.json', JSON.stringify({ compilerOptions: { module: 'node16', moduleResolution: 'node16', target: 'ES2023', isolatedModules: true } }));
      write('lib/store.ts', `import { DataSource } from 'typeorm';\nexport const make = () => new DataSource({ type: 'sqlite', database: ':memory:' });\n`);
      write('lib/types.ts', `import type { DataSource } from 'typeorm';\nimport { EntityManager } from 'typeorm';\nexport type Db = DataSource | EntityManager;\n`);
      write('lib/env.ts', `export const url = process.env.DATABASE_URL ?? '';\n`);
      write('lib/spawn.ts', `import { spawn } from 'node:child_process';\nexport const run = () => spawn('node');\n`);
      write('lib/lazy.ts', `export const load = () => import('pg');\n`);
      write('a.spec.ts', `import { make } from './lib/store';\nmake();\n`);
      write('b.spec.ts', `import type { Db } from './lib/types';\nconst x: Db | undefined = undefined;\nexport {};\nvoid x;\n`);
      write('c.spec.ts', `import { url } from './lib/env';\nvoid url;\n`);
      write('d.spec.ts', `import { run } from './lib/spawn';\nvoid run;\n`);
      write('e.spec.ts', `import { load } from './lib/lazy';\nvoid load;\n`);
      write('f.spec.ts', `import * as fs from 'node:fs';\nvoid fs;\n`);
    });
    afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

    it('follows runtime imports only, and names the first reason found', () => {
      const reach = databaseReach(root, ['a.spec.ts', 'b.spec.ts', 'c.spec.ts', 'd.spec.ts', 'e.spec.ts', 'f.spec.ts']);
      expect(reach.get('a.spec.ts')).toBe('lib/store.ts requires typeorm');
      expect(reach.get('b.spec.ts')).toBeNull(); // types only: gone from the emitted JavaScript
      expect(reach.get('c.spec.ts')).toBe('lib/env.ts reads DATABASE_URL');
      expect(reach.get('d.spec.ts')).toBe('lib/spawn.ts requires node:child_process');
      expect(reach.get('e.spec.ts')).toBe('lib/lazy.ts requires pg');
      expect(reach.get('f.spec.ts')).toBeNull();
    });
  });
});
