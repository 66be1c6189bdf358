/**
 * Distributed Map runs (Step Functions' Map Runs): a run is a row of workflow_map_runs; its children are jobs
 * (workflow_jobs rows with `map_run_id`) that the runner works like any other job, so they are as durable as jobs.
 *
 * - The parent's engine asks for the run (start, idempotent per Map attempt), reads its counters (progress) and
 *   starts children that fit under MaxConcurrency (dispatch: conditional on the run's `started` it read, so a step
 *   redone after a crash cannot start a child twice; children's names are derived from the run and their index, and
 *   unique per definition besides).
 * - A child's end updates the counters in the transaction that writes the end (childEnded) and makes the parent due;
 *   the parent decides (end, fail past the tolerated failures, start more) in its next step.
 * - A run that ends (or whose parent ends) aborts its children still running.
 */
import { createHash, randomUUID } from 'node:crypto';
import type { DataSource, EntityManager } from 'typeorm';
import { WorkflowJobEntity, WorkflowMapRunEntity } from '../../../entities/workflow';
import type { AppConfig } from '../../config';
import type { RequestContext } from '../../context';
import { queryRows, sqlFor } from '../../db/rows';
import { isPostgres, writeTransaction } from '../../db/transaction';
import { NotFoundError, quoteInput, ValidationError } from '../../errors/app-error';
import { decodeCheckpoint, initialCheckpoint, redrivable, redriveCheckpoint } from './engine';
import type { Checkpoint, Json, MapRunProgress, MapRuns, MapRunSpec } from './engine';
import { jobArn, mapRunArn, parseJobArn, parseMapRunArn } from './arn';
import { jobVisible } from './access';
import { WORKFLOW_CODES } from './error-codes';
import { definitionTimeoutSeconds, insertJobEvents, insertJobRows, lastJobEventId, redrivenJobPatch } from './job-rows';

type Config = Pick<AppConfig, 'workflowRegion' | 'workflowAccountId'>;

/** Who hears of started children and of news for a parent (the job service's hooks: runner or queue). */
export interface MapRunHooks {
  childrenStarted(jobs: WorkflowJobEntity[]): void;
  parentNews(jobId: number): void;
  /** children aborted here: a runner working on them stops their step */
  childrenStopped(jobIds: number[]): void;
}

const ENDED_COLUMNS: Record<string, [string, string]> = {
  SUCCEEDED: ['succeeded', 'items_succeeded'],
  FAILED: ['failed', 'items_failed'],
  TIMED_OUT: ['timed_out', 'items_timed_out'],
  ABORTED: ['aborted', 'items_aborted'],
};

async function exec(m: EntityManager, sql: string, params: unknown[]): Promise<number> {
  const res = (await m.queryRunner!.query(sqlFor(m, sql), params, true)) as { affected?: number };
  return res.affected ?? 0;
}

function dbDate(m: EntityManager, d: Date): unknown {
  const col = m.connection.getMetadata(WorkflowJobEntity).findColumnWithPropertyName('stopDate')!;
  return m.connection.driver.preparePersistentValue(d, col);
}

/**
 * A child job ended with `status` (inside the transaction that writes its end): the run's counters, and the parent
 * due now. The parent's id (for a wake-up after commit), or null.
 */
