/**
 * Secret scanning in the one graph: organization and repository alert lists (every filter, both orders,
 * cursor paging both ways), one alert, locations (a union), node(id:), updateSecretScanningAlert and its
 * rule errors, scan history, input validation of the push mutations, and the SQL statement count of a
 * page of alerts (DataLoaders: the same count for 10 and 100 alerts).
 *
 * Alerts are created with SecretScanningFindingService.recordFinding (no detector involved).
 */
import type { Logger } from 'typeorm';
import { AccountEntity, RepositoryEntity } from '../../entities/identity';
import { SecretScanningAlertEntity } from '../../entities/secret-scanning';
import { toGlobalId } from '../../resolvers/common/global-id';
import type { Finding } from '../../src/services/secret-scanning/alert-types';
import {
  CreatePushProtectionBypassDocument,
  NodesByIdsDocument,
  OrganizationSecretScanningAlertsDocument,
  OrganizationSecretScanningDashboardDocument,
  RepositorySecretScanningAlertsDocument,
  SecretScanningAlertDocument,
  SecretScanningAlertFilter,
  SecretScanningAlertLocationsDocument,
  SecretScanningAlertNodeDocument,
  SecretScanningAlertOrder,
  SecretScanningScanHistoryDocument,
  StartSecretScanDocument,
  SubmitContentDocument,
  SubmitPushDocument,
  UpdateSecretScanningAlertDocument,
  UpdateSecretScanningAlertInput,
} from '../__generated__/graphql';
import { IdentityFixtures } from '../fixtures/identity';
import { ALERT_FIELD_READS, alertIncludesFor } from '../../src/services/secret-scanning/alert-selection';
import { REPOSITORY_FIELD_READS, USER_FIELD_READS } from '../../src/services/identity/field-reads';
import { ALERT_LIST_COLUMNS } from '../../src/services/secret-scanning/alert-queries';
import { gql, gqlDoc, startTestApp, TestApp } from '../helpers/app';
import { testContexts } from '../helpers/context';

/** Counts the SQL statements TypeORM runs while `counting` is on. */
class CountingLogger implements Logger {
  counting = false;
  statements: string[] = [];
  logQuery(query: string): void {
    if (this.counting) this.statements.push(query);
  }
  logQueryError(): void {}
  logQuerySlow(): void {}
  logSchemaBuild(): void {}
  logMigration(): void {}
  log(): void {}
}

const T0 = Date.parse('2026-01-05T10:00:00.000Z');
const at = (minute: number) => new Date(T0 + minute * 60_000);
const iso = (minute: number) => at(minute).toISOString();

let secretSeq = 0;
function secret(prefix: string): string {
  secretSeq += 1;
  return `${prefix}${String(secretSeq).padStart(6, '0')}${Math.random().toString(36).slice(2, 12)}`;
}

/** A GitHub-token-shaped fake, assembled at run time (no credential-looking literal in the source). */
function fakeGithubToken(): string {
  const alnum = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  let body = '';
  for (let i = 0; i < 33; i++) body += alnum[Math.floor(Math.random() * alnum.length)];
  return 'gh' + 'p_' + body + 'Q' + 'z' + '7';
}

const GITHUB = { secretType: 'github_personal_access_token', secretTypeDisplayName: 'GitHub Personal Access Token', provider: 'GitHub', providerSlug: 'github' };
const AWS = { secretType: 'aws_access_key_id', secretTypeDisplayName: 'Amazon AWS Access Key ID', provider: 'Amazon AWS', providerSlug: 'aws' };
const SLACK = { secretType: 'slack_api_token', secretTypeDisplayName: 'Slack API Token', provider: 'Slack', providerSlug: 'slack' };
const STRIPE = { secretType: 'stripe_api_key', secretTypeDisplayName: 'Stripe API Key', provider: 'Stripe', providerSlug: 'stripe' };
const CUSTOM = { secretType: 'acme_internal_key', secretTypeDisplayName: 'ACME internal key', provider: null, providerSlug: null };

function commitAt(path: string, line: number, sha: string): Finding['location'] {
  return {
    type: 'commit',
    path,
    startLine: line,
    endLine: line,
    startColumn: 5,
    endColumn: 45,
    blobSha: `b${sha}`.slice(0, 40).padEnd(40, '0'),
    commitSha: sha.padEnd(40, '0'),
  };
}

