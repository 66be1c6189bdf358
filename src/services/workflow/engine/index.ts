/**
 * Workflow engine: a PURE Amazon States Language interpreter with durable checkpoints.
 *
 * No database, no HTTP, no timers of its own (the only timer is the one that aborts a running task at its
 * deadline). The whole state of a job is a JSON-serializable {@link Checkpoint}; {@link advance} moves it on by
 * one transition of every runnable branch and returns the new checkpoint with the history events of that step.
 * A runner persists `checkpoint` + `events` in ONE transaction before the next `advance`, and after a crash calls
 * `advance` again on the last persisted checkpoint: nothing is lost and nothing is recorded twice.
 *
 * Contract
 * - `initialCheckpoint(definition, input, ctx, now)` — the checkpoint of a new job. The caller stored event 1
 *   (ExecutionStarted); the engine numbers from 2. A top-level `TimeoutSeconds` becomes an absolute deadline.
 * - `advance(definition, checkpoint, { now, runTask, signal?, random? })` — never throws and never mutates the
 *   checkpoint it is given (so replaying an advance from the same checkpoint is safe). Returns
 *   `{ checkpoint, events, status, output?, error?, cause?, currentState, wakeAt }`:
 *   - `status` RUNNING | SUCCEEDED | FAILED | TIMED_OUT; on a terminal checkpoint advance returns it again, no events.
 *   - `wakeAt` (RUNNING): null = runnable now, call again at once; otherwise nothing can move before that ISO time
 *     (Wait, Retry backoff); it is never later than the job deadline.
 *   - `currentState`: the first active state (descending into Parallel branches / Map iterations).
 * - Tasks: entering a Task yields "scheduled" (TaskStateEntered + TaskScheduled). The NEXT advance calls
 *   `runTask({ resource, input, attemptKey, deadline, signal })`: TaskStarted, then TaskSucceeded / TaskFailed /
 *   TaskTimedOut and the next state, or a Retry (`wakeAt` = backoff), or a Catch. A replayed advance of the same
 *   attempt passes the same `attemptKey` (`<executionArn>#<branch path><state>@<visit>#<attempt>`), tasks use it to
 *   dedupe; a retry attempt gets a new one. Throw {@link TaskFailure}(error, cause) to fail with an ASL error name;
 *   any other exception is `States.TaskFailed` with its message as cause. The task deadline (TimeoutSeconds /
 *   TimeoutSecondsPath) is absolute and stored, so it holds across restarts; past it the signal is aborted and the
 *   task fails with `States.Timeout`. `deadline` given to the task is the earlier of its own and the job's.
 * - `opts.signal`: the job is being stopped. Running tasks see their signal aborted; the returned result should
 *   not be persisted as progress (the runner records the stop itself).
 * - Errors: every runtime problem is an ASL error. `States.Runtime` (paths that match nothing, bad types, invalid
 *   definitions) and `States.DataLimitExceeded` (a state's output over 256 KiB) are terminal: `States.ALL` does not
 *   catch them. `States.TaskFailed` in ErrorEquals matches everything but `States.Timeout`.
 * - Supported: Pass, Task, Choice, Wait, Succeed, Fail, Parallel, Map (inline; ItemSelector/Parameters,
 *   ItemProcessor/Iterator, MaxConcurrency(+Path)); InputPath, Parameters, ResultSelector, ResultPath, OutputPath;
 *   Retry (IntervalSeconds, MaxAttempts, BackoffRate, MaxDelaySeconds, JitterStrategy FULL — deterministic per
 *   attempt key unless `opts.random` is given) and Catch; the intrinsic functions of intrinsics.ts.
 * - JSONata states (`QueryLanguage: "JSONata"`, jsonata.ts, evaluated asynchronously and bounded: a failing or
 *   runaway expression is `States.QueryEvaluationError`, catchable, with an `EvaluationFailed` event) and workflow
 *   variables (`Assign` in both languages, variables.ts), kept in the checkpoint per thread scope.
 * - Definitions are parsed and compiled once per text (or object) and cached.
 */
export type {
  Json,
  JsonObject,
  JobContext,
  HistoryEvent,
  Checkpoint,
  TaskInvocation,
  RunTask,
  Advance,
  AslDefinition,
  JobStatus,
  MapRuns,
  MapRunSpec,
  MapRunProgress,
} from './types';
export type { ProbeStep, StateProbe } from './types';
export { TaskFailure } from './types';
export { initialCheckpoint, advance, type AdvanceOptions } from './interpreter';
export { usesDistributedMap } from './compile';
export { AslError } from './errors';
export { encodeCheckpoint, decodeCheckpoint } from './checkpoint-codec';
export { engineStats } from './bounds';
export { redrivable, redriveCheckpoint } from './redrive';
export {
  externalKind,
  externalWaits,
  hashTaskToken,
  isTaskTokenShape,
  newTaskToken,
  type ExternalOutcome,
  type ExternalState,
  type ExternalTasks,
  type ExternalTaskSpec,
} from './external';
