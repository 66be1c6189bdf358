/**
 * Authorization matrix of the 7 secret scanning REST endpoints, called with the real @octokit/rest:
 * role x token kind x endpoint -> HTTP status.
 *
 * Setup: organization `authz` with the private repository `authz/app` (secret scanning, push protection
 * and advanced security on, 3 alerts) and `authz/other` (secret scanning on, 2 alerts).
 *
 * Roles:
 *   org_admin         organization owner (effective repository permission: admin)
 *   security_manager  organization security manager (organization base permission: read)
 *   repo_admin        outside collaborator with admin on authz/app (no organization role)
 *   writer            organization member + write collaborator on authz/app
 *   reader            outside collaborator with read on authz/app
 *   outsider          no relation
 *   anonymous         no token
 * Token kinds:
 *   classic:repo, classic:security_events, classic:public_repo, classic:none (no scope);
 *   fine:read (secret_scanning_alerts: read on app), fine:write (secret_scanning_alerts: write on app),
 *   fine:other_repo (secret_scanning_alerts: write on authz/other only), fine:contents_write (contents: write on app).
 * Endpoints (columns):
 *   1 GET   /orgs/authz/secret-scanning/alerts
 *   2 GET   /repos/authz/app/secret-scanning/alerts
 *   3 GET   /repos/authz/app/secret-scanning/alerts/1
 *   4 PATCH /repos/authz/app/secret-scanning/alerts/1          {assignee: null}
 *   5 GET   /repos/authz/app/secret-scanning/alerts/1/locations
 *   6 POST  /repos/authz/app/secret-scanning/push-protection-bypasses  (the viewer's own placeholder when the
 *           role may push, else the writer's)
 *   7 GET   /repos/authz/app/secret-scanning/scan-history
 *
 * How the expected statuses follow from src/auth/permissions.ts (`can`) and the services:
 *  - Endpoint 1 (organizationFor): 200 when the role is owner or security manager AND the credential allows
 *    organization.secret_scanning.alerts.read (classic: repo or security_events; fine-grained:
 *    secret_scanning_alerts read, on any repository: the list is then limited to the token's repositories);
 *    otherwise 404 when the viewer has no organization role (nothing leaks), else 403.
 *  - Endpoints 2, 3, 5, 7 (action secret_scanning.alerts.read / scan_history.read) and 4 (alerts.write)
 *    (repositoryFor): allowed = role (repository admin, org owner or security manager) AND credential
 *    (classic on a private repository: repo or security_events; fine-grained: the repository selected and
 *    secret_scanning_alerts read / write) -> 200. Not allowed and the viewer cannot even read the repository
 *    (repository.read: a private repository needs a role and, for classic tokens, the `repo` scope; for
 *    fine-grained tokens the repository selected) -> 404; otherwise 403.
 *    So security_events without repo reads alerts (200) but a writer with it gets 404, not 403.
 *  - Endpoint 6 (createBypass): cannot see the repository -> 404 (AccessService.repositoryVisible, the one rule:
 *    repository.read, or secret scanning on and secret_scanning.alerts.read; so a security_events token that reads
 *    the alerts sees the repository and gets 403, not 404); cannot push (role write+; classic `repo`,
 *    fine-grained contents: write) -> 403; not the author of the placeholder -> 403; else 200.
 *
 * GraphQL twins: every row is also run through the GraphQL twin of each endpoint, with the same viewer and
 * token, and must give the same answer (REST status -> GraphQL outcome, see `graphqlOutcome`):
 *   1 organization(login).secretScanningAlerts          2 repository(owner, name).secretScanningAlerts
 *   3 repository.secretScanningAlert(number: 1)         4 updateSecretScanningAlert(input: {..., assignee: null})
 *   5 repository.secretScanningAlert(1).locations       6 createPushProtectionBypass (the same placeholder)
 *   7 repository.secretScanningScanHistory
 *   200 -> the twin's value is non-null, no error; 404 -> null + NOT_FOUND; 403 -> null + FORBIDDEN;
 *   400/422 -> BAD_USER_INPUT; 401 -> HTTP 401 + UNAUTHENTICATED (bad credentials).
 *   A classic security_events token (no `repo`) reads alerts in REST; in GraphQL the same token gets past
 *   Query.repository (the same visibility rule as REST) to reach endpoints 2, 3, 5 and 7.
 */
