/**
 * The interpreter: a job is a tree of threads (the job, Parallel branches, Map iterations) kept in a checkpoint;
 * `advance` copies the thread tree (data values are shared, never modified), performs one transition of every
 * runnable thread, and returns the new checkpoint with the history events of that step. See index.ts.
 */
import { setMaxListeners } from 'node:events';
import { createHash } from 'node:crypto';
import type {
  Advance,
  AslDefinition,
  Checkpoint,
  HistoryEvent,
  JobContext,
  Json,
  JsonObject,
  MapRunProgress,
  MapRuns,
  ProbeStep,
  RedriveKeep,
  RunTask,
  StateProbe,
  Thread,
} from './types';
import { TaskFailure } from './types';
import { AslError, E, MAX_PAYLOAD, clip, errorMatches, isTerminalError, runtimeError } from './errors';
import { jsonSize, requirePayload, Serializer } from './bounds';
import { machineOf, type CState, type Machine, type ResultPathSpec } from './compile';
import type { Template } from './template';
import { clipPath, evalPath, mustPath, setAtPath, type CompiledPath } from './paths';
import type { Env } from './intrinsics';
import { isTimestamp } from './choice';
import { commitAssign, lookupVar, visibleVars } from './variables';
import { evalJTemplate, QueryError, type JEnv, type JTemplate } from './jsonata';
import type { Catcher } from './compile';
import { attemptKeyOf, callbackResourceInfo, externalKind, newTaskToken, parseOutput, type ExternalKind, type ExternalTasks } from './external';

/* ------------------------------------------------------------------------------------------------ events */

interface PEvent {
  ev: HistoryEvent;
  prev: Prev;
}
type Prev = number | PEvent | Array<number | PEvent>;
type Sink = PEvent[];

interface StepCtx {
  sink: Sink;
  /** aborted when the job is stopped or a sibling branch/iteration failed */
  signal: AbortSignal | undefined;
}

export interface AdvanceOptions {
  now: () => Date;
  runTask: RunTask;
  signal?: AbortSignal;
  /** Jitter source for `JitterStrategy: FULL` in [0,1); default: a hash of the attempt key (same on replay). */
  random?: (attemptKey: string) => number;
  /**
   * Bytes of history (events' details) one job may store; a step that would pass it is not taken and the job fails
   * with States.DataLimitExceeded. Default: unbounded (the runner passes WORKFLOW_JOB_HISTORY_BYTES).
   */
  maxHistoryBytes?: number;
  /**
   * History events one execution may have; a step that would pass it is not taken and the execution fails. Default:
   * MAX_HISTORY_EVENTS, Step Functions' quota for Standard executions. Express executions keep no history and have
   * no such quota (their bound is their duration): they pass Infinity. Either way one step's events, held in memory
   * until the step is taken, are at most MAX_HISTORY_EVENTS.
   */
  maxHistoryEvents?: number;
  /** Called between batches of branches/iterations stepped in one advance (the runner lets other work in). */
  pause?: () => Promise<void>;
  /** Activity and callback tasks (external.ts); without it such tasks fail with States.Runtime. */
  external?: ExternalTasks;
  /** Distributed Maps' runs and children (the runner's); without it such a Map fails with States.Runtime. */
  mapRuns?: MapRuns;
  /** TestState: reports the root thread's processing steps and errors; its mock replaces the state's work. */
  probe?: StateProbe;
}

/** Branches/iterations stepped between two `pause` calls. */
export const PAUSE_EVERY = 64;
/** A history event's own fields (id, previousEventId, timestamp, type) as stored, about. */
const EVENT_OVERHEAD = 96;

const NOT_TRUNCATED = Object.freeze({ truncated: false });
const NO_SCOPES: JsonObject[] = [];
/** Step Functions' inline Map runs at most 40 iterations concurrently. */
export const MAX_MAP_CONCURRENCY = 40;
/** Step Functions' hard quota of history events per execution: a job that would exceed it fails. */
export const MAX_HISTORY_EVENTS = 25_000;
/** Step Functions' upper bound for MaxDelaySeconds (366 days): no backoff waits longer. */
const MAX_RETRY_DELAY = 31_622_400;


function asAsl(e: unknown): AslError {
  if (e instanceof AslError) return e;
  if (e instanceof RangeError) return new AslError(E.Runtime, 'The data is too deeply nested or too large to process');
  return new AslError(E.Runtime, 'An internal error occurred while processing the state');
}

function unitHash(key: string): number {
  return createHash('sha256').update(key).digest().readUInt32BE(0) / 4294967296;
}

function resourceInfo(resource: string): { resourceType: string; resource: string } {
  const m = /^arn:[^:]+:states:[^:]*:[^:]*:([^:]+):(.+)$/.exec(resource);
  if (m) return { resourceType: m[1], resource: m[2] };
  if (resource.startsWith('arn:') && resource.includes(':lambda:')) return { resourceType: 'lambda', resource };
  const dot = resource.indexOf('.');
  if (dot > 0 && dot < resource.length - 1) return { resourceType: resource.slice(0, dot), resource: resource.slice(dot + 1) };
  return { resourceType: 'task', resource };
}

function cloneThread(t: Thread): Thread {
  const c: Thread = { ...t };
  if (t.kd) c.kd = t.kd.map(cloneThread);
  if (t.rs) c.rs = t.rs.slice();
  return c;
}

/** Reset the per-state fields of a thread when it moves to another state or ends. */
function clearState(t: Thread): void {
  t.a = undefined;
  t.rc = undefined;
  t.ti = undefined;
  t.dl = undefined;
  t.ts = undefined;
  t.u = undefined;
  t.kd = undefined;
  t.it = undefined;
  t.mi = undefined;
  t.lz = undefined;
  t.rb = undefined;
  t.rs = undefined;
  t.nx = undefined;
  t.nd = undefined;
  t.mc = undefined;
  t.se = undefined;
  t.et = undefined;
  t.tk = undefined;
  t.hs = undefined;
  t.hb = undefined;
  t.rk = undefined;
  t.sd = undefined;
  t.mr = undefined;
  t.bb = undefined;
  t.bi = undefined;
  t.mw = undefined;
  t.rd = undefined;
  // fields left `undefined` vanish from the stored JSON; deleting them would slow property access down
}

/* ------------------------------------------------------------------------------------------------ the run */

class Run {
  readonly lasts = new Map<Thread, PEvent>();
  readonly fixups: Array<() => void> = [];
  readonly region: string;
  readonly jobDeadline: number;
  jobTimedOut = false;
  /** Events emitted in this step so far. */
  private emitted = 0;
  /** History bytes of the job including this step's events so far. */
  historyBytes: number;
  readonly maxHistoryBytes: number;
  readonly maxHistoryEvents: number;
  /** JSON texts of this step's values (one text per value, however many events carry it). */
  readonly ser = new Serializer();

  constructor(
    readonly cp: Checkpoint,
    readonly machine: Machine,
    readonly opts: AdvanceOptions,
  ) {
    this.region = (typeof cp.ctx?.stateMachineArn === 'string' && cp.ctx.stateMachineArn.split(':')[3]) || 'us-east-1';
    this.jobDeadline = cp.dl ? Date.parse(cp.dl) : Infinity;
    this.historyBytes = cp.hb ?? 0;
    this.maxHistoryBytes = opts.maxHistoryBytes ?? Infinity;
    this.maxHistoryEvents = opts.maxHistoryEvents ?? MAX_HISTORY_EVENTS;
  }

  text(v: Json | undefined): string {
    return this.ser.text(v);
  }

  nowMs(): number {
    return this.opts.now().getTime();
  }

  private lastMs = NaN;
  private lastIso = '';

  iso(ms?: number): string {
    const t = ms ?? this.nowMs();
    if (t !== this.lastMs) {
      this.lastMs = t;
      this.lastIso = new Date(t).toISOString();
    }
    return this.lastIso;
  }

  last(th: Thread): number | PEvent {
    return this.lasts.get(th) ?? th.l;
  }

  /** New event in thread `th` (its previousEventId is the thread's last event). */
  emit(sc: StepCtx, th: Thread, type: string, details?: Record<string, unknown>): PEvent {
    return this.emitAfter(sc, th, this.last(th), type, details);
  }

  /**
   * The step's events already pass the history quota: it will not be taken (advance fails the job instead), so it
   * starts and steps no more threads (nested Maps would otherwise start 40 times the last step's iterations first).
   */
  overQuota(): boolean {
    return this.emitted > MAX_HISTORY_EVENTS || this.cp.nid + this.emitted - 1 > this.maxHistoryEvents || this.historyBytes > this.maxHistoryBytes;
  }

  emitAfter(sc: StepCtx, th: Thread | null, prev: Prev, type: string, details?: Record<string, unknown>): PEvent {
    this.emitted++;
    this.historyBytes += EVENT_OVERHEAD + type.length + (details ? jsonSize(details) : 0);
    const ev = { id: 0, previousEventId: 0, timestamp: this.iso(), type, ...details } as HistoryEvent;
    const pe: PEvent = { ev, prev };
    sc.sink.push(pe);
    if (th) this.lasts.set(th, pe);
    return pe;
  }

  context(th: Thread, extra?: JsonObject): Json {
    const given = this.opts.probe?.context;
    if (given && th === this.cp.root) return extra ? { ...given, ...extra } : given;
    const c = this.cp.ctx;
    const obj: JsonObject = {
      Execution: {
        Id: c.executionArn,
        Input: this.cp.input,
        Name: c.executionName,
        RoleArn: c.roleArn,
        StartTime: c.startTime,
        RedriveCount: c.redriveCount ?? 0,
        ...(c.redriveTime ? { RedriveTime: c.redriveTime } : {}),
      },
      State: { EnteredTime: th.et ?? c.startTime, Name: th.s, RetryCount: th.a ?? 0 },
      StateMachine: { Id: c.stateMachineArn, Name: c.stateMachineName },
    };
    if (extra) Object.assign(obj, extra);
    return obj;
  }

  env(th: Thread, input: Json, extra?: JsonObject): Env {
    return { input, context: () => this.context(th, extra), vars: (name) => lookupVar(this.chain(th), th.va, name) };
  }

  /** Variable scopes around each branch/iteration thread stepped in this advance (outermost first). */
  readonly scopes = new Map<Thread, JsonObject[]>();

  chain(th: Thread): JsonObject[] {
    return this.scopes.get(th) ?? NO_SCOPES;
  }

