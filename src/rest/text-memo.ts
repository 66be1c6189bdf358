/**
 * Memoized answer fragments: the JSON text (UTF-8 bytes) of one presented item, kept with the rows it was made of.
 *
 * A REST list answer presents every item from entity rows (an alert from the alert, its repository and owner,
 * its users and first location) and stringifies it: for the organization alert list that is ~6.5 KB of JSON
 * per alert, 650 KB per page, and the stringify alone cost about a third of the request (bench/README.md).
 * Dashboards ask for the same pages again and again, and the rows rarely change. So the text of an item is
 * kept together with **the rows it was made from** (and whatever else the presentation depends on: base URL,
 * variant, options, as a string). A later answer reuses the bytes only when every column of every one of its
 * rows equals the kept row's (`sameRow`), i.e. when the presenter would be given exactly the same values: a
 * changed column (a new state, a renamed repository or user, a moved location) presents the item again. No
 * clock, no trust in `updated_at`, no invalidation to forget.
 *
 * Bounded by bytes (texts and an estimate of the kept rows), least recently used first out; whole array bodies
 * made only of kept texts are kept too (`jsonArray`, a quarter of the bound on top).
 */
import type { DataSource, EntityManager, ObjectLiteral } from 'typeorm';
import type { ColumnMetadata } from 'typeorm/metadata/ColumnMetadata';
import { dataSourceOf, PG_DATE_TYPES, PLAIN_TYPES, SQLITE_DATE_TYPES } from '../db/rows';

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
  const ds = dataSourceOf(db);
  let byClass = compiled.get(ds);
  if (!byClass) compiled.set(ds, (byClass = new Map()));
  let f = byClass.get(a.constructor);
  if (!f) {
    f = compile(ds.getMetadata(a.constructor).columns.filter((c) => !c.isVirtual));
    byClass.set(a.constructor, f);
  }
  return f(a, b);
}

/** The rows an item was made of, in a fixed order per kind of item (null for a row it does not have). */
export type SourceRows = ReadonlyArray<ObjectLiteral | null | undefined>;

interface Entry {
  /** Everything else the text depends on (variant, options, base URL). */
  extra: string;
  rows: SourceRows;
  text: Buffer;
  size: number;
}

/** A rough size of a kept row (its values), for the byte bound. */
const ROW_BYTES = 512;

export class TextMemo {
  private readonly entries = new Map<string, Entry>();
  private bytes = 0;
  /** A number per text made here, to name a sequence of texts (`jsonArray`). */
  private readonly serials = new WeakMap<Buffer, number>();
  private nextSerial = 1;
  /** Whole JSON array bodies by the serials of their texts, bounded by `maxBytes / 4`. */
  private readonly arrays = new Map<string, Buffer>();
  private arrayBytes = 0;

  constructor(readonly maxBytes: number) {}

  /**
   * `[t0,t1,...]` (see json-body.ts) from texts this memo gave out: the same sequence of texts (the same
   * objects: no row of any item changed) gives the body built before, without copying hundreds of KB again.
   */
  jsonArray(texts: readonly Buffer[], build: (texts: readonly Buffer[]) => Buffer): Buffer {
    let key = '';
    for (const t of texts) {
      const n = this.serials.get(t);
      if (n === undefined) return build(texts);
      key += `${n},`;
    }
    const hit = this.arrays.get(key);
    if (hit !== undefined) {
      this.arrays.delete(key);
      this.arrays.set(key, hit);
      return hit;
    }
    const body = build(texts);
    const limit = this.maxBytes / 4;
    if (body.length <= limit) {
      this.arrays.set(key, body);
      this.arrayBytes += body.length;
      while (this.arrayBytes > limit) {
        const [oldest, b] = this.arrays.entries().next().value as [string, Buffer];
        this.arrays.delete(oldest);
        this.arrayBytes -= b.length;
      }
    }
    return body;
  }

  /** The text kept in `slot`, when it was made from the same `extra` and rows equal to `rows`. */
  get(db: EntityManager | DataSource, slot: string, extra: string, rows: SourceRows): Buffer | undefined {
    const e = this.entries.get(slot);
    if (e === undefined || e.extra !== extra || e.rows.length !== rows.length) return undefined;
    for (let i = 0; i < rows.length; i++) if (!sameRow(db, e.rows[i], rows[i])) return undefined;
    // Most recently used last.
    this.entries.delete(slot);
    this.entries.set(slot, e);
    return e.text;
  }

  set(slot: string, extra: string, rows: SourceRows, text: Buffer): void {
    const old = this.entries.get(slot);
    if (old) {
      this.entries.delete(slot);
      this.bytes -= old.size;
    }
    const size = text.length + 2 * (extra.length + slot.length) + ROW_BYTES * rows.length + 64;
    if (size > this.maxBytes) return;
    // The request's own row objects (loaded for this answer, never written to afterwards): kept as they are, they
    // share their hidden class with the next answer's rows, which keeps sameRow's property reads monomorphic.
    this.entries.set(slot, { extra, rows: [...rows], text, size });
    this.bytes += size;
    while (this.bytes > this.maxBytes) {
      const oldest = this.entries.keys().next().value as string;
      this.bytes -= this.entries.get(oldest)!.size;
      this.entries.delete(oldest);
    }
  }

  /** The text of `slot` made from `extra` and `rows`: the kept one, or `make()`'s (then kept). */
  text(db: EntityManager | DataSource, slot: string, extra: string, rows: SourceRows, make: () => string): Buffer {
    let t = this.get(db, slot, extra, rows);
    if (t === undefined) {
      t = Buffer.from(make(), 'utf8');
      this.serials.set(t, this.nextSerial++);
      this.set(slot, extra, rows, t);
    }
    return t;
  }

  get size(): number {
    return this.entries.size;
  }

  get usedBytes(): number {
    return this.bytes;
  }

  clear(): void {
    this.entries.clear();
    this.bytes = 0;
    this.arrays.clear();
    this.arrayBytes = 0;
  }
}
