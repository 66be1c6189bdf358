/**
 * The checkpoint as stored text, with shared values stored once. In memory, job data is shared by reference: 1,000
 * Parallel branches hold one input, a Map's items are part of its input, Parameters reference subtrees of the state
 * input. Plain JSON would write each reference out in full, so a checkpoint (rewritten on every transition) would grow
 * with width × input size. Here a value (object, array, or string of 1 KiB or more) referenced more than once is
 * written once in a table (`sh`) and referenced by index; decoding restores the sharing, so a resumed job stays small.
 *
 * Encoding of a reference: `{"\u0000r": i}`. A data object that itself has the key `\u0000r` is escaped as
 * `{"\u0000r": -1, "e": [[key, value], …]}`, so no job data can be mistaken for a reference. A checkpoint without
 * shared values or such keys is plain JSON, and plain JSON (older checkpoints) decodes as it is.
 */
import { engineStats, jsonSize } from './bounds';
import type { Checkpoint, Json, Thread } from './types';

const REF = '\u0000r';
const MIN_SHARED_STRING = 1024;
const MIN_SHARED_BYTES = 256;

type Val = Json | undefined;

function dataOf(th: Thread, out: Val[]): void {
  out.push(th.in, th.o, th.ti, th.it, th.mi, th.rs, th.va, th.pv);
  if (th.kd) for (const k of th.kd) dataOf(k, out);
}

export function encodeCheckpoint(cp: Checkpoint): string {
  // Pass 1: how often each object/array (by identity) and each long string is referenced from the data.
  const seen = new Map<object | string, number>();
  let escapes = false;
  const visit = (v: Val): void => {
    if (typeof v === 'string') {
      if (v.length >= MIN_SHARED_STRING) seen.set(v, (seen.get(v) ?? 0) + 1);
      return;
    }
    if (v === null || typeof v !== 'object') return;
    const n = seen.get(v);
    if (n !== undefined) {
      seen.set(v, n + 1);
      return;
    }
    seen.set(v, 1);
    if (Array.isArray(v)) for (const x of v) visit(x);
    else {
      if (Object.prototype.hasOwnProperty.call(v, REF)) escapes = true;
      for (const k in v) visit(v[k]);
    }
  };
  const roots: Val[] = [cp.input];
  dataOf(cp.root, roots);
  for (const r of roots) visit(r);

  const index = new Map<object | string, number>();
  const table: Json[] = [];
  for (const [v, n] of seen) {
    if (n < 2) continue;
    if (typeof v !== 'string' && jsonSize(v, MIN_SHARED_BYTES) < MIN_SHARED_BYTES) continue;
    index.set(v, table.length);
    table.push(v as Json);
  }
  let text: string;
  if (index.size === 0 && !escapes) {
    text = JSON.stringify(cp);
  } else {
    const replacer = function (this: unknown, _key: string, value: unknown): unknown {
      if (typeof value === 'string') {
        if (value.length < MIN_SHARED_STRING || this === table) return value;
        const i = index.get(value);
        return i === undefined ? value : { [REF]: i };
      }
      if (value === null || typeof value !== 'object') return value;
      if (this !== table) {
        const i = index.get(value);
        if (i !== undefined) return { [REF]: i };
      }
      if (escapes && !Array.isArray(value) && Object.prototype.hasOwnProperty.call(value, REF)) {
        return { [REF]: -1, e: Object.entries(value) };
      }
      return value;
    };
    text = JSON.stringify({ ...cp, x: 1, sh: table }, replacer);
  }
  engineStats.serializedChars += text.length;
  return text;
}

export function decodeCheckpoint(text: string): Checkpoint {
  const raw = JSON.parse(text) as Checkpoint & { x?: number; sh?: Json[] };
  if (raw.x !== 1) return raw;
  const table = raw.sh ?? [];
  const resolved: Array<Json | undefined> = new Array(table.length);
  const done = new Set<object>();
  const fix = (v: Json): Json => {
    if (v === null || typeof v !== 'object' || done.has(v)) return v;
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) v[i] = fix(v[i]);
      done.add(v);
      return v;
    }
    if (Object.prototype.hasOwnProperty.call(v, REF)) {
      const i = v[REF];
      if (typeof i === 'number' && i >= 0 && i < table.length) {
        let r = resolved[i];
        if (r === undefined) {
          r = fix(table[i]);
          resolved[i] = r;
        }
        return r;
      }
      const entries = Array.isArray(v.e) ? (v.e as Json[]) : [];
      const obj: Record<string, Json> = {};
      for (const en of entries) if (Array.isArray(en) && typeof en[0] === 'string') obj[en[0]] = fix(en[1] ?? null);
      done.add(obj);
      return obj;
    }
    for (const k in v) v[k] = fix(v[k]);
    done.add(v);
    return v;
  };
  // Every field (a long error or cause may equal a shared data string), threads recursively.
  const fixThread = (th: Thread): void => {
    const t = th as unknown as Record<string, Json>;
    for (const f of Object.keys(t)) {
      if (f === 'kd') th.kd?.forEach(fixThread);
      else t[f] = fix(t[f]);
    }
  };
  const top = raw as unknown as Record<string, Json>;
  for (const f of Object.keys(top)) if (f !== 'root' && f !== 'sh') top[f] = fix(top[f]);
  fixThread(raw.root);
  delete raw.x;
  delete raw.sh;
  return raw;
}
