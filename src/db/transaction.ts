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
 *  - A writeTransaction inside another one (same async call chain, same DataSource) joins the outer one.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { DataSource, EntityManager, EntityTarget, FindOptionsWhere, ObjectLiteral, QueryRunner, SelectQueryBuilder } from 'typeorm';
import { isDatabaseBusy, UnavailableError } from '../errors/app-error';

/** How many times a busy transaction is tried in all, and the base of the exponential backoff. */
export const BUSY_ATTEMPTS = 5;
const BACKOFF_BASE_MS = 20;

class Mutex {
  private tail: Promise<void> = Promise.resolve();
  async run<T>(fn: () => Promise<T>): Promise<T> {
    const previous = this.tail;
    let release!: () => void;
    this.tail = new Promise<void>((r) => (release = r));
    await previous;
    try {
      return await fn();
    } finally {
      release();
    }
  }
}

const mutexes = new WeakMap<DataSource, Mutex>();
const active = new AsyncLocalStorage<Map<DataSource, EntityManager>>();

function isSqlite(ds: DataSource): boolean {
  return ds.options.type === 'better-sqlite3';
}

function managerOf(db: EntityManager | DataSource): EntityManager {
  return 'connection' in db ? db : db.manager;
}

export function isPostgres(db: EntityManager | DataSource): boolean {
  return managerOf(db).connection.options.type === 'postgres';
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

async function runOnce<T>(ds: DataSource, fn: (m: EntityManager) => Promise<T>): Promise<T> {
  const inTx = (m: EntityManager) => {
    const map = new Map(active.getStore() ?? []);
    map.set(ds, m);
    return active.run(map, () => fn(m));
  };
  if (isSqlite(ds)) {
    let mutex = mutexes.get(ds);
    if (!mutex) mutexes.set(ds, (mutex = new Mutex()));
    return mutex.run(() => runSqlite(ds, inTx));
  }
  return ds.transaction(inTx);
}

/**
 * Run `fn` in a write transaction of `db`'s DataSource (see the file comment). Joins the caller's
 * transaction when `db` is a transaction's manager or when called inside another writeTransaction.
 */
export async function writeTransaction<T>(db: EntityManager | DataSource, fn: (m: EntityManager) => Promise<T>): Promise<T> {
  const manager = managerOf(db);
  if (manager.queryRunner?.isTransactionActive) return fn(manager);
  const ds = manager.connection;
  const outer = active.getStore()?.get(ds);
  if (outer) return fn(outer);
  for (let attempt = 1; ; attempt++) {
    try {
      return await runOnce(ds, fn);
    } catch (e) {
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
 * Load one row for a read-modify-write: `SELECT … FOR UPDATE` on PostgreSQL (the row stays locked until the
 * transaction ends); on SQLite the write transaction already holds the database write lock.
 * Use it only inside writeTransaction.
 */
export function lockedFindOne<E extends ObjectLiteral>(db: EntityManager, entity: EntityTarget<E>, where: FindOptionsWhere<E>): Promise<E | null> {
  return db.getRepository(entity).findOne({ where, ...(isPostgres(db) ? { lock: { mode: 'pessimistic_write' as const } } : {}) });
}

/** `FOR UPDATE` on a query builder, on PostgreSQL only (better-sqlite3 rejects lock modes). */
export function forUpdate<E extends ObjectLiteral>(qb: SelectQueryBuilder<E>): SelectQueryBuilder<E> {
  return qb.connection.options.type === 'postgres' ? qb.setLock('pessimistic_write') : qb;
}
