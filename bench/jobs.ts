/**
 * Workflow jobs throughput (issue 9): jobs of a 3-state Pass-only definition started through the wire protocol
 * (SigV4-signed StartExecution requests, autocannon in a child process) and run to completion with every transition
 * persisted, measured as jobs/s from the first request to the last job's end; next to a raw baseline in the same
 * run: the same rows (the job, its history events, one row update per transition, each transition its own
 * transaction) written by hand-written SQL, no HTTP.
 *
 *  - embedded: the gateway's in-process runner on its own database (the default setup).
 *  - redis: a dispatch-only gateway (WORKFLOW_RUNNER=dispatch) and two `npm run worker` processes sharing the jobs
 *    through BullMQ (REDIS_URL, default redis://127.0.0.1:6379; skipped when Redis does not answer).
 */
import { randomUUID } from 'node:crypto';
import { Sha256 } from '@aws-crypto/sha256-js';
import { SignatureV4 } from '@smithy/signature-v4';
import BetterSqlite3 from 'better-sqlite3';
import Redis from 'ioredis';
import { Pool } from 'pg';
import type { DataSource } from 'typeorm';
import type { DatabaseConfig } from '../src/config';
import { loadConfig } from '../src/config';
import { App, createApp } from '../src/server';
import { runLoad } from './lib/load';
import { BenchFailure, HttpRequestSpec } from './lib/types';
import { startWorkerProcess, type WorkerProcess } from './worker-process';

export const JOBS_WORKLOAD = 'workflow-jobs';
const ROLE = 'arn:aws:iam::000000000000:role/bench';
const DEFINITION = JSON.stringify({
  StartAt: 'A',
  States: { A: { Type: 'Pass', Result: 1, ResultPath: '$.a', Next: 'B' }, B: { Type: 'Pass', Result: 2, ResultPath: '$.b', Next: 'C' }, C: { Type: 'Pass', End: true } },
});
const INPUT = JSON.stringify({ order: 42, items: ['x', 'y'] });

export interface JobsRun {
  target: 'embedded' | 'redis' | 'baseline';
  jobs: number;
  seconds: number;
  jobsPerSec: number;
  /**
   * CPU time of the bench process per job while this target ran (embedded: the gateway's HTTP server and runner;
   * baseline: its SQL loop; redis: the dispatching gateway only, its workers are other processes; autocannon runs in
   * a child). Steadier than jobs/s on a shared machine; PostgreSQL's own
   * CPU is not in it.
   */
  cpuUsPerJob: number;
  /** SQL statements the bench process ran per job while this target ran (gateway targets, when counted). */
  statementsPerJob?: number;
}

/** Counts the statements of the bench's DataSource while armed (bench/run.ts's TypeORM logger). */
export interface StatementCount {
  armed: boolean;
  count: number;
}

