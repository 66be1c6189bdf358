/**
 * Hot read paths without TypeORM's query builder: hand-written SQL (one statement, joins where they save
 * round trips) whose rows are turned into real entity instances with TypeORM's own column metadata and
 * the driver's value conversion (booleans, dates, simple-json, transformers), so callers get the same
 * objects `find()` would give them.
 *
 * Measured on the dashboard and `viewer` (bench/README.md): building a query with the query builder or
 * `findOne` costs more CPU than SQLite takes to run it (`replacePropertyNamesForTheWholeQuery`,
 * `createSelectExpression`, `transformColumns` were a third of the `viewer` profile).
 *
 * SQL is written with `?` placeholders for both dialects; `sqlFor` rewrites them to `$1..$n` for PostgreSQL
 * (once per statement text). Statement texts must be constant per shape, so SQLite's prepared-statement
 * cache (TypeORM keeps the last 100) hits: bind values, never inline them.
 */
import { createHash } from 'node:crypto';
import type { Pool } from 'pg';
import { QueryFailedError } from 'typeorm';
import type { DataSource, EntityManager, EntityMetadata, ObjectLiteral } from 'typeorm';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver';
import type { ColumnMetadata } from 'typeorm/metadata/ColumnMetadata';
import { sqliteReadTurn } from './transaction';
import { inCallersScope, rootDataSource } from './request-cancel';

const pgText = new Map<string, string>();

export function dataSourceOf(db: EntityManager | DataSource): DataSource {
  return 'manager' in db && 'driver' in db ? (db as DataSource) : (db as EntityManager).connection;
}

/** The statement text for the manager's dialect (`?` -> `$n` on PostgreSQL). No `?` may appear in literals. */
export function sqlFor(db: EntityManager | DataSource, sql: string): string {
  if (dataSourceOf(db).options.type !== 'postgres') return sql;
  let out = pgText.get(sql);
  if (out === undefined) {
    let n = 0;
    out = sql.replace(/\?/g, () => `$${++n}`);
    pgText.set(sql, out);
  }
  return out;
}

/** Run one read statement (`?` placeholders) on this manager (a transaction's, when inside one). */
export function queryRows<R = Record<string, unknown>>(db: EntityManager, sql: string, params: unknown[]): Promise<R[]> {
  return runRead<R>(db, sqlFor(db, sql), params);
}

/**
 * PostgreSQL prepares a statement sent with a name once per connection and then only binds and executes it;
 * an unnamed statement (what TypeORM sends) is parsed and planned on every call. The hot reads (token check,
 * accounts by login, list pages) have a fixed text per shape, so they are sent named. At most this many
 * distinct texts get a name (each connection keeps its prepared statements); later shapes run unnamed.
 */
const MAX_NAMED_STATEMENTS = 256;
const statementNames = new Map<string, string>();

function statementName(text: string): string | undefined {
  let name = statementNames.get(text);
  if (name === undefined && statementNames.size < MAX_NAMED_STATEMENTS) {
    name = `gw_${createHash('sha1').update(text).digest('hex').slice(0, 32)}`;
    statementNames.set(text, name);
  }
  return name;
}

/**
 * Run one read statement written in the driver's own placeholder style (`$n` on PostgreSQL, `?` on SQLite).
 * Outside a transaction on PostgreSQL it goes to the pool as a named (prepared) statement, on SQLite straight
 * to better-sqlite3 (`sqliteRead`), logged through TypeORM's logger like any query; otherwise through TypeORM.
 */
