/** Public value types of the workflow engine (see index.ts for the contract). */

export type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
export type JsonObject = { [k: string]: Json };

/** The `$$` context object's static parts. */
export interface JobContext {
  executionArn: string;
  executionName: string;
  startTime: string;
  roleArn: string;
  stateMachineArn: string;
  stateMachineName: string;
  /** RedriveExecution: how many times the job was redriven, and when last ($$.Execution.RedriveCount/RedriveTime). */
  redriveCount?: number;
  redriveTime?: string;
}

/** Step Functions' HistoryEvent shape, ready to store and to return from GetExecutionHistory. */
export interface HistoryEvent {
  id: number;
  previousEventId: number;
  timestamp: string;
  type: string;
  [detailsField: string]: unknown;
}

/** An Amazon States Language definition (already validated by the definitions service). */
export type AslDefinition = { StartAt: string; States: Record<string, unknown>; TimeoutSeconds?: number; [k: string]: unknown };

export interface TaskInvocation {
  /** The Task state's `Resource`, verbatim. */
  resource: string;
  /** The effective input (after InputPath and Parameters): a private copy the task may keep or change. */
  input: Json;
  /** Stable across a crash + resume of the SAME attempt; a retry attempt gets a new key. */
  attemptKey: string;
  /** ISO; the earlier of the task's deadline (TimeoutSeconds/TimeoutSecondsPath) and the job's; survives restarts. */
  deadline: string | null;
  /** Aborted when the job is stopped, times out, the task times out, or a sibling branch fails. */
  signal: AbortSignal;
}

/** What a task throws to fail with an ASL error name (matched by Retry/Catch `ErrorEquals`). */
export class TaskFailure extends Error {
  constructor(
    public error: string,
    public override cause?: string,
  ) {
    super(cause ? `${error}: ${cause}` : error);
    this.name = 'TaskFailure';
  }
}

export type RunTask = (t: TaskInvocation) => Promise<Json>;

export type JobStatus = 'RUNNING' | 'SUCCEEDED' | 'FAILED' | 'TIMED_OUT';

export interface Advance {
  /** Persist together with `events` in ONE transaction before calling advance again. */
  checkpoint: Checkpoint;
  /** New history, ids consecutive, previousEventId pointing at the causing event. */
  events: HistoryEvent[];
  status: JobStatus;
  /** When terminal. */
  output?: string;
  error?: string;
  cause?: string;
  /** Name of the (first) active state, for DescribeExecution-like displays; null when terminal. */
  currentState: string | null;
  /**
   * RUNNING only: null = something is runnable now (call advance again right away); otherwise nothing is runnable
   * before this ISO time (Wait, Retry backoff, job deadline): call advance then.
   */
  wakeAt: string | null;
}

/* ---------------------------------------------------------------------------------------------------------------
 * Checkpoint: opaque to callers. Everything below is internal, JSON-serializable and kept small: short keys, the
 * definition is NOT in it (the caller passes the definition to every advance), data values are shared, not copied.
 * ------------------------------------------------------------------------------------------------------------- */

/** Phase of a thread (one branch of control: the job, a Parallel branch, a Map iteration). */
export type Phase =
  | 'E' // about to enter state `s` with input `in`
  | 'T' // task scheduled (events persisted), next advance runs it
  | 'R' // Retry backoff until `u`; then the state is attempted again
  | 'W' // Wait state until `u`; then it exits
  | 'P' // Parallel state running its branches `k`
  | 'M' // Map state running iterations
  | 'D' // done (Succeed or End), output `o`
  | 'F' // failed with `e`/`c`
  | 'X'; // waiting for an external task (activity worker or callback): see external.ts

