/**
 * Memoized answer fragments: the JSON text (UTF-8 bytes) of one presented item, kept with the complete content
 * of the rows it was made of.
 *
 * A REST list answer presents every item from entity rows (an alert from the alert, its repository and owner,
 * its users and first location) and stringifies it: for the organization alert list that is ~6.5 KB of JSON
 * per alert, 650 KB per page, and the stringify alone cost about a third of the request (bench/README.md).
 * Dashboards ask for the same pages again and again, and the rows rarely change. So the text of an item is
 * kept under a **key made of every column value of every row the presenter read** (`rowFingerprint`), plus
 * whatever else the presentation depends on (base URL, variant, options). A later answer reuses the bytes
 * only when its key is identical, i.e. when the presenter would be given exactly the same values: a changed
 * column (a new state, a renamed repository or user, a moved location) gives another key, and the item is
 * presented again. No clock, no `updated_at` trust, no invalidation to forget.
 *
 * Bounded by bytes (texts and keys), least recently used first out.
 */
import type { DataSource, EntityManager, ObjectLiteral } from 'typeorm';
import type { ColumnMetadata } from 'typeorm/metadata/ColumnMetadata';
import { dataSourceOf } from '../db/rows';

/** One value, encoded so that distinct value sequences never give the same string (lengths and terminators). */
function encode(v: unknown): string {
  switch (typeof v) {
    case 'string':
      return `s${v.length}:${v}`;
    case 'number':
      return `n${v};`;
    case 'boolean':
      return v ? 'T' : 'F';
    case 'undefined':
      return 'U';
    case 'bigint':
      return `b${v};`;
    case 'object': {
      if (v === null) return 'Z';
      if (v instanceof Date) return `d${v.getTime()};`;
      const json = JSON.stringify(v);
      return `j${json.length}:${json}`;
    }
    default:
      // Functions and symbols are never column values; a unique marker makes sure they never match.
      return `x${Math.random()};`;
  }
}

type Fingerprint = (e: ObjectLiteral) => string;

const compiled = new WeakMap<DataSource, Map<unknown, Fingerprint>>();

function compile(columns: readonly ColumnMetadata[], className: string): Fingerprint {
  const getters = columns.map((c) => (e: ObjectLiteral) => c.getEntityValue(e));
  const parts = columns.map((c, i) => (c.embeddedMetadata ? `encode(getters[${i}](e))` : `encode(e[${JSON.stringify(c.propertyName)}])`));
  // eslint-disable-next-line @typescript-eslint/no-implied-eval
  return new Function('encode', 'getters', `"use strict"; return function fingerprint(e) { return ${JSON.stringify(className + ':')} + ${parts.join(' + ')}; };`)(
    encode,
    getters,
  ) as Fingerprint;
}

/**
 * Every column value of an entity row (its class's columns as TypeORM's metadata lists them), as one string:
 * two rows of the same entity class give the same string exactly when every column holds the same value.
 * `null`/`undefined` (no row) give `Z`.
 */
export function rowFingerprint(db: EntityManager | DataSource, e: ObjectLiteral | null | undefined): string {
  if (e === null || e === undefined) return 'Z';
  const ds = dataSourceOf(db);
  let byClass = compiled.get(ds);
  if (!byClass) compiled.set(ds, (byClass = new Map()));
  let f = byClass.get(e.constructor);
  if (!f) {
    const meta = ds.getMetadata(e.constructor);
    f = compile(
      meta.columns.filter((c) => !c.isVirtual),
      meta.name,
    );
    byClass.set(e.constructor, f);
  }
  return f(e);
}

/** Fingerprints of the rows shared by the items of one answer (users, repositories), each computed once. */
export class AnswerFingerprints {
  private readonly seen = new Map<ObjectLiteral, string>();

  constructor(private readonly db: EntityManager | DataSource) {}

  of(e: ObjectLiteral | null | undefined): string {
    if (e === null || e === undefined) return 'Z';
    let s = this.seen.get(e);
    if (s === undefined) {
      s = rowFingerprint(this.db, e);
      this.seen.set(e, s);
    }
    return s;
  }
}

interface Entry {
  key: string;
  text: Buffer;
  size: number;
}

export class TextMemo {
  private readonly entries = new Map<string, Entry>();
  private bytes = 0;

  constructor(readonly maxBytes: number) {}

  /** The text kept in `slot`, when it was made from exactly `key`. */
  get(slot: string, key: string): Buffer | undefined {
    const e = this.entries.get(slot);
    if (e === undefined || e.key !== key) return undefined;
    // Most recently used last.
    this.entries.delete(slot);
    this.entries.set(slot, e);
    return e.text;
  }

  set(slot: string, key: string, text: Buffer): void {
    const old = this.entries.get(slot);
    if (old) {
      this.entries.delete(slot);
      this.bytes -= old.size;
    }
    const size = text.length + 2 * (key.length + slot.length) + 64;
    if (size > this.maxBytes) return;
    this.entries.set(slot, { key, text, size });
    this.bytes += size;
    while (this.bytes > this.maxBytes) {
      const oldest = this.entries.keys().next().value as string;
      this.bytes -= this.entries.get(oldest)!.size;
      this.entries.delete(oldest);
    }
  }

  /** The text of `slot` made from `key`: the kept one, or `make()`'s (then kept). */
  text(slot: string, key: string, make: () => string): Buffer {
    let t = this.get(slot, key);
    if (t === undefined) {
      t = Buffer.from(make(), 'utf8');
      this.set(slot, key, t);
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
  }
}
