/**
 * asl-validator's structural checks (states, transitions, terminal states, duplicate names) over the state
 * machine's structure instead of recursive JSONPath.
 *
 * asl-validator 4.0.0 finds state machines with `$..States` and transitions with `$..[StartAt,Next,Default]`: any
 * member of that name anywhere counts. So a state NAMED "Next", "End" or "Default" (its definition sits under that
 * key) was taken for a transition to "[object Object]" and the definition refused with MISSING_TRANSITION_TARGET;
 * a `Parameters`/`Result`/`Arguments` member named `Next`, `Default` or `States` was read as a transition or as a
 * nested state machine; and a Map's `ItemProcessor` (only `Iterator` was looked at) could name a state outside it.
 * Step Functions reads transitions only where the States Language puts them: `StartAt`; a state's `Next`; a
 * Choice's `Default` and its rules' `Next`; a catcher's `Next`; nested machines only in a Parallel's `Branches` and a
 * Map's `ItemProcessor` / `Iterator`.
 *
 * This module puts structural versions in place of the four exports (the validator reads them at call time), with
 * asl-validator's error codes and messages, in the same order: on a definition without such members they answer
 * exactly what asl-validator's do (`test/unit/workflow/asl-structure-check.spec.ts` compares both). Installed with
 * the schema cache (asl-schema-check.ts), on the same pinned version. Its entry point's set-up step is no export:
 * `validateAsl` is that entry point with the set-up read over the structure too.
 */

type Doc = Record<string, unknown>;
type Errors = Array<Record<string, unknown>>;

interface Scope {
  states: Doc;
  /** where it sits: the top level, a Parallel branch or a Map's item processor */
  kind: 'top' | 'branch' | 'map';
}

const isObject = (v: unknown): v is Doc => v !== null && typeof v === 'object' && !Array.isArray(v);

/** The nested machines of a state, in the order its members are written. */
function nestedMachines(state: Doc): Array<{ doc: Doc; kind: 'branch' | 'map' }> {
  const out: Array<{ doc: Doc; kind: 'branch' | 'map' }> = [];
  for (const [key, value] of Object.entries(state)) {
    if (key === 'Branches' && Array.isArray(value)) for (const b of value) if (isObject(b)) out.push({ doc: b, kind: 'branch' });
    if ((key === 'ItemProcessor' || key === 'Iterator') && isObject(value)) out.push({ doc: value, kind: 'map' });
  }
  return out;
}

/** Every state machine of a definition (its States objects), outer before inner, in document order. */
function scopes(doc: Doc, kind: Scope['kind'] = 'top', out: Scope[] = []): Scope[] {
  const states = doc.States;
  if (!isObject(states)) return out;
  out.push({ states, kind });
  for (const state of Object.values(states)) {
    if (!isObject(state)) continue;
    for (const m of nestedMachines(state)) scopes(m.doc, m.kind, out);
  }
  return out;
}

/** The transitions written in a state itself (not in its nested machines), in asl-validator's order. */
function ownTransitions(state: Doc): string[] {
  const out: string[] = [];
  const push = (v: unknown) => typeof v === 'string' && out.push(v);
  push(state.Next);
  push(state.Default);
  for (const [key, value] of Object.entries(state)) {
    if ((key === 'Choices' || key === 'Catch') && Array.isArray(value)) for (const r of value) if (isObject(r)) push(r.Next);
  }
  return out;
}

/** Every transition target (StartAt included) of a machine and the machines in it, outer before inner. */
function allTargets(doc: Doc, out: string[] = []): string[] {
  if (typeof doc.StartAt === 'string') out.push(doc.StartAt);
  const states = doc.States;
  if (!isObject(states)) return out;
  for (const state of Object.values(states)) {
    if (!isObject(state)) continue;
    out.push(...ownTransitions(state));
    for (const m of nestedMachines(state)) allTargets(m.doc, out);
  }
  return out;
}

/** Replaces get-states' `getStatesContainer` (asl-validator's state checks and terminal-state check use it). */
export function structuralStatesContainer(definition: Doc): Doc[] {
  return scopes(definition).map((s) => s.states);
}

