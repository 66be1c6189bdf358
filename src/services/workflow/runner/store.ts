/**
 * The runner's writes as fixed SQL texts (one prepared statement each on both databases), in write transactions:
 * a transition is one UPDATE of the job (conditional on the version held, RUNNING and our lease) plus its history
 * events (one INSERT of them all on PostgreSQL, one prepared INSERT per event on SQLite). TypeORM's update/insert builders made a new statement text per patch shape and cost more than the
 * statements themselves at hundreds of jobs a second.
 */
import type { DataSource, EntityManager } from 'typeorm';
import { WorkflowJobEntity } from '../../../../entities/workflow';
import { entityColumns, sqlFor } from '../../../db/rows';
import { writeTransaction } from '../../../db/transaction';
import type { HistoryEvent } from '../engine';
import { insertJobEvents } from '../job-rows';

export interface Transition {
  checkpoint: string;
  currentState: string | null;
  status: string;
  output: string | null;
  error: string | null;
  cause: string | null;
  stopDate: Date | null;
  leaseOwner: string | null;
  /** The lease from now (null: none). */
  leaseMs: number | null;
  wakeAt: Date | null;
  /** `wakeAt` is a time to wait for (a Wait, a retry's backoff), not "now": it is written as given. */
  waits?: boolean;
}

/**
 * Lease times come from the database's clock on PostgreSQL (workers on several machines share it; their own clocks may
 * disagree, and a worker whose clock runs ahead would take live leases). SQLite is a file of this machine: its
 * processes share this machine's clock, passed as a parameter.
 */
/**
 * A transition that goes on at once (`Transition.wakeAt` now, no wait) keeps a wake time that is already due: the job
 * stays due for any runner should its lease end, and the row's indexed columns stay as they were, so PostgreSQL can
 * update it in place (a HOT update) instead of adding an entry to each of the table's indexes on every transition.
 * Parameters: keep (boolean), the new wake time, the new wake time again.
 */
const WAKE = 'CASE WHEN ? AND wake_at <= ? THEN wake_at ELSE ? END';

function statements(postgres: boolean) {
  const now = postgres ? "(now() AT TIME ZONE 'UTC')" : '?';
  const until = postgres ? `(now() AT TIME ZONE 'UTC') + CAST(? AS integer) * interval '1 millisecond'` : '?';
  return {
    /** `RETURNING` the claimed row (the columns' list is the caller's: entityColumns over the table's own name). */
    CLAIM: `UPDATE workflow_jobs SET lease_owner = ?, lease_until = ${until}, version = version + 1
  WHERE id = ? AND status = 'RUNNING' AND (lease_until IS NULL OR lease_until < ${now} OR lease_owner = ?) RETURNING `,
    PERSIST: `UPDATE workflow_jobs SET checkpoint = ?, version = ?, current_state = ?, status = ?, output = ?, error = ?, cause = ?,
  stop_date = ?, lease_owner = ?, lease_until = CASE WHEN ? THEN ${until} ELSE NULL END, wake_at = ${WAKE}
  WHERE id = ? AND version = ? AND status = 'RUNNING' AND lease_owner = ?`,
    /**
     * A job's last transition: PERSIST, answering its definition's status (a DELETING definition goes with its last
     * job: finishDeletion) in the same statement instead of a read after it.
     */
    PERSIST_END: `UPDATE workflow_jobs SET checkpoint = ?, version = ?, current_state = ?, status = ?, output = ?, error = ?, cause = ?,
  stop_date = ?, lease_owner = ?, lease_until = CASE WHEN ? THEN ${until} ELSE NULL END, wake_at = ${WAKE}
  WHERE id = ? AND version = ? AND status = 'RUNNING' AND lease_owner = ?
  RETURNING (SELECT d.status FROM workflow_definitions d WHERE d.id = workflow_jobs.definition_id) AS definition_status`,
    RENEW: `UPDATE workflow_jobs SET lease_until = ${until} WHERE id = ? AND version = ? AND status = 'RUNNING' AND lease_owner = ?`,
    RELEASE: 'UPDATE workflow_jobs SET lease_owner = NULL, lease_until = NULL, version = ? WHERE id = ? AND version = ? AND lease_owner = ?',
    /** Jobs whose wake time has come and whose lease is free or expired, oldest first. */
    DUE: `SELECT id FROM workflow_jobs WHERE status = 'RUNNING' AND wake_at <= ${now} AND (lease_until IS NULL OR lease_until < ${now}) ORDER BY wake_at LIMIT ?`,
  };
}

/**
 * The runner's transactions reach the database only through their manager (its fixed statements, and persist's `then`
 * given that manager: closeOpenTasks, abortRunsOfJob, childEnded, finishDeletion).
 */
const MANAGER_ONLY = { managerOnly: true } as const;

export class RunnerStore {
  private readonly toDb: (d: Date | null) => unknown;
  private readonly sql: ReturnType<typeof statements>;
  private readonly postgres: boolean;
  private claimSql: string | undefined;

