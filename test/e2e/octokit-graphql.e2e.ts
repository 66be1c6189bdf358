/**
 * GitHub's own GraphQL clients against /graphql, unmodified (issue 24, item 1): `octokit.graphql` (@octokit/rest)
 * and `@octokit/graphql` send `accept: application/vnd.github.v3+json`, which GitHub's endpoint answers as JSON.
 * Here too: GitHub's media types are read as JSON on /graphql and answered as application/json (not 406).
 */
import { SecretScanningFixtures } from '../fixtures/secret-scanning';
import { IdentityFixtures } from '../fixtures/identity';
import { startTestApp, TestApp } from '../helpers/app';
import { nodeRequire, octokit } from '../helpers/octokit';

type GraphqlFn = (<T>(query: string, parameters?: Record<string, unknown>) => Promise<T>) & {
  defaults(options: Record<string, unknown>): GraphqlFn;
};

const ALERTS = `query ($owner: String!, $name: String!) {
  repository(owner: $owner, name: $name) { secretScanningAlerts(first: 10) { totalCount nodes { number state } } }
}`;
const RESOLVE = `mutation ($input: UpdateSecretScanningAlertInput!) {
  updateSecretScanningAlert(input: $input) { alert { number state resolution resolvedBy { login } } }
}`;

describe('GitHub GraphQL clients (octokit.graphql, @octokit/graphql)', () => {
  let t: TestApp;
  let token: string;

  beforeAll(async () => {
    t = await startTestApp();
    const f = new IdentityFixtures(t.db.dataSource);
    const org = await f.org('octo-gql');
    const admin = await f.user('octo-gql-admin');
    await f.member(org, admin, 'admin');
    const repo = await f.repo(org, { name: 'app', private: true, secretScanning: true });
    await new SecretScanningFixtures(t.db.dataSource).alerts(repo, 3, {});
    token = await f.classicToken(admin, ['repo', 'read:org', 'security_events']);
  });
  afterAll(() => t?.close());

  it('octokit.graphql reads secret scanning alerts (a query with variables)', async () => {
    const data = await octokit(t.url, token).graphql<{ repository: { secretScanningAlerts: { totalCount: number; nodes: Array<{ number: number; state: string }> } } }>(
      ALERTS,
      { owner: 'octo-gql', name: 'app' },
    );
    expect(data.repository.secretScanningAlerts.totalCount).toBe(3);
    expect(data.repository.secretScanningAlerts.nodes.map((n) => n.number).sort()).toEqual([1, 2, 3]);
  });

  it('@octokit/graphql resolves an alert (a mutation), and octokit.graphql sees it resolved', async () => {
    const { graphql } = nodeRequire('@octokit/graphql') as { graphql: GraphqlFn };
    const client = graphql.defaults({ baseUrl: t.url, headers: { authorization: `token ${token}` } });
    const out = await client<{ updateSecretScanningAlert: { alert: Record<string, unknown> } }>(RESOLVE, {
      input: { repository: 'octo-gql/app', number: 2, state: 'RESOLVED', resolution: 'FALSE_POSITIVE' },
    });
    expect(out.updateSecretScanningAlert.alert).toEqual({ number: 2, state: 'RESOLVED', resolution: 'FALSE_POSITIVE', resolvedBy: { login: 'octo-gql-admin' } });
    const again = await octokit(t.url, token).graphql<{ repository: { secretScanningAlerts: { nodes: Array<{ number: number; state: string }> } } }>(ALERTS, {
      owner: 'octo-gql',
      name: 'app',
    });
    expect(again.repository.secretScanningAlerts.nodes.find((n) => n.number === 2)?.state).toBe('RESOLVED');
  });

  it('GraphQL errors reach the clients as GraphQL errors (not an HTTP 406)', async () => {
    const { graphql } = nodeRequire('@octokit/graphql') as { graphql: GraphqlFn };
    const client = graphql.defaults({ baseUrl: t.url, headers: { authorization: `token ${token}` } });
    // A field error (answered 200 with `errors`): the client's GraphqlResponseError, with the partial data.
    const notFound = await client(`{ viewer { login } repository(owner: "octo-gql", name: "nope") { name } }`).catch(
      (e: unknown) => e as { name: string; errors?: Array<{ message: string; type?: string }>; data?: unknown },
    );
    expect(notFound).toMatchObject({ name: 'GraphqlResponseError', data: { viewer: { login: 'octo-gql-admin' } } });
    // A document that does not validate (answered 400 with `errors`): the client's HttpError carrying them.
    type HttpError = { name: string; status: number; response?: { data?: { errors?: Array<{ message: string }> } } };
    const invalid = (await client('{ viewer { noSuchField } }').catch((e: unknown) => e)) as HttpError;
    expect(invalid).toMatchObject({ name: 'HttpError', status: 400 });
    expect(invalid.response?.data?.errors?.[0].message).toMatch(/noSuchField/);
  });

  it.each([
    'application/vnd.github.v3+json',
    'application/vnd.github+json',
    'application/vnd.github+json; charset=utf-8',
    'application/vnd.github.v3+json;q=0.9, text/plain;q=0.1',
    'APPLICATION/VND.GITHUB.V3+JSON',
  ])('accept: %s is answered as application/json', async (accept) => {
    const r = await fetch(`${t.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept, authorization: `Bearer ${token}` },
      body: JSON.stringify({ query: '{ viewer { login } }' }),
    });
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await r.json()).toEqual({ data: { viewer: { login: 'octo-gql-admin' } } });
  });

  it('an accept header with no JSON media type is still refused (406)', async () => {
    const r = await fetch(`${t.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/vnd.github.v3.html', authorization: `Bearer ${token}` },
      body: JSON.stringify({ query: '{ viewer { login } }' }),
    });
    expect(r.status).toBe(406);
  });
});
