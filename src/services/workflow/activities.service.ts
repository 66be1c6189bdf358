/**
 * Activities and task tokens (Step Functions' CreateActivity … ListActivities, GetActivityTask, SendTaskSuccess,
 * SendTaskFailure, SendTaskHeartbeat), over the rows of `workflow_tasks` that the runner schedules
 * (runner/task-store.ts). Rules:
 *  - activities are shared by every workflow user, like definitions (reads need workflow read, writes write);
 *  - GetActivityTask and SendTask* need the workflow write permission; SendTask* also the right to act on the task's
 *    job (its starter, its definition's creator, a site admin); the token itself is the capability for one attempt
 *    of one task: random, stored only as its SHA-256, never logged or echoed;
 *  - a task is handed to exactly one worker: the claim is a conditional UPDATE of a SCHEDULED row (PostgreSQL:
 *    picked with FOR UPDATE SKIP LOCKED, so concurrent polls take different tasks without waiting);
 *  - a task is closed exactly once (SUCCEEDED/FAILED here, TIMED_OUT by the runner, ABORTED when its job
 *    stops), by an UPDATE conditional on the row being open; a token of a closed task, or one past its deadlines,
 *    answers TaskTimedOut; a well-formed token of no task TaskDoesNotExist; anything else InvalidToken;
 *  - a closed task (and a worker's start) wakes its job: `wake_at` now in the same transaction, then the hook
 *    kicks a runner at once (the runner's due-jobs poll is the fallback).
 */
import { createHash } from 'node:crypto';
import type { EntityManager } from 'typeorm';
import { WorkflowActivityEntity, WorkflowJobEntity, WorkflowTaskEntity } from '../../../entities/workflow';
import type { RequestContext } from '../../context';
import { withTransaction } from '../../context';
import { entityColumns, queryRows, sqlFor } from '../../db/rows';
import { isPostgres, writeTransaction } from '../../db/transaction';
import { ConflictError, ForbiddenError, NotFoundError, quoteInput, ValidationError } from '../../errors/app-error';
import { jobVisible, requireWorkflowAccess } from './access';
import { ActivityPolls } from './activity-polls';
import { activityArn, parseActivityArn, requireValidName } from './arn';
import { ListArgs, ListPage } from './definitions.service';
import { pageByName } from './lists';
import { hashTaskToken, isTaskTokenShape, newTaskToken } from './engine/external';
import { WORKFLOW_CODES } from './error-codes';
import { checkTags, deleteTagsOf, putTags, Tag } from './tags.service';
import type { PageTokenKeys } from './page-token';
import { describeStartedCredential } from './job-credential';

/** Step Functions' default quota of activities per account and region. */
export const MAX_ACTIVITIES = 100_000;
/** Step Functions: at most 1,000 GetActivityTask polls waiting per activity. */
export const MAX_POLLS_PER_ACTIVITY = 1000;
export const MAX_PAYLOAD_BYTES = 262_144;
const MAX_WORKER_NAME = 80;
const MAX_ERROR = 256;
const MAX_CAUSE = 32_768;

export const OPEN_TASK_STATUSES = ['SCHEDULED', 'STARTED'] as const;

export interface ActivityTask {
  taskToken: string;
  input: string;
}

export interface ActivityHooks {
  /** A task of the job was started or closed (committed): run the job now if this process can. */
  onTaskEvent?(jobId: number): void;
}

export function activityDoesNotExist(arn: string): NotFoundError {
  return new NotFoundError(`Activity Does Not Exist: ${quoteInput(arn)}`, { domainCode: WORKFLOW_CODES.ACTIVITY_DOES_NOT_EXIST });
}

const invalidToken = () => new ValidationError("Invalid Token: 'Invalid token'", { domainCode: WORKFLOW_CODES.INVALID_TASK_TOKEN });
const taskDoesNotExist = () => new NotFoundError('Task Does Not Exist: the task token names no task', { domainCode: WORKFLOW_CODES.TASK_DOES_NOT_EXIST });
const taskTimedOut = () => new ValidationError("Task Timed Out: 'Provided task does not exist anymore'", { domainCode: WORKFLOW_CODES.TASK_TIMED_OUT });