export interface Thread {
  /** current state name */
  s: string;
  p: Phase;
  /** raw input of the current state */
  in: Json;
  /** id of this thread's last history event (0 = none yet) */
  l: number;
  /** path prefix of this thread in attempt keys ('' for the job; 'Par@3.0[1]/' for a branch ...) */
  k: string;
  /** number of states entered in this thread so far (distinguishes visits of the same state in a loop) */
  n: number;
  /** when the current state was entered (ISO), for $$.State.EnteredTime */
  et?: string;
  /** attempt number of the current state (0 = first), = $$.State.RetryCount */
  a?: number;
  /** per-retrier attempt counters of the current state */
  rc?: number[];
  /** task: effective input (after InputPath + Parameters) */
  ti?: Json;
  /** task: deadline ISO or null */
  dl?: string | null;
  /** task: timeoutInSeconds as scheduled */
  ts?: number;
  /** wake time (ISO) for W and R */
  u?: string;
  /** Wait: output computed when entered; D: output of the thread */
  o?: Json;
  /** F: error and cause */
  e?: string;
  c?: string;
  /** Parallel: the branch threads; Map: the running iteration threads */
  kd?: Thread[];
  /** Map: the items (`lz` set: ItemSelector is applied when an iteration starts), else iteration inputs */
  it?: Json[];
  /** Map: ItemSelector's input (the Map's effective input), kept when `lz` is set */
  mi?: Json;
  /** Map: 1 = iteration inputs are derived from `it` and `mi` when each iteration starts */
  lz?: number;
  /** Parallel/Map: JSON bytes of the results collected so far (the result may not pass 256 KiB) */
  rb?: number;
  /** Map: results so far (null until an iteration ends) */
  rs?: Json[];
  /** Map: next iteration index to start; number finished */
  nx?: number;
  nd?: number;
  /** Map: the concurrency limit in force (0 = unbounded) */
  mc?: number;
  /** Map iteration: its index */
  ix?: number;
  /** id of the Parallel/MapStateStarted event (previousEventId of its children's first events) */
  se?: number;
  /** workflow variables of this thread's scope (the job's, or a branch's / iteration's own) */
  va?: JsonObject;
  /** their size (UTF-8 bytes of the JSON values) */
  vb?: number;
  /** Wait: variables assigned when the state was entered, committed when it exits */
  pv?: JsonObject;
  /**
   * F of a Parallel/Map state that no Retry or Catch took: its branches / iterations as they ended (and the Map's
   * progress), so RedriveExecution runs only the failed and aborted ones again (redrive.ts). Not walked as live
   * threads (no task of theirs is waited for).
   */
  rk?: RedriveKeep;
  /** external task (external.ts): callback token, heartbeat seconds, heartbeat deadline (ISO), ActivityStarted written */
  tk?: string;
  hs?: number;
  hb?: string | null;
  sd?: 1;
  /** Distributed Map: its Map Run's ARN; where each child's items begin (batches; absent: one item a child) */
  mr?: string;
  bb?: number[];
  /** Distributed Map: ItemBatcher's BatchInput, as evaluated when the Map started */
  bi?: Json;
  /** Distributed Map: children remain to be started now (room was left when the step ended) */
  mw?: 1;
  /** Distributed Map: its Map Run is redriven at the next step (the job was redriven: RedriveExecution) */
  rd?: 1;
}

/** A Map Run as the engine starts it (map-runs: the children are executions of their own). */
export interface MapRunSpec {
  /** The Map attempt (the thread's attempt key): starting it again finds the same run. */
  key: string;
  label: string;
  executionType: 'STANDARD' | 'EXPRESS';
  definition: string;
  maxConcurrency: number;
  /** null: not given (neither given: no failure is tolerated) */
  toleratedFailureCount: number | null;
  toleratedFailurePercentage: number | null;
  itemCount: number;
  childCount: number;
}

/** A Map Run's progress (children by outcome; `started` = the next child's index). */
export interface MapRunProgress {
  status: 'RUNNING' | 'SUCCEEDED' | 'FAILED' | 'ABORTED';
  started: number;
  running: number;
  succeeded: number;
  failed: number;
  timedOut: number;
  aborted: number;
  itemsFailed: number;
  /** children waiting to be redriven (since the run's last redrive) */
  pendingRedrive: number;
  childCount: number;
  itemCount: number;
  maxConcurrency: number;
  toleratedFailureCount: number | null;
  toleratedFailurePercentage: number | null;
}

