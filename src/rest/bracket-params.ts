/**
 * Bracket-syntax parameters (`a[]=1&a[]=2`, `venue[city]=X`, `organizer[0][name]=Y`) as PHP reads them into
 * `$_POST` / `$_GET`, with the bounds every parser of such parameters goes through, checked before any work:
 *
 *  - at most MAX_PARAMS parameters (PHP's max_input_vars), counted from the separators before anything is
 *    decoded;
 *  - at most MAX_DEPTH bracket levels per key (PHP's max_input_nesting_level, lowered);
 *  - an index is a key, never a position: PHP arrays are ordered maps, so `title[99999999]=x` holds one entry,
 *    not a hundred million holes. A container whose keys are all integers is answered as a list of its values in
 *    the order they came (what WordPress's array sanitising, `array_values`, makes of it); any other an object.
 *
 * Over a bound the request is refused (ParamsOverLimitError, the family's 400) rather than silently cut as PHP
 * does: a client never gets an answer computed from part of what it sent.
 */
import { ValidationError } from '../errors/app-error';
import { REQUEST_CODES } from '../errors/codes';

export const MAX_PARAMS = 1000;
export const MAX_DEPTH = 10;

/** A request's parameters exceed a bound (count or nesting). */
export class ParamsOverLimitError extends ValidationError {
  constructor(message: string) {
    super(message, { domainCode: REQUEST_CODES.PARAMS_OVER_LIMIT });
  }
}

/** Refuses a `k=v&k=v…` text with more than MAX_PARAMS parameters (counted without decoding anything). */
export function checkParamCount(text: string): void {
  let count = text === '' ? 0 : 1;
  for (let i = text.indexOf('&'); i >= 0 && count <= MAX_PARAMS; i = text.indexOf('&', i + 1)) count++;
  if (count > MAX_PARAMS) throw new ParamsOverLimitError(`Too many parameters: at most ${MAX_PARAMS} are accepted.`);
}

/** A key's path: `a[b][]` -> ['a', 'b', ''] (PHP ignores anything after the last well-formed bracket). */
export function keyPath(key: string): string[] {
  const open = key.indexOf('[');
  if (open <= 0) return [key];
  const parts = [key.slice(0, open)];
  let at = open;
  while (key[at] === '[') {
    const close = key.indexOf(']', at);
    if (close < 0) break;
    if (parts.length > MAX_DEPTH) throw new ParamsOverLimitError(`Parameter nested too deeply: at most ${MAX_DEPTH} bracket levels are accepted.`);
    parts.push(key.slice(at + 1, close));
    at = close + 1;
  }
  return parts;
}

/** PHP's integer keys: canonical decimal integers (no leading zeros, no '+', up to 18 digits: within int64). */
const INT_KEY = /^(0|-?[1-9][0-9]{0,17})$/;

/** A container: an ordered map (PHP array) and the next index `[]` appends at. */
class Container {
  readonly entries = new Map<string, unknown>();
  next = 0;

  set(key: string, value: unknown): void {
    if (INT_KEY.test(key)) this.next = Math.max(this.next, Number(key) + 1);
    this.entries.set(key, value);
  }

  append(value: unknown): void {
    this.entries.set(String(this.next), value);
    this.next++;
  }
}

const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

function setIn(root: Container, path: string[], value: string): void {
  let node = root;
  for (let i = 0; i < path.length; i++) {
    const seg = path[i];
    if (i === path.length - 1) {
      if (seg === '') node.append(value);
      else node.set(seg, value);
      return;
    }
    let child = seg === '' ? undefined : node.entries.get(seg);
    if (!(child instanceof Container)) {
      child = new Container();
      if (seg === '') node.append(child);
      else node.set(seg, child);
    }
    node = child as Container;
  }
}

function present(c: Container): unknown {
  const keys = [...c.entries.keys()];
  if (keys.length > 0 && keys.every((k) => INT_KEY.test(k))) return [...c.entries.values()].map((v) => (v instanceof Container ? present(v) : v));
  const out: Record<string, unknown> = {};
  for (const [k, v] of c.entries) out[k] = v instanceof Container ? present(v) : v;
  return out;
}

/** `k=v&…` (form-urlencoded) as PHP reads it, within the bounds above. */
export function parseBracketParams(text: string): Record<string, unknown> {
  checkParamCount(text);
  const root = new Container();
  for (const [key, value] of new URLSearchParams(text)) {
    if (key === '') continue;
    const path = keyPath(key);
    if (path.some((p) => FORBIDDEN_KEYS.has(p))) continue;
    // The top level is always an object (a key, never an index).
    if (path.length === 1) {
      root.entries.set(path[0], value);
      continue;
    }
    setIn(root, path, value);
  }
  const out: Record<string, unknown> = {};
  for (const [k, v] of root.entries) out[k] = v instanceof Container ? present(v) : v;
  return out;
}
