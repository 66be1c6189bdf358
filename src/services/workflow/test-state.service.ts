/**
 * TestState: one state of a definition run with the input, variables (and optionally a mocked result) given, by the
 * same engine as jobs (engine/interpreter.ts `advance`, with a probe that reports the data after each processing
 * step). Nothing is stored: no job, no history. Step Functions' rules:
 *  - `definition` is one state, or (with `stateName`) a whole state machine whose state of that name runs;
 *  - Pass, Choice, Wait (answered at once: the clock the engine sees moves to the end of the wait), Succeed,
 *    Fail and Task run unmocked (the gateway's own tasks and http:invoke for real, as the caller); activities,
 *    callbacks (.waitForTaskToken), Map and Parallel need `mock`; `mock` is only for Task, Map and Parallel;
 *    `context` only with `mock`;
 *  - status SUCCEEDED (with nextState unless the state ends the machine), FAILED (error, cause), RETRIABLE (a
 *    Retry would run the state again: errorDetails.retryIndex and retryBackoffIntervalSeconds), CAUGHT_ERROR (a
 *    Catch took the error: its output and nextState);
 *  - inspectionLevel INFO answers the outcome, DEBUG adds the data after each step (input, afterInputPath,
 *    afterParameters / afterArguments, result, afterResultSelector, afterResultPath, variables, Map's
 *    afterItemsPath / afterItemSelector / maxConcurrency), TRACE adds an HTTP task's request and response;
 *  - at most 5 minutes (then States.Timeout).
 * Access: running a state runs its task as the caller, so it needs what starting a job needs (workflow.write);
 * revealSecrets (a connection's credential in TRACE) is a site admin's, as connections are theirs.
 */
import { randomUUID } from 'node:crypto';
import type { RequestContext } from '../../context';
import { ForbiddenError, ValidationError } from '../../errors/app-error';
import { requireWorkflowAccess } from './access';
import type { WorkflowDefinitionService } from './definitions.service';
import { advance, initialCheckpoint, TaskFailure, type Json, type JsonObject, type ProbeStep, type StateProbe } from './engine';
import { externalKind } from './engine/external';
import { WORKFLOW_CODES } from './error-codes';
import type { HttpTrace } from './http/invoke';
import { checkJobInput } from './jobs.service';
import type { WorkflowTaskService } from './runner/tasks';

export const INSPECTION_LEVELS = ['INFO', 'DEBUG', 'TRACE'] as const;
export const MOCK_VALIDATION_MODES = ['STRICT', 'PRESENT', 'NONE'] as const;
/** Step Functions ends a TestState after 5 minutes. */
export const TEST_STATE_TIMEOUT_MS = 300_000;

export interface TestStateInput {
  definition: string;
  roleArn?: string;
  input?: string;
  inspectionLevel?: string;
  revealSecrets?: boolean;
  variables?: string;
  stateName?: string;
  mock?: { result?: string; errorOutput?: { error?: string; cause?: string }; fieldValidationMode?: string };
  context?: string;
  stateConfiguration?: { retrierRetryCount?: number; errorCausedByState?: string; mapIterationFailureCount?: number; mapItemReaderData?: string };
  /** The caller went away: the state's task is aborted. */
  signal?: AbortSignal;
}

export interface InspectionData {
  input?: string;
  afterArguments?: string;
  afterInputPath?: string;
  afterParameters?: string;
  result?: string;
  afterResultSelector?: string;
  afterResultPath?: string;
  request?: { protocol: string; method: string; url: string; headers: string; body: string };
  response?: { protocol: string; statusCode: string; statusMessage: string; headers: string; body: string };
  variables?: string;
  errorDetails?: { catchIndex?: number; retryIndex?: number; retryBackoffIntervalSeconds?: number };
  afterItemsPath?: string;
  afterItemSelector?: string;
  maxConcurrency?: number;
}

export interface TestStateResult {
  status: 'SUCCEEDED' | 'FAILED' | 'RETRIABLE' | 'CAUGHT_ERROR';
  output?: string;
  error?: string;
  cause?: string;
  nextState?: string;
  inspectionData?: InspectionData;
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);

