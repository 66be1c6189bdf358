/**
 * Memoized answer fragments: the JSON text (UTF-8 bytes) of one presented item, kept with the rows it was made of.
 *
 * A REST list answer presents every item from entity rows (an alert from the alert, its repository and owner,
 * its users and first location) and stringifies it: for the organization alert list that is ~6.5 KB of JSON
 * per alert, 650 KB per page, and the stringify alone cost about a third of the request (bench/README.md).
 * Dashboards ask for the same pages again and again, and the rows rarely change. So the text of an item is
 * kept together with **the rows it was made from** (and whatever else the presentation depends on: base URL,
 * variant, options, as a string). A later answer reuses the bytes only when every column of every one of its
 * rows equals the memoized row's (`sameRow`), i.e. when the presenter would be given exactly the same values: a
 * changed column (a new state, a renamed repository or user, a moved location) presents the item again. No
 * clock, no trust in `updated_at`, no invalidation to forget.
 *
 * Bounded by bytes (texts and an estimate of the memoized rows), least recently used first out; whole array bodies
 * made only of memoized texts are kept too (`jsonArray`, a quarter of the bound on top).
 *
 * The memos belong to one app: `RestMemos` is created by createApp (sizes from its configuration), read by the
 * routes through the request context, cleared when the app closes, and counted in /metrics (hits, misses, bytes).
 * What a memoized text is made from is declared once per presenter (`MemoizedText`): its rows, its other inputs, the text.
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

/**
 * A presenter whose texts are memoized, declared once: everything its text is made from (the rows it reads, and the
 * rest as one string), so a memoized text is given again only when all of it is the same.
 */
export interface MemoizedText<I> {
  /** Which item (among this presenter's): e.g. its variant and id. */
  slot(input: I): string;
  /** What the text depends on besides rows: base URL, variant, options, viewer-dependent flags. */
  madeWith(input: I): string;
  /** Every row the presenter reads for the item, in a fixed order (null for one it does not have). */
  rows(input: I): SourceRows;
  /** The item's JSON text. */
  text(input: I): string;
}

interface Entry extends Made {
  text: Buffer;
}

/** A rough size of a memoized row (its values), for the byte bound. */
const ROW_BYTES = 512;

/** A map bounded by the bytes its values are said to take: least recently used out first. */
class BytesLru<K, V> {
  private readonly map = new Map<K, { value: V; size: number }>();
  private bytes = 0;

  constructor(readonly maxBytes: number) {}

  /** The value of `key` (then the most recently used), or undefined. */
  get(key: K): V | undefined {
    const e = this.map.get(key);
    if (e === undefined) return undefined;
    this.map.delete(key);
    this.map.set(key, e);
    return e.value;
  }

  /** The value of `key` without counting it as used. */
  peek(key: K): V | undefined {
    return this.map.get(key)?.value;
  }

  /** Keep `value` under `key` (replacing what was there); a value larger than the whole bound is not kept. */
  set(key: K, value: V, size: number): void {
    this.delete(key);
    if (size > this.maxBytes) return;
    this.map.set(key, { value, size });
    this.bytes += size;
    while (this.bytes > this.maxBytes) this.delete(this.map.keys().next().value as K);
  }

  delete(key: K): void {
    const e = this.map.get(key);
    if (e === undefined) return;
    this.map.delete(key);
    this.bytes -= e.size;
  }

  get size(): number {
    return this.map.size;
  }

  get usedBytes(): number {
    return this.bytes;
  }

  clear(): void {
    this.map.clear();
    this.bytes = 0;
  }
}

/** What a memoized answer or text was made from besides its key: options (`madeWith`) and rows. */
interface Made {
  madeWith: string;
  rows: SourceRows;
}

/** Whether `memo` was made from this `madeWith` and rows equal to `rows`. */
function madeFrom(db: EntityManager | DataSource, memo: Made, madeWith: string, rows: SourceRows): boolean {
  if (memo.madeWith !== madeWith || memo.rows.length !== rows.length) return false;
  for (let i = 0; i < rows.length; i++) if (!sameRow(db, memo.rows[i], rows[i])) return false;
  return true;
}

export class TextMemo {
  private readonly entries: BytesLru<string, Entry>;
  /** A number per text made here, to name a sequence of texts (`jsonArray`). */
  private readonly serials = new WeakMap<Buffer, number>();
  private nextSerial = 1;
  /** Whole JSON array bodies by the serials of their texts, bounded by `maxBytes / 4`. */
  private readonly arrays: BytesLru<string, Buffer>;

