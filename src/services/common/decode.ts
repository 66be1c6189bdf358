/**
 * The one place where values a client sends are decoded against the type they must have before they
 * reach SQL: cursor components (by the TypeORM column they are compared with), global-id database ids,
 * REST path/query numbers and GraphQL Int arguments, and strings used as lookup keys.
 *
 * PostgreSQL is strict where SQLite is lenient: an `integer` column is int4 (a parameter outside
 * [-2^31, 2^31 - 1], or not an integer, is a query error), and `text`/`varchar` cannot hold U+0000.
 * So every decoder here answers "a value of the column's type" or "no such value" (undefined); callers
 * turn "no such value" into the family's 400 / 404 / BAD_USER_INPUT, never a database error.
 */
import type { ColumnMetadata } from 'typeorm/metadata/ColumnMetadata';
import type { Driver } from 'typeorm';

export const INT4_MIN = -2_147_483_648;
export const INT4_MAX = 2_147_483_647;

/** Bound for string columns without a declared length (text), and for values with no column. */
export const MAX_TEXT_INPUT = 1024;

export interface IntRange {
  min: number;
  max: number;
}

export const INT4: IntRange = { min: INT4_MIN, max: INT4_MAX };
/** Database ids, alert numbers: generated from 1 upwards in an int4 column. */
export const POSITIVE_INT4: IntRange = { min: 1, max: INT4_MAX };

/** A JavaScript number that is an integer within `range` (int4 unless told), else undefined. */
export function decodeInt(value: unknown, range: IntRange = INT4): number | undefined {
  return typeof value === 'number' && Number.isInteger(value) && value >= range.min && value <= range.max ? value : undefined;
}

/**
 * An integer written in decimal in `text`, within `range` (int4 unless told); undefined for anything else
 * (fractions, exponents, hex, blanks, NaN, Infinity, out of range).
 * `canonical`: exactly the way the server writes it (no sign for positives, no leading zeros), for values
 * that name something (path segments, global ids); otherwise surrounding blanks and leading zeros are
 * tolerated (query parameters such as `page`).
 */
export function parseInteger(text: unknown, range: IntRange = INT4, opts: { canonical?: boolean } = {}): number | undefined {
  if (typeof text !== 'string') return undefined;
  let digits: string;
  let negative = false;
  if (opts.canonical) {
    const m = /^(-?)([1-9]\d{0,9}|0)$/.exec(text);
    if (!m || (m[1] === '-' && m[2] === '0')) return undefined;
    negative = m[1] === '-';
    digits = m[2];
  } else {
    const m = /^\s*([+-]?)0*(\d{0,10})\s*$/.exec(text);
    if (!m || !/\d/.test(text)) return undefined;
    negative = m[1] === '-';
    digits = m[2] || '0';
  }
  const n = Number(digits) * (negative ? -1 : 1);
  return decodeInt(n === 0 ? 0 : n, range);
}

/** A string without U+0000 and at most `maxLength` characters, else undefined. */
export function decodeString(value: unknown, maxLength: number = MAX_TEXT_INPUT): string | undefined {
  return typeof value === 'string' && value.length <= maxLength && !value.includes('\u0000') ? value : undefined;
}

/**
 * A lookup key for an equality match against a column of at most `maxLength` characters (a login, a
 * repository name, a slug): undefined when no stored value can equal it (not a string, empty, longer than
 * the column, or holding U+0000, which PostgreSQL text cannot store) — the caller answers "not found"
 * without asking the database.
 */
export function lookupKey(value: unknown, maxLength: number): string | undefined {
  const s = decodeString(value, maxLength);
  return s === undefined || s === '' ? undefined : s;
}

/** The members of a list that could equal a stored value of at most `maxLength` characters. */
export function lookupKeys(values: readonly unknown[], maxLength: number): string[] {
  return values.map((v) => lookupKey(v, maxLength)).filter((v): v is string => v !== undefined);
}

const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,6})?Z$/;

/** An ISO-8601 UTC instant as the server writes it (`Date#toISOString`), else undefined. */
export function decodeIsoDate(value: unknown): Date | undefined {
  if (typeof value !== 'string' || !ISO_INSTANT.test(value)) return undefined;
  const d = new Date(value);
  return Number.isNaN(d.getTime()) ? undefined : d;
}