function invalidDefinition(detail: string): ValidationError {
  return new ValidationError(`Invalid State Machine Definition: '${detail}'`, { domainCode: WORKFLOW_CODES.INVALID_DEFINITION });
}

function parseJson(text: string, what: string, invalid: (m: string) => Error): Json {
  try {
    return JSON.parse(text) as Json;
  } catch (e) {
    throw invalid(`${what} is not valid JSON: ${(e as Error).message.slice(0, 200)}`);
  }
}

/** The state names a state moves to (Next, Default, Choices' and catchers' Next). */
function targetsOf(state: Obj): string[] {
  const out: string[] = [];
  const add = (v: unknown) => typeof v === 'string' && out.push(v);
  add(state.Next);
  add(state.Default);
  for (const list of [state.Choices, state.Catch]) if (Array.isArray(list)) for (const c of list) if (isObj(c)) add(c.Next);
  return out;
}

function unusedName(taken: Set<string>, base: string): string {
  let name = base;
  for (let i = 2; taken.has(name); i++) name = `${base}${i}`;
  return name;
}

interface Prepared {
  /** The machine the checks see: a Pass that assigns the given variables first, so references to them are valid. */
  checked: Obj;
  /** The machine that runs: the same, starting at the state under test. */
  run: Obj;
  state: Obj;
  name: string;
}

/** A whole machine whose shape the checks refuse (nothing to run). */
interface Malformed {
  checked: Obj;
  malformed: true;
}

/** One state, or a whole machine with stateName, as a machine starting at the state under test. */
function prepare(doc: Json, stateName: string | undefined, variables: JsonObject | undefined): Prepared | Malformed {
  if (!isObj(doc)) throw invalidDefinition('SCHEMA_VALIDATION_FAILED: The definition must be a JSON object');
  let machine: Obj;
  let name: string;
  if (stateName !== undefined) {
    if (doc.States === undefined) throw invalidDefinition('SCHEMA_VALIDATION_FAILED: With stateName, the definition must be a whole state machine (StartAt and States)');
    // A States or a named state that is no object: the definition checks say where (they refuse it).
    if (!isObj(doc.States) || (Object.prototype.hasOwnProperty.call(doc.States, stateName) && !isObj(doc.States[stateName]))) return { checked: doc, malformed: true };
    if (!Object.prototype.hasOwnProperty.call(doc.States, stateName)) {
      throw new ValidationError(`The state '${stateName.slice(0, 80)}' is not a state of the definition's States`);
    }
    name = stateName;
    // the 5-minute bound of TestState replaces the machine's own TimeoutSeconds
    machine = { ...doc };
    delete machine.TimeoutSeconds;
  } else {
    if (doc.States !== undefined || doc.StartAt !== undefined) {
      throw invalidDefinition('SCHEMA_VALIDATION_FAILED: A whole state machine definition needs stateName (the state to test)');
    }
    if (typeof doc.Type !== 'string') throw invalidDefinition("SCHEMA_VALIDATION_FAILED: The state has no 'Type'");
    const targets = targetsOf(doc);
    const taken = new Set(targets);
    name = unusedName(taken, 'TestState');
    const states: Obj = { [name]: doc };
    // the states it moves to are not part of the test: each is stood in for by a Succeed state
    for (const t of targets) if (!(t in states)) states[t] = { Type: 'Succeed' };
    machine = { StartAt: name, States: states };
  }
  const states = machine.States as Obj;
  // a whole machine is checked as it is (its StartAt reaches its states), a single state as the machine around it
  let checked: Obj = { ...machine };
  const start = machine.StartAt;
  const names = variables ? Object.keys(variables) : [];
  if (names.length) {
    const ql = (machine.QueryLanguage ?? (states[name] as Obj).QueryLanguage) === 'JSONata' ? 'JSONata' : 'JSONPath';
    const pass = unusedName(new Set(Object.keys(states)), 'TestStateVariables');
    checked = {
      ...checked,
      StartAt: pass,
      States: { ...states, [pass]: { Type: 'Pass', ...(ql === 'JSONata' && machine.QueryLanguage !== 'JSONata' ? { QueryLanguage: 'JSONata' } : {}), Assign: Object.fromEntries(names.map((n) => [n, null])), Next: start } },
    };
  }
  return { checked, run: { ...machine, StartAt: name }, state: states[name] as Obj, name };
}