export async function childEnded(m: EntityManager, child: Pick<WorkflowJobEntity, 'mapRunId' | 'itemCount'>, status: string): Promise<number | null> {
  if (child.mapRunId === null || child.mapRunId === undefined) return null;
  const cols = ENDED_COLUMNS[status];
  if (!cols) return null;
  const n = child.itemCount ?? 1;
  const counters = `UPDATE workflow_map_runs SET running = running - 1, items_running = items_running - ?, ${cols[0]} = ${cols[0]} + 1, ${cols[1]} = ${cols[1]} + ?, version = version + 1 WHERE id = ?`;
  const now = dbDate(m, new Date());
  if (isPostgres(m)) {
    // Every end of the run waits for these two rows (the run's counters, then the parent's): one statement takes
    // both, so an end holds them for that statement and its commit, not for three round trips.
    const [row] = await queryRows<{ job_id: number | string }>(
      m,
      `WITH r AS (${counters} RETURNING job_id), w AS (UPDATE workflow_jobs SET wake_at = ? WHERE id = (SELECT job_id FROM r) AND status = 'RUNNING') SELECT job_id FROM r`,
      [n, n, child.mapRunId, now],
    );
    return row ? Number(row.job_id) : null;
  }
  await exec(m, counters, [n, n, child.mapRunId]);
  const [row] = await queryRows<{ job_id: number | string }>(m, 'SELECT job_id FROM workflow_map_runs WHERE id = ?', [child.mapRunId]);
  if (!row) return null;
  const parent = Number(row.job_id);
  await exec(m, "UPDATE workflow_jobs SET wake_at = ? WHERE id = ? AND status = 'RUNNING'", [now, parent]);
  return parent;
}

/** Abort a run's children still running (events and counters); their ids. */
async function abortChildren(m: EntityManager, runId: number, now: Date): Promise<number[]> {
  const rows = await queryRows<{ id: number | string; item_count: number | string | null }>(
    m,
    "SELECT id, item_count FROM workflow_jobs WHERE map_run_id = ? AND status = 'RUNNING'",
    [runId],
  );
  const ids: number[] = [];
  for (const r of rows) {
    const id = Number(r.id);
    const n = await exec(
      m,
      "UPDATE workflow_jobs SET status = 'ABORTED', stop_date = ?, version = version + 1, lease_owner = NULL, lease_until = NULL, wake_at = NULL WHERE id = ? AND status = 'RUNNING'",
      [dbDate(m, now), id],
    );
    if (!n) continue;
    ids.push(id);
    const [last] = await queryRows<{ max: number | string | null }>(m, 'SELECT MAX(event_id) AS max FROM workflow_job_events WHERE job_id = ?', [id]);
    await exec(m, 'INSERT INTO workflow_job_events (job_id, event_id, previous_event_id, type, timestamp, details) VALUES (?, ?, ?, ?, ?, ?)', [
      id,
      Number(last?.max ?? 0) + 1,
      0,
      'ExecutionAborted',
      dbDate(m, now),
      JSON.stringify({ executionAbortedEventDetails: {} }),
    ]);
    const k = Number(r.item_count ?? 1);
    await exec(m, 'UPDATE workflow_map_runs SET running = running - 1, items_running = items_running - ?, aborted = aborted + 1, items_aborted = items_aborted + ?, version = version + 1 WHERE id = ?', [k, k, runId]);
  }
  // Activity and callback tasks of aborted children are closed when their runner next looks (the job is no longer RUNNING).
  return ids;
}

/** The job ended (any way): its runs still running end ABORTED with their children. Ids of aborted children. */
export async function abortRunsOfJob(m: EntityManager, jobId: number, now = new Date()): Promise<number[]> {
  const runs = await queryRows<{ id: number | string }>(m, "SELECT id FROM workflow_map_runs WHERE job_id = ? AND status = 'RUNNING'", [jobId]);
  const ids: number[] = [];
  for (const r of runs) {
    const id = Number(r.id);
    await exec(m, "UPDATE workflow_map_runs SET status = 'ABORTED', stop_date = ?, version = version + 1 WHERE id = ? AND status = 'RUNNING'", [dbDate(m, now), id]);
    ids.push(...(await abortChildren(m, id, now)));
  }
  return ids;
}

