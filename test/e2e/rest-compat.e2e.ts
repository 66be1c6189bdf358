/**
 * REST answers that must read exactly as they did before the spine refactor (issue 7): the error bodies a
 * GitHub client (Octokit) or an AWS client sees, word for word, while GraphQL callers read the domain's names.
 * Each case was answered so by the gateway before the refactor (commit 3fa231b).
 * Runs on SQLite, and on PostgreSQL when DATABASE_URL is set.
 */
import type { AccountEntity, RepositoryEntity } from '../../entities';
import { IdentityFixtures } from '../fixtures/identity';
import { SecretScanningFixtures } from '../fixtures/secret-scanning';
import { startTestApp, TestApp } from '../helpers/app';
import { restClient, RestClient } from '../helpers/rest-client';

const GITHUB_DOCS = 'https://docs.github.com/rest';
const DOC_400 = `${GITHUB_DOCS}/overview/troubleshooting-the-rest-api#400-bad-request`;

describe('REST answers unchanged by the spine refactor', () => {
  let t: TestApp;
  let rest: RestClient;
  let token: string;
  let org: AccountEntity;
  let repo: RepositoryEntity;
  const alerts = () => `/repos/${org.login}/${repo.name}/secret-scanning/alerts`;

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
