/**
 * Definition checks on create and update: the text must be JSON (at most 1 MiB, Step Functions' limit) and a
 * valid Amazon States Language document by `asl-validator` (resources are not required to be ARNs: the gateway's
 * tasks have short names such as `echo`). Problems -> InvalidDefinition with the validator's messages (at most 10).
 */
import { externalKind } from './engine/external';
import { quoteInput, ValidationError } from '../../errors/app-error';
import { WORKFLOW_CODES } from './error-codes';
import { WORKFLOW_TASK_NAMES } from './runner/tasks';
import { HTTP_INVOKE, PLAIN_HTTP_REFUSED } from './http/invoke';
import { checkLanguage, checkWarnings, type Diagnostic } from './definition-check-language';
import { allowListOf, type AllowList } from './http/allow-list';
import { installAslSchemaCache } from './asl-schema-check';
import { installAslStructureChecks, validateAsl } from './asl-structure-check';

export type { Diagnostic };

export const MAX_DEFINITION_CHARS = 1_048_576;
const MAX_REPORTED = 10;
/** Parallel/Map nesting levels (each a level of branches or item processors). */
export const MAX_NESTING = 10;
export const MAX_STATES = 5_000;
/** Step Functions' largest TimeoutSeconds. */
export const MAX_TIMEOUT_SECONDS = 99_999_999;

// asl-validator's schemas compiled once, not on every call (see the module).
installAslSchemaCache();
// Its set-up, transition, terminal-state and state-name checks read the structure, not every member of those names.
installAslStructureChecks();

function invalid(detail: string): ValidationError {
  return new ValidationError(`Invalid State Machine Definition: '${detail}'`, { domainCode: WORKFLOW_CODES.INVALID_DEFINITION });
}

export interface CheckedDefinition {
  text: string;
  /** Top-level TimeoutSeconds, when set (a job's deadline). */
  timeoutSeconds: number | null;
}

/** Every problem of a definition as Step Functions' diagnostics, and the InvalidDefinition detail when it fails. */
export interface Diagnosis {
  diagnostics: Diagnostic[];
  /** set when the definition is refused: the text of InvalidDefinition's message (between its quotes) */
  detail?: string;
  checked?: CheckedDefinition;
}

const error = (code: string, message: string, location?: string): Diagnostic => ({ severity: 'ERROR', code, message, ...(location ? { location } : {}) });

function refused(code: string, message: string): Diagnosis {
  return { diagnostics: [error(code, message)], detail: `${code}: ${message}` };
}

/** What a check needs of the configuration: WORKFLOW_HTTP_ALLOW (which destinations may be called over plain HTTP). */
export interface CheckOptions {
  httpAllow?: string;
}

