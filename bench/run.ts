/**
 * `npm run bench`: the gateway against a hand-written floor, on loopback, over a seeded throwaway database.
 *
 *  1. a temporary SQLite file under os.tmpdir() (or a temporary database on the PostgreSQL server of
 *     BENCH_DATABASE_URL), migrated with openDatabase() and seeded in bulk (bench/lib/seed.ts);
 *  2. the real gateway (createApp, LOG_LEVEL=silent, ephemeral port) and an org admin's token;
 *  3. the baseline: node:http + the driver + hand-written SQL, same process, same database;
 *  4. per workload: verify all targets answer the same data (gateway, its optional twin such as a REST
 *     endpoint, baseline), then warm up and measure each target, one after the other (alternating for
 *     BENCH_ROUNDS > 1), with autocannon in a child process; every response must be a 2xx with the
 *     verified body;
 *  5. a table (req/s, p50/p99, SQL per request, response size, gateway/baseline, twin/baseline and
 *     gateway/twin ratios of this run) and
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
import { CLIENT_WORKLOAD, ClientBenchResult, runClientBench } from './client';
import { JOBS_WORKLOAD, JobsBenchResult, runJobsBench } from './jobs';
import { ACTIVITIES_WORKLOAD, ActivitiesBenchResult, runActivitiesBench } from './activities';
import { DMAP_WORKLOAD, DmapBenchResult, JSONATA_WORKLOAD, JsonataBenchResult, runDistributedMapBench, runJsonataBench } from './workloads/workflow';
import { createServices } from '../src/services';
import { BaselineDb, BaselineServer, openBaselineDb, routeOf, startBaselineServer } from './lib/baseline';
import { PostGraphileServer, startPostGraphile } from './lib/postgraphile';
import { assertCleanRun, LoadSummary, runLoad } from './lib/load';
import { DEFAULT_SEED, seedIdentity, SeedOptions, SeedResult } from './lib/seed';
import {
  BENCH_CALENDAR_NOW,
  BENCH_CALENDAR_TIMEZONE,
  CalendarSeedOptions,
  CalendarSeedResult,
  DEFAULT_CALENDAR_SEED,
  seedCalendar,
} from './lib/seed-calendar';
import {
  DEFAULT_SECRET_SCANNING_SEED,
  seedSecretScanning,
  SecretScanningSeedOptions,
  SecretScanningSeedResult,
} from './lib/seed-secret-scanning';
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
  secretScanning: SecretScanningSeedOptions;
  calendar: CalendarSeedOptions;
  /** BENCH_POSTGRAPHILE=1: PostGraphile 5 serves the workloads that have a `postgraphile` request (PostgreSQL only). */
  postgraphile: boolean;
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
  // BENCH_SCALE=10: ten times the alerts (200k by default), to check that the dashboard's cost per request stays flat.
  const scale = intEnv('BENCH_SCALE', 1, 1);
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
    secretScanning: { alerts: intEnv('BENCH_SECRET_SCANNING_ALERTS', DEFAULT_SECRET_SCANNING_SEED.alerts, 1) * scale },
    calendar: { events: intEnv('BENCH_CALENDAR_EVENTS', DEFAULT_CALENDAR_SEED.events, 1) },
    postgraphile: intEnv('BENCH_POSTGRAPHILE', 0, 0) > 0,
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

/**
 * gateway: the workload's gateway request; twin: its optional second gateway request; peer: another server for the
 * same data (PostGraphile); baseline: the floor.
 */
type TargetRole = 'gateway' | 'twin' | 'peer' | 'baseline';

interface TargetResult {
  target: TargetRole;
  /** As shown in the table ('gateway', or the workload's labels such as 'graphql' / 'rest'). */
  label: string;
  url: string;
  sqlPerRequest: number;
  /** Size of the verified response body. */
  bytesPerResponse: number;
  warmup: LoadSummary | null;
  /** The round with the median req/s (all of them are in `rounds`). */
  measured: LoadSummary;
  rounds: LoadSummary[];
  /** Median over the rounds of the bench process's CPU per request (see LoadSummary.serverCpuUsPerRequest). */
  serverCpuUsPerRequest?: number;
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
  /** Only for workloads with a twin: its results, twin ÷ baseline and gateway ÷ twin (same run, medians over rounds). */
  twin?: TargetResult;
  twinRatio?: number;
  twinRoundRatios?: number[];
  gatewayTwinRatio?: number;
  gatewayTwinRoundRatios?: number[];
  /**
   * Peers (PostGraphile without and with a token check): each one's results, peer ÷ baseline and gateway ÷ peer
   * by req/s (same run, medians over rounds), and gateway ÷ peer by CPU per request.
   */
  peers?: Array<{
    result: TargetResult;
    ratio: number;
    roundRatios: number[];
    gatewayPeerRatio: number;
    gatewayPeerRoundRatios: number[];
    gatewayPeerCpuRatio?: number;
  }>;
}