/** A child's name: derived from the run and the child's index (UUID-shaped, as Step Functions names children). */
function childName(runArn: string, index: number): string {
  const h = createHash('sha256').update(`${runArn}#${index}`).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`;
}

function progressOf(r: WorkflowMapRunEntity): MapRunProgress {
  return {
    status: r.status,
    started: r.started,
    running: r.running,
    succeeded: r.succeeded,
    failed: r.failed,
    timedOut: r.timedOut,
    aborted: r.aborted,
    itemsFailed: r.itemsFailed + r.itemsTimedOut + r.itemsAborted,
    pendingRedrive: r.pendingRedrive,
    childCount: r.childTotal,
    itemCount: r.itemTotal,
    maxConcurrency: r.maxConcurrency,
    toleratedFailureCount: r.toleratedFailureCount,
    toleratedFailurePercentage: r.toleratedFailurePercentage,
  };
}

/** The checkpoint a job starts from (its definition text, input and start), as the runner makes it for a new job. */
export function startCheckpointOf(job: Pick<WorkflowJobEntity, 'arn' | 'name' | 'input' | 'startDate' | 'roleArn' | 'definitionText'>): Checkpoint {
  return initialCheckpoint(
    job.definitionText,
    JSON.parse(job.input) as Json,
    {
      executionArn: job.arn,
      executionName: job.name,
      startTime: job.startDate.toISOString(),
      roleArn: job.roleArn ?? '',
      stateMachineArn: job.arn.replace(':execution:', ':stateMachine:').replace(/:[^:]*$/, ''),
      stateMachineName: job.arn.split(':')[6] ?? '',
    },
    job.startDate,
  );
}

/** Rows of JSON text read per statement while collecting a run's results. */
const RESULT_PAGE = 500;

/** The engine's MapRuns for one parent job (the runner makes one per job it works on). */
export class JobMapRuns implements MapRuns {
  /** The run versions the last step read (news: a version moved since). */
  private readonly seen = new Map<string, number>();

  constructor(
    private readonly ds: DataSource,
    private readonly config: Config,
    private readonly parent: WorkflowJobEntity,
    private readonly hooks: MapRunHooks,
  ) {}

  private row(m: EntityManager, arn: string): Promise<WorkflowMapRunEntity | null> {
    return m.getRepository(WorkflowMapRunEntity).findOne({ where: { arn, jobId: this.parent.id } });
  }

  async start(spec: MapRunSpec): Promise<string> {
    const key = createHash('sha256').update(spec.key).digest('hex');
    return writeTransaction(this.ds, async (m) => {
      const repo = m.getRepository(WorkflowMapRunEntity);
      const existing = await repo.findOne({ where: { jobId: this.parent.id, key }, select: { arn: true } });
      if (existing) return existing.arn;
      const defName = (parseJobArn(this.config, this.parent.arn)?.definitionName ?? '').split('/')[0];
      const arn = mapRunArn(this.config, defName, spec.label, randomUUID());
      await repo.insert({
        arn,
        jobId: this.parent.id,
        key,
        status: 'RUNNING',
        executionType: spec.executionType,
        definitionText: spec.definition,
        startDate: new Date(),
        stopDate: null,
        maxConcurrency: spec.maxConcurrency,
        toleratedFailureCount: spec.toleratedFailureCount,
        toleratedFailurePercentage: spec.toleratedFailurePercentage,
        itemTotal: spec.itemCount,
        childTotal: spec.childCount,
      });
      return arn;
    });
  }

  async progress(arn: string): Promise<MapRunProgress> {
    const r = await this.row(this.ds.manager, arn);
    if (!r) throw new Error('the Map Run is missing');
    this.seen.set(arn, r.version);
    return progressOf(r);
  }

  /** A run this job waits for changed since its last step read it. */
  async news(): Promise<boolean> {
    for (const [arn, v] of this.seen) {
      const [row] = await queryRows<{ version: number | string }>(this.ds.manager, 'SELECT version FROM workflow_map_runs WHERE arn = ?', [arn]);
      if (row && Number(row.version) !== v) return true;
    }
    return false;
  }

  async redrive(arn: string): Promise<number> {
    return writeTransaction(this.ds, async (m) => {
      const run = await this.row(m, arn);
      if (!run) throw new Error('the Map Run is missing');
      // Already running again (this step is redone after a crash): the redrive happened.
      if (run.status !== 'FAILED' && run.status !== 'ABORTED') return run.redriveCount;
      // The children that did not succeed wait to be redriven (counted apart); those never started start as usual.
      await exec(
        m,
        `UPDATE workflow_map_runs SET status = 'RUNNING', stop_date = NULL, error = NULL, cause = NULL, redrive_count = redrive_count + 1, redrive_date = ?,
           redrive_started = started, pending_redrive = failed + timed_out + aborted, items_pending_redrive = items_failed + items_timed_out + items_aborted,
           failed = 0, timed_out = 0, aborted = 0, items_failed = 0, items_timed_out = 0, items_aborted = 0, version = version + 1
         WHERE id = ? AND status = ?`,
        [dbDate(m, new Date()), run.id, run.status],
      );
      return run.redriveCount + 1;
    });
  }

  async redriveChildren(arn: string, max: number): Promise<number> {
    const redriven = await writeTransaction(this.ds, async (m) => {
      const run = await this.row(m, arn);
      if (!run || run.status !== 'RUNNING' || run.pendingRedrive <= 0 || !run.redriveDate) return [];
      // Waiting: ended without success, started before the run's redrive and not redriven since.
      const kids = await m
        .getRepository(WorkflowJobEntity)
        .createQueryBuilder('j')
        .where('j.map_run_id = :run', { run: run.id })
        .andWhere("j.status IN ('FAILED', 'TIMED_OUT', 'ABORTED')")
        .andWhere('j.item_index < :before', { before: run.redriveStarted })
        .andWhere('(j.redrive_date IS NULL OR j.redrive_date < :since)', { since: dbDate(m, run.redriveDate) })
        .orderBy('j.item_index', 'ASC')
        .limit(Math.min(max, run.pendingRedrive))
        .getMany();
      const now = new Date();
      const jobs: WorkflowJobEntity[] = [];
      let items = 0;
      for (const job of kids) {
        const last = await lastJobEventId(m, job.id);
        const cp = job.checkpoint ? decodeCheckpoint(job.checkpoint) : null;
        // A child that can resume goes on from where it failed (RedriveExecution); one stopped before its first
        // step, or that cannot resume, runs again from its start: either way its succeeded work is not what reruns.
        const from = cp && redrivable(cp, job.status) ? cp : startCheckpointOf(job);
        const count = job.redriveCount + 1;
        const { checkpoint, eventId } = redriveCheckpoint(job.definitionText, from, { now, redriveCount: count, nextEventId: last + 1 });
        const patch = redrivenJobPatch(job, checkpoint, now, count);
        const res = await m.getRepository(WorkflowJobEntity).update({ id: job.id, version: job.version, status: job.status }, patch);
        if (!res.affected) continue;
        await insertJobEvents(m, [
          { jobId: job.id, eventId, previousEventId: last, type: 'ExecutionRedriven', timestamp: now, details: JSON.stringify({ executionRedrivenEventDetails: { redriveCount: count } }) },
        ]);
        jobs.push(Object.assign(job, patch));
        items += job.itemCount ?? 1;
      }
      if (jobs.length) {
        await exec(
          m,
          'UPDATE workflow_map_runs SET pending_redrive = pending_redrive - ?, items_pending_redrive = items_pending_redrive - ?, running = running + ?, items_running = items_running + ?, version = version + 1 WHERE id = ?',
          [jobs.length, items, jobs.length, items, run.id],
        );
      }
      return jobs;
    });
    if (redriven.length) this.hooks.childrenStarted(redriven);
    return redriven.length;
  }

  async dispatch(arn: string, from: number, children: Array<{ input: Json; items: number }>): Promise<number> {
    if (children.length === 0) return 0;
    const items = children.reduce((n, c) => n + c.items, 0);
    const started = await writeTransaction(this.ds, async (m) => {
      const run = await this.row(m, arn);
      if (!run || run.status !== 'RUNNING') return [];
      const ok = await exec(
        m,
        "UPDATE workflow_map_runs SET started = started + ?, running = running + ?, items_started = items_started + ?, items_running = items_running + ?, version = version + 1 WHERE id = ? AND started = ? AND status = 'RUNNING'",
        [children.length, children.length, items, items, run.id, from],
      );
      if (!ok) return [];
      const defName = arn.split(':')[6];
      const timeout = definitionTimeoutSeconds(run.definitionText);
      const now = new Date();
      const jobs: WorkflowJobEntity[] = [];
      for (let i = 0; i < children.length; i++) {
        const name = childName(arn, from + i);
        const input = JSON.stringify(children[i].input);
        const job = m.getRepository(WorkflowJobEntity).create({
          arn: jobArn(this.config, defName, name),
          definitionId: this.parent.definitionId,
          name,
          status: 'RUNNING',
          input,
          output: null,
          error: null,
          cause: null,
          startDate: now,
          stopDate: null,
          startedBy: this.parent.startedBy,
          startedCredential: this.parent.startedCredential,
          roleArn: this.parent.roleArn,
          definitionText: run.definitionText,
          traceHeader: null,
          currentState: null,
          checkpoint: null,
          version: 1,
          leaseOwner: null,
          leaseUntil: null,
          wakeAt: now,
          deadline: timeout ? new Date(now.getTime() + timeout * 1000) : null,
          redriveCount: 0,
          redriveDate: null,
          mapRunId: run.id,
          itemIndex: from + i,
          itemCount: children[i].items,
        });
        jobs.push(job);
      }
      const ids = await insertJobRows(m, jobs);
      jobs.forEach((j, i) => (j.id = ids[i]));
      await insertJobEvents(
        m,
        jobs.map((j) => ({
          jobId: j.id,
          eventId: 1,
          previousEventId: 0,
          type: 'ExecutionStarted',
          timestamp: now,
          details: JSON.stringify({ executionStartedEventDetails: { input: j.input, inputDetails: { truncated: false }, roleArn: this.parent.roleArn ?? '' } }),
        })),
      );
      return jobs;
    });
    if (started.length) this.hooks.childrenStarted(started);
    return started.length;
  }

  async results(arn: string, maxBytes: number): Promise<Json[] | null> {
    const run = await this.row(this.ds.manager, arn);
    if (!run) return null;
    const out: Json[] = [];
    let bytes = 2;
    let after = -1;
    for (;;) {
      // One page of the children's outputs at a time (the result itself is at most maxBytes).
      const rows = await queryRows<{ item_index: number | string; status: string; output: string | null; error: string | null; cause: string | null }>(
        this.ds.manager,
        'SELECT item_index, status, output, error, cause FROM workflow_jobs WHERE map_run_id = ? AND item_index > ? ORDER BY item_index LIMIT ?',
        [run.id, after, RESULT_PAGE],
      );
      for (const r of rows) {
        const value: Json = r.status === 'SUCCEEDED' ? (JSON.parse(r.output ?? 'null') as Json) : { Error: r.error, Cause: r.cause };
        bytes += (r.status === 'SUCCEEDED' ? (r.output ?? 'null').length : JSON.stringify(value).length) + 1;
        if (bytes > maxBytes) return null;
        out.push(value);
        after = Number(r.item_index);
      }
      if (rows.length < RESULT_PAGE) return out;
    }
  }

  async finish(arn: string, status: 'SUCCEEDED' | 'FAILED', error?: string, cause?: string): Promise<void> {
    const aborted = await writeTransaction(this.ds, async (m) => {
      const run = await this.row(m, arn);
      if (!run || run.status !== 'RUNNING') return [];
      const now = new Date();
      await exec(m, "UPDATE workflow_map_runs SET status = ?, stop_date = ?, error = ?, cause = ?, version = version + 1 WHERE id = ? AND status = 'RUNNING'", [
        status,
        dbDate(m, now),
        error ?? null,
        cause ?? null,
        run.id,
      ]);
      return abortChildren(m, run.id, now);
    });
    if (aborted.length) this.hooks.childrenStopped(aborted);
  }
}

/* ------------------------------------------------------------------------------------------------ the API */

export interface MapRunCounts {
  pending: number;
  running: number;
  succeeded: number;
  failed: number;
  timedOut: number;
  aborted: number;
  total: number;
  resultsWritten: number;
  failuresNotRedrivable: number;
  pendingRedrive: number;
}

/**
 * DescribeMapRun's itemCounts and executionCounts of a run (the same for the graph): pending = not started yet;
 * nothing is written to S3 here (resultsWritten 0).
 */
export function mapRunCounts(r: WorkflowMapRunEntity): { itemCounts: MapRunCounts; executionCounts: MapRunCounts } {
  return {
    itemCounts: {
      pending: r.itemTotal - r.itemsStarted,
      running: r.itemsRunning,
      succeeded: r.itemsSucceeded,
      failed: r.itemsFailed,
      timedOut: r.itemsTimedOut,
      aborted: r.itemsAborted,
      total: r.itemTotal,
      resultsWritten: 0,
      failuresNotRedrivable: 0,
      pendingRedrive: r.itemsPendingRedrive,
    },
    executionCounts: {
      pending: r.childTotal - r.started,
      running: r.running,
      succeeded: r.succeeded,
      failed: r.failed,
      timedOut: r.timedOut,
      aborted: r.aborted,
      total: r.childTotal,
      resultsWritten: 0,
      failuresNotRedrivable: 0,
      pendingRedrive: r.pendingRedrive,
    },
  };
}

export function mapRunDoesNotExist(arn: string): NotFoundError {
  return new NotFoundError(`Resource not found: ${quoteInput(arn)}`, { domainCode: WORKFLOW_CODES.MAP_RUN_NOT_FOUND });
}

/** A Map Run whose parent job the viewer may see (ResourceNotFound otherwise; InvalidArn when malformed). */
export async function findMapRun(ctx: RequestContext, arn: string, lock = false): Promise<WorkflowMapRunEntity> {
  if (!parseMapRunArn(ctx.config, arn)) throw mapRunDoesNotExist(arn);
  const run = await ctx.db.getRepository(WorkflowMapRunEntity).findOne({ where: { arn }, ...(lock && ctx.db.connection.options.type === 'postgres' ? { lock: { mode: 'pessimistic_write' as const } } : {}) });
  if (!run) throw mapRunDoesNotExist(arn);
  const job = await ctx.db.getRepository(WorkflowJobEntity).findOne({ where: { id: run.jobId }, select: { id: true, startedBy: true, arn: true } });
  if (!job || !jobVisible(ctx.viewer, job)) throw mapRunDoesNotExist(arn);
  return run;
}

export interface MapRunUpdate {
  mapRunArn: string;
  maxConcurrency?: number;
  toleratedFailurePercentage?: number;
  toleratedFailureCount?: number;
}

export function checkMapRunUpdate(u: MapRunUpdate): void {
  if (u.maxConcurrency === undefined && u.toleratedFailurePercentage === undefined && u.toleratedFailureCount === undefined) {
    throw new ValidationError('Invalid Request: at least one of maxConcurrency, toleratedFailurePercentage and toleratedFailureCount must be given', {
      domainCode: 'MISSING_REQUIRED_PARAMETER',
    });
  }
  if (u.toleratedFailurePercentage !== undefined && !(u.toleratedFailurePercentage >= 0 && u.toleratedFailurePercentage <= 100)) {
    throw new ValidationError("1 validation error detected: Value at 'toleratedFailurePercentage' failed to satisfy constraint: Member must have value between 0 and 100");
  }
}