export function diagnoseDefinition(text: string, opts: CheckOptions = {}): Diagnosis {
  if (text.length < 1 || text.length > MAX_DEFINITION_CHARS) {
    const message = `The definition must be between 1 and ${MAX_DEFINITION_CHARS} characters long`;
    return { diagnostics: [error('SCHEMA_VALIDATION_FAILED', message)], detail: message };
  }
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (e) {
    return refused('INVALID_JSON_DESCRIPTION', quoteInput((e as Error).message, ''));
  }
  if (doc === null || typeof doc !== 'object' || Array.isArray(doc)) return refused('SCHEMA_VALIDATION_FAILED', 'The definition must be a JSON object');
  // asl-validator's schema checks each Parallel level twice (JSONPath and JSONata variants): its time doubles
  // with every nesting level (22 levels took 12 s on the event loop). Bound the shape first.
  const shape = shapeOf(doc as StatesDoc, 1);
  if (shape.depth > MAX_NESTING) return refused('SCHEMA_VALIDATION_FAILED', `Parallel and Map states nest at most ${MAX_NESTING} levels deep`);
  if (shape.states > MAX_STATES) return refused('SCHEMA_VALIDATION_FAILED', `A definition has at most ${MAX_STATES} states`);
  const timeout = (doc as { TimeoutSeconds?: unknown }).TimeoutSeconds;
  if (typeof timeout === 'number' && timeout > MAX_TIMEOUT_SECONDS) return refused('SCHEMA_VALIDATION_FAILED', `TimeoutSeconds must be at most ${MAX_TIMEOUT_SECONDS}`);
  // Query languages, JSONata expressions and variables first: their messages are Step Functions' own.
  const language = checkLanguage(doc as Record<string, unknown>);
  if (language.length) return { diagnostics: language, detail: describe(language) };
  let result: { isValid: boolean; errors: Array<Record<string, unknown>> };
  try {
    // The validator annotates the document it reads: give it its own copy.
    result = validateAsl(JSON.parse(text) as Record<string, unknown>, { checkPaths: true, checkArn: false });
  } catch {
    // e.g. a document nested so deeply that the validator's recursion gives up
    return refused('SCHEMA_VALIDATION_FAILED', 'The definition could not be validated');
  }
  if (!result.isValid) {
    const all = result.errors.map((e) => {
      const at = (e.schemaError as { instancePath?: unknown } | undefined)?.instancePath;
      const message = String(e.Message ?? '');
      // the schema's errors about the document itself (a required member missing) are at its root, '/' as Step Functions writes it
      if (at === '') return error(String(e['Error code'] ?? 'SCHEMA_VALIDATION_FAILED'), `/${message}`, '/');
      return error(String(e['Error code'] ?? 'SCHEMA_VALIDATION_FAILED'), message, typeof at === 'string' && at ? at : undefined);
    });
    const diagnostics = withoutVariantNoise(all, doc);
    const lines = diagnostics.slice(0, MAX_REPORTED).map((d) => `${d.code}: ${d.message}`);
    if (diagnostics.length > MAX_REPORTED) lines.push(`and ${diagnostics.length - MAX_REPORTED} more`);
    return { diagnostics, detail: lines.join('; ') };
  }
  const dist = distributedMapProblems(doc as StatesDoc, '');
  if (dist.length) return { diagnostics: dist, detail: describe(dist) };
  const unknown = unknownTaskResources(doc as StatesDoc, '');
  if (unknown.length) {
    const shown = unknown.slice(0, MAX_REPORTED).map((u) => `${u.path}: ${quoteInput(u.resource, '')}`);
    return {
      diagnostics: unknown.map((u) => error('INVALID_RESOURCE', `Unknown task resource ${quoteInput(u.resource)} (the gateway runs ${WORKFLOW_TASK_NAMES.join(', ')})`, u.path)),
      detail: `SCHEMA_VALIDATION_FAILED: Unknown task resource (the gateway runs ${WORKFLOW_TASK_NAMES.join(', ')}) at ${shown.join(', ')}`,
    };
  }
  const endpoints = httpEndpointProblems(doc as StatesDoc, '', allowListOf(opts.httpAllow ?? ''));
  if (endpoints.length) return { diagnostics: endpoints, detail: describe(endpoints) };
  const t = (doc as { TimeoutSeconds?: unknown }).TimeoutSeconds;
  return { diagnostics: checkWarnings(doc as Record<string, unknown>), checked: { text, timeoutSeconds: typeof t === 'number' && Number.isInteger(t) && t > 0 ? t : null } };
}

const STATE_TYPES = ['Choice', 'Fail', 'Parallel', 'Pass', 'Succeed', 'Task', 'Wait', 'Map'];

/** The member a JSON pointer (a schema error's location) names in the document, undefined when it has none. */
function at(doc: unknown, pointer: string): unknown {
  let v = doc;
  for (const raw of pointer.split('/').slice(1)) {
    const k = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<string, unknown>)[k];
  }
  return v;
}

