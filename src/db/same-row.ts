/**
 * Whether two entity rows hold the same values in every column: what a memo of answers made from rows
 * (src/rest/text-memo.ts) and a page that reuses rows (services' list hydration) compare.
 */
import type { DataSource, EntityManager, ObjectLiteral } from 'typeorm';
import type { ColumnMetadata } from 'typeorm/metadata/ColumnMetadata';
import { rootDataSource } from './request-cancel';
import { dataSourceOf, PG_DATE_TYPES, PLAIN_TYPES, SQLITE_DATE_TYPES } from './rows';

/** Two column values are the same value: identical, the same instant, or (JSON columns) the same JSON. */
function sameValue(x: unknown, y: unknown): boolean {
  if (x === y) return true;
  if (x instanceof Date) return y instanceof Date && x.getTime() === y.getTime();
  if (typeof x === 'object' && x !== null && typeof y === 'object' && y !== null && !(y instanceof Date)) {
    return JSON.stringify(x) === JSON.stringify(y);
  }
  return false;
}

type RowEquality = (a: ObjectLiteral, b: ObjectLiteral) => boolean;

const compiled = new WeakMap<DataSource, Map<unknown, RowEquality>>();

/** Column types whose hydrated values are Dates, and those whose values are primitives (rows.ts decides the same). */
const DATE_TYPES = new Set<unknown>([...SQLITE_DATE_TYPES, ...PG_DATE_TYPES]);
const PRIMITIVE_TYPES = new Set<unknown>([...PLAIN_TYPES, Number, Boolean, 'boolean']);

function compile(columns: readonly ColumnMetadata[]): RowEquality {
  const getters = columns.map((c) => (e: ObjectLiteral) => c.getEntityValue(e));
  const terms = columns.map((c, i) => {
    if (c.embeddedMetadata || c.transformer) return `same(getters[${i}](a), getters[${i}](b))`;
    const x = `a[${JSON.stringify(c.propertyName)}]`;
    const y = `b[${JSON.stringify(c.propertyName)}]`;
    // Hydrated rows hold primitives (or null) in string, number and boolean columns and Dates in date columns:
    // those compare inline; anything else (or a value of another kind than expected) through sameValue.
    if (DATE_TYPES.has(c.type)) return `((x = ${x}) === (y = ${y}) || (x instanceof Date && y instanceof Date ? x.getTime() === y.getTime() : same(x, y)))`;
    if (PRIMITIVE_TYPES.has(c.type)) {
      return `((x = ${x}) === (y = ${y}) || (typeof x === 'object' && x !== null && same(x, y)))`;
    }
    return `same(${x}, ${y})`;
  });
  // eslint-disable-next-line @typescript-eslint/no-implied-eval
  return new Function('same', 'getters', `"use strict"; return function sameRow(a, b) { let x, y; return ${terms.join(' && ') || 'true'}; };`)(sameValue, getters) as RowEquality;
}

/**
 * Whether two rows hold the same values in every column (their class's columns as TypeORM's metadata lists
 * them): both missing (null/undefined), or objects of the same entity class whose columns are pairwise
 * identical, the same instant (dates) or the same JSON (JSON columns).
 */
export function sameRow(db: EntityManager | DataSource, a: ObjectLiteral | null | undefined, b: ObjectLiteral | null | undefined): boolean {
  if (a === b) return true;
  if (a == null || b == null) return a == null && b == null;
  if (a.constructor !== b.constructor) return false;
  const ds = rootDataSource(dataSourceOf(db));
  let byClass = compiled.get(ds);
  if (!byClass) compiled.set(ds, (byClass = new Map()));
  let f = byClass.get(a.constructor);
  if (!f) {
    f = compile(ds.getMetadata(a.constructor).columns.filter((c) => !c.isVirtual));
    byClass.set(a.constructor, f);
  }
  return f(a, b);
}
