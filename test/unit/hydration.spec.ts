/**
 * The compiled row -> entity conversion (src/db/rows.ts `compileHydrator`) gives the same entities as
 * TypeORM's own conversion (`metadata.create()`, then per column `setEntityValue(driver.prepareHydratedValue)`,
 * what `find()` does), for every entity on both dialects, over rows of edge values; and, on the test
 * database, the same entities `find()` returns.
 */
import { DataSource } from 'typeorm';
import type { ColumnMetadata } from 'typeorm/metadata/ColumnMetadata';
import { ENTITIES } from '../../entities';
import { AccessTokenEntity, AccountEntity, RepositoryEntity } from '../../entities/identity';
import { createDataSource } from '../../ormconfig';
import { compileHydrator, entityColumns, parseLocalIsoDateTime, parseUtcDateTime, queryRows } from '../../src/db/rows';
import { createServices } from '../../src/services';
import { seedDemo } from '../../src/seed/demo';
import { openTestDatabase, TestDatabase } from '../helpers/db';

type AnyEntity = new () => Record<string, unknown>;

/** Entity metadata of a dialect, without connecting (buildMetadatas is what initialize() runs after connecting). */
async function metadataOnly(dialect: 'sqlite' | 'postgres'): Promise<DataSource> {
  const ds = createDataSource({
    database: dialect === 'sqlite' ? { type: 'sqlite', path: ':memory:' } : { type: 'postgres', url: 'postgres://nobody@127.0.0.1:1/none' },
  });
  await (ds as unknown as { buildMetadatas(): Promise<void> }).buildMetadatas();
  return ds;
}

/** What a test compares: class, own keys in order, values with Dates as their instant (NaN included). */
function snapshot(value: unknown): unknown {
  if (value instanceof Date) return { date: Number.isNaN(value.getTime()) ? 'invalid' : value.getTime() };
  if (Array.isArray(value)) return value.map(snapshot);
  if (value && typeof value === 'object') {
    return {
      class: Object.getPrototypeOf(value)?.constructor?.name ?? null,
      entries: Object.keys(value).map((k) => [k, snapshot((value as Record<string, unknown>)[k]), typeof (value as Record<string, unknown>)[k]]),
    };
  }
  return Number.isNaN(value) ? 'NaN' : Object.is(value, -0) ? '-0' : value;
}

function typeormHydrate(ds: DataSource, entity: AnyEntity, columns: readonly ColumnMetadata[], values: readonly unknown[]): unknown {
  const e = ds.getMetadata(entity).create();
  columns.forEach((c, i) => c.setEntityValue(e, ds.driver.prepareHydratedValue(values[i], c)));
  return e;
}

const COMMON = [null, undefined];
const SQLITE_DATES = [
  '2024-02-29 23:59:59',
  '2024-02-29 23:59:59.123',
  '2024-01-01T00:00:00.000Z',
  '2024-01-01T00:00:00Z',
  '2024-01-01 00:00:00Z',
  '2024-01-01T00:00:00',
  '2024-01-01T05:00:00+02:00',
  '2024-01-01 00:00',
  '2024-01-01 00:00:00.1234',
  '2024-02-30 00:00:00',
  '2023-02-29 00:00:00',
  '2000-02-29 12:00:00',
  '1900-02-29 12:00:00',
  '1999-12-31 23:59:60',
  '2024-13-01 00:00:00',
  '2024-01-01 24:00:00',
  '0099-01-01 00:00:00',
  '0100-01-01 00:00:00',
  '2024-0a-01 00:00:00',
  'not a date',
  '',
  1_700_000_000_000,
  0,
];
const PG_DATES = [
  new Date('2024-01-01T00:00:00.123Z'),
  new Date(Number.NaN),
  '2024-01-01 00:00:00+00',
  '2024-01-01T00:00:00.123456Z',
  '',
  // As PostgreSQL's JSON writes a timestamp (json_build_array rows).
  '2024-01-01T00:00:00',
  '2024-06-30T23:59:59.123456',
  '2024-02-29T12:00:00.1',
  '2023-02-29T12:00:00',
  '2024-01-01T24:00:00',
  '0099-01-01T00:00:00',
  '2024-01-01T00:00:00.',
];
const BOOLEANS = [0, 1, true, false, 2, '0', ''];
const JSON_TEXT = ['["repo","security_events"]', '{"contents":"write","ünï":"😀"}', '[1,2,9007199254740993]', '"text"', 'null', '[]', ['already', 'parsed'], 7];
const NUMBERS = [0, -0, 1, -1, 2_147_483_648, 9_007_199_254_740_993, 1.5, 1e21, '42', 'abc', ''];
const PLAIN = ['', 'ünïcødé 😀 \u2028', 'x'.repeat(1000), 0, 1, 9_007_199_254_740_993, '9007199254740993', true];

