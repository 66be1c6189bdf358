/**
 * GitHub-compatible secret scanning REST endpoints, called with the real @octokit/rest (baseUrl = the test
 * server) and with fetch where Octokit hides details (headers, empty bodies, malformed requests).
 * Runs on SQLite, and on PostgreSQL when DATABASE_URL is set.
 */
import Fastify from 'fastify';
import type { AccountEntity, RepositoryEntity } from '../../entities/identity';
import { parseLinkHeader } from '../../src/rest/github/link';
import { registerSecretScanningOpenApi } from '../../src/rest/github/secret-scanning.routes';
import { REST_ROUTES } from '../../src/rest/routes';
import { IdentityFixtures } from '../fixtures/identity';
import { newestFirst, SeededAlert, SecretScanningFixtures } from '../fixtures/secret-scanning';
import { octokit, Octokit } from '../helpers/octokit';
import { startTestApp, TestApp } from '../helpers/app';

const ISO_SECONDS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;
const iso = (d: Date | null) => (d ? d.toISOString().replace(/\.\d{3}Z$/, 'Z') : null);

/** GitHub's `secret-scanning-alert` field order (api.github.com OpenAPI description). */
const REPO_ALERT_KEYS = [
  'number', 'created_at', 'updated_at', 'url', 'html_url', 'locations_url', 'state', 'resolution', 'resolved_at', 'resolved_by',
  'resolution_comment', 'secret_type', 'secret_type_display_name', 'provider', 'provider_slug', 'secret', 'push_protection_bypassed',
  'push_protection_bypassed_by', 'push_protection_bypassed_at', 'push_protection_bypass_request_reviewer',
  'push_protection_bypass_request_reviewer_comment', 'push_protection_bypass_request_comment', 'push_protection_bypass_request_html_url',
  'validity', 'publicly_leaked', 'multi_repo', 'is_base64_encoded', 'first_location_detected', 'has_more_locations', 'assigned_to',
  'closure_request_comment', 'closure_request_reviewer_comment', 'closure_request_reviewer',
]; // prettier-ignore
/** `organization-secret-scanning-alert`: `repository` after `secret`, `resolution_comment` moved down. */
const ORG_ALERT_KEYS = [
  'number', 'created_at', 'updated_at', 'url', 'html_url', 'locations_url', 'state', 'resolution', 'resolved_at', 'resolved_by',
  'secret_type', 'secret_type_display_name', 'provider', 'provider_slug', 'secret', 'repository', 'push_protection_bypassed',
  'push_protection_bypassed_by', 'push_protection_bypassed_at', 'push_protection_bypass_request_reviewer',
  'push_protection_bypass_request_reviewer_comment', 'push_protection_bypass_request_comment', 'push_protection_bypass_request_html_url',
  'resolution_comment', 'validity', 'publicly_leaked', 'multi_repo', 'is_base64_encoded', 'first_location_detected', 'has_more_locations',
  'assigned_to', 'closure_request_comment', 'closure_request_reviewer_comment', 'closure_request_reviewer',
]; // prettier-ignore
const SINGLE_ALERT_KEYS = [...REPO_ALERT_KEYS, 'metadata'];
const USER_KEYS = [
  'login', 'id', 'node_id', 'avatar_url', 'gravatar_id', 'url', 'html_url', 'followers_url', 'following_url', 'gists_url', 'starred_url',
  'subscriptions_url', 'organizations_url', 'repos_url', 'events_url', 'received_events_url', 'type', 'site_admin',
]; // prettier-ignore

