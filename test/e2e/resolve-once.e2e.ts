/**
 * Resolve once (issue 7 §3): within one request no SQL statement runs twice (same SQL, same parameters).
 * The organization a dashboard names is looked up once (the `organization` field and the alert list share
 * the request's loader), and the alerts a mutation reports (`SecretScanningAlertReference.alert`) are
 * loaded in one batched statement, not one round trip per item. Runs on SQLite and on PostgreSQL.
 */
import type { AccountEntity } from '../../entities/identity';
import { commitSha, fakeSecrets, fileOf } from '../fixtures/fake-secrets';
import { IdentityFixtures } from '../fixtures/identity';
import { gql, startTestApp, TestApp } from '../helpers/app';
import { testContexts } from '../helpers/context';
import { restClient } from '../helpers/rest-client';
import { describeStatements, repeatedStatements, SqlLog, Statement } from '../helpers/sql-log';

const DASHBOARD = `query($login: String!) {
  organization(login: $login) {
    login
    secretScanningAlerts(first: 20) {
      totalCount
      nodes { number url repository { nameWithOwner owner { login } } assignedTo { login } resolvedBy { login } firstLocationDetected { path blobUrl } }
    }
  }
}`;

const REPOSITORY = `query($owner: String!, $name: String!) {
  repository(owner: $owner, name: $name) {
    nameWithOwner
    one: secretScanningAlert(number: 1) { number repository { nameWithOwner } }
    two: secretScanningAlert(number: 2) { number }
    secretScanningAlerts(first: 5) { totalCount nodes { number } }
  }
}`;

const PUSH = `mutation($input: SubmitPushInput!) {
  submitPush(input: $input) { blocked alerts { number created alert { number secretType repository { nameWithOwner } } } }
}`;

describe('one request never runs the same statement twice', () => {
  const log = new SqlLog();
  let t: TestApp;
  let f: IdentityFixtures;
  let org: AccountEntity;
  let token: string;

  /** The statements of one request; it must not repeat one. */
  async function once<T>(request: () => Promise<T>): Promise<{ result: T; statements: Statement[] }> {
    await request(); // warm-up: prepared statements, metadata
    const run = await log.record(request);
    const repeated = repeatedStatements(run.statements);
    if (repeated.length) {
      throw new Error(`statements run twice:\n${describeStatements(repeated)}\nall statements:\n${describeStatements(run.statements)}`);
    }
    return run;
  }

  beforeAll(async () => {
    t = await startTestApp({ logger: log });
    f = new IdentityFixtures(t.db.dataSource);
    org = await f.org('onceorg');
    const admin = await f.user('onceadmin');
    await f.member(org, admin, 'admin');
    await f.repo(org, { name: 'app', private: true, secretScanning: true });
    token = await f.classicToken(admin, ['repo', 'security_events']);
    const ctx = await testContexts(t.db.dataSource, t.app.deps.services).as(token);
    const secrets = [fakeSecrets.awsAccessKeyId(), fakeSecrets.githubPat(), fakeSecrets.slackBot()];
    await t.app.deps.services.secretScanningPush.submitPush(ctx, {
      repository: 'onceorg/app',
      ref: 'refs/heads/main',
      commits: [{ sha: commitSha(), files: [{ path: 'config/.env', content: fileOf(secrets.map((s) => s.line)) }] }],
    });
  });
  afterAll(() => t.close());

  it('the dashboard (organization alerts with repository, owner, users, first location) looks the organization up once', async () => {
    const { result, statements } = await once(() => gql(t.url, DASHBOARD, { login: 'ONCEORG' }, token));
    expect(result.body.errors).toBeUndefined();
    expect(result.body.data.organization.secretScanningAlerts.totalCount).toBe(3);
    expect(result.body.data.organization.secretScanningAlerts.nodes.map((n: { repository: { owner: { login: string } } }) => n.repository.owner.login)).toEqual([
      'onceorg',
      'onceorg',
      'onceorg',
    ]);
    // The organization by login: one statement (the `organization` field), none from the alert list.
    expect(statements.filter((s) => /FROM "accounts"/.test(s.sql) && /WHERE.*"login_lower"/.test(s.sql))).toHaveLength(1);
  });

  it('the REST twin of the dashboard', async () => {
    const rest = restClient(t.url, token);
    const { result } = await once(() => rest.get('/orgs/onceorg/secret-scanning/alerts?per_page=20'));
    expect(result.status).toBe(200);
    expect(result.body).toHaveLength(3);
  });

  it('a repository with two alerts by number, and its alert list', async () => {
    const { result, statements } = await once(() => gql(t.url, REPOSITORY, { owner: 'onceorg', name: 'app' }, token));
    expect(result.body.errors).toBeUndefined();
    const r = result.body.data.repository;
    expect([r.one.number, r.two.number, r.secretScanningAlerts.totalCount]).toEqual([1, 2, 3]);
    // Both alerts by number in one batched statement.
    expect(statements.filter((s) => /FROM "secret_scanning_alerts"/.test(s.sql) && /"number" (IN|=)/.test(s.sql))).toHaveLength(1);
  });

  it('a push that touches several alerts reads them back in one statement, and reads nothing twice after its write', async () => {
    const secrets = [fakeSecrets.stripeLive(), fakeSecrets.npm(), fakeSecrets.sendgrid(), fakeSecrets.googleApiKey()];
    const input = {
      repository: 'onceorg/app',
      ref: 'refs/heads/main',
      commits: [{ sha: commitSha(), files: [{ path: 'src/keys.js', content: fileOf(secrets.map((s) => s.line)) }] }],
    };
    const run = await log.record(() => gql(t.url, PUSH, { input }, token));
    expect(run.result.body.errors).toBeUndefined();
    const alerts = run.result.body.data.submitPush.alerts as Array<{ number: number; alert: { number: number; repository: { nameWithOwner: string } } }>;
    expect(alerts).toHaveLength(4);
    for (const a of alerts) expect(a.alert).toEqual({ number: a.number, secretType: expect.any(String), repository: { nameWithOwner: 'onceorg/app' } });
    // After the write transaction the request's loaders start afresh (they may hold what it changed); from
    // there on, no statement runs twice and the four alerts come in one statement.
    const commit = run.statements.map((s) => s.sql).lastIndexOf('COMMIT');
    expect(commit).toBeGreaterThan(-1);
    const after = run.statements.slice(commit + 1);
    expect(repeatedStatements(after)).toEqual([]);
    expect(after.filter((s) => /FROM "secret_scanning_alerts"/.test(s.sql))).toEqual([expect.objectContaining({ sql: expect.stringMatching(/"number" IN/) })]);
  });
});
