/**
 * Payload templates (Parameters, ItemSelector, ResultSelector): compiled once per definition into closures.
 * A key ending in `.$` takes its value from a path on the input (`$...`), on the context object (`$$...`), or from
 * an intrinsic function (`States.X(...)`); other values are copied as they are (objects are walked, arrays and
 * scalars are literal).
 */
import type { Json, JsonObject } from './types';
import { AslError, E, MAX_PAYLOAD, runtimeError } from './errors';
import { jsonSize, jsonStringBytes } from './bounds';
import { compilePath, readAt, clipPath, setKey } from './paths';
import { evalIntrinsic, parseIntrinsic, type Env } from './intrinsics';

export type Template = (env: Env) => Json;

export function compileTemplate(t: unknown, field: string): Template {
  if (t === null || typeof t !== 'object' || Array.isArray(t)) {
    const lit = t === undefined ? null : (t as Json);
    return () => lit;
  }
  const parts: Array<{ key: string; fn: Template }> = [];
  for (const [k, v] of Object.entries(t as Record<string, unknown>)) {
    if (k.endsWith('.$') && k.length > 2) {
      const key = k.slice(0, -2);
      parts.push({ key, fn: compileDynamic(v, field ? `${field}.${k}` : k) });
    } else if (v !== null && typeof v === 'object' && !Array.isArray(v)) {
      parts.push({ key: k, fn: compileTemplate(v, field ? `${field}.${k}` : k) });
    } else {
      const lit = v as Json;
      parts.push({ key: k, fn: () => lit });
    }
  }
  return (env) => {
    const out: JsonObject = {};
    // A running count of the output's JSON size: a template that multiplies its input stops at the first part
    // past the payload limit (sizes are measured by reference, nothing is serialized).
    let bytes = 2;
    for (const p of parts) {
      const v = p.fn(env);
      bytes += jsonStringBytes(p.key) + 2 + jsonSize(v, MAX_PAYLOAD - bytes);
      if (bytes > MAX_PAYLOAD) throw new AslError(E.DataLimitExceeded, `The result of ${field || 'the payload template'} has exceeded the maximum size of ${MAX_PAYLOAD} bytes`);
      setKey(out, p.key, v);
    }
    return out;
  };
}

function compileDynamic(v: unknown, field: string): Template {
  if (typeof v !== 'string') {
    return () => {
      throw runtimeError(`The value of the field '${field.slice(0, 200)}' must be a path or an intrinsic function`);
    };
  }
  if (v.startsWith('$')) {
    const p = compilePath(v);
    return (env) => {
      const r = readAt(p, env.input, env.context, env.vars);
      if (r === undefined) {
        throw runtimeError(`The JSONPath '${clipPath(v)}' specified for the field '${clipPath(field)}' could not be found in the input`);
      }
      return r;
    };
  }
  if (v.startsWith('States.')) {
    const node = parseIntrinsic(v);
    return (env) => evalIntrinsic(node, env);
  }
  return () => {
    throw runtimeError(`The value of the field '${clipPath(field)}' must be a path or an intrinsic function`);
  };
}