/**
 * The schema's diagnostics without its noise. asl-validator's schema tries every state type in both query
 * languages; when a state fails them all, the variants that fail early on a member at the same depth add
 * "<state>/QueryLanguage (or /Type) is invalid. must be equal to one of the allowed values" though that member is
 * right (a JSONata state is no JSONPath one, a Pass no Task). Those go when a real diagnostic of the same state is
 * there; one alone stays (it is all there is to say), and a QueryLanguage or Type that is wrong is always reported.
 * The same diagnostic from two schema branches is reported once.
 */
function withoutVariantNoise(diagnostics: Diagnostic[], doc: unknown): Diagnostic[] {
  const noiseOf = (d: Diagnostic): string | undefined => {
    const m = d.location && /^(.*)\/(QueryLanguage|Type)$/.exec(d.location);
    if (!m || d.message !== `${d.location} is invalid. must be equal to one of the allowed values`) return undefined;
    const value = at(doc, d.location!);
    // an absent QueryLanguage is the validator's default, right by definition
    const right = m[2] === 'Type' ? STATE_TYPES.includes(value as string) : value === undefined || value === 'JSONata' || value === 'JSONPath';
    return right ? m[1] : undefined;
  };
  const real = diagnostics.filter((d) => noiseOf(d) === undefined);
  const seen = new Set<string>();
  return diagnostics.filter((d) => {
    const state = noiseOf(d);
    if (state !== undefined && real.some((r) => r.location !== undefined && (r.location === state || r.location.startsWith(`${state}/`)))) return false;
    const key = JSON.stringify([d.code, d.message, d.location]);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

export function checkDefinition(text: string, opts: CheckOptions = {}): CheckedDefinition {
  const d = diagnoseDefinition(text, opts);
  if (d.detail !== undefined || !d.checked) throw invalid(d.detail ?? 'SCHEMA_VALIDATION_FAILED: The definition could not be validated');
  return d.checked;
}

/** Nesting depth (1 = no Parallel/Map) and number of states, stopping early past the limits. */
function shapeOf(doc: StatesDoc, depth: number): { depth: number; states: number } {
  let deepest = depth;
  let states = 0;
  if (depth > MAX_NESTING) return { depth, states };
  for (const state of Object.values(doc.States ?? {})) {
    states++;
    if (!state || typeof state !== 'object') continue;
    const inner: unknown[] = [...(Array.isArray(state.Branches) ? state.Branches : []), state.ItemProcessor, state.Iterator];
    for (const b of inner) {
      if (!b || typeof b !== 'object') continue;
      const sub = shapeOf(b as StatesDoc, depth + 1);
      deepest = Math.max(deepest, sub.depth);
      states += sub.states;
      if (deepest > MAX_NESTING || states > MAX_STATES) return { depth: deepest, states };
    }
  }
  return { depth: deepest, states };
}

interface StatesDoc {
  States?: Record<string, { Type?: unknown; Resource?: unknown; Branches?: unknown; ItemProcessor?: unknown; Iterator?: unknown }>;
}

/**
 * Every state of a definition with its location (a JSON pointer), each followed by the states nested in it: Parallel
 * branches, Map processors and iterators.
 */
function* statesOf(doc: StatesDoc, at: string): Generator<{ state: Record<string, unknown>; path: string }> {
  for (const [name, raw] of Object.entries(doc.States ?? {})) {
    if (!raw || typeof raw !== 'object') continue;
    const state = raw as Record<string, unknown>;
    const path = `${at}/States/${name}`;
    yield { state, path };
    if (Array.isArray(state.Branches)) {
      for (const [i, b] of state.Branches.entries()) if (b && typeof b === 'object') yield* statesOf(b as StatesDoc, `${path}/Branches/${i}`);
    }
    for (const key of ['ItemProcessor', 'Iterator'] as const) {
      const p = state[key];
      if (p && typeof p === 'object') yield* statesOf(p as StatesDoc, `${path}/${key}`);
    }
  }
}

/** A task of the gateway, an activity ARN, or a gateway task with `.waitForTaskToken` (arn:aws:states:::echo.waitForTaskToken). */
function knownResource(resource: string): boolean {
  if (WORKFLOW_TASK_NAMES.includes(resource)) return true;
  const ext = externalKind(resource);
  return ext !== null && (ext.kind === 'activity' || WORKFLOW_TASK_NAMES.includes(ext.task));
}

/** Task states (also inside Parallel branches and Map processors) whose Resource is no task of the gateway. */
function unknownTaskResources(doc: StatesDoc, at: string): Array<{ path: string; resource: string }> {
  const out: Array<{ path: string; resource: string }> = [];
  for (const { state, path } of statesOf(doc, at)) {
    if (state.Type === 'Task' && typeof state.Resource === 'string' && !knownResource(state.Resource)) out.push({ path: `${path}/Resource`, resource: state.Resource });
  }
  return out;
}

/**
 * HTTP tasks whose ApiEndpoint is written in the definition (not computed) must be https:// URLs, as Step Functions
 * requires; plain http:// only to a host an `http://` entry of WORKFLOW_HTTP_ALLOW lists. Computed endpoints
 * (`ApiEndpoint.$`, JSONata `{% %}`) are checked when the task runs (http/invoke.ts), as are all of them again there.
 */
function httpEndpointProblems(doc: StatesDoc, at: string, allow: AllowList): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const { state, path } of statesOf(doc, at)) {
    const resource = state.Resource;
    if (state.Type === 'Task' && (resource === HTTP_INVOKE || resource === `${HTTP_INVOKE}.waitForTaskToken`)) {
      for (const field of ['Parameters', 'Arguments'] as const) {
        const p = state[field] as Record<string, unknown> | undefined;
        const endpoint = p && typeof p === 'object' ? p.ApiEndpoint : undefined;
        if (typeof endpoint !== 'string' || /^\{%[\s\S]*%\}$/.test(endpoint)) continue;
        let url: URL | null = null;
        try {
          url = new URL(endpoint);
        } catch {
          url = null;
        }
        if (url && url.protocol === 'https:') continue;
        if (url && url.protocol === 'http:' && allow.plainHttpAllowed(url.hostname)) continue;
        out.push(error('SCHEMA_VALIDATION_FAILED', url?.protocol === 'http:' ? PLAIN_HTTP_REFUSED : 'ApiEndpoint must be an absolute https:// URL', `${path}/${field}/ApiEndpoint`));
      }
    }
  }
  return out;
}

/**
 * Map fields this service does not run: ItemReader and ResultWriter read and write Amazon S3, which the gateway has
 * not (items come from the state input). And what Step Functions requires of a Distributed Map's processor.
 */
function distributedMapProblems(doc: StatesDoc, at: string): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const { state, path } of statesOf(doc, at)) {
    if (state.Type === 'Map') {
      if (state.ItemReader !== undefined) {
        out.push(error('SCHEMA_VALIDATION_FAILED', 'ItemReader is not supported: this service reads no Amazon S3 objects; give the Map its items in the state input (ItemsPath or Items)', `${path}/ItemReader`));
      }
      if (state.ResultWriter !== undefined) {
        out.push(error('SCHEMA_VALIDATION_FAILED', 'ResultWriter is not supported: this service writes no Amazon S3 objects; the Map state returns its results in its output', `${path}/ResultWriter`));
      }
      const proc = state.ItemProcessor as Record<string, unknown> | undefined;
      const pc = proc && typeof proc === 'object' ? (proc.ProcessorConfig as Record<string, unknown> | undefined) : undefined;
      if (pc && typeof pc === 'object' && pc.Mode === 'DISTRIBUTED' && pc.ExecutionType !== 'STANDARD' && pc.ExecutionType !== 'EXPRESS') {
        out.push(error('SCHEMA_VALIDATION_FAILED', 'ExecutionType must be STANDARD or EXPRESS when the Mode of the ProcessorConfig is DISTRIBUTED', `${path}/ItemProcessor/ProcessorConfig/ExecutionType`));
      }
      if (state.Label !== undefined && (typeof state.Label !== 'string' || state.Label.length < 1 || state.Label.length > 40 || /[\s<>{}[\]?*"#%\\^|~`$&,;:/]/.test(state.Label))) {
        out.push(error('SCHEMA_VALIDATION_FAILED', 'Label must be 1 to 40 characters without whitespace, brackets, wildcards or special characters', `${path}/Label`));
      }
      if (state.ItemBatcher !== undefined && (pc?.Mode !== 'DISTRIBUTED')) {
        out.push(error('SCHEMA_VALIDATION_FAILED', 'ItemBatcher is only allowed in a Map state whose ProcessorConfig Mode is DISTRIBUTED', `${path}/ItemBatcher`));
      }
    }
  }
  return out;
}

/**
 * What Step Functions refuses in an EXPRESS state machine (its executions run at most five minutes and keep no
 * history to wait on): activity tasks, the `.sync` and `.waitForTaskToken` integration patterns, and Distributed
 * Map states. Nested Parallel branches and Map processors are walked too. A text that is not a JSON object has none
 * (the general check answers for it).
 */
export function expressProblems(text: string): Diagnostic[] {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    return [];
  }
  return doc !== null && typeof doc === 'object' && !Array.isArray(doc) ? expressWalk(doc as StatesDoc, '') : [];
}