  constructor(readonly maxBytes: number) {
    this.entries = new BytesLru(maxBytes);
    this.arrays = new BytesLru(maxBytes / 4);
  }

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
    if (hit !== undefined) return hit;
    const body = owned(build(texts));
    this.arrays.set(key, body, body.length);
    return body;
  }

  /** The text memoized in `slot`, when it was made from the same `madeWith` and rows equal to `rows`. */
  get(db: EntityManager | DataSource, slot: string, madeWith: string, rows: SourceRows): Buffer | undefined {
    const e = this.entries.peek(slot);
    if (e === undefined || !madeFrom(db, e, madeWith, rows)) {
      this.misses++;
      return undefined;
    }
    this.hits++;
    this.entries.get(slot); // most recently used
    return e.text;
  }

  hits = 0;
  misses = 0;

  set(slot: string, madeWith: string, rows: SourceRows, text: Buffer): void {
    // The request's own row objects (loaded for this answer, never written to afterwards): kept as they are, they
    // share their hidden class with the next answer's rows, which keeps sameRow's property reads monomorphic.
    this.entries.set(slot, { madeWith, rows: [...rows], text }, text.length + 2 * (madeWith.length + slot.length) + ROW_BYTES * rows.length + 64);
  }

  /** The text `memo` declares for `input`: the memoized one when made from the same inputs, or a new one (then memoized). */
  textOf<I>(db: EntityManager | DataSource, memo: MemoizedText<I>, input: I): Buffer {
    return this.text(db, memo.slot(input), memo.madeWith(input), memo.rows(input), () => memo.text(input));
  }

  /** The text of `slot` made from `madeWith` and `rows`: the memoized one, or `make()`'s (then memoized). */
  text(db: EntityManager | DataSource, slot: string, madeWith: string, rows: SourceRows, make: () => string): Buffer {
    let t = this.get(db, slot, madeWith, rows);
    if (t === undefined) {
      t = owned(Buffer.from(make(), 'utf8'));
      this.serials.set(t, this.nextSerial++);
      this.set(slot, madeWith, rows, t);
    }
    return t;
  }

  get size(): number {
    return this.entries.size;
  }

  get usedBytes(): number {
    return this.entries.usedBytes;
  }

  clear(): void {
    this.entries.clear();
    this.arrays.clear();
  }
}

interface AnswerEntry extends Made {
  body: Buffer;
}

/**
 * Whole answers (bodies) memoized with the text their page was read from (`Page.source`: every selected column of
 * every row, as the database gave it) and the rows outside that text the answer was made from (e.g. the
 * organization owning the listed repositories), plus `madeWith` (variant, options, base URL). An answer is given
 * again only for the very same text, `madeWith` and equal rows (`sameRow`): the presenter would be given exactly the
 * same values, so it would write the same bytes. A dashboard asking for the same page again then costs the page
 * statement and one string comparison: its rows are not even parsed (the items of such pages are built on first
 * use, services/common/pagination.ts; in GitHub's cursor mode the Link header's cursors still build them).
 *
 * Bounded by bytes (memoized texts, bodies and an estimate of the rows), least recently used first out.
 */
export class AnswerMemo {
  /** By page text; a few answers per text (one per `madeWith`). */
  private readonly entries: BytesLru<string, AnswerEntry[]>;
  private static readonly PER_TEXT = 4;

  constructor(readonly maxBytes: number) {
    this.entries = new BytesLru(maxBytes);
  }

  private static sizeOf(source: string, list: readonly AnswerEntry[]): number {
    let n = 2 * source.length + 64;
    for (const e of list) n += e.body.length + 2 * e.madeWith.length + ROW_BYTES * e.rows.length + 64;
    return n;
  }

  /** The body memoized for this page text, `madeWith` and rows equal to `rows`; undefined when there is none. */
  get(db: EntityManager | DataSource, source: string | undefined, madeWith: string, rows: SourceRows): Buffer | undefined {
    if (source === undefined) return undefined;
    const memo = this.entries.peek(source)?.find((e) => madeFrom(db, e, madeWith, rows));
    if (memo === undefined) {
      this.misses++;
      return undefined;
    }
    this.hits++;
    this.entries.get(source); // most recently used
    return memo.body;
  }

  hits = 0;
  misses = 0;

  /** Keep `body` as the answer made from this page text, `madeWith` and `rows`. */
  set(source: string | undefined, madeWith: string, rows: SourceRows, body: Buffer): void {
    if (source === undefined) return;
    const list = (this.entries.peek(source) ?? []).filter((e) => e.madeWith !== madeWith);
    list.push({ madeWith, rows: [...rows], body: owned(body) });
    while (list.length > AnswerMemo.PER_TEXT) list.shift();
    this.entries.set(source, list, AnswerMemo.sizeOf(source, list));
  }

  get size(): number {
    return this.entries.size;
  }

  get usedBytes(): number {
    return this.entries.usedBytes;
  }

  clear(): void {
    this.entries.clear();
  }
}

/** Bytes each memo of an app may keep (0: none). */
export interface RestMemoSizes {
  /** Texts of listed secret scanning alerts (REST_MEMO_ALERT_TEXT_BYTES). */
  alertTexts: number;
  /** Texts of listed calendar events (REST_MEMO_EVENT_TEXT_BYTES). */
  eventTexts: number;
  /** Whole secret scanning alert list answers (REST_MEMO_ALERT_PAGE_BYTES). */
  alertPages: number;
}

/** The REST answer memos of one app (createApp makes them, its close() clears them). */
export class RestMemos {
  readonly alertTexts: TextMemo;
  readonly eventTexts: TextMemo;
  readonly alertPages: AnswerMemo;

  constructor(sizes: RestMemoSizes) {
    this.alertTexts = new TextMemo(sizes.alertTexts);
    this.eventTexts = new TextMemo(sizes.eventTexts);
    this.alertPages = new AnswerMemo(sizes.alertPages);
  }

  /** Each memo by its name in /metrics. */
  named(): Array<[string, { hits: number; misses: number; usedBytes: number; size: number }]> {
    return [
      ['alert_texts', this.alertTexts],
      ['alert_pages', this.alertPages],
      ['event_texts', this.eventTexts],
    ];
  }

  close(): void {
    this.alertTexts.clear();
    this.eventTexts.clear();
    this.alertPages.clear();
  }
}

/** Nothing kept: the memos of a context without an app (in-process callers). */
const KEEP_NONE: RestMemoSizes = { alertTexts: 0, eventTexts: 0, alertPages: 0 };

/** The app's memos of `ctx`, or memos that keep nothing. */
export function memosOf(ctx: { memos?: RestMemos }): RestMemos {
  return ctx.memos ?? new RestMemos(KEEP_NONE);
}
