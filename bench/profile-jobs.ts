/**
 * `npm run build && node dist/bench/profile-jobs.js`: the workflow-jobs workload's gateway side alone, for finding
 * where its CPU and statements go. A throwaway database (SQLite file, or BENCH_DATABASE_URL), the gateway with its
 * embedded runner, a warm-up, then BENCH_JOBS jobs (default 2000) started by autocannon (child process) while the
 * V8 profiler records (PROFILE=0: no profiler). Prints jobs/s, the process's CPU per job, statements per job (and
 * which), the top self-time slices, and writes the .cpuprofile under bench/results/.
 */
import '../src/db/utc';
import 'reflect-metadata';
import * as fs from 'node:fs';
import * as inspector from 'node:inspector';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Logger } from 'typeorm';
import { openDatabase } from '../ormconfig';
import { AppConfig, DatabaseConfig, loadConfig } from '../src/config';
import { createTempPostgresDatabase } from '../src/db/temp-postgres';
import { createApp } from '../src/server';
import { createServices } from '../src/services';
import { measureGateway } from './jobs';
import { seedIdentity } from './lib/seed';
import { summarize } from './profile';

/** Counts statements while armed, by their text's first words. */
class Statements implements Logger {
  armed = false;
  count = 0;
  readonly kinds = new Map<string, number>();
  logQuery(query: string): void {
    if (!this.armed) return;
    this.count++;
    // the first words only: a whole statement's text (a job's INSERT) made per query was a visible share of the profile
    const k = query.slice(0, 120).replace(/\s+/g, ' ').slice(0, 90);
    this.kinds.set(k, (this.kinds.get(k) ?? 0) + 1);
  }
  logQueryError(): void {}
  logQuerySlow(): void {}
  logSchemaBuild(): void {}
  logMigration(): void {}
  log(): void {}
}

function post<T>(session: inspector.Session, method: string, params?: object): Promise<T> {
  return new Promise((resolve, reject) => session.post(method, params ?? {}, (err, res) => (err ? reject(err) : resolve(res as T))));
}

async function main(): Promise<void> {
  const jobs = Number(process.env.BENCH_JOBS ?? 2000);
  const profile = process.env.PROFILE !== '0';
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
  const counter = new Statements();
  const ds = await openDatabase({ database }, { logger: counter });
  const seed = await seedIdentity(ds, createServices(), { users: 5, repositories: 10, privateShare: 0.3 });
  const config: AppConfig = { ...loadConfig({ PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent', SEED_DEMO: 'false', NODE_ENV: 'production' }), database };
  const app = await createApp(config, { dataSource: ds });
  try {
    const base = await app.listen();
    const k = await app.deps.services.identity.createAccessKey(ds.manager, { user: seed.adminLogin }, app.config.secretKey);
    const key = { accessKeyId: k.accessKeyId, secretAccessKey: k.secretAccessKey };
    await measureGateway('embedded', base, ds, key, 300, 32);
    counter.kinds.clear();
    const session = new inspector.Session();
    if (profile) {
      session.connect();
      await post(session, 'Profiler.enable');
      await post(session, 'Profiler.setSamplingInterval', { interval: 200 });
      await post(session, 'Profiler.start');
    }
    const run = await measureGateway('embedded', base, ds, key, jobs, 32, counter);
    console.log(`${jobs} jobs on ${database.type}: ${run.jobsPerSec.toFixed(0)} jobs/s, ${run.cpuUsPerJob.toFixed(0)} us CPU per job, ${run.statementsPerJob!.toFixed(2)} statements per job (load ${os.loadavg()[0].toFixed(1)})`);
    for (const [k, n] of [...counter.kinds].sort((a, b) => b[1] - a[1]).slice(0, 20)) console.log(`  ${(n / jobs).toFixed(2).padStart(6)}  ${k}`);
    if (profile) {
      const { profile: p } = await post<{ profile: { nodes: Parameters<typeof summarize>[0]['nodes'] } }>(session, 'Profiler.stop');
      session.disconnect();
      const out = path.join(__dirname, '..', '..', 'bench', 'results', `profile-workflow-jobs-${database.type}-${Date.now()}.cpuprofile`);
      fs.writeFileSync(out, JSON.stringify(p));
      console.log(summarize(p, Number(process.env.PROFILE_TOP ?? 40)));
      console.log(`profile: ${out}`);
    }
  } finally {
    await app.close();
    await drop();
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