  /** Before stepping a Parallel's branches or a Map's iterations: they read `th`'s scopes. */
  enclose(th: Thread, kids: Thread[]): void {
    const outer = this.chain(th);
    const chain = th.va ? [...outer, th.va] : outer;
    if (chain.length) for (const k of kids) this.scopes.set(k, chain);
  }

  /** JSONata's environment: `$states` and the variables the thread sees. */
  jenv(th: Thread, states: JsonObject): JEnv {
    return { states, vars: visibleVars(this.chain(th), th.va), now: this.nowMs() };
  }

  attemptKey(th: Thread): string {
    return attemptKeyOf(this.cp, th);
  }

  /** TestState's inspection data (the root thread only). */
  note(th: Thread, step: ProbeStep, v: Json): void {
    if (this.opts.probe && th === this.cp.root) this.opts.probe.step(step, v);
  }

  /** TestState's mock of the root thread's state, if any. */
  mock(th: Thread): StateProbe['mock'] {
    return th === this.cp.root ? this.opts.probe?.mock : undefined;
  }
}

/* ------------------------------------------------------------------------------------------------ data flow */

function readPath(run: Run, th: Thread, p: CompiledPath, data: Json, field: string): Json {
  return p.context ? mustPath(p, run.context(th), field) : mustPath(p, data, field);
}

function applyInputPath(run: Run, th: Thread, st: CState, raw: Json): Json {
  if (st.inputPath === undefined) return raw;
  if (st.inputPath === null) return {};
  return readPath(run, th, st.inputPath, raw, 'InputPath');
}

function applyOutputPath(run: Run, th: Thread, st: CState, out: Json): Json {
  if (st.outputPath === undefined) return out;
  if (st.outputPath === null) return {};
  return readPath(run, th, st.outputPath, out, 'OutputPath');
}

function applyResultPath(spec: ResultPathSpec, raw: Json, result: Json): Json {
  if (spec.k === 'discard') return raw;
  if (spec.k === 'bad') throw runtimeError(`ResultPath '${clipPath(spec.raw)}' is not a reference path`);
  return setAtPath(raw, spec.segs, result, spec.raw);
}

/** The value's JSON text fits 256 KiB (measured before any text is built), else States.DataLimitExceeded. */
const checkSize = requirePayload;

/* ------------------------------------------------------------------------------------------------ threads */

function failThread(th: Thread, error: string | undefined, cause: string | undefined): void {
  clearState(th);
  th.p = 'F';
  if (error !== undefined) th.e = error;
  else delete th.e;
  if (cause !== undefined) th.c = cause;
  else delete th.c;
}

function transition(th: Thread, st: CState, out: Json): void {
  clearState(th);
  if (st.end) {
    th.p = 'D';
    th.o = out;
  } else if (st.next !== null) {
    th.s = st.next;
    th.in = out;
    th.p = 'E';
  } else {
    failThread(th, E.Runtime, `State '${clip(st.name, 200)}' has neither Next nor End`);
  }
}

function stepThread(run: Run, th: Thread, m: Machine, sc: StepCtx): Promise<void> | void {
  const st = m.states.get(th.s);
  if (!st) {
    if (th.p !== 'D' && th.p !== 'F') failThread(th, E.Runtime, `The state '${clip(th.s, 200)}' does not exist`);
    return;
  }
  switch (th.p) {
    case 'E': {
      const entered = enterState(run, th, st, sc);
      // An activity task is registered in the step that schedules it (registering is idempotent per attempt).
      const thenRegister = () => {
        if ((th.p as Thread['p']) === 'T' && st.type === 'Task' && externalKind(st.resource)?.kind === 'activity') return runTaskPhase(run, th, st, sc);
      };
      return entered ? entered.then(thenRegister) : thenRegister();
    }
    case 'T':
      return runTaskPhase(run, th, st, sc);
    case 'X':
      return stepExternal(run, th, st, sc);
    case 'R':
      if (run.nowMs() >= Date.parse(th.u!)) return retryNow(run, th, st, sc);
      return;
    case 'W':
      if (run.nowMs() >= Date.parse(th.u!)) {
        const out = th.o ?? null;
        delete th.o;
        let assigned: Record<string, string> | undefined;
        try {
          assigned = commitVars(run, th, th.pv);
        } catch (e) {
          const err = asAsl(e);
          return failThread(th, err.error, err.cause);
        } finally {
          th.pv = undefined;
        }
        run.emit(sc, th, 'WaitStateExited', stateExited(st.name, run.text(out), assigned));
        transition(th, st, out);
      }
      return;
    case 'P':
      return stepParallel(run, th, st, sc);
    case 'M':
      return st.dist ? stepDistMap(run, th, st, sc) : stepMap(run, th, st, sc);
    default:
      return;
  }
}

const stateEntered = (name: string, input: string) => ({
  stateEnteredEventDetails: { name, input, inputDetails: NOT_TRUNCATED },
});
const stateExited = (name: string, output: string, assigned?: Record<string, string>) => ({
  stateExitedEventDetails: assigned
    ? { name, output, outputDetails: NOT_TRUNCATED, assignedVariables: assigned, assignedVariablesDetails: NOT_TRUNCATED }
    : { name, output, outputDetails: NOT_TRUNCATED },
});

/** Evaluate a JSONPath Assign on `data` (values only; committed by commitVars once the state's output is known). */
function assignValues(run: Run, th: Thread, tpl: Template | undefined, data: Json): JsonObject | undefined {
  if (!tpl) return undefined;
  const v = tpl(run.env(th, data));
  return v !== null && typeof v === 'object' && !Array.isArray(v) ? v : undefined;
}

function commitVars(run: Run, th: Thread, values: Json | undefined): Record<string, string> | undefined {
  if (values === undefined) return undefined;
  if (values === null || typeof values !== 'object' || Array.isArray(values)) {
    throw new QueryError('The field \'Assign\' must evaluate to a JSON object', 'Assign');
  }
  return commitAssign(run.cp.root, th, values);
}

/** A Choice state's exit in either query language: its output and variables are taken, then the chosen state is next. */
function exitChoice(run: Run, sc: StepCtx, th: Thread, name: string, next: string, out: Json, values: Json | undefined): void {
  checkSize(out, 'state output');
  const s = run.text(out);
  const assigned = commitVars(run, th, values);
  run.emit(sc, th, 'ChoiceStateExited', stateExited(name, s, assigned));
  clearState(th);
  th.s = next;
  th.in = out;
  th.p = 'E';
}

function enterState(run: Run, th: Thread, st: CState, sc: StepCtx): void | Promise<void> {
  th.n += 1;
  th.et = run.iso();
  th.a = 0;
  const type = st.type === 'Unknown' ? null : st.type;
  if (!type) {
    failThread(th, E.Runtime, `The state '${clip(st.name, 200)}' has an unsupported Type '${clip(st.rawType, 80)}'`);
    return;
  }
  run.emit(sc, th, `${type}StateEntered`, stateEntered(st.name, run.text(th.in)));
  if (st.jn) return enterJsonata(run, th, st, sc);
  try {
    switch (type) {
      case 'Pass': {
        let eff = applyInputPath(run, th, st, th.in);
        run.note(th, 'afterInputPath', eff);
        if (st.parameters) {
          eff = st.parameters(run.env(th, eff));
          run.note(th, 'afterParameters', eff);
        }
        const result = st.hasResult ? (st.result ?? null) : eff;
        if (st.hasResult) run.note(th, 'result', result);
        const values = assignValues(run, th, st.assign, result);
        const placed = applyResultPath(st.resultPath, th.in, result);
        run.note(th, 'afterResultPath', placed);
        const out = applyOutputPath(run, th, st, placed);
        return exitWith(run, th, st, sc, out, commitVars(run, th, values));
      }
      case 'Task': {
        let eff = applyInputPath(run, th, st, th.in);
        run.note(th, 'afterInputPath', eff);
        let secs = st.timeoutSeconds;
        if (st.timeoutSecondsPath) {
          const v = readPath(run, th, st.timeoutSecondsPath, eff, 'TimeoutSecondsPath');
          if (typeof v !== 'number' || !Number.isInteger(v) || v <= 0) {
            throw runtimeError('TimeoutSecondsPath must point to a positive integer');
          }
          secs = v;
        }
        const ext = externalKind(st.resource);
        if (ext) prepareExternal(run, th, st, eff, ext);
        if (st.parameters) {
          eff = st.parameters(run.env(th, eff, th.tk ? { Task: { Token: th.tk } } : undefined));
          run.note(th, 'afterParameters', eff);
        }
        checkSize(eff, 'input of the task after Parameters');
        th.ti = eff;
        if (secs !== undefined && secs > 0) th.ts = secs;
        return scheduleTask(run, th, st, sc);
      }
      case 'Choice': {
        const eff = applyInputPath(run, th, st, th.in);
        run.note(th, 'afterInputPath', eff);
        const env = run.env(th, eff);
        let next: string | undefined;
        let assign = st.assign;
        for (const c of st.choices) {
          if (c.cond(env)) {
            next = c.next;
            // a matching rule's Assign replaces the state's
            if (c.assign) assign = c.assign;
            break;
          }
        }
        next ??= st.default;
        if (next === undefined || next === '') {
          throw new AslError(E.NoChoiceMatched, 'No Choice Rule matched and no Default was specified');
        }
        const values = assignValues(run, th, assign, eff);
        return exitChoice(run, sc, th, st.name, next, applyOutputPath(run, th, st, eff), values);
      }
      case 'Wait': {
        const eff = applyInputPath(run, th, st, th.in);
        run.note(th, 'afterInputPath', eff);
        let until: number;
        if (st.secondsPath) {
          const v = readPath(run, th, st.secondsPath, eff, 'SecondsPath');
          if (typeof v !== 'number' || !Number.isInteger(v) || v < 0) throw runtimeError('SecondsPath must point to a non-negative integer');
          until = run.nowMs() + v * 1000;
        } else if (st.timestampPath) {
          const v = readPath(run, th, st.timestampPath, eff, 'TimestampPath');
          if (!isTimestamp(v)) throw runtimeError('TimestampPath must point to an ISO-8601 timestamp');
          until = Date.parse(v);
        } else if (st.timestamp !== undefined) {
          if (!isTimestamp(st.timestamp)) throw runtimeError('Timestamp must be an ISO-8601 timestamp');
          until = Date.parse(st.timestamp);
        } else {
          until = run.nowMs() + Math.max(0, st.seconds ?? 0) * 1000;
        }
        const values = assignValues(run, th, st.assign, eff);
        const out = applyOutputPath(run, th, st, eff);
        checkSize(out, 'state output');
        th.o = out;
        if (values) th.pv = values;
        th.u = run.iso(until);
        th.p = 'W';
        return;
      }
      case 'Succeed': {
        const eff = applyInputPath(run, th, st, th.in);
        run.note(th, 'afterInputPath', eff);
        const out = applyOutputPath(run, th, st, eff);
        checkSize(out, 'state output');
        const s = run.text(out);
        run.emit(sc, th, 'SucceedStateExited', stateExited(st.name, s));
        clearState(th);
        th.p = 'D';
        th.o = out;
        return;
      }
      case 'Fail': {
        let error = st.error;
        let cause = st.cause;
        if (st.errorPath) {
          const v = readPath(run, th, st.errorPath, th.in, 'ErrorPath');
          if (typeof v !== 'string') throw runtimeError('ErrorPath must point to a string');
          error = v;
        }
        if (st.causePath) {
          const v = readPath(run, th, st.causePath, th.in, 'CausePath');
          if (typeof v !== 'string') throw runtimeError('CausePath must point to a string');
          cause = v;
        }
        failThread(th, error === undefined ? undefined : clip(error, 256), cause === undefined ? undefined : clip(cause));
        return;
      }
      case 'Parallel':
        return startParallel(run, th, st, sc);
      case 'Map':
        return startMap(run, th, st, sc);
    }
  } catch (e) {
    const err = asAsl(e);
    if (type === 'Task' || type === 'Parallel' || type === 'Map') return handleError(run, th, st, sc, err.error, err.cause);
    failThread(th, err.error, err.cause);
  }
}