export interface JobsBenchResult {
  name: string;
  rounds: Array<{ embedded: JobsRun; baseline: JobsRun; redis?: JobsRun }>;
  embeddedJobsPerSec: number;
  baselineJobsPerSec: number;
  redisJobsPerSec?: number;
  embeddedRatio: number;
  /** Medians of cpuUsPerJob. */
  embeddedCpuUsPerJob: number;
  baselineCpuUsPerJob: number;
  /** Median of the embedded target's statementsPerJob (when the bench counted them). */
  embeddedStatementsPerJob?: number;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

async function signed(baseUrl: string, key: { accessKeyId: string; secretAccessKey: string }, target: string, body: string): Promise<HttpRequestSpec> {
  const u = new URL(`${baseUrl}/workflow`);
  const signer = new SignatureV4({ service: 'states', region: 'us-east-1', credentials: key, sha256: Sha256 });
  const req = await signer.sign({
    method: 'POST',
    protocol: u.protocol,
    hostname: u.hostname,
    port: Number(u.port),
    path: u.pathname,
    headers: { host: u.host, 'content-type': 'application/x-amz-json-1.0', 'x-amz-target': `AWSStepFunctions.${target}` },
    body,
  });
  return { method: 'POST', path: '/workflow', headers: req.headers as Record<string, string>, body };
}

async function call(baseUrl: string, spec: HttpRequestSpec): Promise<Record<string, unknown>> {
  const res = await fetch(`${baseUrl}${spec.path}`, { method: spec.method, headers: spec.headers, body: spec.body });
  const text = await res.text();
  if (res.status !== 200) throw new BenchFailure(`${spec.headers['x-amz-target']} answered ${res.status}: ${text.slice(0, 300)}`);
  return JSON.parse(text) as Record<string, unknown>;
}

/**
 * Start `jobs` jobs (one pre-signed StartExecution without a name: each creates a new job) and wait for all to end.
 * With `counter`, the statements of the bench's DataSource in that window (the counting query every 50 ms and the
 * due-jobs poll every second are left out) per job.
 */
export async function measureGateway(
  label: JobsRun['target'],
  baseUrl: string,
  ds: DataSource,
  key: { accessKeyId: string; secretAccessKey: string },
  jobs: number,
  connections: number,
  counter?: StatementCount,
): Promise<JobsRun> {
  const { stateMachineArn } = await call(baseUrl, await signed(baseUrl, key, 'CreateStateMachine', JSON.stringify({ name: `bench-${label}-${randomUUID().slice(0, 8)}`, roleArn: ROLE, definition: DEFINITION })));
  const start = await signed(baseUrl, key, 'StartExecution', JSON.stringify({ stateMachineArn, input: INPUT }));
  const [{ id: definitionId }] = (await ds.query('SELECT id FROM workflow_definitions WHERE arn = $1'.replace('$1', ds.options.type === 'postgres' ? '$1' : '?'), [stateMachineArn])) as Array<{ id: number }>;
  const t0 = Date.now();
  const cpu0 = process.cpuUsage();
  let polls = 0;
  if (counter) {
    counter.count = 0;
    counter.armed = true;
  }
  const load = await runLoad({ baseUrl, request: start, connections, durationSec: 3600, amount: jobs, title: `${JOBS_WORKLOAD} / ${label}` });
  if (load.summary.non2xx || load.summary.errors) throw new BenchFailure(`${label}: ${load.summary.non2xx} non-2xx, ${load.summary.errors} errors, ${load.summary.timeouts} timeouts starting jobs (${JSON.stringify(load.summary.statusCodes)}; ${load.summary.requests} requests)`);
  const q = (sql: string) => (ds.options.type === 'postgres' ? sql.replace(/\?/g, () => '$1') : sql);
  const deadline = Date.now() + 10 * 60_000;
  for (;;) {
    polls++;
    const [row] = (await ds.query(q("SELECT COUNT(*) AS n, SUM(CASE WHEN status = 'SUCCEEDED' THEN 1 ELSE 0 END) AS ok FROM workflow_jobs WHERE definition_id = ? AND status <> 'RUNNING'"), [definitionId])) as Array<{ n: number | string; ok: number | string }>;
    if (Number(row.n) >= jobs) {
      if (Number(row.ok) !== jobs) throw new BenchFailure(`${label}: ${jobs - Number(row.ok)} jobs did not succeed`);
      break;
    }
    if (Date.now() > deadline) throw new BenchFailure(`${label}: only ${row.n} of ${jobs} jobs ended in 10 minutes`);
    // Polled every 50 ms (the count is measurement overhead; 50 ms is 1 % of a 5 s run).
    await new Promise((r) => setTimeout(r, 50));
  }
  const seconds = (Date.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  let statementsPerJob: number | undefined;
  if (counter) {
    counter.armed = false;
    // the embedded runner's due-jobs poll runs once a second
    statementsPerJob = (counter.count - polls - Math.floor(seconds)) / jobs;
  }
  // Every job has its whole history: ExecutionStarted, 3 x (Entered, Exited), ExecutionSucceeded.
  const [ev] = (await ds.query(q('SELECT COUNT(*) AS n FROM workflow_job_events e JOIN workflow_jobs j ON j.id = e.job_id WHERE j.definition_id = ?'), [definitionId])) as Array<{ n: number | string }>;
  if (Number(ev.n) !== jobs * 8) throw new BenchFailure(`${label}: ${ev.n} history events for ${jobs} jobs (expected ${jobs * 8})`);
  return { target: label, jobs, seconds, jobsPerSec: jobs / seconds, cpuUsPerJob: (cpu.user + cpu.system) / jobs, ...(statementsPerJob !== undefined ? { statementsPerJob } : {}) };
}

/**
 * The same rows by hand-written SQL: the job + ExecutionStarted, then one transaction per transition (the job row's
 * UPDATE and the transition's events: one multi-row INSERT on PostgreSQL, as the runner writes them).
 */
async function measureBaseline(database: DatabaseConfig, definitionId: number, jobs: number, connections: number): Promise<JobsRun> {
  const events = (jobId: number, from: number, types: string[]) => types.map((type, i) => [jobId, from + i, from + i - 1, type, new Date().toISOString(), JSON.stringify({ [`${type[0].toLowerCase()}${type.slice(1)}EventDetails`]: { name: 'A', input: INPUT } })]);
  const steps = [['PassStateEntered', 'PassStateExited'], ['PassStateEntered', 'PassStateExited'], ['PassStateEntered', 'PassStateExited', 'ExecutionSucceeded']];
  // The baseline's jobs are written leased (as the gateway writes its own, to its runner) to an owner that runs none:
  // unleased they were due jobs to the bench gateway's runner, which took some of them over while the loop wrote
  // them (its events then collided with the loop's, and a duplicate key ended the bench).
  const leasedUntil = () => new Date(Date.now() + 3_600_000);
  const t0 = Date.now();
  const cpu0 = process.cpuUsage();
  if (database.type === 'sqlite') {
    const db = new BetterSqlite3(database.path);
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.pragma('busy_timeout = 5000');
    const insertJob = db.prepare("INSERT INTO workflow_jobs (arn, definition_id, name, status, input, start_date, definition_text, version, wake_at, lease_owner, lease_until) VALUES (?, ?, ?, 'RUNNING', ?, ?, ?, 1, ?, 'bench-baseline', ?)");
    const insertEvent = db.prepare('INSERT INTO workflow_job_events (job_id, event_id, previous_event_id, type, timestamp, details) VALUES (?, ?, ?, ?, ?, ?)');
    const update = db.prepare('UPDATE workflow_jobs SET checkpoint = ?, version = version + 1, current_state = ?, status = ?, output = ?, wake_at = ? WHERE id = ? AND version = ?');
    for (let j = 0; j < jobs; j++) {
      const name = randomUUID();
      const now = new Date().toISOString();
      const jobId = db.transaction(() => {
        const id = Number(insertJob.run(`arn:aws:states:us-east-1:000000000000:execution:baseline:${name}`, definitionId, name, INPUT, now, DEFINITION, now, leasedUntil().toISOString()).lastInsertRowid);
        for (const e of events(id, 1, ['ExecutionStarted'])) insertEvent.run(...e);
        return id;
      })();
      let next = 2;
      steps.forEach((types, i) => {
        db.transaction(() => {
          const last = i === steps.length - 1;
          update.run(JSON.stringify({ v: 1, state: 'ABC'[i], input: INPUT }), last ? null : 'ABC'[i + 1], last ? 'SUCCEEDED' : 'RUNNING', last ? INPUT : null, last ? null : now, jobId, i + 1);
          for (const e of events(jobId, next, types)) insertEvent.run(...e);
          next += types.length;
        })();
      });
      if (j % 200 === 0) await new Promise((r) => setImmediate(r));
    }
    db.close();
  } else {
    const pool = new Pool({ connectionString: database.url, max: Math.min(10, connections) });
    // An idle connection ended from outside (a restart, pg_terminate_backend) must not take the bench process down.
    pool.on('error', (err) => console.error(`[bench] baseline: a pooled PostgreSQL connection failed: ${err.message}`));
    let started = 0;
    const worker = async () => {
      const c = await pool.connect();
      try {
        while (started < jobs) {
          started++;
          const name = randomUUID();
          const now = new Date();
          await c.query('BEGIN');
          const { rows } = await c.query("INSERT INTO workflow_jobs (arn, definition_id, name, status, input, start_date, definition_text, version, wake_at, lease_owner, lease_until) VALUES ($1, $2, $3, 'RUNNING', $4, $5, $6, 1, $5, 'bench-baseline', $7) RETURNING id", [`arn:aws:states:us-east-1:000000000000:execution:baseline:${name}`, definitionId, name, INPUT, now, DEFINITION, leasedUntil()]);
          const jobId = Number(rows[0].id);
          for (const e of events(jobId, 1, ['ExecutionStarted'])) await c.query('INSERT INTO workflow_job_events (job_id, event_id, previous_event_id, type, timestamp, details) VALUES ($1, $2, $3, $4, $5, $6)', e);
          await c.query('COMMIT');
          let next = 2;
          for (let i = 0; i < steps.length; i++) {
            const last = i === steps.length - 1;
            await c.query('BEGIN');
            await c.query('UPDATE workflow_jobs SET checkpoint = $1, version = version + 1, current_state = $2, status = $3, output = $4, wake_at = $5 WHERE id = $6 AND version = $7', [JSON.stringify({ v: 1, state: 'ABC'[i], input: INPUT }), last ? null : 'ABC'[i + 1], last ? 'SUCCEEDED' : 'RUNNING', last ? INPUT : null, last ? null : now, jobId, i + 1]);
            // a step's events in one statement, as the runner writes them on PostgreSQL
            const rows = events(jobId, next, steps[i]);
            await c.query(`INSERT INTO workflow_job_events (job_id, event_id, previous_event_id, type, timestamp, details) VALUES ${rows.map((_, r) => `(${[1, 2, 3, 4, 5, 6].map((k) => `$${r * 6 + k}`).join(', ')})`).join(', ')}`, rows.flat());
            await c.query('COMMIT');
            next += steps[i].length;
          }
        }
      } finally {
        c.release();
      }
    };
    await Promise.all(Array.from({ length: Math.min(10, connections) }, worker));
    await pool.end();
  }
  const seconds = (Date.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  return { target: 'baseline', jobs, seconds, jobsPerSec: jobs / seconds, cpuUsPerJob: (cpu.user + cpu.system) / jobs };
}

function startWorker(env: Record<string, string>): Promise<WorkerProcess> {
  return startWorkerProcess(env).catch((e: Error) => Promise.reject(new BenchFailure(e.message)));
}

async function redisAnswers(url: string): Promise<boolean> {
  const r = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  try {
    await r.connect();
    return (await r.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    r.disconnect();
  }
}

/**
 * The jobs workload on the bench's database, with `app` the bench's gateway (embedded runner). Rounds alternate the
 * targets so the machine's noise falls on all of them.
 */
export async function runJobsBench(opts: {
  app: App;
  gatewayUrl: string;
  database: DatabaseConfig;
  databaseUrl: string;
  adminLogin: string;
  rounds: number;
  jobs: number;
  connections: number;
  log: (m: string) => void;
  /** The bench DataSource's statement counter: the embedded target's statements per job are reported. */
  counter?: StatementCount;
}): Promise<JobsBenchResult> {
  const { app, gatewayUrl, database, log } = opts;
  const ds = app.dataSource;
  const k = await app.deps.services.identity.createAccessKey(ds.manager, { user: opts.adminLogin }, app.config.secretKey);
  const key = { accessKeyId: k.accessKeyId, secretAccessKey: k.secretAccessKey };
  const redisUrl = process.env.REDIS_URL?.trim() || 'redis://127.0.0.1:6379';
  const withRedis = await redisAnswers(redisUrl);
  if (!withRedis) log(`${JOBS_WORKLOAD}: Redis does not answer at ${redisUrl}: the redis target is skipped`);
  const rounds: JobsBenchResult['rounds'] = [];
  for (let round = 1; round <= opts.rounds; round++) {
    const embedded = await measureGateway('embedded', gatewayUrl, ds, key, opts.jobs, opts.connections, opts.counter);
    log(
      `${JOBS_WORKLOAD} round ${round}: embedded ${embedded.jobsPerSec.toFixed(0)} jobs/s (${opts.jobs} jobs in ${embedded.seconds.toFixed(2)} s, ${embedded.cpuUsPerJob.toFixed(0)} us CPU per job` +
        `${embedded.statementsPerJob !== undefined ? `, ${embedded.statementsPerJob.toFixed(1)} statements per job` : ''})`,
    );
    const [{ id: definitionId }] = (await ds.query('SELECT MIN(id) AS id FROM workflow_definitions')) as Array<{ id: number }>;
    const baseline = await measureBaseline(database, Number(definitionId), opts.jobs, opts.connections);
    log(`${JOBS_WORKLOAD} round ${round}: baseline ${baseline.jobsPerSec.toFixed(0)} jobs/s (${baseline.cpuUsPerJob.toFixed(0)} us CPU per job)`);
    let redis: JobsRun | undefined;
    if (withRedis) {
      const prefix = `bench-${randomUUID().slice(0, 8)}`;
      const env = { DATABASE_URL: opts.databaseUrl, REDIS_URL: redisUrl, WORKFLOW_QUEUE_PREFIX: prefix, WORKFLOW_CONCURRENCY: '64', LOG_LEVEL: 'silent', ...(app.config.secretKey ? { GATEWAY_SECRET_KEY: app.config.secretKey } : {}) };
      const dispatcherConfig = loadConfig({ PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent', SEED_DEMO: 'false', NODE_ENV: 'production', REDIS_URL: redisUrl, WORKFLOW_RUNNER: 'dispatch', WORKFLOW_QUEUE_PREFIX: prefix, ...(app.config.secretKey ? { GATEWAY_SECRET_KEY: app.config.secretKey } : {}) });
      const dispatcher = await createApp({ ...dispatcherConfig, database });
      const url = await dispatcher.listen();
      const workers = [await startWorker(env), await startWorker(env)];
      try {
        redis = await measureGateway('redis', url, ds, key, opts.jobs, opts.connections);
        log(`${JOBS_WORKLOAD} round ${round}: redis (2 workers) ${redis.jobsPerSec.toFixed(0)} jobs/s`);
      } finally {
        for (const w of workers) {
          w.child.kill('SIGTERM');
          await w.exited;
        }
        await dispatcher.close();
        const r = new Redis(redisUrl);
        const keys = await r.keys(`${prefix}:*`);
        if (keys.length) await r.del(...keys);
        r.disconnect();
      }
    }
    rounds.push({ embedded, baseline, ...(redis ? { redis } : {}) });
  }
  const embeddedJobsPerSec = median(rounds.map((r) => r.embedded.jobsPerSec));
  const baselineJobsPerSec = median(rounds.map((r) => r.baseline.jobsPerSec));
  return {
    name: JOBS_WORKLOAD,
    rounds,
    embeddedJobsPerSec,
    baselineJobsPerSec,
    ...(withRedis ? { redisJobsPerSec: median(rounds.map((r) => r.redis!.jobsPerSec)) } : {}),
    embeddedRatio: median(rounds.map((r) => r.embedded.jobsPerSec / r.baseline.jobsPerSec)),
    embeddedCpuUsPerJob: median(rounds.map((r) => r.embedded.cpuUsPerJob)),
    baselineCpuUsPerJob: median(rounds.map((r) => r.baseline.cpuUsPerJob)),
    ...(opts.counter ? { embeddedStatementsPerJob: median(rounds.map((r) => r.embedded.statementsPerJob ?? 0)) } : {}),
  };
}