export async function runRead<R = Record<string, unknown>>(db: EntityManager, text: string, params: unknown[]): Promise<R[]> {
  const ds = db.connection;
  if (ds.options.type === 'better-sqlite3') {
    return !db.queryRunner && ds.isInitialized ? sqliteReadTurn(ds, () => sqliteRead<R>(ds, text, params)) : (db.query(text, params) as Promise<R[]>);
  }
  const name = ds.options.type === 'postgres' && !db.queryRunner ? statementName(text) : undefined;
  // A closed data source has no pool: TypeORM's own path raises its "not connected" error (a 503 for clients).
  const pool = name !== undefined && ds.isInitialized ? ((ds.driver as PostgresDriver).master as Pool | undefined) : undefined;
  if (name === undefined || !pool) return db.query(text, params) as Promise<R[]>;
  ds.logger.logQuery(text, params);
  try {
    const result = await pool.query(inCallersScope({ name, text, values: params }, ds));
    return result.rows as R[];
  } catch (e) {
    ds.logger.logQueryError(e as Error, text, params);
    throw e;
  }
}


/** Prepared statements per better-sqlite3 connection, by text (oldest dropped first past the limit). */
const MAX_SQLITE_STATEMENTS = 256;
const sqliteStatements = new WeakMap<object, Map<string, { all(...params: unknown[]): unknown[] }>>();

/**
 * A read on SQLite's one connection (the one TypeORM's query runner uses, so it sees exactly what TypeORM's
 * path would) without TypeORM's query runner: that runner's per-call work (parameter copy, broadcaster
 * events, async statement lookup, result wrapping) showed in a repository list's profile. Same statement
 * text, booleans bound as 1/0 as TypeORM binds them, logged through TypeORM's logger, and a failure raised as
 * TypeORM's QueryFailedError (so busy/locked errors are recognised as before).
 */
function sqliteRead<R>(ds: DataSource, text: string, params: unknown[]): R[] {
  const conn = (ds.driver as unknown as { databaseConnection: { prepare(sql: string): { all(...p: unknown[]): unknown[] } } }).databaseConnection;
  const values = params.map((p) => (typeof p === 'boolean' ? (p ? 1 : 0) : p));
  ds.logger.logQuery(text, values);
  try {
    let cache = sqliteStatements.get(conn);
    if (!cache) sqliteStatements.set(conn, (cache = new Map()));
    let stmt = cache.get(text);
    if (!stmt) {
      stmt = conn.prepare(text);
      if (cache.size >= MAX_SQLITE_STATEMENTS) cache.delete(cache.keys().next().value!);
      cache.set(text, stmt);
    }
    return stmt.all(...values) as R[];
  } catch (e) {
    ds.logger.logQueryError(e as Error, text, values);
    throw new QueryFailedError(text, values, e as Error);
  }
}

/**
 * `value` of every row of a FROM clause as one JSON array text: `'[' || group_concat(value, ',') || ']'` (PostgreSQL
 * `string_agg`), NULL when there are no rows; each `value` must be a JSON text. The rows are joined in no particular
 * order: readers that need one sort what they read (calendar links by position).
 */
export function jsonArrayAggregate(dialect: 'sqlite' | 'postgres', value: string): string {
  return `'[' || ${dialect === 'postgres' ? 'string_agg' : 'group_concat'}(${value}, ',') || ']'`;
}

/** What separates the rows of `jsonTextSequence` (RFC 7464's record separator). */
export const TEXT_SEQUENCE_SEPARATOR = '\u001e';

/**
 * `value` of every row of a FROM clause as one text, the rows' JSON texts separated by U+001E, NULL when there are
 * no rows; each `value` must be a JSON text, so the separator never occurs inside one (JSON escapes every control
 * character in strings, and both databases' JSON functions write no raw control characters). The rows are joined in
 * `orderBy`'s order: an ORDER BY inside the aggregate (SQLite >= 3.44, PostgreSQL), never the order a subquery
 * happens to yield ('' for none: no order).
 */
export function jsonTextSequence(dialect: 'sqlite' | 'postgres', value: string, orderBy: string): string {
  const order = orderBy ? ` ORDER BY ${orderBy}` : '';
  return dialect === 'postgres' ? `string_agg(${value}, chr(30)${order})` : `group_concat(${value}, char(30)${order})`;
}

