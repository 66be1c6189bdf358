/**
 * Secret scans must not block the event loop (issue 6, item 12). Checked structurally, not by latencies:
 *  - in this process (the real app over a throwaway database): detection never runs on the main thread (the
 *    detector's main-thread entry points are never called), it runs as tasks of the worker pool, and requests
 *    are answered while a detection task is running in a worker, during a backfill and during a large push;
 *  - with the real server process (plain node, `node dist/src/main.js`): a backfill returns `in_progress` at
 *    once and scan history shows it completed later with the expected alerts; /healthz keeps answering during it
 *    and during a 1,000-file push. A graceful shutdown during a backfill marks it failed; a crash leaves it
 *    in_progress and the next start marks it failed.
 *    "During" is made certain, not likely: a test hook preloaded into the server process (detection-hold.ts) holds
 *    the backfill's detection in a worker thread until the assertions that need it in progress are done, where a
 *    23 MB backfill used to be scanned only to last long enough (and, at nice +10 on a busy machine, took minutes).
 *    Only a detection in a worker thread can reach the hold: detection on the main thread would never be held.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Piscina } from 'piscina';
import type { DataSource } from 'typeorm';
import { openDatabase } from '../../ormconfig';
import { RepositoryEntity } from '../../entities/identity';
import { SecretScanningAlertEntity, SecretScanningContentEntity, SecretScanningScanEntity } from '../../entities/secret-scanning';
import type { DatabaseConfig } from '../../src/config';
import * as detector from '../../src/services/secret-scanning/detector';
import * as engine from '../../src/services/secret-scanning/detector/engine';
import { IdentityFixtures } from '../fixtures/identity';
import { startTestApp } from '../helpers/app';
import { createTestDatabaseConfig, testDialect } from '../helpers/db';
import { DetectionHold } from '../helpers/detection-hold';
import { ServerProcess, startServerProcess } from '../helpers/process';
import { commitSha, fakeSecrets, fileOf, gitBlobId, randomChars } from '../fixtures/fake-secrets';

// Detection threads run at nice +10 and share two cores with the other suite's files in CI. How long a scan takes
// is no part of what these tests assert (the event loop stays free, the scan ends): they wait.
jest.setTimeout(420_000);

const PROBE_EVERY_MS = 20;

function dbEnv(database: DatabaseConfig): string {
  return database.type === 'sqlite' ? `sqlite:${database.path}` : database.url;
}

/** Probes /healthz every PROBE_EVERY_MS (one at a time) until stopped; returns every latency in ms. */
function probeHealth(url: string, onAnswer: () => void = () => undefined): { stop(): Promise<number[]> } {
  const latencies: number[] = [];
  let running = true;
  const loop = (async () => {
    while (running) {
      const t0 = performance.now();
      const res = await fetch(`${url}/healthz`);
      await res.text();
      const ms = performance.now() - t0;
      if (res.status !== 200) throw new Error(`/healthz answered ${res.status}`);
      onAnswer();
      latencies.push(ms);
      await new Promise((r) => setTimeout(r, Math.max(0, PROBE_EVERY_MS - ms)));
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      return latencies;
    },
  };
}

async function gql<T = Record<string, any>>(url: string, token: string, query: string, variables: Record<string, unknown> = {}): Promise<T> {
  const res = await fetch(`${url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ query, variables }),
  });
  const body = (await res.json()) as { data?: T; errors?: unknown[] };
  if (body.errors) throw new Error(`GraphQL errors: ${JSON.stringify(body.errors).slice(0, 500)}`);
  return body.data!;
}

const START_SCAN = `mutation($input: StartSecretScanInput!) { startSecretScan(input: $input) { scan { kind status startedAt completedAt } } }`;
const HISTORY = `query($owner: String!, $name: String!) { repository(owner: $owner, name: $name) {
  secretScanningScanHistory { backfillScans { status startedAt completedAt } } } }`;
const SUBMIT_PUSH = `mutation($input: SubmitPushInput!) { submitPush(input: $input) { blocked alerts { number created } } }`;

/** Polls scan history until the latest backfill is no longer in_progress. */
async function waitForBackfill(url: string, token: string, owner: string, name: string, timeoutMs = 400_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const data = await gql(url, token, HISTORY, { owner, name });
    const scans = data.repository.secretScanningScanHistory.backfillScans as Array<{ status: string }>;
    const last = scans[scans.length - 1];
    if (last && last.status !== 'IN_PROGRESS') return last.status;
    if (Date.now() > deadline) throw new Error('the backfill did not finish in time');
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** ~`lines` lines of ordinary code with one fake secret every `every` lines. */
function contentWithSecrets(lines: number, every: number, secrets: string[]): string {
  const out: string[] = [];
  for (let i = 0; i < lines; i++) {
    if (i % every === every - 1) {
      const s = fakeSecrets.githubPat();
      secrets.push(s.secret);
      out.push(s.line);
    } else {
      out.push(`  const value${i} = compute(${i}, "${randomChars(12)}"); // ordinary line of code number ${i}`);
    }
  }
  return fileOf(out);
}