function edgeValues(dialect: 'sqlite' | 'postgres', c: ColumnMetadata): unknown[] {
  const t = c.type;
  let own: unknown[];
  if (t === Boolean || t === 'boolean') own = BOOLEANS;
  else if (t === Date || t === 'datetime' || t === 'timestamp') own = dialect === 'sqlite' ? [...SQLITE_DATES, ...PG_DATES.slice(0, 1)] : [...PG_DATES, ...SQLITE_DATES.slice(0, 4)];
  else if (t === 'simple-json') own = JSON_TEXT;
  else if (t === Number || t === 'integer' || t === 'int') own = NUMBERS;
  else own = PLAIN;
  return [...own, ...COMMON];
}

describe.each(['sqlite', 'postgres'] as const)('compiled hydration on %s', (dialect) => {
  let ds: DataSource;
  beforeAll(async () => {
    ds = await metadataOnly(dialect);
  });

  it.each(ENTITIES.map((e) => [e.name, e] as const))('%s: every edge row equals TypeORM\u2019s conversion', (_name, entity) => {
    const h = compileHydrator(ds, entity as unknown as AnyEntity);
    // Every column of today's entities is compiled (a new column kind would show up here, and still be correct).
    expect(h.driverColumns).toEqual([]);
    const lists = h.columns.map((c) => edgeValues(dialect, c));
    const rows = Math.max(...lists.map((l) => l.length)) * 2;
    for (let r = 0; r < rows; r++) {
      // Shift each column's list differently so values meet in many combinations.
      const values = lists.map((l, i) => l[(r + i * 3) % l.length]);
      const expected = snapshot(typeormHydrate(ds, entity as unknown as AnyEntity, h.columns, values));
      expect(snapshot(h.fromValues(values))).toStrictEqual(expected);
      const row: Record<string, unknown> = {};
      h.columns.forEach((c, i) => (row[`p_${c.databaseName}`] = values[i]));
      expect(snapshot(h.fromRow(row, 'p_'))).toStrictEqual(expected);
    }
  });

  it('entities are instances of their class with every value converted', () => {
    const h = compileHydrator(ds, AccessTokenEntity as unknown as AnyEntity);
    const byProp = (values: Record<string, unknown>) => h.columns.map((c) => values[c.propertyName] ?? null);
    const token = h.fromValues(
      byProp({ id: 7, userId: 3, kind: 'classic', scopes: '["repo"]', expiresAt: dialect === 'sqlite' ? '2030-01-02 03:04:05.678' : new Date('2030-01-02T03:04:05.678Z') }),
    );
    expect(token).toBeInstanceOf(AccessTokenEntity);
    expect(token.scopes).toEqual(['repo']);
    expect((token.expiresAt as Date).toISOString()).toBe('2030-01-02T03:04:05.678Z');
    expect(token.revokedAt).toBeNull();
  });
});

describe('parseUtcDateTime', () => {
  it('gives the instant TypeORM\u2019s SQLite conversion gives, or leaves the value to it', () => {
    let seed = 42;
    const rnd = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    const pad = (v: number, n: number) => String(v).padStart(n, '0');
    for (let i = 0; i < 5000; i++) {
      const s =
        `${pad(rnd(10000), 4)}-${pad(rnd(14), 2)}-${pad(rnd(33), 2)}${rnd(2) ? ' ' : 'T'}${pad(rnd(26), 2)}:${pad(rnd(61), 2)}:${pad(rnd(61), 2)}` +
        (rnd(2) ? `.${pad(rnd(1000), 3)}` : '') +
        (rnd(4) === 0 ? 'Z' : '');
      const typeorm = new Date(s.replace(' ', 'T') + (s.endsWith('Z') ? '' : 'Z'));
      const fast = parseUtcDateTime(s);
      if (fast) expect([s, fast.getTime()]).toEqual([s, typeorm.getTime()]);
    }
    expect(parseUtcDateTime('2024-02-29 23:59:59.123')?.toISOString()).toBe('2024-02-29T23:59:59.123Z');
    expect(parseUtcDateTime('2023-02-29 00:00:00')).toBeUndefined();
    expect(parseUtcDateTime('0099-01-01 00:00:00')).toBeUndefined();
    expect(parseUtcDateTime('2024-01-01T05:00:00+02:00')).toBeUndefined();
  });
});

describe('parseLocalIsoDateTime', () => {
  it('gives the instant TypeORM\u2019s PostgreSQL conversion (new Date(text)) gives, or leaves the value to it', () => {
    let seed = 7;
    const rnd = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    const pad = (v: number, n: number) => String(v).padStart(n, '0');
    let parsed = 0;
    for (let i = 0; i < 5000; i++) {
      const fraction = rnd(3) === 0 ? '' : `.${pad(rnd(10 ** 6), 1 + rnd(9)).slice(0, 9)}`;
      const s = `${pad(rnd(10000), 4)}-${pad(rnd(14), 2)}-${pad(rnd(33), 2)}T${pad(rnd(26), 2)}:${pad(rnd(61), 2)}:${pad(rnd(61), 2)}${fraction}`;
      const fast = parseLocalIsoDateTime(s);
      if (fast) {
        parsed++;
        expect([s, fast.getTime()]).toEqual([s, new Date(s).getTime()]);
      }
    }
    expect(parsed).toBeGreaterThan(1000);
    expect(parseLocalIsoDateTime('2024-01-01 00:00:00')).toBeUndefined();
    expect(parseLocalIsoDateTime('2024-01-01T00:00:00Z')).toBeUndefined();
    expect(parseLocalIsoDateTime('2024-01-01T00:00:00+02:00')).toBeUndefined();
  });
});

