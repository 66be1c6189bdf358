/**
 * JSONata for the States Language (`QueryLanguage: "JSONata"`): `{% … %}` strings evaluated with the `jsonata`
 * package (the reference implementation, the engine Step Functions itself runs), Step Functions' own functions
 * ($partition, $range, $hash, $random, $uuid, $parse), its refusal of $eval, and bounds on every evaluation:
 * evaluation steps and nesting depth (jsonata's `__evaluate_entry` hook and `stack` option), the length of any
 * intermediate string or array, the size of the result. A hostile expression fails the state with
 * States.QueryEvaluationError; it never stalls the process (evaluation yields to the event loop regularly).
 */
import jsonata from 'jsonata';
import { createHash, randomUUID } from 'node:crypto';
import { setFlagsFromString } from 'node:v8';
import type { Json, JsonObject } from './types';
import { AslError } from './errors';

export const QUERY_EVALUATION_ERROR = 'States.QueryEvaluationError';

/** Evaluation steps (jsonata node evaluations) one expression may take. */
export const MAX_STEPS = 200_000;
/** Nesting of jsonata evaluations (recursion through function definitions counts). */
export const MAX_DEPTH = 400;
/** Longest string and array any step of an expression may produce. */
export const MAX_STRING = 1_048_576;
export const MAX_ITEMS = 100_000;
/** Characters and array items function calls and operators may produce in one evaluation, all steps together. */
export const MAX_PRODUCED_CHARS = 32 * 1_048_576;
export const MAX_PRODUCED_ITEMS = 4 * 1_048_576;
/** Result size (JSON characters, counted while it is converted): a shared sub-tree counts every time it appears. */
export const MAX_RESULT_CHARS = 4 * 1_048_576;
/** Step Functions' $range (like States.ArrayRange) makes at most 1000 items. */
export const MAX_RANGE_ITEMS = 1000;
/** Let other work run after this many steps (jsonata's awaits are microtasks: they do not let I/O in). */
const YIELD_EVERY = 4_096;

// Expressions run regular expressions of the definition's author on the job's data with JavaScript's backtracking
// engine. V8 switches a regular expression that backtracks excessively to its linear-time engine, so a catastrophic
// pattern (`/(a+)+$/`) cannot hold the process; backreferences, which that engine lacks, are refused below.
setFlagsFromString('--enable-experimental-regexp-engine-on-excessive-backtracks');

/** The regular expressions of expressions: no backreferences (they would keep backtracking without bound). */
class BoundedRegExp extends RegExp {
  constructor(pattern: string | RegExp, flags?: string) {
    const source = typeof pattern === 'string' ? pattern : pattern.source;
    if (/\\[1-9]|\\k</.test(source)) throw new Refusal('Regular expressions with backreferences are not supported');
    super(pattern, flags);
  }
}

/** A `{% … %}` string: exactly that, no spaces outside the delimiters. */
export function isExpression(v: unknown): v is string {
  return typeof v === 'string' && v.length >= 4 && v.startsWith('{%') && v.endsWith('%}');
}

/** Names of jsonata's built-in functions plus Step Functions' own: `$name` calls of these are not variables. */
export const FUNCTION_NAMES = new Set(
  (
    'sum count max min average string substring substringBefore substringAfter lowercase uppercase length trim pad ' +
    'match contains replace split join formatNumber formatBase formatInteger parseInteger number floor ceil round abs ' +
    'sqrt power random boolean not map zip filter single reduce sift keys lookup append exists spread merge reverse ' +
    'each error assert type sort shuffle distinct encodeUrlComponent encodeUrl decodeUrlComponent decodeUrl eval ' +
    'toMillis fromMillis clone base64encode base64decode now millis partition range hash uuid parse'
  ).split(' '),
);

/** Functions Step Functions refuses (use $parse instead of $eval). */
export const REFUSED_FUNCTIONS = new Set(['eval']);

export class QueryError extends AslError {
  constructor(
    cause: string,
    /** the field the expression is in (EvaluationFailed's `location`) */
    public location: string,
  ) {
    super(QUERY_EVALUATION_ERROR, cause);
  }
}

/** Thrown from a hook or a Step Functions function: becomes the expression's error message. */
class Refusal {
  constructor(public message: string) {}
}

const clipExpr = (s: string) => (s.length > 200 ? `${s.slice(0, 200)}…` : s);

/* ------------------------------------------------------------------------------------------------ compile */

