/**
 * The alert list bodies (organization and repository lists, sent as one pre-built JSON buffer) against the
 * answers of the single-alert route (serialized by Fastify from the presented object): the same alerts, the
 * same fields in the same order, over page mode and cursor mode, with hide_secret, and over alerts of every
 * shape (open/resolved, assigned, bypassed, multi-repo, first locations of every type). Also checks what a
 * client sees of the body itself: JSON media type, exact Content-Length, compact JSON.
 * Runs on SQLite, and on PostgreSQL when DATABASE_URL is set.
 */
import type { AccountEntity, RepositoryEntity } from '../../entities/identity';
import { sqlFor } from '../../src/db/rows';
import { parseLinkHeader } from '../../src/rest/github/link';
import { AccountEntity as Account } from '../../entities/identity';
import { IdentityFixtures } from '../fixtures/identity';
import { testContexts } from '../helpers/context';
import { SecretScanningFixtures } from '../fixtures/secret-scanning';
import { startTestApp, TestApp } from '../helpers/app';

type Alert = Record<string, unknown> & { number: number; url: string; repository?: { full_name: string; description?: string | null } };

describe('secret scanning REST list bodies', () => {
  let t: TestApp;
  let token: string;
  const repos: Record<string, RepositoryEntity> = {};

  const get = (path: string) => fetch(path.startsWith('http') ? path : `${t.url}${path}`, { headers: { authorization: `Bearer ${token}` } });

  /** GET a list page: checks the body as bytes, returns the alerts and the Link header's relations. */
  async function page(path: string): Promise<{ alerts: Alert[]; links: Partial<Record<string, string>> }> {
    const res = await get(path);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    const bytes = Buffer.from(await res.arrayBuffer());
    expect(Number(res.headers.get('content-length'))).toBe(bytes.length);
    const text = bytes.toString('utf8');
    const alerts = JSON.parse(text) as Alert[];
    // Compact JSON, as JSON.stringify writes it.
    expect(text).toBe(JSON.stringify(alerts));
    return { alerts, links: parseLinkHeader(res.headers.get('link')) };
  }

  /** Follow `next` links from `path` to the end. */
  async function all(path: string): Promise<Alert[]> {
    const out: Alert[] = [];
    let next: string | undefined = path;
    while (next) {
      const p = await page(next);
      out.push(...p.alerts);
      next = p.links.next;
    }
    return out;
  }

  /** The single-alert answer (serialized by Fastify) of a list element. */
  async function single(a: Alert, hideSecret: boolean): Promise<Record<string, unknown>> {
    const res = await get(`${new URL(a.url).pathname}${hideSecret ? '?hide_secret=true' : ''}`);
    expect(res.status).toBe(200);
    return (await res.json()) as Record<string, unknown>;
  }

  /** A list element is the single answer in the list variant's field order (plus `repository` in org lists). */
  async function expectSameAsSingle(list: Alert[], hideSecret: boolean, variant: 'organization' | 'repository') {
    for (const a of list) {
      const one = await single(a, hideSecret);
      const { repository, ...rest } = a;
      const singleKeys = Object.keys(one).filter((k) => k !== 'metadata');
      // The repository list has the single answer's order; the organization list its own (checked elsewhere).
      if (variant === 'repository') expect(Object.keys(rest)).toEqual(singleKeys);
      else expect(Object.keys(rest).sort()).toEqual(singleKeys.sort());
      for (const k of Object.keys(rest)) expect([k, rest[k]]).toEqual([k, one[k]]);
      if (variant === 'organization') expect(repository?.full_name).toBe(new URL(a.url).pathname.split('/').slice(2, 4).join('/'));
      else expect(repository).toBeUndefined();
      expect('secret' in a).toBe(!hideSecret);
    }
  }

  beforeAll(async () => {
    t = await startTestApp();
    const f = new IdentityFixtures(t.db.dataSource);
    const ss = new SecretScanningFixtures(t.db.dataSource);
    const org = await f.org('lists');
    const users: Record<string, AccountEntity> = {};
    for (const login of ['lists-admin', 'lists-dev', 'lists-writer']) users[login.replace(/^lists-/, '')] = await f.user(login);
    await f.member(org, users.admin, 'admin');
    const mk = (name: string, o: Record<string, boolean>) => f.services.identity.createRepository(t.db.dataSource.manager, { owner: 'lists', name, ...o });
    repos.api = await mk('api', { private: true, secretScanning: true, pushProtection: true });
    repos.web = await mk('web', { private: false, secretScanning: true });
    repos.ops = await mk('ops', { private: true, secretScanning: true });
    for (const r of Object.values(repos)) await f.grant(r, org, users.writer, 'write');
    token = await f.classicToken(users.admin, ['repo', 'security_events']);
    const api = await ss.alerts(repos.api, 23, { assignees: [users.writer, users.admin], resolver: users.admin, bypasser: users.dev, allLocationTypesAt: 0 });
    // The secrets of lists/api #2-#4 are in lists/web too: multi_repo on both sides.
    const shared = api.slice(1, 4).map((a) => ({ secretType: a.secretType, providerSlug: a.providerSlug, secret: a.secret, line: `KEY=${a.secret}`, column: 5 }));
    await ss.alerts(repos.web, 6, { secrets: shared, start: new Date('2026-01-02T00:00:00Z'), assignees: [users.writer] });
    await ss.alerts(repos.ops, 9, { start: new Date('2026-01-03T00:00:00Z'), resolver: users.writer });
  });

  afterAll(async () => {
    await t?.close();
  });

  it.each([false, true])('organization list, page and cursor modes, hide_secret=%p: the same alerts as the single-alert answers', async (hideSecret) => {
    const q = `per_page=7&sort=created&direction=desc${hideSecret ? '&hide_secret=true' : ''}`;
    const paged = await all(`/orgs/lists/secret-scanning/alerts?${q}&page=1`);
    const cursor = await all(`/orgs/lists/secret-scanning/alerts?${q}&after=`);
    expect(paged.length).toBe(23 + 6 + 9);
    expect(cursor).toEqual(paged);
    await expectSameAsSingle(paged, hideSecret, 'organization');
    // Every shape is in there.
    expect(new Set(paged.map((a) => a.state))).toEqual(new Set(['open', 'resolved']));
    expect(paged.some((a) => a.push_protection_bypassed === true && a.push_protection_bypassed_by !== null)).toBe(true);
    expect(paged.some((a) => a.multi_repo === true)).toBe(true);
    expect(paged.some((a) => a.assigned_to !== null) && paged.some((a) => a.assigned_to === null)).toBe(true);
  });

  it('repository list with filters, page and cursor modes: the same alerts as the single-alert answers', async () => {
    const q = 'per_page=4&state=open&sort=updated&direction=asc';
    const paged = await all(`/repos/lists/api/secret-scanning/alerts?${q}&page=1`);
    const cursor = await all(`/repos/lists/api/secret-scanning/alerts?${q}&after=`);
    expect(paged.length).toBeGreaterThan(4);
    expect(cursor).toEqual(paged);
    expect(paged.every((a) => a.state === 'open')).toBe(true);
    await expectSameAsSingle(paged, false, 'repository');
  });

  // Alert texts are kept between answers (src/rest/text-memo.ts), keyed by every column of every row they are made
  // of. A change to any of those rows shows in the next answer, even when written behind the service's back with
  // no timestamp moving; unchanged alerts come out byte-identical.
  it('a list answer follows every changed row, even when no updated_at moves', async () => {
    const list = '/orgs/lists/secret-scanning/alerts?per_page=100&sort=created&direction=asc';
    const before = await page(list);
    expect((await page(list)).alerts).toEqual(before.alerts);
    const ds = t.db.dataSource;
    const run = (sql: string, params: unknown[]) => ds.query(sqlFor(ds, sql), params);
    const byNumber = (alerts: Alert[], repo: string, n: number) => alerts.find((a) => a.repository?.full_name === `lists/${repo}` && a.number === n)!;
    const assigned = before.alerts.find((a) => (a.assigned_to as { login: string } | null)?.login === 'lists-writer')!;
    const located = byNumber(before.alerts, 'ops', 2);
    const firstLocation = located.first_location_detected as { start_line: number };
    // One column of each kind of row an alert is made of: the alert, its repository, a user, its first location.
    await run('UPDATE secret_scanning_alerts SET validity = ? WHERE repository_id = ? AND number = ?', ['inactive', repos.api.id, 1]);
    await run('UPDATE repositories SET description = ? WHERE id = ?', ['changed behind the service', repos.web.id]);
    await run('UPDATE accounts SET login = ?, login_lower = ? WHERE login_lower = ?', ['lists-writer2', 'lists-writer2', 'lists-writer']);
    await run(
      'UPDATE secret_scanning_locations SET start_line = start_line + 1000 WHERE id = (SELECT first_location_id FROM secret_scanning_alerts WHERE repository_id = ? AND number = ?)',
      [repos.ops.id, 2],
    );
    const after = (await page(list)).alerts;
    expect(after.map((a) => a.url)).toEqual(before.alerts.map((a) => a.url));
    expect(byNumber(after, 'api', 1).validity).toBe('inactive');
    expect(after.filter((a) => a.repository?.full_name === 'lists/web').every((a) => a.repository?.description === 'changed behind the service')).toBe(true);
    const reassigned = after.find((a) => a.url === assigned.url)!;
    expect((reassigned.assigned_to as { login: string; url: string }).login).toBe('lists-writer2');
    expect((reassigned.assigned_to as { login: string; url: string }).url).toMatch(/\/users\/lists-writer2$/);
    expect((byNumber(after, 'ops', 2).first_location_detected as { start_line: number }).start_line).toBe(firstLocation.start_line + 1000);
    // Alerts none of whose rows changed are the same as before.
    const touched = (a: Alert) =>
      a.url === byNumber(before.alerts, 'api', 1).url ||
      a.repository?.full_name === 'lists/web' ||
      JSON.stringify(a).includes('lists-writer') ||
      a.url === located.url;
    const untouched = before.alerts.filter((a) => !touched(a));
    expect(untouched.length).toBeGreaterThan(5);
    for (const a of untouched) expect(after.find((b) => b.url === a.url)).toEqual(a);
    // And every alert still equals its single-alert answer (never kept).
    await expectSameAsSingle(after, false, 'organization');
  });

  // Whole list answers are kept with the text their page was read from and the rows outside it (the organization;
  // the repository and its owner): a change to one of those shows in the next answer too.
  it('a kept list answer follows the rows outside its page: the organization, the repository and its owner', async () => {
    const ds = t.db.dataSource;
    const run = (sql: string, params: unknown[]) => ds.query(sqlFor(ds, sql), params);
    const orgList = (login: string, extra = '') => `/orgs/${login}/secret-scanning/alerts?per_page=100&sort=created&direction=asc${extra}`;
    const before = (await page(orgList('lists'))).alerts;
    expect((await page(orgList('lists'))).alerts).toEqual(before);
    await run('UPDATE accounts SET login = ?, login_lower = ? WHERE login_lower = ?', ['lists2', 'lists2', 'lists']);
    const renamed = (await page(orgList('lists2'))).alerts;
    expect(renamed).toHaveLength(before.length);
    expect(renamed.every((a) => a.repository?.full_name?.startsWith('lists2/') && (a.url as string).includes('/repos/lists2/'))).toBe(true);
    expect(JSON.stringify(renamed)).not.toMatch(/\/lists\//);

    const repoList = (owner: string, name: string) => `/repos/${owner}/${name}/secret-scanning/alerts?per_page=100`;
    const ops = (await page(repoList('lists2', 'ops'))).alerts;
    expect((await page(repoList('lists2', 'ops'))).alerts).toEqual(ops);
    await run('UPDATE repositories SET name = ?, name_lower = ? WHERE id = ?', ['ops2', 'ops2', repos.ops.id]);
    const ops2 = (await page(repoList('lists2', 'ops2'))).alerts;
    expect(ops2.map((a) => a.number)).toEqual(ops.map((a) => a.number));
    expect(ops2.every((a) => (a.url as string).includes('/repos/lists2/ops2/') && (a.html_url as string).includes('/lists2/ops2/'))).toBe(true);
    await run('UPDATE accounts SET login = ?, login_lower = ? WHERE login_lower = ?', ['lists3', 'lists3', 'lists2']);
    const ops3 = (await page(repoList('lists3', 'ops2'))).alerts;
    expect(ops3.every((a) => (a.url as string).includes('/repos/lists3/ops2/'))).toBe(true);
    // Back as they were for the other tests.
    await run('UPDATE repositories SET name = ?, name_lower = ? WHERE id = ?', ['ops', 'ops', repos.ops.id]);
    await run('UPDATE accounts SET login = ?, login_lower = ? WHERE login_lower = ?', ['lists', 'lists', 'lists3']);
  });

  it('the same page with and without hide_secret, asked in turn: each answer its own', async () => {
    const list = (hide: boolean) => `/orgs/lists/secret-scanning/alerts?per_page=50${hide ? '&hide_secret=true' : ''}`;
    for (let i = 0; i < 3; i++) {
      const shown = (await page(list(false))).alerts;
      const hidden = (await page(list(true))).alerts;
      expect(shown.length).toBeGreaterThan(10);
      expect(shown.every((a) => typeof a.secret === 'string')).toBe(true);
      expect(hidden.every((a) => !('secret' in a))).toBe(true);
      expect(hidden.map((a) => a.url)).toEqual(shown.map((a) => a.url));
    }
  });

  it('a page is built from its text only when its items are read, and gives no text when a related row it leads to differs', async () => {
    const contexts = testContexts(t.db.dataSource, t.app.deps.services);
    const paging = { mode: 'page' as const, page: 1, perPage: 100 };
    const ctx = await contexts.as(token);
    const org = await contexts.account('lists');
    const { page: p } = await ctx.services.secretScanningAlerts.listOrganizationAlerts(ctx, org, {}, {}, paging);
    expect(typeof p.source).toBe('string');
    const firstId = Number(/^\[\[(\d+),/.exec(p.source!)![1]);
    expect(ctx.loaders.secretScanningAlertById.peek(firstId)).toBeUndefined(); // nothing built yet
    expect(p.items[0].id).toBe(firstId);
    expect(ctx.loaders.secretScanningAlertById.peek(firstId)).toBe(p.items[0]);
    expect(p.source).toEqual(expect.any(String));

    // The request already holds one of the page's users with other values (changed between two statements): what
    // the answer would show is not the page's text, so the page offers none to reuse.
    const assignee = p.items.find((a) => a.assignedToId != null)!;
    const ctx2 = await contexts.as(token);
    const held = Object.assign(new Account(), (await contexts.account('lists-admin'))!, { id: assignee.assignedToId!, login: 'someone-else' });
    ctx2.loaders.accountById.prime(held.id, held);
    const { page: p2 } = await ctx2.services.secretScanningAlerts.listOrganizationAlerts(ctx2, org, {}, {}, paging);
    expect(p2.source).toBe(p.source);
    expect(p2.items.length).toBe(p.items.length);
    expect(p2.source).toBeUndefined();
  });

  // Two requests can read the same rows and present different ones: per_page 8 reads 9 rows to see that there is a
  // next page and presents 8, per_page 9 reads and presents the same 9; a backward page presents its rows reversed.
  it('a kept answer is given only for the very same items: other page sizes and backward pages over the same rows', async () => {
    const repoList = (q: string) => `/repos/lists/ops/secret-scanning/alerts?${q}`;
    const all9 = (await page(repoList('per_page=100&sort=created&direction=asc'))).alerts;
    expect(all9).toHaveLength(9);
    for (let i = 0; i < 2; i++) {
      expect((await page(repoList('per_page=8&sort=created&direction=asc'))).alerts).toEqual(all9.slice(0, 8));
      expect((await page(repoList('per_page=9&sort=created&direction=asc'))).alerts).toEqual(all9);
    }
    const first = await page(repoList('per_page=3&sort=created&direction=asc&after='));
    expect(first.alerts).toEqual(all9.slice(0, 3));
    const cursor = new URL(first.links.next!).searchParams.get('after')!;
    for (let i = 0; i < 2; i++) {
      const forward = (await page(repoList(`per_page=3&sort=created&direction=asc&after=${cursor}`))).alerts;
      const backward = (await page(repoList(`per_page=3&sort=created&direction=desc&before=${cursor}`))).alerts;
      expect(forward).toEqual(all9.slice(3, 6));
      expect(backward).toEqual(all9.slice(3, 6).reverse());
    }
  });

  it('an empty page is an empty JSON array', async () => {
    const p = await page('/orgs/lists/secret-scanning/alerts?secret_type=no_such_type');
    expect(p.alerts).toEqual([]);
  });
});
