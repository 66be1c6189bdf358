/**
 * Crash under writes (issue 6, "Crash"): a real server process (`node dist/src/main.js`) on a SQLite FILE
 * (or a throwaway PostgreSQL database when DATABASE_URL is postgres://…) takes a stream of writes, is killed
 * with SIGKILL mid-stream and restarted on the same database. The database is intact (SQLite
 * `PRAGMA integrity_check`), and every write acknowledged before the kill is there: each write is a
 * submitContent with a new secret at its own URL, or a push of 20 files with new secrets, so each
 * acknowledged answer names the alerts and locations to look for afterwards.
 */
import { openDatabase } from '../../ormconfig';
import { SecretScanningLocationEntity } from '../../entities/secret-scanning';
import { SubmitContentDocument, SubmitPushDocument } from '../__generated__/graphql';
import { gqlDoc } from '../helpers/app';
import { testDialect } from '../helpers/db';
import { killHard, killStillRunning, ServerProcess, startServerProcess } from '../helpers/process';
import { seedAcme, SharedDatabase, sharedDatabase } from '../helpers/shared-db';
import { commitSha, fakeSecrets, fileOf } from '../fixtures/fake-secrets';

describe(`kill -9 during writes (${testDialect()})`, () => {
  let db: SharedDatabase;
  let token: string;
  const running: ServerProcess[] = [];
  const env = () => ({ DATABASE_URL: db.url, SEED_DEMO: 'false', LOG_LEVEL: 'warn' });

  beforeAll(async () => {
    db = await sharedDatabase('crash');
    ({ token } = await seedAcme(db));
  }, 60_000);

  afterAll(async () => {
    await killStillRunning(running);
    await db?.drop();
  });

  it('after SIGKILL and a restart: integrity ok, every acknowledged write present, writes work again', async () => {
    const first = await startServerProcess(env());
    running.push(first);
    const acknowledged: Array<{ url: string; number: number }> = [];
    let failedInFlight = 0;
    let killed = false;
    let seq = 0;

    const pushes: Array<{ sha: string; numbers: number[] }> = [];
    // Half the writers submit one item, half push 20 files (long transactions: the kill often lands inside one).
    const writer = async (_: unknown, w: number) => {
      while (!killed) {
        const i = seq++;
        const url = `https://example.test/acme/api/issues/${i}`;
        try {
          if (w % 2 === 1) {
            const sha = commitSha();
            const files = Array.from({ length: 20 }, (_f, k) => ({ path: `conf/${i}-${k}.env`, content: fileOf([fakeSecrets.githubPat().line]) }));
            const r = await gqlDoc(first.url, SubmitPushDocument, { input: { repository: 'acme/api', ref: 'refs/heads/main', commits: [{ sha, files }] } }, token);
            expect(r.body.errors).toBeUndefined();
            pushes.push({ sha, numbers: r.body.data!.submitPush.alerts!.map((a) => a.number) });
            continue;
          }
          const content = fileOf([fakeSecrets.githubPat().line]);
          const r = await gqlDoc(first.url, SubmitContentDocument, { input: { repository: 'acme/api', locationType: 'ISSUE_BODY', url, content } }, token);
          expect(r.body.errors).toBeUndefined();
          const alerts = r.body.data!.submitContent.alerts!;
          expect(alerts).toHaveLength(1);
          acknowledged.push({ url, number: alerts[0].number });
        } catch (e) {
          // A request cut by the kill is not acknowledged; anything else is a real failure.
          if (!killed) throw e;
          failedInFlight++;
        }
      }
    };
    const writers = Array.from({ length: 8 }, writer);
    // Kill once a good number of writes were acknowledged, while 8 more are in flight.
    // (A loaded machine gets there more slowly: wait up to 30 s, and require a smaller floor below.)
    const deadline = Date.now() + 30_000;
    while (acknowledged.length < 40 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    killed = true;
    await killHard(first);
    await Promise.all(writers);
    expect(acknowledged.length).toBeGreaterThanOrEqual(10);

    if (db.database.type === 'sqlite') {
      const check = await openDatabase({ database: db.database });
      try {
        expect(await check.query('PRAGMA integrity_check')).toEqual([{ integrity_check: 'ok' }]);
      } finally {
        await check.destroy();
      }
    }

    const second = await startServerProcess(env());
    running.push(second);
    const ds = await openDatabase({ database: db.database });
    try {
      const stored = new Set((await ds.getRepository(SecretScanningLocationEntity).find({ select: { url: true } })).map((l) => l.url));
      expect(acknowledged.filter((a) => !stored.has(a.url))).toEqual([]);
      const locations = ds.getRepository(SecretScanningLocationEntity);
      for (const p of pushes) expect([p.sha, await locations.count({ where: { commitSha: p.sha } })]).toEqual([p.sha, 20]);
    } finally {
      await ds.destroy();
    }
    // Every acknowledged alert is served by the restarted server.
    const numbers = [...new Set([...acknowledged.map((a) => a.number), ...pushes.flatMap((p) => p.numbers)])];
    expect(numbers).toHaveLength(acknowledged.length + pushes.length * 20);
    const statuses = await Promise.all(
      numbers.map(async (n) => {
        const res = await fetch(`${second.url}/repos/acme/api/secret-scanning/alerts/${n}`, { headers: { authorization: `Bearer ${token}` } });
        await res.arrayBuffer();
        return res.status;
      }),
    );
    expect(statuses.filter((s) => s !== 200)).toEqual([]);
    // And the restarted server takes writes: a new alert numbered after every acknowledged one.
    const after = await gqlDoc(second.url, SubmitContentDocument, {
      input: { repository: 'acme/api', locationType: 'ISSUE_BODY', url: 'https://example.test/acme/api/issues/after', content: fileOf([fakeSecrets.githubPat().line]) },
    }, token);
    expect(after.body.errors).toBeUndefined();
    expect(after.body.data!.submitContent.alerts![0].number).toBeGreaterThan(Math.max(...numbers));
    // eslint-disable-next-line no-console
    console.log(`crash (${testDialect()}): ${acknowledged.length} submissions + ${pushes.length} pushes acknowledged before SIGKILL, ${failedInFlight} cut in flight`);
  }, 90_000);
});
