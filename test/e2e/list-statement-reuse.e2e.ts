/**
 * Hot lists reuse one statement text per shape (src/services/common/list-query.ts): viewers who see
 * different repositories, asking the same list back-to-back on one server, each get exactly their own rows
 * (a text shared across visibility cases would show one viewer's rows to the other).
 */
import { AccountEntity, RepositoryEntity } from '../../entities/identity';
import { authenticateBearer } from '../../src/auth/authenticate';
import { contextFor } from '../../src/context';
import { seedDemo } from '../../src/seed/demo';
import { fakeSecrets } from '../fixtures/fake-secrets';
import { IdentityFixtures } from '../fixtures/identity';
import { gql, startTestApp, TestApp } from '../helpers/app';

describe('list statements reused across viewers', () => {
  let t: TestApp;
  const tokens: Record<string, string | undefined> = {};

  beforeAll(async () => {
    t = await startTestApp();
    const demo = await seedDemo(t.db.dataSource, t.app.deps.services);
    const f = new IdentityFixtures(t.db.dataSource);
    const alice = await t.db.dataSource.getRepository(AccountEntity).findOneByOrFail({ loginLower: 'alice' });
    for (const tk of demo.tokens) tokens[tk.user] = tk.token;
    tokens.anonymous = undefined;
    tokens['alice on acme/website only'] = await f.fineGrainedToken(alice, ['acme/website'], { secret_scanning_alerts: 'read' });
    tokens['alice on acme/api only'] = await f.fineGrainedToken(alice, ['acme/api'], { secret_scanning_alerts: 'read' });
    // The demo's acme/api push was blocked: give acme/api an alert of its own (issue text is scanned, not pushed).
    const asAlice = contextFor(t.app.deps, 'seed', await authenticateBearer(t.db.dataSource, `Bearer ${tokens.alice}`));
    await t.app.deps.services.secretScanningPush.submitContent(asAlice, {
      repository: 'acme/api',
      locationType: 'issue_comment',
      url: 'https://example.com/acme/api/issues/1#issuecomment-1',
      content: `key: ${fakeSecrets.sendgrid().secret}`,
    });
  });
  afterAll(() => t.close());

  /** The repositories of acme the rule itself (AccessService.canSeeRepository) shows this viewer. */
  async function visibleByRule(token: string | undefined): Promise<string[]> {
    const ctx = contextFor(t.app.deps, 'test', await authenticateBearer(t.db.dataSource, token ? `Bearer ${token}` : undefined));
    const acme = await t.db.dataSource.getRepository(AccountEntity).findOneByOrFail({ loginLower: 'acme' });
    const out: string[] = [];
    for (const r of await t.db.dataSource.getRepository(RepositoryEntity).find({ where: { ownerId: acme.id }, order: { nameLower: 'ASC' } })) {
      if (await t.app.deps.services.access.canSeeRepository(ctx, r)) out.push(`acme/${r.name}`);
    }
    return out;
  }

  it('organization.repositories: each viewer sees only their repositories, interleaved', async () => {
    const viewers = ['alice', 'dave', 'carol', 'anonymous', 'alice on acme/website only', 'bob'];
    const expected: Record<string, string[]> = {};
    for (const v of viewers) expected[v] = await visibleByRule(tokens[v]);
    // The viewers really differ, so a shared text would show.
    expect(new Set(Object.values(expected).map((e) => e.join())).size).toBeGreaterThanOrEqual(3);
    for (const first of [2, 10]) {
      for (let round = 0; round < 3; round++) {
        for (const v of round % 2 ? [...viewers].reverse() : viewers) {
          const q = `{ organization(login: "acme") { repositories(first: ${first}) { totalCount nodes { nameWithOwner } } } }`;
          const res = await gql<any>(t.url, q, undefined, tokens[v]);
          expect([v, res.body.errors]).toEqual([v, undefined]);
          const conn = res.body.data.organization.repositories;
          expect([v, conn.totalCount, conn.nodes.map((n: { nameWithOwner: string }) => n.nameWithOwner)]).toEqual([v, expected[v].length, expected[v].slice(0, first)]);
        }
      }
    }
  });

  it('organization alert lists (GraphQL and REST): a token limited to one repository sees only its alerts, interleaved', async () => {
    const viewers = ['alice', 'alice on acme/website only', 'alice on acme/api only'];
    const seen: Record<string, Set<string>> = {};
    for (let round = 0; round < 3; round++) {
      for (const v of round % 2 ? [...viewers].reverse() : viewers) {
        const res = await gql<any>(
          t.url,
          '{ organization(login: "acme") { secretScanningAlerts(first: 50) { totalCount nodes { number repository { nameWithOwner } } } } }',
          undefined,
          tokens[v],
        );
        expect([v, res.body.errors]).toEqual([v, undefined]);
        const conn = res.body.data.organization.secretScanningAlerts;
        const repos = conn.nodes.map((n: { repository: { nameWithOwner: string } }) => n.repository.nameWithOwner);
        expect(conn.totalCount).toBe(repos.length);
        const rest = await fetch(`${t.url}/orgs/acme/secret-scanning/alerts?per_page=50`, { headers: { authorization: `Bearer ${tokens[v]}` } });
        expect(rest.status).toBe(200);
        const restRepos = ((await rest.json()) as Array<{ repository: { full_name: string } }>).map((a) => a.repository.full_name);
        expect([v, restRepos]).toEqual([v, repos]);
        const set = new Set<string>(repos);
        if (seen[v]) expect([v, [...set].sort()]).toEqual([v, [...seen[v]].sort()]);
        seen[v] = set;
      }
    }
    expect([...seen['alice on acme/website only']]).toEqual(['acme/website']);
    expect([...seen['alice on acme/api only']]).toEqual(['acme/api']);
    expect([...seen.alice].sort()).toEqual(['acme/api', 'acme/website']);
  });
});