/** Emit `<Type>StateExited` with the output and move on (size checked first). */
function exitWith(run: Run, th: Thread, st: CState, sc: StepCtx, out: Json, assigned?: Record<string, string>): void {
  checkSize(out, 'state output');
  const s = run.text(out);
  run.emit(sc, th, `${st.type}StateExited`, stateExited(st.name, s, assigned));
  transition(th, st, out);
}

/** Task/Parallel/Map result → ResultSelector → ResultPath → OutputPath → exit; errors go to Retry/Catch. */
function completeState(run: Run, th: Thread, st: CState, sc: StepCtx, result: Json): void | Promise<void> {
  if (st.jn) return completeJsonata(run, th, st, sc, result);
  try {
    run.note(th, 'result', result);
    const selected = st.resultSelector ? st.resultSelector(run.env(th, result)) : result;
    if (st.resultSelector) run.note(th, 'afterResultSelector', selected);
    const values = assignValues(run, th, st.assign, selected);
    const placed = applyResultPath(st.resultPath, th.in, selected);
    run.note(th, 'afterResultPath', placed);
    const out = applyOutputPath(run, th, st, placed);
    // the output's size first: a state that fails assigns nothing
    checkSize(out, 'state output');
    exitWith(run, th, st, sc, out, commitVars(run, th, values));
  } catch (e) {
    const err = asAsl(e);
    return handleError(run, th, st, sc, err.error, err.cause);
  }
}

/** Retry (a durable backoff: phase R until `u`), else Catch (exit to the catcher's Next), else fail the thread. */
function handleError(run: Run, th: Thread, st: CState, sc: StepCtx, error: string | undefined, cause: string | undefined): void | Promise<void> {
  const name = error ?? '';
  if (!isTerminalError(name)) {
    for (let i = 0; i < st.retry.length; i++) {
      const r = st.retry[i];
      if (!errorMatches(r.errors, name)) continue;
      const count = th.rc?.[i] ?? 0;
      if (count < r.max) {
        let delay = r.interval * Math.pow(r.backoff, count);
        if (r.maxDelay !== null) delay = Math.min(delay, r.maxDelay);
        delay = Math.min(delay, MAX_RETRY_DELAY);
        if (r.jitter) {
          const key = run.attemptKey(th);
          delay *= run.opts.random ? run.opts.random(key) : unitHash(key);
        }
        if (run.opts.probe && th === run.cp.root) run.opts.probe.error({ error, cause, retryIndex: i, retryBackoffIntervalSeconds: delay });
        const rc = th.rc ? th.rc.slice() : [];
        while (rc.length <= i) rc.push(0);
        rc[i] = count + 1;
        th.rc = rc;
        th.a = (th.a ?? 0) + 1;
        th.kd = undefined;
        th.u = run.iso(run.nowMs() + Math.round(delay * 1000));
        th.p = 'R';
        return;
      }
      break; // the first matching retrier decides; when it is exhausted, Catch gets its turn
    }
    for (let ci = 0; ci < st.catch.length; ci++) {
      const c = st.catch[ci];
      if (!errorMatches(c.errors, name)) continue;
      if (run.opts.probe && th === run.cp.root) run.opts.probe.error({ error, cause, catchIndex: ci });
      if (st.jn) return catchJsonata(run, th, st, sc, c, error, cause);
      try {
        const errOut: JsonObject = { Error: error ?? null, Cause: cause ?? null };
        // only the catcher's Assign runs (on the error output), not the state's
        const values = assignValues(run, th, c.assign, errOut);
        const out = applyResultPath(c.resultPath, th.in, errOut);
        run.note(th, 'afterResultPath', out);
        checkSize(out, 'state output');
        const s = run.text(out);
        const assigned = commitVars(run, th, values);
        run.emit(sc, th, `${st.type}StateExited`, stateExited(st.name, s, assigned));
        clearState(th);
        th.s = c.next;
        th.in = out;
        th.p = 'E';
      } catch (e) {
        const err = asAsl(e);
        failThread(th, err.error, err.cause);
      }
      return;
    }
  }
  if (run.opts.probe && th === run.cp.root) run.opts.probe.error({ error, cause });
  failThread(th, error, cause);
}

/**
 * A Parallel/Map failed: Retry and Catch as for any state; when neither takes the error the state fails for good and
 * keeps its branches / iterations, so a RedriveExecution reruns only the failed and aborted ones (redrive.ts).
 */
function failKeeping(run: Run, th: Thread, st: CState, sc: StepCtx, error: string | undefined, cause: string | undefined, keep: RedriveKeep): void | Promise<void> {
  const kept = () => {
    if (th.p === 'F') th.rk = keep;
  };
  const r = handleError(run, th, st, sc, error, cause);
  if (r) return r.then(kept);
  kept();
}

/** After a Retry backoff: attempt the state again. */
function retryNow(run: Run, th: Thread, st: CState, sc: StepCtx): void | Promise<void> {
  th.u = undefined;
  delete th.u;
  try {
    // a JSONata state evaluates its Arguments (and Items ...) again: they may read $states.context.State.RetryCount
    if (st.jn) return st.type === 'Task' ? startJsonataTask(run, th, st, sc) : startJsonataBranches(run, th, st, sc);
    if (st.type === 'Task') return scheduleTask(run, th, st, sc);
    if (st.type === 'Parallel') return startParallel(run, th, st, sc);
    if (st.type === 'Map') return startMap(run, th, st, sc);
    failThread(th, E.Runtime, 'Only Task, Parallel and Map states can be retried');
  } catch (e) {
    const err = asAsl(e);
    return handleError(run, th, st, sc, err.error, err.cause);
  }
}

/* ------------------------------------------------------------------------------------------------ Task */

function scheduleTask(run: Run, th: Thread, st: CState, sc: StepCtx): void {
  th.dl = th.ts ? run.iso(run.nowMs() + th.ts * 1000) : null;
  // a mocked activity or callback answers at once, as a plain task would
  const ext = run.mock(th) ? null : externalKind(st.resource);
  if (ext) return scheduleExternal(run, th, st, sc, ext);
  const info = resourceInfo(st.resource);
  const details: Record<string, unknown> = { ...info, region: run.region, parameters: run.text(th.ti ?? null) };
  if (th.ts) details.timeoutInSeconds = th.ts;
  run.emit(sc, th, 'TaskScheduled', { taskScheduledEventDetails: details });
  th.p = 'T';
}

type Outcome = { k: 'ok'; v: unknown } | { k: 'err'; e: unknown } | { k: 'aborted' };

