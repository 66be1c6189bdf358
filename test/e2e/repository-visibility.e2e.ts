/**
 * One visibility rule for a repository (issue 6, item 5), and what follows from it (item 6: security settings).
 *
 * Every way to reach a repository is asked, for every viewer x every repository, and all must agree:
 *   rest         GET /repos/{owner}/{repo}                      200 = visible, 404 = hidden
 *   graph        repository(owner:, name:)                      object = visible, null + NOT_FOUND = hidden
 *   node         node(id:)                                      object = visible, null = hidden
 *   nodes        nodes(ids: [every repository])                 object = visible, null = hidden
 *   list         organization/user(login).repositories, paged by 2 (keyset pages over the derived SQL filter)
 *   alerts       GET /repos/{o}/{r}/secret-scanning/alerts      on repositories with secret scanning on: 404 = hidden,
 *                                                               200/403 = visible (REST answers every 404 alike, and
 *                                                               scanning off is 404 for everyone, so those are skipped)
 *   ssAlerts     the alerts services' decision (secretScanningAlertAccess.requireRepository, what endpoints 2-7 and their GraphQL twins use):
 *                plain NotFound = hidden; anything else (allowed, Forbidden, "Secret scanning is disabled") = visible
 *   ssBypass     the push service's decision (createBypass with an unknown placeholder): the same
 *   service      AccessService.canSeeRepository for the same token (the rule itself)
 * Viewers: the demo tokens (alice, bob, carol, dave) and anonymous, plus tokens of other kinds on the same people
 * and an outside collaborator. Repositories: the demo's plus a public one with secret scanning off and a private
 * user-owned one with it off, so public/private x scanning on/off x organization/user-owned are all there.
 * Nothing here lists an expected answer per path: the paths are compared with each other; a few anchors (the
 * issue's reproductions) pin the rule itself.
 */
import { AccountEntity } from '../../entities/identity';
import { toGlobalId } from '../../resolvers/common/global-id';
import { authenticateBearer } from '../../src/auth/authenticate';
import { contextFor } from '../../src/context';
import { seedDemo } from '../../src/seed/demo';
import { IdentityFixtures } from '../fixtures/identity';
import { gql, startTestApp, TestApp } from '../helpers/app';

interface Repo {
  owner: string;
  name: string;
  ownerType: 'Organization' | 'User';
  id: number;
}

const PATHS = ['service', 'rest', 'graph', 'node', 'nodes', 'list', 'alerts', 'ssAlerts', 'ssBypass'] as const;
type PathName = (typeof PATHS)[number];
/** viewer -> repository full name -> path -> visible? */
type Answers = Record<string, Record<string, Partial<Record<PathName, boolean | string>>>>;