function lengthCheck(field: string, value: string | undefined, max: number): void {
  if (value === undefined) return;
  if (value.length > max) {
    throw new ValidationError(`1 validation error detected: Value at '${field}' failed to satisfy constraint: Member must have length less than or equal to ${max}`);
  }
  if (value.includes('\u0000')) throw new ValidationError(`1 validation error detected: Value at '${field}' failed to satisfy constraint: Member must not contain the NUL character`);
}

/** A date as the driver stores it in workflow_tasks' date columns. */
export function taskDate(m: EntityManager, d: Date | null): unknown {
  if (d === null) return null;
  const col = m.connection.getMetadata(WorkflowTaskEntity).findColumnWithPropertyName('scheduledAt')!;
  return m.connection.driver.preparePersistentValue(d, col);
}

export async function affected(m: EntityManager, sql: string, params: unknown[]): Promise<number> {
  const res = (await m.queryRunner!.query(sqlFor(m, sql), params, true)) as { affected?: number };
  return res.affected ?? 0;
}

/** Wake a job (its runner looks at its tasks now); no version bump: the runner's own writes are not disturbed. */
export async function wakeJob(m: EntityManager, jobId: number, now: Date): Promise<void> {
  await affected(m, "UPDATE workflow_jobs SET wake_at = ? WHERE id = ? AND status = 'RUNNING'", [taskDate(m, now), jobId]);
}

/** The row key of a task attempt (SHA-256 of the engine's attempt key; unique with the job's id). */
export function taskKey(attemptKey: string): string {
  return createHash('sha256').update(attemptKey).digest('hex');
}

/**
 * Inside a write transaction: close the job's open tasks it no longer waits for (all of them when `waiting` is
 * empty: the job ended or was stopped). Their tokens answer TaskTimedOut from now on.
 */
export async function closeOpenTasks(m: EntityManager, jobId: number, waiting: string[] = []): Promise<void> {
  const keys = waiting.map(taskKey);
  await affected(
    m,
    `UPDATE workflow_tasks SET status = 'ABORTED', closed_at = ? WHERE job_id = ? AND status IN ('SCHEDULED', 'STARTED')${keys.length ? ` AND task_key NOT IN (${keys.map(() => '?').join(', ')})` : ''}`,
    [taskDate(m, new Date()), jobId, ...keys],
  );
}

export class WorkflowActivityService {
  /** Signs and checks nextTokens (the key comes from the identity module's secret box). */
  constructor(private readonly tokenKeys: PageTokenKeys) {}

  readonly polls = new ActivityPolls();
  private hooks: ActivityHooks = {};
  private closed = false;

  setHooks(hooks: ActivityHooks): void {
    this.hooks = hooks;
  }

  /** Shutdown: parked polls answer (empty) at once, new ones do not wait. */
  close(): void {
    this.closed = true;
    this.polls.close();
  }

  /* ---------------------------------------------------------------------------------------- activities */

  /** CreateActivity: idempotent on the name (the existing activity is returned). */
  async create(ctx: RequestContext, input: { name: string; tags?: Partial<Tag>[] }): Promise<WorkflowActivityEntity> {
    const userId = requireWorkflowAccess(ctx, 'write');
    const name = requireValidName(input.name);
    const tags = checkTags(input.tags ?? []);
    return withTransaction(ctx, async (tx) => {
      const repo = tx.db.getRepository(WorkflowActivityEntity);
      const existing = await repo.findOne({ where: { name } });
      if (existing) return existing;
      if ((await repo.count()) >= MAX_ACTIVITIES) {
        throw new ValidationError(`Activity Limit Exceeded: at most ${MAX_ACTIVITIES} activities`, { domainCode: WORKFLOW_CODES.ACTIVITY_LIMIT_EXCEEDED });
      }
      const row = await repo.save(repo.create({ arn: activityArn(ctx.config, name), name, createdBy: userId, createdAt: new Date() }));
      await putTags(tx.db, row.arn, tags);
      return row;
    });
  }

  /** The activity an ARN names, or ActivityDoesNotExist (InvalidArn when malformed). */
  async describe(ctx: RequestContext, arn: string): Promise<WorkflowActivityEntity> {
    requireWorkflowAccess(ctx, 'read');
    return this.find(ctx.db, ctx, arn);
  }

