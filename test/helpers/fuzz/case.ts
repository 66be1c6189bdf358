/**
 * One fuzz case: a request (without credentials: the test sends it once per demo token, anonymously and
 * with bad tokens), what it targets and how it was built. Its string form (what fast-check prints for a
 * counterexample) is the request itself, with long values shortened.
 */
import fc from 'fast-check';
import type { WireRequest } from './http';
import { EnumName, FuzzValue, RawNumber } from './values';

export type CaseKind = 'rest' | 'graphql' | 'transport';
export type CaseMode = 'valid' | 'one-bad' | 'random';

export interface FuzzCase {
  kind: CaseKind;
  mode: CaseMode;
  /** Route row (`PATCH /repos/{owner}/{repo}/…`) or root field (`Mutation.submitPush`) the case targets. */
  target: string;
  /** The part replaced by a bad value (one-bad mode), e.g. `query.after`, `body.state`, `args.input.number`. */
  bad?: string;
  /** Which family's error rules apply: a REST family, `graphql`, or `any` (transport-level tampering). */
  oracle: 'github' | 'wordpress' | 'aws' | 'graphql' | 'any';
  request: WireRequest;
}

export function shorten(s: string, max = 300): string {
  if (s.length <= max) return s;
  return `${s.slice(0, max)}…[${s.length} chars]`;
}

export function describeRequest(r: WireRequest): string {
  const lines = [`${r.method} ${shorten(r.target, 400)}${r.http10 ? ' HTTP/1.0' : ''}`];
  for (const [k, v] of Object.entries(r.headers)) lines.push(`${k}: ${shorten(v, 200)}`);
  if (r.body !== undefined) lines.push('', shorten(r.body, 1200));
  return lines.join('\n');
}

export function describeCase(c: FuzzCase): string {
  return `[${c.kind} ${c.mode}${c.bad ? ` bad=${c.bad}` : ''}] ${c.target}\n${describeRequest(c.request)}`;
}

/** Attach fast-check's string form (used in counterexample reports). */
export function makeCase(c: FuzzCase): FuzzCase {
  Object.defineProperty(c, fc.toStringMethod, { value: () => describeCase(c), enumerable: false });
  return c;
}

/** JSON text of a value; RawNumber goes in verbatim, EnumName as its name (a string). */
export function toJsonText(v: FuzzValue | undefined): string {
  if (v === undefined) return 'null';
  if (v instanceof RawNumber) return v.text;
  if (v instanceof EnumName) return JSON.stringify(v.name);
  if (Array.isArray(v)) return `[${v.map((x) => toJsonText(x)).join(',')}]`;
  if (v !== null && typeof v === 'object') {
    return `{${Object.entries(v)
      .map(([k, x]) => `${JSON.stringify(k)}:${toJsonText(x)}`)
      .join(',')}}`;
  }
  if (typeof v === 'number' && !Number.isFinite(v)) return 'null';
  return JSON.stringify(v);
}
