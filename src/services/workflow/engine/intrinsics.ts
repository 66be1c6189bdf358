/**
 * ASL intrinsic functions (`States.Format(...)` etc.): a small parser (nested calls, string literals with the
 * escapes \' \{ \} \\, numbers, true/false/null, JSONPath and `$$` context paths as arguments) and the functions.
 * Parsing happens once per definition; a malformed expression becomes a node that fails with
 * States.IntrinsicFailure when evaluated, so compiling a definition never throws.
 */
import { createHash, randomUUID } from 'node:crypto';
import type { Json, JsonObject } from './types';
import { AslError, E, MAX_PAYLOAD, intrinsicError } from './errors';
import { jsonSize, requirePayload } from './bounds';
import { compilePath, readAt, type CompiledPath, type VarLookup } from './paths';

export type Node =
  | { k: 'call'; name: string; args: Node[] }
  | { k: 'path'; p: CompiledPath }
  | { k: 'lit'; v: Json; raw?: string }
  | { k: 'bad'; why: string };

export interface Env {
  input: Json;
  context: () => Json;
  /** workflow variables visible to the state (`$name` paths) */
  vars?: VarLookup;
}

const MAX_DEPTH = 10;
const MAX_STR = 10_000;

class ParseError extends Error {}

export function parseIntrinsic(src: string): Node {
  try {
    const p = new Parser(src);
    const node = p.call(0);
    p.ws();
    if (p.i !== src.length) throw new ParseError(`unexpected text at position ${p.i}`);
    return node;
  } catch (e) {
    const why = e instanceof ParseError ? e.message : 'cannot parse';
    return { k: 'bad', why: `Invalid intrinsic function expression (${why})` };
  }
}

class Parser {
  i = 0;
  constructor(private s: string) {}
  ws() {
    while (this.i < this.s.length && /\s/.test(this.s[this.i])) this.i++;
  }
  call(depth: number): Node {
    if (depth >= MAX_DEPTH) throw new ParseError(`more than ${MAX_DEPTH} nested functions`);
    this.ws();
    const m = /^States\.([A-Za-z0-9]+)\s*\(/.exec(this.s.slice(this.i, this.i + 64));
    if (!m) throw new ParseError('expected States.<Function>(');
    this.i += m[0].length;
    const args: Node[] = [];
    this.ws();
    if (this.s[this.i] === ')') {
      this.i++;
      return { k: 'call', name: m[1], args };
    }
    for (;;) {
      args.push(this.arg(depth));
      this.ws();
      const ch = this.s[this.i];
      if (ch === ',') {
        this.i++;
        continue;
      }
      if (ch === ')') {
        this.i++;
        return { k: 'call', name: m[1], args };
      }
      throw new ParseError(`expected ',' or ')' at position ${this.i}`);
    }
  }
  arg(depth: number): Node {
    this.ws();
    const s = this.s;
    const ch = s[this.i];
    if (ch === "'") return this.str();
    if (ch === '$') return this.path();
    if (s.startsWith('States.', this.i)) return this.call(depth + 1);
    const lit = /^(?:true|false|null|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)(?=\s*[,)])/.exec(s.slice(this.i, this.i + 64));
    if (lit) {
      this.i += lit[0].length;
      return { k: 'lit', v: JSON.parse(lit[0]) as Json };
    }
    throw new ParseError(`unexpected argument at position ${this.i}`);
  }
  str(): Node {
    const s = this.s;
    let j = this.i + 1;
    let v = '';
    while (j < s.length && s[j] !== "'") {
      if (s[j] === '\\' && j + 1 < s.length) {
        const nx = s[j + 1];
        if (nx === "'" || nx === '{' || nx === '}' || nx === '\\') {
          v += nx;
          j += 2;
          continue;
        }
      }
      v += s[j];
      j++;
    }
    if (j >= s.length) throw new ParseError('unterminated string');
    const raw = s.slice(this.i + 1, j);
    this.i = j + 1;
    return { k: 'lit', v, raw };
  }
  path(): Node {
    const s = this.s;
    let j = this.i;
    let depth = 0;
    let quote = '';
    for (; j < s.length; j++) {
      const ch = s[j];
      if (quote) {
        if (ch === '\\') j++;
        else if (ch === quote) quote = '';
        continue;
      }
      if (ch === "'" || ch === '"') quote = ch;
      else if (ch === '[' || ch === '(') depth++;
      else if (ch === ']' || ch === ')') {
        if (depth === 0) break;
        depth--;
      } else if (ch === ',' && depth === 0) break;
    }
    const raw = s.slice(this.i, j).trim();
    this.i = j;
    return { k: 'path', p: compilePath(raw) };
  }
}

