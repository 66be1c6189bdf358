/**
 * The shared decoders of client input (src/services/common/decode.ts), the cursor decoding built on them
 * (src/services/common/pagination.ts), global-id ids, and the caps on echoed input (quoteInput, AppError).
 */
import { statusOf } from '../helpers/github-answer';
import fc from 'fast-check';
import type { DataSource } from 'typeorm';
import { RepositoryEntity } from '../../entities/identity';
import { SecretScanningAlertEntity, SecretScanningLocationEntity } from '../../entities/secret-scanning';
import { decodeNodeId, toGlobalId, fromGlobalId } from '../../resolvers/common/global-id';
import { NotFoundError, quoteInput, ValidationError } from '../../src/errors/app-error';
import {
  columnKind,
  decodeColumnValue,
  decodeInt,
  decodeIsoDate,
  decodeString,
  INT4_MAX,
  INT4_MIN,
  lookupKey,
  lookupKeys,
  parseInteger,
  POSITIVE_INT4,
} from '../../src/services/common/decode';
import { decodeCursor, decodeKeysetCursor, encodeCursor } from '../../src/services/common/pagination';
import { openTestDatabase, TestDatabase } from '../helpers/db';

const SEED = { seed: 6_2026, numRuns: 2000 };

describe('decodeInt / parseInteger: int4 by default', () => {
  it.each([0, 1, -1, INT4_MAX, INT4_MIN])('accepts %d', (n) => expect(decodeInt(n)).toBe(n));
  it.each([INT4_MAX + 1, INT4_MIN - 1, 1.5, Number.NaN, Infinity, -Infinity, 1e20, '1', null, undefined, {}, [], true])('rejects %p', (v) => {
    expect(decodeInt(v)).toBeUndefined();
  });

  it.each([
    ['1', 1],
    ['2147483647', INT4_MAX],
    [' 42 ', 42],
    ['007', 7],
    ['+5', 5],
    ['-3', -3],
    ['0', 0],
    ['000000000000000000001', 1],
  ])('parses %p', (text, n) => expect(parseInteger(text)).toBe(n));

  it.each(['', ' ', 'abc', '1.5', '1e3', '0x10', '2147483648', '-2147483649', '99999999999', 'NaN', 'Infinity', '1 2', '١٢', '-', '--1'])(
    'rejects %p',
    (text) => expect(parseInteger(text)).toBeUndefined(),
  );

  it('canonical: exactly as the server writes it (no sign, no leading zeros, no blanks)', () => {
    expect(parseInteger('17', POSITIVE_INT4, { canonical: true })).toBe(17);
    for (const t of ['017', '+17', ' 17', '17 ', '0', '-1', '-0', '2147483648']) expect(parseInteger(t, POSITIVE_INT4, { canonical: true })).toBeUndefined();
  });

  it('property: every int4 round-trips through its decimal form; every other integer is refused', () => {
    fc.assert(
      fc.property(fc.integer({ min: INT4_MIN, max: INT4_MAX }), (n) => parseInteger(String(n), undefined, { canonical: true }) === n && parseInteger(String(n)) === n),
      SEED,
    );
    fc.assert(
      fc.property(fc.oneof(fc.bigInt({ min: 2n ** 31n, max: 10n ** 30n }), fc.bigInt({ min: -(10n ** 30n), max: -(2n ** 31n) - 1n })), (n) => parseInteger(String(n)) === undefined),
      SEED,
    );
  });

  it('property: any string decodes to an int4 integer or to nothing', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 40 }), (s) => {
        const n = parseInteger(s);
        return n === undefined || (Number.isInteger(n) && n >= INT4_MIN && n <= INT4_MAX);
      }),
      SEED,
    );
  });
});

describe('strings and dates', () => {
  it('decodeString: bounded, no NUL', () => {
    expect(decodeString('abc', 3)).toBe('abc');
    expect(decodeString('abcd', 3)).toBeUndefined();
    expect(decodeString('a\u0000b', 10)).toBeUndefined();
    expect(decodeString(5, 10)).toBeUndefined();
    expect(decodeString('', 10)).toBe('');
  });

  it('lookupKey: what no stored value can equal is undefined (empty, too long, NUL, not a string)', () => {
    expect(lookupKey('octocat', 39)).toBe('octocat');
    for (const v of ['', 'x'.repeat(40), 'oct\u0000cat', null, undefined, 42, {}]) expect(lookupKey(v, 39)).toBeUndefined();
    expect(lookupKeys(['a', 'b\u0000', 'x'.repeat(101), 'c'], 100)).toEqual(['a', 'c']);
  });

  it('decodeIsoDate: only what Date#toISOString writes', () => {
    const d = new Date('2026-01-05T08:00:00.123Z');
    expect(decodeIsoDate(d.toISOString())?.getTime()).toBe(d.getTime());
    expect(decodeIsoDate('2026-01-05T08:00:00Z')?.toISOString()).toBe('2026-01-05T08:00:00.000Z');
    for (const v of ['yesterday', '2026-13-45T99:99:99Z', '2026-01-05', 1736064000000, {}, null, '2026-01-05T08:00:00.123+01:00']) {
      expect(decodeIsoDate(v)).toBeUndefined();
    }
  });
});

