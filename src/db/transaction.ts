/**
 * The one way this project writes: `writeTransaction(db, fn)`.
 *
 *  - PostgreSQL: a READ COMMITTED transaction on its own pooled connection; rows that a read-modify-write
 *    decides on are loaded with `SELECT … FOR UPDATE` (`lockedFindOne` / `forUpdate`), so a concurrent writer
 *    of the same row waits and then sees the committed state.
 *  - SQLite: TypeORM's better-sqlite3 driver has ONE connection for the whole process, so two transactions
 *    of one process would interleave their statements on it (the second BEGIN becomes a SAVEPOINT of the
 *    first). Write transactions of a DataSource are therefore serialised by an in-process async mutex, and
 *    each starts with `BEGIN IMMEDIATE`: the database write lock is taken up front (waiting `busy_timeout`
 *    for another process), so a read inside the transaction can never be followed by a lost write or by
 *    SQLITE_BUSY_SNAPSHOT.
 *  - Both: a transaction that fails because the database is busy (SQLITE_BUSY*, SQLITE_LOCKED*, PostgreSQL
 *    serialization failure or deadlock) is retried a bounded number of times with jittered backoff; if it is
 *    still busy the caller gets UnavailableError (503 / SERVICE_UNAVAILABLE), never a 500.
 *  - A transaction that loses an insert race (unique violation) runs once more, re-evaluating its rules.
 *  - A writeTransaction inside another one (same async call chain, same DataSource) joins the outer one; inside a
 *    `managerOnly` one (PostgreSQL), only a call given its manager does (see WriteTransactionOptions).
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { rootDataSource } from './request-cancel';
import type { DataSource, EntityManager, EntityTarget, FindOptionsWhere, ObjectLiteral, QueryRunner, SelectQueryBuilder } from 'typeorm';
import { isDatabaseBusy, isUniqueViolation, UnavailableError } from '../errors/app-error';

/** PostgreSQL query_canceled by statement_timeout: the database is overloaded; retrying would only add to it. */
function isStatementTimeout(e: unknown): boolean {
  const err = (e ?? {}) as { code?: string; driverError?: { code?: string } };
  return (err.code ?? err.driverError?.code) === '57014' && /statement timeout/i.test(String((e as Error).message ?? ''));
}

/** How many times a busy transaction is tried in all, and the base of the exponential backoff. */
export const BUSY_ATTEMPTS = 5;
const BACKOFF_BASE_MS = 20;

class Mutex {
  private tail: Promise<void> = Promise.resolve();
  /** Callers holding or waiting for the mutex. */
  private users = 0;
  /** Nobody holds the mutex or waits for it: synchronous work may run now without waiting its turn. */
  get idle(): boolean {
    return this.users === 0;
  }
  async run<T>(fn: () => Promise<T>): Promise<T> {
    const previous = this.tail;
    let release!: () => void;
    this.tail = new Promise<void>((r) => (release = r));
    this.users++;
    try {
      await previous;
      return await fn();
    } finally {
      this.users--;
      release();
    }
  }
}

/**
 * The write transactions the current call chain is in, per DataSource. An AsyncLocalStorage enabled once makes Node 20
 * run promise hooks for every promise of the process from then on (every request pays, writing or not), so it is
 * enabled only while a write transaction runs: one instance per busy period, disabled when the last transaction ends.
 * A fresh instance per period, so a stray continuation of an ended transaction never finds that transaction again.
 */
let active: AsyncLocalStorage<Map<DataSource, EntityManager>> | undefined;
let transactionsRunning = 0;

function currentTransactions(): Map<DataSource, EntityManager> | undefined {
  return active?.getStore();
}

async function inTransactionScope<R>(map: Map<DataSource, EntityManager>, run: () => Promise<R>): Promise<R> {
  const storage = (active ??= new AsyncLocalStorage());
  transactionsRunning++;
  try {
    return await storage.run(map, run);
  } finally {
    if (--transactionsRunning === 0) {
      storage.disable();
      active = undefined;
    }
  }
}
const sqliteLocks = new WeakMap<DataSource, Mutex>();
const guarded = new WeakSet<object>();