/** What a column holds, for decoding values compared with it. */
export type ColumnKind = { kind: 'int'; range: IntRange } | { kind: 'date' } | { kind: 'string'; maxLength: number } | { kind: 'boolean' };

/** The kind of a TypeORM column, from its database type on this driver (PostgreSQL and SQLite names). */
export function columnKind(driver: Driver, column: ColumnMetadata): ColumnKind {
  const type = String(driver.normalizeType(column)).toLowerCase();
  if (/^(integer|int|int4)$/.test(type)) return { kind: 'int', range: INT4 };
  if (/^(smallint|int2)$/.test(type)) return { kind: 'int', range: { min: -32_768, max: 32_767 } };
  if (/^(bigint|int8)$/.test(type)) return { kind: 'int', range: { min: Number.MIN_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER } };
  if (/date|time/.test(type)) return { kind: 'date' };
  if (/char|text|clob/.test(type)) {
    const declared = Number(column.length);
    return { kind: 'string', maxLength: Number.isInteger(declared) && declared > 0 ? declared : MAX_TEXT_INPUT };
  }
  if (/^bool/.test(type)) return { kind: 'boolean' };
  throw new Error(`decode: no decoder for column ${column.propertyName} of type ${type}`);
}

/**
 * `value` (as it came out of JSON) decoded to a value of `column`'s type, ready to be a query parameter
 * compared with it; undefined when the column cannot hold it. null only for nullable columns.
 */
export function decodeColumnValue(driver: Driver, column: ColumnMetadata, value: unknown): { value: unknown } | undefined {
  if (value === null) return column.isNullable ? { value: null } : undefined;
  const k = columnKind(driver, column);
  let decoded: unknown;
  switch (k.kind) {
    case 'int':
      decoded = decodeInt(value, k.range);
      break;
    case 'date':
      decoded = decodeIsoDate(value);
      break;
    case 'string':
      decoded = decodeString(value, k.maxLength);
      break;
    case 'boolean':
      decoded = typeof value === 'boolean' ? value : undefined;
      break;
  }
  return decoded === undefined ? undefined : { value: decoded };
}

/** A lone surrogate code unit: a high one not followed by a low one, or a low one not preceded by a high one. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
const ANY_SURROGATE = /[\uD800-\uDFFF]/;

/** String.prototype.toWellFormed (ES2024, beyond this project's TypeScript lib): each lone surrogate → U+FFFD. */
export function wellFormed(s: string): string {
  return ANY_SURROGATE.test(s) ? s.replace(LONE_SURROGATE, '\uFFFD') : s;
}

/**
 * Client JSON (REST bodies, GraphQL variables) with every string well formed: a lone UTF-16 surrogate (`"\ud800"`
 * is valid JSON) becomes one U+FFFD, as String.prototype.toWellFormed makes it. Without this, each database driver
 * encodes it to UTF-8 its own way (SQLite stored three U+FFFD, PostgreSQL one), so the same write read back
 * differently. Keys are made well formed too. Returns the value itself when nothing needs it (no copy).
 */
export function wellFormedJson(value: unknown): unknown {
  if (typeof value === 'string') return wellFormed(value);
  if (value === null || typeof value !== 'object') return value;
  // Iterative: a body may nest thousands of levels deep (refused later, by its validator, not by a stack overflow here).
  const pending: object[] = [value];
  for (let node = pending.pop(); node !== undefined; node = pending.pop()) {
    if (Array.isArray(node)) {
      for (let i = 0; i < node.length; i++) {
        const v: unknown = node[i];
        if (typeof v === 'string') node[i] = wellFormed(v);
        else if (v !== null && typeof v === 'object') pending.push(v);
      }
      continue;
    }
    const o = node as Record<string, unknown>;
    for (const key of Object.keys(o)) {
      const v = o[key];
      const fixed = typeof v === 'string' ? wellFormed(v) : v;
      if (v !== null && typeof v === 'object') pending.push(v);
      const k = wellFormed(key);
      if (k === key) {
        if (fixed !== v) o[key] = fixed;
      } else {
        delete o[key];
        o[k] = fixed;
      }
    }
  }
  return value;
}