export class WorkflowTestStateService {
  constructor(
    private readonly definitions: WorkflowDefinitionService,
    private readonly tasks: WorkflowTaskService,
  ) {}

  async testState(ctx: RequestContext, input: TestStateInput): Promise<TestStateResult> {
    requireWorkflowAccess(ctx, 'write');
    const level = input.inspectionLevel ?? 'INFO';
    if (!(INSPECTION_LEVELS as readonly string[]).includes(level)) {
      throw new ValidationError(`1 validation error detected: Value '${String(level).slice(0, 20)}' at 'inspectionLevel' failed to satisfy constraint: Member must satisfy enum value set: [${INSPECTION_LEVELS.join(', ')}]`);
    }
    if (input.revealSecrets === true && !(ctx.viewer.kind === 'user' && ctx.viewer.user.siteAdmin === true)) {
      throw new ForbiddenError("revealSecrets shows a connection's credential: only a site admin may ask for it.");
    }
    const given = checkJobInput(input.input);
    const data = JSON.parse(given) as Json;
    let variables: JsonObject | undefined;
    if (input.variables !== undefined) {
      const v = parseJson(input.variables, 'variables', (m) => new ValidationError(m));
      if (!isObj(v)) throw new ValidationError('variables must be a JSON object (variable name -> value)');
      for (const k of Object.keys(v)) {
        if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(k) || k.length > 80 || k === 'states') throw new ValidationError(`'${k.slice(0, 80)}' is not a valid variable name`);
      }
      variables = v as JsonObject;
    }
    const mock = this.mockOf(input);
    if (input.context !== undefined && !mock) throw new ValidationError('context can only be given together with a mock');
    let context: JsonObject | undefined;
    if (input.context !== undefined) {
      const c = parseJson(input.context, 'context', (m) => new ValidationError(m));
      if (!isObj(c)) throw new ValidationError('context must be a JSON object (the context object of the state)');
      context = c as JsonObject;
    }

    const doc = parseJson(input.definition, 'The definition', (m) => invalidDefinition(`INVALID_JSON_DESCRIPTION: ${m}`));
    const prepared = prepare(doc, input.stateName, variables);
    // The same checks as CreateStateMachine (InvalidDefinition with Step Functions' messages).
    await this.definitions.checkText(ctx, JSON.stringify(prepared.checked));
    if ('malformed' in prepared) throw invalidDefinition('SCHEMA_VALIDATION_FAILED: States and the state under test must be JSON objects at /States');
    const p = prepared;
    const type = p.state.Type as string;
    const resource = typeof p.state.Resource === 'string' ? p.state.Resource : '';
    const ext = type === 'Task' ? externalKind(resource) : null;
    if (mock && type !== 'Task' && type !== 'Map' && type !== 'Parallel') {
      throw new ValidationError(`A mock can only be given for Task, Map or Parallel states (this is a ${type.slice(0, 20)} state)`);
    }
    if (!mock && (type === 'Map' || type === 'Parallel')) {
      throw new ValidationError(`A ${type} state can only be tested with a mock (mock.result or mock.errorOutput): TestState does not run its ${type === 'Map' ? 'iterations' : 'branches'}`);
    }
    if (!mock && ext) {
      throw new ValidationError(`A Task state whose resource is ${ext.kind === 'activity' ? 'an activity' : 'a callback (.waitForTaskToken)'} can only be tested with a mock (mock.result or mock.errorOutput)`);
    }
    if (mock && type === 'Map' && 'result' in mock && !Array.isArray(mock.result)) throw new ValidationError("The mocked result of a Map state must be a JSON array");
    const sc = input.stateConfiguration;
    if (sc?.mapItemReaderData !== undefined) {
      throw new ValidationError('stateConfiguration.mapItemReaderData is for ItemReader, which this service does not run (items come from the state input)');
    }
    if (sc?.errorCausedByState !== undefined && !(mock && 'error' in mock && (type === 'Map' || type === 'Parallel'))) {
      throw new ValidationError('stateConfiguration.errorCausedByState can only be given with a mocked errorOutput of a Map or Parallel state');
    }
    if (sc?.mapIterationFailureCount !== undefined && type !== 'Map') throw new ValidationError('stateConfiguration.mapIterationFailureCount can only be given for a Map state');
    if (sc?.retrierRetryCount !== undefined && !(mock && 'error' in mock)) {
      throw new ValidationError('stateConfiguration.retrierRetryCount can only be given with a mocked errorOutput');
    }