describe('cursors decoded against the column types (TypeORM metadata, SQLite and PostgreSQL names)', () => {
  // The real data source of this run (SQLite, or PostgreSQL with DATABASE_URL): its driver names the types.
  let db: TestDatabase;
  let ds: DataSource;
  beforeAll(async () => {
    db = await openTestDatabase();
    ds = db.dataSource;
  });
  afterAll(() => db.drop());

  const col = (entity: Function, property: string) => ds.getMetadata(entity).findColumnWithPropertyName(property)!;
  const id = (entity: Function) => ds.getMetadata(entity).primaryColumns[0];

  it('column kinds: ids int4, timestamps dates, names bounded strings, flags booleans', () => {
    expect(columnKind(ds.driver, id(SecretScanningAlertEntity))).toEqual({ kind: 'int', range: { min: INT4_MIN, max: INT4_MAX } });
    expect(columnKind(ds.driver, col(SecretScanningAlertEntity, 'createdAt'))).toEqual({ kind: 'date' });
    expect(columnKind(ds.driver, col(SecretScanningAlertEntity, 'updatedAt'))).toEqual({ kind: 'date' });
    expect(columnKind(ds.driver, col(RepositoryEntity, 'nameLower'))).toEqual({ kind: 'string', maxLength: 100 });
    expect(columnKind(ds.driver, col(RepositoryEntity, 'private'))).toEqual({ kind: 'boolean' });
    expect(columnKind(ds.driver, col(SecretScanningAlertEntity, 'secret'))).toEqual({ kind: 'string', maxLength: 1024 });
  });

  it('PostgreSQL type names map to the same kinds', () => {
    const fake = (type: string) => ({ normalizeType: () => type }) as never as DataSource['driver'];
    const c = { propertyName: 'x', length: '' } as never;
    expect(columnKind(fake('integer'), c)).toEqual({ kind: 'int', range: { min: INT4_MIN, max: INT4_MAX } });
    expect(columnKind(fake('timestamp without time zone'), c)).toEqual({ kind: 'date' });
    expect(columnKind(fake('character varying'), { propertyName: 'x', length: '39' } as never)).toEqual({ kind: 'string', maxLength: 39 });
    expect(columnKind(fake('boolean'), c)).toEqual({ kind: 'boolean' });
    expect(() => columnKind(fake('jsonb'), c)).toThrow(/no decoder/);
  });

  it('decodeColumnValue: null only for nullable columns', () => {
    expect(decodeColumnValue(ds.driver, id(SecretScanningAlertEntity), null)).toBeUndefined();
    expect(decodeColumnValue(ds.driver, col(SecretScanningAlertEntity, 'resolvedAt'), null)).toEqual({ value: null });
  });

  it('genuine cursors decode to the values they were made from', () => {
    const at = new Date('2026-01-05T08:00:00.123Z');
    const r = decodeKeysetCursor(ds.driver, col(SecretScanningAlertEntity, 'createdAt'), id(SecretScanningAlertEntity), encodeCursor(at.toISOString(), 42), 'after');
    expect(r).toEqual({ value: at, id: 42 });
    expect(decodeKeysetCursor(ds.driver, col(RepositoryEntity, 'nameLower'), id(RepositoryEntity), encodeCursor('api', 7), 'after')).toEqual({ value: 'api', id: 7 });
    expect(decodeKeysetCursor(ds.driver, id(SecretScanningLocationEntity), id(SecretScanningLocationEntity), encodeCursor(INT4_MAX, INT4_MAX), 'after')).toEqual({
      value: INT4_MAX,
      id: INT4_MAX,
    });
  });

  const raw = (json: string) => Buffer.from(json, 'utf8').toString('base64url');
  const DATE = '"2026-01-05T08:00:00.123Z"';
  it.each([
    [`[${DATE},1e400]`],
    [`[${DATE},"abc"]`],
    [`[${DATE},"1"]`],
    [`[${DATE},1.5]`],
    [`[${DATE},99999999999]`],
    [`[${DATE},-2147483649]`],
    [`[${DATE},null]`],
    [`[{"a":1},1]`],
    [`[[1],1]`],
    [`[1e400,1]`],
    [`[12345,1]`],
    [`[true,1]`],
    [`["2026-99-99T00:00:00Z",1]`],
    [`[null,1]`],
    [`[${DATE},1,2]`],
    [`{"0":${DATE},"1":1}`],
    [`"x"`],
    [`not json`],
  ])('a createdAt-sorted cursor %s is a 400 ValidationError naming the argument', (json) => {
    const decode = () => decodeKeysetCursor(ds.driver, col(SecretScanningAlertEntity, 'createdAt'), id(SecretScanningAlertEntity), raw(json), 'before');
    expect(decode).toThrow(ValidationError);
    expect(decode).toThrow(/`before`/);
    try {
      decode();
    } catch (e) {
      expect(statusOf(e)).toBe(400);
    }
  });

  it.each([[`[5,1]`], [`["a\\u0000b",1]`], [`["${'x'.repeat(101)}",1]`], [`[{},1]`]])('a name-sorted cursor %s is refused', (json) => {
    expect(() => decodeKeysetCursor(ds.driver, col(RepositoryEntity, 'nameLower'), id(RepositoryEntity), raw(json), 'after')).toThrow(ValidationError);
  });

  it('oversized or non-base64url cursors are refused before parsing', () => {
    expect(() => decodeCursor('A'.repeat(5000), 'after')).toThrow(ValidationError);
    expect(() => decodeCursor('a b', 'after')).toThrow(ValidationError);
  });

  it('property: any JSON pair either decodes to column-typed values or is a ValidationError (never anything else)', () => {
    const sortCol = col(SecretScanningAlertEntity, 'createdAt');
    const idCol = id(SecretScanningAlertEntity);
    fc.assert(
      fc.property(fc.jsonValue(), fc.jsonValue(), (v, i) => {
        try {
          const r = decodeKeysetCursor(ds.driver, sortCol, idCol, raw(JSON.stringify([v, i])), 'after');
          return r.value instanceof Date && !Number.isNaN(r.value.getTime()) && decodeInt(r.id) === r.id;
        } catch (e) {
          return e instanceof ValidationError;
        }
      }),
      { seed: SEED.seed, numRuns: 500 },
    );
  });
});