// ------------------------------------------------------------------ rows -> entities

/**
 * How one column's stored value becomes the entity's value, decided once per column from its metadata, for
 * the dialects whose driver conversion (`prepareHydratedValue`) is written out below; `driver` is TypeORM's
 * own conversion, called per value (any column kind or transformer not listed here: never guessed).
 */
type ColumnKind = 'plain' | 'boolean' | 'json' | 'number' | 'sqliteDate' | 'pgDate' | 'driver';

type Dialect = 'sqlite' | 'postgres' | 'other';

function dialectOf(ds: DataSource): Dialect {
  const t = ds.options.type;
  return t === 'better-sqlite3' ? 'sqlite' : t === 'postgres' ? 'postgres' : 'other';
}

/** Types both drivers hand back untouched (no branch of their prepareHydratedValue matches them). */
export const PLAIN_TYPES = new Set<unknown>([String, 'varchar', 'character varying', 'text', 'integer', 'int', 'int4', 'smallint', 'bigint', 'uuid', 'double precision', 'real']);
export const SQLITE_DATE_TYPES = new Set<unknown>([Date, 'datetime']);
export const PG_DATE_TYPES = new Set<unknown>([Date, 'datetime', 'timestamp', 'timestamptz', 'timestamp with time zone', 'timestamp without time zone']);

/**
 * The kind of a column, mirroring the branches of AbstractSqliteDriver / PostgresDriver
 * `prepareHydratedValue` (TypeORM 1.1): NULL stays NULL; SQLite turns `boolean` (and Boolean) into true/false,
 * `datetime`/Date strings into Dates (as UTC when they carry no zone), `json`/`jsonb`/`simple-json` text into
 * values; PostgreSQL turns only Boolean (the constructor) into true/false, timestamp strings into Dates and
 * `simple-json` text into values; both parseInt a Number column.
 */
function columnKind(dialect: Dialect, c: ColumnMetadata): ColumnKind {
  if (dialect === 'other' || c.transformer) return 'driver';
  const t = c.type;
  if (t === Boolean || (dialect === 'sqlite' && t === 'boolean')) return 'boolean';
  if (t === Number) return 'number';
  if (dialect === 'sqlite' ? SQLITE_DATE_TYPES.has(t) : PG_DATE_TYPES.has(t)) return dialect === 'sqlite' ? 'sqliteDate' : 'pgDate';
  if (t === 'simple-json' || (dialect === 'sqlite' && (t === 'json' || t === 'jsonb'))) return 'json';
  if (PLAIN_TYPES.has(t) || (dialect === 'postgres' && t === 'boolean')) return 'plain';
  return 'driver';
}

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** The digits s[at..at+n) as a number; -1 when one is not an ASCII digit. */
function digits(s: string, at: number, n: number): number {
  let v = 0;
  for (let i = at; i < at + n; i++) {
    const d = s.charCodeAt(i) - 48;
    if (d < 0 || d > 9) return -1;
    v = v * 10 + d;
  }
  return v;
}

/**
 * `YYYY-MM-DD HH:MM:SS` or `YYYY-MM-DD HH:MM:SS.mmm` (what SQLite's datetime('now') and TypeORM write; `T`
 * instead of the space and a trailing `Z` are accepted too) as the UTC instant TypeORM's SQLite conversion
 * gives it (it appends `Z` to these forms); undefined for any other form or an out-of-calendar value, which
 * then goes through TypeORM's own conversion.
 */
export function parseUtcDateTime(s: string): Date | undefined {
  let n = s.length;
  if (n > 0 && s.charCodeAt(n - 1) === 90 /* Z */) n--;
  if (n !== 19 && n !== 23) return undefined;
  const sep = s.charCodeAt(10);
  if (s.charCodeAt(4) !== 45 || s.charCodeAt(7) !== 45 || (sep !== 32 && sep !== 84) || s.charCodeAt(13) !== 58 || s.charCodeAt(16) !== 58) return undefined;
  if (n === 23 && s.charCodeAt(19) !== 46) return undefined;
  const ms = n === 23 ? digits(s, 20, 3) : 0;
  const f = dateTimeFields(s);
  if (!f || ms < 0) return undefined;
  return new Date(((daysFromCivil(f[0], f[1], f[2]) * 24 + f[3]) * 60 + f[4]) * 60000 + f[5] * 1000 + ms);
}

