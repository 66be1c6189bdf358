/**
 * A database several processes share: a SQLite FILE in a temporary directory (WAL), or a fresh PostgreSQL
 * database when DATABASE_URL is a postgres:// URL. `url` is what a child process gets as DATABASE_URL.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { DataSource } from 'typeorm';
import type { AccountEntity, RepositoryEntity } from '../../entities/identity';
import { openDatabase } from '../../ormconfig';
import type { DatabaseConfig } from '../../src/config';
import { IdentityFixtures } from '../fixtures/identity';
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

/**
 * Seed a shared database before the processes start: organization `acme` with an admin (`acme-admin`) and a
 * private repository `acme/api` with secret scanning on; `extra` adds more on the same connection. Returns
 * the admin's classic `repo` token.
 */
export async function seedAcme(
  db: SharedDatabase,
  extra?: (ctx: { ds: DataSource; f: IdentityFixtures; org: AccountEntity; repo: RepositoryEntity }) => Promise<void>,
): Promise<{ token: string }> {
  const ds = await openDatabase({ database: db.database });
  try {
    const f = new IdentityFixtures(ds);
    const org = await f.org('acme');
    const admin = await f.user('acme-admin');
    await f.member(org, admin, 'admin');
    const repo = await f.services.identity.createRepository(ds.manager, { owner: 'acme', name: 'api', private: true, secretScanning: true });
    const token = await f.classicToken(admin, ['repo']);
    await extra?.({ ds, f, org, repo });
    return { token };
  } finally {
    await ds.destroy();
  }
}

/**
 * Seed a shared database before the processes start: a user with a workflow access key sealed under `serverKey`
 * (the processes' GATEWAY_SECRET_KEY). Returns the key pair the processes' clients sign with.
 */
export async function seedWorkflowKey(db: SharedDatabase, login: string, serverKey: string): Promise<{ accessKeyId: string; secretAccessKey: string }> {
  const ds = await openDatabase({ database: db.database });
  try {
    const f = new IdentityFixtures(ds);
    const u = await f.user(login);
    const k = await f.services.identity.createAccessKey(ds.manager, { user: u.login }, serverKey);
    await f.services.calendarImport.close();
    await f.services.workflowDefinitions.close();
    await f.services.secretScanningPush.close();
    return { accessKeyId: k.accessKeyId, secretAccessKey: k.secretAccessKey };
  } finally {
    await ds.destroy();
  }
}