async function runTaskPhase(run: Run, th: Thread, st: CState, sc: StepCtx): Promise<void> {
  const ext = run.mock(th) ? null : externalKind(st.resource);
  const info = ext ? callbackResourceInfo(st.resource) : resourceInfo(st.resource);
  const taskDl = th.dl ? Date.parse(th.dl) : Infinity;
  const start = run.nowMs();
  const timedOut = () => {
    const cause = 'The task did not finish within its TimeoutSeconds';
    if (ext?.kind === 'activity') run.emit(sc, th, 'ActivityTimedOut', { activityTimedOutEventDetails: { error: E.Timeout, cause } });
    else run.emit(sc, th, 'TaskTimedOut', { taskTimedOutEventDetails: { ...info, error: E.Timeout, cause } });
    return handleError(run, th, st, sc, E.Timeout, cause);
  };
  if (start >= taskDl) return timedOut();
  if (start >= run.jobDeadline) {
    run.jobTimedOut = true;
    return;
  }
  if (sc.signal?.aborted || run.opts.signal?.aborted) return;
  // Activities and callbacks: registered first (a worker or the callback's receiver may answer at once); an
  // activity then waits (phase X), a callback's own task runs below and waits after it.
  if (ext && !(await registerExternal(run, th, st, sc, ext))) return;
  if (ext?.kind === 'activity') return;

  run.emit(sc, th, 'TaskStarted', { taskStartedEventDetails: info });
  const ctl = new AbortController();
  let why: 'task' | 'job' | 'stop' | null = null;
  const onStop = () => {
    why ??= 'stop';
    ctl.abort();
  };
  sc.signal?.addEventListener('abort', onStop, { once: true });
  run.opts.signal?.addEventListener('abort', onStop, { once: true });
  const until = Math.min(taskDl, run.jobDeadline);
  const timer = Number.isFinite(until)
    ? setTimeout(
        () => {
          why ??= taskDl <= run.jobDeadline ? 'task' : 'job';
          ctl.abort();
        },
        Math.min(Math.max(0, until - start), 2_147_483_647),
      )
    : null;
  const deadline = Number.isFinite(until) ? new Date(until).toISOString() : null;

  let outcome: Outcome;
  try {
    outcome = await new Promise<Outcome>((resolve) => {
      ctl.signal.addEventListener('abort', () => resolve({ k: 'aborted' }), { once: true });
      let p: Promise<Json>;
      try {
        p = Promise.resolve(
          run.opts.runTask({ resource: ext?.kind === 'callback' ? ext.task : st.resource, input: structuredClone(th.ti ?? null), attemptKey: run.attemptKey(th), deadline, signal: ctl.signal }),
        );
      } catch (e) {
        p = Promise.reject(e);
      }
      p.then(
        (v) => resolve({ k: 'ok', v }),
        (e) => resolve({ k: 'err', e }),
      );
    });
  } finally {
    if (timer) clearTimeout(timer);
    sc.signal?.removeEventListener('abort', onStop);
    run.opts.signal?.removeEventListener('abort', onStop);
  }

  if (outcome.k === 'aborted') {
    if (why === 'task') return timedOut();
    if (why === 'job') run.jobTimedOut = true;
    // stopped, timed-out job, or a failed sibling: the attempt did not end; the thread stays scheduled
    return;
  }
  if (run.nowMs() >= taskDl) return timedOut(); // finished, but too late (per the job's clock)

  if (outcome.k === 'err') {
    const e = outcome.e;
    let error: string;
    let cause: string;
    if (e instanceof TaskFailure || e instanceof AslError) {
      error = clip(String(e.error || E.TaskFailed), 256);
      cause = clip(String(e.cause ?? ''));
    } else {
      error = E.TaskFailed;
      cause = clip(e instanceof Error ? e.message : typeof e === 'string' ? e : 'The task failed');
    }
    run.emit(sc, th, 'TaskFailed', { taskFailedEventDetails: { ...info, error, cause } });
    return handleError(run, th, st, sc, error, cause);
  }

  let text: string | undefined;
  let value: Json = null;
  let tooLarge = false;
  try {
    // measured first: a task's answer larger than the limit is never turned into text
    tooLarge = jsonSize(outcome.v, MAX_PAYLOAD) > MAX_PAYLOAD;
    if (!tooLarge) {
      text = JSON.stringify(outcome.v === undefined ? null : outcome.v);
      value = text === undefined ? null : (JSON.parse(text) as Json);
      text ??= 'null';
    }
  } catch {
    const cause = 'The task returned a value that is not JSON';
    run.emit(sc, th, 'TaskFailed', { taskFailedEventDetails: { ...info, error: E.TaskFailed, cause } });
    return handleError(run, th, st, sc, E.TaskFailed, cause);
  }
  if (tooLarge || text === undefined || Buffer.byteLength(text, 'utf8') > MAX_PAYLOAD) {
    return failThread(th, E.DataLimitExceeded, 'The task output has exceeded the maximum size of 262144 bytes');
  }
  if (ext) {
    // The own task's answer is the callback's immediate response; the state waits for SendTask* now.
    run.emit(sc, th, 'TaskSubmitted', { taskSubmittedEventDetails: { ...info, output: text, outputDetails: NOT_TRUNCATED } });
    th.p = 'X';
    return;
  }
  run.emit(sc, th, 'TaskSucceeded', { taskSucceededEventDetails: { ...info, output: text, outputDetails: NOT_TRUNCATED } });
  return completeState(run, th, st, sc, value);
}

/* ------------------------------------------------------------------------------------------------ external tasks */

/** A waiting external task without timers of its own is looked at again after this long (it is woken on news). */
const EXTERNAL_IDLE_MS = 365 * 24 * 3600 * 1000;

/** Entering a Task whose Resource is an activity or a callback: its heartbeat and (callbacks) its task token. */
function prepareExternal(run: Run, th: Thread, st: CState, eff: Json, ext: ExternalKind): void {
  let hs = st.heartbeatSeconds;
  if (st.heartbeatSecondsPath) {
    const v = readPath(run, th, st.heartbeatSecondsPath, eff, 'HeartbeatSecondsPath');
    if (typeof v !== 'number') throw runtimeError('HeartbeatSecondsPath must point to a positive integer');
    hs = v;
  }
  if (hs !== undefined) {
    if (!Number.isInteger(hs) || hs <= 0) throw runtimeError('HeartbeatSeconds must be a positive integer');
    th.hs = hs;
  }
  if (ext.kind === 'callback') th.tk = newTaskToken();
}

/** Every occurrence of one token in a value replaced by another (a retried callback gets a fresh token). */
function swapToken(v: Json, from: string, to: string): Json {
  if (typeof v === 'string') return v.includes(from) ? v.split(from).join(to) : v;
  if (Array.isArray(v)) return v.map((x) => swapToken(x, from, to));
  if (v && typeof v === 'object') {
    const o: JsonObject = {};
    for (const [k, x] of Object.entries(v)) o[k] = swapToken(x, from, to);
    return o;
  }
  return v;
}

function scheduleExternal(run: Run, th: Thread, st: CState, sc: StepCtx, ext: ExternalKind): void {
  th.hb = undefined;
  th.sd = undefined;
  if (ext.kind === 'callback' && (th.a ?? 0) > 0 && th.tk) {
    const fresh = newTaskToken();
    th.ti = swapToken(th.ti ?? null, th.tk, fresh);
    th.tk = fresh;
  }
  if (ext.kind === 'activity') {
    const d: Record<string, unknown> = { resource: st.resource, input: run.text(th.ti ?? null), inputDetails: NOT_TRUNCATED };
    if (th.ts) d.timeoutInSeconds = th.ts;
    if (th.hs) d.heartbeatInSeconds = th.hs;
    run.emit(sc, th, 'ActivityScheduled', { activityScheduledEventDetails: d });
  } else {
    const d: Record<string, unknown> = { ...callbackResourceInfo(st.resource), region: run.region, parameters: run.text(th.ti ?? null) };
    if (th.ts) d.timeoutInSeconds = th.ts;
    if (th.hs) d.heartbeatInSeconds = th.hs;
    run.emit(sc, th, 'TaskScheduled', { taskScheduledEventDetails: d });
  }
  th.p = 'T';
}

/** Register the task with the runner (durably); false when the thread does not go on (refused, or stopping). */
async function registerExternal(run: Run, th: Thread, st: CState, sc: StepCtx, ext: ExternalKind): Promise<boolean> {
  const ex = run.opts.external;
  let failure: { error: string; cause: string } | null = null;
  if (!ex) failure = { error: E.Runtime, cause: 'Activity and callback tasks are not available here' };
  else {
    try {
      await ex.schedule({
        kind: ext.kind,
        resource: st.resource,
        stateName: st.name,
        attemptKey: run.attemptKey(th),
        input: run.text(th.ti ?? null),
        ...(th.tk ? { token: th.tk } : {}),
        timeoutAt: th.dl ?? null,
        heartbeatSeconds: th.hs ?? null,
      });
    } catch (e) {
      if (!(e instanceof TaskFailure)) return false; // the store is unavailable: no progress (the runner retries later)
      failure = { error: clip(e.error, 256), cause: clip(String(e.cause ?? '')) };
    }
  }
  if (failure) {
    if (ext.kind === 'activity') run.emit(sc, th, 'ActivityScheduleFailed', { activityScheduleFailedEventDetails: failure });
    else run.emit(sc, th, 'TaskStartFailed', { taskStartFailedEventDetails: { ...callbackResourceInfo(st.resource), ...failure } });
    handleError(run, th, st, sc, failure.error, failure.cause);
    return false;
  }
  if (ext.kind === 'activity') th.p = 'X';
  return true;
}

/** A thread waiting for its activity worker or callback: record what happened since, and go on once it ended. */
async function stepExternal(run: Run, th: Thread, st: CState, sc: StepCtx): Promise<void> {
  const ext = externalKind(st.resource);
  const ex = run.opts.external;
  if (!ext || !ex) return failThread(th, E.Runtime, 'Activity and callback tasks are not available here');
  if (run.nowMs() >= run.jobDeadline) {
    run.jobTimedOut = true;
    return;
  }
  if (sc.signal?.aborted || run.opts.signal?.aborted) return;
  let state;
  try {
    state = await ex.check(run.attemptKey(th), run.opts.now());
  } catch {
    return; // the store is unavailable: no progress
  }
  if (!state) {
    // Not registered (it always is before a thread waits): register it again rather than wait forever.
    th.p = 'T';
    return;
  }
  const activity = ext.kind === 'activity';
  if (activity && state.started && !th.sd) {
    const d = state.started.workerName ? { workerName: state.started.workerName } : {};
    run.emit(sc, th, 'ActivityStarted', { activityStartedEventDetails: d });
    th.sd = 1;
  }
  const o = state.outcome;
  if (!o) {
    th.hb = state.heartbeatUntil ?? null;
    return;
  }
  const info = callbackResourceInfo(st.resource);
  if (o.k === 'ok') {
    let value: Json;
    try {
      value = parseOutput(o.output);
    } catch {
      value = null;
    }
    if (activity) run.emit(sc, th, 'ActivitySucceeded', { activitySucceededEventDetails: { output: o.output, outputDetails: NOT_TRUNCATED } });
    else run.emit(sc, th, 'TaskSucceeded', { taskSucceededEventDetails: { ...info, output: o.output, outputDetails: NOT_TRUNCATED } });
    return completeState(run, th, st, sc, value);
  }
  const d: Record<string, string> = {};
  if (o.error !== null) d.error = o.error;
  if (o.cause !== null) d.cause = o.cause;
  if (o.k === 'err') {
    if (activity) run.emit(sc, th, 'ActivityFailed', { activityFailedEventDetails: d });
    else run.emit(sc, th, 'TaskFailed', { taskFailedEventDetails: { ...info, ...d } });
  } else if (activity) run.emit(sc, th, 'ActivityTimedOut', { activityTimedOutEventDetails: d });
  else run.emit(sc, th, 'TaskTimedOut', { taskTimedOutEventDetails: { ...info, ...d } });
  handleError(run, th, st, sc, o.error ?? undefined, o.cause ?? undefined);
}

/** When a waiting external task must be looked at: its timeout or heartbeat deadline (0 = now). */
function externalWake(th: Thread, now: number): number {
  let w = Infinity;
  const dl = th.dl ? Date.parse(th.dl) : NaN;
  if (!Number.isNaN(dl)) w = Math.min(w, dl);
  const hb = th.hb ? Date.parse(th.hb) : NaN;
  if (!Number.isNaN(hb)) w = Math.min(w, hb);
  if (!Number.isFinite(w)) w = now + EXTERNAL_IDLE_MS;
  return w <= now ? 0 : w;
}

/* ------------------------------------------------------------------------------------------------ Parallel */