export interface Expr {
  /** the text between `{%` and `%}` */
  text: string;
  /** the field it is in, e.g. `Arguments.name` (for messages) */
  field: string;
  run: jsonata.Expression | null;
  /** parser message when it does not parse */
  invalid?: string;
  /** `$states.input.a.b` / `$name.a`: read directly when every step is an object member (the common case) */
  fast?: { root: string; states: boolean; keys: string[] };
}

const FAST_STATES = /^\$states(?:\.[A-Za-z_][A-Za-z0-9_]*)+$/;
const FAST_VARIABLE = /^\$([A-Za-z_][A-Za-z0-9_]*)(?:\.[A-Za-z_][A-Za-z0-9_]*)*$/;

function fastPath(text: string): Expr['fast'] {
  if (FAST_STATES.test(text)) {
    const [, root, ...keys] = text.split('.');
    return { root, states: true, keys };
  }
  const m = FAST_VARIABLE.exec(text);
  if (m && m[1] !== 'states' && !FUNCTION_NAMES.has(m[1])) {
    const [, ...keys] = text.split('.');
    return { root: m[1], states: false, keys };
  }
  return undefined;
}

const own = (o: object, k: string) => Object.prototype.hasOwnProperty.call(o, k);

/**
 * A member path read directly, as jsonata would read it when no step meets an array: undefined when it cannot
 * answer that way (an array on the way or at the end, a missing member), and jsonata evaluates it instead.
 */
function readFast(f: NonNullable<Expr['fast']>, env: JEnv): Json | undefined {
  const base = f.states ? env.states : env.vars;
  if (!own(base, f.root)) return undefined;
  let cur: Json = base[f.root];
  for (const k of f.keys) {
    if (cur === null || typeof cur !== 'object' || Array.isArray(cur) || !own(cur, k)) return undefined;
    cur = cur[k];
  }
  return Array.isArray(cur) ? undefined : cur;
}

interface Counters {
  sfSteps?: number;
  sfChars?: number;
  sfItems?: number;
}

/** Nodes that build new values (reading a variable or a path of the data allocates nothing). */
const BUILDS = new Set(['function', 'partial', 'apply', 'binary']);

function entryHook(_expr: unknown, _input: unknown, env: { base: Counters }): Promise<void> | void {
  const b = env.base;
  const n = (b.sfSteps = (b.sfSteps ?? 0) + 1);
  if (n > MAX_STEPS) throw new Refusal(`The expression exceeded the limit of ${MAX_STEPS} evaluation steps`);
  if (n % YIELD_EVERY === 0) return new Promise<void>((resolve) => setImmediate(resolve));
}

function exitHook(expr: { type?: string }, _input: unknown, env: { base: Counters }, result: unknown): void {
  if (typeof result === 'string') {
    if (result.length > MAX_STRING) throw new Refusal(`The expression produced a string longer than ${MAX_STRING} characters`);
    // many strings under the limit each (a thousand 1 MiB pads) would still take the process' memory
    if (result.length > 64 && BUILDS.has(expr.type ?? '')) {
      const b = env.base;
      b.sfChars = (b.sfChars ?? 0) + result.length;
      if (b.sfChars > MAX_PRODUCED_CHARS) throw new Refusal(`The expression produced more than ${MAX_PRODUCED_CHARS} characters of strings in all`);
    }
  } else if (Array.isArray(result)) {
    if (result.length > MAX_ITEMS) throw new Refusal(`The expression produced an array of more than ${MAX_ITEMS} items`);
    if (result.length > 64 && BUILDS.has(expr.type ?? '')) {
      const b = env.base;
      b.sfItems = (b.sfItems ?? 0) + result.length;
      if (b.sfItems > MAX_PRODUCED_ITEMS) throw new Refusal(`The expression produced more than ${MAX_PRODUCED_ITEMS} array items in all`);
    }
  }
}

function refuse(message: string): never {
  throw new Refusal(message);
}

const HASHES: Record<string, string> = { MD5: 'md5', 'SHA-1': 'sha1', 'SHA-256': 'sha256', 'SHA-384': 'sha384', 'SHA-512': 'sha512' };

/** A number in [0,1) from a seed (the same seed, the same number): the first 53 bits of its SHA-256. */
function seeded(seed: unknown): number {
  const d = createHash('sha256').update(JSON.stringify(seed) ?? 'null').digest();
  return (d.readUInt32BE(0) * 2 ** 21 + (d.readUInt32BE(4) >>> 11)) / 2 ** 53;
}

