/**
 * `npm run bench`: the gateway against a hand-written floor, on loopback, over a seeded throwaway database.
 *
 *  1. a temporary SQLite file under os.tmpdir() (or a temporary database on the PostgreSQL server of
 *     BENCH_DATABASE_URL), migrated with openDatabase() and seeded in bulk (bench/lib/seed.ts);
 *  2. the real gateway (createApp, LOG_LEVEL=silent, ephemeral port) and an org admin's token;
 *  3. the baseline: node:http + the driver + hand-written SQL, same process, same database;
 *  4. per workload: verify both answer the same data, then warm up and measure each target, one after
 *     the other (alternating for BENCH_ROUNDS > 1), with autocannon in a child process; every response
 *     must be a 2xx with the verified body;
 *  5. a table (req/s, p50/p99, SQL per request, gateway/baseline ratio of this run) and
 *     bench/results/<timestamp>.json with the raw numbers, the machine and the configuration.
 * Exits non-zero on any failure; always closes the servers and removes the database.
 */
import '../src/db/utc';
import 'reflect-metadata';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { DataSource, Logger as TypeOrmLogger } from 'typeorm';
import { openDatabase } from '../ormconfig';
import { AppConfig, DatabaseConfig, loadConfig } from '../src/config';
import { createTempPostgresDatabase } from '../src/db/temp-postgres';
import { App, createApp } from '../src/server';
import { createServices } from '../src/services';
import { BaselineDb, BaselineServer, openBaselineDb, routeOf, startBaselineServer } from './lib/baseline';
import { assertCleanRun, LoadSummary, runLoad } from './lib/load';
import { DEFAULT_SEED, seedIdentity, SeedOptions, SeedResult } from './lib/seed';
import { BenchEnv, BenchFailure, Dialect, HttpRequestSpec, Workload } from './lib/types';
import { fetchOnce } from './lib/verify';
import { WORKLOADS } from './workloads';

const ROOT = path.resolve(__dirname, '..', '..');

interface BenchConfig {
  durationSec: number;
  warmupSec: number;
  connections: number;
  /** gateway/baseline pairs per workload; the report keeps the median (helps on a noisy machine) */
  rounds: number;
  databaseUrl?: string;
  workloads: string[] | null;
  seed: SeedOptions;
  resultsDir: string;
}

function intEnv(name: string, fallback: number, min: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  if (!/^\d+$/.test(raw.trim()) || Number(raw) < min) throw new BenchFailure(`${name} must be an integer >= ${min} (got "${raw}")`);
  return Number(raw.trim());
}

function readConfig(): BenchConfig {
  const url = process.env.BENCH_DATABASE_URL?.trim() || undefined;
  if (url && !/^postgres(ql)?:\/\//i.test(url)) {
    throw new BenchFailure('BENCH_DATABASE_URL must be a postgres:// URL (the default is a temporary SQLite file)');
  }
  const names = process.env.BENCH_WORKLOADS?.trim();
  return {
    durationSec: intEnv('BENCH_DURATION', 10, 1),
    warmupSec: intEnv('BENCH_WARMUP', 3, 0),
    connections: intEnv('BENCH_CONNECTIONS', 10, 1),
    rounds: intEnv('BENCH_ROUNDS', 1, 1),
    databaseUrl: url,
    workloads: names ? names.split(',').map((s) => s.trim()).filter(Boolean) : null,
    seed: {
      ...DEFAULT_SEED,
      users: intEnv('BENCH_USERS', DEFAULT_SEED.users, 1),
      repositories: intEnv('BENCH_REPOSITORIES', DEFAULT_SEED.repositories, 1),
    },
    resultsDir: path.join(ROOT, 'bench', 'results'),
  };
}

/** Counts the SQL statements TypeORM runs while armed (to report statements per gateway request). */
class StatementCounter implements TypeOrmLogger {
  armed = false;
  count = 0;
  logQuery(): void {
    if (this.armed) this.count++;
  }
  logQueryError(): void {}
  logQuerySlow(): void {}
  logSchemaBuild(): void {}
  logMigration(): void {}
  log(): void {}
}

interface TempDatabase {
  database: DatabaseConfig;
  describe: string;
  drop(): Promise<void>;
}

