/**
 * REST answers that must read exactly as they did before the spine refactor (issue 7): the error bodies a
 * GitHub client (Octokit) or an AWS client sees, word for word, while GraphQL callers read the domain's names.
 * Each case was answered so by the gateway before the refactor (commit 3fa231b).
 * Runs on SQLite, and on PostgreSQL when DATABASE_URL is set.
 */
import type { AccountEntity, RepositoryEntity } from '../../entities/identity';
import { IdentityFixtures } from '../fixtures/identity';
import { SecretScanningFixtures } from '../fixtures/secret-scanning';
import { gql, startTestApp, TestApp } from '../helpers/app';
import { restClient, RestClient } from '../helpers/rest-client';

const GITHUB_DOCS = 'https://docs.github.com/rest';
const DOC_400 = `${GITHUB_DOCS}/overview/troubleshooting-the-rest-api#400-bad-request`;
const DOC_422 = `${GITHUB_DOCS}/overview/troubleshooting-the-rest-api#422-unprocessable-entity`;

describe('REST answers unchanged by the spine refactor', () => {
  let t: TestApp;
  let rest: RestClient;
  let token: string;
  let org: AccountEntity;
  let repo: RepositoryEntity;
  const alerts = () => `/repos/${org.login}/${repo.name}/secret-scanning/alerts`;
  const bypasses = () => `/repos/${org.login}/${repo.name}/secret-scanning/push-protection-bypasses`;

  beforeAll(async () => {
    t = await startTestApp();
    const f = new IdentityFixtures(t.db.dataSource);
    org = await f.org();
    const admin = await f.user();
    await f.member(org, admin, 'admin');
    repo = await f.repo(org, { private: true, secretScanning: true, pushProtection: true, advancedSecurity: true });
    await new SecretScanningFixtures(t.db.dataSource).alerts(repo, 2);
    token = await f.classicToken(admin, ['repo', 'security_events', 'admin:org']);
    rest = restClient(t.url, token);
  });
  afterAll(() => t.close());

  describe('GitHub family: a 400 raised by a service or a family check links the REST docs root', () => {
    const basic400 = (message: string) => ({ message, documentation_url: GITHUB_DOCS, status: '400' });

    it('an invalid cursor', async () => {
      const r = await rest.get(`/orgs/${org.login}/secret-scanning/alerts?after=zzz`);
      expect(r.status).toBe(400);
      expect(r.body).toEqual(basic400('`after` is not a valid cursor'));
    });

    it('an unsupported API version', async () => {
      const r = await rest.get(alerts(), { 'x-github-api-version': '2020-01-01' });
      expect(r.status).toBe(400);
      expect(r.body).toEqual(basic400(expect.stringMatching(/^The requested API version '2020-01-01' is not supported/)));
    });

    it('a body that is not a JSON object', async () => {
      const r = await rest.request('PATCH', `${alerts()}/1`, ['state']);
      expect(r.status).toBe(400);
      expect(r.body).toEqual(basic400('Body should be a JSON object'));
    });

    it('an update that does not change the resolution', async () => {
      const r = await rest.request('PATCH', `${alerts()}/1`, { state: 'open' });
      expect(r.status).toBe(400);
      expect(r.body).toEqual(basic400('The alert is already open: the resolution was not changed.'));
    });

    it('malformed JSON keeps its own troubleshooting link', async () => {
      const res = await fetch(`${t.url}${alerts()}/1`, {
        method: 'PATCH',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: '{bad',
      });
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({ message: 'Problems parsing JSON', documentation_url: DOC_400, status: '400' });
    });
  });

  describe('GitHub family: messages name the parameters as the client sent them', () => {
    it('an unknown included_metadata value', async () => {
      const r = await rest.get(`/orgs/${org.login}/secret-scanning/alerts?included_metadata=nope`);
      expect(r.status).toBe(422);
      const message = expect.stringMatching(/^'nope' is not a valid included_metadata value; use owner-email, /);
      expect(r.body).toEqual({
        message,
        documentation_url: DOC_422,
        status: '422',
        errors: [{ resource: 'SecretScanningAlert', field: 'included_metadata', code: 'invalid', message }],
      });
    });

    it('client input a message quotes is echoed as sent, never read as a field name', async () => {
      const r = await rest.get(`/orgs/${org.login}/secret-scanning/alerts?included_metadata=${encodeURIComponent('{{secretTypes}}{{0}}')}`);
      expect(r.status).toBe(422);
      expect(r.body.message).toMatch(/^'\{\{secretTypes\}\}\{\{0\}\}' is not a valid included_metadata value; /);
      expect(r.body.errors[0].message).toBe(r.body.message);
    });

    it('a malformed owner_email_hash', async () => {
      const r = await rest.get(`/orgs/${org.login}/secret-scanning/alerts?owner_email_hash=xyz`);
      expect(r.status).toBe(422);
      const message = 'owner_email_hash must be the lowercase hex SHA-256 of an email address';
      expect(r.body).toEqual({
        message,
        documentation_url: DOC_422,
        status: '422',
        errors: [{ resource: 'SecretScanningAlert', field: 'owner_email_hash', code: 'invalid', message }],
      });
    });

    it('a PATCH body without state, assignee or validity', async () => {
      const r = await rest.request('PATCH', `${alerts()}/1`, {});
      expect(r.status).toBe(422);
      expect(r.body).toEqual({
        message: 'Invalid request: the body must contain at least one of state, assignee or validity.',
        documentation_url: DOC_422,
        status: '422',
        errors: [{ resource: 'SecretScanningAlert', field: 'state', code: 'missing_field' }],
      });
    });

    it('an invalid resolution_comment', async () => {
      const r = await rest.request('PATCH', `${alerts()}/1`, { state: 'open', resolution_comment: 5 });
      expect(r.status).toBe(400);
      expect(r.body).toEqual({
        message: 'resolution_comment is invalid: it must be a string of at most 280 characters, without NUL characters.',
        documentation_url: GITHUB_DOCS,
        status: '400',
      });
    });

    it('a bypass without reason and placeholder_id, and one with a placeholder_id that is not a string', async () => {
      const missing = await rest.request('POST', bypasses(), {});
      expect(missing.status).toBe(422);
      expect(missing.body).toEqual({
        message: 'Invalid request: reason is required; placeholder_id is required.',
        documentation_url: DOC_422,
        status: '422',
        errors: [
          { resource: 'SecretScanningPushProtectionBypass', field: 'reason', code: 'missing_field', message: 'reason is required' },
          { resource: 'SecretScanningPushProtectionBypass', field: 'placeholder_id', code: 'missing_field', message: 'placeholder_id is required' },
        ],
      });
      const notString = await rest.request('POST', bypasses(), { reason: 'used_in_tests', placeholder_id: 5 });
      expect(notString.status).toBe(422);
      expect(notString.body).toEqual({
        message: 'Invalid request: placeholder_id must be a string.',
        documentation_url: DOC_422,
        status: '422',
        errors: [{ resource: 'SecretScanningPushProtectionBypass', field: 'placeholder_id', code: 'invalid', message: 'placeholder_id must be a string' }],
      });
    });

    it('GraphQL callers read the domain words in the same error, never the REST body', async () => {
      const r = await gql(
        t.url,
        `mutation($input: UpdateSecretScanningAlertInput!) { updateSecretScanningAlert(input: $input) { alert { number } } }`,
        { input: { repository: `${org.login}/${repo.name}`, number: 1, resolutionComment: 'x' } },
        token,
      );
      expect(r.body.errors?.[0]?.message).toBe('Invalid request: the update must contain at least one of state, assignee or validity.');
      expect(r.body.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', domainCode: 'UPDATE_EMPTY' });
    });
  });

  describe('AWS JSON family', () => {
    it('an unknown operation on /workflow names the method and path as sent', async () => {
      const res = await fetch(`${t.url}/workflow`, { method: 'POST', headers: { 'content-type': 'application/x-amz-json-1.0' }, body: '{}' });
      expect(res.status).toBe(400);
      expect(res.headers.get('x-amzn-errortype')).toBe('UnknownOperationException');
      expect(await res.json()).toEqual({ __type: 'UnknownOperationException', message: 'Unknown operation POST /workflow' });
    });

    it('a long unknown path is cut, never echoed whole', async () => {
      const res = await fetch(`${t.url}/workflow/${'a'.repeat(5000)}`, { method: 'POST', headers: { 'content-type': 'application/x-amz-json-1.0' }, body: '{}' });
      expect(res.status).toBe(400);
      const body = (await res.json()) as { message: string };
      expect(body.message).toBe(`Unknown operation POST /workflow/${'a'.repeat(90)}…`);
    });
  });
});
