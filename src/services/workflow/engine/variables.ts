/**
 * Workflow variables (`Assign`): each thread (the job, a Parallel branch, a Map iteration) has its own scope in
 * the checkpoint (`va`, so a resumed job has its variables); a branch reads the scopes of the threads around it
 * and writes only its own, which vanishes when the branch ends. All values of one Assign are evaluated first (on
 * the variables as they were when the state was entered) and then committed together. Step Functions' limits:
 * 256 KiB per variable, 256 KiB per Assign, 10 MiB of variables per execution.
 */
import type { Json, JsonObject, Thread } from './types';
import { AslError, E } from './errors';
import { setKey } from './paths';
import { jsonSize } from './bounds';

export const MAX_VARIABLE_BYTES = 262_144;
export const MAX_ASSIGN_BYTES = 262_144;
export const MAX_EXECUTION_VARIABLE_BYTES = 10 * 1_048_576;

const bytes = (s: string) => Buffer.byteLength(s, 'utf8');

function json(v: Json): string {
  return JSON.stringify(v) ?? 'null';
}

/** Bytes of variables held by every thread of the job. */
function totalBytes(th: Thread): number {
  let n = th.vb ?? 0;
  if (th.kd) for (const k of th.kd) n += totalBytes(k);
  return n;
}

/**
 * Commit evaluated assignments to `th`'s scope (copy on write: checkpoints given to advance are never changed).
 * Returns `assignedVariables` for the StateExited event (name → JSON text).
 */
export function commitAssign(root: Thread, th: Thread, values: JsonObject): Record<string, string> {
  const assigned: Record<string, string> = {};
  let all = 0;
  let added = 0;
  const old = th.va ?? {};
  for (const [name, v] of Object.entries(values)) {
    // measured before the text is built (a value may reference one large input many times)
    if (jsonSize(v, MAX_VARIABLE_BYTES) > MAX_VARIABLE_BYTES) {
      throw new AslError(E.DataLimitExceeded, `The value assigned to the variable '${name.slice(0, 80)}' has exceeded the maximum size of ${MAX_VARIABLE_BYTES} bytes`);
    }
    const text = json(v);
    const n = bytes(text);
    if (n > MAX_VARIABLE_BYTES) {
      throw new AslError(E.DataLimitExceeded, `The value assigned to the variable '${name.slice(0, 80)}' has exceeded the maximum size of ${MAX_VARIABLE_BYTES} bytes`);
    }
    all += n;
    added += n - (Object.prototype.hasOwnProperty.call(old, name) ? bytes(json(old[name])) : 0);
    setKey(assigned as JsonObject, name, text);
  }
  if (all > MAX_ASSIGN_BYTES) {
    throw new AslError(E.DataLimitExceeded, `The values of the state's Assign have exceeded the maximum size of ${MAX_ASSIGN_BYTES} bytes`);
  }
  if (totalBytes(root) + added > MAX_EXECUTION_VARIABLE_BYTES) {
    throw new AslError(E.DataLimitExceeded, `The variables of the execution have exceeded the maximum size of ${MAX_EXECUTION_VARIABLE_BYTES} bytes`);
  }
  const next: JsonObject = { ...old };
  for (const [name, v] of Object.entries(values)) setKey(next, name, v);
  th.va = next;
  th.vb = (th.vb ?? 0) + added;
  return assigned;
}

/** The scopes a thread reads, outermost first, ending with its own. */
export type ScopeChain = JsonObject[];

export function lookupVar(chain: ScopeChain, own: JsonObject | undefined, name: string): Json | undefined {
  if (own && Object.prototype.hasOwnProperty.call(own, name)) return own[name];
  for (let i = chain.length - 1; i >= 0; i--) {
    if (Object.prototype.hasOwnProperty.call(chain[i], name)) return chain[i][name];
  }
  return undefined;
}

/** All variables visible (inner scopes win), for JSONata bindings. */
export function visibleVars(chain: ScopeChain, own: JsonObject | undefined): JsonObject {
  if (chain.length === 0) return own ?? {};
  const out: JsonObject = {};
  for (const s of own ? [...chain, own] : chain) for (const k of Object.keys(s)) setKey(out, k, s[k]);
  return out;
}