  private async find(db: EntityManager, ctx: RequestContext, arn: string): Promise<WorkflowActivityEntity> {
    const name = parseActivityArn(ctx.config, arn);
    const a = name === null ? null : await db.getRepository(WorkflowActivityEntity).findOne({ where: { name } });
    if (!a) throw activityDoesNotExist(arn);
    return a;
  }

  /** DeleteActivity: gone at once (its scheduled tasks time out, as in Step Functions); deleting none is fine. */
  async delete(ctx: RequestContext, arn: string): Promise<void> {
    requireWorkflowAccess(ctx, 'write');
    const name = parseActivityArn(ctx.config, arn);
    if (name === null) return;
    await withTransaction(ctx, async (tx) => {
      await tx.db.getRepository(WorkflowActivityEntity).delete({ name });
      await deleteTagsOf(tx.db, activityArn(ctx.config, name));
    });
  }

  async byId(ctx: RequestContext, id: number): Promise<WorkflowActivityEntity | null> {
    requireWorkflowAccess(ctx, 'read');
    return ctx.db.getRepository(WorkflowActivityEntity).findOne({ where: { id } });
  }

  /** ListActivities: by name, `maxResults` at a time (keyset on the unique name). */
  async list(ctx: RequestContext, args: ListArgs): Promise<ListPage<WorkflowActivityEntity>> {
    requireWorkflowAccess(ctx, 'read');
    const key = await this.tokenKeys.of(ctx);
    return pageByName(ctx, WorkflowActivityEntity, 'ListActivities', key, args);
  }

  /* ---------------------------------------------------------------------------------------- workers */

  /**
   * GetActivityTask: the oldest scheduled task of the activity, taken for this worker; or, when none comes within
   * the poll time (60 s), null (an empty answer). Waiting holds no database connection (activity-polls.ts).
   */
  async getTask(ctx: RequestContext, input: { activityArn: string; workerName?: string; signal?: AbortSignal }): Promise<ActivityTask | null> {
    requireWorkflowAccess(ctx, 'write');
    lengthCheck('workerName', input.workerName, MAX_WORKER_NAME);
    const activity = await this.find(ctx.db, ctx, input.activityArn);
    const credential = describeStartedCredential(ctx.viewer) ?? `user:${ctx.viewer.kind === 'user' ? ctx.viewer.user.id : ''}`;
    const entered = this.polls.enter(activity.id, credential, { perActivity: MAX_POLLS_PER_ACTIVITY, perCredential: ctx.config.workflowActivityPollsPerCredential });
    if (entered === 'activity') {
      throw new ConflictError(`Activity Worker Limit Exceeded: at most ${MAX_POLLS_PER_ACTIVITY} GetActivityTask polls may wait for one activity`, {
        domainCode: WORKFLOW_CODES.ACTIVITY_WORKER_LIMIT_EXCEEDED,
      });
    }
    if (entered === 'credential') {
      throw new ConflictError(
        `Activity Worker Limit Exceeded: this credential already has ${ctx.config.workflowActivityPollsPerCredential} GetActivityTask polls waiting (WORKFLOW_ACTIVITY_POLLS_PER_CREDENTIAL)`,
        { domainCode: WORKFLOW_CODES.ACTIVITY_WORKER_LIMIT_EXCEEDED },
      );
    }
    try {
      const until = Date.now() + ctx.config.workflowActivityPollMs;
      for (;;) {
        if (input.signal?.aborted) return null;
        const task = await this.claim(ctx, activity.id, input.workerName ?? null);
        if (task) return task;
        const left = until - Date.now();
        if (left <= 0 || this.closed) return null;
        await this.polls.wait(activity.id, left, input.signal);
      }
    } finally {
      entered();
    }
  }