/** Replaces `missingTransitionTargetErrors`: states nothing transitions to, and targets that name no state. */
export function structuralMissingTransitionTargetErrors(definition: Doc): Errors {
  const names = scopes(definition).flatMap((s) => Object.keys(s.states));
  const targets = [...new Set(allTargets(definition))];
  const unreachable = names.filter((n) => !targets.includes(n)).map((n) => ({ 'Error code': 'MISSING_TRANSITION_TARGET', Message: `State ${n} is not reachable` }));
  const missing = targets.filter((t) => !names.includes(t)).map((t) => ({ 'Error code': 'MISSING_TRANSITION_TARGET', Message: `Missing 'StartAt'|'Next'|'Default' target: ${t}` }));
  return [...unreachable, ...missing];
}

/**
 * Replaces `stateTransitionsErrors`: a state of a Parallel branch or a Map's item processor transitions only to
 * states of its own machine (a nested machine's own states and transitions are checked as a machine of their own).
 */
export function structuralStateTransitionsErrors(definition: Doc): Errors {
  // asl-validator's order: every Parallel's branches (a Parallel's all together), then every Map's processor, each
  // as met going down the definition.
  const groups: Array<{ kind: 'branch' | 'map'; machines: Doc[] }> = [];
  const walk = (doc: Doc) => {
    if (!isObject(doc.States)) return;
    for (const state of Object.values(doc.States)) {
      if (!isObject(state)) continue;
      const nested = nestedMachines(state);
      const branches = nested.filter((m) => m.kind === 'branch').map((m) => m.doc);
      if (branches.length) groups.push({ kind: 'branch', machines: branches });
      for (const m of nested) if (m.kind === 'map') groups.push({ kind: 'map', machines: [m.doc] });
      for (const m of nested) walk(m.doc);
    }
  };
  walk(definition);
  const outbound = (machine: Doc) => {
    const states = isObject(machine.States) ? machine.States : {};
    const own = Object.keys(states);
    return Object.values(states)
      .filter(isObject)
      .flatMap(ownTransitions)
      .filter((t) => !own.includes(t));
  };
  return [
    ...groups
      .filter((g) => g.kind === 'branch')
      .flatMap((g) => g.machines.flatMap(outbound))
      .map((t) => ({ 'Error code': 'BRANCH_OUTBOUND_TRANSITION_TARGET', Message: `Parallel branch state cannot transition to target: ${t}` })),
    ...groups
      .filter((g) => g.kind === 'map')
      .flatMap((g) => g.machines.flatMap(outbound))
      .map((t) => ({ 'Error code': 'MAP_OUTBOUND_TRANSITION_TARGET', Message: `Map branch state cannot transition to target: ${t}` })),
  ];
}

/** Replaces `duplicateStateNames`: a state name used more than once anywhere in the definition. */
export function structuralDuplicateStateNames(definition: Doc): Errors {
  const counts = new Map<string, number>();
  for (const s of scopes(definition)) for (const n of Object.keys(s.states)) counts.set(n, (counts.get(n) ?? 0) + 1);
  return [...counts].filter(([, c]) => c > 1).map(([n]) => ({ 'Error code': 'DUPLICATE_STATE_NAMES', Message: `A state with this name already exists: ${n}` }));
}

/* eslint-disable @typescript-eslint/no-require-imports */
type Check = (definition: Doc, options?: unknown) => Errors;

export interface AslOptions {
  checkPaths: boolean;
  checkArn: boolean;
}

/**
 * asl-validator's set-up step over the machines only: every state of the definition, of its Parallel branches and
 * of its Map processors gets the definition's QueryLanguage (default JSONPath) unless it names one, which selects
 * the schema variant its checks apply.
 *
 * asl-validator does this over `$..States`, every member of that name, and assigns to whatever it finds there
 * before any check runs: a `States` that is null or a string, a state that is null, a string or a number (in a
 * nested machine too) threw a TypeError, which reached the client as "could not be validated" instead of the schema
 * error at its place; so did valid data such as `"Parameters": {"States": null}`. Here malformed members are left
 * for the schema check to report, and data is not touched.
 */
function defaultQueryLanguages(doc: Doc, language: unknown): void {
  const states = doc.States;
  // arrays too, as asl-validator: the schema check refuses them where they are
  if (states === null || typeof states !== 'object') return;
  for (const state of Object.values(states as Doc)) {
    if (state === null || typeof state !== 'object') continue;
    const s = state as Doc;
    if (!s.QueryLanguage) s.QueryLanguage = language;
    if (Array.isArray(s.Branches)) for (const b of s.Branches) if (isObject(b)) defaultQueryLanguages(b, language);
    for (const key of ['ItemProcessor', 'Iterator']) if (isObject(s[key])) defaultQueryLanguages(s[key], language);
  }
}

