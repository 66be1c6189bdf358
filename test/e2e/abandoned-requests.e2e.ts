/**
 * Abandoned requests release the database (issue 24, item 3): when a client closes its request before the
 * answer, the request's running PostgreSQL statements are cancelled and its pooled connections come back,
 * instead of being held until the statements end. The slow paths are routes this test registers itself (a
 * pg_sleep statement, alone and inside a transaction); production code has none. Like every route, they run
 * their statements through the request's context (its DataSource, its manager).
 * SQLite runs statements synchronously (nothing to cancel): PostgreSQL only.
 */
import { loadConfig } from '../../src/config';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { createContext } from '../../src/context';
import { queryRows } from '../../src/db/rows';
import { rootDataSource } from '../../src/db/request-cancel';
import { createLogger } from '../../src/observability/logger';
import { App, createApp } from '../../src/server';
import { openTestDatabase, TestDatabase, testDialect } from '../helpers/db';

interface PoolLike {
  totalCount: number;
  idleCount: number;
  waitingCount: number;
}

const onPostgres = testDialect() === 'postgres' ? describe : describe.skip;

onPostgres('abandoned requests (PostgreSQL)', () => {
  let db: TestDatabase;
  let app: App;
  let url: string;
  let pool: PoolLike;
  const logs: Array<Record<string, unknown>> = [];
  const finished: string[] = [];
  const lateErrors: string[] = [];
  /** Per answered request with a context: its kind, whether its DataSource is a view, and a view of the app's. */
  const seen: Array<[string, boolean, boolean]> = [];

  beforeAll(async () => {
    db = await openTestDatabase();
    const config = { ...loadConfig({ PORT: '0', HOST: '127.0.0.1', WORKFLOW_RUNNER: 'off' }), database: db.database };
    app = await createApp(config, { dataSource: db.dataSource, logger: createLogger('info', { write: (l: string) => void logs.push(JSON.parse(l)) }) });
    const contextOf = (req: FastifyRequest, reply: FastifyReply) => createContext(app.deps, { id: req.id, headers: req.headers, response: reply.raw });
    app.fastify.get('/test/slow', async (req, reply) => {
      await (await contextOf(req, reply)).dataSource.query('SELECT pg_sleep(30)');
      finished.push('slow');
      return { done: true };
    });
    // The hot reads' way: a named statement through pg-pool's own query (callback style underneath).
    app.fastify.get('/test/slow-read', async (req, reply) => {
      await queryRows((await contextOf(req, reply)).db, 'SELECT pg_sleep(30)', []);
      finished.push('read');
      return { done: true };
    });
    app.fastify.get('/test/fast-read', async (req, reply) => {
      const [row] = await queryRows<{ one: number }>((await contextOf(req, reply)).db, 'SELECT 1 AS one', []);
      return { one: row.one };
    });
    app.fastify.get('/test/slow-transaction', async (req, reply) => {
      await (await contextOf(req, reply)).dataSource.transaction(async (m) => {
        await m.query('SELECT 1');
        await m.query('SELECT pg_sleep(30)');
        await m.query('SELECT 2');
      });
      finished.push('transaction');
      return { done: true };
    });
    // A handler that first waits (here until its client is gone), then makes its context and reads.
    app.fastify.get('/test/late-context', async (req, reply) => {
      while (!reply.raw.closed) await new Promise((r) => setTimeout(r, 10));
      try {
        await (await contextOf(req, reply)).dataSource.query('SELECT 1');
        finished.push('late');
      } catch (e) {
        lateErrors.push((e as { code?: string }).code ?? String(e));
      }
      return { done: true };
    });
    app.fastify.addHook('onResponse', async (req) => {
      const ds = req.appContext?.dataSource;
      if (ds) seen.push([req.url.startsWith('/graphql') ? 'graphql' : 'rest', ds !== app.dataSource, rootDataSource(ds) === app.dataSource]);
    });
    url = await app.listen();
    pool = (app.dataSource.driver as unknown as { master: PoolLike }).master;
  });
  afterAll(async () => {
    await app?.close();
    await db?.drop();
  });

  const poll = async (cond: () => boolean | Promise<boolean>, ms: number) => {
    const until = Date.now() + ms;
    while (Date.now() < until) {
      if (await cond()) return true;
      await new Promise((r) => setTimeout(r, 25));
    }
    return cond();
  };

  it('50 slow requests closed early: their statements are cancelled and the pool is free again', async () => {
    const controllers = Array.from({ length: 50 }, () => new AbortController());
    const requests = controllers.map((c, i) =>
      fetch(`${url}/test/${['slow', 'slow-transaction', 'slow-read'][i % 3]}`, { signal: c.signal }).then(
        () => 'answered',
        () => 'aborted',
      ),
    );
    // Every pooled connection is busy and further requests wait for one.
    expect(await poll(() => pool.totalCount > 0 && pool.idleCount === 0 && pool.waitingCount > 0, 10_000)).toBe(true);
    // Live requests whose reads wait for a connection: they get the connections the abandoned ones free, in those
    // requests' call chains, and must not be taken for them.
    const live = Array.from({ length: 6 }, () => fetch(`${url}/test/fast-read`).then(async (r) => [r.status, await r.json()]));
    await new Promise((r) => setTimeout(r, 100));
    for (const c of controllers) c.abort();
    expect(new Set(await Promise.all(requests))).toEqual(new Set(['aborted']));
    expect(await Promise.all(live)).toEqual(Array.from({ length: 6 }, () => [200, { one: 1 }]));

    // Within a couple of seconds (the statements would run 30 s): nobody waits, every connection is idle.
    expect(await poll(() => pool.waitingCount === 0 && pool.idleCount === pool.totalCount, 3_000)).toBe(true);
    // PostgreSQL runs none of the sleeps any more.
    const [{ n }] = await app.dataSource.query(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE query LIKE 'SELECT pg_sleep%' AND state = 'active' AND pid <> pg_backend_pid()`);
    expect(n).toBe(0);
    // No handler ran to its end (the statement after the sleep never ran), and the server serves at once.
    expect(finished).toEqual([]);
    const ready = await fetch(`${url}/readyz`);
    expect(ready.status).toBe(200);
    // Cancelling is no error of the server's.
    expect(logs.filter((l) => Number(l.level) >= 50)).toEqual([]);
  }, 30_000);

  it('a context made after the client went away refuses its statements', async () => {
    const c = new AbortController();
    const answered = fetch(`${url}/test/late-context`, { signal: c.signal }).then(
      () => 'answered',
      () => 'aborted',
    );
    await new Promise((r) => setTimeout(r, 100));
    c.abort();
    expect(await answered).toBe('aborted');
    expect(await poll(() => lateErrors.length > 0, 5_000)).toBe(true);
    expect(lateErrors).toEqual(['57014']);
    expect(finished).not.toContain('late');
  });

  it('GraphQL and REST requests run their statements through their own view of the DataSource', async () => {
    seen.length = 0;
    const gql = await fetch(`${url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: '{ __typename }' }) });
    expect(gql.status).toBe(200);
    const rest = await fetch(`${url}/calendar/events/v1/events`);
    expect(rest.status).toBe(200);
    expect(seen).toEqual([
      ['graphql', true, true],
      ['rest', true, true],
    ]);
  });

  it('a request that completes is untouched, and statements of other work are never cancelled', async () => {
    const r = await fetch(`${url}/readyz`);
    expect(r.status).toBe(200);
    // Work outside any request (e.g. the workflow runner) runs as before.
    expect(await app.dataSource.query('SELECT 1 AS one')).toEqual([{ one: 1 }]);
  });
});
