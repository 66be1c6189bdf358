/**
 * The activity worker (`client.pollActivity`): what every Step Functions user otherwise writes by hand around
 * GetActivityTask. `concurrency` loops each long-poll GetActivityTask, run the handler on the task's input, send
 * SendTaskHeartbeat every `heartbeat` seconds while it runs, and report SendTaskSuccess with the handler's result
 * (as JSON) or SendTaskFailure with the thrown error's name and message.
 *
 * Task tokens are capabilities: the token is never part of what the worker reports (a failure's error and cause
 * have it masked), of a task object's enumerable properties, or of the worker's own error messages.
 *
 * Stopping (`stop()` or the `signal` option) cancels the parked polls and starts no new ones; handlers already
 * running finish and their outcome is still reported before `done` resolves. A task the service hands out exactly
 * as its poll is cancelled may stay with it until the task's timeout (Step Functions' own workers share this).
 */
import { hostname } from 'node:os';
import { InvalidArgumentError, WorkflowServiceException } from './errors';
import type { Result } from './types';

/** What a handler gets besides the input. */
export interface ActivityTask {
  readonly activityArn: string;
  /** The task's input as the service sent it (JSON text). */
  readonly rawInput: string;
  /** The task token (not enumerable, so logging the task does not print it). */
  readonly taskToken: string;
  /**
   * Aborted when the task can no longer be completed: a heartbeat was answered TaskTimedOut, TaskDoesNotExist or
   * InvalidToken. The worker then reports nothing for it.
   */
  readonly signal: AbortSignal;
  /** Sends a heartbeat now, besides the automatic ones. */
  heartbeat(): Promise<void>;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type ActivityHandler<I = any, O = unknown> = (input: I, task: ActivityTask) => O | Promise<O>;

export interface PollActivityOptions {
  /** Tasks polled for and run at the same time (default 1). */
  concurrency?: number;
  /** Seconds between the heartbeats sent while a handler runs (default: none). */
  heartbeat?: number;
  /** GetActivityTask's `workerName` (default `<hostname>-<pid>`, cut to 80 characters). */
  workerName?: string;
  /** Aborting it stops the worker, as `stop()` does. */
  signal?: AbortSignal;
  /**
   * Called with the errors of the worker's own calls (polls, heartbeats, reports). Default: a process warning.
   * Errors the handler throws are not passed here; they become SendTaskFailure.
   */
  onError?: (error: unknown) => void;
}

export interface ActivityWorker {
  /** Stops polling; resolves when the running tasks are reported (as `done`). */
  stop(): Promise<void>;
  /** Resolves once stopped and idle; rejects when polling could not go on (an unknown activity, bad credentials). */
  readonly done: Promise<void>;
  /** Handlers running now. */
  readonly running: number;
}

/** The client calls the worker needs (WorkflowClient provides them). */
export interface ActivityClient {
  call(operation: string, args: Record<string, unknown>): Promise<Result>;
}

/** Step Functions' limits for SendTaskFailure's `error` and `cause` (Unicode code points). */
const ERROR_MAX = 256;
const CAUSE_MAX = 32768;
/** The service answers a long poll within 60 s; give the socket a little more. */
const POLL_TIMEOUT_SECONDS = 70;
const BACKOFF_MIN_MS = 200;
const BACKOFF_MAX_MS = 10_000;
/** Answers that mean the task is gone: reporting it again cannot succeed. */
const TASK_GONE = new Set(['TaskTimedOut', 'TaskDoesNotExist', 'InvalidToken']);
/** Client errors after which polling again is pointless. */
const FATAL_POLL_ERRORS = new Set([
  'ActivityDoesNotExist',
  'InvalidArn',
  'ValidationException',
  'AccessDeniedException',
  'UnrecognizedClientException',
  'InvalidSignatureException',
  'IncompleteSignature',
  'MissingAuthenticationToken',
  'InvalidClientTokenId',
  'UnknownOperationException',
]);

const codeOf = (e: unknown): string | undefined => (e instanceof WorkflowServiceException ? e.code : undefined);

/** The first `max` code points of `s`. */
function cut(s: string, max: number): string {
  if (s.length <= max) return s;
  return Array.from(s).slice(0, max).join('');
}

/** The error name and cause SendTaskFailure reports for a thrown value, with the task token masked. */
export function failureOf(thrown: unknown, taskToken: string): { error: string; cause: string } {
  let error = 'Error';
  let cause: string;
  if (thrown instanceof Error) {
    error = thrown.name || 'Error';
    cause = thrown.message;
  } else if (typeof thrown === 'string') {
    cause = thrown;
  } else {
    try {
      cause = JSON.stringify(thrown) ?? String(thrown);
    } catch {
      cause = String(thrown);
    }
  }
  const mask = (s: string) => (taskToken ? s.split(taskToken).join('[task token]') : s);
  return { error: cut(mask(error), ERROR_MAX), cause: cut(mask(cause), CAUSE_MAX) };
}

function checkOptions(activityArn: unknown, handler: unknown, options: PollActivityOptions): void {
  if (typeof activityArn !== 'string' || activityArn === '') throw new InvalidArgumentError('pollActivity: activityArn must be a non-empty string');
  if (typeof handler !== 'function') throw new InvalidArgumentError('pollActivity: the handler must be a function');
  if (options === null || typeof options !== 'object') throw new InvalidArgumentError('pollActivity: the options must be an object');
  const { concurrency, heartbeat, workerName, signal, onError } = options;
  if (concurrency !== undefined && (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > 1000)) {
    throw new InvalidArgumentError('pollActivity: concurrency must be an integer from 1 to 1000');
  }
  if (heartbeat !== undefined && (typeof heartbeat !== 'number' || !Number.isFinite(heartbeat) || heartbeat <= 0)) {
    throw new InvalidArgumentError('pollActivity: heartbeat must be a positive number of seconds');
  }
  if (workerName !== undefined && (typeof workerName !== 'string' || workerName === '')) throw new InvalidArgumentError('pollActivity: workerName must be a non-empty string');
  if (signal !== undefined && !(signal instanceof AbortSignal)) throw new InvalidArgumentError('pollActivity: signal must be an AbortSignal');
  if (onError !== undefined && typeof onError !== 'function') throw new InvalidArgumentError('pollActivity: onError must be a function');
}

export function startActivityWorker(client: ActivityClient, activityArn: string, handler: ActivityHandler, options: PollActivityOptions = {}): ActivityWorker {
  checkOptions(activityArn, handler, options);
  const concurrency = options.concurrency ?? 1;
  const heartbeatMs = options.heartbeat !== undefined ? options.heartbeat * 1000 : undefined;
  const workerName = cut(options.workerName ?? `${hostname()}-${process.pid}`, 80);
  const onError =
    options.onError ??
    ((e: unknown) => process.emitWarning(`Activity worker: ${e instanceof Error ? e.message : String(e)}`, 'ActivityWorkerWarning'));
  const report = (e: unknown) => {
    try {
      onError(e);
    } catch {
      // a failing onError must not stop the worker
    }
  };

  const stopping = new AbortController();
  let running = 0;
  let fatal: unknown;

  const pause = (ms: number) =>
    new Promise<void>((resolve) => {
      if (stopping.signal.aborted) return resolve();
      const done = () => {
        clearTimeout(timer);
        stopping.signal.removeEventListener('abort', done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      stopping.signal.addEventListener('abort', done, { once: true });
    });

  const runTask = async (taskToken: string, rawInput: string): Promise<void> => {
    const lost = new AbortController();
    const heartbeat = async (): Promise<void> => {
      try {
        await client.call('SendTaskHeartbeat', { taskToken });
      } catch (e) {
        if (TASK_GONE.has(codeOf(e) ?? '')) lost.abort(new Error(`The task can no longer be completed (${codeOf(e)})`));
        throw e;
      }
    };
    const task = Object.defineProperties({} as ActivityTask, {
      activityArn: { value: activityArn, enumerable: true },
      rawInput: { value: rawInput, enumerable: true },
      taskToken: { value: taskToken, enumerable: false },
      signal: { value: lost.signal, enumerable: true },
      heartbeat: { value: heartbeat, enumerable: false },
    });

    // Heartbeats follow each other (never two in flight), `heartbeat` seconds apart, until the handler settles.
    let beating = heartbeatMs !== undefined;
    let timer: NodeJS.Timeout | undefined;
    const schedule = () => {
      if (!beating || lost.signal.aborted) return;
      timer = setTimeout(() => {
        heartbeat().catch((e: unknown) => {
          if (!lost.signal.aborted) report(e);
        }).finally(schedule);
      }, heartbeatMs);
    };
    schedule();

    let outcome: { ok: true; output: string } | { ok: false; error: string; cause: string };
    try {
      let input: unknown;
      try {
        input = JSON.parse(rawInput);
      } catch {
        input = rawInput;
      }
      const result = await handler(input, task);
      const output = JSON.stringify(result === undefined ? null : result);
      outcome = { ok: true, output };
    } catch (thrown) {
      outcome = { ok: false, ...failureOf(thrown, taskToken) };
    } finally {
      beating = false;
      if (timer) clearTimeout(timer);
    }
    if (lost.signal.aborted) return;

    try {
      if (outcome.ok) {
        try {
          await client.call('SendTaskSuccess', { taskToken, output: outcome.output });
          return;
        } catch (e) {
          // The service refused the result itself (too large, not accepted): fail the task with its reason, so
          // the job's Catch / Retry decide instead of a timeout.
          if (!(e instanceof WorkflowServiceException) || e.type !== 'client' || e.throttling || TASK_GONE.has(e.code ?? '')) throw e;
          report(e);
          await client.call('SendTaskFailure', { taskToken, ...failureOf(Object.assign(new Error(e.message), { name: e.code ?? 'Error' }), taskToken) });
          return;
        }
      }
      await client.call('SendTaskFailure', { taskToken, error: outcome.error, cause: outcome.cause });
    } catch (e) {
      report(e);
    }
  };

  const loop = async (): Promise<void> => {
    let backoff = 0;
    while (!stopping.signal.aborted && fatal === undefined) {
      let answer: Result;
      try {
        answer = await client.call('GetActivityTask', {
          activityArn,
          workerName,
          '@http': { signal: stopping.signal, timeout: POLL_TIMEOUT_SECONDS },
        });
        backoff = 0;
      } catch (e) {
        if (stopping.signal.aborted) return;
        report(e);
        const code = codeOf(e);
        if (e instanceof InvalidArgumentError || (code !== undefined && FATAL_POLL_ERRORS.has(code))) {
          fatal ??= e;
          stopping.abort();
          return;
        }
        backoff = Math.min(BACKOFF_MAX_MS, backoff === 0 ? BACKOFF_MIN_MS : backoff * 2);
        await pause(backoff);
        continue;
      }
      const token = typeof answer.taskToken === 'string' ? answer.taskToken : '';
      if (token === '') continue; // the long poll ended without a task
      running++;
      try {
        await runTask(token, typeof answer.input === 'string' ? answer.input : 'null');
      } finally {
        running--;
      }
    }
  };

  const stop = () => {
    stopping.abort();
    return done;
  };
  const onAbort = () => stopping.abort();
  if (options.signal?.aborted) stopping.abort();
  else options.signal?.addEventListener('abort', onAbort, { once: true });

  const done = Promise.all(Array.from({ length: concurrency }, () => loop())).then(() => {
    options.signal?.removeEventListener('abort', onAbort);
    if (fatal !== undefined) throw fatal;
  });
  // `done` rejects for whoever awaits it; an unobserved rejection must not end the process.
  done.catch(() => undefined);

  return {
    stop,
    done,
    get running() {
      return running;
    },
  };
}