/**
 * asl-validator's `mustNotHaveDuplicateFieldNamesAfterEvaluation` (its `$..[Parameters,ResultSelector]` walk, its
 * messages and order) without reading members of those names that are not objects: data such as
 * `"Result": {"Parameters": null}` threw (Object.keys(null)). A string has no field names to compare, so the
 * answers are the same wherever the original answers at all.
 */
function duplicateFieldNames(definition: Doc): Errors {
  const { JSONPath } = require(require.resolve('jsonpath-plus', { paths: [require.resolve('asl-validator')] })) as { JSONPath(o: { json: unknown; path: string }): unknown[] };
  const out: Errors = [];
  const inspect = (parent: Doc) => {
    const seen = new Set<string>();
    for (const [key, value] of Object.entries(parent)) {
      const evaluated = key.endsWith('.$') ? key.slice(0, -2) : key;
      if (seen.has(evaluated)) out.push({ 'Error code': 'DUPLICATE_FIELD_NAME', Message: `A duplicate field will exist after renaming to strip the ".$" suffix from: ${key}.$` });
      seen.add(evaluated);
      if (value !== null && typeof value === 'object') inspect(value as Doc);
    }
  };
  for (const t of JSONPath({ json: definition, path: '$..[Parameters,ResultSelector]' })) if (t !== null && typeof t === 'object') inspect(t as Doc);
  return out;
}

type StateEntry = { state: Doc; stateName: string };
interface StateChecksModule {
  stateChecks(definition: Doc, options: unknown, checks: Array<{ filter(e: StateEntry): boolean; checker(e: StateEntry): unknown }>): Errors;
  AtMostOne(o: { props: string[]; errorCode: string; path?: string }): (e: StateEntry) => unknown;
  ExactlyOne(o: { props: string[]; errorCode: string }): (e: StateEntry) => unknown;
}

/** asl-validator's per-state checks (validator.js), in its order: [types, rule, fields, error code, where]. */
const STATE_CHECKS: Array<[string[] | 'not-terminal', 'AtMostOne' | 'ExactlyOne', string[], string, string?]> = [
  [['Task'], 'AtMostOne', ['TimeoutSeconds', 'TimeoutSecondsPath'], 'TASK_TIMEOUT'],
  [['Task'], 'AtMostOne', ['HeartbeatSeconds', 'HeartbeatSecondsPath'], 'TASK_HEARTBEAT'],
  [['Map'], 'ExactlyOne', ['ItemProcessor', 'Iterator'], 'MAP_ITEM_PROCESSOR'],
  [['Map'], 'AtMostOne', ['ItemSelector', 'Parameters'], 'MAP_ITEM_SELECTOR'],
  [['Wait'], 'ExactlyOne', ['Seconds', 'SecondsPath', 'Timestamp', 'TimestampPath'], 'WAIT_DURATION'],
  ['not-terminal', 'ExactlyOne', ['End', 'Next'], 'TERMINAL_STATE_WITH_NEXT'],
  [['Map'], 'AtMostOne', ['ToleratedFailureCount', 'ToleratedFailureCountPath'], 'MAP_TOLERATED_FAILURE'],
  [['Map'], 'AtMostOne', ['ToleratedFailurePercentage', 'ToleratedFailurePercentagePath'], 'MAP_TOLERATED_FAILURE'],
  [['Map'], 'AtMostOne', ['MaxConcurrency', 'MaxConcurrencyPath'], 'MAP_CONCURRENCY_ERROR'],
  [['Map'], 'AtMostOne', ['Items', 'ItemsPath'], 'MAP_ITEMS_ERROR'],
  [['Map'], 'AtMostOne', ['MaxItems', 'MaxItemsPath'], 'MAP_ITEMREADER_MAXITEM', '$.ItemReader.ReaderConfig'],
  [['Map'], 'AtMostOne', ['MaxItemsPerBatch', 'MaxItemsPerBatchPath'], 'MAP_ITEM_BATCHER', '$.ItemBatcher'],
  [['Map'], 'AtMostOne', ['MaxInputBytesPerBatch', 'MaxInputBytesPerBatchPath'], 'MAP_ITEM_BATCHER', '$.ItemBatcher'],
  [['Fail'], 'AtMostOne', ['Cause', 'CausePath'], 'FAIL_CAUSE_PROPERTY'],
  [['Fail'], 'AtMostOne', ['Error', 'ErrorPath'], 'FAIL_ERROR_PROPERTY'],
];

