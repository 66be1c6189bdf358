/**
 * `npm run bench:profile`: CPU profile of the gateway alone under load, for reading the top self-time slices.
 *
 *   BENCH_WORKLOADS=secret-scanning-org-alerts PROFILE_TARGET=gateway|twin npm run bench:profile
 *   PROFILE=0: no V8 profiler, only the load (prints the pid, req/s and CPU per request): for `perf record -p`
 *
 * Seeds a throwaway database exactly as `npm run bench` does (SQLite file, or BENCH_DATABASE_URL), starts
 * the gateway (no baseline in this process, so the profile holds only gateway work), warms up, then drives
 * the chosen workload's request with autocannon (child process) for BENCH_DURATION seconds while the V8
 * inspector records. Prints the top self-time functions and groups (by package) and writes the
 * .cpuprofile under bench/results/ (open it in Chrome DevTools for the call tree).
 */
import '../src/db/utc';
import 'reflect-metadata';
import * as fs from 'node:fs';
import * as inspector from 'node:inspector';
import * as os from 'node:os';
import * as path from 'node:path';
import { openDatabase } from '../ormconfig';
import { AppConfig, DatabaseConfig, loadConfig } from '../src/config';
import { createTempPostgresDatabase } from '../src/db/temp-postgres';
import { createApp } from '../src/server';
import { createServices } from '../src/services';
import { runLoad } from './lib/load';
import { DEFAULT_SEED, seedIdentity } from './lib/seed';
import { BENCH_CALENDAR_NOW, BENCH_CALENDAR_TIMEZONE, DEFAULT_CALENDAR_SEED, seedCalendar } from './lib/seed-calendar';
import { DEFAULT_SECRET_SCANNING_SEED, seedSecretScanning } from './lib/seed-secret-scanning';
import type { BenchEnv } from './lib/types';
import { fetchOnce } from './lib/verify';
import { WORKLOADS } from './workloads';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
  children?: number[];
}

function post<T>(session: inspector.Session, method: string, params?: object): Promise<T> {
  return new Promise((resolve, reject) => session.post(method, params ?? {}, (err, res) => (err ? reject(err) : resolve(res as T))));
}

/** Group of a script URL: the npm package, or our own top-level folder. */
function groupOf(url: string): string {
  if (!url) return '(native/gc/idle)';
  const nm = url.lastIndexOf('node_modules/');
  if (nm >= 0) {
    const rest = url.slice(nm + 'node_modules/'.length).split('/');
    return rest[0].startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0];
  }
  if (url.startsWith('node:')) return 'node core';
  const m = /\/dist\/([^/]+)/.exec(url);
  return m ? `ours: ${m[1]}` : url;
}

