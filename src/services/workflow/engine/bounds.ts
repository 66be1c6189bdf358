/**
 * Size-aware handling of job data: the engine measures a value's JSON size WITHOUT serializing it (values share
 * sub-objects by reference, so `{"a.$":"$","b.$":"$",...}` is small in memory and huge as text), refuses what passes
 * Step Functions' payload limit before any text is built, and serializes only values known to fit.
 *
 * - `jsonSize(v, cap)`: UTF-8 bytes of `JSON.stringify(v)`, stopping as soon as it passes `cap`. Sizes of objects
 *   are memoized by identity (job data is never modified once built), so a value referencing one sub-object 3,000
 *   times is measured in 3,000 steps, not 3,000 × its size.
 * - `Serializer`: JSON text of values, memoized by identity for one step (1,000 branches entered with one input make
 *   one string, not 1,000), counting the characters it builds in `engineStats` (tests and /metrics read them).
 */
import { AslError, E, MAX_PAYLOAD } from './errors';
import type { Json } from './types';

/** Characters of JSON text the engine has built (events, checkpoints): an instrumentation counter. */
export const engineStats = { serializedChars: 0 };

const OBJECT_SIZES = new WeakMap<object, number>();
/** Sizes of long strings seen last (strings cannot key a WeakMap; a few are enough for repeated references). */
const STRING_SIZES = new Map<string, number>();
const STRING_MEMO_MIN = 1024;
const STRING_MEMO_MAX = 16;
// eslint-disable-next-line no-control-regex
const NEEDS_ESCAPE = /["\\\u0000-\u001f]/;

/** UTF-8 bytes of a string as a JSON string literal (quotes and escapes included). */
export function jsonStringBytes(s: string): number {
  const memo = s.length >= STRING_MEMO_MIN;
  if (memo) {
    const known = STRING_SIZES.get(s);
    if (known !== undefined) return known;
  }
  let n = Buffer.byteLength(s, 'utf8') + 2;
  if (NEEDS_ESCAPE.test(s)) {
    for (let i = 0; i < s.length; i++) {
      const c = s.charCodeAt(i);
      if (c === 34 || c === 92 || c === 8 || c === 9 || c === 10 || c === 12 || c === 13) n += 1;
      else if (c < 32) n += 5;
    }
  }
  if (memo) {
    if (STRING_SIZES.size >= STRING_MEMO_MAX) STRING_SIZES.clear();
    STRING_SIZES.set(s, n);
  }
  return n;
}

/**
 * UTF-8 bytes of `JSON.stringify(v)` (undefined counts as `null`); once the count passes `cap` it returns at once
 * with a number above `cap` (the exact size is then unknown and not remembered).
 */
export function jsonSize(v: unknown, cap = Infinity): number {
  switch (typeof v) {
    case 'string':
      return jsonStringBytes(v);
    case 'number':
      return Number.isFinite(v) ? String(v).length : 4;
    case 'boolean':
      return v ? 4 : 5;
    case 'object': {
      if (v === null) return 4;
      const known = OBJECT_SIZES.get(v);
      if (known !== undefined) return known;
      let n = 2;
      if (Array.isArray(v)) {
        for (let i = 0; i < v.length; i++) {
          if (i > 0) n += 1;
          const x = v[i] as unknown;
          n += x === undefined || typeof x === 'function' ? 4 : jsonSize(x, cap - n);
          if (n > cap) return n;
        }
      } else {
        let first = true;
        for (const k in v) {
          if (!Object.prototype.hasOwnProperty.call(v, k)) continue;
          const x = (v as Record<string, unknown>)[k];
          if (x === undefined || typeof x === 'function') continue;
          n += (first ? 0 : 1) + jsonStringBytes(k) + 1;
          first = false;
          n += jsonSize(x, cap - n);
          if (n > cap) return n;
        }
      }
      OBJECT_SIZES.set(v, n);
      return n;
    }
    default:
      return 4;
  }
}

/** Is the value's JSON text over Step Functions' payload limit (256 KiB)? Measured, never built. */
export function overPayload(v: unknown): boolean {
  return jsonSize(v, MAX_PAYLOAD) > MAX_PAYLOAD;
}

/** Throw States.DataLimitExceeded when the value's JSON text would pass 256 KiB (before building it). */
export function requirePayload(v: unknown, what: string): void {
  if (overPayload(v)) throw new AslError(E.DataLimitExceeded, `The ${what} has exceeded the maximum size of ${MAX_PAYLOAD} bytes`);
}

/** JSON texts of one step's values, shared by identity; counts what it builds. */
export class Serializer {
  private readonly texts = new WeakMap<object, string>();

  text(v: Json | undefined): string {
    if (v !== null && typeof v === 'object') {
      const known = this.texts.get(v);
      if (known !== undefined) return known;
      const s = JSON.stringify(v);
      engineStats.serializedChars += s.length;
      this.texts.set(v, s);
      return s;
    }
    const s = v === undefined ? 'null' : JSON.stringify(v);
    engineStats.serializedChars += s.length;
    return s;
  }
}
