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
import type { DataSource, EntityManager, EntityMetadata, ObjectLiteral } from 'typeorm';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver';
import type { ColumnMetadata } from 'typeorm/metadata/ColumnMetadata';

const pgText = new Map<string, string>();

function dataSourceOf(db: EntityManager | DataSource): DataSource {
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
 * Outside a transaction on PostgreSQL it goes to the pool as a named (prepared) statement, logged through
 * TypeORM's logger like any query; otherwise through TypeORM.
 */
export async function runRead<R = Record<string, unknown>>(db: EntityManager, text: string, params: unknown[]): Promise<R[]> {
  const ds = db.connection;
  const name = ds.options.type === 'postgres' && !db.queryRunner ? statementName(text) : undefined;
  // A closed data source has no pool: TypeORM's own path raises its "not connected" error (a 503 for clients).
  const pool = name !== undefined && ds.isInitialized ? ((ds.driver as PostgresDriver).master as Pool | undefined) : undefined;
  if (name === undefined || !pool) return db.query(text, params) as Promise<R[]>;
  ds.logger.logQuery(text, params);
  try {
    const result = await pool.query({ name, text, values: params });
    return result.rows as R[];
  } catch (e) {
    ds.logger.logQueryError(e as Error, text, params);
    throw e;
  }
}

/** Column list and row -> entity conversion of one entity, for one table alias and column-name prefix. */
export interface EntityColumns<T> {
  /** `alias."col" AS "prefixcol", ...` for a SELECT list. */
  select: string;
  /** SQLite: `json_array(alias."col", ...)`, one value holding the whole row (see `hydrateJsonArray`). */
  jsonArray: string;
  /** The entity from a `jsonArray` value (JSON text); null for NULL. */
  hydrateJsonArray(json: unknown): T | null;
  /** The entity built from the prefixed columns of `row`; null when its primary key is NULL (an outer join that matched nothing). */
  hydrate(row: Record<string, unknown>): T | null;
}

const cache = new Map<string, EntityColumns<unknown>>();

/**
 * The columns of `entity` selected from `alias` as `prefix` + column name, and their hydration. Relation
 * objects are not loaded (foreign keys are plain columns in this code base).
 */
export function entityColumns<T extends ObjectLiteral>(db: EntityManager | DataSource, entity: new () => T, alias: string, prefix: string): EntityColumns<T> {
  const ds = dataSourceOf(db);
  const key = `${ds.options.type}\u0000${entity.name}\u0000${alias}\u0000${prefix}`;
  const hit = cache.get(key);
  if (hit) return hit as EntityColumns<T>;
  const meta: EntityMetadata = ds.getMetadata(entity);
  const driver = ds.driver;
  const columns: ColumnMetadata[] = meta.columns.filter((c) => !c.isVirtual);
  const names = columns.map((c) => `${prefix}${c.databaseName}`);
  const select = columns.map((c, i) => `${alias}."${c.databaseName}" AS "${names[i]}"`).join(', ');
  const pk = meta.primaryColumns[0];
  const pkName = `${prefix}${pk.databaseName}`;
  const out: EntityColumns<T> = {
    select,
    jsonArray: `json_array(${columns.map((c) => `${alias}."${c.databaseName}"`).join(', ')})`,
    hydrateJsonArray(json) {
      if (json === null || json === undefined) return null;
      const values = JSON.parse(String(json)) as unknown[];
      const e = meta.create() as T;
      for (let i = 0; i < columns.length; i++) {
        const c = columns[i];
        c.setEntityValue(e, driver.prepareHydratedValue(values[i], c));
      }
      return e;
    },
    hydrate(row) {
      const id = row[pkName];
      if (id === null || id === undefined) return null;
      const e = meta.create() as T;
      for (let i = 0; i < columns.length; i++) {
        const c = columns[i];
        c.setEntityValue(e, driver.prepareHydratedValue(row[names[i]], c));
      }
      return e;
    },
  };
  cache.set(key, out as EntityColumns<unknown>);
  return out;
}