export function summarize(profile: { nodes: ProfileNode[] }, top = 25): string {
  const total = profile.nodes.reduce((s, n) => s + (n.hitCount ?? 0), 0);
  const byFn = new Map<string, number>();
  const byGroup = new Map<string, number>();
  for (const n of profile.nodes) {
    const hits = n.hitCount ?? 0;
    if (!hits) continue;
    const f = n.callFrame;
    const file = f.url.replace(/^.*node_modules\//, '').replace(/^file:\/\/.*\/dist\//, '');
    const key = `${f.functionName || '(anonymous)'} ${file ? `${file}:${f.lineNumber + 1}` : ''}`.trim();
    byFn.set(key, (byFn.get(key) ?? 0) + hits);
    const g = f.functionName === '(idle)' ? '(idle)' : f.functionName === '(garbage collector)' ? '(gc)' : groupOf(f.url);
    byGroup.set(g, (byGroup.get(g) ?? 0) + hits);
  }
  const idle = byGroup.get('(idle)') ?? 0;
  const busy = total - idle;
  const pct = (h: number) => `${((100 * h) / busy).toFixed(1).padStart(5)} %`;
  const lines = [`busy samples ${busy} of ${total} (idle ${((100 * idle) / total).toFixed(1)} %); shares of busy time`, '', 'by package/folder:'];
  for (const [g, h] of [...byGroup].filter(([g]) => g !== '(idle)').sort((a, b) => b[1] - a[1]).slice(0, 15)) lines.push(`  ${pct(h)}  ${g}`);
  lines.push('', 'top self-time functions:');
  for (const [k, h] of [...byFn].filter(([k]) => !k.startsWith('(idle)')).sort((a, b) => b[1] - a[1]).slice(0, top)) lines.push(`  ${pct(h)}  ${k}`);
  return lines.join('\n');
}

async function main(): Promise<void> {
  const name = process.env.BENCH_WORKLOADS?.trim() || 'secret-scanning-org-alerts';
  const w = WORKLOADS.find((x) => x.name === name);
  if (!w) throw new Error(`unknown workload ${name}`);
  const which = process.env.PROFILE_TARGET === 'twin' ? 'twin' : 'gateway';
  const duration = Number(process.env.BENCH_DURATION ?? 10);
  const url = process.env.BENCH_DATABASE_URL?.trim();
  let database: DatabaseConfig;
  let drop: () => Promise<void>;
  if (url) {
    const tmp = await createTempPostgresDatabase(url, 'gw_profile');
    database = { type: 'postgres', url: tmp.url };
    drop = () => tmp.drop();
  } else {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gw-profile-'));
    database = { type: 'sqlite', path: path.join(dir, 'bench.sqlite') };
    drop = async () => fs.rmSync(dir, { recursive: true, force: true });
  }
  const ds = await openDatabase({ database });
  const seed = await seedIdentity(ds, createServices(), DEFAULT_SEED);
  const secretScanning = w.needs?.includes('secretScanning') ? await seedSecretScanning(ds, seed, DEFAULT_SECRET_SCANNING_SEED) : undefined;
  const calendar = w.needs?.includes('calendar') ? await seedCalendar(ds, seed, DEFAULT_CALENDAR_SEED) : undefined;
  if (database.type === 'sqlite') await ds.query('PRAGMA wal_checkpoint(TRUNCATE)');
  await ds.query(database.type === 'postgres' ? 'VACUUM ANALYZE' : 'ANALYZE'); // as bench/run.ts
  const config: AppConfig = {
    ...loadConfig({
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'silent',
      SEED_DEMO: 'false',
      NODE_ENV: 'production',
      CALENDAR_NOW: BENCH_CALENDAR_NOW,
      CALENDAR_TIMEZONE: BENCH_CALENDAR_TIMEZONE,
    }),
    database,
  };
  const app = await createApp(config, { dataSource: ds });
  try {
    const base = await app.listen();
    const env: BenchEnv = { dialect: database.type, seed, adminToken: seed.adminToken, secretScanning, calendar };
    const request = which === 'twin' && w.twin ? w.twin.request(env) : w.gateway(env);
    const first = await fetchOnce(base, request);
    if (first.status >= 300) throw new Error(`${name}: ${first.status} ${first.text.slice(0, 300)}`);
    await runLoad({ baseUrl: base, request, connections: 10, durationSec: 3, title: 'warm-up', expectBody: first.text });
    if (process.env.PROFILE === '0') {
      // No V8 profiler (its sampling thread and signals cost CPU of their own): for an outside profiler such as
      // `perf record -p <pid>` of a process started with --perf-basic-prof.
      console.log(`pid ${process.pid}: load for ${duration} s`);
      const run = await runLoad({ baseUrl: base, request, connections: 10, durationSec: duration, title: 'load', expectBody: first.text });
      console.log(`${name} / ${which} on ${database.type}: ${run.summary.reqPerSec.toFixed(0)} req/s, ${run.summary.serverCpuUsPerRequest?.toFixed(0)} us CPU per request`);
      return;
    }
    const session = new inspector.Session();
    session.connect();
    await post(session, 'Profiler.enable');
    await post(session, 'Profiler.setSamplingInterval', { interval: 200 });
    await post(session, 'Profiler.start');
    const run = await runLoad({ baseUrl: base, request, connections: 10, durationSec: duration, title: 'profile', expectBody: first.text });
    const { profile } = await post<{ profile: { nodes: ProfileNode[] } }>(session, 'Profiler.stop');
    session.disconnect();
    const out = path.join(__dirname, '..', '..', 'bench', 'results', `profile-${name}-${which}-${database.type}-${Date.now()}.cpuprofile`);
    fs.writeFileSync(out, JSON.stringify(profile));
    console.log(`${name} / ${which} on ${database.type}: ${run.summary.reqPerSec.toFixed(0)} req/s under the profiler (mismatches ${run.summary.mismatches}, non-2xx ${run.summary.non2xx})`);
    console.log(summarize(profile));
    console.log(`profile: ${out}`);
  } finally {
    await app.close();
    await drop();
  }
}

if (require.main === module) {
  main().catch((e) => {
    console.error(e);
    process.exit(1);
  });
}
