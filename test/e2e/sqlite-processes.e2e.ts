/**
 * Several processes writing to one database (issue 6 item 9): two real server processes
 * (`node dist/src/main.js`) and the admin CLI (`node dist/src/cli.js`) on one SQLite FILE, all writing at
 * once. A busy database is waited for, retried, or at worst a 503 — never a 500 — and every acknowledged
 * write is there afterwards. With DATABASE_URL=postgres://… the same scenario runs on a PostgreSQL database.
 */
import { spawn } from 'node:child_process';
import * as path from 'node:path';
import type { DataSource } from 'typeorm';
import { AccessTokenEntity, RepositoryCollaboratorEntity } from '../../entities/identity';
import { SecretScanningLocationEntity } from '../../entities/secret-scanning';
import { openDatabase } from '../../ormconfig';
import { hashToken } from '../../src/auth/tokens';
import { SubmitContentDocument, SubmitPushDocument } from '../__generated__/graphql';
import { SecretScanningFixtures } from '../fixtures/secret-scanning';
import { gqlDoc } from '../helpers/app';
import { testDialect } from '../helpers/db';
import { ROOT, ServerProcess, startServerProcess } from '../helpers/process';
import { seedAcme, SharedDatabase, sharedDatabase } from '../helpers/shared-db';
import { commitSha, fakeSecrets, fileOf } from '../fixtures/fake-secrets';

const CLI = path.join(ROOT, 'dist', 'src', 'cli.js');

function cli(args: string[], databaseUrl: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', DATABASE_URL: databaseUrl },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), 25_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** Run `tasks` with at most `limit` in flight. */
async function pool<T>(tasks: Array<() => Promise<T>>, limit: number): Promise<T[]> {
  const out: T[] = new Array(tasks.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: limit }, async () => {
      while (next < tasks.length) {
        const i = next++;
        out[i] = await tasks[i]();
      }
    }),
  );
  return out;
}

