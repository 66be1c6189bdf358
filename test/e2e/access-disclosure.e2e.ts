/**
 * What an answer discloses beyond what the viewer may know (issue 6):
 *  - item 7: a pusher who may not read the repository's secret scanning alerts is not told which alerts a push or
 *    a content submission touched (that would be an oracle for "is this secret already an alert here"): the
 *    `alerts` list is null, in GraphQL and in the service, whatever the push found;
 *  - item 13: a Forbidden names what is actually missing: when the role allows the action and the credential does
 *    not, the message names the scope (classic) or the permission (fine-grained), not the role.
 * On the demo data (src/seed/demo.ts): acme with alice (owner), bob (security manager), carol (member, write
 * collaborator on acme/api), dave (read collaborator on acme/website); acme/api private with push protection,
 * acme/website public with secret scanning, acme/legacy private without it.
 */
import { AccountEntity } from '../../entities/identity';
import { seedDemo } from '../../src/seed/demo';
import { SubmitContentDocument, SubmitPushDocument } from '../__generated__/graphql';
import { IdentityFixtures } from '../fixtures/identity';
import { gql, gqlDoc, startTestApp, TestApp } from '../helpers/app';
import { commitSha, fakeSecrets, fileOf } from '../fixtures/fake-secrets';

describe('disclosure: alert numbers to pushers, and what a Forbidden blames', () => {
  let t: TestApp;
  const tokens: Record<string, string> = {};

  beforeAll(async () => {
    t = await startTestApp();
    const { services } = t.app.deps;
    const demo = await seedDemo(t.db.dataSource, services);
    for (const tk of demo.tokens) tokens[`${tk.user} demo`] = tk.token;
    const f = new IdentityFixtures(t.db.dataSource);
    const db = t.db.dataSource.manager;
    const user = (login: string) => t.db.dataSource.getRepository(AccountEntity).findOneByOrFail({ loginLower: login });
    const [alice, bob, carol] = await Promise.all(['alice', 'bob', 'carol'].map(user));
    // carol may also push to acme/website (secret scanning on, push protection off)
    await services.identity.grant(db, { repo: 'acme/website', user: 'carol', permission: 'write' });
    Object.assign(tokens, {
      'alice read:org': await f.classicToken(alice, ['read:org']),
      'alice security_events': await f.classicToken(alice, ['security_events']),
      'alice fine-grained contents': await f.fineGrainedToken(alice, ['acme/website'], { contents: 'write' }),
      'bob read:org': await f.classicToken(bob, ['read:org']),
      'carol repo': await f.classicToken(carol, ['repo']),
      'carol fine-grained contents only': await f.fineGrainedToken(carol, ['acme/website'], { contents: 'write' }),
      'carol fine-grained contents + alerts': await f.fineGrainedToken(carol, ['acme/website'], { contents: 'write', secret_scanning_alerts: 'read' }),
    });
  }, 120_000);
  afterAll(() => t.close());

  const pushOf = (repository: string, content: string) => ({
    repository,
    ref: 'refs/heads/main',
    commits: [{ sha: commitSha(), files: [{ path: `conf/${commitSha().slice(0, 8)}.env`, content }] }],
  });

  describe('item 7: submitPush / submitContent tell alert numbers only to who may read alerts', () => {
    it('a writer learns nothing from pushing a secret that already is an alert: the same answer as for a new one', async () => {
      const known = fakeSecrets.githubPat();
      // alice (owner) pushes it first: she is told the alert it created
      const first = await gqlDoc(t.url, SubmitPushDocument, { input: pushOf('acme/website', fileOf([known.line])) }, tokens['alice demo']);
      expect(first.body.errors).toBeUndefined();
      expect(first.body.data!.submitPush.alerts).toEqual([expect.objectContaining({ created: true, number: expect.any(Number) })]);

      for (const who of ['carol repo', 'carol fine-grained contents only', 'carol fine-grained contents + alerts']) {
        const again = await gqlDoc(t.url, SubmitPushDocument, { input: pushOf('acme/website', fileOf([known.line])) }, tokens[who]);
        const fresh = await gqlDoc(t.url, SubmitPushDocument, { input: pushOf('acme/website', fileOf([fakeSecrets.githubPat().line])) }, tokens[who]);
        const clean = await gqlDoc(t.url, SubmitPushDocument, { input: pushOf('acme/website', fileOf(['nothing here'])) }, tokens[who]);
        for (const r of [again, fresh, clean]) {
          expect([who, r.body]).toEqual([who, { data: { submitPush: { blocked: false, placeholders: [], alerts: null } } }]);
        }
      }
      // the push was still scanned: alice sees the new location on the known alert
      const n = first.body.data!.submitPush.alerts![0].number;
      const alert = await gql<any>(t.url, `{ repository(owner: "acme", name: "website") { secretScanningAlert(number: ${n}) { locations(first: 10) { totalCount } } } }`, undefined, tokens['alice demo']);
      expect(alert.body.data.repository.secretScanningAlert.locations.totalCount).toBe(4);
    });

    it('a blocked push tells a writer only `blocked` and the placeholders', async () => {
      const r = await gqlDoc(t.url, SubmitPushDocument, { input: pushOf('acme/api', fileOf([fakeSecrets.npm().line])) }, tokens['carol demo']);
      expect(r.body.errors).toBeUndefined();
      expect(r.body.data!.submitPush).toMatchObject({ blocked: true, alerts: null });
      expect(r.body.data!.submitPush.placeholders).toHaveLength(1);
    });

    it('submitContent: numbers for an owner, null for a writer', async () => {
      const input = (content: string) => ({ repository: 'acme/website', locationType: 'ISSUE_COMMENT' as never, url: `https://example.test/acme/website/issues/1#c${commitSha()}`, content });
      const owner = await gqlDoc(t.url, SubmitContentDocument, { input: input(fakeSecrets.slackBot().line) }, tokens['alice demo']);
      expect(owner.body.data!.submitContent.alerts).toEqual([expect.objectContaining({ created: true, number: expect.any(Number) })]);
      const writer = await gqlDoc(t.url, SubmitContentDocument, { input: input(fakeSecrets.slackBot().line) }, tokens['carol repo']);
      expect(writer.body).toEqual({ data: { submitContent: { alerts: null } } });
    });
  });

  describe('item 13: a Forbidden names the missing scope or permission when the role allows the action', () => {
    async function restMessage(method: string, path: string, token: string, body?: unknown): Promise<[number, string]> {
      const res = await fetch(`${t.url}${path}`, {
        method,
        headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
        body: body ? JSON.stringify(body) : undefined,
      });
      return [res.status, ((await res.json()) as { message: string }).message];
    }
    const gqlMessage = async (query: string, token: string): Promise<[string, string]> => {
      const r = await gql(t.url, query, undefined, token);
      return [String(r.body.errors?.[0]?.extensions?.code), String(r.body.errors?.[0]?.message)];
    };
    const ROLE = /must be|does not have enough permissions|denied to/;

    it('organization alerts: an owner or security manager with a read:org token is told the token lacks `repo` or `security_events`', async () => {
      for (const who of ['alice read:org', 'bob read:org']) {
        const [status, message] = await restMessage('GET', '/orgs/acme/secret-scanning/alerts', tokens[who]);
        expect([who, status, message]).toEqual([who, 403, 'Resource not accessible by personal access token: the token lacks the `repo` or `security_events` scope.']);
        expect(await gqlMessage('{ organization(login: "acme") { secretScanningAlerts(first: 1) { totalCount } } }', tokens[who])).toEqual(['FORBIDDEN', message]);
      }
      // a fine-grained token of an owner: the permission it lacks
      const [, fg] = await restMessage('GET', '/orgs/acme/secret-scanning/alerts', tokens['alice fine-grained contents']);
      expect(fg).toBe('Resource not accessible by personal access token: the token lacks the `secret_scanning_alerts` permission (read).');
      // a member whose role is what is missing is told that, whatever the token
      const [status, role] = await restMessage('GET', '/orgs/acme/secret-scanning/alerts', tokens['carol repo']);
      expect([status, role]).toEqual([403, 'You must be an organization owner or security manager to list secret scanning alerts of the organization.']);
    });

    it('repository alerts, pushes, bypasses and settings: the scope when the role allows, the role otherwise', async () => {
      // alerts of the public acme/website: alice (owner) with read:org lacks a scope; carol (writer) lacks the role
      expect(await restMessage('GET', '/repos/acme/website/secret-scanning/alerts', tokens['alice read:org'])).toEqual([
        403,
        'Resource not accessible by personal access token: the token lacks the `repo`, `security_events` or `public_repo` scope.',
      ]);
      const [, writer] = await restMessage('GET', '/repos/acme/website/secret-scanning/alerts', tokens['carol repo']);
      expect(writer).toMatch(/^You must be an admin of this repository/);

      // a push to acme/api by alice's security_events token (she sees the repository through its alerts)
      const push = `mutation { submitPush(input: { repository: "acme/api", ref: "refs/heads/x", commits: [{ sha: "${commitSha()}", files: [{ path: "a", content: "b" }] }] }) { blocked } }`;
      expect(await gqlMessage(push, tokens['alice security_events'])).toEqual([
        'FORBIDDEN',
        'Resource not accessible by personal access token: the token lacks the `repo` scope.',
      ]);
      // dave reads acme/website but may not push: his role is what is missing
      const davePush = push.replace('acme/api', 'acme/website');
      const [code, daveMessage] = await gqlMessage(davePush, tokens['dave demo']);
      expect([code, daveMessage]).toEqual(['FORBIDDEN', 'Permission to acme/website denied to dave.']);

      // a bypass on acme/api (push protection on) by alice's security_events token
      expect(
        await restMessage('POST', '/repos/acme/api/secret-scanning/push-protection-bypasses', tokens['alice security_events'], { reason: 'will_fix_later', placeholder_id: 'x' }),
      ).toEqual([403, 'Resource not accessible by personal access token: the token lacks the `repo` scope.']);

      // security settings of the public acme/website by alice with read:org
      const settings = `mutation { updateRepositorySecuritySettings(input: { repository: "acme/website", advancedSecurity: true }) { repository { name } } }`;
      const [sCode, sMessage] = await gqlMessage(settings, tokens['alice read:org']);
      expect([sCode, sMessage]).toEqual(['FORBIDDEN', 'Resource not accessible by personal access token: the token lacks the `repo` or `public_repo` scope.']);
      expect(sMessage).not.toMatch(ROLE);
      const [, carolSettings] = await gqlMessage(settings, tokens['carol repo']);
      expect(carolSettings).toBe('You must be an admin of this repository to change its security settings.');
    });
  });
});
