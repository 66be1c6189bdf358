/**
 * Hot reads (src/db/rows.ts runRead) must not see what an open write transaction of another request has written
 * and not yet committed. SQLite has one connection per process, so a read issued while a write transaction awaits
 * between its statements would otherwise run inside that transaction. PostgreSQL reads run on other pooled
 * connections (READ COMMITTED). Either way: before the commit the row is invisible, after it the row is there,
 * and after a rollback it never appears.
 */
import { AccountEntity } from '../../entities/identity';
import { queryRows } from '../../src/db/rows';
import { writeTransaction } from '../../src/db/transaction';
import { openTestDatabase, TestDatabase, testDialect } from '../helpers/db';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const LOOKUP = 'SELECT "login" FROM "accounts" WHERE "login_lower" = ?';

describe('hot reads and open write transactions', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await openTestDatabase();
  });
  afterAll(async () => {
    await db.drop();
  });

  async function insertAndHold(login: string, outcome: 'commit' | 'rollback') {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let inserted!: () => void;
    const written = new Promise<void>((r) => (inserted = r));
    const tx = writeTransaction(db.dataSource, async (m) => {
      await m.getRepository(AccountEntity).insert({ login, loginLower: login.toLowerCase(), type: 'User' } as Partial<AccountEntity>);
      inserted();
      await gate;
      if (outcome === 'rollback') throw new Error('rolled back on purpose');
    });
    await written;
    return { tx, release };
  }

  it('a read during an open transaction sees the committed state only (commit)', async () => {
    const { tx, release } = await insertAndHold('isolation-commit', 'commit');
    let seen: unknown[] | undefined;
    const read = queryRows(db.dataSource.manager, LOOKUP, ['isolation-commit']).then((rows) => (seen = rows));
    if (testDialect() === 'sqlite') {
      // One connection: the read waits for the transaction's end, then sees the committed row.
      await sleep(30);
      expect(seen).toBeUndefined();
    } else {
      // Another pooled connection, READ COMMITTED: answered while the transaction is still open (however long a
      // loaded machine takes to answer), without the uncommitted row.
      // The bound's timer is cleared once the read answers: left running, it held jest's worker 10 s past its last file.
      let bound: NodeJS.Timeout | undefined;
      await Promise.race([read, new Promise((r) => (bound = setTimeout(r, 10_000)))]);
      clearTimeout(bound);
      expect(seen).toEqual([]);
    }
    release();
    await tx;
    await read;
    expect(seen).toEqual(testDialect() === 'sqlite' ? [{ login: 'isolation-commit' }] : []);
    const after = await queryRows(db.dataSource.manager, LOOKUP, ['isolation-commit']);
    expect(after).toEqual([{ login: 'isolation-commit' }]);
  });

  it('a read during an open transaction that rolls back never sees its row', async () => {
    const { tx, release } = await insertAndHold('isolation-rollback', 'rollback');
    const read = queryRows(db.dataSource.manager, LOOKUP, ['isolation-rollback']);
    await sleep(30);
    release();
    await expect(tx).rejects.toThrow('rolled back on purpose');
    expect(await read).toEqual([]);
    expect(await queryRows(db.dataSource.manager, LOOKUP, ['isolation-rollback'])).toEqual([]);
  });
});
