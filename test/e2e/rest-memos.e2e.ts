/**
 * REST answer memos belong to the app (issue 21 §2): createApp makes them with the configured sizes, /metrics
 * shows their hits, misses and bytes, two apps in one process keep their own, close() empties them, and a size of
 * 0 keeps nothing while the answers stay the same.
 */
import { IdentityFixtures } from '../fixtures/identity';
import { SecretScanningFixtures } from '../fixtures/secret-scanning';
import { startTestApp, TestApp } from '../helpers/app';
import { openTestDatabase } from '../helpers/db';

function metric(text: string, name: string, labels: string): number {
  const line = text.split('\n').find((l) => l.startsWith(`${name}{${labels}}`));
  return line === undefined ? NaN : Number(line.slice(line.lastIndexOf(' ') + 1));
}

describe('REST answer memos are the app’s own', () => {
  let a: TestApp;
  let b: TestApp;
  let token: string;

  beforeAll(async () => {
    a = await startTestApp({ keepDb: true });
    const f = new IdentityFixtures(a.db.dataSource);
    const org = await f.org('memo-org');
    const admin = await f.user('memo-admin');
    await f.member(org, admin, 'admin');
    const repo = await f.repo(org, { name: 'app', private: true, secretScanning: true });
    await new SecretScanningFixtures(a.db.dataSource).alerts(repo, 5, {});
    token = await f.classicToken(admin, ['repo', 'read:org', 'security_events']);
    // A second app over the same database, keeping nothing.
    b = await startTestApp({ db: a.db, keepDb: true, env: { REST_MEMO_ALERT_TEXT_BYTES: '0', REST_MEMO_ALERT_PAGE_BYTES: '0' } });
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
    await a?.db.drop();
  });

  const list = async (t: TestApp) => {
    const r = await fetch(`${t.url}/orgs/memo-org/secret-scanning/alerts?per_page=10`, { headers: { authorization: `Bearer ${token}` } });
    expect(r.status).toBe(200);
    // The app's own base URL (each app listens on its own port) written as one.
    return (await r.text()).split(t.url).join('http://gateway');
  };
  const metrics = async (t: TestApp) => (await fetch(`${t.url}/metrics`)).text();

  it('misses, then hits; bytes in /metrics; the other app saw nothing', async () => {
    const first = await list(a);
    const second = await list(a);
    expect(second).toBe(first);
    let m = await metrics(a);
    // The first answer presented five alerts (texts kept) and was kept whole; the second was the kept answer.
    expect(metric(m, 'rest_memo_lookups_total', 'memo="alert_texts",outcome="miss"')).toBe(5);
    expect(metric(m, 'rest_memo_lookups_total', 'memo="alert_texts",outcome="hit"')).toBe(0);
    expect(metric(m, 'rest_memo_lookups_total', 'memo="alert_pages",outcome="miss"')).toBe(1);
    expect(metric(m, 'rest_memo_lookups_total', 'memo="alert_pages",outcome="hit"')).toBe(1);
    expect(metric(m, 'rest_memo_entries', 'memo="alert_texts"')).toBe(5);
    expect(metric(m, 'rest_memo_entries', 'memo="alert_pages"')).toBe(1);
    expect(metric(m, 'rest_memo_bytes', 'memo="alert_texts"')).toBeGreaterThan(first.length);
    // Another page size: a new answer, made of the kept texts.
    const r = await fetch(`${a.url}/orgs/memo-org/secret-scanning/alerts?per_page=4`, { headers: { authorization: `Bearer ${token}` } });
    expect(r.status).toBe(200);
    m = await metrics(a);
    expect(metric(m, 'rest_memo_lookups_total', 'memo="alert_texts",outcome="hit"')).toBe(4);
    const other = await metrics(b);
    expect(metric(other, 'rest_memo_entries', 'memo="alert_texts"')).toBe(0);
  });

  it('a memo of 0 bytes keeps nothing and answers the same bytes', async () => {
    const viaA = await list(a);
    expect(await list(b)).toBe(viaA);
    expect(await list(b)).toBe(viaA);
    const m = await metrics(b);
    expect(metric(m, 'rest_memo_entries', 'memo="alert_texts"')).toBe(0);
    expect(metric(m, 'rest_memo_bytes', 'memo="alert_texts"')).toBe(0);
    expect(metric(m, 'rest_memo_entries', 'memo="alert_pages"')).toBe(0);
    expect(metric(m, 'rest_memo_lookups_total', 'memo="alert_texts",outcome="hit"')).toBe(0);
    expect(metric(m, 'rest_memo_lookups_total', 'memo="alert_pages",outcome="hit"')).toBe(0);
  });

  it('close() empties the app’s memos', async () => {
    const memos = a.app.deps.memos!;
    expect(memos.alertTexts.size).toBeGreaterThan(0);
    const c = await startTestApp({ db: await openTestDatabase() });
    const own = c.app.deps.memos!;
    expect(own).not.toBe(memos);
    await c.close();
    expect(own.alertTexts.size).toBe(0);
  });
});