  /** Take the oldest scheduled task of the activity (of a running job) for this worker; null when none. */
  private async claim(ctx: RequestContext, activityId: number, workerName: string | null): Promise<ActivityTask | null> {
    const token = newTaskToken();
    const taken = await writeTransaction(ctx.dataSource, async (m) => {
      const pg = isPostgres(m);
      const [row] = await queryRows<{ id: number | string; job_id: number | string; heartbeat_seconds: number | string | null; input: string }>(
        m,
        `SELECT t.id, t.job_id, t.heartbeat_seconds, t.input FROM workflow_tasks t JOIN workflow_jobs j ON j.id = t.job_id
  WHERE t.activity_id = ? AND t.status = 'SCHEDULED' AND j.status = 'RUNNING' ORDER BY t.id LIMIT 1${pg ? ' FOR UPDATE OF t SKIP LOCKED' : ''}`,
        [activityId],
      );
      if (!row) return null;
      const now = new Date();
      const hs = row.heartbeat_seconds === null ? null : Number(row.heartbeat_seconds);
      const n = await affected(
        m,
        "UPDATE workflow_tasks SET status = 'STARTED', token_hash = ?, worker_name = ?, started_at = ?, heartbeat_until = ? WHERE id = ? AND status = 'SCHEDULED'",
        [hashTaskToken(token), workerName, taskDate(m, now), taskDate(m, hs ? new Date(now.getTime() + hs * 1000) : null), Number(row.id)],
      );
      if (!n) return null;
      await wakeJob(m, Number(row.job_id), now);
      return { jobId: Number(row.job_id), input: row.input };
    });
    if (!taken) return null;
    this.hooks.onTaskEvent?.(taken.jobId);
    return { taskToken: token, input: taken.input };
  }

  /** How many tasks of the activity wait to be taken (at most `limit`): the polls' periodic re-check. */
  async pendingCount(m: EntityManager, activityId: number, limit: number): Promise<number> {
    const [row] = await queryRows<{ n: number | string }>(
      m,
      "SELECT COUNT(*) AS n FROM (SELECT 1 FROM workflow_tasks WHERE activity_id = ? AND status = 'SCHEDULED' LIMIT ?) s",
      [activityId, Math.max(1, Math.min(limit, 1000))],
    );
    return Number(row?.n ?? 0);
  }

  /** SendTaskSuccess: `output` must be JSON of at most 256 KiB. */
  async sendSuccess(ctx: RequestContext, input: { taskToken: string; output: string }): Promise<void> {
    requireWorkflowAccess(ctx, 'write');
    const hash = tokenHash(input.taskToken);
    if (Buffer.byteLength(input.output, 'utf8') > MAX_PAYLOAD_BYTES) {
      throw new ValidationError(`Invalid Output: the output is larger than ${MAX_PAYLOAD_BYTES} bytes`, { domainCode: WORKFLOW_CODES.INVALID_OUTPUT });
    }
    try {
      JSON.parse(input.output);
    } catch {
      throw new ValidationError('Invalid Output: the output is not valid JSON', { domainCode: WORKFLOW_CODES.INVALID_OUTPUT });
    }
    if (input.output.includes('\u0000')) throw new ValidationError('Invalid Output: the output contains the NUL character', { domainCode: WORKFLOW_CODES.INVALID_OUTPUT });
    await this.finish(ctx, hash, { status: 'SUCCEEDED', output: input.output, error: null, cause: null });
  }

  /** SendTaskFailure: error at most 256 characters, cause at most 32,768. */
  async sendFailure(ctx: RequestContext, input: { taskToken: string; error?: string; cause?: string }): Promise<void> {
    requireWorkflowAccess(ctx, 'write');
    const hash = tokenHash(input.taskToken);
    lengthCheck('error', input.error, MAX_ERROR);
    lengthCheck('cause', input.cause, MAX_CAUSE);
    await this.finish(ctx, hash, { status: 'FAILED', output: null, error: input.error ?? null, cause: input.cause ?? null });
  }

  /** SendTaskHeartbeat: the heartbeat deadline starts again (no history event). */
  async sendHeartbeat(ctx: RequestContext, input: { taskToken: string }): Promise<void> {
    requireWorkflowAccess(ctx, 'write');
    const hash = tokenHash(input.taskToken);
    await withTransaction(ctx, async (tx) => {
      const row = await openTask(tx, tx.db, hash);
      if (row.heartbeatSeconds === null) return;
      const until = new Date(Date.now() + row.heartbeatSeconds * 1000);
      const n = await affected(tx.db, "UPDATE workflow_tasks SET heartbeat_until = ? WHERE id = ? AND status IN ('SCHEDULED', 'STARTED')", [taskDate(tx.db, until), row.id]);
      if (!n) throw taskTimedOut();
    });
  }

