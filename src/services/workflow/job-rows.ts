/**
 * The rows of workflow jobs and their history as fixed statements: the job service (StartExecution, StopExecution,
 * RedriveExecution), Distributed Map runs (children started and redriven in a parent's step) and the runner write
 * them. Their own file so that map-runs.ts and jobs.service.ts, which call each other's rules, need not require
 * each other at load time.
 */
import type { ColumnMetadata } from 'typeorm/metadata/ColumnMetadata';
import type { EntityManager } from 'typeorm';
import { WorkflowJobEntity, WorkflowJobEventEntity } from '../../../entities/workflow';
import { queryRows, sqlFor } from '../../db/rows';
import { rootDataSource } from '../../db/request-cancel';
import { Checkpoint, encodeCheckpoint } from './engine';
import { TextKeyedCache } from './text-cache';

const JOB_COLUMNS = [
  ['arn', 'arn'],
  ['definition_id', 'definitionId'],
  ['name', 'name'],
  ['status', 'status'],
  ['input', 'input'],
  ['start_date', 'startDate'],
  ['started_by', 'startedBy'],
  ['started_credential', 'startedCredential'],
  ['role_arn', 'roleArn'],
  ['definition_text', 'definitionText'],
  ['version_arn', 'versionArn'],
  ['alias_arn', 'aliasArn'],
  ['revision_id', 'revisionId'],
  ['revision_date', 'revisionDate'],
  ['trace_header', 'traceHeader'],
  ['version', 'version'],
  ['lease_owner', 'leaseOwner'],
  ['lease_until', 'leaseUntil'],
  ['wake_at', 'wakeAt'],
  ['deadline', 'deadline'],
  ['map_run_id', 'mapRunId'],
  ['item_index', 'itemIndex'],
  ['item_count', 'itemCount'],
] as const;
const INSERT_JOB = `INSERT INTO workflow_jobs (${JOB_COLUMNS.map(([c]) => c).join(', ')}) VALUES (${JOB_COLUMNS.map(() => '?').join(', ')})`;
/** PostgreSQL, a job written leased: its lease ends on the database's clock (as the runner's leases do, store.ts). */
const INSERT_LEASED_JOB_PG = `INSERT INTO workflow_jobs (${JOB_COLUMNS.map(([c]) => c).join(', ')}) VALUES (${JOB_COLUMNS.map(([c]) =>
  c === 'lease_until' ? `(now() AT TIME ZONE 'UTC') + CAST(? AS integer) * interval '1 millisecond'` : '?',
).join(', ')})`;
const INSERT_EVENT = 'INSERT INTO workflow_job_events (job_id, event_id, previous_event_id, type, timestamp, details) VALUES (?, ?, ?, ?, ?, ?)';

/** Column metadata by entity and property, per DataSource (looked up on every job start otherwise). */
const COLUMN_CACHE = new WeakMap<object, Map<string, ColumnMetadata>>();

/** Values as the driver stores them (dates in the column's format). */
function persistent(m: EntityManager, entity: typeof WorkflowJobEntity | typeof WorkflowJobEventEntity, property: string, value: unknown): unknown {
  if (value === null || value === undefined) return null;
  let cols = COLUMN_CACHE.get(rootDataSource(m.connection));
  if (!cols) COLUMN_CACHE.set(rootDataSource(m.connection), (cols = new Map()));
  const key = `${entity.name}.${property}`;
  let col = cols.get(key);
  if (!col) cols.set(key, (col = m.connection.getMetadata(entity).findColumnWithPropertyName(property)!));
  return m.connection.driver.preparePersistentValue(value, col);
}

/** The job row of a job redriven from `checkpoint` (RedriveExecution, and a map run's children when it is redriven). */
export function redrivenJobPatch(job: Pick<WorkflowJobEntity, 'version'>, checkpoint: Checkpoint, now: Date, redriveCount: number) {
  return {
    status: 'RUNNING' as const,
    stopDate: null,
    output: null,
    error: null,
    cause: null,
    checkpoint: encodeCheckpoint(checkpoint),
    version: job.version + 1,
    leaseOwner: null,
    leaseUntil: null,
    wakeAt: now,
    deadline: checkpoint.dl ? new Date(checkpoint.dl) : null,
    redriveCount,
    redriveDate: now,
  };
}

/** The id of a job's last history event (0 when none): a stop or a failure outside the engine numbers after it. */
export async function lastJobEventId(m: EntityManager, jobId: number): Promise<number> {
  const [row] = await queryRows<{ max: number | string | null }>(m, 'SELECT MAX(event_id) AS max FROM workflow_job_events WHERE job_id = ?', [jobId]);
  return Number(row?.max ?? 0);
}

/**
 * Insert a job row (inside a transaction); its id. `leaseMs`: the job is leased (to `job.leaseOwner`) for that long
 * from now, on the database's clock on PostgreSQL (workers on other machines compare leases on it).
 */