describe('one visibility rule for a repository: every way to reach it agrees, for every viewer', () => {
  let t: TestApp;
  const viewers: Record<string, string | undefined> = { anonymous: undefined };
  const repos: Repo[] = [];
  const answers: Answers = {};
  const full = (r: Repo) => `${r.owner}/${r.name}`;

  beforeAll(async () => {
    t = await startTestApp();
    const { services } = t.app.deps;
    const demo = await seedDemo(t.db.dataSource, services);
    const f = new IdentityFixtures(t.db.dataSource);
    const db = t.db.dataSource.manager;
    for (const tk of demo.tokens) viewers[`${tk.user} (demo ${tk.kind})`] = tk.token;

    // More repositories: public with secret scanning off; user-owned private with it off.
    await services.identity.createRepository(db, { owner: 'acme', name: 'docs', private: false, description: 'Docs' });
    await services.identity.createRepository(db, { owner: 'carol', name: 'notes', private: true, description: 'Notes' });
    // An outside collaborator: read on acme/api (scanning on), admin on acme/legacy (scanning off).
    const erin = await f.user('erin');
    await services.identity.grant(db, { repo: 'acme/api', user: 'erin', permission: 'read' });
    await services.identity.grant(db, { repo: 'acme/legacy', user: 'erin', permission: 'admin' });
    const user = (login: string) => t.db.dataSource.getRepository(AccountEntity).findOneByOrFail({ loginLower: login });
    const [alice, bob, carol, dave] = await Promise.all(['alice', 'bob', 'carol', 'dave'].map(user));
    Object.assign(viewers, {
      'alice classic read:org only': await f.classicToken(alice, ['read:org']),
      'alice classic security_events only': await f.classicToken(alice, ['security_events']),
      'alice fine-grained on alice/dotfiles only': await f.fineGrainedToken(alice, ['alice/dotfiles'], { secret_scanning_alerts: 'read' }),
      'bob fine-grained without acme/api': await f.fineGrainedToken(bob, ['acme/website'], { secret_scanning_alerts: 'read' }),
      'carol classic repo': await f.classicToken(carol, ['repo']),
      'carol fine-grained on acme/legacy, metadata only': await f.fineGrainedToken(carol, ['acme/legacy'], { metadata: 'read' }),
      'dave classic no scope': await f.classicToken(dave, []),
      'erin (outside collaborator) classic repo': await f.classicToken(erin, ['repo']),
      'erin (outside collaborator) classic security_events': await f.classicToken(erin, ['security_events']),
    });

    const rows = await t.db.dataSource.query('SELECT r.id AS id, r.name AS name, a.login AS owner, a.type AS type FROM repositories r JOIN accounts a ON a.id = r.owner_id');
    for (const r of rows) repos.push({ id: Number(r.id), name: r.name, owner: r.owner, ownerType: r.type });
    repos.sort((a, b) => full(a).localeCompare(full(b)));

    for (const [viewer, token] of Object.entries(viewers)) answers[viewer] = await ask(token);
  }, 120_000);
  afterAll(() => t.close());

  const auth = (token?: string): Record<string, string> => (token ? { authorization: `Bearer ${token}` } : {});

  async function rest(method: string, path: string, token?: string): Promise<{ status: number; body: any }> {
    const res = await fetch(`${t.url}${path}`, { method, headers: auth(token) });
    return { status: res.status, body: await res.json().catch(() => ({})) };
  }

  /** A service's decision: only a plain NotFound (nothing said) hides; any other answer shows the repository exists. */
  const serviceSees = (p: Promise<unknown>): Promise<boolean | string> =>
    p.then(
      () => true,
      (e: Error & { code?: string }) => (e.code === 'NOT_FOUND' ? e.message !== 'Not Found' : ['FORBIDDEN', 'BAD_USER_INPUT', 'UNAUTHENTICATED'].includes(String(e.code)) || `${e.name}: ${e.message}`),
    );

  /** Every path's answer for one viewer, for every repository. */
  async function ask(token?: string): Promise<Answers[string]> {
    const out: Answers[string] = {};
    for (const r of repos) out[full(r)] = {};

    const ctx = contextFor(t.app.deps, 'test', await authenticateBearer(t.db.dataSource, token ? `Bearer ${token}` : undefined));
    const { services } = t.app.deps;
    for (const r of repos) {
      const entity = (await services.identity.findRepository(ctx, r.owner, r.name))!;
      const a = out[full(r)];
      a.service = await services.access.canSeeRepository(ctx, entity);
      a.ssAlerts = await serviceSees(services.secretScanningAlertAccess.requireRepository(ctx, entity, 'secret_scanning.alerts.read'));
      a.ssBypass = await serviceSees(services.secretScanningPush.createBypass(ctx, entity, { reason: 'will_fix_later', placeholderId: '0'.repeat(27) }));

      const res = await rest('GET', `/repos/${r.owner}/${r.name}`, token);
      a.rest = res.status === 200 ? true : res.status === 404 ? false : `HTTP ${res.status}`;
      if (entity.secretScanning) {
        const ss = await rest('GET', `/repos/${r.owner}/${r.name}/secret-scanning/alerts`, token);
        a.alerts = ss.status === 404 ? false : ss.status === 200 || ss.status === 403 ? true : `HTTP ${ss.status}`;
      }
    }

    // repository(owner:, name:) and node(id:), one aliased field per repository; nodes(ids:) with all of them.
    const fields = repos
      .map((r, i) => `g${i}: repository(owner: "${r.owner}", name: "${r.name}") { id } n${i}: node(id: "${toGlobalId('Repository', r.id)}") { id }`)
      .join(' ');
    const ids = repos.map((r) => `"${toGlobalId('Repository', r.id)}"`).join(', ');
    const g = await gql(t.url, `{ ${fields} all: nodes(ids: [${ids}]) { id } }`, undefined, token);
    expect(g.status).toBe(200);
    const errorsAt = new Map((g.body.errors ?? []).map((e) => [String(e.path?.[0]), e.extensions?.code]));
    repos.forEach((r, i) => {
      const data = g.body.data as Record<string, unknown>;
      const repo = data[`g${i}`];
      out[full(r)].graph = repo ? true : errorsAt.get(`g${i}`) === 'NOT_FOUND' ? false : `null with ${String(errorsAt.get(`g${i}`))}`;
      out[full(r)].node = Boolean(data[`n${i}`]);
      out[full(r)].nodes = Boolean((data.all as unknown[])[i]);
    });

    // The owners' repository lists, two per page (keyset pagination over the filtered query).
    for (const owner of [...new Set(repos.map((r) => `${r.ownerType}:${r.owner}`))]) {
      const [type, login] = owner.split(':');
      const field = type === 'Organization' ? 'organization' : 'user';
      const listed = new Set<string>();
      let after: string | null = null;
      let totalCount = -1;
      for (let page = 0; page < 20; page++) {
        const l: { body: { data?: any; errors?: unknown[] } } = await gql<any>(
          t.url,
          `query($login: String!, $after: String) { ${field}(login: $login) { repositories(first: 2, after: $after) { totalCount pageInfo { hasNextPage endCursor } nodes { name } } } }`,
          { login, after },
          token,
        );
        expect(l.body.errors).toBeUndefined();
        const conn: { totalCount: number; pageInfo: { hasNextPage: boolean; endCursor: string }; nodes: Array<{ name: string }> } = l.body.data[field].repositories;
        totalCount = conn.totalCount;
        for (const n of conn.nodes) listed.add(n.name);
        if (!conn.pageInfo.hasNextPage) break;
        after = conn.pageInfo.endCursor;
      }
      expect(listed.size).toBe(totalCount);
      for (const r of repos.filter((x) => x.owner === login)) out[full(r)].list = listed.has(r.name);
    }
    return out;
  }

  it('covers every combination of private/public x secret scanning on/off x organization/user-owned', async () => {
    const kinds = new Set(
      (await t.db.dataSource.query('SELECT r.private AS p, r.secret_scanning AS s, a.type AS t FROM repositories r JOIN accounts a ON a.id = r.owner_id')).map(
        (r: { p: unknown; s: unknown; t: string }) => `${Boolean(r.p)}/${Boolean(r.s)}/${r.t}`,
      ),
    );
    expect(kinds).toEqual(new Set(['true/true/Organization', 'false/true/Organization', 'true/false/Organization', 'false/false/Organization', 'true/true/User', 'true/false/User']));
  });

  it('every path gives one answer for every viewer and repository', () => {
    const disagreements: string[] = [];
    for (const [viewer, byRepo] of Object.entries(answers)) {
      for (const [repo, byPath] of Object.entries(byRepo)) {
        const values = new Set(PATHS.filter((p) => p in byPath).map((p) => byPath[p]));
        if (values.size !== 1 || typeof byPath.service !== 'boolean') {
          disagreements.push(`${viewer} on ${repo}: ${PATHS.map((p) => `${p}=${String(byPath[p])}`).join(' ')}`);
        }
      }
    }
    expect(disagreements).toEqual([]);
  });

  it('no path is trivially constant: each shows some repositories to some viewers and hides others', () => {
    for (const p of PATHS) {
      const seen = new Set(Object.values(answers).flatMap((byRepo) => Object.values(byRepo).filter((a) => p in a).map((a) => a[p])));
      expect([p, seen]).toEqual([p, new Set([true, false])]);
    }
  });

  /**
   * Item 6: the security settings follow one rule too (IdentityService.securitySettingsFor: repository admins).
   * For every viewer and every repository they see, REST `security_and_analysis` and GraphQL `securitySettings`
   * / `settings` are both present with the same values, or both absent (null).
   */
  it('security settings: REST security_and_analysis and GraphQL securitySettings/settings agree for every viewer', async () => {
    const status = (on: boolean) => ({ status: on ? 'enabled' : 'disabled' });
    const shown: Record<string, string[]> = {};
    const disagreements: string[] = [];
    for (const [viewer, token] of Object.entries(viewers)) {
      shown[viewer] = [];
      for (const r of repos.filter((x) => answers[viewer][full(x)].service)) {
        const restBody = (await rest('GET', `/repos/${r.owner}/${r.name}`, token)).body;
        const q = `{ repository(owner: "${r.owner}", name: "${r.name}") {
          securitySettings { secretScanning pushProtection advancedSecurity delegatedAlertDismissal }
          settings { secretScanning pushProtection advancedSecurity delegatedAlertDismissal } } }`;
        const g = await gql<any>(t.url, q, undefined, token);
        expect(g.body.errors).toBeUndefined();
        const ss = g.body.data.repository.securitySettings;
        const asRest = ss && {
          advanced_security: status(ss.advancedSecurity),
          secret_scanning: status(ss.secretScanning),
          secret_scanning_push_protection: status(ss.pushProtection),
          secret_scanning_delegated_alert_dismissal: status(ss.delegatedAlertDismissal),
        };
        const same = JSON.stringify(restBody.security_and_analysis ?? null) === JSON.stringify(asRest) && JSON.stringify(g.body.data.repository.settings) === JSON.stringify(ss);
        if (!same) disagreements.push(`${viewer} on ${full(r)}: REST ${JSON.stringify(restBody.security_and_analysis)} GraphQL ${JSON.stringify(g.body.data.repository)}`);
        if (ss) shown[viewer].push(full(r));
      }
    }
    expect(disagreements).toEqual([]);
    // admins only: alice administers acme (and owns dotfiles), erin administers acme/legacy; nobody else, and
    // never anonymous (which used to read them on public repositories), nor a token without repo/public_repo.
    expect(shown['alice (demo classic)']).toEqual(['acme/api', 'acme/docs', 'acme/legacy', 'acme/website', 'alice/dotfiles']);
    expect(shown['erin (outside collaborator) classic repo']).toEqual(['acme/legacy']);
    expect(shown['carol classic repo']).toEqual(['carol/notes']);
    for (const v of ['anonymous', 'bob (demo classic)', 'dave (demo classic)', 'alice classic read:org only', 'alice classic security_events only']) {
      expect([v, shown[v]]).toEqual([v, []]);
    }
  });

  it("the rule: the issue's reproductions and the security_events half", () => {
    const sees = (viewer: string) => Object.entries(answers[viewer]).filter(([, a]) => a.service).map(([r]) => r).sort();
    // bob's classic security_events token: the repositories whose alerts it reads (secret scanning on), never
    // acme/legacy (private, secret scanning off) — REST said 404 while GraphQL showed it.
    expect(sees('bob (demo classic)')).toEqual(['acme/api', 'acme/docs', 'acme/website']);
    expect(sees('anonymous')).toEqual(['acme/docs', 'acme/website']);
    expect(sees('alice (demo classic)')).toEqual(['acme/api', 'acme/docs', 'acme/legacy', 'acme/website', 'alice/dotfiles']);
    expect(sees('alice classic security_events only')).toEqual(['acme/api', 'acme/docs', 'acme/website', 'alice/dotfiles']);
    expect(sees('erin (outside collaborator) classic security_events')).toEqual(['acme/docs', 'acme/website']);
    expect(sees('erin (outside collaborator) classic repo')).toEqual(['acme/api', 'acme/docs', 'acme/legacy', 'acme/website']);
    expect(sees('bob fine-grained without acme/api')).toEqual(['acme/docs', 'acme/website']);
  });
});