async function createTempDatabase(cfg: BenchConfig): Promise<TempDatabase> {
  if (cfg.databaseUrl) {
    const tmp = await createTempPostgresDatabase(cfg.databaseUrl, 'gw_bench');
    const shown = new URL(tmp.url);
    if (shown.password) shown.password = '***';
    return { database: { type: 'postgres', url: tmp.url }, describe: `postgres ${shown.host}/${tmp.name}`, drop: () => tmp.drop() };
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gw-bench-'));
  const file = path.join(dir, 'bench.sqlite');
  return {
    database: { type: 'sqlite', path: file },
    describe: `sqlite ${file}`,
    drop: async () => fs.rmSync(dir, { recursive: true, force: true }),
  };
}

function packageVersion(name: string): string | undefined {
  try {
    return (JSON.parse(fs.readFileSync(path.join(ROOT, 'node_modules', name, 'package.json'), 'utf8')) as { version?: string }).version;
  } catch {
    return undefined;
  }
}

interface TargetResult {
  target: 'gateway' | 'baseline';
  url: string;
  sqlPerRequest: number;
  warmup: LoadSummary | null;
  /** The round with the median req/s (all of them are in `rounds`). */
  measured: LoadSummary;
  rounds: LoadSummary[];
  /** autocannon's result objects, one per round */
  raw: unknown[];
}

interface WorkloadResult {
  name: string;
  description: string;
  verification: string;
  gateway: TargetResult;
  baseline: TargetResult;
  /** gateway req/s ÷ baseline req/s, both measured in this run (median over rounds of the per-round ratio) */
  ratio: number;
  roundRatios: number[];
}

// ---------------------------------------------------------------------------------------------------------

function fmt(n: number, digits = 0): string {
  return n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

function printTable(results: WorkloadResult[]): void {
  const header = ['workload', 'target', 'req/s', 'p50 ms', 'p99 ms', 'SQL/req', 'gateway/baseline'];
  const rows: string[][] = [];
  for (const w of results) {
    for (const t of [w.gateway, w.baseline]) {
      const m = t.measured;
      rows.push([
        w.name,
        t.target,
        fmt(m.reqPerSec),
        fmt(m.latencyMs.p50, 2),
        fmt(m.latencyMs.p99, 2),
        String(t.sqlPerRequest),
        t.target === 'gateway' ? `${fmt(w.ratio, 3)} (${fmt(1 / w.ratio, 1)}x slower)` : '',
      ]);
    }
  }
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const right = new Set([2, 3, 4, 5]);
  const line = (cells: string[]) => cells.map((c, i) => (right.has(i) ? c.padStart(widths[i]) : c.padEnd(widths[i]))).join('  ');
  console.log('');
  console.log(line(header));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  let last = '';
  for (const r of rows) {
    if (last && r[0] !== last) console.log('');
    console.log(line(r));
    last = r[0];
  }
  console.log('');
}

function log(msg: string): void {
  process.stderr.write(`[bench] ${msg}\n`);
}

// ---------------------------------------------------------------------------------------------------------

function median(xs: number[]): number {
  const v = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(v.length / 2);
  return v.length % 2 ? v[mid] : (v[mid - 1] + v[mid]) / 2;
}

interface Target {
  target: 'gateway' | 'baseline';
  baseUrl: string;
  request: HttpRequestSpec;
  expectBody: string | undefined;
  sqlPerRequest: number;
}

async function warmUp(w: Workload, t: Target, cfg: BenchConfig): Promise<LoadSummary | null> {
  if (cfg.warmupSec === 0) return null;
  const title = `${w.name} / ${t.target} (warm-up)`;
  log(`${title}: ${cfg.warmupSec}s`);
  const run = await runLoad({ baseUrl: t.baseUrl, request: t.request, connections: cfg.connections, durationSec: cfg.warmupSec, expectBody: t.expectBody, title });
  assertCleanRun(title, run.summary);
  return run.summary;
}

async function measureOnce(w: Workload, t: Target, cfg: BenchConfig, round: number) {
  const title = `${w.name} / ${t.target}${cfg.rounds > 1 ? ` (round ${round + 1}/${cfg.rounds})` : ''}`;
  log(`${title}: measuring ${cfg.durationSec}s with ${cfg.connections} connections`);
  const run = await runLoad({ baseUrl: t.baseUrl, request: t.request, connections: cfg.connections, durationSec: cfg.durationSec, expectBody: t.expectBody, title });
  assertCleanRun(title, run.summary);
  return run;
}

/** Warm both targets up, then measure gateway and baseline alternately, `rounds` times, never concurrently. */
async function measureWorkload(w: Workload, targets: [Target, Target], cfg: BenchConfig, interrupted: () => boolean) {
  const warm = [await warmUp(w, targets[0], cfg), await warmUp(w, targets[1], cfg)];
  const runs: Array<Array<Awaited<ReturnType<typeof measureOnce>>>> = [[], []];
  for (let round = 0; round < cfg.rounds; round++) {
    for (const i of [0, 1]) {
      if (interrupted()) throw new BenchFailure('interrupted');
      runs[i].push(await measureOnce(w, targets[i], cfg, round));
    }
  }
  const results = targets.map((t, i): TargetResult => {
    const rounds = runs[i].map((r) => r.summary);
    const med = median(rounds.map((r) => r.reqPerSec));
    // The round closest to the median (the median itself when the number of rounds is odd).
    const measured = rounds.reduce((best, r) => (Math.abs(r.reqPerSec - med) < Math.abs(best.reqPerSec - med) ? r : best));
    return {
      target: t.target,
      url: new URL(t.request.path, t.baseUrl).toString(),
      sqlPerRequest: t.sqlPerRequest,
      warmup: warm[i],
      measured,
      rounds,
      raw: runs[i].map((r) => r.raw),
    };
  });
  const roundRatios = runs[0].map((g, k) => g.summary.reqPerSec / runs[1][k].summary.reqPerSec);
  return { gateway: results[0], baseline: results[1], roundRatios, ratio: median(roundRatios) };
}

async function main(): Promise<number> {
  const cfg = readConfig();
  const selected = cfg.workloads ? WORKLOADS.filter((w) => cfg.workloads!.includes(w.name)) : WORKLOADS;
  if (cfg.workloads) {
    const unknown = cfg.workloads.filter((n) => !WORKLOADS.some((w) => w.name === n));
    if (unknown.length) throw new BenchFailure(`unknown workload(s) ${unknown.join(', ')}; known: ${WORKLOADS.map((w) => w.name).join(', ')}`);
  }
  const names = new Set<string>();
  for (const w of WORKLOADS) {
    if (names.has(w.name)) throw new BenchFailure(`workload name ${w.name} is used twice`);
    names.add(w.name);
  }

  const startedAt = new Date();
  const loadAtStart = os.loadavg();
  if (loadAtStart[0] > os.cpus().length * 0.5) {
    log(`warning: the machine is busy (1-min load average ${loadAtStart[0].toFixed(2)} on ${os.cpus().length} CPUs); absolute numbers and, less so, ratios will be noisy`);
  }
  let temp: TempDatabase | undefined;
  let dataSource: DataSource | undefined;
  let app: App | undefined;
  let baselineDb: BaselineDb | undefined;
  let baseline: BaselineServer | undefined;
  let interrupted = false;
  const onSignal = () => {
    interrupted = true;
    log('interrupted: cleaning up after the current run');
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);

  try {
    // ---- 1. database + seed ----
    temp = await createTempDatabase(cfg);
    const dialect: Dialect = temp.database.type;
    log(`database: ${temp.describe}`);
    const counter = new StatementCounter();
    dataSource = await openDatabase({ database: temp.database }, { logger: counter });
    const seeded: SeedResult = await seedIdentity(dataSource, createServices(), cfg.seed);
    log(
      `seeded ${seeded.users} users, ${seeded.memberships} memberships, ${seeded.repositories} repositories ` +
        `(${seeded.privateRepositories} private), ${seeded.collaborators} collaborators in ${seeded.ms} ms`,
    );
    if (dialect === 'sqlite') await dataSource.query('PRAGMA wal_checkpoint(TRUNCATE)');
    await dataSource.query('ANALYZE'); // planner statistics, as a long-lived database would have

    // ---- 2. the gateway ----
    const appConfig: AppConfig = {
      ...loadConfig({ PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent', SEED_DEMO: 'false', NODE_ENV: 'production' }),
      database: temp.database,
    };
    app = await createApp(appConfig, { dataSource });
    dataSource = undefined; // app.close() closes it from here on
    const gatewayUrl = await app.listen();

    // ---- 3. the baseline ----
    const env: BenchEnv = { dialect, seed: seeded, adminToken: seeded.adminToken };
    baselineDb = openBaselineDb(temp.database);
    baseline = await startBaselineServer(
      baselineDb,
      selected.map((w) => ({ ...routeOf(w.baseline.request(env)), handler: w.baseline.handler })),
    );
    log(`gateway ${gatewayUrl}, baseline ${baseline.url}`);

    // ---- 4. verify everything first, then measure one target at a time ----
    const verified = new Map<string, { summary: string; gatewayBody: string; baselineBody: string; gatewaySql: number; baselineSql: number }>();
    for (const w of selected) {
      counter.count = 0;
      counter.armed = true;
      const g = await fetchOnce(gatewayUrl, w.gateway(env));
      counter.armed = false;
      const gatewaySql = counter.count;
      const before = baselineDb.statements;
      const b = await fetchOnce(baseline.url, w.baseline.request(env));
      const baselineSql = baselineDb.statements - before;
      let summary: string;
      try {
        summary = w.verify(g, b, env);
      } catch (e) {
        throw new BenchFailure(`verification of ${w.name} failed: ${e instanceof Error ? e.message : String(e)}`);
      }
      log(`verified ${w.name}: ${summary}`);
      verified.set(w.name, { summary, gatewayBody: g.text, baselineBody: b.text, gatewaySql, baselineSql });
    }

    const results: WorkloadResult[] = [];
    for (const w of selected) {
      const v = verified.get(w.name)!;
      const exact = (w.bodyCheck ?? 'exact') === 'exact';
      const m = await measureWorkload(
        w,
        [
          { target: 'gateway', baseUrl: gatewayUrl, request: w.gateway(env), expectBody: exact ? v.gatewayBody : undefined, sqlPerRequest: v.gatewaySql },
          { target: 'baseline', baseUrl: baseline.url, request: w.baseline.request(env), expectBody: exact ? v.baselineBody : undefined, sqlPerRequest: v.baselineSql },
        ],
        cfg,
        () => interrupted,
      );
      results.push({ name: w.name, description: w.description, verification: v.summary, ...m });
    }

    // ---- 5. report ----
    printTable(results);
    console.log(
      `${dialect}, ${cfg.connections} connections, ${cfg.durationSec}s per target${cfg.rounds > 1 ? ` x ${cfg.rounds} rounds (medians)` : ''} after ${cfg.warmupSec}s warm-up, ` +
        `${os.cpus().length} CPUs, Node ${process.version}. Ratios compare targets measured in this run only.`,
    );
    const cpus = os.cpus();
    const report = {
      startedAt: startedAt.toISOString(),
      finishedAt: new Date().toISOString(),
      machine: {
        platform: os.platform(),
        release: os.release(),
        arch: os.arch(),
        cpus: cpus.length,
        cpuModel: cpus[0]?.model,
        totalMemoryMB: Math.round(os.totalmem() / 1024 / 1024),
        loadAverageAtStart: loadAtStart,
        loadAverageAtEnd: os.loadavg(),
        node: process.version,
      },
      versions: Object.fromEntries(
        ['graphql', '@apollo/server', 'type-graphql', 'typeorm', 'fastify', 'better-sqlite3', 'pg', 'autocannon'].map((n) => [n, packageVersion(n)]),
      ),
      config: {
        dialect,
        database: dialect === 'sqlite' ? 'temporary SQLite file (WAL)' : temp.describe,
        durationSec: cfg.durationSec,
        warmupSec: cfg.warmupSec,
        connections: cfg.connections,
        rounds: cfg.rounds,
        loadGenerator: 'autocannon in a child process, one target at a time (gateway and baseline alternate when rounds > 1)',
        seed: {
          ...cfg.seed,
          organization: seeded.orgLogin,
          users: seeded.users,
          memberships: seeded.memberships,
          repositories: seeded.repositories,
          privateRepositories: seeded.privateRepositories,
          collaborators: seeded.collaborators,
          seedMs: seeded.ms,
        },
      },
      workloads: results,
    };
    fs.mkdirSync(cfg.resultsDir, { recursive: true });
    const file = path.join(cfg.resultsDir, `${startedAt.toISOString().replace(/:/g, '-')}.json`);
    fs.writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);
    console.log(`raw results: ${path.relative(process.cwd(), file)}`);
    return 0;
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    const steps: Array<[string, () => Promise<unknown> | undefined]> = [
      ['baseline server', () => baseline?.close()],
      ['baseline database', () => baselineDb?.close()],
      ['gateway', () => app?.close()],
      ['database connection', () => (dataSource?.isInitialized ? dataSource.destroy() : undefined)],
      ['temporary database', () => temp?.drop()],
    ];
    for (const [what, step] of steps) {
      try {
        await step();
      } catch (e) {
        log(`cleanup of ${what} failed: ${e instanceof Error ? e.message : String(e)}`);
        process.exitCode = 1;
      }
    }
  }
}

main().then(
  (code) => process.exit(process.exitCode ? 1 : code),
  (e: unknown) => {
    if (e instanceof BenchFailure) log(`FAILED: ${e.message}`);
    else log(`FAILED: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
    process.exit(1);
  },
);
