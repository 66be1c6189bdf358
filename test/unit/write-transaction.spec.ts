/**
 * writeTransaction's own statements: a transaction is opened by one statement (PostgreSQL: BEGIN and the bounded
 * lock/statement waits in one round trip; SQLite: BEGIN IMMEDIATE), what it writes is committed with it or rolled
 * back with it, and a failed transaction leaves its pooled connection clean for the next one.
 */
import { execFile } from 'node:child_process';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { queryRows, sqlFor } from '../../src/db/rows';
import { BEGIN_BOUNDED, writeTransaction } from '../../src/db/transaction';
import { Client } from 'pg';
import { openDatabase } from '../../ormconfig';
import { createTestDatabaseConfig, openTestDatabase, TestDatabase, testDialect } from '../helpers/db';
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

  onPostgres('keeps a wait the operator set on the database, and bounds the other one (PostgreSQL)', async () => {
    const own = await createTestDatabaseConfig();
    const url = (own.database as { url: string }).url;
    const admin = new Client({ connectionString: url });
    await admin.connect();
    await admin.query(`ALTER DATABASE "${new URL(url).pathname.slice(1)}" SET statement_timeout = '5s'`);
    await admin.end();
    const ds = await openDatabase({ database: own.database });
    try {
      const inside = await writeTransaction(ds, (m) => m.query("SELECT current_setting('lock_timeout') AS lock, current_setting('statement_timeout') AS stmt"));
      expect(inside[0]).toEqual({ lock: '2s', stmt: '5s' });
      const outside = await ds.query("SELECT current_setting('lock_timeout') AS lock, current_setting('statement_timeout') AS stmt");
      expect(outside[0]).toEqual({ lock: '0', stmt: '5s' });
    } finally {
      await ds.destroy();
      await own.drop();
    }
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

  it('a transaction reached through the DataSource joins the one its call chain is in, also after an overlapping one ended', async () => {
    let openA!: () => void;
    const gateA = new Promise<void>((r) => (openA = r));
    let bStarted!: () => void;
    const bIn = new Promise<void>((r) => (bStarted = r));
    const a = writeTransaction(db.dataSource, async (m) => {
      await insert('overlap-a')(m);
      await gateA;
    });
    const b = writeTransaction(db.dataSource, async (m) => {
      bStarted();
      await insert('overlap-b')(m);
      // On PostgreSQL `a` ends while `b` is open; on SQLite `b` starts once `a` has ended (one writer).
      await a;
      await writeTransaction(db.dataSource, insert('overlap-b-nested'));
      throw new Error('roll b back');
    });
    if (postgres) await bIn;
    openA();
    await expect(b).rejects.toThrow('roll b back');
    // The nested call wrote in b's transaction: rolled back with it (a transaction of its own would have kept it).
    expect([await stored('overlap-a'), await stored('overlap-b'), await stored('overlap-b-nested')]).toEqual([1, 0, 0]);
  });

  it('a manager-only transaction commits or rolls back as one, and a call given its manager joins it', async () => {
    await writeTransaction(
      db.dataSource,
      async (m) => {
        await insert('manager-only-a')(m);
        await writeTransaction(m, insert('manager-only-b'));
      },
      { managerOnly: true },
    );
    await expect(
      writeTransaction(
        db.dataSource,
        async (m) => {
          await insert('manager-only-c')(m);
          await writeTransaction(m, insert('manager-only-d'));
          throw new Error('roll back');
        },
        { managerOnly: true },
      ),
    ).rejects.toThrow('roll back');
    expect([await stored('manager-only-a'), await stored('manager-only-b'), await stored('manager-only-c'), await stored('manager-only-d')]).toEqual([1, 1, 0, 0]);
  });

  /**
   * What `body` records in `seen` (JSON), run in a fresh process on the built code: Node's async hooks are per process
   * and jest's workers are shared. `body` has `ds` (this file's database, opened), `writeTransaction` and `hooksOn()`
   * (with promise hooks on, a continuation runs in its promise's async resource).
   */
  async function probeHooks(body: string): Promise<Record<string, boolean>> {
    const dist = path.join(__dirname, '..', '..', 'dist');
    const script = `
      require('reflect-metadata');
      const { executionAsyncResource } = require('node:async_hooks');
      const { openDatabase } = require(${JSON.stringify(path.join(dist, 'ormconfig.js'))});
      const { writeTransaction } = require(${JSON.stringify(path.join(dist, 'src', 'db', 'transaction.js'))});
      const hooksOn = async () => { await null; return executionAsyncResource() instanceof Promise; };
      setImmediate(async () => {
        const ds = await openDatabase({ database: JSON.parse(process.env.TEST_DATABASE) });
        const seen = {};
        ${body}
        await ds.destroy();
        console.log(JSON.stringify(seen));
      });
    `;
    const { stdout } = await promisify(execFile)(process.execPath, ['-e', script], {
      cwd: path.join(__dirname, '..', '..'),
      env: { PATH: process.env.PATH ?? '', TEST_DATABASE: JSON.stringify(db.database) },
      encoding: 'utf8',
    });
    return JSON.parse(stdout.trim()) as Record<string, boolean>;
  }

  it('a manager-only transaction turns no promise hooks on (PostgreSQL; SQLite keeps its scope)', async () => {
    const seen = await probeHooks(`
      await writeTransaction(ds, async (m) => { seen.inside = await hooksOn(); await m.query('SELECT 1'); seen.afterStatement = await hooksOn(); }, { managerOnly: true });
      seen.after = await hooksOn();
    `);
    expect(seen).toEqual({ inside: !postgres, afterStatement: !postgres, after: false });
  });

  it('once no write transaction runs, the process runs no promise hooks (what it reads does not pay for the scope)', async () => {
    const seen = await probeHooks(`
      seen.before = await hooksOn();
      await writeTransaction(ds, async (m) => { seen.inside = await hooksOn(); await m.query('SELECT 1'); });
      seen.after = await hooksOn();
      await Promise.all([1, 2].map(() => writeTransaction(ds, async (m) => { await m.query('SELECT 1'); })));
      seen.afterTwo = await hooksOn();
    `);
    expect(seen).toEqual({ before: false, inside: true, after: false, afterTwo: false });
  });
});
