/**
 * The runner's side of activity and callback tasks (engine/external.ts): registering a waiting task as a row of
 * `workflow_tasks`, reading how it stands (and timing it out, atomically against a worker's SendTask*), and
 * closing the tasks a job no longer waits for (it ended, a sibling branch failed, it was stopped).
 */
import type { DataSource } from 'typeorm';
import { WorkflowActivityEntity, WorkflowTaskEntity } from '../../../../entities/workflow';
import { entityColumns, queryRows } from '../../../db/rows';
import { writeTransaction } from '../../../db/transaction';
import { affected, taskDate, taskKey } from '../activities.service';
import { parseActivityArn } from '../arn';
import type { AppConfig } from '../../../config';
import { ExternalState, ExternalTasks, ExternalTaskSpec, hashTaskToken, TaskFailure } from '../engine';
import { E } from '../engine/errors';

const OPEN = "('SCHEDULED', 'STARTED')";

export class TaskStore {
  constructor(
    private readonly ds: DataSource,
    private readonly config: Pick<AppConfig, 'workflowRegion' | 'workflowAccountId'>,
    /** A task of the activity was scheduled (wake polls here and elsewhere). */
    private readonly scheduled: (activityId: number) => void,
  ) {}

  /** The engine's hooks for one job. */
  forJob(jobId: number): ExternalTasks {
    return {
      schedule: (spec) => this.schedule(jobId, spec),
      check: (attemptKey, now) => this.check(jobId, attemptKey, now),
    };
  }

  async schedule(jobId: number, spec: ExternalTaskSpec): Promise<void> {
    let activityId: number | null = null;
    if (spec.kind === 'activity') {
      let name: string | null = null;
      try {
        name = parseActivityArn(this.config, spec.resource);
      } catch {
        name = null;
      }
      const a = name === null ? null : await this.ds.getRepository(WorkflowActivityEntity).findOne({ where: { name }, select: { id: true } });
      if (!a) throw new TaskFailure('States.Runtime', `Activity Does Not Exist: '${spec.resource.slice(0, 256)}'`);
      activityId = a.id;
    }
    const now = new Date();
    const callback = spec.kind === 'callback';
    const inserted = await writeTransaction(this.ds, async (m) => {
      const n = await affected(
        m,
        `INSERT INTO workflow_tasks (job_id, task_key, kind, activity_id, resource, state_name, status, token_hash, input, scheduled_at, started_at, heartbeat_seconds, heartbeat_until, timeout_at)
  VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (job_id, task_key) DO NOTHING`,
        [
          jobId,
          taskKey(spec.attemptKey),
          spec.kind,
          activityId,
          spec.resource.slice(0, 256),
          spec.stateName.slice(0, 80),
          // A callback's token is out with its own task already: it is started from the beginning.
          callback ? 'STARTED' : 'SCHEDULED',
          callback && spec.token ? hashTaskToken(spec.token) : null,
          spec.input,
          taskDate(m, now),
          callback ? taskDate(m, now) : null,
          spec.heartbeatSeconds,
          taskDate(m, callback && spec.heartbeatSeconds ? new Date(now.getTime() + spec.heartbeatSeconds * 1000) : null),
          taskDate(m, spec.timeoutAt ? new Date(spec.timeoutAt) : null),
        ],
      );
      return n > 0;
    });
    if (inserted && activityId !== null) this.scheduled(activityId);
  }

  async check(jobId: number, attemptKey: string, now: Date): Promise<ExternalState | null> {
    const key = taskKey(attemptKey);
    let row = await this.row(jobId, key);
    if (!row) return null;
    if (row.status === 'SCHEDULED' || row.status === 'STARTED') {
      const timedOut = row.timeoutAt !== null && row.timeoutAt.getTime() <= now.getTime();
      const missed = !timedOut && row.heartbeatUntil !== null && row.heartbeatUntil.getTime() <= now.getTime();
      if (timedOut || missed) {
        const error = timedOut ? E.Timeout : 'States.HeartbeatTimeout';
        const cause = timedOut ? 'The task did not finish within its TimeoutSeconds' : 'The task sent no heartbeat within its HeartbeatSeconds';
        // Closed only if still open and still late (a heartbeat or an answer may have come in between).
        await writeTransaction(this.ds, (m) =>
          affected(
            m,
            `UPDATE workflow_tasks SET status = 'TIMED_OUT', error = ?, cause = ?, closed_at = ? WHERE id = ? AND status IN ${OPEN} AND ${timedOut ? 'timeout_at' : 'heartbeat_until'} <= ?`,
            [error, cause, taskDate(m, now), row!.id, taskDate(m, now)],
          ),
        );
        row = await this.row(jobId, key);
        if (!row) return null;
      }
    }
    const state: ExternalState = {};
    if (row.startedAt && row.kind === 'activity') state.started = { at: row.startedAt.toISOString(), workerName: row.workerName };
    state.heartbeatUntil = row.heartbeatUntil ? row.heartbeatUntil.toISOString() : null;
    switch (row.status) {
      case 'SUCCEEDED':
        state.outcome = { k: 'ok', output: row.output ?? 'null' };
        break;
      case 'FAILED':
        state.outcome = { k: 'err', error: row.error, cause: row.cause };
        break;
      case 'TIMED_OUT':
        state.outcome = { k: 'timeout', error: row.error ?? E.Timeout, cause: row.cause ?? '' };
        break;
      case 'ABORTED':
        // Closed because the job no longer waited for it; a job that waits again (redrive) schedules anew.
        state.outcome = { k: 'err', error: 'States.Runtime', cause: 'The task was aborted' };
        break;
    }
    return state;
  }

  /** One fixed statement (read at every wake of a waiting job: TypeORM's findOne built its query each time). */
  private async row(jobId: number, key: string): Promise<WorkflowTaskEntity | null> {
    const t = entityColumns(this.ds, WorkflowTaskEntity, 't', 't_');
    const [r] = await queryRows(this.ds.manager, `SELECT ${t.select} FROM workflow_tasks t WHERE t.job_id = ? AND t.task_key = ?`, [jobId, key]);
    return r ? t.hydrate(r) : null;
  }

  /** Has anything happened to these waiting tasks that the job has not recorded yet (started, closed)? */
  async news(jobId: number, waiting: Array<{ key: string; started: boolean }>): Promise<boolean> {
    if (!waiting.length) return false;
    const byKey = new Map(waiting.map((w) => [taskKey(w.key), w.started]));
    const rows = await queryRows<{ task_key: string; status: string; kind: string }>(
      this.ds.manager,
      `SELECT task_key, status, kind FROM workflow_tasks WHERE job_id = ? AND task_key IN (${[...byKey.keys()].map(() => '?').join(', ')})`,
      [jobId, ...byKey.keys()],
    );
    return rows.some((r) => (r.status !== 'SCHEDULED' && r.status !== 'STARTED') || (r.kind === 'activity' && r.status === 'STARTED' && !byKey.get(r.task_key)));
  }
}
