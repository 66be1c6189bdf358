/**
 * PostgreSQL: when the client of a request goes away before its answer, the request's statements stop and
 * its connections return to the pool, instead of running (and holding a pooled connection) to their end.
 *
 *  - A request's statements are the ones sent through its context's database handles: `requestDataSource`
 *    gives each request a view of the DataSource (ctx.dataSource, and ctx.db its manager) whose query runners
 *    carry the request's scope; the named reads (`runRead`, sent through pg-pool's own `query`) carry it in
 *    their query config (`inCallersScope`). The scope is abandoned when the response closes unfinished.
 *    The request is named explicitly rather than found from the call chain: an AsyncLocalStorage would make
 *    Node 20 run promise hooks for every promise of the process (see docs/operating.md).
 *  - On abandonment each running statement is cancelled with PostgreSQL's cancel request (the protocol's
 *    CancelRequest on a separate socket, as psql's Ctrl-C: no pooled connection and no login needed), and
 *    statements the request starts afterwards are refused without being sent, except the ends of a
 *    transaction (ROLLBACK, COMMIT, RELEASE), so a transaction always closes before its connection is released.
 *  - A cancelled statement settles only once PostgreSQL has received the cancel, so the connection cannot be
 *    handed to another request before it (a cancel that arrives after its statement ended is ignored by the
 *    idle backend). If the cancel cannot be delivered, the connection is closed instead of reused.
 * SQLite runs each statement synchronously: there is nothing to cancel there, and requests use the DataSource itself.
 */
import type { ServerResponse } from 'node:http';
import { DataSource, QueryFailedError, QueryRunner } from 'typeorm';

interface PgClientLike {
  query: (...args: unknown[]) => unknown;
  processID?: number;
  secretKey?: number;
  connectionParameters?: { host?: string; port?: number };
  connection?: { stream?: { destroy(): void } };
}

interface Running {
  client: PgClientLike;
  /** Set once a cancel was sent for it: resolves when PostgreSQL has received it. */
  cancelled?: Promise<void>;
}

interface RequestScope {
  abandoned: boolean;
  running: Set<Running>;
}

const WRAPPED = Symbol('requestCancellation');
/** Statements a request may still run once abandoned: the ones that end its transaction. */
const TRANSACTION_END = /^\s*(?:ROLLBACK|COMMIT|RELEASE)\b/i;
/** A cancel request that gets no answer in this time is given up (the connection is then closed). */
const CANCEL_TIMEOUT_MS = 2_000;

/** The error of a statement refused or cancelled because its request was abandoned (PostgreSQL's query_canceled). */
function abandonedError(): Error {
  return Object.assign(new Error('canceling statement: the client closed the request'), { code: '57014' });
}

/** Send PostgreSQL's CancelRequest for `client`'s backend; resolves once the server has taken it. */
function sendCancel(client: PgClientLike): Promise<void> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { Connection } = require('pg') as { Connection: new () => PgCancelConnection };
  const { host = 'localhost', port = 5432 } = client.connectionParameters ?? {};
  return new Promise<void>((resolve, reject) => {
    const con = new Connection();
    const timer = setTimeout(() => {
      con.stream?.destroy();
      reject(new Error('cancel request timed out'));
    }, CANCEL_TIMEOUT_MS);
    const done = (err?: unknown) => {
      clearTimeout(timer);
      if (err) reject(err);
      else resolve();
    };
    con.on('connect', () => con.cancel(client.processID!, client.secretKey!));
    // The server closes the socket once it has processed the cancel request.
    con.on('end', () => done());
    con.on('error', (e: unknown) => done(e));
    if (host.startsWith('/')) con.connect(`${host}/.s.PGSQL.${port}`);
    else con.connect(port, host);
  });
}

interface PgCancelConnection {
  stream?: { destroy(): void };
  on(event: string, fn: (...args: unknown[]) => void): void;
  connect(portOrPath: number | string, host?: string): void;
  cancel(processID: number, secretKey: number): void;
}

function abandon(scope: RequestScope): void {
  if (scope.abandoned) return;
  scope.abandoned = true;
  for (const r of scope.running) {
    if (r.cancelled || r.client.processID === undefined) continue;
    r.cancelled = sendCancel(r.client).catch(() => {
      // Not delivered: the statement may still run; this connection must not serve anyone else.
      r.client.connection?.stream?.destroy();
    });
  }
}

/** The request scope of a request's DataSource view, and of a query config made for one (see `inCallersScope`). */
const SCOPE = Symbol('requestScope');
/** On a request's view: the DataSource it was made from. */
const ROOT = Symbol('rootDataSource');
/** On a response: its request's view of the DataSource (made on first use). */
const VIEW = Symbol('requestDataSource');
/** DataSources whose pool clients are wrapped (`installRequestCancellation`). */
const installed = new WeakSet<DataSource>();

type View = DataSource & { [SCOPE]?: RequestScope; [ROOT]?: DataSource };

/** The DataSource a request's view was made from (`ds` itself otherwise): what per-DataSource caches key on. */
export function rootDataSource(ds: DataSource): DataSource {
  return (ds as View)[ROOT] ?? ds;
}