    // What the probe sees, by processing step.
    const steps = new Map<ProbeStep, Json>();
    let errorDetails: InspectionData['errorDetails'];
    let handled: { error?: string; cause?: string; caught: boolean } | undefined;
    let maxConcurrency: number | undefined;
    let request: InspectionData['request'];
    let response: InspectionData['response'];
    const probe: StateProbe = {
      step: (s, v) => void steps.set(s, v),
      error: (e) => {
        handled = { error: e.error, cause: e.cause, caught: e.catchIndex !== undefined };
        if (e.retryIndex !== undefined) errorDetails = { retryIndex: e.retryIndex, retryBackoffIntervalSeconds: e.retryBackoffIntervalSeconds };
        else if (e.catchIndex !== undefined) errorDetails = { catchIndex: e.catchIndex };
      },
      limit: (n, v) => {
        if (n === 'maxConcurrency') maxConcurrency = v;
      },
      ...(mock ? { mock } : {}),
      ...(context ? { context } : {}),
    };
    const trace: HttpTrace | undefined =
      level === 'TRACE'
        ? {
            reveal: input.revealSecrets === true,
            report: (req, res) => {
              request = req;
              response = res;
            },
          }
        : undefined;

    const cfg = ctx.config;
    const machineName = 'TestStateMachine';
    const id = randomUUID();
    const start = new Date();
    const cp = initialCheckpoint(
      p.run as never,
      data,
      {
        executionArn: `arn:aws:states:${cfg.workflowRegion}:${cfg.workflowAccountId}:execution:${machineName}:${id}`,
        executionName: id,
        startTime: start.toISOString(),
        roleArn: input.roleArn ?? '',
        stateMachineArn: `arn:aws:states:${cfg.workflowRegion}:${cfg.workflowAccountId}:stateMachine:${machineName}`,
        stateMachineName: machineName,
      },
      start,
    );
    if (variables) cp.root.va = variables;
    // retries that already happened (the retrier that takes the mocked error has run this many times)
    if (sc?.retrierRetryCount !== undefined && Array.isArray(p.state.Retry)) cp.root.rc = p.state.Retry.map(() => sc.retrierRetryCount!);

    const bound = AbortSignal.timeout(TEST_STATE_TIMEOUT_MS);
    const signal = input.signal ? AbortSignal.any([bound, input.signal]) : bound;
    let clock = start.getTime();
    const runTask = async (t: { resource: string; input: Json; attemptKey: string; signal: AbortSignal }): Promise<Json> => {
      if (mock) {
        if ('error' in mock) throw new TaskFailure(mock.error, mock.cause);
        return mock.result;
      }
      return this.tasks.run(t.resource, () => ({ ctx, input: t.input, attemptKey: `test-state:${id}:${t.attemptKey}`, signal: t.signal, trace }));
    };

