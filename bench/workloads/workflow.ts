/**
 * Workflow engine workloads measured to completion (issue 23), over the wire protocol with @aws-sdk/client-sfn:
 *
 *  - workflow-jsonata: the same 5-state flow (Pass, Choice, Task echo, Pass, Succeed) written in JSONata and in
 *    JSONPath; jobs started with 32 concurrent StartExecution calls, jobs/s from the first start to the last end,
 *    the two alternated per round in one process. Reported: JSONata jobs/s ÷ JSONPath jobs/s (target ≥ 0.7).
 *  - workflow-distributed-map: one job whose Distributed Map runs BENCH_DMAP_ITEMS items (default 10,000) as child
 *    executions with MaxConcurrency 50; items/s from start to end and the process's peak RSS (sampled every 100 ms).
 *
 * Run inside `npm run bench` (BENCH_WORKLOADS=workflow-jsonata,workflow-distributed-map), or alone:
 * `npm run build && node dist/bench/workloads/workflow.js [jsonata|dmap]` (SQLite in a temp dir, or DATABASE_URL).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CreateStateMachineCommand, DescribeExecutionCommand, SFNClient, StartExecutionCommand } from '@aws-sdk/client-sfn';
import { loadConfig } from '../../src/config';
import { createTempPostgresDatabase } from '../../src/db/temp-postgres';
import { App, createApp } from '../../src/server';

export const JSONATA_WORKLOAD = 'workflow-jsonata';
export const DMAP_WORKLOAD = 'workflow-distributed-map';
const ROLE = 'arn:aws:iam::000000000000:role/bench';

const JSONPATH_FLOW = {
  StartAt: 'Prepare',
  States: {
    Prepare: { Type: 'Pass', Parameters: { 'order.$': '$.order', 'total.$': 'States.MathAdd($.price, $.tax)', 'items.$': '$.items' }, Next: 'Route' },
    Route: { Type: 'Choice', Choices: [{ Variable: '$.total', NumericGreaterThan: 100, Next: 'Charge' }], Default: 'Charge' },
    Charge: { Type: 'Task', Resource: 'echo', Parameters: { 'order.$': '$.order', 'amount.$': '$.total' }, ResultPath: '$.charge', Next: 'Shape' },
    Shape: { Type: 'Pass', Parameters: { 'order.$': '$.order', 'charged.$': '$.charge.amount', 'count.$': 'States.ArrayLength($.items)' }, Next: 'Done' },
    Done: { Type: 'Succeed' },
  },
};
const JSONATA_FLOW = {
  QueryLanguage: 'JSONata',
  StartAt: 'Prepare',
  States: {
    Prepare: { Type: 'Pass', Output: { order: '{% $states.input.order %}', total: '{% $states.input.price + $states.input.tax %}', items: '{% $states.input.items %}' }, Next: 'Route' },
    Route: { Type: 'Choice', Choices: [{ Condition: '{% $states.input.total > 100 %}', Next: 'Charge' }], Default: 'Charge' },
    Charge: { Type: 'Task', Resource: 'echo', Arguments: { order: '{% $states.input.order %}', amount: '{% $states.input.total %}' }, Output: '{% $merge([$states.input, {"charge": $states.result}]) %}', Next: 'Shape' },
    Shape: { Type: 'Pass', Output: { order: '{% $states.input.order %}', charged: '{% $states.input.charge.amount %}', count: '{% $count($states.input.items) %}' }, Next: 'Done' },
    Done: { Type: 'Succeed' },
  },
};
const INPUT = JSON.stringify({ order: 42, price: 90, tax: 20, items: ['x', 'y', 'z'] });

export interface JsonataBenchResult {
  rounds: Array<{ jsonata: number; jsonpath: number }>;
  jsonataJobsPerSec: number;
  jsonpathJobsPerSec: number;
  ratio: number;
  jobs: number;
}

export interface DmapBenchResult {
  items: number;
  seconds: number;
  itemsPerSec: number;
  peakRssMiB: number;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

async function client(app: App, gatewayUrl: string, login: string): Promise<SFNClient> {
  const k = await app.deps.services.identity.createAccessKey(app.dataSource.manager, { user: login }, app.config.secretKey);
  return new SFNClient({ region: 'us-east-1', endpoint: `${gatewayUrl}/workflow`, credentials: { accessKeyId: k.accessKeyId, secretAccessKey: k.secretAccessKey }, disableHostPrefix: true, maxAttempts: 1 });
}

/** Jobs of a definition that have ended (the runner writes the end; no polling over HTTP). */
async function ended(app: App, definitionArn: string): Promise<number> {
  const q = app.dataSource.options.type === 'postgres' ? 'SELECT COUNT(*) AS n FROM workflow_jobs j JOIN workflow_definitions d ON d.id = j.definition_id WHERE d.arn = $1 AND j.status <> \'RUNNING\'' : "SELECT COUNT(*) AS n FROM workflow_jobs j JOIN workflow_definitions d ON d.id = j.definition_id WHERE d.arn = ? AND j.status <> 'RUNNING'";
  const [row] = (await app.dataSource.query(q, [definitionArn])) as Array<{ n: number | string }>;
  return Number(row.n);
}