describe('secret scanning REST (GitHub-compatible)', () => {
  let t: TestApp;
  let f: IdentityFixtures;
  let ss: SecretScanningFixtures;
  let org: AccountEntity;
  const users: Record<string, AccountEntity> = {};
  const tokens: Record<string, string> = {};
  const repos: Record<string, RepositoryEntity> = {};
  let apiAlerts: SeededAlert[];
  let webAlerts: SeededAlert[];
  let siteAlerts: SeededAlert[];
  let dadAlerts: SeededAlert[];
  let gh: Octokit;
  const userById = (id: number) => Object.values(users).find((u) => u.id === id)!;

  const get = (path: string, token: string | null = tokens.admin, headers: Record<string, string> = {}) =>
    fetch(`${t.url}${path}`, { headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers } });
  const send = (method: string, path: string, body: string, token = tokens.admin) =>
    fetch(`${t.url}${path}`, { method, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body });

  beforeAll(async () => {
    t = await startTestApp();
    f = new IdentityFixtures(t.db.dataSource);
    ss = new SecretScanningFixtures(t.db.dataSource);
    org = await f.org('acme');
    for (const login of ['acme-admin', 'acme-sec', 'acme-writer', 'acme-reader', 'acme-dev', 'acme-repoadmin', 'stranger']) {
      users[login.replace(/^acme-/, '')] = await f.user(login);
    }
    await f.member(org, users.admin, 'admin');
    await f.member(org, users.sec, 'security_manager');
    const mk = (name: string, o: Record<string, boolean>) => f.services.identity.createRepository(t.db.dataSource.manager, { owner: 'acme', name, ...o });
    repos.api = await mk('api', { private: true, secretScanning: true, pushProtection: true, advancedSecurity: true });
    repos.web = await mk('web', { private: true, secretScanning: true });
    repos.site = await mk('site', { private: false, secretScanning: true });
    repos.off = await mk('off', { private: true, secretScanning: false });
    repos.dad = await mk('dad', { private: true, secretScanning: true, delegatedAlertDismissal: true });
    repos.lab = await mk('lab', { private: true, secretScanning: true });
    repos.scans = await mk('scans', { private: true, secretScanning: true, advancedSecurity: true });
    for (const r of ['api', 'lab']) {
      await f.grant(repos[r], org, users.writer, 'write');
      await f.grant(repos[r], org, users.dev, 'write');
      await f.grant(repos[r], org, users.reader, 'read');
    }
    await f.grant(repos.dad, org, users.repoadmin, 'admin');
    for (const [who, scopes] of Object.entries({ admin: ['repo'], sec: ['security_events'], writer: ['repo'], reader: ['repo'], dev: ['repo'], repoadmin: ['repo'], stranger: ['repo'] })) {
      tokens[who] = await f.classicToken(users[who], scopes);
    }

    apiAlerts = await ss.alerts(repos.api, 250, { assignees: [users.writer, users.admin], resolver: users.admin, bypasser: users.dev, allLocationTypesAt: 0 });
    // The secrets of acme/api #2-#4 are in acme/web too: multi_repo on both sides.
    const shared = apiAlerts.slice(1, 4).map((a) => ({ secretType: a.secretType, providerSlug: a.providerSlug, secret: a.secret, line: `KEY=${a.secret}`, column: 5 }));
    webAlerts = await ss.alerts(repos.web, 12, { secrets: shared, start: new Date('2026-01-02T00:00:00Z') });
    siteAlerts = await ss.alerts(repos.site, 4, { start: new Date('2026-01-03T00:00:00Z') });
    dadAlerts = await ss.alerts(repos.dad, 2, { start: new Date('2026-01-04T00:00:00Z') });
    await ss.refresh(apiAlerts);
    await ss.alerts(repos.off, 1);
    await ss.alerts(repos.lab, 10, { start: new Date('2026-01-01T00:00:00Z') });
    gh = octokit(t.url, tokens.admin);
  }, 120_000);
  afterAll(() => t.close());

  // ------------------------------------------------------------------------------------------------ helpers

  function userJson(u: AccountEntity) {
    const api = `${t.url}/users/${u.login}`;
    return {
      login: u.login,
      id: u.id,
      node_id: expect.any(String),
      avatar_url: expect.stringMatching(new RegExp(`^${t.url}/`)),
      gravatar_id: '',
      url: api,
      html_url: `${t.url}/${u.login}`,
      followers_url: `${api}/followers`,
      following_url: `${api}/following{/other_user}`,
      gists_url: `${api}/gists{/gist_id}`,
      starred_url: `${api}/starred{/owner}{/repo}`,
      subscriptions_url: `${api}/subscriptions`,
      organizations_url: `${api}/orgs`,
      repos_url: `${api}/repos`,
      events_url: `${api}/events{/privacy}`,
      received_events_url: `${api}/received_events`,
      type: 'User',
      site_admin: false,
    };
  }
  const userOrNull = (id: number | null) => (id == null ? null : userJson(userById(id)));

  /** What the contract says alert `s` of acme/<repo> looks like. */
  function expectedAlert(s: SeededAlert, repo: string, extra: Record<string, unknown> = {}) {
    const api = `${t.url}/repos/acme/${repo}`;
    const l = s.firstLocation;
    return {
      number: s.number,
      created_at: iso(s.createdAt),
      updated_at: iso(s.updatedAt),
      url: `${api}/secret-scanning/alerts/${s.number}`,
      html_url: `${t.url}/acme/${repo}/security/secret-scanning/${s.number}`,
      locations_url: `${api}/secret-scanning/alerts/${s.number}/locations`,
      state: s.state,
      resolution: s.resolution,
      resolved_at: iso(s.resolvedAt),
      resolved_by: userOrNull(s.resolvedById),
      resolution_comment: s.resolutionComment,
      secret_type: s.secretType,
      secret_type_display_name: s.secretTypeDisplayName,
      provider: s.provider,
      provider_slug: s.providerSlug,
      secret: s.secret,
      push_protection_bypassed: s.bypassed,
      push_protection_bypassed_by: userOrNull(s.bypassedById),
      push_protection_bypassed_at: iso(s.bypassedAt),
      push_protection_bypass_request_reviewer: null,
      push_protection_bypass_request_reviewer_comment: null,
      push_protection_bypass_request_comment: null,
      push_protection_bypass_request_html_url: null,
      validity: s.validity,
      publicly_leaked: s.publiclyLeaked,
      multi_repo: s.multiRepo,
      is_base64_encoded: s.isBase64Encoded,
      first_location_detected: {
        path: l.path,
        start_line: l.startLine,
        end_line: l.endLine,
        start_column: l.startColumn,
        end_column: l.endColumn,
        blob_sha: l.blobSha,
        blob_url: `${api}/git/blobs/${l.blobSha}`,
        commit_sha: l.commitSha,
        commit_url: `${api}/git/commits/${l.commitSha}`,
      },
      has_more_locations: s.locations > 1,
      assigned_to: userOrNull(s.assigneeId),
      closure_request_comment: null,
      closure_request_reviewer_comment: null,
      closure_request_reviewer: null,
      ...extra,
    };
  }

  const numbers = (xs: Array<{ number?: number }>) => xs.map((x) => x.number);
  const byNumber = (n: number) => apiAlerts.find((a) => a.number === n)!;

  async function paginateRepo(params: Record<string, unknown>, repo = 'api', client = gh) {
    let pages = 0;
    const data = await client.paginate(client.rest.secretScanning.listAlertsForRepo, { owner: 'acme', repo, per_page: 100, ...params } as never, (res) => {
      pages += 1;
      return res.data;
    });
    return { data, pages };
  }

  // ------------------------------------------------------------------------------------------------ lists

  describe('GET /repos/{owner}/{repo}/secret-scanning/alerts', () => {
    it('answers the 30 newest alerts by default, every field in GitHub order, timestamps without ms, URLs from PUBLIC_URL', async () => {
      const res = await gh.rest.secretScanning.listAlertsForRepo({ owner: 'acme', repo: 'api' });
      expect(res.status).toBe(200);
      expect(numbers(res.data)).toEqual(newestFirst(apiAlerts).slice(0, 30));
      for (const a of res.data) {
        expect(Object.keys(a)).toEqual(REPO_ALERT_KEYS);
        expect(a.created_at).toMatch(ISO_SECONDS);
        expect(a.updated_at).toMatch(ISO_SECONDS);
        expect(a).toEqual(expectedAlert(byNumber(a.number!), 'api'));
      }
      // Alert 248: resolved (wont_fix) with a comment, bypassed by acme-dev, base64, validity active.
      const rich = res.data.find((a) => a.number === 248)!;
      expect(rich).toMatchObject({ state: 'resolved', resolution: 'wont_fix', push_protection_bypassed: true, is_base64_encoded: true, validity: 'active' });
      expect(Object.keys(rich.push_protection_bypassed_by!)).toEqual(USER_KEYS);
      expect(rich.push_protection_bypassed_by!.login).toBe('acme-dev');
      expect(rich.resolved_by!.login).toBe('acme-admin');
      expect(rich.resolution_comment).toBe('Rotated in change 1247');
      expect(rich.push_protection_bypassed_at).toMatch(ISO_SECONDS);
    });

    it('pages with a Link header of absolute URLs carrying every filter and per_page (prev, next, last, first)', async () => {
      const want = newestFirst(apiAlerts.filter((a) => a.state === 'open' && a.secretType === 'github_personal_access_token'));
      const last = Math.ceil(want.length / 10);
      const q = 'state=open&secret_type=github_personal_access_token&hide_secret=true';
      const base = `${t.url}/repos/acme/api/secret-scanning/alerts`;
      const page = async (n: number | null) => {
        const res = await get(`/repos/acme/api/secret-scanning/alerts?${q}&per_page=10${n ? `&page=${n}` : ''}`);
        expect(res.status).toBe(200);
        return { link: res.headers.get('link'), body: (await res.json()) as any[] };
      };
      const p1 = await page(null);
      expect(numbers(p1.body)).toEqual(want.slice(0, 10));
      expect(p1.link).toBe(`<${base}?${q}&per_page=10&page=2>; rel="next", <${base}?${q}&per_page=10&page=${last}>; rel="last"`);
      const p2 = await page(2);
      expect(numbers(p2.body)).toEqual(want.slice(10, 20));
      expect(p2.link).toMatch(/^<[^<>]+>; rel="prev", <[^<>]+>; rel="next", <[^<>]+>; rel="last", <[^<>]+>; rel="first"$/);
      expect(parseLinkHeader(p2.link)).toEqual({
        prev: `${base}?${q}&per_page=10&page=1`,
        next: `${base}?${q}&per_page=10&page=3`,
        last: `${base}?${q}&per_page=10&page=${last}`,
        first: `${base}?${q}&per_page=10&page=1`,
      });
      const pl = await page(last);
      expect(numbers(pl.body)).toEqual(want.slice((last - 1) * 10));
      expect(Object.keys(parseLinkHeader(pl.link))).toEqual(['prev', 'first']);
      // Everything on one page: no Link header at all.
      const one = await get('/repos/acme/api/secret-scanning/alerts?per_page=100&resolution=used_in_tests&validity=inactive');
      expect(one.headers.get('link')).toBeNull();
    });

    it('builds every URL from PUBLIC_URL, path prefix included, never from the Host header', async () => {
      const saved = t.app.config.publicUrl;
      t.app.config.publicUrl = 'https://gw.example.test/api/v3';
      try {
        const res = await get('/repos/ACME/API/secret-scanning/alerts?per_page=2', tokens.admin, { 'x-forwarded-host': 'evil.example' });
        const body = (await res.json()) as any[];
        const n = body[0].number;
        expect(body[0].url).toBe(`https://gw.example.test/api/v3/repos/acme/api/secret-scanning/alerts/${n}`);
        expect(body[0].html_url).toBe(`https://gw.example.test/api/v3/acme/api/security/secret-scanning/${n}`);
        expect(body[0].first_location_detected.blob_url).toMatch(/^https:\/\/gw\.example\.test\/api\/v3\/repos\/acme\/api\/git\/blobs\/[0-9a-f]{40}$/);
        const links = parseLinkHeader(res.headers.get('link'));
        expect(links.next).toBe('https://gw.example.test/api/v3/repos/ACME/API/secret-scanning/alerts?per_page=2&page=2');
      } finally {
        t.app.config.publicUrl = saved;
      }
    });

    it('octokit.paginate in page mode returns exactly the filtered set across pages (state=open & secret_type, per_page=100)', async () => {
      const types = ['github_personal_access_token', 'aws_access_key_id'];
      const want = newestFirst(apiAlerts.filter((a) => a.state === 'open' && types.includes(a.secretType)));
      expect(want.length).toBeGreaterThan(100);
      const { data, pages } = await paginateRepo({ state: 'open', secret_type: types.join(',') });
      expect(numbers(data)).toEqual(want);
      expect(pages).toBe(Math.ceil(want.length / 100));
    });

    it('octokit.paginate in cursor mode (empty after= asks for an initial cursor) returns exactly the filtered set', async () => {
      const want = newestFirst(apiAlerts.filter((a) => ['active', 'unknown'].includes(a.validity) && a.assigneeId === null && !a.bypassed));
      expect(want.length).toBeGreaterThan(75);
      const links: string[] = [];
      let pages = 0;
      const data = await gh.paginate(
        gh.rest.secretScanning.listAlertsForRepo,
        { owner: 'acme', repo: 'api', validity: 'active,unknown', assignee: 'none', is_bypassed: false, per_page: 25, after: '' },
        (res) => {
          pages += 1;
          links.push(String(res.headers.link ?? ''));
          return res.data;
        },
      );
      expect(numbers(data)).toEqual(want);
      expect(pages).toBe(Math.ceil(want.length / 25));
      for (const l of links.slice(0, -1)) {
        const next = new URL(parseLinkHeader(l).next!);
        expect(next.searchParams.get('after')).toMatch(/^[A-Za-z0-9_-]+$/);
        expect(next.searchParams.has('page')).toBe(false);
        expect(Object.fromEntries(next.searchParams)).toMatchObject({ validity: 'active,unknown', assignee: 'none', is_bypassed: 'false', per_page: '25' });
      }
      expect(parseLinkHeader(links[0]).prev).toBeUndefined();
      expect(parseLinkHeader(links[1]).prev).toBeDefined();
      expect(parseLinkHeader(links[links.length - 1]).next).toBeUndefined();
    });

    it('cursor links lead forward and back (before=) over the same pages', async () => {
      const want = newestFirst(apiAlerts);
      const p1 = await get('/repos/acme/api/secret-scanning/alerts?after=&per_page=20');
      const b1 = (await p1.json()) as any[];
      expect(numbers(b1)).toEqual(want.slice(0, 20));
      const p2 = await fetch(parseLinkHeader(p1.headers.get('link')).next!, { headers: { authorization: `Bearer ${tokens.admin}` } });
      expect(numbers((await p2.json()) as any[])).toEqual(want.slice(20, 40));
      const l2 = parseLinkHeader(p2.headers.get('link'));
      const back = await fetch(l2.prev!, { headers: { authorization: `Bearer ${tokens.admin}` } });
      expect(new URL(l2.prev!).searchParams.get('before')).toBeTruthy();
      expect(numbers((await back.json()) as any[])).toEqual(want.slice(0, 20));
      // an empty before= also starts at the first page
      const b = await get('/repos/acme/api/secret-scanning/alerts?before=&per_page=5');
      expect(numbers((await b.json()) as any[])).toEqual(want.slice(0, 5));
    });

    it('sort=updated and direction=asc order by the last update, oldest first', async () => {
      const { data } = await paginateRepo({ sort: 'updated', direction: 'asc' });
      expect(numbers(data)).toEqual([...apiAlerts].sort((a, b) => a.updatedAt.getTime() - b.updatedAt.getTime()).map((a) => a.number));
      const created = await paginateRepo({ sort: 'created', direction: 'asc', after: '' });
      expect(numbers(created.data)).toEqual(newestFirst(apiAlerts).reverse());
    });

    const FILTERS: Array<[string, Record<string, unknown>, (a: SeededAlert) => boolean]> = [
      ['providers', { providers: 'slack,stripe' }, (a) => ['slack', 'stripe'].includes(a.providerSlug)],
      ['exclude_providers', { exclude_providers: 'github' }, (a) => a.providerSlug !== 'github'],
      ['exclude_secret_types', { exclude_secret_types: 'github_personal_access_token,npm_access_token' }, (a) => !['github_personal_access_token', 'npm_access_token'].includes(a.secretType)],
      ['resolution', { resolution: 'wont_fix,revoked' }, (a) => a.resolution === 'wont_fix' || a.resolution === 'revoked'],
      ['state=resolved', { state: 'resolved' }, (a) => a.state === 'resolved'],
      ['validity', { validity: 'inactive' }, (a) => a.validity === 'inactive'],
      ['assignee login (case-insensitive)', { assignee: 'ACME-Writer' }, (a) => a.assigneeId === users.writer.id],
      ['assignee=*', { assignee: '*' }, (a) => a.assigneeId !== null],
      ['assignee=none', { assignee: 'none' }, (a) => a.assigneeId === null],
      ['assignee unknown login', { assignee: 'nobody-at-all' }, () => false],
      ['is_bypassed=true', { is_bypassed: true }, (a) => a.bypassed],
      ['is_bypassed=false', { is_bypassed: false }, (a) => !a.bypassed],
      ['is_publicly_leaked=false (no filter)', { is_publicly_leaked: false, is_multi_repo: false }, () => true],
      ['repeated and blank list items', { secret_type: ',slack_api_token,,npm_access_token,' }, (a) => ['slack_api_token', 'npm_access_token'].includes(a.secretType)],
    ];
    it.each(FILTERS)('filter %s', async (_name, params, keep) => {
      const { data } = await paginateRepo(params);
      expect(numbers(data)).toEqual(newestFirst(apiAlerts.filter(keep)));
    });

    it('hide_secret=true omits `secret`; the default shows it', async () => {
      const hidden = await gh.rest.secretScanning.listAlertsForRepo({ owner: 'acme', repo: 'api', hide_secret: true, per_page: 5 });
      for (const a of hidden.data) {
        expect(a).not.toHaveProperty('secret');
        expect(Object.keys(a)).toEqual(REPO_ALERT_KEYS.filter((k) => k !== 'secret'));
      }
      const shown = await gh.rest.secretScanning.listAlertsForRepo({ owner: 'acme', repo: 'api', hide_secret: false, per_page: 5 });
      expect(shown.data.map((a) => a.secret)).toEqual(shown.data.map((a) => byNumber(a.number!).secret));
    });

    it('included_metadata / owner_email_hash match nothing (no alert carries metadata)', async () => {
      const res = await get('/repos/acme/api/secret-scanning/alerts?included_metadata=owner-email,secret-name');
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual([]);
      expect(res.headers.get('link')).toBeNull();
      const hash = await get(`/repos/acme/api/secret-scanning/alerts?owner_email_hash=${'a'.repeat(64)}`);
      expect(await hash.json()).toEqual([]);
    });
  });

  describe('GET /orgs/{org}/secret-scanning/alerts', () => {
    it('lists alerts of every repository with secret scanning, newest first, in the organization field order with `repository`', async () => {
      const data = await gh.paginate(gh.rest.secretScanning.listAlertsForOrg, { org: 'ACME', per_page: 100 });
      const all = [...apiAlerts, ...webAlerts, ...siteAlerts, ...dadAlerts];
      const labCount = 10;
      expect(data).toHaveLength(all.length + labCount); // acme/off (secret scanning disabled) is left out
      const created = data.map((a) => a.created_at!);
      expect([...created].sort().reverse()).toEqual(created);
      for (const a of data) expect(Object.keys(a)).toEqual(ORG_ALERT_KEYS);
      const one = data.find((a) => a.repository!.name === 'api' && a.number === 250)!;
      const { secret: _s, ...rest } = expectedAlert(byNumber(250), 'api');
      expect(one).toMatchObject(rest);
      expect(one.secret).toBe(byNumber(250).secret);
      expect(one.repository).toMatchObject({
        id: repos.api.id,
        name: 'api',
        full_name: 'acme/api',
        private: true,
        fork: false,
        html_url: `${t.url}/acme/api`,
        url: `${t.url}/repos/acme/api`,
        owner: { login: 'acme', type: 'Organization' },
      });
      expect(Object.keys(one.repository!)).toHaveLength(46);
    });

    it('filters is_multi_repo and is_publicly_leaked from real data; hide_secret applies to every entry', async () => {
      const multi = await gh.paginate(gh.rest.secretScanning.listAlertsForOrg, { org: 'acme', is_multi_repo: true, hide_secret: true, per_page: 100 });
      expect(multi.map((a) => `${a.repository!.name}#${a.number}`).sort()).toEqual(['api#2', 'api#3', 'api#4', 'web#1', 'web#2', 'web#3']);
      for (const a of multi) {
        expect(a.multi_repo).toBe(true);
        expect(a).not.toHaveProperty('secret');
      }
      const leaked = await gh.paginate(gh.rest.secretScanning.listAlertsForOrg, { org: 'acme', is_publicly_leaked: true, per_page: 100 });
      expect(leaked.map((a) => a.repository!.name)).toEqual(['site', 'site', 'site', 'site']);
      expect(leaked.every((a) => a.publicly_leaked)).toBe(true);
    });

    it('pages in cursor mode with filters', async () => {
      let pages = 0;
      const data = await gh.paginate(
        gh.rest.secretScanning.listAlertsForOrg,
        { org: 'acme', state: 'open', providers: 'github,amazon_aws', per_page: 40, after: '' },
        (res) => {
          pages += 1;
          return res.data;
        },
      );
      const all = [...apiAlerts, ...webAlerts, ...siteAlerts, ...dadAlerts].filter((a) => a.state === 'open' && ['github', 'amazon_aws'].includes(a.providerSlug));
      // lab alerts were not filtered above; count them separately through the repository endpoint.
      const lab = await paginateRepo({ state: 'open', providers: 'github,amazon_aws' }, 'lab');
      expect(data).toHaveLength(all.length + lab.data.length);
      expect(pages).toBe(Math.ceil(data.length / 40));
    });
  });

  // ------------------------------------------------------------------------------------------------ one alert

  describe('GET /repos/{owner}/{repo}/secret-scanning/alerts/{alert_number}', () => {
    it('answers the alert with metadata: [] in GitHub field order', async () => {
      const res = await gh.rest.secretScanning.getAlert({ owner: 'acme', repo: 'api', alert_number: 1 });
      expect(res.status).toBe(200);
      expect(Object.keys(res.data)).toEqual(SINGLE_ALERT_KEYS);
      expect(res.data).toEqual(expectedAlert(byNumber(1), 'api', { metadata: [] }));
      expect(res.data.has_more_locations).toBe(true);
      expect(res.data.is_base64_encoded).toBe(true);
      expect(res.data.assigned_to!.login).toBe('acme-writer');
    });

    it('sends a strong ETag per hide_secret variant; If-None-Match answers 304 without a body', async () => {
      const path = '/repos/acme/api/secret-scanning/alerts/7';
      const full = await get(path);
      const etag = full.headers.get('etag')!;
      expect(etag).toMatch(/^"[0-9a-f]{64}"$/);
      expect(((await full.json()) as any).secret).toBe(byNumber(7).secret);
      const hidden = await get(`${path}?hide_secret=true`);
      const hiddenEtag = hidden.headers.get('etag')!;
      expect(hiddenEtag).toMatch(/^"[0-9a-f]{64}"$/);
      expect(hiddenEtag).not.toBe(etag);
      expect((await hidden.json()) as any).not.toHaveProperty('secret');

      for (const inm of [etag, `W/${etag}`, `"nope", ${etag}`, '*']) {
        const r = await get(path, tokens.admin, { 'if-none-match': inm });
        expect(r.status).toBe(304);
        expect(await r.text()).toBe('');
        expect(r.headers.get('etag')).toBe(etag);
      }
      expect((await get(path, tokens.admin, { 'if-none-match': hiddenEtag })).status).toBe(200);
      expect((await get(`${path}?hide_secret=true`, tokens.admin, { 'if-none-match': hiddenEtag })).status).toBe(304);

      // Octokit throws on 304 (an HttpError with status 304).
      await expect(gh.rest.secretScanning.getAlert({ owner: 'acme', repo: 'api', alert_number: 7, headers: { 'if-none-match': etag } })).rejects.toMatchObject({
        name: 'HttpError',
        status: 304,
      });
    });

    it('a changed alert gets a new ETag', async () => {
      const path = '/repos/acme/lab/secret-scanning/alerts/1';
      const before = (await get(path)).headers.get('etag')!;
      // (Octokit 22's types still require `state`; the API takes state, assignee or validity)
      await gh.rest.secretScanning.updateAlert({ owner: 'acme', repo: 'lab', alert_number: 1, validity: 'active' } as never);
      const after = await get(path, tokens.admin, { 'if-none-match': before });
      expect(after.status).toBe(200);
      expect(after.headers.get('etag')).not.toBe(before);
    });

    it.each(['abc', '0', '-1', '1.5', '99999999999', '007x'])('alert_number %s is 404', async (n) => {
      const res = await get(`/repos/acme/api/secret-scanning/alerts/${n}`);
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual({ message: 'Not Found', documentation_url: 'https://docs.github.com/rest', status: '404' });
    });

    it('404 for a missing alert, a hidden repository, anonymous callers and secret scanning off; 403 for a writer', async () => {
      await expect(gh.rest.secretScanning.getAlert({ owner: 'acme', repo: 'api', alert_number: 9999 })).rejects.toMatchObject({ status: 404 });
      await expect(octokit(t.url, tokens.stranger).rest.secretScanning.getAlert({ owner: 'acme', repo: 'api', alert_number: 1 })).rejects.toMatchObject({ status: 404 });
      await expect(octokit(t.url).rest.secretScanning.getAlert({ owner: 'acme', repo: 'api', alert_number: 1 })).rejects.toMatchObject({ status: 404 });
      await expect(gh.rest.secretScanning.getAlert({ owner: 'acme', repo: 'off', alert_number: 1 })).rejects.toMatchObject({ status: 404 });
      await expect(gh.rest.secretScanning.listAlertsForRepo({ owner: 'acme', repo: 'nope' })).rejects.toMatchObject({ status: 404 });
      await expect(gh.rest.secretScanning.listAlertsForOrg({ org: 'no-such-org' })).rejects.toMatchObject({ status: 404 });
      const writer = octokit(t.url, tokens.writer);
      const e = await writer.rest.secretScanning.getAlert({ owner: 'acme', repo: 'api', alert_number: 1 }).catch((x: unknown) => x as any);
      expect(e).toMatchObject({ name: 'HttpError', status: 403 });
      expect(e.response.data).toEqual({ message: expect.stringMatching(/admin/), documentation_url: expect.stringMatching(/^https:\/\/docs\.github\.com\//), status: '403' });
    });
  });

  // ------------------------------------------------------------------------------------------------ update

  describe('PATCH /repos/{owner}/{repo}/secret-scanning/alerts/{alert_number}', () => {
    const patch = (alert_number: number, body: Record<string, unknown>, client: Octokit = gh, repo = 'lab') =>
      client.rest.secretScanning.updateAlert({ owner: 'acme', repo, alert_number, ...(body as any) });
    const failure = (p: Promise<unknown>) => p.then(() => ({ status: 200 }) as any, (e: any) => e);

    it('resolves with a resolution and comment, then reopens', async () => {
      const res = await patch(2, { state: 'resolved', resolution: 'false_positive', resolution_comment: 'Test data only' });
      expect(res.status).toBe(200);
      expect(Object.keys(res.data)).toEqual(SINGLE_ALERT_KEYS);
      expect(res.data).toMatchObject({ number: 2, state: 'resolved', resolution: 'false_positive', resolution_comment: 'Test data only', metadata: [] });
      expect(res.data.resolved_by).toEqual(userJson(users.admin));
      expect(res.data.resolved_at).toMatch(ISO_SECONDS);
      expect(Math.abs(Date.parse(res.data.resolved_at!) - Date.now())).toBeLessThan(60_000);
      expect(res.data.updated_at).toBe(res.data.resolved_at);

      const again = await failure(patch(2, { state: 'resolved', resolution: 'false_positive' }));
      expect(again).toMatchObject({ name: 'HttpError', status: 400 });
      expect(again.response.data.message).toMatch(/not changed/);
      const comment = await failure(patch(2, { state: 'open', resolution_comment: 'changed my mind' }));
      expect(comment).toMatchObject({ status: 400 });
      expect(comment.response.data.message).toMatch(/cannot be updated or deleted/);

      const reopened = await patch(2, { state: 'open' });
      expect(reopened.data).toMatchObject({ state: 'open', resolution: null, resolved_at: null, resolved_by: null, resolution_comment: 'Test data only' });
    });

    it('an update with no fields (Octokit sends an empty body) is 422, not a body error', async () => {
      const res = await failure(patch(3, {}));
      expect(res).toMatchObject({ name: 'HttpError', status: 422 });
      expect(res.response.data.message).toMatch(/at least one of state, assignee or validity/);
    });

    it('400 for an invalid resolution comment and for a body that is not a JSON object; {} is 422', async () => {
      expect(await failure(patch(3, { state: 'resolved', resolution: 'revoked', resolution_comment: 'x'.repeat(281) }))).toMatchObject({ status: 400 });
      expect(await failure(patch(3, { state: 'resolved', resolution: 'revoked', resolution_comment: 42 }))).toMatchObject({ status: 400 });
      for (const body of ['[1]', 'null', '"resolved"', '3']) {
        const res = await send('PATCH', '/repos/acme/lab/secret-scanning/alerts/3', body);
        expect(res.status).toBe(400);
        expect(await res.json()).toMatchObject({ message: 'Body should be a JSON object', status: '400' });
      }
      const empty = await send('PATCH', '/repos/acme/lab/secret-scanning/alerts/3', '{}');
      expect(empty.status).toBe(422);
      expect(((await empty.json()) as any).errors).toEqual([expect.objectContaining({ field: 'state', code: 'missing_field' })]);
      const bad = await send('PATCH', '/repos/acme/lab/secret-scanning/alerts/3', '{"state": ');
      expect(bad.status).toBe(400);
      expect(((await bad.json()) as any).message).toBe('Problems parsing JSON');
    });

    it('assigns, keeps an absent key untouched, unassigns with null, sets and clears validity', async () => {
      const a = await patch(4, { assignee: 'ACME-WRITER', validity: 'inactive' });
      expect(a.data.assigned_to).toEqual(userJson(users.writer));
      expect(a.data).toMatchObject({ validity: 'inactive', state: 'resolved', resolution: 'false_positive' }); // rule 5: state does not move
      const b = await patch(4, { validity: 'active' });
      expect(b.data.assigned_to!.login).toBe('acme-writer'); // absent assignee: unchanged
      const c = await patch(4, { assignee: null, validity: null });
      expect(c.data).toMatchObject({ assigned_to: null, validity: 'unknown' });
    });

    it.each<[string, Record<string, unknown>, string, string]>([
      ['state resolved without resolution', { state: 'resolved' }, 'resolution', 'missing_field'],
      ['no state, assignee or validity', { resolution_comment: 'hm' }, 'state', 'missing_field'],
      ['open with a resolution', { state: 'open', resolution: 'revoked' }, 'resolution', 'invalid'],
      ['a resolution without state', { resolution: 'revoked', validity: 'active' }, 'state', 'invalid'],
      ['an unknown state', { state: 'dismissed' }, 'state', 'invalid'],
      ['an unknown resolution', { state: 'resolved', resolution: 'fixed' }, 'resolution', 'invalid'],
      ['an assignee without write access', { assignee: 'acme-reader' }, 'assignee', 'invalid'],
      ['an assignee who does not exist', { assignee: 'nobody-at-all' }, 'assignee', 'invalid'],
      ['validity unknown (cannot be set)', { validity: 'unknown' }, 'validity', 'invalid'],
    ])('422 for %s, with errors[]', async (_name, body, field, code) => {
      const e = await failure(patch(5, body));
      expect(e).toMatchObject({ name: 'HttpError', status: 422 });
      expect(e.response.data).toMatchObject({ status: '422', documentation_url: expect.stringMatching(/^https:\/\/docs\.github\.com\//) });
      expect(e.response.data.errors).toEqual(expect.arrayContaining([expect.objectContaining({ field, code })]));
      // Octokit folds errors[] into the message
      expect(e.message).toContain(`"field":"${field}"`);
    });

    it('403 for a reader and for a repository admin under delegated alert dismissal (who may still triage); 404 when hidden or off', async () => {
      expect(await failure(patch(5, { validity: 'active' }, octokit(t.url, tokens.reader)))).toMatchObject({ status: 403 });
      const repoAdmin = octokit(t.url, tokens.repoadmin);
      const dad = dadAlerts[0].number;
      const e = await failure(patch(dad, { state: 'resolved', resolution: 'revoked' }, repoAdmin, 'dad'));
      expect(e).toMatchObject({ status: 403 });
      expect(e.response.data.message).toMatch(/[Dd]elegated alert dismissal/);
      expect((await patch(dad, { validity: 'inactive' }, repoAdmin, 'dad')).data.validity).toBe('inactive');
      expect((await patch(dad, { state: 'resolved', resolution: 'revoked' }, octokit(t.url, tokens.sec), 'dad')).data.state).toBe('resolved');

      expect(await failure(patch(5, { validity: 'active' }, octokit(t.url, tokens.stranger)))).toMatchObject({ status: 404 });
      expect(await failure(patch(1, { validity: 'active' }, gh, 'off'))).toMatchObject({ status: 404 });
      expect(await failure(patch(9999, { validity: 'active' }))).toMatchObject({ status: 404 });
    });
  });

  // ------------------------------------------------------------------------------------------------ locations

  describe('GET .../alerts/{alert_number}/locations', () => {
    it('lists all 13 location types with their details, paged with Link headers', async () => {
      let pages = 0;
      const data = await gh.paginate(gh.rest.secretScanning.listLocationsForAlert, { owner: 'acme', repo: 'api', alert_number: 1, per_page: 5 }, (res) => {
        pages += 1;
        return res.data;
      });
      expect(pages).toBe(3);
      expect(data.map((l) => l.type)).toEqual([
        'commit', 'commit', 'wiki_commit', 'issue_title', 'issue_body', 'issue_comment', 'discussion_title', 'discussion_body',
        'discussion_comment', 'pull_request_title', 'pull_request_body', 'pull_request_comment', 'pull_request_review', 'pull_request_review_comment',
      ]); // prettier-ignore
      const api = `${t.url}/repos/acme/api`;
      const first = byNumber(1).firstLocation;
      expect(data[0]).toEqual({ type: 'commit', details: expectedAlert(byNumber(1), 'api').first_location_detected });
      expect(Object.keys(data[0].details!)).toEqual(['path', 'start_line', 'end_line', 'start_column', 'end_column', 'blob_sha', 'blob_url', 'commit_sha', 'commit_url']);
      expect((data[1].details as any).blob_url).toMatch(new RegExp(`^${api}/git/blobs/[0-9a-f]{40}$`));
      expect((data[1].details as any).path).not.toBe(first.path);
      expect(Object.keys(data[2].details!)).toEqual(['path', 'start_line', 'end_line', 'start_column', 'end_column', 'blob_sha', 'page_url', 'commit_sha', 'commit_url']);
      expect(data[2].details).toMatchObject({ path: 'Home.md', page_url: `${t.url}/acme/api/wiki/Home/${(data[2].details as any).commit_sha}`, commit_url: expect.stringMatching(new RegExp(`^${t.url}/acme/api/wiki/_compare/[0-9a-f]{40}$`)) });
      for (const l of data.slice(3)) {
        expect(Object.keys(l.details!)).toEqual([`${l.type}_url`]);
        expect((l.details as any)[`${l.type}_url`]).toMatch(/^https:\/\/gw\.example\.test\/repos\/\d+\//);
      }
      const res = await get('/repos/acme/api/secret-scanning/alerts/1/locations?per_page=5&page=2');
      expect(parseLinkHeader(res.headers.get('link'))).toEqual({
        prev: `${api}/secret-scanning/alerts/1/locations?per_page=5&page=1`,
        next: `${api}/secret-scanning/alerts/1/locations?per_page=5&page=3`,
        last: `${api}/secret-scanning/alerts/1/locations?per_page=5&page=3`,
        first: `${api}/secret-scanning/alerts/1/locations?per_page=5&page=1`,
      });
      const single = await gh.rest.secretScanning.listLocationsForAlert({ owner: 'acme', repo: 'api', alert_number: 2 });
      expect(single.data).toHaveLength(1);
      expect(single.headers.link).toBeUndefined();
      expect((await get('/repos/acme/api/secret-scanning/alerts/1/locations?per_page=101')).status).toBe(422);
      expect((await get('/repos/acme/api/secret-scanning/alerts/x/locations')).status).toBe(404);
    });
  });

  // ------------------------------------------------------------------------------------------------ bypass

  describe('POST /repos/{owner}/{repo}/secret-scanning/push-protection-bypasses', () => {
    it('lets the author of a blocked push bypass it (200, not 201); others get 403, unknown placeholders 404, bad input 422', async () => {
      const p = await ss.placeholder(t.app.deps, users.dev, 'acme/api');
      const dev = octokit(t.url, tokens.dev);
      const res = await dev.rest.secretScanning.createPushProtectionBypass({ owner: 'acme', repo: 'api', reason: 'will_fix_later', placeholder_id: p.placeholderId });
      expect(res.status).toBe(200);
      expect(Object.keys(res.data)).toEqual(['reason', 'expire_at', 'token_type']);
      expect(res.data).toMatchObject({ reason: 'will_fix_later', token_type: 'github_personal_access_token' });
      expect(res.data.expire_at).toMatch(ISO_SECONDS);
      expect(Date.parse(res.data.expire_at!)).toBeGreaterThan(Date.now() + 60 * 60_000);

      const writer = octokit(t.url, tokens.writer);
      await expect(writer.rest.secretScanning.createPushProtectionBypass({ owner: 'acme', repo: 'api', reason: 'will_fix_later', placeholder_id: p.placeholderId })).rejects.toMatchObject({
        status: 403,
      });
      await expect(dev.rest.secretScanning.createPushProtectionBypass({ owner: 'acme', repo: 'api', reason: 'used_in_tests', placeholder_id: 'no-such-placeholder' })).rejects.toMatchObject({
        status: 404,
      });
      // web has no push protection
      await expect(gh.rest.secretScanning.createPushProtectionBypass({ owner: 'acme', repo: 'web', reason: 'used_in_tests', placeholder_id: p.placeholderId })).rejects.toMatchObject({
        status: 404,
      });
      const e = await dev.rest.secretScanning.createPushProtectionBypass({ owner: 'acme', repo: 'api', placeholder_id: p.placeholderId } as any).catch((x: any) => x);
      expect(e).toMatchObject({ status: 422 });
      expect(e.response.data.errors).toEqual([expect.objectContaining({ field: 'reason', code: 'missing_field' })]);
      const notObject = await send('POST', '/repos/acme/api/secret-scanning/push-protection-bypasses', '["will_fix_later"]', tokens.dev);
      expect(notObject.status).toBe(400);
    });
  });

  // ------------------------------------------------------------------------------------------------ scan history

  describe('GET /repos/{owner}/{repo}/secret-scanning/scan-history', () => {
    it('answers the latest scan of each kind and type; incremental entries have no started_at', async () => {
      await ss.scanHistory(repos.scans);
      const res = await gh.rest.secretScanning.getScanHistory({ owner: 'acme', repo: 'scans' });
      expect(res.status).toBe(200);
      expect(Object.keys(res.data)).toEqual(['incremental_scans', 'backfill_scans', 'pattern_update_scans', 'custom_pattern_backfill_scans', 'generic_secrets_backfill_scans']);
      expect(res.data).toEqual({
        incremental_scans: [
          { type: 'issue', status: 'completed', completed_at: '2026-02-02T11:00:00Z' },
          { type: 'git', status: 'completed', completed_at: '2026-02-02T10:00:00Z' },
        ],
        backfill_scans: [
          { type: 'discussion', status: 'completed', started_at: '2026-02-01T09:00:00Z', completed_at: '2026-02-01T09:45:00Z' },
          { type: 'git', status: 'completed', started_at: '2026-02-01T09:00:00Z', completed_at: '2026-02-01T09:30:00Z' },
        ],
        pattern_update_scans: [{ type: 'git', status: 'in_progress', started_at: '2026-02-03T12:00:00Z', completed_at: null }],
        custom_pattern_backfill_scans: [
          { type: 'git', status: 'completed', started_at: '2026-02-01T08:00:00Z', completed_at: '2026-02-01T08:20:00Z', pattern_slug: 'legacy-token', pattern_scope: 'enterprise' },
          { type: 'git', status: 'completed', started_at: '2026-02-01T08:00:00Z', completed_at: '2026-02-01T08:10:00Z', pattern_slug: 'internal-api-key', pattern_scope: 'organization' },
        ],
        generic_secrets_backfill_scans: [{ type: 'git', status: 'completed', started_at: '2026-02-01T07:00:00Z', completed_at: '2026-02-01T07:05:00Z' }],
      });
      expect(Object.keys(res.data.incremental_scans![0])).toEqual(['type', 'status', 'completed_at']);
      // acme/web has no advanced security
      await expect(gh.rest.secretScanning.getScanHistory({ owner: 'acme', repo: 'web' })).rejects.toMatchObject({ status: 404 });
      await expect(octokit(t.url, tokens.sec).rest.secretScanning.getScanHistory({ owner: 'acme', repo: 'scans' })).resolves.toMatchObject({ status: 200 });
    });
  });

  // ------------------------------------------------------------------------------------------------ validation

  describe('query validation', () => {
    it.each<[string, string]>([
      ['secret_type=a&exclude_secret_types=b', 'exclude_secret_types'],
      ['providers=slack&exclude_providers=github', 'exclude_providers'],
      ['is_bypassed=yes', 'is_bypassed'],
      ['is_publicly_leaked=1', 'is_publicly_leaked'],
      ['hide_secret=TRUE', 'hide_secret'],
      ['per_page=101', 'per_page'],
      ['per_page=0', 'per_page'],
      ['per_page=ten', 'per_page'],
      ['page=0', 'page'],
      ['page=2&after=', 'page'],
      ['state=closed', 'state'],
      ['sort=name', 'sort'],
      ['direction=up', 'direction'],
      ['resolution=fixed', 'resolution'],
      ['validity=valid', 'validity'],
      ['included_metadata=shoe-size', 'included_metadata'],
      ['owner_email_hash=ABC', 'owner_email_hash'],
    ])('%s is 422 with errors[] naming %s', async (query, field) => {
      for (const path of ['/repos/acme/api/secret-scanning/alerts', '/orgs/acme/secret-scanning/alerts']) {
        const res = await get(`${path}?${query}`);
        expect(res.status).toBe(422);
        const body = (await res.json()) as any;
        expect(body).toMatchObject({ message: expect.any(String), documentation_url: expect.stringMatching(/^https:\/\/docs\.github\.com\//), status: '422' });
        expect(body.errors).toEqual(expect.arrayContaining([expect.objectContaining({ field, code: 'invalid' })]));
      }
    });

    it('Octokit surfaces mutually exclusive filters as a 422 HttpError', async () => {
      await expect(gh.rest.secretScanning.listAlertsForOrg({ org: 'acme', secret_type: 'a', exclude_secret_types: 'b' })).rejects.toMatchObject({
        name: 'HttpError',
        status: 422,
        message: expect.stringContaining('secret_type and exclude_secret_types cannot be used together'),
      });
    });

    it('a tampered cursor is 400', async () => {
      const res = await get('/repos/acme/api/secret-scanning/alerts?after=not-a-cursor');
      expect(res.status).toBe(400);
      expect(((await res.json()) as any).message).toMatch(/cursor/);
    });
  });

  // ------------------------------------------------------------------------------------------------ versions

  describe('API version and media types', () => {
    it('accepts no version header (Octokit default), 2026-03-10 in X-Service-Api-Version or X-GitHub-Api-Version; other versions are 400', async () => {
      const params = { owner: 'acme', repo: 'api', per_page: 1 };
      expect((await gh.rest.secretScanning.listAlertsForRepo(params)).status).toBe(200);
      for (const h of ['x-service-api-version', 'x-github-api-version']) {
        expect((await gh.rest.secretScanning.listAlertsForRepo({ ...params, headers: { [h]: '2026-03-10' } })).status).toBe(200);
        const e = await gh.rest.secretScanning.listAlertsForRepo({ ...params, headers: { [h]: '2022-11-28' } }).catch((x: any) => x);
        expect(e).toMatchObject({ name: 'HttpError', status: 400 });
        expect(e.response.data.message).toMatch(/API version '2022-11-28' is not supported/);
      }
      for (const accept of ['application/vnd.service+json', 'application/vnd.github+json', 'application/json']) {
        expect((await get('/repos/acme/api/secret-scanning/alerts?per_page=1', tokens.admin, { accept })).status).toBe(200);
      }
      expect((await get('/repos/acme/api/secret-scanning/alerts?per_page=1', tokens.admin, { accept: 'text/html' })).status).toBe(415);
    });
  });
});

describe('GET /openapi/secret-scanning.json', () => {
  it('documents the 7 operations with their parameters, defaults and schemas, with no dangling $ref', async () => {
    const app = Fastify({ logger: false });
    registerSecretScanningOpenApi(app, { publicUrl: 'https://gw.example.test' }, REST_ROUTES);
    const url = await app.listen({ port: 0, host: '127.0.0.1' });
    try {
      const res = await fetch(`${url}/openapi/secret-scanning.json`);
      expect(res.status).toBe(200);
      const doc = (await res.json()) as any;
      expect(doc.servers).toEqual([{ url: 'https://gw.example.test' }]);
      const ops = Object.entries(doc.paths).flatMap(([p, item]: [string, any]) => Object.entries(item).map(([m, op]: [string, any]) => [`${m.toUpperCase()} ${p}`, op.operationId]));
      expect(Object.fromEntries(ops)).toEqual({
        'GET /orgs/{org}/secret-scanning/alerts': 'secret-scanning/list-alerts-for-org',
        'GET /repos/{owner}/{repo}/secret-scanning/alerts': 'secret-scanning/list-alerts-for-repo',
        'GET /repos/{owner}/{repo}/secret-scanning/alerts/{alert_number}': 'secret-scanning/get-alert',
        'PATCH /repos/{owner}/{repo}/secret-scanning/alerts/{alert_number}': 'secret-scanning/update-alert',
        'GET /repos/{owner}/{repo}/secret-scanning/alerts/{alert_number}/locations': 'secret-scanning/list-locations-for-alert',
        'POST /repos/{owner}/{repo}/secret-scanning/push-protection-bypasses': 'secret-scanning/create-push-protection-bypass',
        'GET /repos/{owner}/{repo}/secret-scanning/scan-history': 'secret-scanning/get-scan-history',
      });
      const list = doc.paths['/repos/{owner}/{repo}/secret-scanning/alerts'].get;
      const query = Object.fromEntries(list.parameters.filter((p: any) => p.in === 'query').map((p: any) => [p.name, p.schema]));
      expect(Object.keys(query)).toEqual([
        'state', 'secret_type', 'exclude_secret_types', 'exclude_providers', 'providers', 'resolution', 'assignee', 'sort', 'direction', 'page',
        'per_page', 'before', 'after', 'validity', 'is_publicly_leaked', 'is_multi_repo', 'hide_secret', 'is_bypassed', 'included_metadata', 'owner_email_hash',
      ]); // prettier-ignore
      expect(query).toMatchObject({
        state: { type: 'string', enum: ['open', 'resolved'] },
        sort: { enum: ['created', 'updated'], default: 'created' },
        direction: { enum: ['asc', 'desc'], default: 'desc' },
        page: { type: 'integer', default: 1 },
        per_page: { type: 'integer', default: 30, maximum: 100 },
        is_publicly_leaked: { type: 'boolean', default: false },
        hide_secret: { type: 'boolean', default: false },
        is_bypassed: { type: 'boolean' },
      });
      expect(list.responses['200'].content['application/json'].schema).toEqual({ type: 'array', items: { $ref: '#/components/schemas/secret-scanning-alert' } });
      expect(doc.paths['/repos/{owner}/{repo}/secret-scanning/alerts/{alert_number}'].get.responses['304']).toBeDefined();
      expect(doc.paths['/repos/{owner}/{repo}/secret-scanning/push-protection-bypasses'].post.requestBody.required).toBe(true);
      expect(Object.keys(doc.components.schemas['secret-scanning-alert'].properties)).toEqual(REPO_ALERT_KEYS);
      expect(Object.keys(doc.components.schemas['organization-secret-scanning-alert'].properties)).toEqual(ORG_ALERT_KEYS);
      // every $ref resolves inside the document
      const refs = JSON.stringify(doc).match(/"\$ref":"[^"]+"/g) ?? [];
      expect(refs.length).toBeGreaterThan(20);
      for (const r of new Set(refs)) {
        const name = r.slice('"$ref":"#/components/schemas/'.length, -1);
        expect(doc.components.schemas).toHaveProperty([name]);
      }
      // only the secret scanning paths
      expect(Object.keys(doc.paths).every((p) => p.includes('/secret-scanning/'))).toBe(true);
    } finally {
      await app.close();
    }
  });
});
