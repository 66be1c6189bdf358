/**
 * The task resources a workflow definition may name in a Task state's `Resource`. Each runs as the user who
 * started the job (their roles, through the same services and access checks as the APIs), and fails with an ASL
 * error name a Retry/Catch can match:
 *  - the service's error kind (`NotFound`, `Validation`, `Forbidden`, `Unauthenticated`, `Conflict`, `Gone`,
 *    `RateLimited`, `Unavailable`) with its message as the cause — all of them also match `States.TaskFailed`;
 *  - `fail` fails with the error and cause it is given.
 * Tasks are idempotent, as a job's step may run again after a crash (the engine passes the same attempt key):
 * echo/sleep/fail trivially, bulkUpdateAlerts converges (alerts already changed match no more or change nothing),
 * importEvents is keyed by UID (calendar_event_sources), startScan by the attempt key (a step run again after a
 * crash finds the scan it started; one interrupted by the crash was marked failed at the next start and is replaced).
 */
import type { RequestContext } from '../../../context';
import { AppError } from '../../../errors/app-error';
import type { CalendarImportService } from '../../calendar/import.service';
import type { SecretScanningAlertUpdateService } from '../../secret-scanning/alert-updates';
import type { AlertFilter, AlertUpdate } from '../../secret-scanning/alert-types';
import type { SecretScanningPushService } from '../../secret-scanning/push.service';
import type { WorkflowConnectionService } from '../connections.service';
import { Json, TaskFailure } from '../engine';
import { HTTP_INVOKE, httpInvoke, type HttpTrace } from '../http/invoke';

export interface TaskRun {
  /** The job starter's context, with the credential that started the job (see job-credential.ts). */
  ctx: RequestContext;
  input: Json;
  attemptKey: string;
  signal: AbortSignal;
  /** TestState's inspection of an HTTP task's request and response. */
  trace?: HttpTrace;
}

/** The services tasks call: given by the workflow module (from the modules it requires), never looked up per call. */
export interface TaskServices {
  secretScanningPush: SecretScanningPushService;
  secretScanningAlertUpdates: SecretScanningAlertUpdateService;
  calendarImport: CalendarImportService;
  workflowConnections: WorkflowConnectionService;
}

export interface WorkflowTask {
  description: string;
  run(t: TaskRun, services: TaskServices): Promise<Json>;
}

const ERROR_NAMES: Record<string, string> = {
  NOT_FOUND: 'NotFound',
  BAD_USER_INPUT: 'Validation',
  FORBIDDEN: 'Forbidden',
  UNAUTHENTICATED: 'Unauthenticated',
  CONFLICT: 'Conflict',
  GONE: 'Gone',
  RATE_LIMITED: 'RateLimited',
  SERVICE_UNAVAILABLE: 'Unavailable',
};

/** A service's AppError as the task's ASL error; anything else stays as thrown (States.TaskFailed). */
export function asTaskFailure(e: unknown): unknown {
  if (e instanceof AppError) return new TaskFailure(ERROR_NAMES[e.code] ?? 'States.TaskFailed', e.message);
  return e;
}

const isObject = (v: Json): v is { [k: string]: Json } => v !== null && typeof v === 'object' && !Array.isArray(v);
const bad = (message: string) => new TaskFailure('Validation', message);

function object(input: Json, task: string): { [k: string]: Json } {
  if (!isObject(input)) throw bad(`${task} takes an object`);
  return input;
}

function str(o: { [k: string]: Json }, key: string, task: string, optional = false): string | undefined {
  const v = o[key];
  if (v === undefined && optional) return undefined;
  if (typeof v !== 'string' || v === '') throw bad(`${task}: ${key} must be a non-empty string`);
  return v;
}

/** A list filter value given as an array of strings or a comma-separated string (as the REST query takes it). */
function list(v: Json | undefined, key: string): string[] | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v === 'string') return v.split(',').map((s) => s.trim()).filter(Boolean);
  if (Array.isArray(v) && v.every((x) => typeof x === 'string')) return v as string[];
  throw bad(`secret-scanning.bulkUpdateAlerts: filter.${key} must be a string or an array of strings`);
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const t = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(t);
      reject(signal.reason);
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

