/**
 * The memo of presented texts (src/rest/text-memo.ts): a kept text is given out again only for rows equal in every
 * column (each column of each kind changed alone is noticed), the byte bound holds, and whole array bodies are
 * reused only for the very same sequence of texts. End to end (REST alert lists after rows change behind the
 * service's back): test/e2e/secret-scanning-rest-list-bodies.e2e.ts.
 */
import { AccountEntity, RepositoryEntity } from '../../entities/identity';
import { SecretScanningAlertEntity } from '../../entities/secret-scanning';
import { jsonArrayOfTexts } from '../../src/rest/json-body';
import { AnswerMemo, sameRow, TextMemo } from '../../src/rest/text-memo';
import { openTestDatabase, TestDatabase } from '../helpers/db';

describe('TextMemo', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await openTestDatabase();
  });
  afterAll(() => db?.drop());

  const account = (over: Partial<AccountEntity> = {}): AccountEntity =>
    Object.assign(new AccountEntity(), {
      id: 7,
      login: 'octo',
      loginLower: 'octo',
      type: 'User',
      name: null,
      email: 'o@example.com',
      calendarRole: null,
      siteAdmin: false,
      createdAt: new Date('2026-01-01T00:00:00Z'),
      updatedAt: new Date('2026-01-02T00:00:00Z'),
      ...over,
    });

  it('sameRow: equal rows are the same; any one column changed, a date moved, null against a value are not', () => {
    const ds = db.dataSource;
    expect(sameRow(ds, account(), account())).toBe(true);
    expect(sameRow(ds, null, undefined)).toBe(true);
    expect(sameRow(ds, account(), null)).toBe(false);
    for (const change of [
      { id: 8 },
      { login: 'octo2' },
      { type: 'Organization' as const },
      { name: 'Octo' },
      { email: null },
      { siteAdmin: true },
      { createdAt: new Date('2026-01-01T00:00:01Z') },
      { updatedAt: new Date(Number.NaN) },
    ]) {
      expect([change, sameRow(ds, account(), account(change as Partial<AccountEntity>))]).toEqual([change, false]);
    }
    // Two Date objects of the same instant are the same value.
    expect(sameRow(ds, account({ createdAt: new Date(0) }), account({ createdAt: new Date(0) }))).toBe(true);
    // Rows of different entities never match, even with equal ids.
    const repo = Object.assign(new RepositoryEntity(), { id: 7 });
    expect(sameRow(ds, account(), repo as unknown as AccountEntity)).toBe(false);
    // Every column of a wide entity takes part.
    const columns = ds.getMetadata(SecretScanningAlertEntity).columns.filter((c) => !c.isVirtual);
    const alert = Object.assign(new SecretScanningAlertEntity(), Object.fromEntries(columns.map((c, i) => [c.propertyName, c.type === Date || c.type === 'datetime' ? new Date(i * 1000) : `v${i}`])));
    for (const c of columns) {
      const other = Object.assign(new SecretScanningAlertEntity(), alert, { [c.propertyName]: 'changed' });
      expect([c.propertyName, sameRow(ds, alert, other)]).toEqual([c.propertyName, false]);
    }
  });

  it('gives a kept text only for the same extra and equal rows, and makes it again otherwise', () => {
    const memo = new TextMemo(1 << 20);
    const ds = db.dataSource;
    let made = 0;
    const make = (text: string) => () => {
      made++;
      return text;
    };
    const a = memo.text(ds, 's', 'x', [account()], make('"a"'));
    expect(memo.text(ds, 's', 'x', [account()], make('"never"'))).toBe(a);
    expect(made).toBe(1);
    expect(memo.text(ds, 's', 'y', [account()], make('"b"')).toString()).toBe('"b"');
    expect(memo.text(ds, 's', 'y', [account({ login: 'other' })], make('"c"')).toString()).toBe('"c"');
    expect(memo.text(ds, 's', 'y', [account({ login: 'other' }), null], make('"d"')).toString()).toBe('"d"');
    expect(made).toBe(4);
  });

  it('stays within its byte bound, dropping the least recently used first', () => {
    const memo = new TextMemo(64 * 1024);
    const ds = db.dataSource;
    const big = 'x'.repeat(10_000);
    for (let i = 0; i < 20; i++) memo.text(ds, `s${i}`, '', [], () => JSON.stringify(big));
    expect(memo.usedBytes).toBeLessThanOrEqual(64 * 1024);
    expect(memo.size).toBeLessThan(20);
    let remade = false;
    memo.text(ds, 's19', '', [], () => ((remade = true), '""'));
    expect(remade).toBe(false);
    memo.text(ds, 's0', '', [], () => ((remade = true), '""'));
    expect(remade).toBe(true);
  });

  it('jsonArray: the same body for the same sequence of kept texts, a new one for any other', () => {
    const memo = new TextMemo(1 << 20);
    const ds = db.dataSource;
    const t1 = memo.text(ds, '1', '', [], () => '{"n":1}');
    const t2 = memo.text(ds, '2', '', [], () => '{"n":2}');
    const first = memo.jsonArray([t1, t2], jsonArrayOfTexts);
    expect(first.toString()).toBe('[{"n":1},{"n":2}]');
    expect(memo.jsonArray([t1, t2], jsonArrayOfTexts)).toBe(first);
    expect(memo.jsonArray([t2, t1], jsonArrayOfTexts).toString()).toBe('[{"n":2},{"n":1}]');
    expect(memo.jsonArray([t1], jsonArrayOfTexts).toString()).toBe('[{"n":1}]');
    // A changed row makes a new text, so a new body.
    const t2b = memo.text(ds, '2', 'changed', [], () => '{"n":3}');
    expect(memo.jsonArray([t1, t2b], jsonArrayOfTexts).toString()).toBe('[{"n":1},{"n":3}]');
    // Texts not made by the memo are never keyed.
    const loose = Buffer.from('{"n":4}');
    expect(memo.jsonArray([loose], jsonArrayOfTexts).toString()).toBe('[{"n":4}]');
  });

  it('AnswerMemo: a kept body only for the very same page text, extra and equal scope rows; bounded by bytes', () => {
    const ds = db.dataSource;
    const memo = new AnswerMemo(64 * 1024);
    const text = (n: number) => `[[${n},"x"]]\u001e[[${n + 1},"y"]]`;
    const body = Buffer.from('[{"a":1}]');
    memo.set(text(1), 'org0', [account()], body);
    expect(memo.get(ds, text(1), 'org0', [account()])).toEqual(body);
    expect(memo.get(ds, `${text(1)} `, 'org0', [account()])).toBeUndefined();
    expect(memo.get(ds, text(1), 'org1', [account()])).toBeUndefined();
    expect(memo.get(ds, text(1), 'org0', [account({ login: 'octo2' })])).toBeUndefined();
    expect(memo.get(ds, text(1), 'org0', [account(), null])).toBeUndefined();
    expect(memo.get(ds, undefined, 'org0', [account()])).toBeUndefined();
    // Another extra for the same text is kept beside it.
    const hidden = Buffer.from('[{"b":2}]');
    memo.set(text(1), 'org1', [account()], hidden);
    expect(memo.get(ds, text(1), 'org0', [account()])).toEqual(body);
    expect(memo.get(ds, text(1), 'org1', [account()])).toEqual(hidden);
    memo.set(undefined, 'org0', [account()], body); // no text: nothing kept
    expect(memo.size).toBe(1);
    // The bound: 20 KB bodies under 64 KB, least recently used out first.
    const big = (n: number) => Buffer.alloc(20 * 1024, n);
    for (let i = 10; i < 20; i++) {
      memo.set(text(i), 'org0', [account()], big(i));
      expect(memo.usedBytes).toBeLessThanOrEqual(64 * 1024);
    }
    expect(memo.get(ds, text(19), 'org0', [account()])).toEqual(big(19));
    expect(memo.get(ds, text(10), 'org0', [account()])).toBeUndefined();
    memo.set(text(30), 'org0', [account()], Buffer.alloc(80 * 1024)); // larger than the bound: not kept
    expect(memo.get(ds, text(30), 'org0', [account()])).toBeUndefined();
  });
});
