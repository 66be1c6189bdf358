/**
 * PostgreSQL: when the client of a request goes away before its answer, the request's statements stop and
 * its connections return to the pool, instead of running (and holding a pooled connection) to their end.
 *
 *  - Every route handler runs in a request scope (AsyncLocalStorage, `inRequestScope`); the scope is abandoned
 *    when the response closes unfinished (the client closed the connection).
 *  - Pooled pg clients are wrapped once (`installRequestCancellation`): a statement run in a scope is tracked
 *    while it runs. On abandonment each running statement is cancelled with PostgreSQL's cancel request (the
 *    protocol's CancelRequest on a separate socket, as psql's Ctrl-C: no pooled connection and no login needed),
 *    and statements the request starts afterwards are refused without being sent, except the ends of a
 *    transaction (ROLLBACK, COMMIT, RELEASE), so a transaction always closes before its connection is released.
 *  - A cancelled statement settles only once PostgreSQL has received the cancel, so the connection cannot be
 *    handed to another request before it (a cancel that arrives after its statement ended is ignored by the
 *    idle backend). If the cancel cannot be delivered, the connection is closed instead of reused.
 * SQLite runs each statement synchronously: there is nothing to cancel there.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { ServerResponse } from 'node:http';
import type { DataSource } from 'typeorm';

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

const scopes = new AsyncLocalStorage<RequestScope>();
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

/** Run a request's handler in its scope; the scope is abandoned if the response closes before it finished. */
export function inRequestScope<T>(res: ServerResponse, fn: () => T): T {
  const scope: RequestScope = { abandoned: false, running: new Set() };
  res.once('close', () => {
    if (!res.writableFinished) abandon(scope);
  });
  return scopes.run(scope, fn);
}

/** The request scope a query config was made in (see `inCallersScope`). */
const SCOPE = Symbol('requestScope');

/**
 * Mark a query config with the request scope of the caller, for a statement sent through pg-pool's own `query()`:
 * the pool calls the client (callback style) from whichever call chain released a connection to it, so the scope
 * of that moment may be another request's. The config carries its request instead.
 */
export function inCallersScope<T extends object>(config: T): T {
  const scope = scopes.getStore();
  if (scope) (config as { [SCOPE]?: RequestScope })[SCOPE] = scope;
  return config;
}

function wrap(client: PgClientLike & { [WRAPPED]?: true }): void {
  if (client[WRAPPED]) return;
  client[WRAPPED] = true;
  const original = client.query;
  client.query = function (this: PgClientLike, ...args: unknown[]): unknown {
    const first = args[0] as { [SCOPE]?: RequestScope } | string | undefined;
    const marked = typeof first === 'object' && first !== null ? first[SCOPE] : undefined;
    // A callback-style call comes from pg-pool, in whatever call chain freed the connection: only a marked config
    // names its request. A promise-style call (TypeORM's query runner) runs in its caller's own chain.
    const callbackStyle = args.some((a) => typeof a === 'function');
    const scope = callbackStyle ? marked : (marked ?? scopes.getStore());
    if (!scope) return original.apply(this, args);
    const text = typeof args[0] === 'string' ? args[0] : ((args[0] as { text?: unknown })?.text ?? '');
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

/** Wrap the PostgreSQL pool's clients (a no-op on SQLite). */
export function installRequestCancellation(dataSource: DataSource): void {
  if (dataSource.options.type !== 'postgres') return;
  const pool = (dataSource.driver as unknown as { master?: { on(ev: 'acquire', fn: (c: PgClientLike) => void): void } }).master;
  pool?.on('acquire', wrap);
}