function registerStepFunctions(e: jsonata.Expression): void {
  e.assign(Symbol.for('jsonata.__evaluate_entry') as unknown as string, entryHook);
  e.assign(Symbol.for('jsonata.__evaluate_exit') as unknown as string, exitHook);
  e.registerFunction('eval', () => refuse('The function $eval is not supported (use $parse)'));
  e.registerFunction(
    'partition',
    (array: unknown, size: unknown) => {
      if (!Array.isArray(array)) refuse('$partition: the first argument must be an array');
      if (typeof size !== 'number' || !Number.isInteger(size) || size <= 0) refuse('$partition: the chunk size must be a positive integer');
      const out: unknown[][] = [];
      for (let i = 0; i < array.length; i += size) out.push(array.slice(i, i + size));
      return out;
    },
    '<an:a>',
  );
  e.registerFunction(
    'range',
    (start: unknown, end: unknown, step?: unknown) => {
      const st = step === undefined ? 1 : step;
      if (typeof start !== 'number' || typeof end !== 'number' || typeof st !== 'number' || ![start, end, st].every(Number.isInteger)) {
        refuse('$range: start, end and step must be integers');
      }
      if (st === 0) refuse('$range: the step must not be 0');
      const count = Math.floor((end - start) / st) + 1;
      if (count > MAX_RANGE_ITEMS) refuse(`$range: the range has more than ${MAX_RANGE_ITEMS} items`);
      const out: number[] = [];
      for (let i = 0; i < count; i++) out.push(start + i * st);
      return out;
    },
    '<nnn?:a<n>>',
  );
  e.registerFunction(
    'hash',
    (value: unknown, algorithm: unknown) => {
      const alg = typeof algorithm === 'string' ? HASHES[algorithm] : undefined;
      if (!alg) refuse(`$hash: the algorithm must be one of ${Object.keys(HASHES).join(', ')}`);
      const text = typeof value === 'string' ? value : JSON.stringify(value);
      if (text === undefined) refuse('$hash: the value must be JSON');
      if (text.length > MAX_STRING) refuse('$hash: the value is too long');
      return createHash(alg).update(text).digest('hex');
    },
    '<x-s:s>',
  );
  e.registerFunction('random', (seed?: unknown) => (seed === undefined ? Math.random() : seeded(seed)), '<j?:n>');
  e.registerFunction('uuid', () => randomUUID(), '<:s>');
  e.registerFunction(
    'parse',
    (text: unknown) => {
      if (typeof text !== 'string') refuse('$parse: the argument must be a string');
      if (text.length > MAX_STRING) refuse('$parse: the string is too long');
      try {
        return JSON.parse(text) as unknown;
      } catch {
        return refuse('$parse: the argument is not valid JSON');
      }
    },
    '<s-:x>',
  );
  // Built-ins that build a large value in one step get their arguments bounded first.
  e.registerFunction(
    'pad',
    function (this: unknown, str: unknown, width: unknown, char?: unknown) {
      if (typeof width === 'number' && Math.abs(width) > MAX_STRING) refuse(`$pad: the width must be at most ${MAX_STRING}`);
      return builtin.pad?.call(this, str, width, char);
    },
    '<s-ns?:s>',
  );
}

/** jsonata's own implementations of the built-ins wrapped above (read once from jsonata itself). */
const builtin: { pad?: (...a: unknown[]) => unknown } = {};
const builtinsReady = (async () => {
  const f = (await jsonata('$pad').evaluate(null)) as { implementation?: (...a: unknown[]) => unknown } | undefined;
  builtin.pad = f?.implementation;
})();

export function compileExpression(source: string, field: string): Expr {
  const text = source.slice(2, -2).trim();
  try {
    const run = jsonata(text, { stack: MAX_DEPTH, RegexEngine: BoundedRegExp as unknown as RegExpConstructor });
    registerStepFunctions(run);
    return { text, field, run, fast: fastPath(text) };
  } catch (e) {
    return { text, field, run: null, invalid: messageOf(e) };
  }
}

function messageOf(e: unknown): string {
  if (e instanceof Refusal) return e.message;
  if (e instanceof RangeError) return 'The expression ran out of memory or stack';
  if (e && typeof e === 'object') {
    const o = e as { message?: unknown; code?: unknown };
    if (o.code === 'D1011') return `The expression nests more than ${MAX_DEPTH} evaluations deep`;
    if (typeof o.message === 'string') return o.message.length > 500 ? `${o.message.slice(0, 500)}…` : o.message;
  }
  return 'The expression could not be evaluated';
}

/* ------------------------------------------------------------------------------------------------ evaluate */

export interface JEnv {
  /** `$states`: input, result, errorOutput, context */
  states: JsonObject;
  /** the variables visible to the state, by name */
  vars: JsonObject;
  /** the engine's clock (for $now and $millis) */
  now: number;
}