/**
 * Days from 1970-01-01 to a proleptic Gregorian date (Howard Hinnant's `days_from_civil`), what `Date.UTC`
 * computes for years 100-9999 (the only ones `dateTimeFields` lets through), at half of Date.UTC's cost.
 */
function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (month > 2 ? month - 3 : month + 9) + 2) / 5) + day - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

/**
 * Year, month, day, hour, minute and second of `YYYY?MM?DD?HH?MM?SS…` (separators checked by the caller), or
 * undefined when a field is not digits or out of the calendar: years 0-99 (the Date constructors read them as
 * 1900-1999) and days past the month's end (V8's parser is lenient there) are left to TypeORM's conversion.
 */
function dateTimeFields(s: string): [number, number, number, number, number, number] | undefined {
  const year = digits(s, 0, 4);
  const month = digits(s, 5, 2);
  const day = digits(s, 8, 2);
  const hour = digits(s, 11, 2);
  const minute = digits(s, 14, 2);
  const second = digits(s, 17, 2);
  if (year < 100 || month < 1 || month > 12 || day < 1 || hour < 0 || hour > 23 || minute < 0 || minute > 59 || second < 0 || second > 59) return undefined;
  if (day > 28) {
    const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
    if (day > (month === 2 && leap ? 29 : DAYS_IN_MONTH[month - 1])) return undefined;
  }
  return [year, month, day, hour, minute, second];
}

/**
 * `YYYY-MM-DDTHH:MM:SS` with 0-9 fraction digits and no zone (how PostgreSQL's JSON writes a `timestamp`, e.g.
 * inside json_build_array) as the instant TypeORM's PostgreSQL conversion gives it (`new Date(text)`: local time,
 * the fraction cut to milliseconds); undefined for any other form or an out-of-calendar value, which then goes
 * through TypeORM's own conversion.
 */
export function parseLocalIsoDateTime(s: string): Date | undefined {
  const n = s.length;
  if (n < 19 || n === 20 || n > 29) return undefined;
  if (s.charCodeAt(4) !== 45 || s.charCodeAt(7) !== 45 || s.charCodeAt(10) !== 84 /* T */ || s.charCodeAt(13) !== 58 || s.charCodeAt(16) !== 58) return undefined;
  let ms = 0;
  if (n > 19) {
    if (s.charCodeAt(19) !== 46) return undefined;
    for (let i = 20; i < n; i++) {
      const d = s.charCodeAt(i) - 48;
      if (d < 0 || d > 9) return undefined;
      if (i < 23) ms += d * (i === 20 ? 100 : i === 21 ? 10 : 1);
    }
  }
  const f = dateTimeFields(s);
  if (!f) return undefined;
  // The server runs in UTC (src/db/utc.ts): local wall clocks are UTC ones, computed without the local-time
  // constructor (its zone lookups cost twice the arithmetic). Any other zone: the constructor, as TypeORM does.
  if (zoneIsUtc()) return new Date(((daysFromCivil(f[0], f[1], f[2]) * 24 + f[3]) * 60 + f[4]) * 60000 + f[5] * 1000 + ms);
  return new Date(f[0], f[1] - 1, f[2], f[3], f[4], f[5], ms);
}

