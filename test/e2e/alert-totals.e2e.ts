/**
 * The organization dashboard's unfiltered total comes from per-repository totals that database triggers keep
 * (secret_scanning_alert_totals). Whatever writes alerts (findings, plain inserts, deletes, a change of
 * repository), the kept totals equal a COUNT of the alerts, and the totals users read (GraphQL totalCount, REST
 * Link header) equal the alerts the list can show, with and without filters.
 */
import { AccountEntity, RepositoryEntity } from '../../entities/identity';
import { SecretScanningAlertEntity } from '../../entities/secret-scanning';
import type { Finding } from '../../src/services/secret-scanning/alert-types';
import { IdentityFixtures } from '../fixtures/identity';
import { gql, startTestApp, TestApp } from '../helpers/app';

const T0 = Date.parse('2026-03-01T08:00:00.000Z');

/**
 * A kept-totals table against COUNT(*) of what it counts, grouped by `key` (rows at 0 may stay; none may be
 * negative).
 */
async function expectKeptTotals(t: TestApp, kept: { table: string; column: string }, counted: { table: string }, key: string): Promise<void> {
  const ds = t.db.dataSource;
  const rows = (sql: string) => ds.query(sql).then((r: Array<{ k: unknown; n: unknown }>) => r.map((x) => [Number(x.k), Number(x.n)]));
  expect(await rows(`SELECT ${key} AS k, ${kept.column} AS n FROM ${kept.table} WHERE ${kept.column} <> 0 ORDER BY ${key}`)).toEqual(
    await rows(`SELECT ${key} AS k, COUNT(*) AS n FROM ${counted.table} GROUP BY ${key} ORDER BY ${key}`),
  );
  expect(await rows(`SELECT 0 AS k, COUNT(*) AS n FROM ${kept.table} WHERE ${kept.column} < 0`)).toEqual([[0, 0]]);
}

describe('kept alert totals', () => {
  let t: TestApp;
  let f: IdentityFixtures;
  let token: string;
  let org: AccountEntity;
  const repos: RepositoryEntity[] = [];
  let off: RepositoryEntity;
  let n = 0;

  async function record(repo: RepositoryEntity, count: number): Promise<void> {
    await t.db.dataSource.transaction(async (m) => {
      for (let i = 0; i < count; i++) {
        n++;
        const location: Finding['location'] = { type: 'commit', path: `src/t${n}.ts`, startLine: 1, endLine: 1, startColumn: 1, endColumn: 9, blobSha: `b${n}`.padEnd(40, '0'), commitSha: `c${n}`.padEnd(40, '0') };
        await f.services.secretScanningFindings.recordFinding(
          m,
          repo,
          { secretType: 'github_personal_access_token', secretTypeDisplayName: 'GitHub Personal Access Token', provider: 'GitHub', providerSlug: 'github', secret: `totals-secret-${n}`, location },
          new Date(T0 + n * 60_000),
        );
      }
    });
  }

  const expectTotalsExact = () => expectKeptTotals(t, { table: 'secret_scanning_alert_totals', column: 'alerts' }, { table: 'secret_scanning_alerts' }, 'repository_id');

  /** What the organization list shows: alerts of its repositories with secret scanning on. */
  async function listable(where = ''): Promise<number> {
    const [row] = await t.db.dataSource.query(
      `SELECT COUNT(*) AS n FROM secret_scanning_alerts a JOIN repositories r ON r.id = a.repository_id WHERE r.owner_id = ${org.id} AND r.secret_scanning = ${t.db.dataSource.options.type === 'postgres' ? 'true' : '1'}${where}`,
    );
    return Number(row.n);
  }

  async function graphqlTotal(filter?: Record<string, unknown>): Promise<number> {
    const r = await gql(
      t.url,
      'query($f: SecretScanningAlertFilter) { organization(login: "totorg") { secretScanningAlerts(first: 2, filter: $f) { totalCount nodes { number } } } }',
      { f: filter ?? null },
      token,
    );
    expect(r.body.errors).toBeUndefined();
    return r.body.data.organization.secretScanningAlerts.totalCount;
  }

  async function restLastPage(query = ''): Promise<number> {
    const res = await fetch(`${t.url}/orgs/totorg/secret-scanning/alerts?per_page=1${query}`, { headers: { authorization: `Bearer ${token}` } });
    expect(res.status).toBe(200);
    const m = /[?&]page=(\d+)[^>]*>; rel="last"/.exec(res.headers.get('link') ?? '');
    return m ? Number(m[1]) : (((await res.json()) as unknown[]).length);
  }

  beforeAll(async () => {
    t = await startTestApp();
    f = new IdentityFixtures(t.db.dataSource);
    org = await f.org('totorg');
    const admin = await f.user('totadmin');
    await f.member(org, admin, 'admin');
    token = await f.classicToken(admin, ['repo', 'security_events']);
    for (let i = 0; i < 3; i++) repos.push(await f.repo(org, { name: `tot${i}`, private: i > 0, secretScanning: true }));
    off = await f.repo(org, { name: 'totoff', private: true, secretScanning: false });
    await record(repos[0], 7);
    await record(repos[1], 4);
    await record(off, 3);
  });
  afterAll(() => t.close());

  it('follow findings, and the dashboard totals equal the listable alerts', async () => {
    await expectTotalsExact();
    expect(await listable()).toBe(11);
    expect(await graphqlTotal()).toBe(11);
    expect(await restLastPage()).toBe(11);
  });

  it('follow deletes and a change of repository', async () => {
    const alerts = t.db.dataSource.getRepository(SecretScanningAlertEntity);
    const some = await alerts.find({ where: { repositoryId: repos[0].id }, order: { id: 'ASC' }, take: 3 });
    await alerts.delete({ id: some[0].id });
    await alerts.update({ id: some[1].id }, { repositoryId: repos[2].id, number: 9001 });
    await expectTotalsExact();
    expect(await listable()).toBe(10);
    expect(await graphqlTotal()).toBe(10);
    expect(await restLastPage()).toBe(10);
    // Moved into the repository with scanning off: it leaves the list and the total.
    await alerts.update({ id: some[2].id }, { repositoryId: off.id, number: 9002 });
    await expectTotalsExact();
    expect(await graphqlTotal()).toBe(9);
    expect(await restLastPage()).toBe(9);
  });

  it('follow turning secret scanning on and off, and filtered totals count the alerts themselves', async () => {
    await t.db.dataSource.getRepository(RepositoryEntity).update({ id: off.id }, { secretScanning: true });
    expect(await graphqlTotal()).toBe(await listable());
    expect(await graphqlTotal()).toBe(13);
    await record(repos[2], 2);
    await t.db.dataSource.getRepository(SecretScanningAlertEntity).update({ repositoryId: repos[1].id }, { state: 'resolved', resolution: 'revoked', resolvedAt: new Date(T0) });
    await expectTotalsExact();
    expect(await graphqlTotal()).toBe(15);
    expect(await graphqlTotal({ state: 'OPEN' })).toBe(await listable(` AND a.state = 'open'`));
    expect(await graphqlTotal({ state: 'OPEN' })).toBe(11);
    expect(await restLastPage('&state=resolved')).toBe(4);
    await t.db.dataSource.getRepository(RepositoryEntity).update({ id: off.id }, { secretScanning: false });
    expect(await graphqlTotal()).toBe(await listable());
  });
});