export async function insertJobRow(m: EntityManager, job: WorkflowJobEntity, leaseMs?: number): Promise<number> {
  const values = JOB_COLUMNS.map(([, p]) => persistent(m, WorkflowJobEntity, p, job[p]));
  if (m.connection.options.type === 'postgres') {
    const leased = leaseMs !== undefined;
    if (leased) values[JOB_COLUMNS.findIndex(([c]) => c === 'lease_until')] = Math.round(leaseMs);
    const rows = (await m.query(`${sqlFor(m, leased ? INSERT_LEASED_JOB_PG : INSERT_JOB)} RETURNING id`, values)) as Array<{ id: number | string }>;
    return Number(rows[0].id);
  }
  const res = (await m.queryRunner!.query(INSERT_JOB, values, true)) as { raw: number | bigint };
  return Number(res.raw);
}

/**
 * Insert job rows unleased (inside a transaction); their ids in order. PostgreSQL: one multi-row statement (a Map Run
 * starts up to hundreds of children in a step; one round trip each made the parent's steps slow). SQLite: one prepared
 * statement per row (no round trips).
 */
export async function insertJobRows(m: EntityManager, jobs: WorkflowJobEntity[]): Promise<number[]> {
  if (m.connection.options.type !== 'postgres') {
    const ids: number[] = [];
    for (const j of jobs) ids.push(await insertJobRow(m, j));
    return ids;
  }
  const values: unknown[] = [];
  const rows = jobs.map((j) => {
    for (const [, p] of JOB_COLUMNS) values.push(persistent(m, WorkflowJobEntity, p, j[p]));
    return `(${JOB_COLUMNS.map(() => '?').join(', ')})`;
  });
  const sql = `INSERT INTO workflow_jobs (${JOB_COLUMNS.map(([c]) => c).join(', ')}) VALUES ${rows.join(', ')} RETURNING id`;
  let n = 0;
  const res = (await m.query(sql.replace(/\?/g, () => `$${++n}`), values)) as Array<{ id: number | string }>;
  return res.map((r) => Number(r.id));
}

/** Events per multi-row INSERT on PostgreSQL (6 parameters each, far below its 65,535 bind parameters). */
const EVENTS_PER_INSERT = 1000;
/** PostgreSQL's multi-row INSERT texts, by row count. */
const insertEventsText = new Map<number, string>();

/**
 * Insert history events (inside a transaction): first events of jobs (ExecutionStarted), a runner step's events.
 * PostgreSQL: one multi-row statement per EVENTS_PER_INSERT (a round trip per event made a step's writes slow);
 * SQLite: one prepared statement per row (no round trips).
 */
export async function insertJobEvents(m: EntityManager, events: Array<Pick<WorkflowJobEventEntity, 'jobId' | 'eventId' | 'previousEventId' | 'type' | 'timestamp' | 'details'>>): Promise<void> {
  if (m.connection.options.type !== 'postgres' || events.length === 1) {
    for (const e of events) await insertJobEvent(m, e);
    return;
  }
  for (let from = 0; from < events.length; from += EVENTS_PER_INSERT) {
    const chunk = events.slice(from, from + EVENTS_PER_INSERT);
    const values: unknown[] = [];
    for (const e of chunk) values.push(e.jobId, e.eventId, e.previousEventId, e.type, persistent(m, WorkflowJobEventEntity, 'timestamp', e.timestamp), e.details);
    let sql = insertEventsText.get(chunk.length);
    if (sql === undefined) {
      let n = 0;
      const rows = chunk.map(() => `($${++n}, $${++n}, $${++n}, $${++n}, $${++n}, $${++n})`);
      sql = `INSERT INTO workflow_job_events (job_id, event_id, previous_event_id, type, timestamp, details) VALUES ${rows.join(', ')}`;
      if (chunk.length <= 64) insertEventsText.set(chunk.length, sql);
    }
    await m.query(sql, values);
  }
}

/** Insert one history event (inside a transaction). */
export async function insertJobEvent(m: EntityManager, e: Pick<WorkflowJobEventEntity, 'jobId' | 'eventId' | 'previousEventId' | 'type' | 'timestamp' | 'details'>): Promise<void> {
  await m.query(sqlFor(m, INSERT_EVENT), [e.jobId, e.eventId, e.previousEventId, e.type, persistent(m, WorkflowJobEventEntity, 'timestamp', e.timestamp), e.details]);
}

/** At most 1,000 definitions and 8 Mi characters of definition text. */
const TIMEOUT_MEMO = new TextKeyedCache<number | null>(1000, 8 * 1024 * 1024);

/** A stored definition's top-level TimeoutSeconds (null = none), memoized per definition text. */
export function definitionTimeoutSeconds(text: string): number | null {
  let t = TIMEOUT_MEMO.get(text);
  if (t === undefined) {
    let raw: unknown;
    try {
      raw = (JSON.parse(text) as { TimeoutSeconds?: unknown }).TimeoutSeconds;
    } catch {
      raw = undefined;
    }
    // Definitions are checked when written (at most 99,999,999 s); a larger stored value is treated as none.
    t = typeof raw === 'number' && Number.isInteger(raw) && raw > 0 && raw <= 99_999_999 ? raw : null;
    TIMEOUT_MEMO.set(text, t);
  }
  return t;
}