/** `given`: the branches' input computed by the caller (JSONata's Arguments). */
function startParallel(run: Run, th: Thread, st: CState, sc: StepCtx, given?: Json): void | Promise<void> {
  let eff: Json;
  if (given !== undefined) eff = given;
  else {
    eff = applyInputPath(run, th, st, th.in);
    run.note(th, 'afterInputPath', eff);
    if (st.parameters) {
      eff = st.parameters(run.env(th, eff));
      run.note(th, 'afterParameters', eff);
    }
  }
  checkSize(eff, 'input of the Parallel state after Parameters');
  const mocked = mockBranches(run, th, st, sc);
  if (mocked !== false) return mocked;
  const started = run.emit(sc, th, 'ParallelStateStarted');
  run.fixups.push(() => (th.se = started.ev.id));
  const key = `${th.k}${th.s}@${th.n}.${th.a ?? 0}`;
  th.kd = st.branches.map((b, i) => {
    const kid: Thread = { s: b.startAt, p: 'E', in: eff, l: 0, k: `${key}[${i}]/`, n: 0 };
    run.lasts.set(kid, started);
    return kid;
  });
  th.p = 'P';
  if (th.kd.length === 0) {
    run.emit(sc, th, 'ParallelStateSucceeded');
    return completeState(run, th, st, sc, []);
  }
}

/** Step every unfinished child concurrently; the first failure aborts the others' running tasks. */
async function stepChildren(run: Run, kids: Thread[], machines: (k: Thread) => Machine, sc: StepCtx): Promise<Sink[]> {
  const group = new AbortController();
  // One listener per running task or nested group of these children (a Map may run many at once): not a leak.
  setMaxListeners(0, group.signal);
  const onParent = () => group.abort();
  sc.signal?.addEventListener('abort', onParent, { once: true });
  const sinks: Sink[] = kids.map(() => []);
  const work: Promise<void>[] = [];
  let stepped = 0;
  for (let i = 0; i < kids.length; i++) {
    const kid = kids[i];
    if (kid.p === 'D' || kid.p === 'F') continue;
    if (group.signal.aborted || run.overQuota()) break;
    // A wide fan-out is stepped in batches, letting other work of the process in between.
    if (run.opts.pause && ++stepped % PAUSE_EVERY === 0) await run.opts.pause();
    const r = stepThread(run, kid, machines(kid), { sink: sinks[i], signal: group.signal });
    if (r) {
      work.push(
        r.then(() => {
          if (kid.p === 'F') group.abort();
        }),
      );
    } else if ((kid.p as Thread['p']) === 'F') group.abort();
  }
  if (work.length) await Promise.all(work);
  sc.signal?.removeEventListener('abort', onParent);
  for (const s of sinks) for (const e of s) sc.sink.push(e);
  return sinks;
}

async function stepParallel(run: Run, th: Thread, st: CState, sc: StepCtx): Promise<void> {
  const kids = th.kd ?? [];
  run.enclose(th, kids);
  await stepChildren(run, kids, (k) => st.branches[kids.indexOf(k)], sc);
  const failed = kids.find((k) => k.p === 'F');
  if (failed) {
    run.emit(sc, th, 'ParallelStateFailed');
    const keep: RedriveKeep = { p: 'P', kd: kids, se: th.se };
    th.kd = undefined;
    return failKeeping(run, th, st, sc, failed.e, failed.c, keep);
  }
  // The branches' outputs held so far form the result: past 256 KiB it can only fail, so it fails now.
  let bytes = 2;
  for (const k of kids) if (k.p === 'D') bytes += jsonSize(k.o ?? null, MAX_PAYLOAD) + 1;
  if (bytes > MAX_PAYLOAD) {
    run.emit(sc, th, 'ParallelStateFailed');
    th.kd = undefined;
    return handleError(run, th, st, sc, E.DataLimitExceeded, `The result of the Parallel state has exceeded the maximum size of ${MAX_PAYLOAD} bytes`);
  }
  if (kids.every((k) => k.p === 'D')) {
    const result = kids.map((k) => k.o ?? null);
    run.emitAfter(sc, th, kids.map((k) => run.last(k)), 'ParallelStateSucceeded');
    th.kd = undefined;
    return completeState(run, th, st, sc, result);
  }
}

/* ------------------------------------------------------------------------------------------------ Map */

function startMap(run: Run, th: Thread, st: CState, sc: StepCtx): void | Promise<void> {
  const eff = applyInputPath(run, th, st, th.in);
  run.note(th, 'afterInputPath', eff);
  const items = st.itemsPath ? readPath(run, th, st.itemsPath, eff, 'ItemsPath') : eff;
  if (!Array.isArray(items)) throw runtimeError('The Map state\'s ItemsPath must point to a JSON array');
  run.note(th, 'afterItemsPath', items);
  let mc = st.maxConcurrency;
  if (st.maxConcurrencyPath) {
    const v = readPath(run, th, st.maxConcurrencyPath, eff, 'MaxConcurrencyPath');
    if (typeof v !== 'number' || !Number.isInteger(v) || v < 0) throw runtimeError('MaxConcurrencyPath must point to a non-negative integer');
    mc = v;
  }
  if (run.mock(th)) {
    run.opts.probe!.limit?.('maxConcurrency', mc);
    if (st.itemSelector) run.note(th, 'afterItemSelector', items.map((item, i) => st.itemSelector!(run.env(th, eff, { Map: { Item: { Index: i, Value: item } } }))));
    return mockBranches(run, th, st, sc) as void | Promise<void>;
  }
  if (st.dist) return startDistMap(run, th, st, sc, items, mc, eff);
  // The items, not one copy of the input per item: ItemSelector runs when an iteration starts (at most
  // MaxConcurrency inputs exist at once, and the checkpoint stores the items once, shared with the input).
  return beginMap(run, th, st, sc, items, mc, st.itemSelector ? eff : undefined);
}

/** TestState's mock of a Map/Parallel: its outcome without running a branch; false when the state is not mocked. */
function mockBranches(run: Run, th: Thread, st: CState, sc: StepCtx): false | void | Promise<void> {
  const mock = run.mock(th);
  if (!mock) return false;
  if ('error' in mock) return handleError(run, th, st, sc, mock.error, mock.cause);
  return completeState(run, th, st, sc, mock.result);
}

/**
 * Start the iterations of a Map over its item inputs; with `selectorInput`, `inputs` are the items and each
 * iteration's input is made from them by the state's ItemSelector when it starts.
 */
function beginMap(run: Run, th: Thread, st: CState, sc: StepCtx, inputs: Json[], mc: number, selectorInput?: Json, lazy = selectorInput !== undefined): void | Promise<void> {
  const items = inputs;
  const started = run.emit(sc, th, 'MapStateStarted', { mapStateStartedEventDetails: { length: items.length } });
  run.fixups.push(() => (th.se = started.ev.id));
  th.it = inputs;
  if (lazy) {
    // JSONPath keeps ItemSelector's input in `mi`; JSONata reads $states.input from the Map's own input (`in`)
    if (selectorInput !== undefined) th.mi = selectorInput;
    th.lz = 1;
  }
  th.rb = 2;
  th.rs = new Array<Json>(items.length).fill(null);
  th.nx = 0;
  th.nd = 0;
  th.mc = mc;
  th.kd = [];
  th.p = 'M';
  if (items.length === 0) {
    run.emit(sc, th, 'MapStateSucceeded');
    const result: Json[] = [];
    clearMap(th);
    return completeState(run, th, st, sc, result);
  }
}

function clearMap(th: Thread): void {
  th.mr = undefined;
  th.bb = undefined;
  th.bi = undefined;
  th.mw = undefined;
  th.kd = undefined;
  th.it = undefined;
  th.mi = undefined;
  th.lz = undefined;
  th.rb = undefined;
  th.rs = undefined;
  th.nx = undefined;
  th.nd = undefined;
  th.mc = undefined;
}

/** Like Step Functions' inline Map: MaxConcurrency 0 (or more than 40) runs at most 40 iterations at once. */
function mapLimit(th: Thread): number {
  return Math.min(th.mc && th.mc > 0 ? th.mc : MAX_MAP_CONCURRENCY, MAX_MAP_CONCURRENCY);
}

/** An iteration's input: the item, or (lazy) what the state's ItemSelector makes of it when the iteration starts. */
function iterationInput(run: Run, th: Thread, st: CState, i: number, item: Json): Json | Promise<Json> {
  if (!th.lz) return item;
  const Map = { Item: { Index: i, Value: item } };
  if (st.jn?.itemSelector) return evalJ(st.jn.itemSelector, run.jenv(th, jsonataStates(run, th, undefined, { Map })));
  return st.itemSelector ? st.itemSelector(run.env(th, th.mi ?? null, { Map })) : item;
}