function expressWalk(doc: StatesDoc, at: string): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const { state, path } of statesOf(doc, at)) {
    const resource = state.Resource;
    if (state.Type === 'Task' && typeof resource === 'string') {
      const ext = externalKind(resource);
      if (ext?.kind === 'activity') out.push(error('SCHEMA_VALIDATION_FAILED', 'Express state machine does not support Activity ARN', `${path}/Resource`));
      else if (ext?.kind === 'callback' || resource.endsWith('.waitForTaskToken')) {
        out.push(error('SCHEMA_VALIDATION_FAILED', "Express state machine does not support '.waitForTaskToken' service integration", `${path}/Resource`));
      } else if (/\.sync(:\d+)?$/.test(resource)) out.push(error('SCHEMA_VALIDATION_FAILED', "Express state machine does not support '.sync' service integration", `${path}/Resource`));
    }
    const proc = state.ItemProcessor as Record<string, unknown> | undefined;
    const pc = proc && typeof proc === 'object' ? (proc.ProcessorConfig as Record<string, unknown> | undefined) : undefined;
    if (state.Type === 'Map' && pc && typeof pc === 'object' && pc.Mode === 'DISTRIBUTED') {
      out.push(error('SCHEMA_VALIDATION_FAILED', 'Express state machine does not support Map states in DISTRIBUTED mode', `${path}/ItemProcessor/ProcessorConfig/Mode`));
    }
  }
  return out;
}

/** InvalidDefinition when an EXPRESS definition uses what Express workflows do not support. */
export function requireExpressDefinition(text: string): void {
  const problems = expressProblems(text);
  if (problems.length) throw invalid(describe(problems));
}

/** Diagnostics as one InvalidDefinition message (`CODE: message at /location; ...`), at most MAX_REPORTED. */
export function describe(diagnostics: Diagnostic[]): string {
  // messages quote client text already clipped; a location is a path of client-chosen state names
  const clipped = (s: string, n: number) => (s.length > n ? `${s.slice(0, n)}…` : s);
  const lines = diagnostics.slice(0, MAX_REPORTED).map((d) => `${d.code}: ${clipped(d.message, 600)}${d.location ? ` at ${clipped(d.location, 300)}` : ''}`);
  if (diagnostics.length > MAX_REPORTED) lines.push(`and ${diagnostics.length - MAX_REPORTED} more`);
  return lines.join('; ');
}