/** Zone names whose offset is 0 at every instant (tzdb's UTC and GMT and their links). */
const UTC_ZONES = new Set(['UTC', 'Etc/UTC', 'Etc/UCT', 'UCT', 'Etc/Universal', 'Universal', 'Etc/Zulu', 'Zulu', 'Etc/GMT', 'GMT', 'Etc/GMT0', 'GMT0', 'Etc/GMT+0', 'Etc/GMT-0', 'GMT+0', 'GMT-0', 'Etc/Greenwich', 'Greenwich']);
let utcZone: boolean | undefined;

/** Whether the process's time zone is UTC; decided at the first timestamp read (the zone is set once, at start). */
function zoneIsUtc(): boolean {
  return (utcZone ??= UTC_ZONES.has(Intl.DateTimeFormat().resolvedOptions().timeZone));
}

/**
 * TypeORM runs an entity's @AfterLoad methods and subscribers' `afterLoad` on every entity it loads; the compiled
 * converters below do not, so an entity that declares one (or a subscriber that listens to it) is refused loudly
 * rather than loaded without them.
 */
export function assertNoLoadListeners(ds: DataSource, meta: EntityMetadata): void {
  const target = meta.target;
  const listening = ds.subscribers.filter((s) => {
    if (typeof s.afterLoad !== 'function') return false;
    const to = s.listenTo?.();
    return to === undefined || to === target || (typeof to === 'function' && typeof target === 'function' && target.prototype instanceof to);
  });
  if (meta.afterLoadListeners.length > 0 || listening.length > 0) {
    throw new Error(
      `rows: ${meta.name} has @AfterLoad listeners or afterLoad subscribers, which the compiled row converters do not run; load it through TypeORM (find/getMany) instead`,
    );
  }
}

/** Row -> entity conversion of one entity on one dialect, compiled once (see `compileHydrator`). */
export interface EntityHydrator<T> {
  /** The columns read, in the order `fromValues` expects them (virtual columns excluded). */
  columns: readonly ColumnMetadata[];
  /** Property paths of the columns converted by TypeORM's driver per value (kinds not compiled). */
  driverColumns: readonly string[];
  /** The entity from the columns' values in `columns` order (e.g. a parsed json_array). */
  fromValues(values: readonly unknown[]): T;
  /** The entity from a row keyed `prefix + column name` (compiled once per prefix). */
  fromRow(row: Record<string, unknown>, prefix: string): T;
}

/**
 * Compile the conversion of one entity's rows into entity objects, the same objects `find()` builds
 * (`metadata.create()`, then per column `setEntityValue(driver.prepareHydratedValue(value))`): each column's
 * conversion is chosen once (`columnKind`) and the whole row is one generated function assigning plain
 * properties directly (embedded columns go through `setEntityValue`). Measured on org-repositories (SQLite):
 * the per-value switch of `prepareHydratedValue`, the two date regexes and `setEntityValue` were a large share of
 * the request.
 */
