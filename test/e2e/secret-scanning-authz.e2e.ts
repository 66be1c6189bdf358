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
 *  - Endpoint 6 (createBypass): cannot read the repository -> 404; cannot push (role write+; classic `repo`,
 *    fine-grained contents: write) -> 403; not the author of the placeholder -> 403; else 200.
 */
import type { AccountEntity } from '../../entities';
import { IdentityFixtures } from '../fixtures/identity';
import { octokit, Octokit, SecretScanningFixtures } from '../fixtures/secret-scanning';
import { startTestApp, TestApp } from '../helpers/app';

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
    'classic:security_events':                 '200 200 200 200 200 404 200',
    'classic:public_repo':                     '403 404 404 404 404 404 404',
    'classic:none':                            '403 404 404 404 404 404 404',
    'fine:read':                               '200 200 200 403 200 403 200',
    'fine:write':                              '200 200 200 200 200 403 200',
    'fine:other_repo':                         '200 404 404 404 404 404 404',
    'fine:contents_write':                     '403 403 403 403 403 200 403',
  },
  security_manager: {
    'classic:repo':                            '200 200 200 200 200 403 200',
    'classic:security_events':                 '200 200 200 200 200 404 200',
    'classic:public_repo':                     '403 404 404 404 404 404 404',
    'classic:none':                            '403 404 404 404 404 404 404',
    'fine:read':                               '200 200 200 403 200 403 200',
    'fine:write':                              '200 200 200 200 200 403 200',
    'fine:other_repo':                         '200 404 404 404 404 404 404',
    'fine:contents_write':                     '403 403 403 403 403 403 403',
  },
  repo_admin: {
    'classic:repo':                            '404 200 200 200 200 200 200',
    'classic:security_events':                 '404 200 200 200 200 404 200',
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

const TOKEN_KINDS = Object.keys(MATRIX.org_admin) as TokenKind[];
const ROLES = Object.keys(MATRIX) as Role[];
/** Roles whose effective permission on authz/app is write or more: they push their own placeholder. */
const PUSHERS: Role[] = ['org_admin', 'repo_admin', 'writer'];

describe('secret scanning REST authorization matrix', () => {
  let t: TestApp;
  const users = {} as Record<Role, AccountEntity>;
  const tokens = {} as Record<Role, Record<TokenKind, string>>;
  const placeholders = {} as Record<Role, string>;

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

  const CASES = ROLES.flatMap((role) => TOKEN_KINDS.map((kind) => [role, kind, MATRIX[role][kind]] as const));

  it.each(CASES)('%s with a %s token: %s', async (role, kind, expected) => {
    expect((await statuses(octokit(t.url, tokens[role][kind]), placeholders[role])).join(' ')).toBe(expected);
  });

  it(`anonymous: ${ANONYMOUS}`, async () => {
    expect((await statuses(octokit(t.url), placeholders.writer)).join(' ')).toBe(ANONYMOUS);
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