async function stepMap(run: Run, th: Thread, st: CState, sc: StepCtx): Promise<void> {
  const items = th.it ?? [];
  const kids = th.kd ?? (th.kd = []);
  const limit = mapLimit(th);
  const proc = st.processor!;
  const starts = new Map<Thread, PEvent>();
  const iterSc: StepCtx = { sink: [], signal: sc.signal };
  let startFailed: AslError | undefined;
  while (kids.length < limit && (th.nx ?? 0) < items.length && !run.overQuota()) {
    const i = th.nx ?? 0;
    let input: Json;
    try {
      // awaited only when a JSONata selector made a promise: a JSONPath Map starts its iterations in one go, so a
      // wide nested fan-out stops at the history quota before its siblings start theirs (states.spec, quota)
      const made = iterationInput(run, th, st, i, items[i]);
      input = made instanceof Promise ? await made : made;
      checkSize(input, 'input of the Map iteration');
    } catch (e) {
      startFailed = asAsl(e);
      if (e instanceof QueryError) {
        run.emit(sc, th, 'EvaluationFailed', {
          evaluationFailedEventDetails: { error: startFailed.error, cause: clip(startFailed.cause), location: e.location, state: st.name },
        });
      }
      break;
    }
    th.nx = i + 1;
    const kid: Thread = { s: proc.startAt, p: 'E', in: input, l: 0, k: `${th.k}${th.s}@${th.n}.${th.a ?? 0}[${i}]/`, n: 0, ix: i };
    const ev = run.emitAfter(iterSc, kid, th.se ?? run.last(th), 'MapIterationStarted', {
      mapIterationStartedEventDetails: { name: st.name, index: i },
    });
    iterSc.sink.pop(); // placed in front of the iteration's own events below
    starts.set(kid, ev);
    kids.push(kid);
  }
  const childSc: StepCtx = { sink: [], signal: sc.signal };
  run.enclose(th, kids);
  const sinks = await stepChildren(run, kids, () => proc, childSc);
  // order: for each iteration, its start event (if new) then its events
  for (let i = 0; i < kids.length; i++) {
    const start = starts.get(kids[i]);
    if (start) sc.sink.push(start);
    for (const e of sinks[i]) sc.sink.push(e);
  }

  let failed: { e?: string; c?: string } | undefined = startFailed ? { e: startFailed.error, c: startFailed.cause } : undefined;
  const still: Thread[] = [];
  for (const kid of kids) {
    const details = { name: st.name, index: kid.ix ?? 0 };
    if (kid.p === 'D') {
      // The results so far form the Map's result: past 256 KiB it can only fail, so it fails now (and the
      // checkpoint never holds more than that).
      th.rb = (th.rb ?? 2) + jsonSize(kid.o ?? null, MAX_PAYLOAD) + 1;
      th.rs![kid.ix ?? 0] = kid.o ?? null;
      th.nd = (th.nd ?? 0) + 1;
      run.emit(sc, kid, 'MapIterationSucceeded', { mapIterationSucceededEventDetails: details });
      if (th.rb > MAX_PAYLOAD && !failed) failed = { e: E.DataLimitExceeded, c: `The result of the Map state has exceeded the maximum size of ${MAX_PAYLOAD} bytes` };
    } else if (kid.p === 'F' && !failed) {
      failed = kid;
      run.emit(sc, kid, 'MapIterationFailed', { mapIterationFailedEventDetails: details });
    } else still.push(kid);
  }
  if (failed) {
    for (const kid of still) {
      run.emit(sc, kid, 'MapIterationAborted', { mapIterationAbortedEventDetails: { name: st.name, index: kid.ix ?? 0 } });
    }
    run.emit(sc, th, 'MapStateFailed');
    // the iterations that succeeded are in rs/nd; the others (failed, aborted, never started) run on a redrive
    const keep: RedriveKeep = { p: 'M', kd: kids.filter((k) => k.p !== 'D'), se: th.se, it: th.it, mi: th.mi, lz: th.lz, rb: th.rb, rs: th.rs, nx: th.nx, nd: th.nd, mc: th.mc };
    clearMap(th);
    return failKeeping(run, th, st, sc, failed.e, failed.c, keep);
  }
  th.kd = still;
  if ((th.nd ?? 0) >= items.length) {
    const result = th.rs ?? [];
    run.emitAfter(sc, th, kids.map((k) => run.last(k)), 'MapStateSucceeded');
    clearMap(th);
    return completeState(run, th, st, sc, result);
  }
}

/* ------------------------------------------------------------------------------------------------ Distributed Map */

/** Step Functions runs at most 10,000 children of a Distributed Map at once (MaxConcurrency 0 = that many). */
export const MAX_DIST_CONCURRENCY = 10_000;
/** Children started in one step (the rest in the next steps, at once): one step's inputs stay bounded. */
const DISPATCH_PER_STEP = 200;
const EXCEED = 'States.ExceedToleratedFailureThreshold';

/** A Distributed Map's number field: literal, `*Path` (JSONPath) or expression (JSONata); undefined when absent. */
async function distNumber(
  run: Run,
  th: Thread,
  lit: number | undefined,
  path: CompiledPath | undefined,
  jt: JTemplate | undefined,
  eff: Json | undefined,
  env: JEnv | undefined,
  field: string,
  max: number,
  integer: boolean,
): Promise<number | undefined> {
  let v: Json | undefined = lit;
  if (path) v = readPath(run, th, path, eff ?? null, `${field}Path`);
  else if (jt && env) v = await evalJ(jt, env);
  if (v === undefined) return undefined;
  if (typeof v !== 'number' || !Number.isFinite(v) || v < 0 || v > max || (integer && !Number.isInteger(v))) {
    const why = `The value of the field '${field}' must be ${integer ? 'an integer' : 'a number'} between 0 and ${max}`;
    if (jt) throw new QueryError(why, field);
    throw runtimeError(why);
  }
  return v;
}

/** A Distributed Map starts: its Map Run (idempotent per attempt), then children as they fit (stepDistMap). */
async function startDistMap(run: Run, th: Thread, st: CState, sc: StepCtx, items: Json[], mc: number, eff: Json | undefined, env?: JEnv): Promise<void> {
  const d = st.dist!;
  const runs = run.opts.mapRuns;
  if (!runs) throw runtimeError('A Distributed Map cannot run here');
  const tc = await distNumber(run, th, d.toleratedFailureCount, d.toleratedFailureCountPath, d.jToleratedFailureCount, eff, env, 'ToleratedFailureCount', 2_147_483_647, true);
  const tp = await distNumber(run, th, d.toleratedFailurePercentage, d.toleratedFailurePercentagePath, d.jToleratedFailurePercentage, eff, env, 'ToleratedFailurePercentage', 100, false);
  const lazy = env ? st.jn?.itemSelector !== undefined : st.itemSelector !== undefined;
  th.it = items;
  th.lz = lazy ? 1 : undefined;
  if (lazy && !env) th.mi = eff;
  let bb: number[] | undefined;
  if (d.batched) {
    const maxItems = await distNumber(run, th, d.maxItemsPerBatch, d.maxItemsPerBatchPath, undefined, eff, env, 'MaxItemsPerBatch', 100_000_000, true);
    const maxBytes = await distNumber(run, th, d.maxInputBytesPerBatch, d.maxInputBytesPerBatchPath, undefined, eff, env, 'MaxInputBytesPerBatch', MAX_PAYLOAD, true);
    th.bi = d.batchInput ? d.batchInput(run.env(th, eff ?? null)) : d.jBatchInput && env ? await evalJ(d.jBatchInput, env) : undefined;
    // Batches are cut once, here: a child's items are fixed however often its start is attempted.
    const base = 16 + (th.bi === undefined ? 0 : 14 + jsonSize(th.bi, MAX_PAYLOAD));
    bb = [0];
    let n = 0;
    let bytes = base;
    for (let i = 0; i < items.length; i++) {
      const size = maxBytes ? jsonSize(await iterationInput(run, th, st, i, items[i]), MAX_PAYLOAD) + 1 : 0;
      if (n > 0 && ((maxItems && n >= maxItems) || (maxBytes && bytes + size > maxBytes))) {
        bb.push(i);
        n = 0;
        bytes = base;
      }
      n++;
      bytes += size;
    }
    bb.push(items.length);
    if (items.length === 0) bb = [0];
  }
  const childCount = bb ? bb.length - 1 : items.length;
  const started = run.emit(sc, th, 'MapStateStarted', { mapStateStartedEventDetails: { length: items.length } });
  run.fixups.push(() => (th.se = started.ev.id));
  const key = `${run.attemptKey(th)}#${run.cp.ctx.redriveCount ?? 0}`;
  const arn = await runs.start({
    key,
    label: d.label,
    executionType: d.executionType,
    definition: d.definition,
    maxConcurrency: mc,
    toleratedFailureCount: tc ?? null,
    toleratedFailurePercentage: tp ?? null,
    itemCount: items.length,
    childCount,
  });
  run.emit(sc, th, 'MapRunStarted', { mapRunStartedEventDetails: { mapRunArn: arn } });
  th.mr = arn;
  th.bb = bb;
  th.mc = mc;
  th.p = 'M';
  th.mw = 1;
  return stepDistMap(run, th, st, sc);
}

/** Whether the children that failed, timed out or were aborted pass what the Map tolerates. */
export function toleranceExceeded(p: MapRunProgress): boolean {
  const failed = p.itemsFailed;
  if (failed === 0) return false;
  const c = p.toleratedFailureCount;
  const pct = p.toleratedFailurePercentage;
  if (c === null && pct === null) return true;
  if (c !== null && failed > c) return true;
  return pct !== null && p.itemCount > 0 && (failed * 100) / p.itemCount > pct;
}

/** The Map Run ends with an error: the Map state fails with it (Retry starts a new run, Catch applies). */
async function failDistMap(run: Run, th: Thread, st: CState, sc: StepCtx, error: string, cause: string): Promise<void> {
  await run.opts.mapRuns!.finish(th.mr!, 'FAILED', error, cause);
  run.emit(sc, th, 'MapRunFailed', { mapRunFailedEventDetails: { error, cause } });
  run.emit(sc, th, 'MapStateFailed');
  // Failed for good (no Retry or Catch took it): a RedriveExecution of the job redrives this same run.
  const keep: RedriveKeep = { p: 'M', kd: [], se: th.se, it: th.it, mi: th.mi, lz: th.lz, mc: th.mc, mr: th.mr, bb: th.bb, bi: th.bi, rd: 1 };
  clearMap(th);
  return failKeeping(run, th, st, sc, error, cause, keep);
}

/** A Distributed Map's step: decide from the run's counters (end, fail, or start the children that fit). */
async function stepDistMap(run: Run, th: Thread, st: CState, sc: StepCtx): Promise<void> {
  const runs = run.opts.mapRuns;
  if (!runs || !th.mr) return failThread(th, E.Runtime, 'A Distributed Map cannot run here');
  if (sc.signal?.aborted || run.opts.signal?.aborted) return;
  if (th.rd) {
    // The job was redriven: so is its run (its failed, timed-out and aborted children wait to run again).
    const redriveCount = await runs.redrive(th.mr);
    run.emit(sc, th, 'MapRunRedriven', { mapRunRedrivenEventDetails: { mapRunArn: th.mr, redriveCount } });
    th.rd = undefined;
  }
  const p = await runs.progress(th.mr);
  if (p.status === 'ABORTED') {
    run.emit(sc, th, 'MapRunAborted');
    run.emit(sc, th, 'MapStateAborted');
    clearMap(th);
    return failThread(th, E.Runtime, 'The Map Run was aborted');
  }
  if (toleranceExceeded(p)) return failDistMap(run, th, st, sc, EXCEED, 'The specified tolerated failure threshold was exceeded');
  if (p.succeeded + p.failed + p.timedOut + p.aborted >= p.childCount) {
    const results = await runs.results(th.mr, MAX_PAYLOAD);
    if (results === null) {
      return failDistMap(run, th, st, sc, E.DataLimitExceeded, `The result of the Map state has exceeded the maximum size of ${MAX_PAYLOAD} bytes`);
    }
    await runs.finish(th.mr, 'SUCCEEDED');
    run.emit(sc, th, 'MapRunSucceeded');
    run.emit(sc, th, 'MapStateSucceeded');
    clearMap(th);
    return completeState(run, th, st, sc, results);
  }
  th.mw = undefined;
  const limit = p.maxConcurrency > 0 ? Math.min(p.maxConcurrency, MAX_DIST_CONCURRENCY) : MAX_DIST_CONCURRENCY;
  if (p.pendingRedrive > 0) {
    // Children waiting to be redriven go first, within the same MaxConcurrency; the next step starts more.
    const take = Math.min(limit - p.running, p.pendingRedrive, DISPATCH_PER_STEP);
    if (take <= 0) return;
    await runs.redriveChildren(th.mr, take);
    th.mw = 1;
    return;
  }
  const room = Math.min(limit - p.running, p.childCount - p.started);
  if (room <= 0) return;
  const take = Math.min(room, DISPATCH_PER_STEP);
  const items = th.it ?? [];
  const children: Array<{ input: Json; items: number }> = [];
  try {
    for (let c = p.started; c < p.started + take; c++) {
      let input: Json;
      let n = 1;
      if (th.bb) {
        const batch: Json[] = [];
        for (let i = th.bb[c]; i < th.bb[c + 1]; i++) batch.push(await iterationInput(run, th, st, i, items[i]));
        n = batch.length;
        input = th.bi === undefined ? { Items: batch } : { Items: batch, BatchInput: th.bi };
      } else input = await iterationInput(run, th, st, c, items[c]);
      checkSize(input, 'input of the Map iteration');
      children.push({ input, items: n });
    }
  } catch (e) {
    const err = asAsl(e);
    if (e instanceof QueryError) {
      run.emit(sc, th, 'EvaluationFailed', { evaluationFailedEventDetails: { error: err.error, cause: clip(err.cause), location: e.location, state: st.name } });
    }
    return failDistMap(run, th, st, sc, err.error, err.cause);
  }
  await runs.dispatch(th.mr, p.started, children);
  if (take < room) th.mw = 1;
}

