/**
 * Dashboard-speed reads (issue 7 §4): the organization alert list costs at most 3 SQL statements per
 * request, whatever the page size, over GraphQL and over REST: the token check, the organization (with
 * the viewer's role in it), and one page statement with the selected to-one relations joined and the
 * total as a scalar subquery. The answers stay complete (relations, totals, URLs, Link header).
 */
import { AccountEntity, RepositoryEntity } from '../../entities/identity';
import { SecretScanningAlertEntity } from '../../entities/secret-scanning';
import type { Finding } from '../../src/services/secret-scanning/alert-types';
import { OrganizationSecretScanningDashboardDocument } from '../__generated__/graphql';
import { IdentityFixtures } from '../fixtures/identity';
import { gql, gqlDoc, startTestApp, TestApp } from '../helpers/app';
import { describeStatements, SqlLog } from '../helpers/sql-log';

const T0 = Date.parse('2026-02-01T08:00:00.000Z');

describe('dashboard reads: SQL statements per request', () => {
  const log = new SqlLog();
  let t: TestApp;
  let f: IdentityFixtures;
  let token: string;
  const people: AccountEntity[] = [];
  /** Alerts in repositories with secret scanning on (the ones the list shows). */
  let visible = 0;

  beforeAll(async () => {
    t = await startTestApp({ logger: log });
    f = new IdentityFixtures(t.db.dataSource);
    const org = await f.org('dashorg');
    const admin = await f.user('dashadmin');
    await f.member(org, admin, 'admin');
    token = await f.classicToken(admin, ['repo', 'security_events']);
    for (let i = 0; i < 6; i++) {
      const p = await f.user(`dashuser${i}`);
      await f.member(org, p, 'member');
      people.push(p);
    }
    const repos: RepositoryEntity[] = [];
    for (let i = 0; i < 3; i++) repos.push(await f.repo(org, { name: `dash${i}`, private: i !== 0, secretScanning: true }));
    const off = await f.repo(org, { name: 'dashoff', private: true, secretScanning: true });
    const services = f.services;
    const alerts = t.db.dataSource.getRepository(SecretScanningAlertEntity);
    await t.db.dataSource.transaction(async (m) => {
      for (let i = 0; i < 130; i++) {
        const repo = i < 120 ? repos[i % repos.length] : off;
        const location: Finding['location'] =
          i % 10 === 9
            ? { type: 'issue_comment', url: `https://example.test/issues/${i}#c` }
            : { type: 'commit', path: `src/f${i}.ts`, startLine: i + 1, endLine: i + 1, startColumn: 3, endColumn: 40, blobSha: `b${i}`.padEnd(40, '0'), commitSha: `c${i}`.padEnd(40, '0') };
        const { alert } = await services.secretScanningFindings.recordFinding(
          m,
          repo,
          { secretType: 'github_personal_access_token', secretTypeDisplayName: 'GitHub Personal Access Token', provider: 'GitHub', providerSlug: 'github', secret: `dash-secret-${i}-${Math.random()}`, location },
          new Date(T0 + i * 60_000),
        );
        await m.getRepository(SecretScanningAlertEntity).update(
          { id: alert.id },
          {
            assignedToId: i % 3 === 0 ? null : people[i % people.length].id,
            ...(i % 4 === 0 ? { state: 'resolved' as const, resolution: 'revoked' as const, resolvedAt: new Date(T0 + 900 * 60_000), resolvedById: people[(i + 1) % people.length].id } : {}),
            ...(i % 5 === 0 ? { pushProtectionBypassed: true, pushProtectionBypassedById: people[(i + 2) % people.length].id } : {}),
          },
        );
      }
    });
    // Secret scanning turned off afterwards: its 10 alerts stay in the table but leave every list and count.
    await t.db.dataSource.getRepository(RepositoryEntity).update({ id: off.id }, { secretScanning: false });
    visible = await alerts.count({ where: { ownerId: org.id } }) - 10;
  });

  afterAll(async () => {
    await t?.close();
  });

  it('GraphQL: the dashboard query runs at most 3 statements, the same for 10 and 100 alerts', async () => {
    const run = (first: number) => log.record(() => gqlDoc(t.url, OrganizationSecretScanningDashboardDocument, { login: 'dashorg', first }, token));
    await run(10); // warm-up
    for (const first of [10, 100]) {
      const { result: r, statements } = await run(first);
      expect(r.body.errors).toBeUndefined();
      const list = r.body.data!.organization!.secretScanningAlerts;
      expect(list.totalCount).toBe(visible);
      expect(list.nodes).toHaveLength(Math.min(first, visible));
      for (const n of list.nodes) {
        expect(n.repository.owner.login).toBe('dashorg');
        expect(n.repository.nameWithOwner).toMatch(/^dashorg\/dash[0-2]$/);
        expect(n.url).toBe(`${t.url}/repos/${n.repository.nameWithOwner}/secret-scanning/alerts/${n.number}`);
      }
      expect(list.nodes.some((n) => n.assignedTo?.login.startsWith('dashuser'))).toBe(true);
      expect(list.nodes.some((n) => n.resolvedBy?.login.startsWith('dashuser'))).toBe(true);
      expect(list.nodes.some((n) => n.pushProtectionBypassedBy?.login.startsWith('dashuser'))).toBe(true);
      expect(list.nodes.some((n) => n.firstLocationDetected === null)).toBe(true);
      expect(list.nodes.some((n) => n.firstLocationDetected?.blobUrl?.includes('/git/blobs/'))).toBe(true);
      if (statements.length > 3) console.log(`GraphQL dashboard, first ${first}: ${statements.length} statements\n${describeStatements(statements)}`);
      expect(statements.length).toBeLessThanOrEqual(3);
    }
  });

  it('GraphQL: a selection without relations or totalCount joins nothing and counts nothing', async () => {
    const q = 'query { organization(login: "dashorg") { secretScanningAlerts(first: 50) { nodes { number state } } } }';
    const { result: r, statements } = await log.record(() => gql(t.url, q, undefined, token));
    expect(r.body.errors).toBeUndefined();
    expect(r.body.data.organization.secretScanningAlerts.nodes).toHaveLength(50);
    expect(statements.length).toBeLessThanOrEqual(3);
    const page = statements[statements.length - 1].sql;
    expect(page).toMatch(/FROM "secret_scanning_alerts"/);
    expect(page).not.toMatch(/JOIN/);
    expect(page).not.toMatch(/COUNT\(/);
  });

  it('REST: the org alert list (GitHub shape, Link with rel="last") runs at most 3 statements for 10 and 100 per page', async () => {
    for (const perPage of [10, 100]) {
      const { result, statements } = await log.record(async () => {
        const res = await fetch(`${t.url}/orgs/dashorg/secret-scanning/alerts?per_page=${perPage}`, { headers: { authorization: `Bearer ${token}` } });
        return { status: res.status, link: res.headers.get('link'), body: (await res.json()) as Array<Record<string, any>> };
      });
      expect(result.status).toBe(200);
      expect(result.body).toHaveLength(Math.min(perPage, visible));
      const lastPage = Math.ceil(visible / perPage);
      if (lastPage > 1) expect(result.link).toContain(`page=${lastPage}>; rel="last"`);
      for (const a of result.body) {
        expect(a.repository.full_name).toMatch(/^dashorg\/dash[0-2]$/);
        expect(a.repository.owner.login).toBe('dashorg');
      }
      expect(result.body.some((a) => a.assigned_to?.login?.startsWith('dashuser'))).toBe(true);
      expect(result.body.some((a) => a.resolved_by?.login?.startsWith('dashuser'))).toBe(true);
      expect(result.body.some((a) => a.first_location_detected?.commit_sha)).toBe(true);
      if (statements.length > 3) console.log(`REST org alerts, per_page ${perPage}: ${statements.length} statements\n${describeStatements(statements)}`);
      expect(statements.length).toBeLessThanOrEqual(3);
    }
  });
});