  constructor(private readonly ds: DataSource) {
    const col = ds.getMetadata(WorkflowJobEntity).findColumnWithPropertyName('wakeAt')!;
    this.toDb = (d) => (d === null ? null : ds.driver.preparePersistentValue(d, col));
    this.postgres = ds.options.type === 'postgres';
    this.sql = statements(this.postgres);
  }

  /** Parameters of a "now" (none on PostgreSQL: the database's clock). */
  private now(): unknown[] {
    return this.postgres ? [] : [this.toDb(new Date())];
  }

  /** Parameters of "now + ms" (PostgreSQL: the milliseconds; SQLite: the time). */
  private until(ms: number): unknown[] {
    return [this.postgres ? Math.round(ms) : this.toDb(new Date(Date.now() + ms))];
  }

  /** Ids of due jobs whose lease is free or expired, oldest wake time first. */
  async due(limit: number): Promise<number[]> {
    const now = this.now();
    const rows = (await this.ds.query(sqlFor(this.ds, this.sql.DUE), [...now, ...now, limit])) as Array<{ id: number | string }>;
    return rows.map((r) => Number(r.id));
  }

  /** A date as the driver stores it (for comparisons in SQL). */
  date(d: Date): unknown {
    return this.toDb(d);
  }

  private async run(m: EntityManager, sql: string, params: unknown[]): Promise<number> {
    const res = (await m.queryRunner!.query(sqlFor(m, sql), params, true)) as { affected?: number };
    return res.affected ?? 0;
  }

  /**
   * Take the job's lease (free, expired, or ours) and bump its version; the row as claimed, or null. One statement
   * (UPDATE ... RETURNING the row, both databases): the claim and the read of what was claimed cannot part.
   */
  claim(jobId: number, owner: string, leaseMs: number): Promise<WorkflowJobEntity | null> {
    const j = entityColumns(this.ds, WorkflowJobEntity, 'workflow_jobs', 'j_');
    const sql = (this.claimSql ??= sqlFor(this.ds, this.sql.CLAIM + j.select));
    return writeTransaction(
      this.ds,
      async (m) => {
        const res = (await m.queryRunner!.query(sql, [owner, ...this.until(leaseMs), jobId, ...this.now(), owner], true)) as { records?: Array<Record<string, unknown>> };
        const row = res.records?.[0];
        return row ? j.hydrate(row) : null;
      },
      MANAGER_ONLY,
    );
  }

  /**
   * Write one transition and its events in one transaction, conditional on `version`, RUNNING and our lease;
   * `then` runs in the same transaction after a successful write, given (for a transition that ends the job) the
   * status of the job's definition, null when it is gone. False when the job was stopped or taken.
   */
  persist(
    jobId: number,
    version: number,
    owner: string,
    t: Transition,
    events: HistoryEvent[],
    then?: (m: EntityManager, definitionStatus: string | null | undefined) => Promise<unknown>,
  ): Promise<boolean> {
    const ending = t.status !== 'RUNNING';
    return writeTransaction(this.ds, async (m) => {
      const res = (await m.queryRunner!.query(sqlFor(m, ending ? this.sql.PERSIST_END : this.sql.PERSIST), [
        t.checkpoint,
        version + 1,
        t.currentState,
        t.status,
        t.output,
        t.error,
        t.cause,
        this.toDb(t.stopDate),
        t.leaseOwner,
        t.leaseMs !== null,
        ...this.until(t.leaseMs ?? 0),
        t.wakeAt !== null && !t.waits,
        this.toDb(t.wakeAt),
        this.toDb(t.wakeAt),
        jobId,
        version,
        owner,
      ], true)) as { affected?: number; records?: Array<{ definition_status: string | null }> };
      const row = ending ? res.records?.[0] : undefined;
      if (ending ? !row : !res.affected) return false;
      // PostgreSQL: the step's events in one statement (a round trip per event was most of a Pass step's statements)
      if (events.length) {
        await insertJobEvents(
          m,
          events.map(({ id, previousEventId, timestamp, type, ...details }) => ({ jobId, eventId: id, previousEventId, type, timestamp: new Date(timestamp), details: JSON.stringify(details) })),
        );
      }
      if (then) await then(m, row ? row.definition_status : undefined);
      return true;
    }, MANAGER_ONLY);
  }

  renew(jobId: number, version: number, owner: string, leaseMs: number): Promise<boolean> {
    return writeTransaction(this.ds, async (m) => (await this.run(m, this.sql.RENEW, [...this.until(leaseMs), jobId, version, owner])) > 0, MANAGER_ONLY);
  }

  release(jobId: number, version: number, owner: string): Promise<boolean> {
    return writeTransaction(this.ds, async (m) => (await this.run(m, this.sql.RELEASE, [version + 1, jobId, version, owner])) > 0, MANAGER_ONLY);
  }
}