/**
 * The write mutex of a SQLite DataSource. On first use, the process's single query runner is made to run
 * every statement issued outside a write transaction under the same mutex: a statement of another request
 * can then never land inside an open transaction (where a rollback would take it along, or where it would
 * read uncommitted rows) — it runs before or after the transaction, as with a real second connection.
 */
function sqliteLock(ds: DataSource): Mutex {
  let lock = sqliteLocks.get(ds);
  if (!lock) sqliteLocks.set(ds, (lock = new Mutex()));
  // The driver makes a new query runner after a destroy/initialize: guard whichever is current. Asked of the driver
  // (its one runner): DataSource.createQueryRunner would also make a new EntityManager on every read.
  const qr = ds.driver.createQueryRunner('master');
  if (!guarded.has(qr)) {
    guarded.add(qr);
    const query = qr.query.bind(qr) as (...args: unknown[]) => Promise<unknown>;
    const mutex = lock;
    (qr as { query: unknown }).query = (...args: unknown[]) => (currentTransactions()?.has(ds) ? query(...args) : mutex.run(() => query(...args)));
  }
  return lock;
}

/**
 * Run a synchronous SQLite read outside any write transaction's turn, as the guarded query runner runs
 * TypeORM's statements (see sqliteLock): at once when no write transaction holds or awaits the mutex (the
 * read is synchronous, so nothing can start between the check and the read), otherwise after them, so it
 * never sees rows of a transaction that is still open. Inside a write transaction (same async chain) it runs
 * at once, on that transaction's connection state.
 */
export function sqliteReadTurn<T>(ds: DataSource, read: () => T): T | Promise<T> {
  const lock = sqliteLock(ds);
  if (lock.idle || currentTransactions()?.has(ds)) return read();
  return lock.run(async () => read());
}

function isSqlite(ds: DataSource): boolean {
  return ds.options.type === 'better-sqlite3';
}

function managerOf(db: EntityManager | DataSource): EntityManager {
  return 'connection' in db ? db : db.manager;
}

export function isPostgres(db: EntityManager | DataSource): boolean {
  return managerOf(db).connection.options.type === 'postgres';
}

/**
 * PostgreSQL: how long a write transaction's statement waits for a row or table lock (then 55P03, retried as a busy
 * database), and how long one statement may run (then 57014, answered 503 at once). Without them a transaction
 * waiting for a lock holds its pooled connection for as long as the holder takes, and a burst of such waits starves
 * the pool for every other request. A timeout an operator set on the database or role (not 0) is kept.
 */
export const LOCK_TIMEOUT_MS = 2_000;
export const STATEMENT_TIMEOUT_MS = 15_000;
/**
 * The transaction's start and its bounded waits in ONE round trip: a constant text sent by the simple query protocol
 * (no parameters), whose BEGIN opens the transaction block the SET LOCALs and every later statement run in. Starting
 * the transaction and then setting the waits cost two round trips per write transaction, on every write of every
 * domain. A wait an operator set (database, role or server; not 0) is left alone: `beginText` reads the session
 * defaults once per DataSource and leaves its SET out (a change of them takes effect at the gateway's next start).
 */
export function boundedBegin(lockTimeout: string, statementTimeout: string): string {
  const unset = (v: string) => v === '0' || v === '0ms';
  return [
    'BEGIN',
    ...(unset(lockTimeout) ? [`SET LOCAL lock_timeout = '${LOCK_TIMEOUT_MS}ms'`] : []),
    ...(unset(statementTimeout) ? [`SET LOCAL statement_timeout = '${STATEMENT_TIMEOUT_MS}ms'`] : []),
  ].join('; ');
}
/** The start of a write transaction on a database with no waits of its own set (the usual case). */
export const BEGIN_BOUNDED = boundedBegin('0', '0');

/**
 * The start of a write transaction of this DataSource (boundedBegin of its session defaults), read once per root
 * DataSource on a pooled connection of its own, before the transaction takes one (so a burst of first transactions
 * cannot hold every connection while waiting for this read). Each transaction decided this with a SELECT of two
 * set_config(CASE ...) calls before: a statement planned and run on every write.
 */