/**
 * The same for repositories: the kept number of repositories per owner (repository_totals) follows inserts,
 * deletes and a change of owner, and a repository list whose viewer sees all of them answers it as totalCount,
 * while viewers who see fewer get their own count.
 */
describe('kept repository totals', () => {
  let t: TestApp;
  let f: IdentityFixtures;

  const expectTotalsExact = () => expectKeptTotals(t, { table: 'repository_totals', column: 'repositories' }, { table: 'repositories' }, 'owner_id');

  /** totalCount of a 2-item page, checked against the number of repositories the same viewer can list. */
  const total = async (token: string | undefined, login = 'rtorg') => {
    const page = await gql(t.url, `{ organization(login: "${login}") { repositories(first: 2) { totalCount nodes { name } } } }`, undefined, token);
    const all = await gql(t.url, `{ organization(login: "${login}") { repositories(first: 100) { nodes { name } } } }`, undefined, token);
    expect(page.body.errors).toBeUndefined();
    expect(page.body.data.organization.repositories.totalCount).toBe(all.body.data.organization.repositories.nodes.length);
    return page.body.data.organization.repositories.totalCount as number;
  };

  beforeAll(async () => {
    t = await startTestApp();
    f = new IdentityFixtures(t.db.dataSource);
  });
  afterAll(() => t.close());

  it('follow inserts, deletes and a change of owner; totalCount is the kept total only for viewers who see everything', async () => {
    const org = await f.org('rtorg');
    const other = await f.org('rtother');
    const admin = await f.user('rtadmin');
    const outsider = await f.user('rtoutsider');
    await f.member(org, admin, 'admin');
    const adminToken = await f.classicToken(admin, ['repo']);
    const outsiderToken = await f.classicToken(outsider, ['repo']);
    const made: RepositoryEntity[] = [];
    for (let i = 0; i < 6; i++) made.push(await f.repo(org, { name: `rt${i}`, private: i % 2 === 1 }));
    await expectTotalsExact();
    expect(await total(adminToken)).toBe(6);
    expect(await total(outsiderToken)).toBe(3); // the public ones
    expect(await total(undefined)).toBe(3);
    const repos = t.db.dataSource.getRepository(RepositoryEntity);
    await repos.delete({ id: made[0].id });
    await repos.update({ id: made[1].id }, { ownerId: other.id });
    await expectTotalsExact();
    expect(await total(adminToken)).toBe(4);
    expect(await total(outsiderToken)).toBe(2);
    expect(await total(undefined, 'rtother')).toBe(0);
    await repos.update({ id: made[1].id }, { private: false });
    expect(await total(undefined, 'rtother')).toBe(1);
    await expectTotalsExact();
  });
});