describe('global ids: the id is decoded by the kind the node type declares', () => {
  it('int4: positive, canonical, within int4', () => {
    expect(decodeNodeId('int4', '1')).toBe(1);
    expect(decodeNodeId('int4', String(INT4_MAX))).toBe(INT4_MAX);
    for (const id of ['abc', '-', 'NaN', '1e20', '0', '-1', '007', '2147483648', '99999999999', '1.5', '']) expect(decodeNodeId('int4', id)).toBeUndefined();
  });

  it('property: toGlobalId then fromGlobalId + decodeNodeId gives the id back for every positive int4', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: INT4_MAX }), (n) => {
        const parsed = fromGlobalId(toGlobalId('Repository', n));
        return parsed !== null && decodeNodeId('int4', parsed.id) === n;
      }),
      SEED,
    );
  });
});

describe('echoed input is capped', () => {
  it('quoteInput keeps 100 characters + "…" between quotes', () => {
    expect(quoteInput('octocat')).toBe("'octocat'");
    expect(quoteInput('x'.repeat(100))).toBe(`'${'x'.repeat(100)}'`);
    expect(quoteInput('x'.repeat(9_000_000))).toBe(`'${'x'.repeat(100)}…'`);
    expect(quoteInput('y'.repeat(101), '"')).toBe(`"${'y'.repeat(100)}…"`);
    // a cut inside a surrogate pair drops the lone half
    expect(quoteInput(`${'a'.repeat(99)}😀${'b'.repeat(10)}`)).toBe(`'${'a'.repeat(99)}…'`);
  });

  it('an AppError message is at most 1,000 characters whatever it quotes, and so are its field error messages', () => {
    const e = new NotFoundError(`no such thing: ${'z'.repeat(5_000_000)}`);
    expect(e.message.length).toBe(1000);
    expect(e.message.endsWith('…')).toBe(true);
    const v = new ValidationError('bad', { fieldErrors: [{ field: 'f', code: 'invalid', message: 'm'.repeat(50_000) }] });
    expect(v.fieldErrors![0].message!.length).toBe(1000);
    expect(new ValidationError('short').message).toBe('short');
  });
});