describe('secret detection runs in worker threads while the main thread answers (in process)', () => {
  it('a backfill and a large push: no detection on the main thread, requests answered while a worker detects', async () => {
    const t = await startTestApp({ env: { WORKFLOW_RUNNER: 'off' } });
    const onMainThread = [jest.spyOn(detector, 'detectSecrets'), jest.spyOn(engine, 'lintContent')];
    let inFlight = 0;
    let tasks = 0;
    const run = Piscina.prototype.run;
    const runSpy = jest.spyOn(Piscina.prototype, 'run').mockImplementation(function (this: Piscina, ...args: Parameters<Piscina['run']>) {
      inFlight++;
      tasks++;
      return run.apply(this, args).finally(() => inFlight--);
    });
    try {
      const f = new IdentityFixtures(t.db.dataSource);
      const org = await f.org('inproc');
      const admin = await f.user('inproc-admin');
      await f.member(org, admin, 'admin');
      const repo = await f.repo(org, { name: 'stored', private: true, secretScanning: true, advancedSecurity: true });
      const pushRepo = await f.repo(org, { name: 'pushed', private: true, secretScanning: true, advancedSecurity: true });
      const token = await f.classicToken(admin, ['repo', 'admin:org']);
      const secrets: string[] = [];
      const rows = Array.from({ length: 12 }, (_, i) => {
        const content = contentWithSecrets(2_400, 600, secrets);
        return { repositoryId: repo.id, locationType: 'commit' as const, commitSha: commitSha(), path: `src/f${i}.ts`, blobSha: gitBlobId(content), url: null, pusherId: admin.id, content };
      });
      await t.db.dataSource.getRepository(SecretScanningContentEntity).insert(rows);

      // Backfill: /healthz answers while a detection task runs in a worker.
      let answeredDuringDetection = 0;
      let probe = probeHealth(t.url, () => void (inFlight > 0 && answeredDuringDetection++));
      const started = await gql(t.url, token, START_SCAN, { input: { repository: `${org.login}/${repo.name}`, kind: 'BACKFILL' } });
      expect(started.startSecretScan.scan.status).toBe('IN_PROGRESS');
      expect(await waitForBackfill(t.url, token, org.login, repo.name)).toBe('COMPLETED');
      await probe.stop();
      expect(tasks).toBeGreaterThan(1);
      expect(answeredDuringDetection).toBeGreaterThan(0);
      const alerts = await t.db.dataSource.getRepository(SecretScanningAlertEntity).find({ where: { repositoryId: repo.id } });
      expect(new Set(alerts.map((a) => a.secret))).toEqual(new Set(secrets));

      // A 1,000-file push: the same.
      answeredDuringDetection = 0;
      tasks = 0;
      const pushed: string[] = [];
      const files = Array.from({ length: 1_000 }, (_, i) => ({ path: `pkg/m${i}.ts`, content: contentWithSecrets(45, i % 100 === 0 ? 45 : 1_000, pushed) }));
      probe = probeHealth(t.url, () => void (inFlight > 0 && answeredDuringDetection++));
      const res = await gql(t.url, token, SUBMIT_PUSH, { input: { repository: `${org.login}/${pushRepo.name}`, ref: 'refs/heads/main', commits: [{ sha: commitSha(), files }] } });
      await probe.stop();
      expect(res.submitPush.alerts).toHaveLength(pushed.length);
      expect(tasks).toBeGreaterThan(1);
      expect(answeredDuringDetection).toBeGreaterThan(0);

      for (const spy of onMainThread) expect(spy).not.toHaveBeenCalled();
    } finally {
      runSpy.mockRestore();
      for (const spy of onMainThread) spy.mockRestore();
      await t.close();
    }
  });
});

