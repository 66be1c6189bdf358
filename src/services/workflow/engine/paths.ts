/**
 * JSONPath for ASL: paths (InputPath, OutputPath, ItemsPath, `.$` values, Choice Variables) and reference paths
 * (ResultPath). Simple definite paths (`$`, `$.a.b`, `$['x y'][0]`) are resolved by hand — the common case, and
 * the fast one; anything else (wildcards, filters, slices, unions, `..`) goes to jsonpath-plus with its safe
 * evaluator and yields the array of matches, as Step Functions does for indefinite paths.
 */
import { JSONPath } from 'jsonpath-plus';
import type { Json, JsonObject } from './types';
import { runtimeError } from './errors';

export type Seg = string | number;

export interface CompiledPath {
  raw: string;
  /** true for `$$...` (the context object) */
  context: boolean;
  /** segments of a simple definite path, or null when jsonpath-plus must evaluate it */
  segs: Seg[] | null;
  /** the path jsonpath-plus sees (`$$.x` → `$.x`, `$var.x` → `$.x`) */
  jp: string;
  /** `$name...`: the path reads the workflow variable `name` (null for `$`/`$$` paths) */
  v: string | null;
}

/** A variable reference at the start of a path: `$name`, `$name.field`, `$name[0]` (not `$`, `$.x`, `$$`). */
const VAR_REF = /^\$([A-Za-z_][A-Za-z0-9_]*)/;

/** Reads a workflow variable visible to the state; undefined when no scope defines it. */
export type VarLookup = (name: string) => Json | undefined;

const NAME_CHAR = /[^.[\]\s'"()*?,@:$]/;

/** Parse `$`, `.name`, `['name']`, `["name"]`, `[0]` sequences; null when the path needs the full evaluator. */
export function parseSimple(path: string, start: number): Seg[] | null {
  const segs: Seg[] = [];
  let i = start;
  const n = path.length;
  while (i < n) {
    const ch = path[i];
    if (ch === '.') {
      if (path[i + 1] === '.') return null;
      let j = i + 1;
      while (j < n && NAME_CHAR.test(path[j])) j++;
      if (j === i + 1) return null;
      segs.push(path.slice(i + 1, j));
      i = j;
    } else if (ch === '[') {
      const q = path[i + 1];
      if (q === "'" || q === '"') {
        let j = i + 2;
        let name = '';
        while (j < n && path[j] !== q) {
          if (path[j] === '\\' && j + 1 < n) j++;
          name += path[j];
          j++;
        }
        if (j >= n || path[j + 1] !== ']') return null;
        segs.push(name);
        i = j + 2;
      } else {
        const m = /^\[(\d+)\]/.exec(path.slice(i, i + 24));
        if (!m) return null;
        segs.push(Number(m[1]));
        i += m[0].length;
      }
    } else {
      return null;
    }
  }
  return segs;
}

const cache = new Map<string, CompiledPath>();

export function compilePath(raw: string): CompiledPath {
  let c = cache.get(raw);
  if (c) return c;
  const context = raw.startsWith('$$');
  const vm = context ? null : VAR_REF.exec(raw);
  // `$$.a` → `$.a`; `$name.a` → `$.a` evaluated on the variable's value
  const body = context ? raw.slice(1) : vm ? `$${raw.slice(vm[0].length)}` : raw;
  const segs = body.startsWith('$') ? parseSimple(body, 1) : null;
  c = { raw, context, segs, jp: body, v: vm ? vm[1] : null };
  if (cache.size > 5000) cache.clear();
  cache.set(raw, c);
  return c;
}

export function isPathString(v: unknown): v is string {
  return typeof v === 'string' && v.startsWith('$');
}

/** Value at a path; `undefined` when a definite path matches nothing. Indefinite paths give an array. */
export function evalPath(p: CompiledPath, data: Json): Json | undefined {
  if (p.segs) {
    let cur: Json | undefined = data;
    for (const s of p.segs) {
      if (cur === null || typeof cur !== 'object') return undefined;
      if (Array.isArray(cur)) {
        if (typeof s !== 'number') return undefined;
        cur = cur[s];
      } else {
        if (typeof s === 'number') {
          cur = Object.prototype.hasOwnProperty.call(cur, String(s)) ? cur[String(s)] : undefined;
        } else {
          cur = Object.prototype.hasOwnProperty.call(cur, s) ? cur[s] : undefined;
        }
      }
      if (cur === undefined) return undefined;
    }
    return cur;
  }
  if (!p.jp.startsWith('$')) throw runtimeError(`Invalid path '${clipPath(p.raw)}'`);
  try {
    const r = JSONPath({ path: p.jp, json: data as object, wrap: true, eval: 'safe' }) as Json[] | undefined;
    return Array.isArray(r) ? r : [];
  } catch {
    throw runtimeError(`Invalid path '${clipPath(p.raw)}'`);
  }
}

/** The value a path is evaluated on: the context object, a variable's value (undefined when not defined), or the data. */
export function pathRoot(p: CompiledPath, data: Json, context: () => Json, vars: VarLookup | undefined): Json | undefined {
  if (p.context) return context();
  if (p.v !== null) return vars ? vars(p.v) : undefined;
  return data;
}

/** A path read on its root (see pathRoot); undefined when a variable is not defined or a definite path matches nothing. */
export function readAt(p: CompiledPath, data: Json, context: () => Json, vars: VarLookup | undefined): Json | undefined {
  const root = pathRoot(p, data, context, vars);
  return root === undefined ? undefined : evalPath(p, root);
}

export function clipPath(p: string): string {
  return p.length > 200 ? `${p.slice(0, 200)}…` : p;
}

/** Path value that must exist: a miss is States.Runtime (as Step Functions does). */
export function mustPath(p: CompiledPath, data: Json, field: string): Json {
  const v = evalPath(p, data);
  if (v === undefined) {
    throw runtimeError(`The JSONPath '${clipPath(p.raw)}' specified for the field '${field}' could not be found in the input`);
  }
  return v;
}

/**
 * ResultPath: return a copy of `input` with `value` placed at the reference path, creating missing objects; the
 * input itself is never modified (only the objects along the path are copied).
 */
export function setAtPath(input: Json, segs: Seg[], value: Json, raw: string): Json {
  if (segs.length === 0) return value;
  const put = (node: Json | undefined, i: number): Json => {
    const s = segs[i];
    const last = i === segs.length - 1;
    if (Array.isArray(node) && typeof s === 'number') {
      if (s >= node.length) throw runtimeError(`Unable to apply ResultPath '${clipPath(raw)}': index ${s} is out of range`);
      const copy = node.slice();
      copy[s] = last ? value : put(node[s], i + 1);
      return copy;
    }
    if (node === undefined) node = {};
    if (node === null || typeof node !== 'object' || Array.isArray(node)) {
      throw runtimeError(`Unable to apply ResultPath '${clipPath(raw)}' to the state's input: it is not an object there`);
    }
    const key = String(s);
    const copy: JsonObject = { ...node };
    setKey(copy, key, last ? value : put(Object.prototype.hasOwnProperty.call(node, key) ? node[key] : undefined, i + 1));
    return copy;
  };
  return put(input, 0);
}

/** Own data property, also for the key `__proto__` (plain assignment would change the prototype). */
export function setKey(obj: JsonObject, key: string, value: Json): void {
  if (key === '__proto__') Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
  else obj[key] = value;
}