describe('secret scanning in the graph', () => {
  const log = new CountingLogger();
  let t: TestApp;
  let f: IdentityFixtures;
  const users: Record<string, AccountEntity> = {};
  const tokens: Record<string, string> = {};
  const repos: Record<string, RepositoryEntity> = {};
  const alerts: Record<string, SecretScanningAlertEntity> = {};

  async function record(repo: RepositoryEntity, kind: Omit<Finding, 'secret' | 'location'>, location: Finding['location'], minute: number, value?: string) {
    const s = value ?? secret('s');
    return t.db.dataSource.transaction((m) => f.services.secretScanningFindings.recordFinding(m, repo, { ...kind, secret: s, location }, at(minute)));
  }

  async function setAlert(a: SecretScanningAlertEntity, changes: Partial<SecretScanningAlertEntity>): Promise<void> {
    await t.db.dataSource.getRepository(SecretScanningAlertEntity).update({ id: a.id }, changes);
  }

  beforeAll(async () => {
    t = await startTestApp({ logger: log });
    f = new IdentityFixtures(t.db.dataSource);
    const org = await f.org('ssorg');
    for (const login of ['ssadmin', 'sssecmgr', 'ssmember', 'ssrepoadmin', 'sswriter', 'ssoutsider']) users[login] = await f.user(login);
    await f.member(org, users.ssadmin, 'admin');
    await f.member(org, users.sssecmgr, 'security_manager');
    await f.member(org, users.ssmember, 'member');
    await f.member(org, users.ssrepoadmin, 'member');
    await f.member(org, users.sswriter, 'member');
    const id = f.services.identity;
    const db = t.db.dataSource.manager;
    repos.alpha = await f.repo(org, { name: 'alpha', private: true, secretScanning: true, advancedSecurity: true, pushProtection: true });
    repos.beta = await f.repo(org, { name: 'beta', private: true, secretScanning: true });
    repos.gamma = await f.repo(org, { name: 'gamma', private: true, secretScanning: false });
    repos.work = await f.repo(org, { name: 'work', private: true, secretScanning: true });
    repos.delegated = await id.createRepository(db, { owner: 'ssorg', name: 'delegated', private: true, secretScanning: true, delegatedAlertDismissal: true });
    for (const r of [repos.alpha, repos.work, repos.delegated]) {
      await f.grant(r, org, users.ssrepoadmin, 'admin');
      await f.grant(r, org, users.sswriter, 'write');
    }
    for (const login of Object.keys(users)) tokens[login] = await f.classicToken(users[login], ['repo', 'security_events']);

    // alpha: A1..A5 (numbers 1..5, created at minutes 1..5); beta: B1; gamma (scanning off): G1.
    alerts.A1 = (await record(repos.alpha, GITHUB, commitAt('config/app.env', 3, 'aaa111'), 1)).alert;
    await record(repos.alpha, GITHUB, { type: 'issue_comment', url: 'https://api.example.test/repos/ssorg/alpha/issues/comments/501' }, 1, alerts.A1.secret);
    await record(repos.alpha, GITHUB, { type: 'pull_request_review', url: 'https://api.example.test/repos/ssorg/alpha/pulls/7/reviews/80' }, 1, alerts.A1.secret);
    await record(
      repos.alpha,
      GITHUB,
      { type: 'wiki_commit', path: 'Home.md', startLine: 2, endLine: 2, startColumn: 1, endColumn: 40, blobSha: 'c'.repeat(40), commitSha: 'd'.repeat(40) },
      1,
      alerts.A1.secret,
    );
    alerts.A2 = (await record(repos.alpha, AWS, commitAt('deploy/aws.sh', 10, 'bbb222'), 2)).alert;
    alerts.A3 = (
      await t.db.dataSource.transaction((m) =>
        f.services.secretScanningFindings.recordFinding(
          m,
          repos.alpha,
          { ...SLACK, secret: secret('xoxb-'), location: commitAt('bot.js', 1, 'ccc333'), bypass: { byId: users.sswriter.id, at: at(3), reason: 'will_fix_later' } },
          at(3),
        ),
      )
    ).alert;
    alerts.A4 = (await record(repos.alpha, GITHUB, commitAt('test/fixtures.txt', 4, 'ddd444'), 4)).alert;
    alerts.A5 = (await record(repos.alpha, CUSTOM, { type: 'issue_body', url: 'https://api.example.test/repos/ssorg/alpha/issues/9' }, 5)).alert;
    alerts.B1 = (await record(repos.beta, STRIPE, commitAt('pay.rb', 8, 'eee555'), 6)).alert;
    alerts.G1 = (await record(repos.gamma, STRIPE, commitAt('x.rb', 1, 'fff666'), 7)).alert;

    await setAlert(alerts.A1, { assignedToId: users.ssrepoadmin.id, validity: 'active', updatedAt: at(50) });
    await setAlert(alerts.A2, {
      state: 'resolved',
      resolution: 'false_positive',
      resolvedAt: at(20),
      resolvedById: users.ssadmin.id,
      resolutionComment: 'not a real key',
      publiclyLeaked: true,
      multiRepo: true,
      updatedAt: at(20),
    });
    await setAlert(alerts.A3, { validity: 'inactive', updatedAt: at(30) });
    await setAlert(alerts.A4, {
      state: 'resolved',
      resolution: 'used_in_tests',
      resolvedAt: at(10),
      resolvedById: users.sssecmgr.id,
      assignedToId: users.sswriter.id,
      validity: 'active',
      updatedAt: at(10),
    });
    await setAlert(alerts.B1, { updatedAt: at(40) });
  });
  afterAll(() => t.close());

  // ------------------------------------------------------------------ lists

  const orgList = (token: string, vars: { filter?: SecretScanningAlertFilter; orderBy?: SecretScanningAlertOrder; first?: number; after?: string | null; last?: number; before?: string | null } = {}) =>
    gqlDoc(t.url, OrganizationSecretScanningAlertsDocument, { login: 'ssorg', ...vars }, token);
  const repoList = (name: string, token: string, vars: { filter?: SecretScanningAlertFilter; orderBy?: SecretScanningAlertOrder; first?: number; after?: string | null; last?: number; before?: string | null } = {}) =>
    gqlDoc(t.url, RepositorySecretScanningAlertsDocument, { owner: 'ssorg', name, ...vars }, token);
  const label = (e: { node: { number: number; repository: { nameWithOwner: string } } }) => `${e.node.repository.nameWithOwner.split('/')[1]}#${e.node.number}`;

  async function alphaNumbers(filter: SecretScanningAlertFilter, orderBy?: SecretScanningAlertOrder): Promise<number[]> {
    const r = await repoList('alpha', tokens.ssadmin, { filter, orderBy });
    expect(r.body.errors).toBeUndefined();
    const conn = r.body.data!.repository!.secretScanningAlerts;
    expect(conn.totalCount).toBe(conn.edges.length);
    return conn.edges.map((e) => e.node.number);
  }

  it('organization list: every visible repository with secret scanning on, newest first, with repository', async () => {
    for (const who of ['ssadmin', 'sssecmgr']) {
      const r = await orgList(tokens[who]);
      expect(r.body.errors).toBeUndefined();
      const conn = r.body.data!.organization!.secretScanningAlerts;
      expect(conn.totalCount).toBe(6);
      expect(conn.edges.map(label)).toEqual(['beta#1', 'alpha#5', 'alpha#4', 'alpha#3', 'alpha#2', 'alpha#1']);
      expect(conn.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: false });
    }
  });

  it('organization list: members get FORBIDDEN, outsiders NOT_FOUND, never data', async () => {
    const member = await orgList(tokens.ssmember);
    expect(member.body.errors?.[0].extensions?.code).toBe('FORBIDDEN');
    expect(member.body.data?.organization ?? null).toBeNull();
    const outsider = await orgList(tokens.ssoutsider);
    expect(outsider.body.errors?.[0].extensions?.code).toBe('NOT_FOUND');
    expect(outsider.body.data?.organization ?? null).toBeNull();
  });

  it('repository list: access rules (FORBIDDEN for readers, NOT_FOUND for outsiders and when scanning is off)', async () => {
    expect((await repoList('alpha', tokens.ssrepoadmin)).body.data!.repository!.secretScanningAlerts.totalCount).toBe(5);
    const member = await repoList('alpha', tokens.ssmember);
    expect(member.body.errors?.[0].extensions?.code).toBe('FORBIDDEN');
    expect(member.body.data?.repository ?? null).toBeNull();
    const outsider = await repoList('alpha', tokens.ssoutsider);
    expect(outsider.body.errors?.[0].extensions?.code).toBe('NOT_FOUND');
    const off = await repoList('gamma', tokens.ssadmin);
    expect(off.body.errors?.[0].extensions?.code).toBe('NOT_FOUND');
    expect(off.body.data?.repository ?? null).toBeNull();
  });

  it('filters: state, secret types, providers, resolutions, validities', async () => {
    expect(await alphaNumbers({})).toEqual([5, 4, 3, 2, 1]);
    expect(await alphaNumbers({ state: 'OPEN' })).toEqual([5, 3, 1]);
    expect(await alphaNumbers({ state: 'RESOLVED' })).toEqual([4, 2]);
    expect(await alphaNumbers({ secretTypes: ['github_personal_access_token'] })).toEqual([4, 1]);
    expect(await alphaNumbers({ secretTypes: ['aws_access_key_id', 'slack_api_token'] })).toEqual([3, 2]);
    expect(await alphaNumbers({ excludeSecretTypes: ['github_personal_access_token'] })).toEqual([5, 3, 2]);
    expect(await alphaNumbers({ providers: ['aws', 'slack'] })).toEqual([3, 2]);
    // alerts without a provider are kept by excludeProviders
    expect(await alphaNumbers({ excludeProviders: ['github'] })).toEqual([5, 3, 2]);
    expect(await alphaNumbers({ resolutions: ['FALSE_POSITIVE'] })).toEqual([2]);
    expect(await alphaNumbers({ resolutions: ['USED_IN_TESTS', 'WONT_FIX'] })).toEqual([4]);
    expect(await alphaNumbers({ resolutions: ['PATTERN_EDITED'] })).toEqual([]);
    expect(await alphaNumbers({ validities: ['ACTIVE'] })).toEqual([4, 1]);
    expect(await alphaNumbers({ validities: ['INACTIVE', 'UNKNOWN'] })).toEqual([5, 3, 2]);
    expect(await alphaNumbers({ state: 'OPEN', validities: ['ACTIVE'] })).toEqual([1]);
  });

  it('filters: assignee (login, "*", "none", unknown login) and the three tags', async () => {
    expect(await alphaNumbers({ assignee: 'ssrepoadmin' })).toEqual([1]);
    expect(await alphaNumbers({ assignee: 'SSWRITER' })).toEqual([4]);
    expect(await alphaNumbers({ assignee: '*' })).toEqual([4, 1]);
    expect(await alphaNumbers({ assignee: 'none' })).toEqual([5, 3, 2]);
    expect(await alphaNumbers({ assignee: 'nobody-here' })).toEqual([]);
    expect(await alphaNumbers({ isPubliclyLeaked: true })).toEqual([2]);
    expect(await alphaNumbers({ isMultiRepo: true })).toEqual([2]);
    // false means "no filter" for the two tags, as in REST
    expect(await alphaNumbers({ isPubliclyLeaked: false, isMultiRepo: false })).toEqual([5, 4, 3, 2, 1]);
    expect(await alphaNumbers({ isBypassed: true })).toEqual([3]);
    expect(await alphaNumbers({ isBypassed: false })).toEqual([5, 4, 2, 1]);
    // the organization list takes the same filters
    const org = await orgList(tokens.ssadmin, { filter: { providers: ['stripe', 'slack'] } });
    expect(org.body.data!.organization!.secretScanningAlerts.edges.map(label)).toEqual(['beta#1', 'alpha#3']);
  });

  it('filters: conflicting or oversized filters are BAD_USER_INPUT', async () => {
    const types = await repoList('alpha', tokens.ssadmin, { filter: { secretTypes: ['a'], excludeSecretTypes: ['b'] } });
    expect(types.body.errors?.[0].extensions?.code).toBe('BAD_USER_INPUT');
    expect(types.body.errors?.[0].message).toMatch(/cannot be used together/);
    const providers = await orgList(tokens.ssadmin, { filter: { providers: ['a'], excludeProviders: ['b'] } });
    expect(providers.body.errors?.[0].extensions?.code).toBe('BAD_USER_INPUT');
    const many = await orgList(tokens.ssadmin, { filter: { secretTypes: Array.from({ length: 101 }, (_, i) => `t${i}`) } });
    expect(many.body.errors?.[0].extensions?.code).toBe('BAD_USER_INPUT');
    const long = await orgList(tokens.ssadmin, { filter: { assignee: 'x'.repeat(101) } });
    expect(long.body.errors?.[0].extensions?.code).toBe('BAD_USER_INPUT');
    const big = await orgList(tokens.ssadmin, { first: 101 });
    expect(big.body.errors?.[0].extensions?.code).toBe('BAD_USER_INPUT');
    const both = await orgList(tokens.ssadmin, { first: 1, last: 1 });
    expect(both.body.errors?.[0].extensions?.code).toBe('BAD_USER_INPUT');
    const bad = await orgList(tokens.ssadmin, { first: 1, after: 'bm9wZQ' });
    expect(bad.body.errors?.[0]).toMatchObject({ message: '`after` is not a valid cursor', extensions: { code: 'BAD_USER_INPUT' } });
  });

  it('orders: CREATED DESC by default, CREATED ASC, UPDATED DESC and ASC', async () => {
    expect(await alphaNumbers({}, { field: 'CREATED', direction: 'DESC' })).toEqual([5, 4, 3, 2, 1]);
    expect(await alphaNumbers({}, { field: 'CREATED', direction: 'ASC' })).toEqual([1, 2, 3, 4, 5]);
    // updated: A1 50, A3 30, A2 20, A4 10, A5 5 (never updated)
    expect(await alphaNumbers({}, { field: 'UPDATED', direction: 'DESC' })).toEqual([1, 3, 2, 4, 5]);
    expect(await alphaNumbers({}, { field: 'UPDATED', direction: 'ASC' })).toEqual([5, 4, 2, 3, 1]);
    // direction defaults to DESC, field to CREATED
    expect(await alphaNumbers({}, { field: 'UPDATED' })).toEqual([1, 3, 2, 4, 5]);
    expect(await alphaNumbers({}, { direction: 'ASC' })).toEqual([1, 2, 3, 4, 5]);
    const r = await repoList('alpha', tokens.ssadmin, { first: 1 });
    expect(r.body.data!.repository!.secretScanningAlerts.edges[0].node).toMatchObject({ createdAt: iso(5), updatedAt: iso(5) });
  });

  it('cursor paging forward and backward with totalCount (organization list, both orders)', async () => {
    const all = ['beta#1', 'alpha#5', 'alpha#4', 'alpha#3', 'alpha#2', 'alpha#1'];
    const seen: string[] = [];
    let after: string | null | undefined;
    let pages = 0;
    for (;;) {
      const r = await orgList(tokens.ssadmin, { first: 2, after });
      const conn = r.body.data!.organization!.secretScanningAlerts;
      expect(conn.totalCount).toBe(6);
      expect(conn.pageInfo.hasPreviousPage).toBe(pages > 0);
      seen.push(...conn.edges.map(label));
      pages += 1;
      if (!conn.pageInfo.hasNextPage) break;
      after = conn.pageInfo.endCursor;
    }
    expect(seen).toEqual(all);
    expect(pages).toBe(3);

    const back: string[][] = [];
    let before: string | null | undefined;
    for (;;) {
      const r = await orgList(tokens.ssadmin, { last: 2, before });
      const conn = r.body.data!.organization!.secretScanningAlerts;
      expect(conn.totalCount).toBe(6);
      back.unshift(conn.edges.map(label));
      if (!conn.pageInfo.hasPreviousPage) break;
      expect(conn.pageInfo.hasPreviousPage).toBe(true);
      before = conn.pageInfo.startCursor;
    }
    expect(back).toEqual([all.slice(0, 2), all.slice(2, 4), all.slice(4, 6)]);

    // updated order, with a filter, across pages: alpha updated ASC = 5, 4, 2, 3, 1
    const p1 = await repoList('alpha', tokens.ssadmin, { orderBy: { field: 'UPDATED', direction: 'ASC' }, first: 3 });
    const c1 = p1.body.data!.repository!.secretScanningAlerts;
    expect(c1.edges.map((e) => e.node.number)).toEqual([5, 4, 2]);
    const p2 = await repoList('alpha', tokens.ssadmin, { orderBy: { field: 'UPDATED', direction: 'ASC' }, first: 3, after: c1.pageInfo.endCursor });
    const c2 = p2.body.data!.repository!.secretScanningAlerts;
    expect(c2.edges.map((e) => e.node.number)).toEqual([3, 1]);
    expect(c2.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: true });
    const p3 = await repoList('alpha', tokens.ssadmin, { orderBy: { field: 'UPDATED', direction: 'ASC' }, last: 2, before: c2.pageInfo.startCursor });
    expect(p3.body.data!.repository!.secretScanningAlerts.edges.map((e) => e.node.number)).toEqual([4, 2]);
    const open = await repoList('alpha', tokens.ssadmin, { filter: { state: 'OPEN' }, first: 2 });
    const oc = open.body.data!.repository!.secretScanningAlerts;
    expect(oc.totalCount).toBe(3);
    expect(oc.edges.map((e) => e.node.number)).toEqual([5, 3]);
    expect(oc.pageInfo.hasNextPage).toBe(true);
  });

  // ------------------------------------------------------------------ one alert

  it('one alert: every field, URLs built from the public URL like REST, users, first location', async () => {
    const r = await gqlDoc(t.url, SecretScanningAlertDocument, { owner: 'ssorg', name: 'alpha', number: 2 }, tokens.ssadmin);
    expect(r.body.errors).toBeUndefined();
    const a = r.body.data!.repository!.secretScanningAlert!;
    expect(a).toEqual({
      id: toGlobalId('SecretScanningAlert', alerts.A2.id),
      number: 2,
      createdAt: iso(2),
      updatedAt: iso(20),
      url: `${t.url}/repos/ssorg/alpha/secret-scanning/alerts/2`,
      htmlUrl: `${t.url}/ssorg/alpha/security/secret-scanning/2`,
      locationsUrl: `${t.url}/repos/ssorg/alpha/secret-scanning/alerts/2/locations`,
      state: 'RESOLVED',
      resolution: 'FALSE_POSITIVE',
      resolvedAt: iso(20),
      resolvedBy: { id: toGlobalId('User', users.ssadmin.id), login: 'ssadmin' },
      resolutionComment: 'not a real key',
      secretType: 'aws_access_key_id',
      secretTypeDisplayName: 'Amazon AWS Access Key ID',
      provider: 'Amazon AWS',
      providerSlug: 'aws',
      secret: alerts.A2.secret,
      validity: 'UNKNOWN',
      publiclyLeaked: true,
      multiRepo: true,
      isBase64Encoded: false,
      pushProtectionBypassed: false,
      pushProtectionBypassedBy: null,
      pushProtectionBypassedAt: null,
      assignedTo: null,
      hasMoreLocations: false,
      firstLocationDetected: {
        path: 'deploy/aws.sh',
        startLine: 10,
        endLine: 10,
        startColumn: 5,
        endColumn: 45,
        blobSha: 'bbbb222'.padEnd(40, '0'),
        blobUrl: `${t.url}/repos/ssorg/alpha/git/blobs/${'bbbb222'.padEnd(40, '0')}`,
        commitSha: 'bbb222'.padEnd(40, '0'),
        commitUrl: `${t.url}/repos/ssorg/alpha/git/commits/${'bbb222'.padEnd(40, '0')}`,
      },
      repository: { id: toGlobalId('Repository', repos.alpha.id), nameWithOwner: 'ssorg/alpha' },
    });

    const bypassed = (await gqlDoc(t.url, SecretScanningAlertDocument, { owner: 'SSORG', name: 'Alpha', number: 3 }, tokens.sssecmgr)).body.data!.repository!
      .secretScanningAlert!;
    expect(bypassed).toMatchObject({
      state: 'OPEN',
      resolution: null,
      pushProtectionBypassed: true,
      pushProtectionBypassedBy: { login: 'sswriter' },
      pushProtectionBypassedAt: iso(3),
      validity: 'INACTIVE',
    });
    // found only outside commits: no first location
    const issueOnly = (await gqlDoc(t.url, SecretScanningAlertDocument, { owner: 'ssorg', name: 'alpha', number: 5 }, tokens.ssadmin)).body.data!.repository!
      .secretScanningAlert!;
    expect(issueOnly).toMatchObject({ firstLocationDetected: null, hasMoreLocations: false, provider: null, providerSlug: null });
  });

  it('one alert: null with NOT_FOUND when missing or when secret scanning is off; FORBIDDEN for readers', async () => {
    const missing = await gqlDoc(t.url, SecretScanningAlertDocument, { owner: 'ssorg', name: 'alpha', number: 99 }, tokens.ssadmin);
    expect(missing.body.errors?.[0]).toMatchObject({ extensions: { code: 'NOT_FOUND' }, path: ['repository', 'secretScanningAlert'] });
    expect(missing.body.data!.repository).toEqual({ nameWithOwner: 'ssorg/alpha', secretScanningAlert: null });
    const off = await gqlDoc(t.url, SecretScanningAlertDocument, { owner: 'ssorg', name: 'gamma', number: 1 }, tokens.ssadmin);
    expect(off.body.errors?.[0].extensions?.code).toBe('NOT_FOUND');
    expect(off.body.data!.repository!.secretScanningAlert).toBeNull();
    const reader = await gqlDoc(t.url, SecretScanningAlertDocument, { owner: 'ssorg', name: 'alpha', number: 1 }, tokens.ssmember);
    expect(reader.body.errors?.[0].extensions?.code).toBe('FORBIDDEN');
    expect(reader.body.data!.repository!.secretScanningAlert).toBeNull();
    const outsider = await gqlDoc(t.url, SecretScanningAlertDocument, { owner: 'ssorg', name: 'alpha', number: 1 }, tokens.ssoutsider);
    expect(outsider.body.errors?.[0].extensions?.code).toBe('NOT_FOUND');
    expect(outsider.body.data!.repository).toBeNull();
  });

  it('locations: a union per type (commit, issue_comment, pull_request_review, wiki_commit), paged both ways', async () => {
    const q = (vars: { first?: number; after?: string | null; last?: number; before?: string | null }) =>
      gqlDoc(t.url, SecretScanningAlertLocationsDocument, { owner: 'ssorg', name: 'alpha', number: 1, ...vars }, tokens.ssadmin);
    const r = await q({});
    expect(r.body.errors).toBeUndefined();
    const alert = r.body.data!.repository!.secretScanningAlert!;
    expect(alert.hasMoreLocations).toBe(true);
    expect(alert.locations.totalCount).toBe(4);
    const sha = 'aaa111'.padEnd(40, '0');
    expect(alert.locations.edges.map((e) => e.node)).toEqual([
      {
        type: 'COMMIT',
        details: {
          __typename: 'SecretScanningCommitLocation',
          path: 'config/app.env',
          startLine: 3,
          endLine: 3,
          startColumn: 5,
          endColumn: 45,
          blobSha: 'baaa111'.padEnd(40, '0'),
          blobUrl: `${t.url}/repos/ssorg/alpha/git/blobs/${'baaa111'.padEnd(40, '0')}`,
          commitSha: sha,
          commitUrl: `${t.url}/repos/ssorg/alpha/git/commits/${sha}`,
        },
      },
      {
        type: 'ISSUE_COMMENT',
        details: { __typename: 'SecretScanningIssueCommentLocation', issueCommentUrl: 'https://api.example.test/repos/ssorg/alpha/issues/comments/501' },
      },
      {
        type: 'PULL_REQUEST_REVIEW',
        details: { __typename: 'SecretScanningPullRequestReviewLocation', pullRequestReviewUrl: 'https://api.example.test/repos/ssorg/alpha/pulls/7/reviews/80' },
      },
      {
        type: 'WIKI_COMMIT',
        details: {
          __typename: 'SecretScanningWikiCommitLocation',
          path: 'Home.md',
          startLine: 2,
          endLine: 2,
          startColumn: 1,
          endColumn: 40,
          blobSha: 'c'.repeat(40),
          pageUrl: `${t.url}/ssorg/alpha/wiki/Home/${'d'.repeat(40)}`,
          commitSha: 'd'.repeat(40),
          commitUrl: `${t.url}/ssorg/alpha/wiki/_compare/${'d'.repeat(40)}`,
        },
      },
    ]);
    const p1 = (await q({ first: 2 })).body.data!.repository!.secretScanningAlert!.locations;
    expect(p1.edges.map((e) => e.node.type)).toEqual(['COMMIT', 'ISSUE_COMMENT']);
    expect(p1.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: false });
    const p2 = (await q({ first: 2, after: p1.pageInfo.endCursor })).body.data!.repository!.secretScanningAlert!.locations;
    expect(p2.edges.map((e) => e.node.type)).toEqual(['PULL_REQUEST_REVIEW', 'WIKI_COMMIT']);
    expect(p2.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: true });
    const last = (await q({ last: 1 })).body.data!.repository!.secretScanningAlert!.locations;
    expect(last.edges.map((e) => e.node.type)).toEqual(['WIKI_COMMIT']);
    const prev = (await q({ last: 2, before: last.pageInfo.startCursor })).body.data!.repository!.secretScanningAlert!.locations;
    expect(prev.edges.map((e) => e.node.type)).toEqual(['ISSUE_COMMENT', 'PULL_REQUEST_REVIEW']);
    expect(prev.pageInfo.hasPreviousPage).toBe(true);
    const bad = await q({ first: 101 });
    expect(bad.body.errors?.[0].extensions?.code).toBe('BAD_USER_INPUT');
  });

  // ------------------------------------------------------------------ node(id:)

  it('node(id:) round-trips an alert; null (no error, no data) when hidden or missing', async () => {
    const list = await repoList('alpha', tokens.ssadmin, { first: 1, orderBy: { field: 'CREATED', direction: 'ASC' } });
    const id = list.body.data!.repository!.secretScanningAlerts.edges[0].node.id;
    expect(id).toBe(toGlobalId('SecretScanningAlert', alerts.A1.id));
    const n = await gqlDoc(t.url, SecretScanningAlertNodeDocument, { id }, tokens.ssadmin);
    expect(n.body).toEqual({ data: { node: { __typename: 'SecretScanningAlert', id, number: 1, state: 'OPEN', repository: { nameWithOwner: 'ssorg/alpha' } } } });
    expect((await gqlDoc(t.url, SecretScanningAlertNodeDocument, { id }, tokens.sssecmgr)).body.data!.node).toMatchObject({ number: 1 });
    for (const who of ['ssoutsider', 'ssmember', 'sswriter']) {
      const hidden = await gqlDoc(t.url, SecretScanningAlertNodeDocument, { id }, tokens[who]);
      expect(hidden.body).toEqual({ data: { node: null } });
    }
    // secret scanning off on gamma: hidden even from the organization admin
    const off = await gqlDoc(t.url, SecretScanningAlertNodeDocument, { id: toGlobalId('SecretScanningAlert', alerts.G1.id) }, tokens.ssadmin);
    expect(off.body).toEqual({ data: { node: null } });
    const missing = await gqlDoc(t.url, SecretScanningAlertNodeDocument, { id: toGlobalId('SecretScanningAlert', 9_999_999) }, tokens.ssadmin);
    expect(missing.body).toEqual({ data: { node: null } });
    const huge = await gqlDoc(t.url, SecretScanningAlertNodeDocument, { id: toGlobalId('SecretScanningAlert', '99999999999999') }, tokens.ssadmin);
    // An id no alert can have (beyond int4) is invalid input: null with BAD_USER_INPUT (issue 6 item 3).
    expect(huge.body.data).toEqual({ node: null });
    expect(huge.body.errors?.map((e) => [e.extensions?.code, e.path])).toEqual([['BAD_USER_INPUT', ['node']]]);
    const many = await gqlDoc(t.url, NodesByIdsDocument, { ids: [id, toGlobalId('SecretScanningAlert', alerts.B1.id), toGlobalId('SecretScanningAlert', alerts.G1.id)] }, tokens.ssadmin);
    expect(many.body.data!.nodes.map((x) => x?.__typename ?? null)).toEqual(['SecretScanningAlert', 'SecretScanningAlert', null]);
  });


  // ------------------------------------------------------------------ narrow alert pages

  describe('alert lists read only the columns the selection needs, with the same answer', () => {
    type Node = Record<string, unknown>;
    const SUB: Record<string, string> = {
      repository: 'repository { nameWithOwner }',
      assignedTo: 'assignedTo { login }',
      resolvedBy: 'resolvedBy { login }',
      pushProtectionBypassedBy: 'pushProtectionBypassedBy { login }',
      firstLocationDetected: 'firstLocationDetected { path startLine endLine commitSha blobUrl commitUrl }',
    };
    const fieldsOf = (name: string) => SUB[name] ?? name;

    /** The organization's alerts with `fields` on each item, in pages of 2 (cursors read the sort key), and the page statements. */
    async function list(fields: string, field: 'CREATED' | 'UPDATED' = 'CREATED', fragments = ''): Promise<{ nodes: Node[]; statements: string[] }> {
      const nodes: Node[] = [];
      const statements: string[] = [];
      let after: string | null = null;
      for (;;) {
        log.statements = [];
        log.counting = true;
        const res: { body: { data?: any; errors?: unknown[] } } = await gql(
          t.url,
          `query($after: String) { organization(login: "ssorg") { secretScanningAlerts(first: 2, after: $after, orderBy: { field: ${field}, direction: DESC }) { pageInfo { hasNextPage endCursor } nodes { ${fields} } } } } ${fragments}`,
          { after },
          tokens.ssadmin,
        );
        log.counting = false;
        statements.push(...log.statements.filter((q) => q.includes('secret_scanning_alerts')));
        expect(res.body.errors).toBeUndefined();
        const conn = res.body.data.organization.secretScanningAlerts;
        nodes.push(...conn.nodes);
        if (!conn.pageInfo.hasNextPage) return { nodes, statements };
        after = conn.pageInfo.endCursor;
      }
    }
    const readsSecret = (statements: string[]) => statements.some((q) => /\ba\."secret"/.test(q));

    it.each(['CREATED', 'UPDATED'] as const)('ordered by %s: each declared field alone and all together answer what whole rows answer', async (order) => {
      const declared = Object.keys(ALERT_FIELD_READS);
      expect(declared.filter((f) => ALERT_FIELD_READS[f].every((p) => ALERT_LIST_COLUMNS.includes(p))).length).toBeGreaterThanOrEqual(15);
      // Every field of the type but `locations` (a service read) is declared.
      expect(declared.sort()).toEqual(
        ['__typename', 'assignedTo', 'createdAt', 'firstLocationDetected', 'hasMoreLocations', 'htmlUrl', 'id', 'isBase64Encoded', 'locationsUrl', 'multiRepo', 'number',
          'provider', 'providerSlug', 'publiclyLeaked', 'pushProtectionBypassed', 'pushProtectionBypassedAt', 'pushProtectionBypassedBy', 'repository', 'resolution',
          'resolutionComment', 'resolvedAt', 'resolvedBy', 'secret', 'secretType', 'secretTypeDisplayName', 'state', 'updatedAt', 'url', 'validity'].sort(),
      );
      const all = declared.map(fieldsOf).join(' ');
      const whole = await list(`${all} locations(first: 1) { totalCount }`, order);
      expect(whole.nodes.map((n) => n.number)).toHaveLength(6);
      expect(readsSecret(whole.statements)).toBe(true);
      const wholeRows = whole.nodes.map(({ locations: _drop, ...rest }) => rest);
      // Values, not only agreement: assignee, resolver, bypasser and the first location are there.
      expect(wholeRows.some((n) => (n.assignedTo as Node | null)?.login === 'ssrepoadmin')).toBe(true);
      expect(wholeRows.some((n) => (n.resolvedBy as Node | null)?.login === 'ssadmin')).toBe(true);
      expect(wholeRows.some((n) => (n.pushProtectionBypassedBy as Node | null)?.login === 'sswriter')).toBe(true);
      expect(wholeRows.some((n) => (n.firstLocationDetected as Node | null)?.path === 'config/app.env')).toBe(true);
      // Every field together needs the secret: whole rows again.
      expect((await list(all, order)).nodes).toEqual(wholeRows);
      for (const f of declared) {
        const alone = await list(fieldsOf(f), order);
        expect(alone.nodes).toEqual(wholeRows.map((n) => ({ [f]: n[f] })));
        // Within the narrow set: the secret (never in it) is not read; outside it: whole rows.
        const narrow = ALERT_FIELD_READS[f].every((p) => ALERT_LIST_COLUMNS.includes(p));
        expect(readsSecret(alone.statements)).toBe(!narrow);
      }
    });

    it('the dashboard selection, derived URLs, aliases and fragments read the narrow columns and answer the same', async () => {
      const dashboard =
        'number state secretType secretTypeDisplayName createdAt repository { nameWithOwner } assignedTo { login } firstLocationDetected { path startLine endLine commitSha }';
      const whole = await list(`${dashboard} secret`);
      const narrow = await list(dashboard);
      expect(readsSecret(narrow.statements)).toBe(false);
      expect(narrow.nodes).toEqual(whole.nodes.map(({ secret: _drop, ...rest }) => rest));
      const F = 'fragment F on SecretScanningAlert { where: repository { nameWithOwner } }';
      const derived = await list('url htmlUrl locationsUrl hasMoreLocations ...F ... on SecretScanningAlert { n: number }', 'CREATED', F);
      const derivedWhole = await list('url htmlUrl locationsUrl hasMoreLocations ...F ... on SecretScanningAlert { n: number } secret', 'CREATED', F);
      expect(readsSecret(derived.statements)).toBe(false);
      expect(derived.nodes).toEqual(derivedWhole.nodes.map(({ secret: _drop, ...rest }) => rest));
      expect(derived.nodes[derived.nodes.length - 1]).toMatchObject({ n: 1, url: expect.stringMatching(/\/repos\/ssorg\/alpha\/secret-scanning\/alerts\/1$/), hasMoreLocations: true });
    });

    it('a narrow page does not leave partial alerts in the request\u2019s loaders; REST-style callers get whole rows', async () => {
      const contexts = testContexts(t.db.dataSource, t.app.deps.services);
      const ctx = await contexts.as(tokens.ssadmin);
      const org = (await contexts.account('ssorg'))!;
      const svc = ctx.services.secretScanningAlerts;
      const { page } = await svc.listOrganizationAlerts(ctx, org, {}, {}, { mode: 'cursor', first: 10 }, { reads: ['number'] });
      const a1 = page.items.find((a) => a.id === alerts.A1.id)!;
      expect(a1.number).toBe(1);
      expect(a1.secret).toBeUndefined(); // partial: only the narrow set
      expect(page.cursorOf(a1)).toEqual(expect.any(String));
      const loaded = await ctx.loaders.secretScanningAlertById.load(a1.id);
      expect(loaded).not.toBe(a1);
      expect(loaded).toMatchObject({ id: a1.id, secret: alerts.A1.secret, secretHash: expect.any(String) });
      for (const reads of [undefined, ['number', 'secret'] as const]) {
        const ctx2 = await contexts.as(tokens.ssadmin);
        const whole = await ctx2.services.secretScanningAlerts.listOrganizationAlerts(ctx2, org, {}, {}, { mode: 'cursor', first: 10 }, reads && { reads: [...reads] });
        const w1 = whole.page.items.find((a) => a.id === alerts.A1.id)!;
        expect(w1).toMatchObject({ secret: alerts.A1.secret, secretHash: expect.any(String), provider: 'GitHub' });
        expect(await ctx2.loaders.secretScanningAlertById.load(w1.id)).toBe(w1);
      }
    });

    it('the related rows (repository, the users an alert names, the first location) read only what their fields need, with the same answer', async () => {
      // Column names each relation reads only as a whole row: narrow pages leave them out.
      const wholeOnly = (statements: string[]) => ({
        repository: statements.some((q) => /\bjr\."description"/.test(q)),
        users: statements.some((q) => /\b(asg|rsb|ppb)\."email"/.test(q)),
        location: statements.some((q) => /\bjl\."place_key"/.test(q)),
      });
      const related = (user: string, repo: string) =>
        `number url repository { ${repo} } assignedTo { ${user} } resolvedBy { ${user} } pushProtectionBypassedBy { ${user} } ` +
        'firstLocationDetected { path startLine endLine startColumn endColumn blobSha commitSha blobUrl commitUrl }';
      const userFields = Object.keys(USER_FIELD_READS);
      const repoFields = Object.keys(REPOSITORY_FIELD_READS).map((f) => (f === 'owner' ? 'owner { login }' : f));
      expect(userFields).toEqual(expect.arrayContaining(['id', 'login', 'databaseId', 'createdAt']));
      const all = related(userFields.join(' '), repoFields.join(' '));
      const whole = await list(`${all} secret`);
      expect(wholeOnly(whole.statements)).toEqual({ repository: true, users: true, location: true });
      const wholeRows = whole.nodes.map(({ secret: _drop, ...rest }) => rest);
      expect(wholeRows.some((n) => (n.assignedTo as Node | null)?.login === 'ssrepoadmin')).toBe(true);
      expect(wholeRows.some((n) => (n.resolvedBy as Node | null)?.login === 'ssadmin')).toBe(true);
      expect(wholeRows.some((n) => (n.pushProtectionBypassedBy as Node | null)?.login === 'sswriter')).toBe(true);
      expect(wholeRows.some((n) => (n.firstLocationDetected as Node | null)?.blobUrl)).toBe(true);
      expect(wholeRows.some((n) => (n.repository as Node).description === null || typeof (n.repository as Node).description === 'string')).toBe(true);
      // Every declared field together, and each alone, under every relation.
      const narrow = await list(all);
      expect(narrow.nodes).toEqual(wholeRows);
      const pick = (n: Node | null, key: string) => (n === null ? null : { [key]: n[key] });
      for (const f of userFields) {
        const alone = await list(related(f, 'name'));
        expect(wholeOnly(alone.statements).users).toBe(!['__typename', 'id', 'databaseId', 'login', 'name'].includes(f));
        expect(alone.nodes.map((n) => [n.assignedTo, n.resolvedBy, n.pushProtectionBypassedBy])).toEqual(
          wholeRows.map((n) => [pick(n.assignedTo as Node | null, f), pick(n.resolvedBy as Node | null, f), pick(n.pushProtectionBypassedBy as Node | null, f)]),
        );
      }
      for (const f of Object.keys(REPOSITORY_FIELD_READS)) {
        const alone = await list(related('login', f === 'owner' ? 'owner { login }' : f));
        expect(wholeOnly(alone.statements).repository).toBe(!['__typename', 'id', 'databaseId', 'name', 'isPrivate', 'owner', 'nameWithOwner'].includes(f));
        expect(alone.nodes.map((n) => n.repository)).toEqual(wholeRows.map((n) => pick(n.repository as Node, f)));
        expect(alone.nodes.map((n) => n.url)).toEqual(wholeRows.map((n) => n.url));
      }
      // The dashboard's selection reads no related row whole.
      const dashboard = await list('number state secretType secretTypeDisplayName createdAt repository { nameWithOwner } assignedTo { login } firstLocationDetected { path startLine endLine commitSha }');
      expect(wholeOnly(dashboard.statements)).toEqual({ repository: false, users: false, location: false });
    });

    it('narrow related rows go on the page\u2019s alerts, never into the request\u2019s loaders', async () => {
      const contexts = testContexts(t.db.dataSource, t.app.deps.services);
      const ctx = await contexts.as(tokens.ssadmin);
      const org = (await contexts.account('ssorg'))!;
      const selection = {
        fields: new Set(['number', 'repository', 'assignedTo', 'firstLocationDetected']),
        subfields: new Map([
          ['repository', new Set(['nameWithOwner'])],
          ['assignedTo', new Set(['login'])],
          ['firstLocationDetected', new Set(['path'])],
        ]),
      };
      const { page } = await ctx.services.secretScanningAlerts.listOrganizationAlerts(ctx, org, {}, {}, { mode: 'cursor', first: 10 }, alertIncludesFor(selection, false));
      const a1 = page.items.find((a) => a.id === alerts.A1.id)!;
      expect(a1.repository).toMatchObject({ id: repos.alpha.id, name: 'alpha' });
      expect(a1.repository!.description).toBeUndefined();
      expect(a1.assignedTo).toMatchObject({ id: users.ssrepoadmin.id, login: 'ssrepoadmin', type: 'User' });
      expect(a1.assignedTo!.email).toBeUndefined();
      expect(a1.firstLocation).toMatchObject({ path: 'config/app.env', type: 'commit' });
      expect(a1.firstLocation!.placeKey).toBeUndefined();
      expect(page.items.find((a) => a.id === alerts.B1.id)!.assignedTo).toBeNull();
      expect(ctx.loaders.repositoryById.peek(repos.alpha.id)).toBeUndefined();
      expect(ctx.loaders.accountById.peek(users.ssrepoadmin.id)).toBeUndefined();
      expect(ctx.loaders.locationById.peek(a1.firstLocationId!)).toBeUndefined();
      const loaded = await ctx.loaders.accountById.load(users.ssrepoadmin.id);
      expect(loaded).not.toBe(a1.assignedTo);
      expect(loaded).toMatchObject({ login: 'ssrepoadmin', email: users.ssrepoadmin.email, createdAt: expect.any(Date) });
    });
  });

  // ------------------------------------------------------------------ updateSecretScanningAlert

  describe('updateSecretScanningAlert', () => {
    const update = (input: UpdateSecretScanningAlertInput, who = 'ssadmin') => gqlDoc(t.url, UpdateSecretScanningAlertDocument, { input }, tokens[who]);
    let w1: SecretScanningAlertEntity;
    let w2: SecretScanningAlertEntity;
    let d1: SecretScanningAlertEntity;

    beforeAll(async () => {
      w1 = (await record(repos.work, AWS, commitAt('a.txt', 1, 'abc001'), 100)).alert;
      w2 = (await record(repos.work, SLACK, commitAt('b.txt', 1, 'abc002'), 101)).alert;
      d1 = (await record(repos.delegated, STRIPE, commitAt('c.txt', 1, 'abc003'), 102)).alert;
    });

    it('resolves with a comment, then reopens', async () => {
      const r = await update({ repository: 'ssorg/work', number: w1.number, state: 'RESOLVED', resolution: 'FALSE_POSITIVE', resolutionComment: 'test data' });
      expect(r.body.errors).toBeUndefined();
      const a = r.body.data!.updateSecretScanningAlert.alert;
      expect(a).toMatchObject({
        number: w1.number,
        state: 'RESOLVED',
        resolution: 'FALSE_POSITIVE',
        resolutionComment: 'test data',
        resolvedBy: { login: 'ssadmin' },
        url: `${t.url}/repos/ssorg/work/secret-scanning/alerts/${w1.number}`,
      });
      expect(Date.parse(a.resolvedAt!)).toBeGreaterThan(Date.now() - 60_000);
      expect(Date.parse(a.updatedAt)).toBe(Date.parse(a.resolvedAt!));
      const reopened = await update({ repository: 'ssorg/work', number: w1.number, state: 'OPEN' }, 'sssecmgr');
      expect(reopened.body.data!.updateSecretScanningAlert.alert).toMatchObject({ state: 'OPEN', resolution: null, resolvedAt: null, resolvedBy: null });
    });

    it('assignee and validity: an explicit null is applied, an absent field is left alone', async () => {
      const base = { repository: 'ssorg/work', number: w2.number };
      const assigned = await update({ ...base, assignee: 'sswriter' });
      expect(assigned.body.data!.updateSecretScanningAlert.alert.assignedTo).toEqual({ id: toGlobalId('User', users.sswriter.id), login: 'sswriter' });
      const valid = await update({ ...base, validity: 'ACTIVE' });
      expect(valid.body.data!.updateSecretScanningAlert.alert).toMatchObject({ validity: 'ACTIVE', assignedTo: { login: 'sswriter' }, state: 'OPEN' });
      const unassigned = await update({ ...base, assignee: null });
      expect(unassigned.body.data!.updateSecretScanningAlert.alert).toMatchObject({ assignedTo: null, validity: 'ACTIVE' });
      const cleared = await update({ ...base, validity: null });
      expect(cleared.body.data!.updateSecretScanningAlert.alert).toMatchObject({ validity: 'UNKNOWN', assignedTo: null });
      // an inline literal null counts as present too (not only variables)
      await update({ ...base, assignee: 'ssrepoadmin' });
      const res = await fetch(`${t.url}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${tokens.ssadmin}` },
        body: JSON.stringify({
          query: `mutation { updateSecretScanningAlert(input: { repository: "ssorg/work", number: ${w2.number}, assignee: null }) { alert { assignedTo { login } } } }`,
        }),
      });
      expect(((await res.json()) as any).data.updateSecretScanningAlert.alert.assignedTo).toBeNull();
    });

    it('rule errors are BAD_USER_INPUT (422 and 400 rules alike), with no data', async () => {
      const base = { repository: 'ssorg/work', number: w1.number };
      const cases: Array<[UpdateSecretScanningAlertInput, RegExp]> = [
        [{ ...base }, /at least one of state, assignee or validity/],
        [{ ...base, state: 'RESOLVED' }, /resolution is required/],
        [{ ...base, state: 'OPEN', resolution: 'REVOKED' }, /State does not match/],
        [{ ...base, resolution: 'REVOKED', assignee: 'sswriter' }, /State does not match/],
        [{ ...base, state: null }, /state must be open or resolved/],
        [{ ...base, state: 'OPEN' }, /already open/],
        [{ ...base, assignee: 'ssoutsider' }, /does not have write access/],
        [{ ...base, assignee: 'ssmember' }, /does not have write access/],
      ];
      for (const [input, message] of cases) {
        const r = await update(input);
        expect(r.body.errors?.[0]).toMatchObject({ extensions: { code: 'BAD_USER_INPUT' } });
        expect(r.body.errors?.[0].message).toMatch(message);
        expect(r.body.data ?? null).toBeNull();
      }
      // rule 2: the comment cannot be changed once set; rule 3: unchanged resolution
      // (w1 was resolved with the comment "test data" and reopened by the first test of this block)
      expect((await update({ ...base, state: 'RESOLVED', resolution: 'REVOKED' })).body.errors).toBeUndefined();
      const same = await update({ ...base, state: 'RESOLVED', resolution: 'REVOKED' });
      expect(same.body.errors?.[0]).toMatchObject({ extensions: { code: 'BAD_USER_INPUT' } });
      expect(same.body.errors?.[0].message).toMatch(/not changed/);
      await update({ ...base, state: 'OPEN' });
      const changed = await update({ ...base, state: 'RESOLVED', resolution: 'WONT_FIX', resolutionComment: 'different' });
      expect(changed.body.errors?.[0]).toMatchObject({ extensions: { code: 'BAD_USER_INPUT' } });
      expect(changed.body.errors?.[0].message).toMatch(/cannot be updated or deleted/);
      // input validation (class-validator)
      for (const input of [
        { repository: 'no-slash', number: 1, state: 'OPEN' as const },
        { repository: 'ssorg/work', number: 0, state: 'OPEN' as const },
        { repository: 'ssorg/work', number: 1, assignee: 'x'.repeat(40) },
        { ...base, state: 'RESOLVED' as const, resolution: 'REVOKED' as const, resolutionComment: 'c'.repeat(281) },
      ]) {
        const r = await update(input);
        expect(r.body.errors?.[0].extensions?.code).toBe('BAD_USER_INPUT');
      }
    });

    it('FORBIDDEN for readers and, under delegated dismissal, for repository admins closing an alert', async () => {
      const member = await update({ repository: 'ssorg/work', number: w1.number, assignee: null }, 'ssmember');
      expect(member.body.errors?.[0].extensions?.code).toBe('FORBIDDEN');
      expect(member.body.data ?? null).toBeNull();
      const writer = await update({ repository: 'ssorg/work', number: w1.number, validity: 'ACTIVE' }, 'sswriter');
      expect(writer.body.errors?.[0].extensions?.code).toBe('FORBIDDEN');
      const delegated = await update({ repository: 'ssorg/delegated', number: d1.number, state: 'RESOLVED', resolution: 'REVOKED' }, 'ssrepoadmin');
      expect(delegated.body.errors?.[0].extensions?.code).toBe('FORBIDDEN');
      expect(delegated.body.errors?.[0].message).toMatch(/Delegated alert dismissal/);
      // the same repository admin may still assign; a security manager may close
      const assign = await update({ repository: 'ssorg/delegated', number: d1.number, assignee: 'sswriter' }, 'ssrepoadmin');
      expect(assign.body.data!.updateSecretScanningAlert.alert.assignedTo?.login).toBe('sswriter');
      const closed = await update({ repository: 'ssorg/delegated', number: d1.number, state: 'RESOLVED', resolution: 'REVOKED' }, 'sssecmgr');
      expect(closed.body.data!.updateSecretScanningAlert.alert).toMatchObject({ state: 'RESOLVED', resolvedBy: { login: 'sssecmgr' } });
    });

    it('NOT_FOUND for outsiders, missing alerts, unknown repositories and repositories with scanning off', async () => {
      const cases: Array<[UpdateSecretScanningAlertInput, string]> = [
        [{ repository: 'ssorg/work', number: w1.number, assignee: null }, 'ssoutsider'],
        [{ repository: 'ssorg/work', number: 999, assignee: null }, 'ssadmin'],
        [{ repository: 'ssorg/nope', number: 1, assignee: null }, 'ssadmin'],
        [{ repository: 'ssorg/gamma', number: 1, assignee: null }, 'ssadmin'],
      ];
      for (const [input, who] of cases) {
        const r = await update(input, who);
        expect(r.body.errors?.[0].extensions?.code).toBe('NOT_FOUND');
        expect(r.body.data ?? null).toBeNull();
      }
    });
  });

  // ------------------------------------------------------------------ scan history

  it('scan history: the latest scan per kind and type, in five lists; NOT_FOUND without advanced security', async () => {
    const ss = f.services.secretScanningScans;
    const m = t.db.dataSource.manager;
    const rid = repos.alpha.id;
    await ss.recordScan(m, { repositoryId: rid, kind: 'incremental', type: 'git', completedAt: at(1) });
    await ss.recordScan(m, { repositoryId: rid, kind: 'incremental', type: 'git', completedAt: at(2) });
    await ss.recordScan(m, { repositoryId: rid, kind: 'incremental', type: 'issue', completedAt: at(3) });
    await ss.recordScan(m, { repositoryId: rid, kind: 'backfill', type: 'git', startedAt: at(4), completedAt: at(5) });
    await ss.recordScan(m, { repositoryId: rid, kind: 'pattern_update', type: 'discussion', status: 'in_progress', startedAt: at(6) });
    await ss.recordScan(m, {
      repositoryId: rid,
      kind: 'custom_pattern_backfill',
      type: 'git',
      startedAt: at(7),
      completedAt: at(8),
      patternSlug: 'acme-key',
      patternScope: 'organization',
    });
    const r = await gqlDoc(t.url, SecretScanningScanHistoryDocument, { owner: 'ssorg', name: 'alpha' }, tokens.ssadmin);
    expect(r.body.errors).toBeUndefined();
    const h = r.body.data!.repository!.secretScanningScanHistory!;
    const scan = (kind: string, type: string, status: string, startedAt: string | null, completedAt: string | null, extra = {}) => ({
      kind,
      type,
      status,
      startedAt,
      completedAt,
      patternSlug: null,
      patternScope: null,
      ...extra,
    });
    expect(h).toEqual({
      incrementalScans: [scan('INCREMENTAL', 'issue', 'COMPLETED', null, iso(3)), scan('INCREMENTAL', 'git', 'COMPLETED', null, iso(2))],
      backfillScans: [scan('BACKFILL', 'git', 'COMPLETED', iso(4), iso(5))],
      patternUpdateScans: [scan('PATTERN_UPDATE', 'discussion', 'IN_PROGRESS', iso(6), null)],
      customPatternBackfillScans: [scan('CUSTOM_PATTERN_BACKFILL', 'git', 'COMPLETED', iso(7), iso(8), { patternSlug: 'acme-key', patternScope: 'organization' })],
      genericSecretsBackfillScans: [],
    });
    const noGhas = await gqlDoc(t.url, SecretScanningScanHistoryDocument, { owner: 'ssorg', name: 'beta' }, tokens.ssadmin);
    expect(noGhas.body.errors?.[0]).toMatchObject({ extensions: { code: 'NOT_FOUND' }, path: ['repository', 'secretScanningScanHistory'] });
    expect(noGhas.body.data!.repository).toEqual({ nameWithOwner: 'ssorg/beta', secretScanningScanHistory: null });
    const reader = await gqlDoc(t.url, SecretScanningScanHistoryDocument, { owner: 'ssorg', name: 'alpha' }, tokens.ssmember);
    expect(reader.body.errors?.[0].extensions?.code).toBe('FORBIDDEN');
    expect(reader.body.data!.repository!.secretScanningScanHistory).toBeNull();
  });

  // ------------------------------------------------------------------ push mutations (input validation only; the push service has its own tests)

  it('push mutations validate their input before calling the service', async () => {
    const push = await gqlDoc(
      t.url,
      SubmitPushDocument,
      { input: { repository: 'ssorg/alpha', ref: 'refs/heads/main', commits: [{ sha: 'not-a-sha', files: [{ path: 'a', content: 'x' }] }] } },
      tokens.ssadmin,
    );
    expect(push.body.errors?.[0].extensions?.code).toBe('BAD_USER_INPUT');
    const empty = await gqlDoc(t.url, SubmitPushDocument, { input: { repository: 'ssorg/alpha', ref: 'refs/heads/main', commits: [] } }, tokens.ssadmin);
    expect(empty.body.errors?.[0].extensions?.code).toBe('BAD_USER_INPUT');
    const noPath = await gqlDoc(
      t.url,
      SubmitPushDocument,
      { input: { repository: 'ssorg/alpha', ref: 'refs/heads/main', commits: [{ sha: 'a'.repeat(40), files: [{ path: '', content: 'x' }] }] } },
      tokens.ssadmin,
    );
    expect(noPath.body.errors?.[0].extensions?.code).toBe('BAD_USER_INPUT');
    const content = await gqlDoc(
      t.url,
      SubmitContentDocument,
      { input: { repository: 'ssorg', locationType: 'ISSUE_BODY', url: 'https://x.test/1', content: 'hello' } },
      tokens.ssadmin,
    );
    expect(content.body.errors?.[0].extensions?.code).toBe('BAD_USER_INPUT');
    const bypass = await gqlDoc(t.url, CreatePushProtectionBypassDocument, { input: { repository: 'ssorg/alpha', reason: 'WILL_FIX_LATER', placeholderId: '' } }, tokens.ssadmin);
    expect(bypass.body.errors?.[0].extensions?.code).toBe('BAD_USER_INPUT');
    const scan = await gqlDoc(t.url, StartSecretScanDocument, { input: { repository: 'alpha', kind: 'BACKFILL' } }, tokens.ssadmin);
    expect(scan.body.errors?.[0].extensions?.code).toBe('BAD_USER_INPUT');
  });

  it('push mutations are wired to the push service: blocked push, bypass, accepted push, content, rescan', async () => {
    const org = await f.org('pushorg');
    await f.member(org, users.ssrepoadmin, 'member');
    await f.member(org, users.sswriter, 'member');
    const repo = await f.repo(org, { name: 'app', private: true, secretScanning: true, pushProtection: true, advancedSecurity: true });
    await f.grant(repo, org, users.ssrepoadmin, 'admin');
    await f.grant(repo, org, users.sswriter, 'write');
    const full = `pushorg/app`;
    const pat = fakeGithubToken();
    const sha = 'a1b2c3d4'.repeat(5);
    const input = { repository: full, ref: 'refs/heads/main', commits: [{ sha, files: [{ path: 'config/app.env', content: `GITHUB_TOKEN=${pat}\n` }] }] };

    const blocked = await gqlDoc(t.url, SubmitPushDocument, { input }, tokens.ssrepoadmin);
    expect(blocked.body.errors).toBeUndefined();
    const b = blocked.body.data!.submitPush;
    expect(b.blocked).toBe(true);
    expect(b.alerts).toEqual([]);
    expect(b.placeholders).toHaveLength(1);
    const ph = b.placeholders[0];
    expect(ph).toMatchObject({ path: 'config/app.env', commitSha: sha, startLine: 1, endLine: 1, startColumn: 'GITHUB_TOKEN='.length + 1 });
    expect(Date.parse(ph.expireAt)).toBeGreaterThan(Date.now());

    // only the pusher may bypass; an unknown placeholder is NOT_FOUND
    const notMine = await gqlDoc(t.url, CreatePushProtectionBypassDocument, { input: { repository: full, reason: 'WILL_FIX_LATER', placeholderId: ph.placeholderId } }, tokens.sswriter);
    expect(notMine.body.errors?.[0].extensions?.code).toBe('FORBIDDEN');
    const unknown = await gqlDoc(t.url, CreatePushProtectionBypassDocument, { input: { repository: full, reason: 'WILL_FIX_LATER', placeholderId: 'x'.repeat(27) } }, tokens.ssrepoadmin);
    expect(unknown.body.errors?.[0].extensions?.code).toBe('NOT_FOUND');
    const bypass = await gqlDoc(t.url, CreatePushProtectionBypassDocument, { input: { repository: full, reason: 'WILL_FIX_LATER', placeholderId: ph.placeholderId } }, tokens.ssrepoadmin);
    expect(bypass.body.errors).toBeUndefined();
    expect(bypass.body.data!.createPushProtectionBypass).toMatchObject({ reason: 'WILL_FIX_LATER', tokenType: ph.secretType });
    expect(Date.parse(bypass.body.data!.createPushProtectionBypass.expireAt)).toBeGreaterThan(Date.now());

    const accepted = await gqlDoc(t.url, SubmitPushDocument, { input }, tokens.ssrepoadmin);
    expect(accepted.body.errors).toBeUndefined();
    expect(accepted.body.data!.submitPush).toMatchObject({ blocked: false, placeholders: [], alerts: [{ number: 1, created: true, alert: { number: 1, state: 'OPEN', secretType: ph.secretType } }] });
    const alert = await gqlDoc(t.url, SecretScanningAlertDocument, { owner: 'pushorg', name: 'app', number: 1 }, tokens.ssrepoadmin);
    expect(alert.body.data!.repository!.secretScanningAlert).toMatchObject({
      secret: pat,
      pushProtectionBypassed: true,
      pushProtectionBypassedBy: { login: 'ssrepoadmin' },
      firstLocationDetected: { path: 'config/app.env', commitSha: sha, startLine: 1 },
    });

    // a writer may submit content but not read alerts: not even the alert numbers (an oracle for "is this
    // secret already an alert here"): the list is null, without an error
    const content = await gqlDoc(
      t.url,
      SubmitContentDocument,
      { input: { repository: full, locationType: 'ISSUE_COMMENT', url: 'https://api.example.test/repos/pushorg/app/issues/comments/1', content: `oops ${fakeGithubToken()}` } },
      tokens.sswriter,
    );
    expect(content.body.data!.submitContent.alerts).toBeNull();
    expect(content.body.errors).toBeUndefined();

    const scan = await gqlDoc(t.url, StartSecretScanDocument, { input: { repository: full, kind: 'GENERIC_SECRETS_BACKFILL' } }, tokens.ssrepoadmin);
    expect(scan.body.errors).toBeUndefined();
    // answered at once; the rescan runs in the background and scan history shows it completed later
    expect(scan.body.data!.startSecretScan.scan).toMatchObject({ kind: 'GENERIC_SECRETS_BACKFILL', type: 'git', status: 'IN_PROGRESS', completedAt: null });
    let generic: Array<{ kind: string; status: string }> = [];
    for (const deadline = Date.now() + 30_000; Date.now() < deadline; await new Promise((r) => setTimeout(r, 50))) {
      const history = await gqlDoc(t.url, SecretScanningScanHistoryDocument, { owner: 'pushorg', name: 'app' }, tokens.ssrepoadmin);
      generic = history.body.data!.repository!.secretScanningScanHistory!.genericSecretsBackfillScans;
      if (generic.every((s) => s.status !== 'IN_PROGRESS')) break;
    }
    expect(generic).toEqual([expect.objectContaining({ kind: 'GENERIC_SECRETS_BACKFILL', status: 'COMPLETED' })]);
    const denied = await gqlDoc(t.url, StartSecretScanDocument, { input: { repository: full, kind: 'BACKFILL' } }, tokens.sswriter);
    expect(denied.body.errors?.[0].extensions?.code).toBe('FORBIDDEN');
    expect(denied.body.data ?? null).toBeNull();
  });

  // ------------------------------------------------------------------ SQL statements per page

  it('a page of alerts with repository, users and first location costs the same statements for 10 and 100 alerts', async () => {
    const org = await f.org('bulkorg');
    await f.member(org, users.ssadmin, 'admin');
    const bulkRepos: RepositoryEntity[] = [];
    for (let i = 0; i < 4; i++) bulkRepos.push(await f.repo(org, { name: `bulk${i}`, private: true, secretScanning: true }));
    const people: AccountEntity[] = [];
    for (let i = 0; i < 10; i++) people.push(await f.user(`bulkuser${i}`));
    const rows = t.db.dataSource.getRepository(SecretScanningAlertEntity);
    await t.db.dataSource.transaction(async (m) => {
      for (let i = 0; i < 120; i++) {
        const repo = bulkRepos[i % bulkRepos.length];
        const { alert } = await f.services.secretScanningFindings.recordFinding(
          m,
          repo,
          { ...GITHUB, secret: secret('ghp_bulk'), location: commitAt(`f${i}.txt`, i + 1, `fe${i}`) },
          at(200 + i),
        );
        if (i % 3 === 0) {
          await m.getRepository(SecretScanningAlertEntity).update(
            { id: alert.id },
            { state: 'resolved', resolution: 'revoked', resolvedAt: at(400), resolvedById: people[i % 10].id },
          );
        }
      }
    });
    const all = await rows.find({ where: { ownerId: org.id } });
    for (const [i, a] of all.entries()) {
      await rows.update({ id: a.id }, { assignedToId: people[(i + 3) % 10].id, pushProtectionBypassed: i % 4 === 0, pushProtectionBypassedById: i % 4 === 0 ? people[(i + 5) % 10].id : null });
    }

    const measure = async (first: number) => {
      log.statements = [];
      log.counting = true;
      const r = await gqlDoc(t.url, OrganizationSecretScanningDashboardDocument, { login: 'bulkorg', first }, tokens.ssadmin);
      log.counting = false;
      expect(r.body.errors).toBeUndefined();
      const nodes = r.body.data!.organization!.secretScanningAlerts.nodes;
      expect(nodes).toHaveLength(first);
      expect(r.body.data!.organization!.secretScanningAlerts.totalCount).toBe(120);
      for (const n of nodes) {
        expect(n.repository.owner.login).toBe('bulkorg');
        expect(n.assignedTo?.login).toMatch(/^bulkuser\d$/);
        expect(n.firstLocationDetected?.blobUrl).toContain(`/repos/${n.repository.nameWithOwner}/git/blobs/`);
        expect(n.url).toBe(`${t.url}/repos/${n.repository.nameWithOwner}/secret-scanning/alerts/${n.number}`);
      }
      expect(nodes.some((n) => n.resolvedBy)).toBe(true);
      expect(nodes.some((n) => n.pushProtectionBypassedBy)).toBe(true);
      return [...log.statements];
    };
    await measure(10); // warm-up (prepared statements, metadata)
    const ten = await measure(10);
    const hundred = await measure(100);
    if (hundred.length !== ten.length || hundred.length > 10) {
      // eslint-disable-next-line no-console
      console.log(`SQL statements for 10 alerts: ${ten.length}; for 100 alerts: ${hundred.length}\n${hundred.map((q) => `  ${q.slice(0, 200)}`).join('\n')}`);
    }
    expect(hundred.length).toBe(ten.length);
    expect(hundred.length).toBeLessThanOrEqual(10);
  });
});
