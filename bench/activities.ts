/**
 * Workflow activity tasks throughput (issue 22): tasks/s through GetActivityTask -> SendTaskSuccess by
 * BENCH_ACTIVITY_WORKERS (default 8) @aws-sdk/client-sfn workers, next to a raw baseline in the same run.
 *
 *  - gateway: BENCH_ACTIVITY_TASKS jobs (default 1000) of a one-state definition whose Task is an activity are
 *    started and their tasks scheduled first (not timed). Then the workers (in a child process,
 *    bench/activity-workers.ts, so their SDK CPU is not the gateway's) take and complete them; the clock runs from
 *    the go to the last job's end, so it covers the runner recording each task's start and result too. Checked:
 *    every job SUCCEEDED with exactly one ActivityStarted and one ActivitySucceeded event (no task handed out twice).
 *  - baseline: the same rows by hand-written SQL, no HTTP, the same number of concurrent connections on PostgreSQL
 *    (one synchronous loop on SQLite): the jobs, their tasks and first three events inserted first (not timed); then
 *    per task the claim (the oldest SCHEDULED task of the activity, FOR UPDATE SKIP LOCKED on PostgreSQL, set
 *    STARTED with a token hash, its ActivityStarted event, the job's version) and the completion (the task by its
 *    token hash, locked, its job's status and definition's owner read, the task SUCCEEDED, the three closing events,
 *    the job SUCCEEDED): two transactions, where the gateway spends two requests plus the runner's own writes.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import * as path from 'node:path';
import { CreateActivityCommand, CreateStateMachineCommand, SFNClient, StartExecutionCommand } from '@aws-sdk/client-sfn';
import BetterSqlite3 from 'better-sqlite3';
import { Pool } from 'pg';
import type { DataSource } from 'typeorm';
import type { DatabaseConfig } from '../src/config';
import { taskDate } from '../src/services/workflow/activities.service';
import type { App } from '../src/server';
import { BenchFailure } from './lib/types';
import type { WorkersDone, WorkersGo } from './activity-workers';

export const ACTIVITIES_WORKLOAD = 'workflow-activities';
const ROLE = 'arn:aws:iam::000000000000:role/bench';
const INPUT = JSON.stringify({ order: 42, items: ['x', 'y'] });

export interface ActivitiesRun {
  target: 'gateway' | 'baseline';
  tasks: number;
  seconds: number;
  tasksPerSec: number;
  /** CPU of the bench process per task (gateway: its HTTP server and runner, not the workers; baseline: its SQL loop). */
  cpuUsPerTask: number;
  /** gateway only: CPU of the SDK workers' process per task. */
  workerCpuUsPerTask?: number;
  /** gateway only: GetActivityTask polls that came back empty (a worker waited for a task). */
  emptyPolls?: number;
}