/** Convert jsonata's result (sequences, functions, undefined members) to JSON, counting its size. */
function toJson(v: unknown, budget: { n: number }, where: Expr): Json {
  if (--budget.n < 0) throw new Refusal('The result of the expression is too large');
  if (v === null || typeof v === 'boolean') return v;
  if (typeof v === 'string') {
    budget.n -= v.length;
    if (budget.n < 0) throw new Refusal('The result of the expression is too large');
    return v;
  }
  if (typeof v === 'number') {
    if (!Number.isFinite(v)) throw new Refusal('The expression produced a number that is not finite');
    return v;
  }
  if (Array.isArray(v)) {
    const out: Json[] = [];
    for (const x of v) {
      if (x === undefined || typeof x === 'function') continue;
      out.push(toJson(x, budget, where));
    }
    return out;
  }
  if (typeof v === 'object') {
    if ((v as { _jsonata_lambda?: boolean })._jsonata_lambda || (v as { _jsonata_function?: boolean })._jsonata_function) {
      throw new Refusal('The expression returned a function, which is not JSON');
    }
    const out: JsonObject = {};
    for (const k of Object.keys(v)) {
      const x = (v as Record<string, unknown>)[k];
      if (x === undefined || typeof x === 'function') continue;
      if (x && typeof x === 'object' && ((x as { _jsonata_lambda?: boolean })._jsonata_lambda || (x as { _jsonata_function?: boolean })._jsonata_function)) continue;
      budget.n -= k.length;
      const val = toJson(x, budget, where);
      if (k === '__proto__') Object.defineProperty(out, k, { value: val, enumerable: true, writable: true, configurable: true });
      else out[k] = val;
    }
    return out;
  }
  throw new Refusal('The expression returned a function, which is not JSON');
}

export async function evalExpression(e: Expr, env: JEnv): Promise<Json> {
  const fail = (why: string) =>
    new QueryError(`The JSONata expression '${clipExpr(e.text)}' specified for the field '${clipExpr(e.field)}' ${why}`, e.field);
  if (!e.run) throw fail(`is not valid: ${e.invalid ?? 'it does not parse'}`);
  if (e.fast) {
    const v = readFast(e.fast, env);
    if (v !== undefined) return v;
  }
  await builtinsReady;
  const now = env.now;
  const bindings: Record<string, unknown> = { ...env.vars, states: env.states };
  // $now/$millis follow the engine's clock (jsonata's own read the wall clock)
  bindings.millis = () => now;
  bindings.now = (picture?: string, tz?: string) =>
    picture === undefined && tz === undefined ? new Date(now).toISOString() : fromMillis(now, picture, tz);
  let raw: unknown;
  try {
    raw = await e.run.evaluate(undefined, bindings);
  } catch (err) {
    throw fail(`returned an error: ${messageOf(err)}`);
  }
  if (raw === undefined) throw fail('returned nothing (undefined).');
  try {
    return toJson(raw, { n: MAX_RESULT_CHARS }, e);
  } catch (err) {
    throw fail(`returned an error: ${messageOf(err)}`);
  }
}

let fromMillisImpl: ((ms: number, picture?: string, tz?: string) => string) | undefined;
void (async () => {
  const f = (await jsonata('$fromMillis').evaluate(null)) as { implementation?: typeof fromMillisImpl } | undefined;
  fromMillisImpl = f?.implementation;
})();
function fromMillis(ms: number, picture?: string, tz?: string): string {
  return fromMillisImpl ? fromMillisImpl(ms, picture, tz) : new Date(ms).toISOString();
}

/* ------------------------------------------------------------------------------------------------ templates */

/** A field value with `{% %}` strings anywhere inside (objects and arrays walked); constant when it has none. */
export type JTemplate = { k: 'const'; v: Json } | { k: 'dyn'; fn: (env: JEnv) => Promise<Json> };