describe('hand-written reads give what find() gives (test database)', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await openTestDatabase();
    const services = createServices();
    await seedDemo(db.dataSource, services);
    const ds = db.dataSource;
    // Edge rows: unicode, NULLs, large ids in simple-json, dates with and without milliseconds.
    const u = await ds.getRepository(AccountEntity).save({ login: 'edge', loginLower: 'edge', type: 'User', name: 'Zoë 😀 \u2028', email: null, calendarRole: null, siteAdmin: true });
    await ds.getRepository(AccessTokenEntity).save([
      { userId: u.id, kind: 'fine_grained', tokenHash: 'a'.repeat(64), tokenHint: 'gwf_edge', note: null, scopes: null, permissions: { contents: 'read' }, repositoryIds: [1, 2_147_483_647], expiresAt: new Date('2031-05-06T07:08:09Z'), revokedAt: null },
      { userId: u.id, kind: 'classic', tokenHash: 'b'.repeat(64), tokenHint: 'gwc_edge', note: 'ünï', scopes: [], permissions: null, repositoryIds: null, expiresAt: null, revokedAt: new Date('2020-01-01T00:00:00.001Z') },
    ]);
  });
  afterAll(() => db.drop());

  it.each(ENTITIES.map((e) => [e.name, e] as const))('%s', async (_name, entity) => {
    const ds = db.dataSource;
    const meta = ds.getMetadata(entity);
    const pk = meta.primaryColumns[0].databaseName;
    const found = await ds.getRepository(entity).find({ order: { [meta.primaryColumns[0].propertyName]: 'ASC' } as never });
    const cols = entityColumns(ds, entity as unknown as AnyEntity, 't', 't_');
    const plain = await queryRows(ds.manager, `SELECT ${cols.select} FROM "${meta.tableName}" t ORDER BY t."${pk}"`, []);
    expect(plain.map((r) => snapshot(cols.hydrate(r)))).toStrictEqual(found.map(snapshot));
    // Each row as one JSON array value (SQLite json_array, PostgreSQL json_build_array as text), as text and parsed.
    const arrays = await queryRows(ds.manager, `SELECT ${cols.jsonRow} AS row FROM "${meta.tableName}" t ORDER BY t."${pk}"`, []);
    expect(arrays.map((r) => snapshot(cols.hydrateJsonArray(r.row)))).toStrictEqual(found.map(snapshot));
    expect(arrays.map((r) => snapshot(cols.hydrateJsonArray(JSON.parse(String(r.row)))))).toStrictEqual(found.map(snapshot));
  });

  it('a column subset: only those properties and the primary key, the same values as find({ select })', async () => {
    const ds = db.dataSource;
    const select = ['name', 'createdAt', 'private'] as const;
    const found = await ds.getRepository(RepositoryEntity).find({ select: { id: true, name: true, createdAt: true, private: true }, order: { id: 'ASC' } });
    expect(found.length).toBeGreaterThan(2);
    const cols = entityColumns(ds, RepositoryEntity, 'r', 'r_', select);
    const arrays = await queryRows(ds.manager, `SELECT ${cols.jsonRow} AS row FROM repositories r ORDER BY r.id`, []);
    const partial = arrays.map((r) => cols.hydrateJsonArray(r.row)!);
    expect(partial.map(snapshot)).toStrictEqual(found.map(snapshot));
    expect(partial.every((r) => r instanceof RepositoryEntity)).toBe(true);
    const defined = (r: object) => Object.entries(r).filter(([, v]) => v !== undefined).map(([k]) => k).sort().join();
    expect([...new Set(partial.map(defined))]).toEqual(['createdAt,id,name,private']);
    const plain = await queryRows(ds.manager, `SELECT ${cols.select} FROM repositories r ORDER BY r.id`, []);
    expect(plain.map((r) => snapshot(cols.hydrate(r)))).toStrictEqual(found.map(snapshot));
    // The same subset in any order is one compiled variant; the whole entity is another.
    expect(entityColumns(ds, RepositoryEntity, 'r', 'r_', ['private', 'name', 'createdAt', 'name'])).toBe(cols);
    expect(entityColumns(ds, RepositoryEntity, 'r', 'r_')).not.toBe(cols);
    expect(() => entityColumns(ds, RepositoryEntity, 'r', 'r_', ['nope' as never])).toThrow(/no column property nope/);
  });
});