export function compileHydrator<T extends ObjectLiteral>(ds: DataSource, entity: new () => T, properties?: ReadonlySet<string>): EntityHydrator<T> {
  const meta: EntityMetadata = ds.getMetadata(entity);
  assertNoLoadListeners(ds, meta);
  const driver = ds.driver;
  const dialect = dialectOf(ds);
  // A subset (`properties`): its columns and the primary key's, in the entity's column order.
  const columns: ColumnMetadata[] = meta.columns.filter((c) => !c.isVirtual && (!properties || c.isPrimary || properties.has(c.propertyPath)));
  const kinds = columns.map((c) => columnKind(dialect, c));
  const viaDriver = columns.map((c) => (v: unknown) => driver.prepareHydratedValue(v, c));
  const setters = columns.map((c) => (e: T, v: unknown) => c.setEntityValue(e, v));
  const plainNew = typeof meta.target === 'function' && meta.lazyRelations.length === 0 && !ds.options.typename;
  const create = () => meta.create() as T;

  const expression = (i: number, x: string): string => {
    switch (kinds[i]) {
      case 'plain':
        return x;
      case 'boolean':
        return `${x} == null ? ${x} : !!${x}`;
      case 'json':
        return `typeof ${x} === 'string' ? JSON.parse(${x}) : ${x}`;
      case 'number':
        // parseInt of a safe integer is itself (-0 becomes 0, as with parseInt)
        return `typeof ${x} === 'number' && Number.isSafeInteger(${x}) ? ${x} + 0 : ${x} == null ? ${x} : viaDriver[${i}](${x})`;
      case 'sqliteDate':
        return `typeof ${x} === 'string' ? (parseUtcDateTime(${x}) ?? viaDriver[${i}](${x})) : ${x}`;
      case 'pgDate':
        return `${x} == null || ${x} instanceof Date ? ${x} : typeof ${x} === 'string' ? (parseLocalIsoDateTime(${x}) ?? viaDriver[${i}](${x})) : viaDriver[${i}](${x})`;
      default:
        return `viaDriver[${i}](${x})`;
    }
  };
  const build = (read: (i: number) => string) => {
    const lines = [plainNew ? 'const e = new Target();' : 'const e = create();', 'let x;'];
    columns.forEach((c, i) => {
      lines.push(`x = ${read(i)};`);
      const value = `(${expression(i, 'x')})`;
      lines.push(c.embeddedMetadata ? `setters[${i}](e, ${value});` : `e[${JSON.stringify(c.propertyName)}] = ${value};`);
    });
    lines.push('return e;');
    // eslint-disable-next-line @typescript-eslint/no-implied-eval
    return new Function('Target', 'create', 'viaDriver', 'setters', 'parseUtcDateTime', 'parseLocalIsoDateTime', `"use strict"; return function hydrate(v) {\n${lines.join('\n')}\n};`)(
      meta.target,
      create,
      viaDriver,
      setters,
      parseUtcDateTime,
      parseLocalIsoDateTime,
    ) as (v: unknown) => T;
  };
  const fromValues = build((i) => `v[${i}]`) as (values: readonly unknown[]) => T;
  const byPrefix = new Map<string, (row: Record<string, unknown>) => T>();
  return {
    columns,
    driverColumns: columns.filter((_, i) => kinds[i] === 'driver').map((c) => c.propertyPath),
    fromValues,
    fromRow(row, prefix) {
      let f = byPrefix.get(prefix);
      if (!f) {
        f = build((i) => `v[${JSON.stringify(prefix + columns[i].databaseName)}]`) as (row: Record<string, unknown>) => T;
        byPrefix.set(prefix, f);
      }
      return f(row);
    },
  };
}

/** Column list and row -> entity conversion of one entity, for one table alias and column-name prefix. */
export interface EntityColumns<T> {
  /** `alias."col" AS "prefixcol", ...` for a SELECT list. */
  select: string;
  /**
   * The whole row as one JSON array text in this dialect: SQLite `json_array(...)`, PostgreSQL
   * `json_build_array(...)::text` (timestamps as ISO text without a zone, read by `parseLocalIsoDateTime`).
   */
  jsonRow: string;
  /** The row as a JSON value to nest in another JSON array of the same expression (PostgreSQL: `json`, not text). */
  jsonValue: string;
  /** The entity from a `jsonRow` value (JSON text, or its values already parsed); null for NULL. */
  hydrateJsonArray(json: unknown): T | null;
  /** The entity built from the prefixed columns of `row`; null when its primary key is NULL (an outer join that matched nothing). */
  hydrate(row: Record<string, unknown>): T | null;
}

/** Per DataSource (its metadata and driver are captured), by entity, alias and prefix. */
const cache = new WeakMap<DataSource, Map<string, EntityColumns<unknown>>>();
/** Per DataSource, one compiled hydrator per entity (and column subset), shared by every alias and prefix. */
const hydrators = new WeakMap<DataSource, Map<new () => ObjectLiteral, Map<string, EntityHydrator<any>>>>();