import { AccessTokenEntity, AccountEntity } from '../../entities/identity';
import { generateToken } from '../../src/auth/tokens';
import {
  CreatePushProtectionBypassDocument,
  OrganizationSecretScanningAlertsDocument,
  RepositorySecretScanningAlertsDocument,
  SecretScanningAlertDocument,
  SecretScanningAlertLocationsDocument,
  SecretScanningScanHistoryDocument,
  UpdateSecretScanningAlertDocument,
} from '../__generated__/graphql';
import { IdentityFixtures } from '../fixtures/identity';
import { SecretScanningFixtures } from '../fixtures/secret-scanning';
import { octokit, Octokit } from '../helpers/octokit';
import { gqlDoc, startTestApp, TestApp } from '../helpers/app';

type Role = 'org_admin' | 'security_manager' | 'repo_admin' | 'writer' | 'reader' | 'outsider';
type TokenKind =
  | 'classic:repo'
  | 'classic:security_events'
  | 'classic:public_repo'
  | 'classic:none'
  | 'fine:read'
  | 'fine:write'
  | 'fine:other_repo'
  | 'fine:contents_write';

//                                                1   2   3   4   5   6   7
const MATRIX: Record<Role, Record<TokenKind, string>> = {
  org_admin: {
    'classic:repo':                            '200 200 200 200 200 200 200',
    'classic:security_events':                 '200 200 200 200 200 403 200',
    'classic:public_repo':                     '403 404 404 404 404 404 404',
    'classic:none':                            '403 404 404 404 404 404 404',
    'fine:read':                               '200 200 200 403 200 403 200',
    'fine:write':                              '200 200 200 200 200 403 200',
    'fine:other_repo':                         '200 404 404 404 404 404 404',
    'fine:contents_write':                     '403 403 403 403 403 200 403',
  },
  security_manager: {
    'classic:repo':                            '200 200 200 200 200 403 200',
    'classic:security_events':                 '200 200 200 200 200 403 200',
    'classic:public_repo':                     '403 404 404 404 404 404 404',
    'classic:none':                            '403 404 404 404 404 404 404',
    'fine:read':                               '200 200 200 403 200 403 200',
    'fine:write':                              '200 200 200 200 200 403 200',
    'fine:other_repo':                         '200 404 404 404 404 404 404',
    'fine:contents_write':                     '403 403 403 403 403 403 403',
  },
  repo_admin: {
    'classic:repo':                            '404 200 200 200 200 200 200',
    'classic:security_events':                 '404 200 200 200 200 403 200',
    'classic:public_repo':                     '404 404 404 404 404 404 404',
    'classic:none':                            '404 404 404 404 404 404 404',
    'fine:read':                               '404 200 200 403 200 403 200',
    'fine:write':                              '404 200 200 200 200 403 200',
    'fine:other_repo':                         '404 404 404 404 404 404 404',
    'fine:contents_write':                     '404 403 403 403 403 200 403',
  },
  writer: {
    'classic:repo':                            '403 403 403 403 403 200 403',
    'classic:security_events':                 '403 404 404 404 404 404 404',
    'classic:public_repo':                     '403 404 404 404 404 404 404',
    'classic:none':                            '403 404 404 404 404 404 404',
    'fine:read':                               '403 403 403 403 403 403 403',
    'fine:write':                              '403 403 403 403 403 403 403',
    'fine:other_repo':                         '403 404 404 404 404 404 404',
    'fine:contents_write':                     '403 403 403 403 403 200 403',
  },
  reader: {
    'classic:repo':                            '404 403 403 403 403 403 403',
    'classic:security_events':                 '404 404 404 404 404 404 404',
    'classic:public_repo':                     '404 404 404 404 404 404 404',
    'classic:none':                            '404 404 404 404 404 404 404',
    'fine:read':                               '404 403 403 403 403 403 403',
    'fine:write':                              '404 403 403 403 403 403 403',
    'fine:other_repo':                         '404 404 404 404 404 404 404',
    'fine:contents_write':                     '404 403 403 403 403 403 403',
  },
  outsider: {
    'classic:repo':                            '404 404 404 404 404 404 404',
    'classic:security_events':                 '404 404 404 404 404 404 404',
    'classic:public_repo':                     '404 404 404 404 404 404 404',
    'classic:none':                            '404 404 404 404 404 404 404',
    'fine:read':                               '404 404 404 404 404 404 404',
    'fine:write':                              '404 404 404 404 404 404 404',
    'fine:other_repo':                         '404 404 404 404 404 404 404',
    'fine:contents_write':                     '404 404 404 404 404 404 404',
  },
}; // prettier-ignore
const ANONYMOUS = '404 404 404 404 404 404 404';
/** A token that does not authenticate (unknown, malformed or revoked): GitHub's 401 "Bad credentials" everywhere. */
const BAD_CREDENTIALS = '401 401 401 401 401 401 401';