  private async finish(ctx: RequestContext, hash: string, patch: { status: 'SUCCEEDED' | 'FAILED'; output: string | null; error: string | null; cause: string | null }): Promise<void> {
    const jobId = await withTransaction(ctx, async (tx) => {
      const row = await openTask(tx, tx.db, hash);
      const now = new Date();
      const n = await affected(
        tx.db,
        "UPDATE workflow_tasks SET status = ?, output = ?, error = ?, cause = ?, closed_at = ? WHERE id = ? AND status IN ('SCHEDULED', 'STARTED')",
        [patch.status, patch.output, patch.error, patch.cause, taskDate(tx.db, now), row.id],
      );
      if (!n) throw taskTimedOut();
      await wakeJob(tx.db, row.jobId, now);
      return row.jobId;
    });
    this.hooks.onTaskEvent?.(jobId);
  }

  /* ---------------------------------------------------------------------------------------- reads */

  /** The open (scheduled or started) tasks of a job the viewer may see, oldest first. */
  async pendingTasks(ctx: RequestContext, job: WorkflowJobEntity): Promise<WorkflowTaskEntity[]> {
    requireWorkflowAccess(ctx, 'read');
    if (!jobVisible(ctx.viewer, job)) return [];
    return ctx.db
      .getRepository(WorkflowTaskEntity)
      .createQueryBuilder('t')
      .where('t.job_id = :id', { id: job.id })
      .andWhere("t.status IN ('SCHEDULED', 'STARTED')")
      .orderBy('t.id', 'ASC')
      .limit(1000)
      .getMany();
  }

  /** Open activity tasks (the /metrics gauge). */
  async openTaskCount(m: EntityManager): Promise<number> {
    const [row] = await queryRows<{ n: number | string }>(m, "SELECT COUNT(*) AS n FROM workflow_tasks WHERE status IN ('SCHEDULED', 'STARTED')", []);
    return Number(row?.n ?? 0);
  }
}

function tokenHash(token: string): string {
  if (typeof token !== 'string' || token.length < 1 || token.length > 2048 || !isTaskTokenShape(token)) throw invalidToken();
  return hashTaskToken(token);
}

/**
 * The task of a token, locked, while it may still be answered: TaskDoesNotExist when none, TaskTimedOut when it
 * was closed, its job is not running, or a deadline passed (the runner records the timeout).
 */
async function openTask(ctx: RequestContext, m: EntityManager, hash: string): Promise<WorkflowTaskEntity> {
  // The task (locked) with its job's status and owners in one statement.
  const t = entityColumns(m, WorkflowTaskEntity, 't', 't_');
  const [found] = await queryRows<Record<string, unknown> & { job_status: string | null; started_by: number | string | null; created_by: number | string | null }>(
    m,
    `SELECT ${t.select}, j.status AS job_status, j.started_by, d.created_by FROM workflow_tasks t
  LEFT JOIN workflow_jobs j ON j.id = t.job_id LEFT JOIN workflow_definitions d ON d.id = j.definition_id
  WHERE t.token_hash = ?${isPostgres(m) ? ' FOR UPDATE OF t' : ''}`,
    [hash],
  );
  const row = found ? t.hydrate(found) : null;
  if (!row) throw taskDoesNotExist();
  if (row.status !== 'SCHEDULED' && row.status !== 'STARTED') throw taskTimedOut();
  const now = Date.now();
  if ((row.timeoutAt && row.timeoutAt.getTime() <= now) || (row.heartbeatUntil && row.heartbeatUntil.getTime() <= now)) throw taskTimedOut();
  if (found.job_status !== 'RUNNING') throw taskTimedOut();
  // The token is a capability only in the hands of someone who may act on the job: its starter, its
  // definition's creator, a site admin.
  const v = ctx.viewer;
  const userId = v.kind === 'user' ? Number(v.user.id) : NaN;
  const allowed = v.kind === 'user' && (v.user.siteAdmin === true || (found.started_by !== null && Number(found.started_by) === userId) || (found.created_by !== null && Number(found.created_by) === userId));
  if (!allowed) throw new ForbiddenError("The credential may not act on this task's job (only its starter, its state machine's creator or a site admin may).");
  return row;
}