    let checkpoint = cp;
    let assigned: Record<string, string> = {};
    let result: TestStateResult | undefined;
    // Entering (Task: scheduled), then the task or the end of the wait: a few advances at most.
    for (let i = 0; i < 4 && !result; i++) {
      const adv = await advance(p.run as never, checkpoint, { now: () => new Date(clock), runTask, signal, probe });
      if (signal.aborted) {
        if (input.signal?.aborted) throw new ValidationError('The request was cancelled');
        result = { status: 'FAILED', error: 'States.Timeout', cause: 'TestState runs a state for at most 5 minutes' };
        break;
      }
      for (const ev of adv.events) {
        const d = (ev as { stateExitedEventDetails?: { assignedVariables?: Record<string, string> } }).stateExitedEventDetails;
        if (d?.assignedVariables) assigned = { ...assigned, ...d.assignedVariables };
      }
      checkpoint = adv.checkpoint;
      const root = checkpoint.root;
      if (adv.status === 'SUCCEEDED') result = { status: 'SUCCEEDED', output: adv.output ?? 'null' };
      else if (adv.status === 'FAILED' || adv.status === 'TIMED_OUT') {
        result = { status: 'FAILED', ...(adv.error !== undefined ? { error: adv.error } : {}), ...(adv.cause !== undefined ? { cause: adv.cause } : {}) };
      } else if (root.p === 'E' && root.n >= 1) {
        // the state was left: for the state it moves to (a catcher's Next after an error)
        result = {
          status: handled?.caught ? 'CAUGHT_ERROR' : 'SUCCEEDED',
          output: JSON.stringify(root.in ?? null),
          nextState: root.s,
          ...(handled?.caught && handled.error !== undefined ? { error: handled.error } : {}),
          ...(handled?.caught && handled.cause !== undefined ? { cause: handled.cause } : {}),
        };
      } else if (root.p === 'R') {
        result = { status: 'RETRIABLE', ...(handled?.error !== undefined ? { error: handled.error } : {}), ...(handled?.cause !== undefined ? { cause: handled.cause } : {}) };
      } else if (root.p === 'W') {
        // a Wait is answered at once: the engine's clock moves to its end
        clock = Math.max(clock, Date.parse(root.u!));
      } else if (root.p !== 'T') {
        result = { status: 'FAILED', error: 'States.Runtime', cause: 'TestState could not run the state to its end' };
      }
    }
    result ??= { status: 'FAILED', error: 'States.Runtime', cause: 'TestState could not run the state to its end' };

    const inspection: InspectionData = {};
    if (level !== 'INFO') {
      const text = (v: Json) => JSON.stringify(v);
      inspection.input = given;
      for (const [k, v] of steps) inspection[k] = text(v);
      if (maxConcurrency !== undefined) inspection.maxConcurrency = maxConcurrency;
      const vars: JsonObject = { ...(variables ?? {}) };
      for (const [k, v] of Object.entries(assigned)) vars[k] = JSON.parse(v) as Json;
      if (Object.keys(vars).length) inspection.variables = text(vars);
      if (request) inspection.request = request;
      if (response) inspection.response = response;
    }
    if (errorDetails) inspection.errorDetails = errorDetails;
    if (Object.keys(inspection).length) result.inspectionData = inspection;
    return result;
  }

  /** The mocked outcome: exactly one of result (JSON text) and errorOutput. */
  private mockOf(input: TestStateInput): StateProbe['mock'] {
    const m = input.mock;
    if (m === undefined) return undefined;
    const mode = m.fieldValidationMode ?? 'STRICT';
    if (!(MOCK_VALIDATION_MODES as readonly string[]).includes(mode)) {
      throw new ValidationError(`1 validation error detected: Value '${String(mode).slice(0, 20)}' at 'mock.fieldValidationMode' failed to satisfy constraint: Member must satisfy enum value set: [${MOCK_VALIDATION_MODES.join(', ')}]`);
    }
    if ((m.result === undefined) === (m.errorOutput === undefined)) throw new ValidationError('A mock must have either result or errorOutput');
    if (m.errorOutput !== undefined) return { error: m.errorOutput.error ?? '', cause: m.errorOutput.cause ?? '' };
    const result = parseJson(m.result!, 'mock.result', (msg) => new ValidationError(msg));
    return { result };
  }
}