/**
 * asl-validator 4.0.0's validator (dist/src/validator.js) with its set-up step and its duplicate-field check made
 * safe for any JSON (above): the schema check, then, when it passes, the transition, state-name, terminal-state,
 * duplicate-field and per-state checks, in its order and with its messages (the differential test in
 * test/unit/workflow/asl-structure-check.spec.ts compares both wherever asl-validator answers). It annotates the
 * document it is given: pass a copy.
 */
export function validateAsl(definition: Doc, options: AslOptions): { isValid: boolean; errors: Errors } {
  installAslStructureChecks();
  defaultQueryLanguages(definition, definition.QueryLanguage ?? 'JSONPath');
  // read at call time: the schema check is the cached one (asl-schema-check.ts) once installed
  const { jsonSchemaErrors } = require('asl-validator/dist/src/checks/json-schema-errors') as Record<string, Check>;
  const errors = jsonSchemaErrors(definition, options);
  if (errors.length === 0) {
    const { missingTerminalStateErrors } = require('asl-validator/dist/src/checks/missing-terminal-state-errors') as Record<string, Check>;
    const checks = require('asl-validator/dist/src/checks/state-checks') as StateChecksModule;
    errors.push(
      ...structuralMissingTransitionTargetErrors(definition),
      ...structuralStateTransitionsErrors(definition),
      ...structuralDuplicateStateNames(definition),
      ...missingTerminalStateErrors(definition),
      ...duplicateFieldNames(definition),
      ...checks.stateChecks(
        definition,
        options,
        STATE_CHECKS.map(([types, rule, props, errorCode, path]) => ({
          filter: ({ state }: StateEntry) => (types === 'not-terminal' ? !['Succeed', 'Fail', 'Choice'].includes(state.Type as string) : types.includes(state.Type as string)),
          checker: rule === 'AtMostOne' ? checks.AtMostOne({ props, errorCode, ...(path ? { path } : {}) }) : checks.ExactlyOne({ props, errorCode }),
        })),
      ),
    );
  }
  return { isValid: errors.length === 0, errors };
}

const REPLACED = [
  ['asl-validator/dist/src/checks/get-states', 'getStatesContainer', structuralStatesContainer],
  ['asl-validator/dist/src/checks/missing-transition-target-errors', 'missingTransitionTargetErrors', structuralMissingTransitionTargetErrors],
  ['asl-validator/dist/src/checks/state-transitions-errors', 'stateTransitionsErrors', structuralStateTransitionsErrors],
  ['asl-validator/dist/src/checks/duplicate-state-names-errors', 'duplicateStateNames', structuralDuplicateStateNames],
] as const;

/** What validateAsl calls of asl-validator as it is. */
const USED = [
  ['asl-validator/dist/src/checks/json-schema-errors', 'jsonSchemaErrors'],
  ['asl-validator/dist/src/checks/missing-terminal-state-errors', 'missingTerminalStateErrors'],
  ['asl-validator/dist/src/checks/state-checks', 'stateChecks'],
  ['asl-validator/dist/src/checks/state-checks', 'AtMostOne'],
  ['asl-validator/dist/src/checks/state-checks', 'ExactlyOne'],
] as const;

const originals = new Map<string, Check>();

/** asl-validator's own versions (for the differential test), by export name. */
export function originalStructureChecks(): Record<string, Check> {
  installAslStructureChecks();
  return Object.fromEntries(originals);
}

/** Put the structural checks in place of asl-validator's (idempotent). Throws if the module is not shaped as expected. */
export function installAslStructureChecks(): void {
  if (originals.size) return;
  const modules = REPLACED.map(([path, name]) => ({ mod: require(path) as Record<string, unknown>, name }));
  for (const { mod, name } of [...modules, ...USED.map(([path, name]) => ({ mod: require(path) as Record<string, unknown>, name }))]) {
    if (typeof mod[name] !== 'function') throw new Error(`asl-validator has no ${name} where src/services/workflow/asl-structure-check.ts expects it`);
  }
  REPLACED.forEach(([, name, check], i) => {
    originals.set(name, modules[i].mod[name] as Check);
    modules[i].mod[name] = check;
  });
}
