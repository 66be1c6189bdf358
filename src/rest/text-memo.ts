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
import { sameRow } from '../db/same-row';

export { sameRow };

/**
 * `buf` in memory of its own: Node hands out small buffers (under 4 KB) as slices of a shared 8 KB pool, and
 * keeping one would keep the whole pool slab alive, beyond what the byte bound counts.
 */
function owned(buf: Buffer): Buffer {
  if (buf.byteOffset === 0 && buf.buffer.byteLength === buf.length) return buf;
  const copy = Buffer.allocUnsafeSlow(buf.length);
  buf.copy(copy);
  return copy;
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
    const body = owned(build(texts));
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
      t = owned(Buffer.from(make(), 'utf8'));
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

interface AnswerEntry {
  extra: string;
  rows: SourceRows;
  body: Buffer;
}

/**
 * Whole answers (bodies) kept with the text their page was read from (`Page.source`: every selected column of
 * every row, as the database gave it) and the rows outside that text the answer was made from (e.g. the
 * organization owning the listed repositories), plus `extra` (variant, options, base URL). An answer is given
 * again only for the very same text, `extra` and equal rows (`sameRow`): the presenter would be given exactly the
 * same values, so it would write the same bytes. A dashboard asking for the same page again then costs the page
 * statement and one string comparison: its rows are not even parsed (the items of such pages are built on first
 * use, services/common/pagination.ts; in GitHub's cursor mode the Link header's cursors still build them).
 *
 * Bounded by bytes (kept texts, bodies and an estimate of the rows), least recently used first out.
 */
export class AnswerMemo {
  /** By page text; a few answers per text (one per `extra`). */
  private readonly entries = new Map<string, AnswerEntry[]>();
  private bytes = 0;
  private static readonly PER_TEXT = 4;

  constructor(readonly maxBytes: number) {}

  private static sizeOf(source: string, list: readonly AnswerEntry[]): number {
    let n = 2 * source.length + 64;
    for (const e of list) n += e.body.length + 2 * e.extra.length + ROW_BYTES * e.rows.length + 64;
    return n;
  }

  /** The body kept for this page text, `extra` and rows equal to `rows`; undefined when there is none. */
  get(db: EntityManager | DataSource, source: string | undefined, extra: string, rows: SourceRows): Buffer | undefined {
    if (source === undefined) return undefined;
    const list = this.entries.get(source);
    if (list === undefined) return undefined;
    for (const e of list) {
      if (e.extra !== extra || e.rows.length !== rows.length) continue;
      let same = true;
      for (let i = 0; i < rows.length && same; i++) same = sameRow(db, e.rows[i], rows[i]);
      if (!same) continue;
      // Most recently used last.
      this.entries.delete(source);
      this.entries.set(source, list);
      return e.body;
    }
    return undefined;
  }

  /** Keep `body` as the answer made from this page text, `extra` and `rows`. */
  set(source: string | undefined, extra: string, rows: SourceRows, body: Buffer): void {
    if (source === undefined) return;
    const old = this.entries.get(source);
    if (old) {
      this.entries.delete(source);
      this.bytes -= AnswerMemo.sizeOf(source, old);
    }
    const list = (old ?? []).filter((e) => e.extra !== extra);
    list.push({ extra, rows: [...rows], body: owned(body) });
    while (list.length > AnswerMemo.PER_TEXT) list.shift();
    const size = AnswerMemo.sizeOf(source, list);
    if (size > this.maxBytes) return;
    this.entries.set(source, list);
    this.bytes += size;
    while (this.bytes > this.maxBytes) {
      const [oldest, l] = this.entries.entries().next().value as [string, AnswerEntry[]];
      this.bytes -= AnswerMemo.sizeOf(oldest, l);
      this.entries.delete(oldest);
    }
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