export function compileJTemplate(v: unknown, field: string): JTemplate {
  if (isExpression(v)) {
    // parsed on first use: a definition's expressions are not all parsed on the event loop at once
    let e: Expr | undefined;
    return { k: 'dyn', fn: (env) => evalExpression((e ??= compileExpression(v, field)), env) };
  }
  if (Array.isArray(v)) {
    const parts = v.map((x, i) => compileJTemplate(x, `${field}[${i}]`));
    if (parts.every((p) => p.k === 'const')) return { k: 'const', v: v as Json };
    return {
      k: 'dyn',
      fn: async (env) => {
        const out: Json[] = [];
        for (const p of parts) out.push(p.k === 'const' ? p.v : await p.fn(env));
        return out;
      },
    };
  }
  if (v !== null && typeof v === 'object') {
    const parts = Object.entries(v).map(([k, x]) => ({ k, t: compileJTemplate(x, field ? `${field}.${k}` : k) }));
    if (parts.every((p) => p.t.k === 'const')) return { k: 'const', v: v as Json };
    return {
      k: 'dyn',
      fn: async (env) => {
        const out: JsonObject = {};
        for (const p of parts) {
          const val = p.t.k === 'const' ? p.t.v : await p.t.fn(env);
          if (p.k === '__proto__') Object.defineProperty(out, p.k, { value: val, enumerable: true, writable: true, configurable: true });
          else out[p.k] = val;
        }
        return out;
      },
    };
  }
  return { k: 'const', v: (v === undefined ? null : v) as Json };
}

export function evalJTemplate(t: JTemplate, env: JEnv): Json | Promise<Json> {
  return t.k === 'const' ? t.v : t.fn(env);
}

/* ------------------------------------------------------------------------------------------------ static analysis */

interface AstNode {
  type?: string;
  value?: unknown;
  [k: string]: unknown;
}

/**
 * Variables an expression reads that it does not bind itself (`:=`, lambda parameters), excluding `$states`,
 * `$` and the functions; plus whether it reads something at the top level (a bare field name or `$`), which Step
 * Functions refuses (there is no context item), and functions it calls that Step Functions refuses.
 */
export function analyseExpression(source: string): { error?: string; freeVars: string[]; topLevel: string[]; refused: string[] } {
  let ast: AstNode;
  try {
    ast = jsonata(source.slice(2, -2)).ast() as unknown as AstNode;
  } catch (e) {
    return { error: messageOf(e), freeVars: [], topLevel: [], refused: [] };
  }
  const free = new Set<string>();
  const top = new Set<string>();
  const refused = new Set<string>();
  const visit = (n: unknown, bound: Set<string>, atTop: boolean, depth: number): void => {
    if (depth > 200 || n === null || typeof n !== 'object') return;
    if (Array.isArray(n)) {
      for (const x of n) visit(x, bound, atTop, depth + 1);
      return;
    }
    const node = n as AstNode;
    switch (node.type) {
      case 'variable': {
        const name = String(node.value ?? '');
        if (name === '' && atTop) top.add('$');
        else if (name !== '' && name !== 'states' && !bound.has(name) && !FUNCTION_NAMES.has(name)) free.add(name);
        break;
      }
      case 'name':
        if (atTop) top.add(String(node.value));
        break;
      case 'bind': {
        // `$x := value` binds x for the rest of the enclosing block; approximated as bound everywhere after
        const lhs = node.lhs as AstNode | undefined;
        visit(node.rhs, bound, atTop, depth + 1);
        if (lhs && lhs.type === 'variable') bound.add(String(lhs.value));
        return;
      }
      case 'lambda': {
        const inner = new Set(bound);
        for (const a of (node.arguments as AstNode[] | undefined) ?? []) if (a && a.type === 'variable') inner.add(String(a.value));
        visit(node.body, inner, false, depth + 1);
        return;
      }
      case 'function':
      case 'partial': {
        const proc = node.procedure as AstNode | undefined;
        if (proc && proc.type === 'variable' && REFUSED_FUNCTIONS.has(String(proc.value)) && !bound.has(String(proc.value))) refused.add(String(proc.value));
        break;
      }
      case 'path': {
        const steps = (node.steps as AstNode[] | undefined) ?? [];
        steps.forEach((s, i) => visit(s, bound, atTop && i === 0, depth + 1));
        for (const k of Object.keys(node)) if (k !== 'steps') visit(node[k], bound, false, depth + 1);
        return;
      }
      case 'block': {
        const inner = new Set(bound);
        for (const x of (node.expressions as AstNode[] | undefined) ?? []) visit(x, inner, atTop, depth + 1);
        return;
      }
    }
    for (const k of Object.keys(node)) {
      if (k === 'position' || k === 'value' || k === 'type') continue;
      // predicates, stages and arguments are evaluated on their own context item, not at the top level
      const childTop = atTop && (k === 'lhs' || k === 'rhs' || k === 'expression' || k === 'condition' || k === 'then' || k === 'else' || k === 'arguments');
      visit(node[k], bound, childTop, depth + 1);
    }
  };
  visit(ast, new Set(), true, 0);
  return { freeVars: [...free], topLevel: [...top], refused: [...refused] };
}