const TOKEN_KINDS = Object.keys(MATRIX.org_admin) as TokenKind[];
const ROLES = Object.keys(MATRIX) as Role[];
/** Roles whose effective permission on authz/app is write or more: they push their own placeholder. */
const PUSHERS: Role[] = ['org_admin', 'repo_admin', 'writer'];

describe('secret scanning REST authorization matrix', () => {
  let t: TestApp;
  const users = {} as Record<Role, AccountEntity>;
  const tokens = {} as Record<Role, Record<TokenKind, string>>;
  const placeholders = {} as Record<Role, string>;
  const badTokens = {} as Record<'unknown' | 'malformed' | 'revoked', string>;

  beforeAll(async () => {
    t = await startTestApp();
    const f = new IdentityFixtures(t.db.dataSource);
    const ss = new SecretScanningFixtures(t.db.dataSource);
    const org = await f.org('authz');
    for (const r of ROLES) users[r] = await f.user(`authz-${r.replace(/_/g, '-')}`);
    await f.member(org, users.org_admin, 'admin');
    await f.member(org, users.security_manager, 'security_manager');
    await f.member(org, users.writer, 'member');
    const app = await f.services.identity.createRepository(t.db.dataSource.manager, {
      owner: 'authz',
      name: 'app',
      private: true,
      secretScanning: true,
      pushProtection: true,
      advancedSecurity: true,
    });
    const other = await f.repo(org, { name: 'other', private: true, secretScanning: true });
    await f.grant(app, org, users.repo_admin, 'admin');
    await f.grant(app, org, users.writer, 'write');
    await f.grant(app, org, users.reader, 'read');
    await ss.alerts(app, 3);
    await ss.alerts(other, 2, { start: new Date('2026-01-01T00:00:00Z') });
    await ss.scanHistory(app);

    for (const r of ROLES) {
      tokens[r] = {
        'classic:repo': await f.classicToken(users[r], ['repo']),
        'classic:security_events': await f.classicToken(users[r], ['security_events']),
        'classic:public_repo': await f.classicToken(users[r], ['public_repo']),
        'classic:none': await f.classicToken(users[r], []),
        'fine:read': await f.fineGrainedToken(users[r], ['authz/app'], { secret_scanning_alerts: 'read' }),
        'fine:write': await f.fineGrainedToken(users[r], ['authz/app'], { secret_scanning_alerts: 'write' }),
        'fine:other_repo': await f.fineGrainedToken(users[r], ['authz/other'], { secret_scanning_alerts: 'write' }),
        'fine:contents_write': await f.fineGrainedToken(users[r], ['authz/app'], { contents: 'write' }),
      };
    }
    for (const r of PUSHERS) placeholders[r] = (await ss.placeholder(t.app.deps, users[r], 'authz/app')).placeholderId;
    for (const r of ROLES) placeholders[r] ??= placeholders.writer;

    // Credentials that do not authenticate: well-formed but unknown, not a token at all, revoked.
    badTokens.unknown = generateToken('classic');
    badTokens.malformed = 'not-a-token';
    const revokedUser = await f.user('authz-revoked');
    await f.member(org, revokedUser, 'admin');
    badTokens.revoked = await f.classicToken(revokedUser, ['repo']);
    await t.db.dataSource.getRepository(AccessTokenEntity).update({ userId: revokedUser.id }, { revokedAt: new Date() });
  }, 120_000);
  afterAll(() => t.close());

  const status = (p: Promise<{ status: number }>) => p.then((r) => r.status, (e: { status?: number }) => e.status ?? -1);
  const repo = { owner: 'authz', repo: 'app' };

  function statuses(gh: Octokit, placeholderId: string): Promise<number[]> {
    const ss = gh.rest.secretScanning;
    return Promise.all([
      status(ss.listAlertsForOrg({ org: 'authz' })),
      status(ss.listAlertsForRepo(repo)),
      status(ss.getAlert({ ...repo, alert_number: 1 })),
      // (Octokit 22's types still require `state`; the API takes state, assignee or validity)
      status(ss.updateAlert({ ...repo, alert_number: 1, assignee: null } as never)),
      status(ss.listLocationsForAlert({ ...repo, alert_number: 1 })),
      status(ss.createPushProtectionBypass({ ...repo, reason: 'will_fix_later', placeholder_id: placeholderId })),
      status(ss.getScanHistory(repo)),
    ]);
  }

  type GqlResult = Awaited<ReturnType<typeof gqlDoc<unknown, unknown>>>;

  /**
   * The REST status a GraphQL answer stands for: the twin's value (`pick`) non-null without errors -> 200;
   * HTTP 401 with UNAUTHENTICATED -> 401; otherwise the value must be null and the first error's code says
   * which status (NOT_FOUND 404, FORBIDDEN 403, BAD_USER_INPUT 422). Anything else is spelled out, so a
   * mismatch names what GraphQL did.
   */
  function graphqlOutcome(r: GqlResult, pick: (data: any) => unknown): string {
    const errors = r.body.errors ?? [];
    const code = errors[0]?.extensions?.code;
    if (r.status === 401) return code === 'UNAUTHENTICATED' && !r.body.data ? '401' : `http401:${String(code)}`;
    const value = r.body.data ? pick(r.body.data) : null;
    if (value !== null && value !== undefined) return errors.length === 0 && r.status === 200 ? '200' : `data+${String(code)}`;
    const status = ({ NOT_FOUND: '404', FORBIDDEN: '403', BAD_USER_INPUT: '422' } as Record<string, string>)[String(code)];
    return status ?? `null:${String(code ?? 'no-error')}:http${r.status}`;
  }

  /** The GraphQL twins of endpoints 1-7, for the same viewer (token) and placeholder. */
  async function graphqlStatuses(token: string | undefined, placeholderId: string): Promise<string[]> {
    const app = { owner: 'authz', name: 'app' };
    const twins: Array<[Promise<GqlResult>, (d: any) => unknown]> = [
      [gqlDoc(t.url, OrganizationSecretScanningAlertsDocument, { login: 'authz' }, token), (d) => d.organization?.secretScanningAlerts],
      [gqlDoc(t.url, RepositorySecretScanningAlertsDocument, app, token), (d) => d.repository?.secretScanningAlerts],
      [gqlDoc(t.url, SecretScanningAlertDocument, { ...app, number: 1 }, token), (d) => d.repository?.secretScanningAlert],
      [
        gqlDoc(t.url, UpdateSecretScanningAlertDocument, { input: { repository: 'authz/app', number: 1, assignee: null } }, token),
        (d) => d.updateSecretScanningAlert?.alert,
      ],
      [gqlDoc(t.url, SecretScanningAlertLocationsDocument, { ...app, number: 1 }, token), (d) => d.repository?.secretScanningAlert?.locations],
      [
        gqlDoc(t.url, CreatePushProtectionBypassDocument, { input: { repository: 'authz/app', reason: 'WILL_FIX_LATER', placeholderId } }, token),
        (d) => d.createPushProtectionBypass,
      ],
      [gqlDoc(t.url, SecretScanningScanHistoryDocument, app, token), (d) => d.repository?.secretScanningScanHistory],
    ];
    return Promise.all(twins.map(([p, pick]) => p.then((r) => graphqlOutcome(r as GqlResult, pick))));
  }

  /** REST 400 and 422 are one class (BAD_USER_INPUT) in GraphQL. */
  const asGraphqlClass = (expected: string) => expected.replace(/\b400\b/g, '422');

  const CASES = ROLES.flatMap((role) => TOKEN_KINDS.map((kind) => [role, kind, MATRIX[role][kind]] as const));

  it.each(CASES)('%s with a %s token: %s', async (role, kind, expected) => {
    expect((await statuses(octokit(t.url, tokens[role][kind]), placeholders[role])).join(' ')).toBe(expected);
  });

  it.each(CASES)('GraphQL twin: %s with a %s token: %s', async (role, kind, expected) => {
    expect((await graphqlStatuses(tokens[role][kind], placeholders[role])).join(' ')).toBe(asGraphqlClass(expected));
  });

  it(`anonymous: ${ANONYMOUS}`, async () => {
    expect((await statuses(octokit(t.url), placeholders.writer)).join(' ')).toBe(ANONYMOUS);
  });

  it(`GraphQL twin: anonymous: ${ANONYMOUS}`, async () => {
    expect((await graphqlStatuses(undefined, placeholders.writer)).join(' ')).toBe(asGraphqlClass(ANONYMOUS));
  });

  it.each(['unknown', 'malformed', 'revoked'] as const)(`a %s token: ${BAD_CREDENTIALS}, and HTTP 401 UNAUTHENTICATED in GraphQL`, async (which) => {
    expect((await statuses(octokit(t.url, badTokens[which]), placeholders.writer)).join(' ')).toBe(BAD_CREDENTIALS);
    expect((await graphqlStatuses(badTokens[which], placeholders.writer)).join(' ')).toBe(BAD_CREDENTIALS);
  });

  it('a fine-grained token lists only the organization alerts of its own repositories', async () => {
    const names = async (token: string) =>
      (await octokit(t.url, token).paginate(octokit(t.url, token).rest.secretScanning.listAlertsForOrg, { org: 'authz', per_page: 100 })).map(
        (a) => `${a.repository!.name}#${a.number}`,
      );
    expect(await names(tokens.org_admin['fine:other_repo'])).toEqual(['other#2', 'other#1']);
    expect(await names(tokens.security_manager['fine:read'])).toEqual(['app#3', 'app#2', 'app#1']);
    expect((await names(tokens.org_admin['classic:repo'])).sort()).toEqual(['app#1', 'app#2', 'app#3', 'other#1', 'other#2']);
  });

  it('only the author of the blocked push may bypass it, whatever their role', async () => {
    const gh = octokit(t.url, tokens.org_admin['classic:repo']);
    await expect(
      gh.rest.secretScanning.createPushProtectionBypass({ ...repo, reason: 'will_fix_later', placeholder_id: placeholders.writer }),
    ).rejects.toMatchObject({ status: 403 });
  });

  it('403 and 404 bodies are GitHub basic-errors; a fine-grained token is told so', async () => {
    const e = await octokit(t.url, tokens.writer['fine:write'])
      .rest.secretScanning.listAlertsForRepo(repo)
      .catch((x: { response: { data: unknown } }) => x);
    expect((e as any).response.data).toEqual({
      message: 'Resource not accessible by personal access token',
      documentation_url: expect.stringMatching(/^https:\/\/docs\.github\.com\//),
      status: '403',
    });
    const hidden = await octokit(t.url, tokens.outsider['classic:repo'])
      .rest.secretScanning.listAlertsForRepo(repo)
      .catch((x: { response: { data: unknown } }) => x);
    expect((hidden as any).response.data).toEqual({ message: 'Not Found', documentation_url: 'https://docs.github.com/rest', status: '404' });
  });
});