async function jobsPerSec(app: App, sfn: SFNClient, stateMachineArn: string, jobs: number): Promise<number> {
  const before = await ended(app, stateMachineArn);
  const t0 = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: 32 }, async () => {
      while (next < jobs) {
        next++;
        await sfn.send(new StartExecutionCommand({ stateMachineArn, input: INPUT }));
      }
    }),
  );
  while ((await ended(app, stateMachineArn)) - before < jobs) await new Promise((r) => setTimeout(r, 20));
  return jobs / ((performance.now() - t0) / 1000);
}

export async function runJsonataBench(opts: { app: App; gatewayUrl: string; adminLogin: string; rounds: number; jobs: number; log: (m: string) => void }): Promise<JsonataBenchResult> {
  const sfn = await client(opts.app, opts.gatewayUrl, opts.adminLogin);
  try {
    const suffix = Date.now().toString(36);
    const path = (await sfn.send(new CreateStateMachineCommand({ name: `bench-jsonpath-${suffix}`, roleArn: ROLE, definition: JSON.stringify(JSONPATH_FLOW) }))).stateMachineArn!;
    const ata = (await sfn.send(new CreateStateMachineCommand({ name: `bench-jsonata-${suffix}`, roleArn: ROLE, definition: JSON.stringify(JSONATA_FLOW) }))).stateMachineArn!;
    // the two flows answer the same output (the bench measures equal work)
    const outs: string[] = [];
    for (const arn of [path, ata]) {
      const { executionArn } = await sfn.send(new StartExecutionCommand({ stateMachineArn: arn, input: INPUT }));
      for (;;) {
        const d = await sfn.send(new DescribeExecutionCommand({ executionArn }));
        if (d.status !== 'RUNNING') {
          outs.push(`${d.status} ${d.output}`);
          break;
        }
        await new Promise((r) => setTimeout(r, 10));
      }
    }
    if (outs[0] !== outs[1]) throw new Error(`${JSONATA_WORKLOAD}: the flows differ: ${outs.join(' vs ')}`);
    const rounds: JsonataBenchResult['rounds'] = [];
    for (let round = 1; round <= opts.rounds; round++) {
      const jsonpath = await jobsPerSec(opts.app, sfn, path, opts.jobs);
      const jsonata = await jobsPerSec(opts.app, sfn, ata, opts.jobs);
      rounds.push({ jsonata, jsonpath });
      opts.log(`${JSONATA_WORKLOAD} round ${round}: JSONata ${jsonata.toFixed(0)} jobs/s, JSONPath ${jsonpath.toFixed(0)} jobs/s (${(jsonata / jsonpath).toFixed(2)})`);
    }
    const a = median(rounds.map((r) => r.jsonata));
    const p = median(rounds.map((r) => r.jsonpath));
    return { rounds, jsonataJobsPerSec: a, jsonpathJobsPerSec: p, ratio: median(rounds.map((r) => r.jsonata / r.jsonpath)), jobs: opts.jobs };
  } finally {
    sfn.destroy();
  }
}