// ---------------------------------------------------------------------------------------------------------

function fmt(n: number, digits = 0): string {
  return n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

function slower(ratio: number): string {
  return ratio <= 1 ? `${fmt(1 / ratio, 1)}x slower` : `${fmt(ratio, 1)}x faster`;
}

function printTable(results: WorkloadResult[]): void {
  const header = ['workload', 'target', 'req/s', 'p50 ms', 'p99 ms', 'SQL/req', 'KB/resp', 'CPU us/req', 'target/baseline', 'gateway/twin or peer'];
  const rows: string[][] = [];
  for (const w of results) {
    const peers = w.peers ?? [];
    for (const t of [w.gateway, ...(w.twin ? [w.twin] : []), ...peers.map((p) => p.result), w.baseline]) {
      const m = t.measured;
      const peer = peers.find((p) => p.result === t);
      const ratio = t.target === 'gateway' ? w.ratio : t.target === 'twin' ? w.twinRatio! : peer ? peer.ratio : undefined;
      rows.push([
        w.name,
        t.label,
        fmt(m.reqPerSec),
        fmt(m.latencyMs.p50, 2),
        fmt(m.latencyMs.p99, 2),
        t.sqlPerRequest < 0 ? '-' : String(t.sqlPerRequest),
        fmt(t.bytesPerResponse / 1024, 1),
        t.serverCpuUsPerRequest === undefined ? '' : fmt(t.serverCpuUsPerRequest),
        ratio === undefined ? '' : `${fmt(ratio, 3)} (${slower(ratio)})`,
        t.target === 'gateway' && w.twin
          ? `${fmt(w.gatewayTwinRatio!, 2)} (${w.gateway.label}/${w.twin.label})`
          : peer
            ? `${fmt(peer.gatewayPeerRatio, 2)} (${w.gateway.label}/${t.label})`
            : '',
      ]);
    }
  }
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const right = new Set([2, 3, 4, 5, 6, 7]);
  const line = (cells: string[]) => cells.map((c, i) => (right.has(i) ? c.padStart(widths[i]) : c.padEnd(widths[i]))).join('  ').trimEnd();
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
  for (const w of results) {
    if (!w.twin) continue;
    const g = w.gateway.label;
    const t = w.twin.label;
    console.log(
      `${w.name} (one run): ${g}/baseline ${fmt(w.ratio, 3)}, ${t}/baseline ${fmt(w.twinRatio!, 3)}, ${g}/${t} ${fmt(w.gatewayTwinRatio!, 2)}`,
    );
  }
  // The same comparisons by the bench process's CPU per request (baseline CPU ÷ target CPU: like a req/s ratio).
  for (const w of results) {
    const b = w.baseline.serverCpuUsPerRequest;
    const g = w.gateway.serverCpuUsPerRequest;
    if (!b || !g) continue;
    const parts = [`${w.gateway.label}/baseline ${fmt(b / g, 3)}`];
    const t = w.twin?.serverCpuUsPerRequest;
    if (w.twin && t) parts.push(`${w.twin.label}/baseline ${fmt(b / t, 3)}`, `${w.twin.label}/${w.gateway.label} ${fmt(g / t, 2)}`);
    for (const p of w.peers ?? []) {
      const c = p.result.serverCpuUsPerRequest;
      if (c) parts.push(`${p.result.label}/baseline ${fmt(b / c, 3)}`, `${w.gateway.label}/${p.result.label} ${fmt(c / g, 2)}`);
    }
    console.log(`${w.name} by server CPU per request: ${parts.join(', ')}`);
  }
  for (const w of results) {
    for (const p of w.peers ?? []) {
      console.log(
        `${w.name}: ${w.gateway.label}/${p.result.label} ${fmt(p.gatewayPeerRatio, 2)} by req/s (rounds ${p.gatewayPeerRoundRatios.map((r) => fmt(r, 2)).join(', ')})` +
          `${p.gatewayPeerCpuRatio ? `, ${fmt(p.gatewayPeerCpuRatio, 2)} by CPU per request` : ''}; ${p.result.label}/baseline ${fmt(p.ratio, 3)}`,
      );
    }
  }
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
  target: TargetRole;
  label: string;
  baseUrl: string;
  request: HttpRequestSpec;
  expectBody: string | undefined;
  sqlPerRequest: number;
  bytesPerResponse: number;
}

async function warmUp(w: Workload, t: Target, cfg: BenchConfig): Promise<LoadSummary | null> {
  if (cfg.warmupSec === 0) return null;
  const title = `${w.name} / ${t.label} (warm-up)`;
  log(`${title}: ${cfg.warmupSec}s`);
  const run = await runLoad({ baseUrl: t.baseUrl, request: t.request, connections: cfg.connections, durationSec: cfg.warmupSec, expectBody: t.expectBody, title });
  assertCleanRun(title, run.summary);
  return run.summary;
}

async function measureOnce(w: Workload, t: Target, cfg: BenchConfig, round: number) {
  const title = `${w.name} / ${t.label}${cfg.rounds > 1 ? ` (round ${round + 1}/${cfg.rounds})` : ''}`;
  log(`${title}: measuring ${cfg.durationSec}s with ${cfg.connections} connections`);
  const cpu = process.cpuUsage();
  const run = await runLoad({ baseUrl: t.baseUrl, request: t.request, connections: cfg.connections, durationSec: cfg.durationSec, expectBody: t.expectBody, title });
  const used = process.cpuUsage(cpu);
  assertCleanRun(title, run.summary);
  if (run.summary.requests > 0) run.summary.serverCpuUsPerRequest = (used.user + used.system) / run.summary.requests;
  return run;
}

/**
 * Warm every target up, then measure them in turn (gateway, twin, baseline), `rounds` times, never
 * concurrently. Returns each target's results and the per-round req/s ratio of any two targets.
 */
async function measureWorkload(w: Workload, targets: Target[], cfg: BenchConfig, interrupted: () => boolean) {
  const warm: Array<LoadSummary | null> = [];
  for (const t of targets) warm.push(await warmUp(w, t, cfg));
  const runs: Array<Array<Awaited<ReturnType<typeof measureOnce>>>> = targets.map(() => []);
  for (let round = 0; round < cfg.rounds; round++) {
    for (let i = 0; i < targets.length; i++) {
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
      label: t.label,
      url: new URL(t.request.path, t.baseUrl).toString(),
      sqlPerRequest: t.sqlPerRequest,
      bytesPerResponse: t.bytesPerResponse,
      warmup: warm[i],
      measured,
      rounds,
      serverCpuUsPerRequest: rounds.every((r) => r.serverCpuUsPerRequest !== undefined) ? median(rounds.map((r) => r.serverCpuUsPerRequest!)) : undefined,
      raw: runs[i].map((r) => r.raw),
    };
  });
  /** req/s of target a ÷ req/s of target b, per round (both measured in the same round). */
  const roundRatios = (a: number, b: number) => runs[a].map((r, k) => r.summary.reqPerSec / runs[b][k].summary.reqPerSec);
  return { results, roundRatios };
}