describe('secret scans do not block the event loop (server process)', () => {
  let database: DatabaseConfig;
  let drop: () => Promise<void> = async () => undefined;
  let ds: DataSource;
  let token: string;
  let repo: RepositoryEntity;
  let pushRepo: RepositoryEntity;
  let owner: string;
  const secrets: string[] = [];
  let hold: DetectionHold;

  beforeAll(async () => {
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'gw-scan-'));
    hold = new DetectionHold(tmp);
    if (testDialect() === 'sqlite') {
      database = { type: 'sqlite', path: path.join(tmp, 'db.sqlite') };
    } else {
      const tmp = await createTestDatabaseConfig();
      database = tmp.database;
      drop = tmp.drop;
    }
    ds = await openDatabase({ database });
    const f = new IdentityFixtures(ds);
    const org = await f.org('scanorg');
    const admin = await f.user('scanadmin');
    await f.member(org, admin, 'admin');
    owner = org.login;
    repo = await f.repo(org, { name: 'big', private: true, secretScanning: true, advancedSecurity: true });
    pushRepo = await f.repo(org, { name: 'pushed', private: true, secretScanning: true, advancedSecurity: true });
    token = await f.classicToken(admin, ['repo', 'admin:org']);
    // ~4.6 MB of stored content, more than one page of a rescan (RESCAN_PAGE_CHARS): 20 files of ~230 KB, 4 secrets
    // each. (The backfill was 24 MB; the hold, not the size, keeps a backfill in progress here.)
    const rows = [];
    for (let i = 0; i < 20; i++) {
      const content = contentWithSecrets(2_400, 600, secrets);
      rows.push({
        repositoryId: repo.id,
        locationType: 'commit' as const,
        commitSha: commitSha(),
        path: `src/file${i}.ts`,
        blobSha: gitBlobId(content),
        url: null,
        pusherId: admin.id,
        content,
      });
    }
    for (let i = 0; i < rows.length; i += 20) await ds.getRepository(SecretScanningContentEntity).insert(rows.slice(i, i + 20));
    await ds.destroy();
  });

  afterAll(async () => {
    hold?.release();
    if (ds?.isInitialized) await ds.destroy();
    await drop();
  });
  afterEach(() => hold.release());

  async function start(): Promise<ServerProcess> {
    return startServerProcess({ DATABASE_URL: dbEnv(database), SEED_DEMO: 'false', LOG_LEVEL: 'warn', ...hold.env() }, 60_000);
  }

  async function lastBackfillStatus(url: string): Promise<string> {
    const data = await gql(url, token, HISTORY, { owner, name: repo.name });
    const scans = data.repository.secretScanningScanHistory.backfillScans as Array<{ status: string }>;
    return scans[scans.length - 1].status;
  }

  async function stop(server: ServerProcess, signal: NodeJS.Signals = 'SIGTERM'): Promise<number | null> {
    server.child.kill(signal);
    return server.exited;
  }

  async function scanRows(): Promise<SecretScanningScanEntity[]> {
    const db = await openDatabase({ database });
    try {
      return await db.getRepository(SecretScanningScanEntity).find({ where: { repositoryId: repo.id, kind: 'backfill' }, order: { id: 'ASC' } });
    } finally {
      await db.destroy();
    }
  }

  it('/healthz answers during a backfill, which returns in_progress and completes later with every alert', async () => {
    const server = await start();
    try {
      // warm up (worker threads, JIT) on an ordinary request
      await gql(server.url, token, HISTORY, { owner, name: repo.name });
      let answered = 0;
      const probe = probeHealth(server.url, () => void answered++);
      await new Promise((r) => setTimeout(r, 100));
      hold.hold();
      const started = await gql(server.url, token, START_SCAN, { input: { repository: `${owner}/${repo.name}`, kind: 'BACKFILL' } });
      // A detection task of the backfill is in progress in a worker thread: /healthz answers meanwhile.
      await hold.running();
      const before = answered;
      while (answered < before + 5) await new Promise((r) => setTimeout(r, PROBE_EVERY_MS));
      const whileHeld = await lastBackfillStatus(server.url);
      hold.release();
      const status = await waitForBackfill(server.url, token, owner, repo.name);
      const latencies = await probe.stop();
      expect(started.startSecretScan.scan).toMatchObject({ kind: 'BACKFILL', status: 'IN_PROGRESS', completedAt: null });
      expect(whileHeld).toBe('IN_PROGRESS');
      expect(status).toBe('COMPLETED');
      expect(latencies.length).toBeGreaterThan(0);
    } finally {
      expect(await stop(server)).toBe(0);
    }
    const db = await openDatabase({ database });
    try {
      const alerts = await db.getRepository(SecretScanningAlertEntity).find({ where: { repositoryId: repo.id } });
      expect(alerts.length).toBe(secrets.length);
      expect(new Set(alerts.map((a) => a.secret))).toEqual(new Set(secrets));
      const scan = (await db.getRepository(SecretScanningScanEntity).find({ where: { repositoryId: repo.id, kind: 'backfill' } }))[0];
      expect(scan).toMatchObject({ status: 'completed', alertsFound: secrets.length });
    } finally {
      await db.destroy();
    }
  });

  it('/healthz answers while a 1,000-file push is scanned; the push answers its alerts', async () => {
    const server = await start();
    try {
      // ~4.3 MB in 1,000 files (a push may hold 5 MiB), a secret in one file of 50. (The findings of a push are recorded in one
      // transaction, which on SQLite runs in the main thread at ~2 ms per secret: kept few here.)
      const pushed: string[] = [];
      const files = Array.from({ length: 1_000 }, (_, i) => ({ path: `pkg/m${i}.ts`, content: contentWithSecrets(45, i % 50 === 0 ? 45 : 1_000, pushed) }));
      const input = { repository: `${owner}/${pushRepo.name}`, ref: 'refs/heads/main', commits: [{ sha: commitSha(), files }] };
      await gql(server.url, token, HISTORY, { owner, name: pushRepo.name });
      const probe = probeHealth(server.url);
      await new Promise((r) => setTimeout(r, 100));
      const res = await gql(server.url, token, SUBMIT_PUSH, { input });
      await new Promise((r) => setTimeout(r, 100));
      const latencies = await probe.stop();
      expect(res.submitPush.blocked).toBe(false);
      expect(res.submitPush.alerts).toHaveLength(pushed.length);
      expect(latencies.length).toBeGreaterThan(0);
    } finally {
      expect(await stop(server)).toBe(0);
    }
  });

  it('a graceful shutdown during a backfill cancels it and marks it failed; the process exits 0', async () => {
    const server = await start();
    const before = (await scanRows()).length;
    hold.hold();
    const started = await gql(server.url, token, START_SCAN, { input: { repository: `${owner}/${repo.name}`, kind: 'BACKFILL' } });
    expect(started.startSecretScan.scan.status).toBe('IN_PROGRESS');
    await hold.running();
    expect(await stop(server)).toBe(0);
    const rows = await scanRows();
    expect(rows).toHaveLength(before + 1);
    expect(rows[rows.length - 1]).toMatchObject({ status: 'failed' });
    expect(rows[rows.length - 1].completedAt).toBeInstanceOf(Date);
  });

  it('a backfill left in_progress by a crash is marked failed at the next start', async () => {
    const server = await start();
    hold.hold();
    const started = await gql(server.url, token, START_SCAN, { input: { repository: `${owner}/${repo.name}`, kind: 'BACKFILL' } });
    expect(started.startSecretScan.scan.status).toBe('IN_PROGRESS');
    await hold.running();
    await stop(server, 'SIGKILL');
    const crashed = await scanRows();
    expect(crashed[crashed.length - 1]).toMatchObject({ status: 'in_progress', completedAt: null });
    hold.release();
    const again = await start();
    try {
      const rows = await scanRows();
      expect(rows[rows.length - 1]).toMatchObject({ id: crashed[crashed.length - 1].id, status: 'failed' });
      expect(await waitForBackfill(again.url, token, owner, repo.name)).toBe('FAILED');
    } finally {
      expect(await stop(again)).toBe(0);
    }
  });
});