/* ------------------------------------------------------------------------------------------------ wake / display */

/** Earliest time (ms) something in this thread can move; 0 = now; Infinity = never by itself. */
function wakeOf(th: Thread, now: number): number {
  switch (th.p) {
    case 'E':
    case 'T':
      return 0;
    case 'R':
    case 'W': {
      const u = Date.parse(th.u ?? '');
      return Number.isNaN(u) || u <= now ? 0 : u;
    }
    case 'X':
      return externalWake(th, now);
    case 'P':
      return Math.min(Infinity, ...(th.kd ?? []).map((k) => wakeOf(k, now)));
    case 'M': {
      // A Distributed Map waits for its children (their ends wake the job) unless it has more to start now.
      if (th.mr) return th.mw || th.rd ? 0 : now + EXTERNAL_IDLE_MS;
      const kids = th.kd ?? [];
      // The same limit as stepMap: 40 waiting iterations let no other start, so they decide the wake time.
      if (kids.length < mapLimit(th) && (th.nx ?? 0) < (th.it?.length ?? 0)) return 0;
      let w = Infinity;
      for (const k of kids) w = Math.min(w, wakeOf(k, now));
      return w;
    }
    default:
      return Infinity;
  }
}

function activeState(th: Thread): string {
  if (th.p === 'P' || th.p === 'M') {
    const kid = (th.kd ?? []).find((k) => k.p !== 'D' && k.p !== 'F');
    if (kid) return activeState(kid);
  }
  return th.s;
}

/* ------------------------------------------------------------------------------------------------ public */

export function initialCheckpoint(definition: AslDefinition | string, input: Json, ctx: JobContext, now: Date): Checkpoint {
  const m = machineOf(definition);
  const dl = m.timeoutSeconds ? new Date(now.getTime() + m.timeoutSeconds * 1000).toISOString() : null;
  // ExecutionStarted (stored by the caller) counts toward the job's history bytes
  const hb = EVENT_OVERHEAD + 'ExecutionStarted'.length + jsonSize({ executionStartedEventDetails: { input: JSON.stringify(input), inputDetails: NOT_TRUNCATED, roleArn: ctx.roleArn } });
  return { v: 1, ctx, input, nid: 2, hb, dl, root: { s: m.startAt, p: 'E', in: input, l: 0, k: '', n: 0 } };
}

function terminalResult(cp: Checkpoint, events: HistoryEvent[]): Advance {
  const r: Advance = { checkpoint: cp, events, status: cp.st!, currentState: null, wakeAt: null };
  if (cp.out !== undefined) r.output = cp.out;
  if (cp.err !== undefined) r.error = cp.err;
  if (cp.cau !== undefined) r.cause = cp.cau;
  return r;
}

function finalize(run: Run, sink: Sink): HistoryEvent[] {
  const cp = run.cp;
  const resolve = (p: Prev): number => {
    if (typeof p === 'number') return p;
    if (Array.isArray(p)) return p.reduce<number>((m, x) => Math.max(m, resolve(x)), 0);
    return p.ev.id;
  };
  const events: HistoryEvent[] = new Array(sink.length);
  for (let i = 0; i < sink.length; i++) {
    const pe = sink[i];
    pe.ev.id = cp.nid++;
    pe.ev.previousEventId = resolve(pe.prev);
    events[i] = pe.ev;
  }
  for (const [th, pe] of run.lasts) th.l = pe.ev.id;
  for (const f of run.fixups) f();
  cp.hb = run.historyBytes;
  return events;
}

function endJob(run: Run, sink: Sink, status: 'SUCCEEDED' | 'FAILED' | 'TIMED_OUT', error?: string, cause?: string): void {
  const cp = run.cp;
  const root = cp.root;
  const sc: StepCtx = { sink, signal: undefined };
  if (status === 'SUCCEEDED') {
    cp.out = run.text(root.o ?? null);
    run.emit(sc, root, 'ExecutionSucceeded', { executionSucceededEventDetails: { output: cp.out, outputDetails: NOT_TRUNCATED } });
  } else {
    const details: Record<string, string> = {};
    if (error !== undefined) details.error = cp.err = error;
    if (cause !== undefined) details.cause = cp.cau = cause;
    run.emit(sc, root, status === 'FAILED' ? 'ExecutionFailed' : 'ExecutionTimedOut', {
      [status === 'FAILED' ? 'executionFailedEventDetails' : 'executionTimedOutEventDetails']: details,
    });
  }
  cp.st = status;
}

/** The step not taken: the job fails from the checkpoint it had, with only its ExecutionFailed event. */
function failInstead(checkpoint: Checkpoint, m: Machine, opts: AdvanceOptions, cause: string, error: string = E.Runtime): Advance {
  const sink: Sink = [];
  const fresh: Checkpoint = { ...checkpoint, root: cloneThread(checkpoint.root) };
  const run = new Run(fresh, m, opts);
  endJob(run, sink, 'FAILED', error, cause);
  const events = finalize(run, sink);
  fresh.root = { s: fresh.root.s, p: 'F', in: null, l: fresh.root.l, k: '', n: fresh.root.n };
  return terminalResult(fresh, events);
}

export async function advance(
  definition: AslDefinition | string,
  checkpoint: Checkpoint,
  opts: AdvanceOptions,
): Promise<Advance> {
  if (!checkpoint || checkpoint.v !== 1 || !checkpoint.root || typeof checkpoint.nid !== 'number' || !checkpoint.ctx) {
    return { checkpoint, events: [], status: 'FAILED', error: E.Runtime, cause: 'The checkpoint is not valid', currentState: null, wakeAt: null };
  }
  if (checkpoint.st) return terminalResult(checkpoint, []);
  const cp: Checkpoint = { ...checkpoint, root: cloneThread(checkpoint.root) };
  const m = machineOf(definition);
  const run = new Run(cp, m, opts);
  const sink: Sink = [];
  try {
    if (opts.signal?.aborted) {
      return { checkpoint, events: [], status: 'RUNNING', currentState: activeState(checkpoint.root), wakeAt: null };
    }
    if (m.problem) {
      endJob(run, sink, 'FAILED', E.Runtime, m.problem);
    } else if (run.nowMs() >= run.jobDeadline) {
      endJob(run, sink, 'TIMED_OUT', E.Timeout, 'The execution exceeded its TimeoutSeconds');
    } else {
      const r = stepThread(run, cp.root, m, { sink, signal: undefined });
      if (r) await r;
      const root = cp.root;
      const p = root.p as Thread['p'];
      if (p === 'D') endJob(run, sink, 'SUCCEEDED');
      else if (p === 'F') endJob(run, sink, 'FAILED', root.e, root.c);
      else if (run.jobTimedOut || run.nowMs() >= run.jobDeadline) {
        endJob(run, sink, 'TIMED_OUT', E.Timeout, 'The execution exceeded its TimeoutSeconds');
      }
    }
  } catch (e) {
    // a bug or hostile data the steps did not foresee: the job fails, the process does not
    return failInstead(checkpoint, m, opts, asAsl(e).cause);
  }
  const events = finalize(run, sink);
  // The history quota: a step whose events would pass it is not taken; the job fails with one last event instead
  // (a step that ends the job may use the last id, a step that goes on must leave it for that failure).
  const lastId = events.length ? events[events.length - 1].id : 0;
  const max = run.maxHistoryEvents;
  if (lastId > max || (!cp.st && lastId >= max)) {
    return failInstead(checkpoint, m, opts, `The execution reached the maximum number of history events (${max}).`);
  }
  if (events.length > MAX_HISTORY_EVENTS) {
    return failInstead(checkpoint, m, opts, `One step of the execution would take more than ${MAX_HISTORY_EVENTS} history events.`);
  }
  // The history bytes quota, the same way: the step whose events would pass it is not stored.
  if (run.historyBytes > run.maxHistoryBytes) {
    return failInstead(checkpoint, m, opts, `The execution's history reached the maximum size of ${run.maxHistoryBytes} bytes.`, E.DataLimitExceeded);
  }
  if (cp.st) {
    // keep the stored checkpoint small once the job is over: the output/error are in cp.out / cp.err / cp.cau;
    // a failed or timed-out job keeps its threads, from which RedriveExecution resumes (redrive.ts)
    const r = cp.root;
    if (cp.st === 'SUCCEEDED') cp.root = { s: r.s, p: 'D', in: null, l: r.l, k: '', n: r.n };
    else cp.rv = 1;
    return terminalResult(cp, events);
  }
  const now = run.nowMs();
  const w = wakeOf(cp.root, now);
  let wakeAt: string | null = null;
  if (w > 0) {
    const t = Math.min(w, run.jobDeadline);
    wakeAt = Number.isFinite(t) ? new Date(t).toISOString() : null;
  }
  return { checkpoint: cp, events, status: 'RUNNING', currentState: activeState(cp.root), wakeAt };
}

/* ------------------------------------------------------------------------------------------------ JSONata states */

