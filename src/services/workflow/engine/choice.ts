/** Choice rules compiled into predicates: comparisons (+ *Path variants), type tests, StringMatches, And/Or/Not. */
import type { Json } from './types';
import { runtimeError } from './errors';
import { compilePath, readAt, clipPath } from './paths';
import type { Env } from './intrinsics';

export type Cond = (env: Env) => boolean;

const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})$/i;

export function isTimestamp(v: Json | undefined): v is string {
  return typeof v === 'string' && RFC3339.test(v) && !Number.isNaN(Date.parse(v));
}

/**
 * StringMatches: `*` matches any run of characters; `\*` is a literal star and `\\` a literal backslash.
 * Matched without regular expressions (literal pieces found left to right), so a pattern with many stars cannot
 * make matching explode on a long string.
 */
export function compileMatcher(pattern: string): { test(s: string): boolean } {
  const pieces: string[] = [''];
  for (let i = 0; i < pattern.length; i++) {
    const ch = pattern[i];
    if (ch === '\\' && (pattern[i + 1] === '*' || pattern[i + 1] === '\\')) {
      pieces[pieces.length - 1] += pattern[i + 1];
      i++;
    } else if (ch === '*') {
      pieces.push('');
    } else {
      pieces[pieces.length - 1] += ch;
    }
  }
  return {
    test(s: string): boolean {
      const first = pieces[0];
      if (pieces.length === 1) return s === first;
      const last = pieces[pieces.length - 1];
      if (s.length < first.length + last.length || !s.startsWith(first) || !s.endsWith(last)) return false;
      let pos = first.length;
      const end = s.length - last.length;
      for (let i = 1; i < pieces.length - 1; i++) {
        const at = s.indexOf(pieces[i], pos);
        if (at < 0 || at + pieces[i].length > end) return false;
        pos = at + pieces[i].length;
      }
      return true;
    },
  };
}

type Cmp = (a: Json, b: Json) => boolean;
const str = (f: (a: string, b: string) => boolean): Cmp => (a, b) => typeof a === 'string' && typeof b === 'string' && f(a, b);
const num = (f: (a: number, b: number) => boolean): Cmp => (a, b) => typeof a === 'number' && typeof b === 'number' && f(a, b);
const ts =
  (f: (a: number, b: number) => boolean): Cmp =>
  (a, b) =>
    isTimestamp(a) && isTimestamp(b) && f(Date.parse(a), Date.parse(b));

const COMPARISONS: Record<string, Cmp> = {
  StringEquals: str((a, b) => a === b),
  StringLessThan: str((a, b) => a < b),
  StringGreaterThan: str((a, b) => a > b),
  StringLessThanEquals: str((a, b) => a <= b),
  StringGreaterThanEquals: str((a, b) => a >= b),
  NumericEquals: num((a, b) => a === b),
  NumericLessThan: num((a, b) => a < b),
  NumericGreaterThan: num((a, b) => a > b),
  NumericLessThanEquals: num((a, b) => a <= b),
  NumericGreaterThanEquals: num((a, b) => a >= b),
  BooleanEquals: (a, b) => typeof a === 'boolean' && a === b,
  TimestampEquals: ts((a, b) => a === b),
  TimestampLessThan: ts((a, b) => a < b),
  TimestampGreaterThan: ts((a, b) => a > b),
  TimestampLessThanEquals: ts((a, b) => a <= b),
  TimestampGreaterThanEquals: ts((a, b) => a >= b),
};

const TYPE_TESTS: Record<string, (v: Json) => boolean> = {
  IsNull: (v) => v === null,
  IsNumeric: (v) => typeof v === 'number',
  IsString: (v) => typeof v === 'string',
  IsBoolean: (v) => typeof v === 'boolean',
  IsTimestamp: (v) => isTimestamp(v),
};

const bad = (why: string): Cond => () => {
  throw runtimeError(why);
};

export function compileRule(rule: unknown): Cond {
  if (rule === null || typeof rule !== 'object' || Array.isArray(rule)) return bad('A Choice rule must be an object');
  const r = rule as Record<string, unknown>;
  if (Array.isArray(r.And)) {
    const parts = r.And.map(compileRule);
    return (env) => parts.every((p) => p(env));
  }
  if (Array.isArray(r.Or)) {
    const parts = r.Or.map(compileRule);
    return (env) => parts.some((p) => p(env));
  }
  if (r.Not !== undefined) {
    const inner = compileRule(r.Not);
    return (env) => !inner(env);
  }
  if (typeof r.Variable !== 'string' || !r.Variable.startsWith('$')) return bad('A Choice rule needs a Variable path');
  const variable = compilePath(r.Variable);
  const read = (env: Env) => readAt(variable, env.input, env.context, env.vars);
  const need = (env: Env): Json => {
    const v = read(env);
    if (v === undefined) {
      throw runtimeError(`Invalid path '${clipPath(variable.raw)}': The choice state's condition path references an invalid value.`);
    }
    return v;
  };

  if (r.IsPresent !== undefined) {
    const want = r.IsPresent === true;
    return (env) => (read(env) !== undefined) === want;
  }
  for (const [op, test] of Object.entries(TYPE_TESTS)) {
    if (r[op] !== undefined) {
      const want = r[op] === true;
      // a missing variable is "not of that type" (Step Functions answers false rather than failing)
      return (env) => {
        const v = read(env);
        return v !== undefined && test(v) === want;
      };
    }
  }
  if (r.StringMatches !== undefined) {
    if (typeof r.StringMatches !== 'string') return bad('StringMatches needs a string pattern');
    const re = compileMatcher(r.StringMatches);
    return (env) => {
      const v = need(env);
      return typeof v === 'string' && re.test(v);
    };
  }
  for (const [op, cmp] of Object.entries(COMPARISONS)) {
    if (r[op] !== undefined) {
      const expected = r[op] as Json;
      return (env) => cmp(need(env), expected);
    }
    const pathOp = `${op}Path`;
    if (r[pathOp] !== undefined) {
      if (typeof r[pathOp] !== 'string') return bad(`${pathOp} needs a path`);
      const other = compilePath(r[pathOp] as string);
      return (env) => {
        const b = readAt(other, env.input, env.context, env.vars);
        if (b === undefined) {
          throw runtimeError(`Invalid path '${clipPath(other.raw)}': The choice state's condition path references an invalid value.`);
        }
        return cmp(need(env), b);
      };
    }
  }
  return bad('A Choice rule has no known comparison operator');
}