export interface ActivitiesBenchResult {
  name: string;
  workers: number;
  rounds: Array<{ gateway: ActivitiesRun; baseline: ActivitiesRun }>;
  gatewayTasksPerSec: number;
  baselineTasksPerSec: number;
  /** Median of the per-round gateway/baseline tasks/s. */
  ratio: number;
  gatewayCpuUsPerTask: number;
  baselineCpuUsPerTask: number;
  workerCpuUsPerTask: number;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

function sql(ds: DataSource, text: string): string {
  if (ds.options.type !== 'postgres') return text;
  let i = 0;
  return text.replace(/\?/g, () => `$${++i}`);
}

async function one(ds: DataSource, text: string, params: unknown[]): Promise<Record<string, unknown>> {
  const rows = (await ds.query(sql(ds, text), params)) as Array<Record<string, unknown>>;
  return rows[0];
}

/** The workers' child process (compiled: dist/bench/activity-workers.js next to this file). */
function startWorkers(): Promise<ChildProcess> {
  // the bench runs compiled (npm run bench builds first)
  const child = fork(path.join(__dirname, 'activity-workers.js'), [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  return new Promise((resolve, reject) => {
    child.once('message', () => resolve(child));
    child.once('exit', (code) => reject(new BenchFailure(`${ACTIVITIES_WORKLOAD}: the workers' process exited with ${code}`)));
  });
}

function workersRound(child: ChildProcess, go: WorkersGo): Promise<WorkersDone> {
  return new Promise((resolve, reject) => {
    child.once('message', (m: WorkersDone) => (m.error ? reject(new BenchFailure(`${ACTIVITIES_WORKLOAD}: a worker failed: ${m.error}`)) : resolve(m)));
    child.send(go);
  });
}

async function waitUntil(what: string, check: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 10 * 60_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new BenchFailure(`${ACTIVITIES_WORKLOAD}: ${what} did not happen within 10 minutes`);
    // every 20 ms: the count is measurement overhead (well under 1 % of a run)
    await new Promise((r) => setTimeout(r, 20));
  }
}

async function measureGateway(app: App, sfn: SFNClient, workers: ChildProcess, go: Omit<WorkersGo, 'activityArn'>): Promise<ActivitiesRun> {
  const ds = app.dataSource;
  const suffix = randomUUID().slice(0, 8);
  const { activityArn } = await sfn.send(new CreateActivityCommand({ name: `bench-act-${suffix}` }));
  const definition = { StartAt: 'Work', States: { Work: { Type: 'Task', Resource: activityArn, End: true } } };
  const { stateMachineArn } = await sfn.send(new CreateStateMachineCommand({ name: `bench-act-${suffix}`, roleArn: ROLE, definition: JSON.stringify(definition) }));
  const { id: activityId } = await one(ds, 'SELECT id FROM workflow_activities WHERE arn = ?', [activityArn]);
  const { id: definitionId } = await one(ds, 'SELECT id FROM workflow_definitions WHERE arn = ?', [stateMachineArn]);
  // the jobs and their scheduled tasks first (not timed)
  let next = 0;
  await Promise.all(
    Array.from({ length: 16 }, async () => {
      while (next < go.tasks) {
        next++;
        await sfn.send(new StartExecutionCommand({ stateMachineArn, input: INPUT }));
      }
    }),
  );
  await waitUntil(`scheduling ${go.tasks} tasks`, async () => Number((await one(ds, "SELECT COUNT(*) AS n FROM workflow_tasks WHERE activity_id = ? AND status = 'SCHEDULED'", [activityId])).n) >= go.tasks);

  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const done = await workersRound(workers, { ...go, activityArn: activityArn! });
  await waitUntil(`the end of ${go.tasks} jobs`, async () => Number((await one(ds, "SELECT COUNT(*) AS n FROM workflow_jobs WHERE definition_id = ? AND status <> 'RUNNING'", [definitionId])).n) >= go.tasks);
  const seconds = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);

  const ok = await one(ds, "SELECT COUNT(*) AS n FROM workflow_jobs WHERE definition_id = ? AND status = 'SUCCEEDED'", [definitionId]);
  if (Number(ok.n) !== go.tasks || done.completed !== go.tasks) throw new BenchFailure(`${ACTIVITIES_WORKLOAD}: ${ok.n} of ${go.tasks} jobs succeeded, ${done.completed} tasks completed by the workers`);
  const ev = await one(
    ds,
    "SELECT SUM(CASE WHEN e.type = 'ActivityStarted' THEN 1 ELSE 0 END) AS started, SUM(CASE WHEN e.type = 'ActivitySucceeded' THEN 1 ELSE 0 END) AS succeeded FROM workflow_job_events e JOIN workflow_jobs j ON j.id = e.job_id WHERE j.definition_id = ?",
    [definitionId],
  );
  if (Number(ev.started) !== go.tasks || Number(ev.succeeded) !== go.tasks) throw new BenchFailure(`${ACTIVITIES_WORKLOAD}: ${ev.started} ActivityStarted and ${ev.succeeded} ActivitySucceeded events for ${go.tasks} tasks`);
  return {
    target: 'gateway',
    tasks: go.tasks,
    seconds,
    tasksPerSec: go.tasks / seconds,
    cpuUsPerTask: (cpu.user + cpu.system) / go.tasks,
    workerCpuUsPerTask: done.cpuUs / go.tasks,
    emptyPolls: done.emptyPolls,
  };
}

const detail = (type: string, body: Record<string, unknown>) => JSON.stringify({ [`${type[0].toLowerCase()}${type.slice(1)}EventDetails`]: body });

async function measureBaseline(app: App, database: DatabaseConfig, definitionId: number, activityArn: string, tasks: number, workers: number): Promise<ActivitiesRun> {
  const ds = app.dataSource;
  const { id: activityId } = await one(ds, 'SELECT id FROM workflow_activities WHERE arn = ?', [activityArn]);
  const date = (d: Date) => (database.type === 'postgres' ? d : taskDate(ds.manager, d));
  // the jobs (RUNNING, waiting: no wake time, so the gateway's runner leaves them alone), their scheduled tasks
  // and first three events, not timed
  const prefix = randomUUID().slice(0, 8);
  for (let from = 0; from < tasks; from += 200) {
    await ds.transaction(async (m) => {
      for (let i = from; i < Math.min(tasks, from + 200); i++) {
        const now = new Date();
        const name = `${prefix}-${i}`;
        const [{ id: jobId }] = (await m.query(
          sql(ds, "INSERT INTO workflow_jobs (arn, definition_id, name, status, input, start_date, definition_text, version, current_state) VALUES (?, ?, ?, 'RUNNING', ?, ?, '{}', 1, 'Work') RETURNING id"),
          [`arn:aws:states:us-east-1:000000000000:execution:baseline:${name}`, definitionId, name, INPUT, date(now)],
        )) as Array<{ id: number }>;
        const events: Array<[string, string]> = [
          ['ExecutionStarted', detail('ExecutionStarted', { input: INPUT, roleArn: ROLE })],
          ['TaskStateEntered', detail('StateEntered', { name: 'Work', input: INPUT })],
          ['ActivityScheduled', detail('ActivityScheduled', { resource: activityArn, input: INPUT })],
        ];
        for (const [k, [type, details]] of events.entries()) {
          await m.query(sql(ds, 'INSERT INTO workflow_job_events (job_id, event_id, previous_event_id, type, timestamp, details) VALUES (?, ?, ?, ?, ?, ?)'), [jobId, k + 1, k, type, date(now), details]);
        }
        await m.query(
          sql(ds, "INSERT INTO workflow_tasks (job_id, task_key, kind, activity_id, resource, state_name, status, input, scheduled_at) VALUES (?, ?, 'activity', ?, ?, 'Work', 'SCHEDULED', ?, ?)"),
          [jobId, createHash('sha256').update(name).digest('hex'), activityId, activityArn, INPUT, date(now)],
        );
      }
    });
  }

  const closing = (jobId: number, output: string, now: unknown) => [
    [jobId, 5, 4, 'ActivitySucceeded', now, detail('ActivitySucceeded', { output, outputDetails: { truncated: false } })],
    [jobId, 6, 5, 'TaskStateExited', now, detail('StateExited', { name: 'Work', output, outputDetails: { truncated: false } })],
    [jobId, 7, 6, 'ExecutionSucceeded', now, detail('ExecutionSucceeded', { output, outputDetails: { truncated: false } })],
  ];
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  let done = 0;
  if (database.type === 'sqlite') {
    const db = new BetterSqlite3(database.path);
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.pragma('busy_timeout = 5000');
    const pick = db.prepare("SELECT t.id, t.job_id, t.input FROM workflow_tasks t JOIN workflow_jobs j ON j.id = t.job_id WHERE t.activity_id = ? AND t.status = 'SCHEDULED' AND j.status = 'RUNNING' ORDER BY t.id LIMIT 1");
    const start = db.prepare("UPDATE workflow_tasks SET status = 'STARTED', token_hash = ?, worker_name = ?, started_at = ? WHERE id = ? AND status = 'SCHEDULED'");
    const event = db.prepare('INSERT INTO workflow_job_events (job_id, event_id, previous_event_id, type, timestamp, details) VALUES (?, ?, ?, ?, ?, ?)');
    const bump = db.prepare("UPDATE workflow_jobs SET version = version + 1 WHERE id = ? AND status = 'RUNNING'");
    const byToken = db.prepare('SELECT id, job_id, status FROM workflow_tasks WHERE token_hash = ?');
    const jobOf = db.prepare('SELECT j.status, j.started_by, d.created_by FROM workflow_jobs j JOIN workflow_definitions d ON d.id = j.definition_id WHERE j.id = ?');
    const close = db.prepare("UPDATE workflow_tasks SET status = 'SUCCEEDED', output = ?, closed_at = ? WHERE id = ? AND status IN ('SCHEDULED', 'STARTED')");
    const end = db.prepare("UPDATE workflow_jobs SET status = 'SUCCEEDED', output = ?, stop_date = ?, current_state = NULL, version = version + 1 WHERE id = ? AND status = 'RUNNING'");
    for (;;) {
      const token = randomBytes(32).toString('base64url');
      const hash = createHash('sha256').update(token).digest('hex');
      const claimed = db.transaction(() => {
        const row = pick.get(activityId) as { id: number; job_id: number; input: string } | undefined;
        if (!row) return null;
        const now = taskDate(ds.manager, new Date());
        start.run(hash, 'bench-0', now, row.id);
        event.run(row.job_id, 4, 3, 'ActivityStarted', now, detail('ActivityStarted', { workerName: 'bench-0' }));
        bump.run(row.job_id);
        return row;
      }).immediate();
      if (!claimed) break;
      db.transaction(() => {
        const t = byToken.get(hash) as { id: number; job_id: number; status: string };
        const j = jobOf.get(t.job_id) as { status: string };
        if (t.status !== 'STARTED' || j.status !== 'RUNNING') throw new BenchFailure('baseline: the task is not open');
        const now = taskDate(ds.manager, new Date());
        close.run(claimed.input, now, t.id);
        for (const e of closing(t.job_id, claimed.input, now)) event.run(...e);
        end.run(claimed.input, now, t.job_id);
      }).immediate();
      done++;
      if (done % 200 === 0) await new Promise((r) => setImmediate(r));
    }
    db.close();
  } else {
    const pool = new Pool({ connectionString: database.url, max: workers });
    // An idle connection ended from outside (a restart, pg_terminate_backend) must not take the bench process down.
    pool.on('error', (err) => console.error(`[bench] baseline: a pooled PostgreSQL connection failed: ${err.message}`));
    const worker = async (w: number) => {
      const c = await pool.connect();
      try {
        for (;;) {
          const token = randomBytes(32).toString('base64url');
          const hash = createHash('sha256').update(token).digest('hex');
          await c.query('BEGIN');
          const { rows } = await c.query(
            "SELECT t.id, t.job_id, t.input FROM workflow_tasks t JOIN workflow_jobs j ON j.id = t.job_id WHERE t.activity_id = $1 AND t.status = 'SCHEDULED' AND j.status = 'RUNNING' ORDER BY t.id LIMIT 1 FOR UPDATE OF t SKIP LOCKED",
            [activityId],
          );
          const row = rows[0] as { id: number; job_id: number; input: string } | undefined;
          if (!row) {
            await c.query('COMMIT');
            return;
          }
          const now = new Date();
          await c.query("UPDATE workflow_tasks SET status = 'STARTED', token_hash = $1, worker_name = $2, started_at = $3 WHERE id = $4 AND status = 'SCHEDULED'", [hash, `bench-${w}`, now, row.id]);
          await c.query('INSERT INTO workflow_job_events (job_id, event_id, previous_event_id, type, timestamp, details) VALUES ($1, $2, $3, $4, $5, $6)', [row.job_id, 4, 3, 'ActivityStarted', now, detail('ActivityStarted', { workerName: `bench-${w}` })]);
          await c.query("UPDATE workflow_jobs SET version = version + 1 WHERE id = $1 AND status = 'RUNNING'", [row.job_id]);
          await c.query('COMMIT');

          await c.query('BEGIN');
          const t = (await c.query('SELECT id, job_id, status FROM workflow_tasks WHERE token_hash = $1 FOR UPDATE', [hash])).rows[0] as { id: number; job_id: number; status: string };
          const j = (await c.query('SELECT j.status, j.started_by, d.created_by FROM workflow_jobs j JOIN workflow_definitions d ON d.id = j.definition_id WHERE j.id = $1', [t.job_id])).rows[0] as { status: string };
          if (t.status !== 'STARTED' || j.status !== 'RUNNING') throw new BenchFailure('baseline: the task is not open');
          const at = new Date();
          await c.query("UPDATE workflow_tasks SET status = 'SUCCEEDED', output = $1, closed_at = $2 WHERE id = $3 AND status IN ('SCHEDULED', 'STARTED')", [row.input, at, t.id]);
          for (const e of closing(t.job_id, row.input, at)) await c.query('INSERT INTO workflow_job_events (job_id, event_id, previous_event_id, type, timestamp, details) VALUES ($1, $2, $3, $4, $5, $6)', e);
          await c.query("UPDATE workflow_jobs SET status = 'SUCCEEDED', output = $1, stop_date = $2, current_state = NULL, version = version + 1 WHERE id = $3 AND status = 'RUNNING'", [row.input, at, t.job_id]);
          await c.query('COMMIT');
          done++;
        }
      } catch (e) {
        await c.query('ROLLBACK').catch(() => undefined);
        throw e;
      } finally {
        c.release();
      }
    };
    try {
      await Promise.all(Array.from({ length: workers }, (_, w) => worker(w)));
    } finally {
      await pool.end();
    }
  }
  const seconds = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  if (done !== tasks) throw new BenchFailure(`${ACTIVITIES_WORKLOAD}: the baseline completed ${done} of ${tasks} tasks`);
  return { target: 'baseline', tasks, seconds, tasksPerSec: tasks / seconds, cpuUsPerTask: (cpu.user + cpu.system) / tasks };
}

/** The activities workload on the bench's database, with `app` the bench's gateway (embedded runner); rounds alternate the targets. */
export async function runActivitiesBench(opts: { app: App; gatewayUrl: string; database: DatabaseConfig; adminLogin: string; rounds: number; tasks: number; workers: number; log: (m: string) => void }): Promise<ActivitiesBenchResult> {
  const { app, log } = opts;
  const k = await app.deps.services.identity.createAccessKey(app.dataSource.manager, { user: opts.adminLogin }, app.config.secretKey);
  const endpoint = `${opts.gatewayUrl}/workflow`;
  const sfn = new SFNClient({ region: 'us-east-1', endpoint, credentials: { accessKeyId: k.accessKeyId, secretAccessKey: k.secretAccessKey }, disableHostPrefix: true, maxAttempts: 1 });
  const workers = await startWorkers();
  try {
    const rounds: ActivitiesBenchResult['rounds'] = [];
    // the baseline's activity and definition (its jobs are its own rows; the definition only anchors them)
    const { activityArn: baselineActivity } = await sfn.send(new CreateActivityCommand({ name: `bench-act-baseline-${randomUUID().slice(0, 8)}` }));
    const { stateMachineArn } = await sfn.send(
      new CreateStateMachineCommand({ name: `bench-act-baseline-${randomUUID().slice(0, 8)}`, roleArn: ROLE, definition: JSON.stringify({ StartAt: 'Work', States: { Work: { Type: 'Task', Resource: baselineActivity, End: true } } }) }),
    );
    const { id: definitionId } = await one(app.dataSource, 'SELECT id FROM workflow_definitions WHERE arn = ?', [stateMachineArn]);
    for (let round = 1; round <= opts.rounds; round++) {
      const gateway = await measureGateway(app, sfn, workers, { endpoint, accessKeyId: k.accessKeyId, secretAccessKey: k.secretAccessKey, workers: opts.workers, tasks: opts.tasks });
      log(
        `${ACTIVITIES_WORKLOAD} round ${round}: gateway ${gateway.tasksPerSec.toFixed(0)} tasks/s (${opts.tasks} tasks, ${opts.workers} SDK workers, ${gateway.seconds.toFixed(2)} s; ` +
          `${gateway.cpuUsPerTask.toFixed(0)} us gateway CPU and ${gateway.workerCpuUsPerTask!.toFixed(0)} us worker CPU per task; ${gateway.emptyPolls} empty polls)`,
      );
      const baseline = await measureBaseline(app, opts.database, Number(definitionId), baselineActivity!, opts.tasks, opts.workers);
      log(`${ACTIVITIES_WORKLOAD} round ${round}: baseline ${baseline.tasksPerSec.toFixed(0)} tasks/s (${baseline.cpuUsPerTask.toFixed(0)} us CPU per task)`);
      rounds.push({ gateway, baseline });
    }
    return {
      name: ACTIVITIES_WORKLOAD,
      workers: opts.workers,
      rounds,
      gatewayTasksPerSec: median(rounds.map((r) => r.gateway.tasksPerSec)),
      baselineTasksPerSec: median(rounds.map((r) => r.baseline.tasksPerSec)),
      ratio: median(rounds.map((r) => r.gateway.tasksPerSec / r.baseline.tasksPerSec)),
      gatewayCpuUsPerTask: median(rounds.map((r) => r.gateway.cpuUsPerTask)),
      baselineCpuUsPerTask: median(rounds.map((r) => r.baseline.cpuUsPerTask)),
      workerCpuUsPerTask: median(rounds.map((r) => r.gateway.workerCpuUsPerTask!)),
    };
  } finally {
    sfn.destroy();
    workers.kill('SIGTERM');
  }
}