export const WORKFLOW_TASKS: Record<string, WorkflowTask> = {
  echo: {
    description: 'Returns its input.',
    run: async ({ input }) => input,
  },
  sleep: {
    description: 'Waits `seconds` (0-3600; a number, or an object with `seconds`), then returns its input.',
    run: async ({ input, signal }) => {
      const seconds = typeof input === 'number' ? input : isObject(input) ? input.seconds : undefined;
      if (typeof seconds !== 'number' || !Number.isFinite(seconds) || seconds < 0 || seconds > 3600) throw bad('sleep: seconds must be a number from 0 to 3600');
      await sleep(seconds * 1000, signal);
      return input;
    },
  },
  fail: {
    description: 'Fails with `error` (default "TaskFailed") and `cause`.',
    run: async ({ input }) => {
      const o = isObject(input) ? input : {};
      throw new TaskFailure(typeof o.error === 'string' && o.error ? o.error.slice(0, 256) : 'TaskFailed', typeof o.cause === 'string' ? o.cause.slice(0, 32_768) : 'The fail task failed, as asked.');
    },
  },
  'secret-scanning.startScan': {
    description: 'Rescans a repository ({ owner, repo, kind? = "backfill" }) and returns the scan as it ended.',
    run: async ({ ctx, input, signal, attemptKey }, services) => {
      const o = object(input, 'secret-scanning.startScan');
      const owner = str(o, 'owner', 'secret-scanning.startScan')!;
      const repo = str(o, 'repo', 'secret-scanning.startScan')!;
      const kind = str(o, 'kind', 'secret-scanning.startScan', true) ?? 'backfill';
      // The attempt key finds the scan a crashed run of this step started (no second scan in the history).
      const started = await services.secretScanningPush.startScan(ctx, { repository: `${owner}/${repo}`, kind, attemptKey });
      signal.throwIfAborted();
      const scan = await started.done;
      if (scan.status === 'failed') throw new TaskFailure('ScanFailed', `The scan of ${owner}/${repo} failed.`);
      return {
        id: scan.id,
        repository: `${owner}/${repo}`,
        kind: scan.kind,
        status: scan.status,
        startedAt: scan.startedAt?.toISOString() ?? null,
        completedAt: scan.completedAt?.toISOString() ?? null,
        alertsFound: scan.alertsFound,
      };
    },
  },
  'secret-scanning.bulkUpdateAlerts': {
    description:
      'Updates the alerts a filter matches ({ owner, repo?, filter: { state, secret_type, resolution, validity, assignee }, update: { state, resolution, resolution_comment, assignee, validity } }), each by the PATCH rules.',
    run: async ({ ctx, input, signal }, services) => {
      const o = object(input, 'secret-scanning.bulkUpdateAlerts');
      const owner = str(o, 'owner', 'secret-scanning.bulkUpdateAlerts')!;
      const repo = str(o, 'repo', 'secret-scanning.bulkUpdateAlerts', true);
      const f = o.filter === undefined ? {} : object(o.filter, 'secret-scanning.bulkUpdateAlerts: filter');
      const u = object(o.update ?? null, 'secret-scanning.bulkUpdateAlerts: update');
      const filter: AlertFilter = {};
      if (f.state !== undefined) filter.state = f.state as string;
      filter.secretTypes = list(f.secret_type ?? f.secretTypes, 'secret_type');
      filter.resolutions = list(f.resolution ?? f.resolutions, 'resolution');
      filter.validities = list(f.validity ?? f.validities, 'validity');
      if (f.assignee !== undefined) filter.assignee = f.assignee as string;
      const update: AlertUpdate = {};
      for (const [from, to] of [['state', 'state'], ['resolution', 'resolution'], ['resolution_comment', 'resolutionComment'], ['assignee', 'assignee'], ['validity', 'validity']] as const) {
        if (from in u) (update as Record<string, unknown>)[to] = u[from];
      }
      const result = await services.secretScanningAlertUpdates.bulkUpdate(ctx, { owner, ...(repo ? { repo } : {}) }, filter, update, signal);
      return result as unknown as Json;
    },
  },
  'calendar.importEvents': {
    description: 'Imports an iCalendar text ({ ics, status? }) into the calendar; repeatable (events keyed by UID).',
    run: async ({ ctx, input, signal }, services) => {
      const o = object(input, 'calendar.importEvents');
      const result = await services.calendarImport.importIcs(ctx, { ics: o.ics, status: o.status }, signal);
      return result as unknown as Json;
    },
  },
  [HTTP_INVOKE]: {
    description:
      'Calls an HTTP API ({ ApiEndpoint, Method, Authentication: { ConnectionArn }, Headers?, QueryParameters?, RequestBody?, Transform? }) as Step Functions\' HTTP task; answers { Headers, ResponseBody, StatusCode, StatusText }. Destinations must be allowed by WORKFLOW_HTTP_ALLOW.',
    run: ({ ctx, input, signal, trace }, services) => httpInvoke(ctx, services.workflowConnections, input, signal, trace),
  },
};

export const WORKFLOW_TASK_NAMES = Object.keys(WORKFLOW_TASKS);

/**
 * Runs the task a Task state names, with the services tasks call (the job runner, Express executions and TestState
 * share it): an unknown resource fails with States.TaskFailed, a service's AppError becomes the task's ASL error.
 * `run` is made only for a known task, inside the error mapping (a context whose credential was revoked fails the task).
 */
export class WorkflowTaskService {
  constructor(private readonly services: TaskServices) {}

  async run(resource: string, run: () => TaskRun | Promise<TaskRun>): Promise<Json> {
    const task = WORKFLOW_TASKS[resource];
    if (!task) throw new TaskFailure('States.TaskFailed', `Unknown task resource ${JSON.stringify(resource.slice(0, 100))}`);
    try {
      return await task.run(await run(), this.services);
    } catch (e) {
      throw asTaskFailure(e);
    }
  }
}