async function main(): Promise<number> {
  const cfg = readConfig();
  const selected = cfg.workloads ? WORKLOADS.filter((w) => cfg.workloads!.includes(w.name)) : WORKLOADS;
  // The workflow jobs workload (bench/jobs.ts) measures jobs/s to completion, not request throughput.
  const withJobs = !cfg.workloads || cfg.workloads.includes(JOBS_WORKLOAD);
  // The workflow client workload (bench/client.ts) compares our client with @aws-sdk/client-sfn, calls/s.
  const withClient = !cfg.workloads || cfg.workloads.includes(CLIENT_WORKLOAD);
  // The engine workloads (bench/workloads/workflow.ts): JSONata vs JSONPath jobs/s, Distributed Map items/s.
  const withJsonata = !cfg.workloads || cfg.workloads.includes(JSONATA_WORKLOAD);
  const withDmap = !cfg.workloads || cfg.workloads.includes(DMAP_WORKLOAD);
  // Activity tasks (bench/activities.ts): tasks/s through GetActivityTask -> SendTaskSuccess by SDK workers.
  const withActivities = !cfg.workloads || cfg.workloads.includes(ACTIVITIES_WORKLOAD);
  const own = [JOBS_WORKLOAD, ACTIVITIES_WORKLOAD, CLIENT_WORKLOAD, JSONATA_WORKLOAD, DMAP_WORKLOAD];
  if (cfg.workloads) {
    const unknown = cfg.workloads.filter((n) => !own.includes(n) && !WORKLOADS.some((w) => w.name === n));
    if (unknown.length) throw new BenchFailure(`unknown workload(s) ${unknown.join(', ')}; known: ${[...WORKLOADS.map((w) => w.name), ...own].join(', ')}`);
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
  let postgraphile: PostGraphileServer | undefined;
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
    let secretScanning: SecretScanningSeedResult | undefined;
    if (selected.some((w) => w.needs?.includes('secretScanning'))) {
      secretScanning = await seedSecretScanning(dataSource, seeded, cfg.secretScanning);
      const s = secretScanning;
      log(
        `seeded ${s.alerts} secret scanning alerts (${s.open} open, ${s.resolved} resolved, ${s.assigned} assigned, ${s.multiRepo} multi-repo) ` +
          `with ${s.locations} locations over ${s.repositoriesWithAlerts} of ${s.enabledRepositories} repositories with secret scanning, ` +
          `+${s.writeCollaboratorsAdded} write collaborators, in ${s.chunks} transactions, ${s.ms} ms`,
      );
    }
    let calendar: CalendarSeedResult | undefined;
    if (selected.some((w) => w.needs?.includes('calendar'))) {
      calendar = await seedCalendar(dataSource, seeded, cfg.calendar);
      const c = calendar;
      log(
        `seeded ${c.events} calendar events (${c.published} published, ${c.hidden} of them hidden from listings, ${c.drafts} drafts, ` +
          `${c.pending} pending, ${c.trashed} in the trash) with ${c.eventTerms} category/tag links, ${c.venues} venues ` +
          `(${c.geocodedVenues} geocoded), ${c.organizers} organizers, ${c.categories} categories, ${c.tags} tags, ` +
          `in ${c.chunks} transactions, ${c.ms} ms`,
      );
    }
    if (dialect === 'sqlite') await dataSource.query('PRAGMA wal_checkpoint(TRUNCATE)');
    // Planner statistics, as a long-lived database would have; on PostgreSQL also the visibility map (VACUUM, as
    // pgbench does before it measures): right after a bulk load no page is marked all-visible, so index-only scans
    // (the dashboard's count) are planned as heap scans until autovacuum gets to the tables, which happened at
    // some point during a run and moved both the gateway's and the baseline's figures between rounds.
    await dataSource.query(dialect === 'postgres' ? 'VACUUM ANALYZE' : 'ANALYZE');

    // ---- 2. the gateway ----
    const appConfig: AppConfig = {
      ...loadConfig({
        PORT: '0',
        HOST: '127.0.0.1',
        LOG_LEVEL: 'silent',
        SEED_DEMO: 'false',
        NODE_ENV: 'production',
        // The calendar's clock and zone are fixed, so its date windows do not move between runs.
        CALENDAR_NOW: BENCH_CALENDAR_NOW,
        CALENDAR_TIMEZONE: BENCH_CALENDAR_TIMEZONE,
      }),
      database: temp.database,
    };
    app = await createApp(appConfig, { dataSource });
    dataSource = undefined; // app.close() closes it from here on
    const gatewayUrl = await app.listen();

    // ---- 3. the baseline ----
    const env: BenchEnv = { dialect, seed: seeded, adminToken: seeded.adminToken, secretScanning, calendar };
    baselineDb = openBaselineDb(temp.database);
    baseline = await startBaselineServer(
      baselineDb,
      selected.map((w) => ({ ...routeOf(w.baseline.request(env)), handler: w.baseline.handler })),
    );
    log(`gateway ${gatewayUrl}, baseline ${baseline.url}`);
    const peered = cfg.postgraphile ? selected.filter((w) => w.postgraphile) : [];
    if (peered.length && temp.database.type !== 'postgres') {
      log('BENCH_POSTGRAPHILE: PostGraphile serves PostgreSQL only; skipped on SQLite');
      peered.length = 0;
    }
    if (peered.length && temp.database.type === 'postgres') {
      postgraphile = await startPostGraphile(temp.database.url);
      log(`postgraphile ${postgraphile.version} ${postgraphile.url} for ${peered.map((w) => w.name).join(', ')}`);
    }

    // ---- 4. verify everything first, then measure one target at a time ----
    interface Verified {
      summary: string;
      gatewayBody: string;
      baselineBody: string;
      twinBody?: string;
      /** PostGraphile's verified bodies, without and with a token check. */
      peerBodies?: [string, string];
      gatewaySql: number;
      baselineSql: number;
      twinSql?: number;
    }
    const verified = new Map<string, Verified>();
    const counted = async (spec: HttpRequestSpec) => {
      counter.count = 0;
      counter.armed = true;
      try {
        return { response: await fetchOnce(gatewayUrl, spec), sql: counter.count };
      } finally {
        counter.armed = false;
      }
    };
    // The counter sees every statement of the process, the embedded workflow runner's once-a-second poll for due
    // jobs too: the fewest of two requests is the request's own count.
    const gatewayFetch = async (spec: HttpRequestSpec) => {
      const first = await counted(spec);
      const again = await counted(spec);
      return { response: first.response, sql: Math.min(first.sql, again.sql) };
    };
    for (const w of selected) {
      const { response: g, sql: gatewaySql } = await gatewayFetch(w.gateway(env));
      const twin = w.twin ? await gatewayFetch(w.twin.request(env)) : undefined;
      const before = baselineDb.statements;
      const b = await fetchOnce(baseline.url, w.baseline.request(env));
      const baselineSql = baselineDb.statements - before;
      let summary: string;
      try {
        summary = w.verify(g, b, env, twin?.response);
      } catch (e) {
        throw new BenchFailure(`verification of ${w.name} failed: ${e instanceof Error ? e.message : String(e)}`);
      }
      log(`verified ${w.name}: ${summary}`);
      let peerBodies: [string, string] | undefined;
      if (postgraphile && w.postgraphile) {
        const texts: string[] = [];
        for (const withToken of [false, true]) {
          const p = await fetchOnce(postgraphile.url, w.postgraphile.request(env, withToken));
          let s: string;
          try {
            s = w.postgraphile.verify(p, g, env);
          } catch (e) {
            throw new BenchFailure(`verification of ${w.name} through PostGraphile${withToken ? ' (token)' : ''} failed: ${e instanceof Error ? e.message : String(e)}`);
          }
          log(`verified ${w.name} / postgraphile${withToken ? '+token' : ''}: ${s}`);
          texts.push(p.text);
        }
        peerBodies = [texts[0], texts[1]];
      }
      verified.set(w.name, { summary, gatewayBody: g.text, baselineBody: b.text, twinBody: twin?.response.text, peerBodies, gatewaySql, baselineSql, twinSql: twin?.sql });
    }

    const results: WorkloadResult[] = [];
    for (const w of selected) {
      const v = verified.get(w.name)!;
      const exact = (w.bodyCheck ?? 'exact') === 'exact';
      const target = (role: TargetRole, label: string, baseUrl: string, request: HttpRequestSpec, body: string, sql: number): Target => ({
        target: role,
        label,
        baseUrl,
        request,
        expectBody: exact ? body : undefined,
        sqlPerRequest: sql,
        bytesPerResponse: Buffer.byteLength(body),
      });
      const targets: Target[] = [target('gateway', w.gatewayLabel ?? 'gateway', gatewayUrl, w.gateway(env), v.gatewayBody, v.gatewaySql)];
      if (w.twin) targets.push(target('twin', w.twin.label, gatewayUrl, w.twin.request(env), v.twinBody!, v.twinSql!));
      const peerIndexes: number[] = [];
      if (postgraphile && w.postgraphile && v.peerBodies) {
        for (const [i, withToken] of [false, true].entries()) {
          peerIndexes.push(targets.length);
          // PostGraphile's statements are not counted (it runs them on its own pool): -1 shows as '-'.
          targets.push(target('peer', withToken ? 'postgraphile+token' : 'postgraphile', postgraphile.url, w.postgraphile.request(env, withToken), v.peerBodies[i], -1));
        }
      }
      targets.push(target('baseline', 'baseline', baseline.url, w.baseline.request(env), v.baselineBody, v.baselineSql));
      const m = await measureWorkload(w, targets, cfg, () => interrupted);
      const b = targets.length - 1;
      const roundRatios = m.roundRatios(0, b);
      const result: WorkloadResult = {
        name: w.name,
        description: w.description,
        verification: v.summary,
        gateway: m.results[0],
        baseline: m.results[b],
        ratio: median(roundRatios),
        roundRatios,
      };
      if (w.twin) {
        result.twin = m.results[1];
        result.twinRoundRatios = m.roundRatios(1, b);
        result.twinRatio = median(result.twinRoundRatios);
        result.gatewayTwinRoundRatios = m.roundRatios(0, 1);
        result.gatewayTwinRatio = median(result.gatewayTwinRoundRatios);
      }
      if (peerIndexes.length) {
        result.peers = peerIndexes.map((i) => {
          const roundRatios = m.roundRatios(i, b);
          const gatewayPeerRoundRatios = m.roundRatios(0, i);
          const g = m.results[0].serverCpuUsPerRequest;
          const c = m.results[i].serverCpuUsPerRequest;
          return {
            result: m.results[i],
            ratio: median(roundRatios),
            roundRatios,
            gatewayPeerRatio: median(gatewayPeerRoundRatios),
            gatewayPeerRoundRatios,
            ...(g && c ? { gatewayPeerCpuRatio: c / g } : {}),
          };
        });
      }
      results.push(result);
    }

    // ---- 4b. workflow jobs/s ----
    let jobs: JobsBenchResult | undefined;
    if (withJobs && !interrupted) {
      jobs = await runJobsBench({
        app,
        gatewayUrl,
        database: temp.database,
        databaseUrl: temp.database.type === 'postgres' ? temp.database.url : `sqlite:${temp.database.path}`,
        adminLogin: seeded.adminLogin,
        rounds: cfg.rounds,
        jobs: intEnv('BENCH_JOBS', 3000, 10),
        connections: 32,
        log,
        counter,
      });
    }

    // ---- 4b'. workflow activity tasks/s ----
    let activities: ActivitiesBenchResult | undefined;
    if (withActivities && !interrupted) {
      activities = await runActivitiesBench({
        app,
        gatewayUrl,
        database: temp.database,
        adminLogin: seeded.adminLogin,
        rounds: cfg.rounds,
        tasks: intEnv('BENCH_ACTIVITY_TASKS', 1000, 10),
        workers: intEnv('BENCH_ACTIVITY_WORKERS', 8, 1),
        log,
      });
    }

    // ---- 4c. workflow client calls/s (ours vs the official SDK) ----
    let client: ClientBenchResult | undefined;
    if (withClient && !interrupted) {
      client = await runClientBench({ app, gatewayUrl, adminLogin: seeded.adminLogin, rounds: cfg.rounds, calls: intEnv('BENCH_CLIENT_CALLS', 2000, 10), log });
    }

    // ---- 4d. workflow engine: JSONata vs JSONPath, Distributed Map ----
    let jsonata: JsonataBenchResult | undefined;
    if (withJsonata && !interrupted) {
      jsonata = await runJsonataBench({ app, gatewayUrl, adminLogin: seeded.adminLogin, rounds: cfg.rounds, jobs: intEnv('BENCH_JSONATA_JOBS', 500, 10), log });
    }
    let dmap: DmapBenchResult | undefined;
    if (withDmap && !interrupted) {
      dmap = await runDistributedMapBench({ app, gatewayUrl, adminLogin: seeded.adminLogin, items: intEnv('BENCH_DMAP_ITEMS', 10_000, 10), log });
    }

    // ---- 5. report ----
    if (results.length) printTable(results);
    if (jobs) {
      const r = jobs;
      console.log(
        `\n${JOBS_WORKLOAD} (3 Pass states, started over the wire protocol, every transition persisted; ${r.rounds[0].embedded.jobs} jobs per target per round, medians):\n` +
          `  embedded ${r.embeddedJobsPerSec.toFixed(0)} jobs/s, raw SQL baseline ${r.baselineJobsPerSec.toFixed(0)} jobs/s (embedded/baseline ${r.embeddedRatio.toFixed(3)})` +
          (r.redisJobsPerSec !== undefined ? `, redis/BullMQ with 2 workers ${r.redisJobsPerSec.toFixed(0)} jobs/s` : ', redis skipped') +
          `\n  CPU of the bench process per job: embedded ${r.embeddedCpuUsPerJob.toFixed(0)} us, baseline ${r.baselineCpuUsPerJob.toFixed(0)} us (baseline/embedded ${(r.baselineCpuUsPerJob / r.embeddedCpuUsPerJob).toFixed(3)})` +
          (r.embeddedStatementsPerJob !== undefined ? `; embedded SQL statements per job ${r.embeddedStatementsPerJob.toFixed(1)}` : ''),
      );
    }
    if (activities) {
      const a = activities;
      console.log(
        `\n${ACTIVITIES_WORKLOAD} (one activity task per job, ${a.rounds[0].gateway.tasks} tasks per target per round, ${a.workers} @aws-sdk/client-sfn workers in a child process, clock to the last job's end, medians):\n` +
          `  gateway ${a.gatewayTasksPerSec.toFixed(0)} tasks/s, raw SQL baseline ${a.baselineTasksPerSec.toFixed(0)} tasks/s (gateway/baseline ${a.ratio.toFixed(3)}; rounds ${a.rounds.map((r) => (r.gateway.tasksPerSec / r.baseline.tasksPerSec).toFixed(3)).join(', ')})` +
          `\n  CPU per task: gateway process ${a.gatewayCpuUsPerTask.toFixed(0)} us (the SDK workers' process another ${a.workerCpuUsPerTask.toFixed(0)} us), baseline ${a.baselineCpuUsPerTask.toFixed(0)} us`,
      );
    }
    if (client) {
      console.log(
        `\n${CLIENT_WORKLOAD} (${client.calls} DescribeExecution calls per client per round, ${client.concurrency} in flight, both signing every request, medians):\n` +
          `  ours ${client.oursCallsPerSec.toFixed(0)} calls/s, @aws-sdk/client-sfn ${client.sdkCallsPerSec.toFixed(0)} calls/s (ours/sdk ${client.ratio.toFixed(2)}; rounds ${client.rounds.map((r) => r.ratio.toFixed(2)).join(', ')})`,
      );
    }
    if (jsonata) {
      console.log(
        `\n${JSONATA_WORKLOAD} (the same 5-state flow in JSONata and JSONPath, ${jsonata.jobs} jobs each per round, medians):\n` +
          `  JSONata ${jsonata.jsonataJobsPerSec.toFixed(0)} jobs/s, JSONPath ${jsonata.jsonpathJobsPerSec.toFixed(0)} jobs/s (JSONata/JSONPath ${jsonata.ratio.toFixed(2)}; target >= 0.7)`,
      );
    }
    if (dmap) console.log(`\n${DMAP_WORKLOAD} (MaxConcurrency 50, one echo task per child): ${dmap.items} items in ${dmap.seconds.toFixed(1)} s, ${dmap.itemsPerSec.toFixed(0)} items/s, peak RSS ${dmap.peakRssMiB} MiB`);
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
        ...(postgraphile ? { postgraphile: postgraphile.version } : {}),
        loadGenerator: 'autocannon in a child process, one target at a time (gateway, twin if any, baseline, in turn for every round)',
        seed: {
          ...cfg.seed,
          organization: seeded.orgLogin,
          users: seeded.users,
          memberships: seeded.memberships,
          repositories: seeded.repositories,
          privateRepositories: seeded.privateRepositories,
          collaborators: seeded.collaborators,
          seedMs: seeded.ms,
          ...(secretScanning
            ? {
                secretScanning: (({ newest: _newest, ...stats }) => stats)(secretScanning),
              }
            : {}),
          ...(calendar
            ? {
                calendar: (({ terms: _t, venueList: _v, organizerList: _o, eventList: _e, ...stats }) => stats)(calendar),
              }
            : {}),
        },
      },
      workloads: results,
      ...(jobs ? { workflowJobs: jobs } : {}),
      ...(activities ? { workflowActivities: activities } : {}),
      ...(client ? { workflowClient: client } : {}),
      ...(jsonata ? { workflowJsonata: jsonata } : {}),
      ...(dmap ? { workflowDistributedMap: dmap } : {}),
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
      ['postgraphile', () => postgraphile?.close()],
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