function hydratorOf<T extends ObjectLiteral>(ds: DataSource, entity: new () => T, subset: string, properties: ReadonlySet<string> | undefined): EntityHydrator<T> {
  let byEntity = hydrators.get(ds);
  if (!byEntity) hydrators.set(ds, (byEntity = new Map()));
  let bySubset = byEntity.get(entity);
  if (!bySubset) byEntity.set(entity, (bySubset = new Map()));
  let h = bySubset.get(subset);
  if (!h) bySubset.set(subset, (h = compileHydrator(ds, entity, properties)));
  return h as EntityHydrator<T>;
}

/** The key of a column subset, kept per subset object: callers pass a few constant lists, on every request. */
const subsetKeys = new WeakMap<object, string>();

function subsetKey(properties: Iterable<string> | undefined): string {
  if (!properties) return '*';
  let k = subsetKeys.get(properties);
  if (k === undefined) {
    k = [...new Set(properties)].sort().join(',');
    // Only lists that cannot change afterwards are kept by identity.
    if (Object.isFrozen(properties)) subsetKeys.set(properties, k);
  }
  return k;
}

/**
 * The columns of `entity` selected from `alias` as `prefix` + column name, and their hydration (compiled once
 * per entity and dialect, `compileHydrator`). Relation objects are not loaded (foreign keys are plain columns
 * in this code base).
 *
 * `properties`: only these columns and the primary key (a list whose caller declared what it reads, e.g. the
 * GraphQL fields selected). The entities are then partial, like TypeORM's `find({ select })`: the other
 * properties are undefined, so they must not be handed to anything that reads more (loaders, other services).
 * Each set is a statement shape of its own: callers choose among a few fixed sets, never per request.
 */
export function entityColumns<T extends ObjectLiteral>(
  db: EntityManager | DataSource,
  entity: new () => T,
  alias: string,
  prefix: string,
  properties?: Iterable<keyof T & string>,
): EntityColumns<T> {
  // A request's view of the DataSource (src/db/request-cancel.ts) shares its DataSource's columns and hydrators.
  const ds = rootDataSource(dataSourceOf(db));
  let byKey = cache.get(ds);
  if (!byKey) cache.set(ds, (byKey = new Map()));
  const subset = subsetKey(properties);
  const key = `${entity.name}\u0000${alias}\u0000${prefix}\u0000${subset}`;
  const hit = byKey.get(key);
  if (hit) return hit as EntityColumns<T>;
  const wanted = properties ? new Set<string>(properties) : undefined;
  const meta: EntityMetadata = ds.getMetadata(entity);
  if (wanted) {
    for (const p of wanted) if (!meta.findColumnWithPropertyPath(p)) throw new Error(`entityColumns: ${entity.name} has no column property ${p}`);
  }
  const hydrator = hydratorOf(ds, entity, subset, wanted);
  const columns = hydrator.columns;
  const names = columns.map((c) => `${prefix}${c.databaseName}`);
  const select = columns.map((c, i) => `${alias}."${c.databaseName}" AS "${names[i]}"`).join(', ');
  const pkName = `${prefix}${meta.primaryColumns[0].databaseName}`;
  const fromRow = (row: Record<string, unknown>) => hydrator.fromRow(row, prefix);
  const jsonValue = `${ds.options.type === 'postgres' ? 'json_build_array' : 'json_array'}(${columns.map((c) => `${alias}."${c.databaseName}"`).join(', ')})`;
  const out: EntityColumns<T> = {
    select,
    jsonValue,
    jsonRow: ds.options.type === 'postgres' ? `${jsonValue}::text` : jsonValue,
    hydrateJsonArray(json) {
      if (json === null || json === undefined) return null;
      return hydrator.fromValues(Array.isArray(json) ? json : (JSON.parse(String(json)) as unknown[]));
    },
    hydrate(row) {
      const id = row[pkName];
      if (id === null || id === undefined) return null;
      return fromRow(row);
    },
  };
  byKey.set(key, out as EntityColumns<unknown>);
  return out;
}
