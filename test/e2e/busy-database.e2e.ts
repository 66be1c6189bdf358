/**
 * A database that stays busy (issue 6 item 9): another connection holds the write lock (SQLite: an open
 * BEGIN IMMEDIATE on the same file; PostgreSQL: the alert rows locked FOR UPDATE, with a short lock_timeout
 * on the database). A write is retried a bounded number of times, then answered 503 with Retry-After (REST)
 * or SERVICE_UNAVAILABLE (GraphQL) — never a 500; once the lock is gone the same write succeeds.
 */
import Database from 'better-sqlite3';
import { Client } from 'pg';
import { openDatabase } from '../../ormconfig';
import { isDatabaseBusy, isDatabaseUnavailable, toAppError, UnavailableError } from '../../src/errors/app-error';
import { BUSY_ATTEMPTS } from '../../src/db/transaction';
import { SubmitContentDocument } from '../__generated__/graphql';
import { IdentityFixtures } from '../fixtures/identity';
import { SecretScanningFixtures } from '../fixtures/secret-scanning';
import { gqlDoc, startTestApp, TestApp } from '../helpers/app';
import { testDialect } from '../helpers/db';
import { SharedDatabase, sharedDatabase } from '../helpers/shared-db';
import { fakeSecrets, fileOf } from '../fixtures/fake-secrets';

describe('every busy or locked code is "busy", wrapped or not', () => {
  it.each([
    'SQLITE_BUSY',
    'SQLITE_BUSY_SNAPSHOT',
    'SQLITE_BUSY_RECOVERY',
    'SQLITE_BUSY_TIMEOUT',
    'SQLITE_LOCKED',
    'SQLITE_LOCKED_SHAREDCACHE',
    'SQLITE_LOCKED_VTAB',
    '40001',
    '40P01',
    '55P03',
  ])('%s', (code) => {
    const direct = Object.assign(new Error('busy'), { code });
    // TypeORM's QueryFailedError keeps the driver's error in driverError.
    const wrapped = Object.assign(new Error('query failed'), { name: 'QueryFailedError', driverError: { code } });
    for (const e of [direct, wrapped]) {
      expect(isDatabaseBusy(e)).toBe(true);
      expect(isDatabaseUnavailable(e)).toBe(true);
      expect(toAppError(e)).toBeInstanceOf(UnavailableError);
    }
  });
  it('other codes are not busy', () => {
    for (const code of ['SQLITE_CONSTRAINT_UNIQUE', 'SQLITE_ERROR', '23505', '42P01', 'SQLITE_BUSYX']) {
      expect(isDatabaseBusy(Object.assign(new Error('x'), { code }))).toBe(false);
    }
  });
});

describe(`a database that stays busy (${testDialect()})`, () => {
  let db: SharedDatabase;
  let t: TestApp;
  let token: string;
  let release: () => Promise<void> = async () => undefined;

  beforeAll(async () => {
    db = await sharedDatabase('busy');
    if (db.database.type === 'postgres') {
      // Every new session of this database gives up on a row lock after 100 ms (55P03).
      const admin = new Client({ connectionString: db.url });
      await admin.connect();
      await admin.query(`ALTER DATABASE "${new URL(db.url).pathname.slice(1)}" SET lock_timeout = '100ms'`);
      await admin.end();
    }
    const dataSource = await openDatabase({ database: db.database });
    // The single SQLite connection of the server waits 100 ms for a lock (not the default 5 s), so the test is quick.
    if (db.database.type === 'sqlite') await dataSource.query('PRAGMA busy_timeout = 100');
    t = await startTestApp({ db: { dataSource, database: db.database, drop: async () => undefined } });
    const f = new IdentityFixtures(dataSource);
    const org = await f.org('acme');
    const admin = await f.user('acme-admin');
    await f.member(org, admin, 'admin');
    const repo = await f.services.identity.createRepository(dataSource.manager, { owner: 'acme', name: 'api', private: true, secretScanning: true });
    token = await f.classicToken(admin, ['repo']);
    await new SecretScanningFixtures(dataSource).alerts(repo, 1);
  }, 60_000);

  afterAll(async () => {
    await release();
    await t?.close();
    await db?.drop();
  });

  async function lockTheDatabase(): Promise<void> {
    if (db.database.type === 'sqlite') {
      const other = new Database(db.database.path);
      other.exec('BEGIN IMMEDIATE');
      release = async () => {
        other.exec('ROLLBACK');
        other.close();
        release = async () => undefined;
      };
    } else {
      const other = new Client({ connectionString: db.url });
      await other.connect();
      await other.query('BEGIN');
      await other.query('SELECT id FROM secret_scanning_alerts FOR UPDATE');
      await other.query('LOCK TABLE secret_scanning_contents IN EXCLUSIVE MODE');
      release = async () => {
        await other.query('ROLLBACK');
        await other.end();
        release = async () => undefined;
      };
    }
  }

  const patch = () =>
    fetch(`${t.url}/repos/acme/api/secret-scanning/alerts/1`, {
      method: 'PATCH',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ validity: 'active' }),
    });

  it(`REST: 503 with Retry-After after ${BUSY_ATTEMPTS} tries, GraphQL: SERVICE_UNAVAILABLE; then 200 once the lock is gone`, async () => {
    await lockTheDatabase();
    const started = Date.now();
    const res = await patch();
    const elapsed = Date.now() - started;
    const body = (await res.json()) as { message?: string };
    expect({ status: res.status, retryAfter: res.headers.get('retry-after') }).toEqual({ status: 503, retryAfter: '1' });
    expect(body.message).toMatch(/busy|unavailable/i);
    // Retried, not refused at once: at least the waits of every attempt.
    expect(elapsed).toBeGreaterThanOrEqual(BUSY_ATTEMPTS * 100);

    const secret = fakeSecrets.githubPat();
    const input = { repository: 'acme/api', locationType: 'ISSUE_BODY' as const, url: 'https://example.test/acme/api/issues/7', content: fileOf([secret.line]) };
    const g = await gqlDoc(t.url, SubmitContentDocument, { input }, token);
    expect(g.body.errors?.map((e) => e.extensions?.code)).toEqual(['SERVICE_UNAVAILABLE']);
    expect(t.logs.filter((l) => l.msg === 'unexpected error')).toEqual([]);

    await release();
    expect((await patch()).status).toBe(200);
    const again = await gqlDoc(t.url, SubmitContentDocument, { input }, token);
    expect(again.body.errors).toBeUndefined();
  });
});
