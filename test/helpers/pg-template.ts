/**
 * A migrated template database per migration set, so a test file's PostgreSQL database is a copy
 * (`CREATE DATABASE … TEMPLATE`, ~0.1 s) instead of running every migration again (~1 s of DDL and commits each,
 * a few hundred times per suite). The template is made by running the migrations on an empty database exactly as
 * `openDatabase` does; its name carries a hash of the migrations' code, so a changed or added migration makes a new
 * one. `test/unit/migrations.spec.ts` still migrates an empty database (`openTestDatabase({ empty: true })`).
 */
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Client } from 'pg';
import { migrationsOf, openDatabase } from '../../ormconfig';
import { MODULES } from '../../src/modules';

/** Held while a template is checked for or made, by every test process on the server. */
const LOCK_KEY = 0x67775f74; // 'gw_t'
const MIGRATIONS_DIR = path.join(__dirname, '..', '..', 'src', 'db', 'migrations', 'postgres');

let made: Promise<string> | undefined;

/** The migrations' names in order, and the text of their sources (not of any transpiled form, which differs by tool). */
function templateName(): string {
  const h = createHash('sha256');
  for (const m of migrationsOf(MODULES, 'postgres')) h.update(`${m.name}\n`);
  for (const f of fs.readdirSync(MIGRATIONS_DIR).sort()) h.update(`${f}\n`).update(fs.readFileSync(path.join(MIGRATIONS_DIR, f)));
  return `gw_tpl_${h.digest('hex').slice(0, 16)}`;
}

async function ensureTemplate(baseUrl: string): Promise<string> {
  const name = templateName();
  const admin = new Client({ connectionString: baseUrl });
  await admin.connect();
  try {
    await admin.query('SELECT pg_advisory_lock($1)', [LOCK_KEY]);
    const exists = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (exists.rowCount) return name;
    const building = `${name}_b${process.pid}`;
    await admin.query(`DROP DATABASE IF EXISTS "${building}"`);
    await admin.query(`CREATE DATABASE "${building}"`);
    const u = new URL(baseUrl);
    u.pathname = `/${building}`;
    const ds = await openDatabase({ database: { type: 'postgres', url: u.toString() } });
    await ds.destroy();
    await admin.query(`ALTER DATABASE "${building}" RENAME TO "${name}"`);
    // Templates of earlier migration sets: dropped unless in use (another checkout's suite may be copying one).
    const old = await admin.query(`SELECT datname FROM pg_database WHERE datname LIKE 'gw\\_tpl\\_%' AND datname <> $1`, [name]);
    for (const r of old.rows as Array<{ datname: string }>) await admin.query(`DROP DATABASE IF EXISTS "${r.datname}"`).catch(() => undefined);
    return name;
  } finally {
    await admin.query('SELECT pg_advisory_unlock($1)', [LOCK_KEY]).catch(() => undefined);
    await admin.end();
  }
}

/** The template for this checkout's migrations on the server of `baseUrl`, made once if missing. */
export function migratedTemplate(baseUrl: string, opts: { again?: boolean } = {}): Promise<string> {
  if (!made || opts.again) {
    made = ensureTemplate(baseUrl);
    made.catch(() => (made = undefined));
  }
  return made;
}