export async function runDistributedMapBench(opts: { app: App; gatewayUrl: string; adminLogin: string; items: number; log: (m: string) => void }): Promise<DmapBenchResult> {
  const sfn = await client(opts.app, opts.gatewayUrl, opts.adminLogin);
  try {
    const definition = {
      StartAt: 'Fan',
      States: {
        Fan: {
          Type: 'Map',
          MaxConcurrency: 50,
          ToleratedFailurePercentage: 5,
          ItemSelector: { 'n.$': '$$.Map.Item.Value', 'i.$': '$$.Map.Item.Index' },
          ItemProcessor: {
            ProcessorConfig: { Mode: 'DISTRIBUTED', ExecutionType: 'STANDARD' },
            StartAt: 'Work',
            States: { Work: { Type: 'Task', Resource: 'echo', End: true } },
          },
          ResultSelector: { 'count.$': 'States.ArrayLength($)' },
          End: true,
        },
      },
    };
    const stateMachineArn = (await sfn.send(new CreateStateMachineCommand({ name: `bench-dmap-${Date.now().toString(36)}`, roleArn: ROLE, definition: JSON.stringify(definition) }))).stateMachineArn!;
    let peak = process.memoryUsage().rss;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 100);
    const input = JSON.stringify(Array.from({ length: opts.items }, (_, i) => i));
    const { executionArn } = await sfn.send(new StartExecutionCommand({ stateMachineArn, input }));
    let d;
    for (;;) {
      d = await sfn.send(new DescribeExecutionCommand({ executionArn }));
      if (d.status !== 'RUNNING') break;
      await new Promise((r) => setTimeout(r, 200));
    }
    clearInterval(sampler);
    if (d.status !== 'SUCCEEDED' || JSON.parse(d.output!).count !== opts.items) throw new Error(`${DMAP_WORKLOAD}: the job ended ${d.status} ${d.error ?? ''} ${d.output ?? ''}`);
    const seconds = (d.stopDate!.getTime() - d.startDate!.getTime()) / 1000;
    const r = { items: opts.items, seconds, itemsPerSec: opts.items / seconds, peakRssMiB: Math.round(peak / 1048576) };
    opts.log(`${DMAP_WORKLOAD}: ${r.items} items in ${seconds.toFixed(1)} s, ${r.itemsPerSec.toFixed(0)} items/s, peak RSS ${r.peakRssMiB} MiB`);
    return r;
  } finally {
    sfn.destroy();
  }
}

/** Alone: a fresh gateway (SQLite in a temp dir, or DATABASE_URL) with one user. */
async function main(): Promise<void> {
  const which = process.argv[2] ?? 'all';
  const dir = mkdtempSync(join(tmpdir(), 'bench-wf-'));
  const env: Record<string, string> = { PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent', SEED_DEMO: 'false', NODE_ENV: 'production' };
  const pg = process.env.DATABASE_URL?.startsWith('postgres') ? await createTempPostgresDatabase(process.env.DATABASE_URL, 'bench_wf') : undefined;
  env.DATABASE_URL = pg ? pg.url : `sqlite:${join(dir, 'bench.sqlite')}`;
  const app = await createApp(loadConfig({ ...process.env, ...env }));
  const url = await app.listen();
  try {
    const login = `bench-${Date.now().toString(36)}`;
    await app.deps.services.identity.createUser(app.dataSource.manager, { login });
    const log = (m: string) => console.log(m);
    if (which === 'all' || which === 'jsonata') {
      const r = await runJsonataBench({ app, gatewayUrl: url, adminLogin: login, rounds: Number(process.env.BENCH_ROUNDS ?? 3), jobs: Number(process.env.BENCH_JSONATA_JOBS ?? 500), log });
      console.log(`${JSONATA_WORKLOAD}: JSONata ${r.jsonataJobsPerSec.toFixed(0)} jobs/s, JSONPath ${r.jsonpathJobsPerSec.toFixed(0)} jobs/s, ratio ${r.ratio.toFixed(2)} (median of ${r.rounds.length})`);
    }
    if (which === 'all' || which === 'dmap') await runDistributedMapBench({ app, gatewayUrl: url, adminLogin: login, items: Number(process.env.BENCH_DMAP_ITEMS ?? 10_000), log });
  } finally {
    await app.close();
    await pg?.drop();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (require.main === module) {
  main().then(
    () => process.exit(0),
    (e) => {
      console.error(e);
      process.exit(1);
    },
  );
}