const evalJ = (t: JTemplate, env: JEnv): Promise<Json> => Promise.resolve(evalJTemplate(t, env));

function jsonataStates(run: Run, th: Thread, extra?: JsonObject, ctxExtra?: JsonObject): JsonObject {
  const states: JsonObject = { input: th.in, context: run.context(th, ctxExtra) };
  if (extra) Object.assign(states, extra);
  return states;
}

/** A JSONata field that must give a whole number (TimeoutSeconds, Seconds, MaxConcurrency ...). */
async function intField(t: JTemplate, env: JEnv, field: string, min: number): Promise<number> {
  const v = await evalJ(t, env);
  if (typeof v !== 'number' || !Number.isInteger(v) || v < min) {
    throw new QueryError(`The value of the field '${field}' must be an integer of at least ${min}`, field);
  }
  return v;
}

/** An expression failed: record EvaluationFailed, then the state fails (Task/Parallel/Map: Retry and Catch apply). */
function failJsonata(run: Run, th: Thread, st: CState, sc: StepCtx, e: unknown): void | Promise<void> {
  const err = asAsl(e);
  if (e instanceof QueryError) {
    run.emit(sc, th, 'EvaluationFailed', {
      evaluationFailedEventDetails: { error: err.error, cause: clip(err.cause), location: e.location, state: st.name },
    });
  }
  if (st.type === 'Task' || st.type === 'Parallel' || st.type === 'Map') return handleError(run, th, st, sc, err.error, err.cause);
  failThread(th, err.error, err.cause);
}

async function enterJsonata(run: Run, th: Thread, st: CState, sc: StepCtx): Promise<void> {
  const jn = st.jn!;
  try {
    const env = run.jenv(th, jsonataStates(run, th));
    switch (st.type) {
      case 'Pass': {
        const out = jn.output ? await evalJ(jn.output, env) : th.in;
        const values = jn.assign ? await evalJ(jn.assign, env) : undefined;
        checkSize(out, 'state output');
        return exitWith(run, th, st, sc, out, commitVars(run, th, values));
      }
      case 'Succeed': {
        const out = jn.output ? await evalJ(jn.output, env) : th.in;
        checkSize(out, 'state output');
        const s = run.text(out);
        run.emit(sc, th, 'SucceedStateExited', stateExited(st.name, s));
        clearState(th);
        th.p = 'D';
        th.o = out;
        return;
      }
      case 'Fail': {
        let error: string | undefined;
        let cause: string | undefined;
        if (jn.error) {
          const v = await evalJ(jn.error, env);
          if (typeof v !== 'string') throw new QueryError("The value of the field 'Error' must be a string", 'Error');
          error = v;
        }
        if (jn.cause) {
          const v = await evalJ(jn.cause, env);
          if (typeof v !== 'string') throw new QueryError("The value of the field 'Cause' must be a string", 'Cause');
          cause = v;
        }
        return failThread(th, error === undefined ? undefined : clip(error, 256), cause === undefined ? undefined : clip(cause));
      }
      case 'Choice': {
        let next: string | undefined;
        let output = jn.output;
        let assign = jn.assign;
        for (let i = 0; i < jn.choices.length; i++) {
          const c = jn.choices[i];
          const v = await evalJ(c.cond, env);
          if (typeof v !== 'boolean') {
            throw new QueryError(`The Condition of the choice rule ${i} must evaluate to a boolean`, `Choices[${i}].Condition`);
          }
          if (v) {
            next = c.next;
            // a matching rule's Output and Assign replace the state's
            if (c.output) output = c.output;
            if (c.assign) assign = c.assign;
            break;
          }
        }
        next ??= st.default;
        if (next === undefined || next === '') throw new AslError(E.NoChoiceMatched, 'No Choice Rule matched and no Default was specified');
        const out = output ? await evalJ(output, env) : th.in;
        const values = assign ? await evalJ(assign, env) : undefined;
        return exitChoice(run, sc, th, st.name, next, out, values);
      }
      case 'Wait': {
        let until: number;
        if (jn.seconds) until = run.nowMs() + (await intField(jn.seconds, env, 'Seconds', 0)) * 1000;
        else if (jn.timestamp) {
          const v = await evalJ(jn.timestamp, env);
          if (!isTimestamp(v)) throw new QueryError("The value of the field 'Timestamp' must be an ISO-8601 timestamp", 'Timestamp');
          until = Date.parse(v);
        } else until = run.nowMs();
        const out = jn.output ? await evalJ(jn.output, env) : th.in;
        const values = jn.assign ? await evalJ(jn.assign, env) : undefined;
        if (values !== undefined && (values === null || typeof values !== 'object' || Array.isArray(values))) {
          throw new QueryError("The field 'Assign' must evaluate to a JSON object", 'Assign');
        }
        checkSize(out, 'state output');
        th.o = out;
        if (values) th.pv = values;
        th.u = run.iso(until);
        th.p = 'W';
        return;
      }
      case 'Task':
        return await startJsonataTask(run, th, st, sc, env);
      case 'Parallel':
      case 'Map':
        return await startJsonataBranches(run, th, st, sc, env);
    }
  } catch (e) {
    return failJsonata(run, th, st, sc, e);
  }
}

/** Task: Arguments (the task's input), TimeoutSeconds, HeartbeatSeconds; then scheduled. Also on a retry. */
async function startJsonataTask(run: Run, th: Thread, st: CState, sc: StepCtx, given?: JEnv): Promise<void> {
  const jn = st.jn!;
  try {
    // A callback's task token is new for every attempt ($states.context.Task.Token).
    const ext = externalKind(st.resource);
    th.tk = ext?.kind === 'callback' ? newTaskToken() : undefined;
    const env = given && !th.tk ? given : run.jenv(th, jsonataStates(run, th, undefined, th.tk ? { Task: { Token: th.tk } } : undefined));
    const args = jn.arguments ? await evalJ(jn.arguments, env) : th.in;
    if (jn.arguments) run.note(th, 'afterArguments', args);
    const secs = jn.timeoutSeconds ? await intField(jn.timeoutSeconds, env, 'TimeoutSeconds', 1) : undefined;
    th.hs = undefined;
    if (jn.heartbeatSeconds) {
      const hs = await intField(jn.heartbeatSeconds, env, 'HeartbeatSeconds', 1);
      if (ext) th.hs = hs;
    }
    if (ext && th.hs === undefined && st.heartbeatSeconds !== undefined && Number.isInteger(st.heartbeatSeconds) && st.heartbeatSeconds > 0) th.hs = st.heartbeatSeconds;
    checkSize(args, 'input of the task after Arguments');
    th.ti = args;
    th.ts = secs;
    return scheduleTask(run, th, st, sc);
  } catch (e) {
    return failJsonata(run, th, st, sc, e);
  }
}

/** Parallel (Arguments → every branch's input) and Map (Items, ItemSelector, MaxConcurrency); also on a retry. */
async function startJsonataBranches(run: Run, th: Thread, st: CState, sc: StepCtx, given?: JEnv): Promise<void> {
  const jn = st.jn!;
  try {
    const env = given ?? run.jenv(th, jsonataStates(run, th));
    if (st.type === 'Parallel') {
      const args = jn.arguments ? await evalJ(jn.arguments, env) : th.in;
      if (jn.arguments) run.note(th, 'afterArguments', args);
      return await startParallel(run, th, st, sc, args);
    }
    const items = jn.items ? await evalJ(jn.items, env) : th.in;
    if (!Array.isArray(items)) throw new QueryError("The value of the field 'Items' must be a JSON array", 'Items');
    const mc = jn.maxConcurrency ? await intField(jn.maxConcurrency, env, 'MaxConcurrency', 0) : st.maxConcurrency;
    if (run.mock(th)) {
      run.opts.probe!.limit?.('maxConcurrency', mc);
      if (jn.itemSelector) {
        const selected: Json[] = [];
        for (let i = 0; i < items.length; i++) selected.push(await evalJ(jn.itemSelector, run.jenv(th, jsonataStates(run, th, undefined, { Map: { Item: { Index: i, Value: items[i] } } }))));
        run.note(th, 'afterItemSelector', selected);
      }
      return void (await mockBranches(run, th, st, sc));
    }
    // As in JSONPath: ItemSelector runs when an iteration starts ($states.input is the Map's input, kept in `in`),
    // so at most MaxConcurrency selected inputs exist at once.
    if (st.dist) return await startDistMap(run, th, st, sc, items, mc, undefined, env);
    return await beginMap(run, th, st, sc, items, mc, undefined, jn.itemSelector !== undefined);
  } catch (e) {
    return failJsonata(run, th, st, sc, e);
  }
}

/** Task/Parallel/Map result → Output (default: the result) and Assign, both on `$states.result`. */
async function completeJsonata(run: Run, th: Thread, st: CState, sc: StepCtx, result: Json): Promise<void> {
  const jn = st.jn!;
  try {
    run.note(th, 'result', result);
    const env = run.jenv(th, jsonataStates(run, th, { result }));
    const out = jn.output ? await evalJ(jn.output, env) : result;
    const values = jn.assign ? await evalJ(jn.assign, env) : undefined;
    checkSize(out, 'state output');
    exitWith(run, th, st, sc, out, commitVars(run, th, values));
  } catch (e) {
    return failJsonata(run, th, st, sc, e);
  }
}

/** A matching catcher of a JSONata state: its Output (default: the error output) and Assign on `$states.errorOutput`. */
async function catchJsonata(run: Run, th: Thread, st: CState, sc: StepCtx, c: Catcher, error: string | undefined, cause: string | undefined): Promise<void> {
  try {
    const errorOutput: JsonObject = { Error: error ?? null, Cause: cause ?? null };
    const env = run.jenv(th, jsonataStates(run, th, { errorOutput }));
    const out = c.jOutput ? await evalJ(c.jOutput, env) : errorOutput;
    const values = c.jAssign ? await evalJ(c.jAssign, env) : undefined;
    checkSize(out, 'state output');
    const s = run.text(out);
    const assigned = commitVars(run, th, values);
    run.emit(sc, th, `${st.type}StateExited`, stateExited(st.name, s, assigned));
    clearState(th);
    th.s = c.next;
    th.in = out;
    th.p = 'E';
  } catch (e) {
    const err = asAsl(e);
    if (e instanceof QueryError) {
      run.emit(sc, th, 'EvaluationFailed', {
        evaluationFailedEventDetails: { error: err.error, cause: clip(err.cause), location: e.location, state: st.name },
      });
    }
    failThread(th, err.error, err.cause);
  }
}