describe(`several processes writing to one ${testDialect() === 'sqlite' ? 'SQLite file' : 'PostgreSQL database'}`, () => {
  let db: SharedDatabase;
  let servers: ServerProcess[] = [];
  let token: string;
  const USERS = 6;

  beforeAll(async () => {
    db = await sharedDatabase('procs');
    ({ token } = await seedAcme(db, async ({ ds, f, org, repo }) => {
      for (let i = 0; i < USERS; i++) await f.member(org, await f.user(`acme-u${i}`), 'member');
      await new SecretScanningFixtures(ds).alerts(repo, 6);
    }));
    const env = { DATABASE_URL: db.url, SEED_DEMO: 'false', LOG_LEVEL: 'info' };
    servers = await Promise.all([startServerProcess(env), startServerProcess(env)]);
  }, 60_000);

  afterAll(async () => {
    for (const s of servers) {
      s.child.kill('SIGTERM');
      await s.exited;
    }
    await db?.drop();
  });

  it('two servers and the admin CLI write at once: no 500 anywhere, every acknowledged write is stored', async () => {
    const shared = fakeSecrets.githubPat();
    const started = Date.now();
    // 200 writes over the two servers: pushes of 20 files (long write transactions), findings (each a new
    // location; half of them of one shared secret, so one alert row is updated from both processes) and
    // alert updates.
    const http = pool(
      Array.from({ length: 200 }, (_, i) => async () => {
        const url = servers[i % 2].url;
        if (i % 4 === 0) {
          const res = await fetch(`${url}/repos/acme/api/secret-scanning/alerts/${1 + (i % 6)}`, {
            method: 'PATCH',
            headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
            body: JSON.stringify({ validity: i % 8 === 0 ? 'active' : 'inactive' }),
          });
          await res.arrayBuffer();
          return { kind: 'patch' as const, status: res.status, location: null };
        }
        if (i % 2 === 1) {
          // A push of 20 files, each with a new secret: a longer write transaction.
          const sha = commitSha();
          const files = Array.from({ length: 20 }, (_, k) => ({ path: `conf/${i}-${k}.env`, content: fileOf([fakeSecrets.githubPat().line]) }));
          const r = await gqlDoc(url, SubmitPushDocument, { input: { repository: 'acme/api', ref: 'refs/heads/main', commits: [{ sha, files }] } }, token);
          const code = r.body.errors?.[0]?.extensions?.code;
          const status = !code ? r.status : code === 'INTERNAL_SERVER_ERROR' ? 500 : code === 'SERVICE_UNAVAILABLE' ? 503 : 400;
          return { kind: 'push' as const, status, code, location: sha };
        }
        const location = `https://example.test/acme/api/issues/${i}#issuecomment-${i}`;
        const content = fileOf([(i % 8 === 2 ? shared : fakeSecrets.githubPat()).line]);
        const r = await gqlDoc(url, SubmitContentDocument, { input: { repository: 'acme/api', locationType: 'ISSUE_COMMENT', url: location, content } }, token);
        // A GraphQL error counts by its code: INTERNAL_SERVER_ERROR is the 500 of GraphQL.
        const code = r.body.errors?.[0]?.extensions?.code;
        const status = !code ? r.status : code === 'INTERNAL_SERVER_ERROR' ? 500 : code === 'SERVICE_UNAVAILABLE' ? 503 : 400;
        return { kind: 'content' as const, status, code, location };
      }),
      16,
    );
    // Meanwhile the CLI creates tokens and grants, three processes at a time.
    const cliRuns = pool(
      Array.from({ length: 12 }, (_, i) => () =>
        i % 2 === 0
          ? cli(['create-token', '--user', 'acme-admin', '--kind', 'classic', '--scopes', 'repo', '--note', `cli-${i}`], db.url)
          : cli(['grant', '--repo', 'acme/api', '--user', `acme-u${(i - 1) / 2}`, '--permission', 'write'], db.url),
      ),
      3,
    );
    const [answers, runs] = await Promise.all([http, cliRuns]);
    const elapsed = Date.now() - started;

    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s >= 500 && s !== 503)).toEqual([]);
    // Busy is waited for and retried: nothing should even need the 503.
    expect(statuses.filter((s) => s !== 200)).toEqual([]);
    for (const r of runs) expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 0, stderr: '' });
    for (const s of servers) expect(s.stdout()).not.toMatch(/unexpected error|SQLITE_BUSY/);

    const ds: DataSource = await openDatabase({ database: db.database });
    try {
      if (testDialect() === 'sqlite') expect(await ds.query('PRAGMA integrity_check')).toEqual([{ integrity_check: 'ok' }]);
      const stored = new Set((await ds.getRepository(SecretScanningLocationEntity).find({ select: { url: true } })).map((l) => l.url));
      const acknowledged = answers.filter((a) => a.kind === 'content' && a.status === 200).map((a) => a.location!);
      expect(acknowledged.filter((u) => !stored.has(u))).toEqual([]);
      const locations = ds.getRepository(SecretScanningLocationEntity);
      for (const a of answers.filter((x) => x.kind === 'push' && x.status === 200)) expect([a.location, await locations.count({ where: { commitSha: a.location! } })]).toEqual([a.location, 20]);
      for (const r of runs.filter((x) => x.code === 0)) {
        const doc = JSON.parse(r.stdout) as { token?: string; user?: string; permission?: string; repository?: string };
        if (doc.token) expect(await ds.getRepository(AccessTokenEntity).exists({ where: { tokenHash: hashToken(doc.token) } })).toBe(true);
        else expect(doc).toMatchObject({ repository: 'acme/api', permission: 'write' });
      }
      expect(await ds.getRepository(RepositoryCollaboratorEntity).count()).toBe(USERS);
    } finally {
      await ds.destroy();
    }
    // eslint-disable-next-line no-console
    console.log(`several processes (${testDialect()}): 200 HTTP writes + 12 CLI runs in ${elapsed} ms`);
    // How long the writes take is no part of what this asserts; in CI two suites share two cores with it.
  }, 240_000);
});