export function evalIntrinsic(node: Node, env: Env): Json {
  switch (node.k) {
    case 'lit':
      return node.v;
    case 'bad':
      throw intrinsicError(node.why);
    case 'path': {
      const v = readAt(node.p, env.input, env.context, env.vars);
      if (v === undefined) throw intrinsicError(`The JSONPath '${node.p.raw.slice(0, 200)}' could not be found in the input`);
      return v;
    }
    case 'call': {
      const fn = FUNCTIONS[node.name];
      if (!fn) throw intrinsicError(`Unknown function States.${node.name.slice(0, 64)}`);
      const args = node.args.map((a) => evalIntrinsic(a, env));
      let out: Json;
      try {
        out = fn(args, node);
      } catch (e) {
        if (e instanceof AslError) throw e;
        throw intrinsicError(`States.${node.name} failed`);
      }
      // Every result fits the payload limit, so no argument of an enclosing call is larger (measured, not built).
      requirePayload(out, `result of States.${node.name}`);
      return out;
    }
  }
}

/* ---------------------------------------------------------------- helpers */

const fail = (fn: string, why: string) => intrinsicError(`States.${fn}: ${why}`);
const typeOf = (v: Json) => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v);

function arity(fn: string, args: Json[], min: number, max = min) {
  if (args.length < min || args.length > max) {
    const want = min === max ? `${min}` : `${min} to ${max}`;
    throw fail(fn, `expects ${want} argument(s), got ${args.length}`);
  }
}
function str(fn: string, v: Json, what: string, limit = Infinity): string {
  if (typeof v !== 'string') throw fail(fn, `${what} must be a string, got ${typeOf(v)}`);
  if (v.length > limit) throw fail(fn, `${what} is longer than ${limit} characters`);
  return v;
}
function arr(fn: string, v: Json, what: string): Json[] {
  if (!Array.isArray(v)) throw fail(fn, `${what} must be an array, got ${typeOf(v)}`);
  return v;
}
function int(fn: string, v: Json, what: string): number {
  if (typeof v !== 'number' || !Number.isInteger(v)) throw fail(fn, `${what} must be an integer, got ${typeOf(v)}`);
  return v;
}
function obj(fn: string, v: Json, what: string): JsonObject {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) throw fail(fn, `${what} must be an object, got ${typeOf(v)}`);
  return v;
}

/** Key-order independent identity of a JSON value (for ArrayContains / ArrayUnique). */
export function canonical(v: Json): string {
  if (v === null || typeof v !== 'object') return JSON.stringify(v);
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  return `{${Object.keys(v)
    .sort()
    .map((k) => `${JSON.stringify(k)}:${canonical(v[k])}`)
    .join(',')}}`;
}

function formatValue(v: Json): string {
  if (typeof v === 'string') return v;
  return JSON.stringify(v);
}

/** mulberry32: a seeded PRNG for MathRandom(start, end, seed). */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const HASHES: Record<string, string> = { MD5: 'md5', 'SHA-1': 'sha1', 'SHA-256': 'sha256', 'SHA-384': 'sha384', 'SHA-512': 'sha512' };

type Fn = (args: Json[], node: Extract<Node, { k: 'call' }>) => Json;

