/**
 * writeTransaction's own statements: a transaction is opened by one statement (PostgreSQL: BEGIN and the bounded
 * lock/statement waits in one round trip; SQLite: BEGIN IMMEDIATE), what it writes is committed with it or rolled
 * back with it, and a failed transaction leaves its pooled connection clean for the next one.
 */
import { queryRows, sqlFor } from '../../src/db/rows';
import { BEGIN_BOUNDED, writeTransaction } from '../../src/db/transaction';
import { openTestDatabase, TestDatabase, testDialect } from '../helpers/db';
import { SqlLog } from '../helpers/sql-log';

const postgres = testDialect() === 'postgres';
const onPostgres = postgres ? it : it.skip;

describe('writeTransaction', () => {
  const log = new SqlLog();
  let db: TestDatabase;
  beforeAll(async () => {
    db = await openTestDatabase({ logger: log });
  });
  afterAll(async () => {
    await db.drop();
  });

  const insert = (key: string) => (m: import('typeorm').EntityManager) => m.query(sqlFor(m, 'INSERT INTO server_settings (key, value) VALUES (?, ?)'), [key, 'v']);
  const stored = async (key: string) => (await queryRows<{ key: string }>(db.dataSource.manager, 'SELECT key FROM server_settings WHERE key = ?', [key])).length;

  it('opens with one statement, then runs the caller statements and commits', async () => {
    const { statements } = await log.record(() => writeTransaction(db.dataSource, insert('one-statement')));
    expect(statements.map((s) => s.sql)).toEqual([postgres ? BEGIN_BOUNDED : 'BEGIN IMMEDIATE', expect.stringContaining('INSERT INTO server_settings'), 'COMMIT']);
    expect(await stored('one-statement')).toBe(1);
  });

  it('rolls back what a failing transaction wrote, and the next transactions run clean', async () => {
    await expect(
      writeTransaction(db.dataSource, async (m) => {
        await insert('rolled-back')(m);
        throw new Error('on purpose');
      }),
    ).rejects.toThrow('on purpose');
    expect(await stored('rolled-back')).toBe(0);
    // More transactions than the pool has connections: none inherits an open or aborted transaction.
    for (let i = 0; i < 12; i++) await writeTransaction(db.dataSource, insert(`after-${i}`));
    expect(await stored('after-11')).toBe(1);
  });

  it('a statement that fails inside rolls the whole transaction back', async () => {
    await expect(
      writeTransaction(db.dataSource, async (m) => {
        await insert('first-of-two')(m);
        await insert('first-of-two')(m); // primary key violation
      }),
    ).rejects.toThrow();
    expect(await stored('first-of-two')).toBe(0);
  });

  onPostgres('bounds lock and statement waits inside the transaction, and only there (PostgreSQL)', async () => {
    const inside = await writeTransaction(db.dataSource, (m) =>
      m.query("SELECT current_setting('lock_timeout') AS lock, current_setting('statement_timeout') AS stmt, now() = statement_timestamp() AS fresh"),
    );
    // now() is the transaction's start: different from the statement's start only inside an open transaction block.
    expect(inside[0]).toEqual({ lock: '2s', stmt: '15s', fresh: false });
    const outside = await db.dataSource.query("SELECT current_setting('lock_timeout') AS lock, current_setting('statement_timeout') AS stmt");
    expect(outside[0]).toEqual({ lock: '0', stmt: '0' });
  });

  onPostgres('nested calls join the outer transaction (PostgreSQL)', async () => {
    const { statements } = await log.record(() =>
      writeTransaction(db.dataSource, async (m) => {
        await insert('outer')(m);
        await writeTransaction(db.dataSource, insert('inner'));
      }),
    );
    expect(statements.filter((s) => s.sql === BEGIN_BOUNDED)).toHaveLength(1);
    expect(statements.filter((s) => s.sql === 'COMMIT')).toHaveLength(1);
    expect((await stored('outer')) + (await stored('inner'))).toBe(2);
  });
});
