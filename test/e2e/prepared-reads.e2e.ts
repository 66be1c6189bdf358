/**
 * Hot reads run as prepared statements on PostgreSQL (src/db/rows.ts runRead): the token check, accounts by
 * login and list pages are sent named, so PostgreSQL parses and plans them once per connection instead of on
 * every request (viewer 0.34 -> 0.54 of the raw baseline on PostgreSQL, bench/README.md). Their answers are
 * the same as through TypeORM, they still count as statements for the request's SQL log, and inside a
 * transaction they use the transaction's connection. On SQLite the same reads keep their better-sqlite3
 * statement per connection: each text is prepared once, however many requests run it.
 */
import type { Pool } from 'pg';
import { runRead } from '../../src/db/rows';
import { IdentityFixtures } from '../fixtures/identity';
import { startTestApp, TestApp } from '../helpers/app';

describe('prepared hot reads', () => {
  let t: TestApp;
  let token: string;

  beforeAll(async () => {
    t = await startTestApp();
    const f = new IdentityFixtures(t.db.dataSource);
    const org = await f.org('prep');
    const u = await f.user('prep-admin');
    await f.member(org, u, 'admin');
    await f.repo(org, { name: 'one', private: true, secretScanning: true });
    token = await f.classicToken(u, ['repo', 'read:org']);
  });
  afterAll(() => t?.close());

  const postgres = () => t.db.dataSource.options.type === 'postgres';

  async function requests(): Promise<void> {
    for (let i = 0; i < 3; i++) {
      const r = await fetch(`${t.url}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify({ query: '{ viewer { login } organization(login: "prep") { repositories(first: 5) { totalCount nodes { name } } } }' }),
      });
      expect(await r.json()).toEqual({ data: { viewer: { login: 'prep-admin' }, organization: { repositories: { totalCount: 1, nodes: [{ name: 'one' }] } } } });
    }
  }

  it('the token check, the organization lookup and the page statement are prepared once per connection', async () => {
    if (!postgres()) {
      // better-sqlite3: count what is prepared on the one connection while three requests run.
      const conn = (t.db.dataSource.driver as unknown as { databaseConnection: { prepare(sql: string): unknown } }).databaseConnection;
      const original = conn.prepare.bind(conn);
      const times = new Map<string, number>();
      const spy = jest.spyOn(conn, 'prepare').mockImplementation((sql: string) => {
        times.set(sql, (times.get(sql) ?? 0) + 1);
        return original(sql);
      });
      try {
        await requests();
      } finally {
        spy.mockRestore();
      }
      const hot = [...times].filter(([text]) => text.includes('access_tokens') || text.includes('login_lower'));
      expect(hot.some(([text]) => text.includes('access_tokens'))).toBe(true);
      expect(hot.some(([text]) => text.includes('login_lower'))).toBe(true);
      expect(hot.filter(([, n]) => n > 1)).toEqual([]);
      return;
    }
    await requests();
    // pg's clients remember the statements they prepared (name -> text).
    const pool = (t.db.dataSource.driver as unknown as { master: Pool & { _clients: Array<{ connection: { parsedStatements: Record<string, string> } }> } }).master;
    const prepared = pool._clients.flatMap((c) => Object.entries(c.connection.parsedStatements));
    const texts = prepared.filter(([name]) => name.startsWith('gw_')).map(([, text]) => text);
    expect(texts.some((s) => s.includes('access_tokens'))).toBe(true);
    expect(texts.some((s) => s.includes('login_lower'))).toBe(true);
  });

  it('a page statement keeps one generic plan on PostgreSQL (the page size is in its text, not a parameter)', async () => {
    if (!postgres()) return; // SQLite has no plan cache of this kind: each statement is prepared once (above).
    // Enough rows that a LIMIT PostgreSQL cannot see (it assumes a tenth of them) makes the generic plan look dear.
    const ds = t.db.dataSource;
    const [{ id: owner }] = await ds.query(`SELECT id FROM accounts WHERE login_lower = 'prep'`);
    await ds.query(
      `INSERT INTO repositories (owner_id, name, name_lower, private, secret_scanning)
       SELECT $1, 'bulk-' || g, 'bulk-' || g, false, false FROM generate_series(1, 3000) g`,
      [owner],
    );
    await ds.query('ANALYZE repositories');
    const query = '{ organization(login: "prep") { repositories(first: 7) { nodes { name } } } }';
    // Sequential requests reuse one pooled connection: PostgreSQL plans the first five executions with their values,
    // then keeps a generic plan if it is estimated no dearer.
    for (let i = 0; i < 8; i++) {
      const r = await fetch(`${t.url}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify({ query }),
      });
      expect(((await r.json()) as { data: { organization: { repositories: { nodes: unknown[] } } } }).data.organization.repositories.nodes).toHaveLength(7);
    }
    const pool = (ds.driver as unknown as { master: Pool }).master;
    const { rows } = await pool.query<{ statement: string; generic_plans: string; custom_plans: string }>(
      `SELECT statement, generic_plans, custom_plans FROM pg_prepared_statements WHERE name LIKE 'gw_%' AND statement LIKE '%"repositories"%name_lower%LIMIT%'`,
    );
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.filter((r) => Number(r.generic_plans) > 0)).not.toEqual([]);
  });

  it('answers what TypeORM answers, outside and inside a transaction', async () => {
    const ds = t.db.dataSource;
    const sql = postgres() ? 'SELECT login FROM accounts WHERE login_lower = $1' : 'SELECT login FROM accounts WHERE login_lower = ?';
    const viaTypeorm = await ds.manager.query(sql, ['prep-admin']);
    expect(await runRead(ds.manager, sql, ['prep-admin'])).toEqual(viaTypeorm);
    await ds.transaction(async (m) => {
      expect(await runRead(m, sql, ['prep-admin'])).toEqual(viaTypeorm);
    });
  });

  it('a database error is the driver’s error (classified as usual), not a TypeError', async () => {
    const ds = t.db.dataSource;
    await expect(runRead(ds.manager, 'SELECT no_such_column FROM accounts', [])).rejects.toThrow(/no_such_column/);
  });
});