const FUNCTIONS: Record<string, Fn> = {
  Format(args, node) {
    if (args.length < 1) throw fail('Format', 'expects a template string');
    const first = node.args[0];
    // a literal template keeps its escapes, so `\{` stays a brace and `{}` is a placeholder
    const raw = first.k === 'lit' && typeof first.raw === 'string' ? first.raw : null;
    const tmpl = str('Format', args[0], 'the template');
    const values = args.slice(1);
    // The text's size before it is built: the template plus every value as formatted (each may be used once).
    let size = tmpl.length;
    for (const v of values) {
      size += typeof v === 'string' ? v.length : jsonSize(v, MAX_PAYLOAD);
      if (size > MAX_PAYLOAD) throw new AslError(E.DataLimitExceeded, `The result of States.Format has exceeded the maximum size of ${MAX_PAYLOAD} bytes`);
    }
    let out = '';
    let used = 0;
    const src = raw ?? tmpl;
    for (let i = 0; i < src.length; i++) {
      const ch = src[i];
      if (raw !== null && ch === '\\' && i + 1 < src.length) {
        out += src[i + 1];
        i++;
      } else if (ch === '{' && src[i + 1] === '}') {
        if (used >= values.length) throw fail('Format', `the template has more {} than the ${values.length} value(s) given`);
        out += formatValue(values[used++]);
        i++;
      } else {
        out += ch;
      }
    }
    if (used !== values.length) throw fail('Format', `the template has ${used} {} but ${values.length} value(s) were given`);
    return out;
  },
  StringToJson(args) {
    arity('StringToJson', args, 1);
    const s = str('StringToJson', args[0], 'the argument');
    try {
      return JSON.parse(s) as Json;
    } catch {
      throw fail('StringToJson', 'the argument is not valid JSON');
    }
  },
  JsonToString(args) {
    arity('JsonToString', args, 1);
    requirePayload(args[0], 'result of States.JsonToString');
    return JSON.stringify(args[0]);
  },
  Array(args) {
    return args.slice();
  },
  ArrayPartition(args) {
    arity('ArrayPartition', args, 2);
    const a = arr('ArrayPartition', args[0], 'the first argument');
    const size = int('ArrayPartition', args[1], 'the chunk size');
    if (size <= 0) throw fail('ArrayPartition', 'the chunk size must be greater than 0');
    const out: Json[] = [];
    for (let i = 0; i < a.length; i += size) out.push(a.slice(i, i + size));
    return out;
  },
  ArrayContains(args) {
    arity('ArrayContains', args, 2);
    const a = arr('ArrayContains', args[0], 'the first argument');
    const needle = canonical(args[1]);
    return a.some((x) => canonical(x) === needle);
  },
  ArrayRange(args) {
    arity('ArrayRange', args, 3);
    const start = int('ArrayRange', args[0], 'the start');
    const end = int('ArrayRange', args[1], 'the end');
    const step = int('ArrayRange', args[2], 'the step');
    if (step === 0) throw fail('ArrayRange', 'the step must not be 0');
    const count = Math.floor((end - start) / step) + 1;
    if (count > 1000) throw fail('ArrayRange', 'the range has more than 1000 items');
    const out: Json[] = [];
    for (let i = 0; i < count; i++) out.push(start + i * step);
    return out;
  },
  ArrayGetItem(args) {
    arity('ArrayGetItem', args, 2);
    const a = arr('ArrayGetItem', args[0], 'the first argument');
    const i = int('ArrayGetItem', args[1], 'the index');
    if (i < 0 || i >= a.length) throw fail('ArrayGetItem', `index ${i} is out of range (length ${a.length})`);
    return a[i];
  },
  ArrayLength(args) {
    arity('ArrayLength', args, 1);
    return arr('ArrayLength', args[0], 'the argument').length;
  },
  ArrayUnique(args) {
    arity('ArrayUnique', args, 1);
    const a = arr('ArrayUnique', args[0], 'the argument');
    const seen = new Set<string>();
    const out: Json[] = [];
    for (const x of a) {
      const key = canonical(x);
      if (!seen.has(key)) {
        seen.add(key);
        out.push(x);
      }
    }
    return out;
  },
  Base64Encode(args) {
    arity('Base64Encode', args, 1);
    return Buffer.from(str('Base64Encode', args[0], 'the argument', MAX_STR), 'utf8').toString('base64');
  },
  Base64Decode(args) {
    arity('Base64Decode', args, 1);
    const s = str('Base64Decode', args[0], 'the argument', MAX_STR);
    if (!/^[A-Za-z0-9+/]*={0,2}$/.test(s) || s.length % 4 === 1) throw fail('Base64Decode', 'the argument is not base64');
    return Buffer.from(s, 'base64').toString('utf8');
  },
  Hash(args) {
    arity('Hash', args, 2);
    const text = str('Hash', args[0], 'the data', MAX_STR);
    const alg = HASHES[str('Hash', args[1], 'the algorithm')];
    if (!alg) throw fail('Hash', `the algorithm must be one of ${Object.keys(HASHES).join(', ')}`);
    return createHash(alg).update(text, 'utf8').digest('hex');
  },
  JsonMerge(args) {
    arity('JsonMerge', args, 3);
    const a = obj('JsonMerge', args[0], 'the first argument');
    const b = obj('JsonMerge', args[1], 'the second argument');
    if (args[2] !== false) throw fail('JsonMerge', 'only shallow merging is supported (the third argument must be false)');
    return { ...a, ...b };
  },
  MathRandom(args) {
    arity('MathRandom', args, 2, 3);
    const start = int('MathRandom', args[0], 'the start');
    const end = int('MathRandom', args[1], 'the end');
    if (end <= start) throw fail('MathRandom', 'the end must be greater than the start');
    const r = args.length === 3 ? seededRandom(int('MathRandom', args[2], 'the seed'))() : Math.random();
    return start + Math.floor(r * (end - start));
  },
  MathAdd(args) {
    arity('MathAdd', args, 2);
    const [a, b] = args;
    if (typeof a !== 'number' || typeof b !== 'number') throw fail('MathAdd', 'both arguments must be numbers');
    const sum = a + b;
    if (!Number.isFinite(sum)) throw fail('MathAdd', 'the sum is out of range');
    return sum;
  },
  StringSplit(args) {
    arity('StringSplit', args, 2);
    const s = str('StringSplit', args[0], 'the first argument');
    const delims = str('StringSplit', args[1], 'the delimiters');
    if (delims === '') return s === '' ? [] : [s];
    const set = new Set(delims);
    const out: Json[] = [];
    let cur = '';
    for (const ch of s) {
      if (set.has(ch)) {
        if (cur !== '') out.push(cur);
        cur = '';
      } else cur += ch;
    }
    if (cur !== '') out.push(cur);
    return out;
  },
  UUID(args) {
    arity('UUID', args, 0);
    return randomUUID();
  },
};