/** Where a Distributed Map's children live (the runner's map-runs store); without it such a Map fails. */
export interface MapRuns {
  start(spec: MapRunSpec): Promise<string>;
  progress(arn: string): Promise<MapRunProgress>;
  /**
   * Redrive the failed or aborted run: RUNNING again, its failed, timed-out and aborted children waiting to be
   * redriven (succeeded ones stay). The run's redrive count; a run already running again answers its count as is.
   */
  redrive(arn: string): Promise<number>;
  /** Redrive up to `max` of the children waiting to be: how many were. */
  redriveChildren(arn: string, max: number): Promise<number>;
  /** Start children `from`, `from + 1`, … with these inputs (only if `from` is still the next): how many started. */
  dispatch(arn: string, from: number, children: Array<{ input: Json; items: number }>): Promise<number>;
  /** The children's outputs in item order (failed ones: their error output), or null past `maxBytes` of JSON. */
  results(arn: string, maxBytes: number): Promise<Json[] | null>;
  /** The run ends; children still running are aborted. */
  finish(arn: string, status: 'SUCCEEDED' | 'FAILED', error?: string, cause?: string): Promise<void>;
}

export interface RedriveKeep {
  p: 'P' | 'M';
  kd: Thread[];
  se?: number;
  it?: Json[];
  mi?: Json;
  lz?: number;
  rb?: number;
  rs?: Json[];
  nx?: number;
  nd?: number;
  mc?: number;
  /** Distributed Map: the run to redrive (the same run goes on: MapRunRedriven), its batches, BatchInput */
  mr?: string;
  bb?: number[];
  bi?: Json;
  rd?: 1;
}

export interface Checkpoint {
  v: 1;
  ctx: JobContext;
  /** execution input, for $$.Execution.Input */
  input: Json;
  /** next history event id */
  nid: number;
  /** history bytes stored so far (events' details), for the per-job quota */
  hb?: number;
  /** job deadline (ISO) from the top-level TimeoutSeconds */
  dl: string | null;
  root: Thread;
  /** terminal status, with output or error/cause */
  st?: 'SUCCEEDED' | 'FAILED' | 'TIMED_OUT';
  out?: string;
  err?: string;
  cau?: string;
  /** 1: the job ended FAILED/TIMED_OUT with its threads kept, so it can be redriven (redrive.ts) */
  rv?: 1;
  /** the clientToken of the last RedriveExecution (a repeat answers the same redrive) */
  rt?: string;
}

/** A processing step of a state whose data TestState shows (Step Functions' InspectionData members). */
export type ProbeStep =
  | 'afterInputPath'
  | 'afterParameters'
  | 'afterArguments'
  | 'result'
  | 'afterResultSelector'
  | 'afterResultPath'
  | 'afterItemsPath'
  | 'afterItemSelector';

/**
 * TestState (test-state.service.ts) runs one state of the job's root thread with a probe: the engine reports the
 * data after each processing step and what became of an error, and a mock replaces a Map's or Parallel's
 * iterations / branches (a Task's mock is its runTask). Only the root thread is probed.
 */
export interface StateProbe {
  step(step: ProbeStep, value: Json): void;
  /** The state's error and what handled it: a retrier (its index and backoff) or a catcher (its index). */
  error(e: { error?: string; cause?: string; retryIndex?: number; retryBackoffIntervalSeconds?: number; catchIndex?: number }): void;
  /** Map/Parallel/Task limits as evaluated (MaxConcurrency, tolerated failures). */
  limit?(name: 'maxConcurrency' | 'toleratedFailureCount' | 'toleratedFailurePercentage', value: number): void;
  /** The outcome replacing the state's work: Task calls and Map/Parallel branches do not run. */
  mock?: { result: Json } | { error: string; cause: string };
  /** The context object (`$$`, `$states.context`) as given; absent: the job's own. */
  context?: JsonObject;
}
