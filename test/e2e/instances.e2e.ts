/**
 * Stateless by design: two instances on one database behave as one service.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { RepositoryByNameDocument, UpdateRepositorySecuritySettingsDocument } from '../__generated__/graphql';
import { openDatabase } from '../../ormconfig';
import { IdentityFixtures } from '../fixtures/identity';
import { gqlDoc, startTestApp, TestApp } from '../helpers/app';
import { createTestDatabaseConfig, TestDatabase, testDialect } from '../helpers/db';

describe('two instances on one database', () => {
  let a: TestApp;
  let b: TestApp;
  let cleanup: () => Promise<void>;

  beforeAll(async () => {
    // An in-memory SQLite database cannot be shared, so use a file (WAL) or a PostgreSQL database.
    let database;
    if (testDialect() === 'sqlite') {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gw-two-'));
      database = { type: 'sqlite' as const, path: path.join(dir, 'shared.sqlite') };
      cleanup = async () => fs.rmSync(dir, { recursive: true, force: true });
    } else {
      const tmp = await createTestDatabaseConfig();
      database = tmp.database;
      cleanup = tmp.drop;
    }
    const open = async (): Promise<TestDatabase> => {
      const dataSource = await openDatabase({ database });
      return { dataSource, database, drop: async () => undefined };
    };
    a = await startTestApp({ db: await open() });
    b = await startTestApp({ db: await open() });
  });
  afterAll(async () => {
    await a?.app.close();
    await b?.app.close();
    await cleanup?.();
  });

  it('a token created through one instance works on the other, and each sees the other writes', async () => {
    const f = new IdentityFixtures(a.db.dataSource);
    const org = await f.org('twoorg');
    const admin = await f.user('twoadmin');
    await f.member(org, admin, 'admin');
    await f.repo(org, { name: 'shared', private: true });
    const token = await f.classicToken(admin, ['repo']);

    const before = await gqlDoc(b.url, RepositoryByNameDocument, { owner: 'twoorg', name: 'shared' }, token);
    expect(before.body.data!.repository!.securitySettings!.secretScanning).toBe(false);

    const write = await gqlDoc(a.url, UpdateRepositorySecuritySettingsDocument, { input: { repository: 'twoorg/shared', secretScanning: true, pushProtection: true } }, token);
    expect(write.body.errors).toBeUndefined();

    const read = await gqlDoc(b.url, RepositoryByNameDocument, { owner: 'twoorg', name: 'shared' }, token);
    expect(read.body.data!.repository!.securitySettings).toMatchObject({ secretScanning: true, pushProtection: true });

    // and the other way round, over REST
    const write2 = await gqlDoc(b.url, UpdateRepositorySecuritySettingsDocument, { input: { repository: 'twoorg/shared', pushProtection: false } }, token);
    expect(write2.body.errors).toBeUndefined();
    const rest = (await (await fetch(`${a.url}/repos/twoorg/shared`, { headers: { authorization: `Bearer ${token}` } })).json()) as any;
    expect(rest.security_and_analysis.secret_scanning_push_protection).toEqual({ status: 'disabled' });
  });
});