/**
 * The DataSource the request answered by `res` runs its statements through: on PostgreSQL with cancellation
 * installed, a view of `ds` bound to the request's scope (one per request, made on first use; everything else
 * is `ds`'s, through the prototype), otherwise `ds` itself.
 */
export function requestDataSource(ds: DataSource, res: ServerResponse): DataSource {
  if (!installed.has(ds)) return ds;
  const held = res as ServerResponse & { [VIEW]?: DataSource };
  const made = held[VIEW];
  if (made) return made;
  const scope: RequestScope = { abandoned: false, running: new Set() };
  // A context made after the client already went away (a handler that waited first) starts abandoned.
  if (res.closed && !res.writableFinished) abandon(scope);
  else {
    res.once('close', () => {
      if (!res.writableFinished) abandon(scope);
    });
  }
  const view = Object.create(ds) as View;
  view[ROOT] = ds;
  view[SCOPE] = scope;
  // TypeORM's managers, repositories and query builders make their query runners through their DataSource:
  // the view's (and its manager's) carry the scope.
  view.createQueryRunner = (mode?: 'master' | 'slave') => tracked(ds.createQueryRunner.call(view, mode), scope);
  (view as { manager: DataSource['manager'] }).manager = view.createEntityManager();
  held[VIEW] = view;
  return view;
}

/** A query runner whose statements belong to `scope`: tracked while they run, refused once it is abandoned. */
function tracked(queryRunner: QueryRunner, scope: RequestScope): QueryRunner {
  const query = queryRunner.query as (this: QueryRunner, ...args: unknown[]) => Promise<unknown>;
  queryRunner.query = async function (this: QueryRunner, text: string, parameters?: unknown[], structured?: boolean) {
    const refuse = () => scope.abandoned && !TRANSACTION_END.test(text);
    if (refuse()) throw new QueryFailedError(text, parameters, abandonedError());
    const client = (await this.connect()) as PgClientLike;
    if (refuse()) throw new QueryFailedError(text, parameters, abandonedError());
    const entry: Running = { client };
    scope.running.add(entry);
    try {
      return await query.call(this, text, parameters, structured);
    } finally {
      scope.running.delete(entry);
      // The runner is released (its connection handed on) only once PostgreSQL has the cancel.
      if (entry.cancelled) await entry.cancelled;
    }
  } as QueryRunner['query'];
  return queryRunner;
}

/**
 * Mark a query config with the request of `ds` (a request's view), for a statement sent through pg-pool's own
 * `query()`: the pool calls the client (callback style) from whichever call chain released a connection to it,
 * so the config carries its request.
 */
export function inCallersScope<T extends object>(config: T, ds: DataSource): T {
  const scope = (ds as View)[SCOPE];
  if (scope) (config as { [SCOPE]?: RequestScope })[SCOPE] = scope;
  return config;
}

function wrap(client: PgClientLike & { [WRAPPED]?: true }): void {
  if (client[WRAPPED]) return;
  client[WRAPPED] = true;
  const original = client.query;
  client.query = function (this: PgClientLike, ...args: unknown[]): unknown {
    const first = args[0] as { [SCOPE]?: RequestScope } | string | undefined;
    const scope = typeof first === 'object' && first !== null ? first[SCOPE] : undefined;
    if (!scope) return original.apply(this, args);
    const text = (first as { text?: unknown }).text ?? '';
    if (scope.abandoned && !TRANSACTION_END.test(String(text))) {
      const callback = args.find((a) => typeof a === 'function') as ((e: Error) => void) | undefined;
      if (callback) {
        process.nextTick(() => callback(abandonedError()));
        return undefined;
      }
      return Promise.reject(abandonedError());
    }
    const entry: Running = { client: this };
    const settle = async () => {
      scope.running.delete(entry);
      if (entry.cancelled) await entry.cancelled;
    };
    // Callback style (pg-pool's own `pool.query`, which the named reads use): the callback, which hands the
    // connection back to the pool, runs once the statement settled and any cancel of it was received.
    const at = args.findIndex((a) => typeof a === 'function');
    if (at >= 0) {
      const callback = args[at] as (...results: unknown[]) => void;
      args[at] = (...results: unknown[]) => {
        scope.running.delete(entry);
        if (!entry.cancelled) return callback(...results);
        void entry.cancelled.then(() => callback(...results));
      };
      scope.running.add(entry);
      try {
        return original.apply(this, args);
      } catch (e) {
        scope.running.delete(entry);
        throw e;
      }
    }
    const result = original.apply(this, args);
    if (!result || typeof (result as Promise<unknown>).then !== 'function') return result;
    scope.running.add(entry);
    return (result as Promise<unknown>).then(
      async (v) => {
        await settle();
        return v;
      },
      async (e) => {
        await settle();
        throw e;
      },
    );
  };
}

/** Wrap the PostgreSQL pool's clients for the marked named reads, and let requests have views (a no-op on SQLite). */
export function installRequestCancellation(dataSource: DataSource): void {
  if (dataSource.options.type !== 'postgres') return;
  const pool = (dataSource.driver as unknown as { master?: { on(ev: 'acquire', fn: (c: PgClientLike) => void): void } }).master;
  pool?.on('acquire', wrap);
  installed.add(dataSource);
}