const beginTexts = new WeakMap<DataSource, Promise<string>>();
function beginText(ds: DataSource): Promise<string> {
  const root = rootDataSource(ds);
  let text = beginTexts.get(root);
  if (!text) {
    const pool = (root.driver as unknown as { master: { query(sql: string): Promise<{ rows: Array<{ l: string; s: string }> }> } }).master;
    text = pool.query("SELECT current_setting('lock_timeout') AS l, current_setting('statement_timeout') AS s").then(({ rows: [r] }) => boundedBegin(r.l, r.s));
    // A failed read (the database restarting) is tried again by the next transaction, not remembered.
    text.catch(() => beginTexts.delete(root));
    beginTexts.set(root, text);
  }
  return text;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** SQLite: BEGIN IMMEDIATE on the process's single connection, with TypeORM's bookkeeping kept right. */
async function runSqlite<T>(ds: DataSource, fn: (m: EntityManager) => Promise<T>): Promise<T> {
  const qr = ds.createQueryRunner() as Omit<QueryRunner, 'isTransactionActive'> & { isTransactionActive: boolean; transactionDepth?: number };
  if (qr.isTransactionActive || qr.transactionDepth !== 0) {
    // Only a transaction started outside writeTransaction can be open here (e.g. a direct dataSource.transaction).
    throw new Error('writeTransaction: the SQLite connection is already in a transaction not started by writeTransaction');
  }
  await qr.query('BEGIN IMMEDIATE');
  qr.isTransactionActive = true;
  qr.transactionDepth = 1;
  try {
    const result = await fn(qr.manager);
    await qr.commitTransaction();
    return result;
  } catch (e) {
    try {
      await qr.rollbackTransaction();
    } catch {
      // The original error matters; a failed rollback leaves nothing open (SQLite rolls back on its own).
      qr.isTransactionActive = false;
      qr.transactionDepth = 0;
    }
    throw e;
  }
}

/**
 * PostgreSQL: a pooled connection's query runner, BEGIN with the bounded waits (beginText), `fn`, COMMIT (or
 * ROLLBACK), release: what TypeORM's `dataSource.transaction` does, with TypeORM's bookkeeping kept right (as for
 * SQLite's BEGIN IMMEDIATE), but the start in one round trip instead of two.
 */
async function runPostgres<T>(ds: DataSource, fn: (m: EntityManager) => Promise<T>): Promise<T> {
  const begin = await beginText(ds);
  const qr = ds.createQueryRunner() as Omit<QueryRunner, 'isTransactionActive'> & { isTransactionActive: boolean; transactionDepth?: number };
  try {
    qr.isTransactionActive = true;
    qr.transactionDepth = 1;
    try {
      await qr.query(begin);
      const result = await fn(qr.manager);
      await qr.commitTransaction();
      return result;
    } catch (e) {
      try {
        // Also after a start (BEGIN; SET LOCAL ...) that failed half-way (outside a transaction, ROLLBACK only warns).
        await qr.rollbackTransaction();
      } catch {
        // The original error matters (TypeORM's own transaction() does the same).
      }
      throw e;
    }
  } finally {
    await qr.release();
  }
}

export interface WriteTransactionOptions {
  /**
   * The callback reaches the database only through the manager it is given (and helpers it passes that manager to),
   * never through a DataSource or a request's context: no nested call needs the call chain's scope to find this
   * transaction. On PostgreSQL it then runs without that scope, so the promise hooks of the AsyncLocalStorage (which
   * every promise of the process pays while any transaction holds a scope) stay off for it. SQLite keeps the scope:
   * its guarded connection tells a transaction's own statements from others' by it.
   */
  managerOnly?: boolean;
}

async function runOnce<T>(ds: DataSource, fn: (m: EntityManager) => Promise<T>, opts: WriteTransactionOptions): Promise<T> {
  const within = <R>(m: EntityManager, run: () => Promise<R>) => {
    const map = new Map(currentTransactions() ?? []);
    map.set(rootDataSource(ds), m);
    return inTransactionScope(map, run);
  };
  if (isSqlite(ds)) {
    const lock = sqliteLock(ds);
    return lock.run(() => within(ds.createQueryRunner().manager, () => runSqlite(ds, fn)));
  }
  return runPostgres(ds, opts.managerOnly ? fn : (m) => within(m, () => fn(m)));
}

/**
 * Run `fn` in a write transaction of `db`'s DataSource (see the file comment). Joins the caller's
 * transaction when `db` is a transaction's manager or when called inside another writeTransaction.
 */
export async function writeTransaction<T>(db: EntityManager | DataSource, fn: (m: EntityManager) => Promise<T>, opts: WriteTransactionOptions = {}): Promise<T> {
  const manager = managerOf(db);
  if (manager.queryRunner?.isTransactionActive) return fn(manager);
  const ds = manager.connection;
  const outer = currentTransactions()?.get(rootDataSource(ds));
  if (outer) return fn(outer);
  let raced = false;
  for (let attempt = 1; ; attempt++) {
    try {
      return await runOnce(ds, fn, opts);
    } catch (e) {
      // A concurrent writer inserted the same row first: run once more, so the rules see that row
      // (an existing-row path, or the caller's own "already exists" error).
      if (isUniqueViolation(e) && !raced) {
        raced = true;
        continue;
      }
      if (isStatementTimeout(e)) throw new UnavailableError('Service unavailable: the database is busy. Try again shortly.');
      if (!isDatabaseBusy(e)) throw e;
      if (attempt >= BUSY_ATTEMPTS) {
        throw new UnavailableError('Service unavailable: the database is busy. Try again shortly.');
      }
      // Full jitter over an exponential window: 20, 40, 80, 160 ms.
      await sleep(Math.random() * BACKOFF_BASE_MS * 2 ** attempt);
    }
  }
}

/**
 * PostgreSQL's row lock strengths a read-modify-write can ask for: `update` (FOR UPDATE: the row may be deleted or
 * its key changed; excludes every other lock), `no-key-update` (FOR NO KEY UPDATE: other columns change; lets
 * `key-share` holders in) and `key-share` (FOR KEY SHARE: the row must stay, as a foreign key needs it; excludes
 * only `update`).
 */
export type RowLock = 'update' | 'no-key-update' | 'key-share';
const ROW_LOCK_MODES = { update: 'pessimistic_write', 'no-key-update': 'for_no_key_update', 'key-share': 'for_key_share' } as const;

/**
 * Load one row for a read-modify-write: `SELECT … FOR UPDATE` (or the weaker `lock` asked for) on PostgreSQL (the
 * row stays locked until the transaction ends); on SQLite the write transaction already holds the database write
 * lock. Use it only inside writeTransaction.
 */
export function lockedFindOne<E extends ObjectLiteral>(db: EntityManager, entity: EntityTarget<E>, where: FindOptionsWhere<E>, lock: RowLock = 'update'): Promise<E | null> {
  return db.getRepository(entity).findOne({ where, ...(isPostgres(db) ? { lock: { mode: ROW_LOCK_MODES[lock] } } : {}) });
}

/**
 * Serialize writers of one logical key until the transaction ends: `pg_advisory_xact_lock` on PostgreSQL, for rules
 * no unique index can hold (e.g. "a term name is unique per taxonomy and parent", checked by reading first). On SQLite
 * the write transaction already holds the database write lock. Use it only inside writeTransaction.
 */
export async function lockKey(db: EntityManager, key: string): Promise<void> {
  if (isPostgres(db)) await db.query('SELECT pg_advisory_xact_lock(hashtext($1))', [key]);
}

/** `FOR UPDATE` on a query builder, on PostgreSQL only (better-sqlite3 rejects lock modes). */
export function forUpdate<E extends ObjectLiteral>(qb: SelectQueryBuilder<E>): SelectQueryBuilder<E> {
  return qb.connection.options.type === 'postgres' ? qb.setLock('pessimistic_write') : qb;
}

/**
 * Method decorator: run the method in writeTransaction of its first argument (an EntityManager), which the
 * method then receives as the transaction's manager. For service methods that read, check, then write.
 */
export function InWriteTransaction() {
  return function (_target: object, _key: string | symbol, descriptor: PropertyDescriptor): void {
    const original = descriptor.value as (db: EntityManager, ...rest: unknown[]) => Promise<unknown>;
    descriptor.value = function (this: unknown, db: EntityManager, ...rest: unknown[]) {
      return writeTransaction(db, (tx) => original.call(this, tx, ...rest));
    };
  };
}
