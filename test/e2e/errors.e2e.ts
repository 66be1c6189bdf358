/**
 * Error behaviour a client notices, per family: bad token -> 401 in the family's style; unknown route
 * -> 404 in the family's style; malformed JSON -> 400; never a stack trace; database down -> 503.
 */
import { generateToken } from '../../src/auth/tokens';
import { IdentityFixtures } from '../fixtures/identity';
import { gql, startTestApp, TestApp } from '../helpers/app';
import { signedHeaders } from '../helpers/sigv4';

const BAD = `Bearer ${generateToken('classic')}`;

function noInternals(text: string): void {
  expect(text).not.toMatch(/\bat [\w.<>]+ \(|node_modules|\.ts:\d+|stack/i);
}

describe('errors, per REST family and GraphQL', () => {
  let t: TestApp;
  let token: string;
  beforeAll(async () => {
    t = await startTestApp();
    const f = new IdentityFixtures(t.db.dataSource);
    const o = await f.org('errorg');
    const u = await f.user('erruser');
    await f.member(o, u, 'admin');
    await f.repo(o, { name: 'private-one', private: true });
    token = await f.classicToken(u, ['repo']);
  });
  afterAll(() => t.close());

  it('GitHub family: a wrong token is 401 Bad credentials with documentation_url and status', async () => {
    const res = await fetch(`${t.url}/repos/errorg/private-one`, { headers: { authorization: BAD } });
    expect(res.status).toBe(401);
    const body = (await res.json()) as any;
    expect(body).toEqual({ message: 'Bad credentials', documentation_url: expect.stringMatching(/^https:\/\/docs\.github\.com\//), status: '401' });
  });

  it('GitHub family: "token <t>" (what Octokit sends) is accepted like Bearer', async () => {
    const res = await fetch(`${t.url}/repos/errorg/private-one`, { headers: { authorization: `token ${token}` } });
    expect(res.status).toBe(200);
    expect(((await res.json()) as any).full_name).toBe('errorg/private-one');
  });

  it('WordPress family: a wrong token is 401 rest_forbidden with data.status', async () => {
    const res = await fetch(`${t.url}/calendar/events/v1/events`, { headers: { authorization: BAD } });
    expect(res.status).toBe(401);
    expect((await res.json()) as any).toEqual({ code: 'rest_forbidden', message: 'Bad credentials', data: { status: 401 } });
  });

  it('AWS family: a wrong credential is UnrecognizedClientException as the AWS SDKs expect', async () => {
    // The family authenticates by SigV4 (src/auth/sigv4.ts): a request signed with a key this server does not know.
    const headers = await signedHeaders(t.url, {
      key: { accessKeyId: 'AKIANOSUCHKEY0000000', secretAccessKey: 'x'.repeat(40) },
      target: 'AWSStepFunctions.ListStateMachines',
      path: '/',
    });
    delete headers.host;
    const res = await fetch(`${t.url}/`, { method: 'POST', headers, body: '{}' });
    // AWS JSON services answer unknown credentials with 400 + __type (the SDK keys on __type).
    expect(res.status).toBe(400);
    expect(res.headers.get('x-amzn-errortype')).toBe('UnrecognizedClientException');
    expect((await res.json()) as any).toEqual({ __type: 'UnrecognizedClientException', message: 'The security token included in the request is invalid.' });
    // A bearer token is no AWS credential: the request is not signed (AWS: IncompleteSignatureException).
    const bearer = await fetch(`${t.url}/`, {
      method: 'POST',
      headers: { authorization: BAD, 'x-amz-target': 'AWSStepFunctions.ListStateMachines', 'content-type': 'application/x-amz-json-1.0' },
      body: '{}',
    });
    expect(bearer.status).toBe(400);
    expect(bearer.headers.get('x-amzn-errortype')).toBe('IncompleteSignatureException');
  });

  it('GraphQL: a wrong token is HTTP 401 with extensions.code UNAUTHENTICATED', async () => {
    const res = await fetch(`${t.url}/graphql`, {
      method: 'POST',
      headers: { authorization: BAD, 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ viewer { login } }' }),
    });
    expect(res.status).toBe(401);
    const body = (await res.json()) as any;
    expect(body.errors).toHaveLength(1);
    expect(body.errors[0].extensions.code).toBe('UNAUTHENTICATED');
    expect(body.errors[0].message).toBe('Bad credentials');
    noInternals(JSON.stringify(body));
  });

  it.each([
    ['github', '/repos/errorg/private-one/nope', { message: 'Not Found', documentation_url: 'https://docs.github.com/rest', status: '404' }],
    ['github (trailing slash)', '/repos/errorg/private-one/', { message: 'Not Found', documentation_url: 'https://docs.github.com/rest', status: '404' }],
    ['wordpress', '/calendar/events/v1/nope', { code: 'rest_no_route', message: 'No route was found matching the URL and request method.', data: { status: 404 } }],
  ])('unknown route in the %s family is 404 in its style', async (_f, path, expected) => {
    const res = await fetch(`${t.url}${path}`, { headers: { authorization: `Bearer ${token}` } });
    expect(res.status).toBe(404);
    expect((await res.json()) as any).toEqual(expected);
  });

  it('unknown AWS operation is UnknownOperationException', async () => {
    const res = await fetch(`${t.url}/`, {
      method: 'POST',
      headers: { 'x-amz-target': 'AWSStepFunctions.Nope', 'content-type': 'application/x-amz-json-1.0' },
      body: '{}',
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as any).__type).toBe('UnknownOperationException');
  });

  it('a private repository is 404 (never 403) for outsiders and anonymous callers', async () => {
    const f = new IdentityFixtures(t.db.dataSource);
    const outsider = await f.classicToken(await f.user(), ['repo']);
    for (const headers of [{}, { authorization: `Bearer ${outsider}` }] as Array<Record<string, string>>) {
      const res = await fetch(`${t.url}/repos/errorg/private-one`, { headers });
      expect(res.status).toBe(404);
      expect(((await res.json()) as any).message).toBe('Not Found');
    }
    const missing = await fetch(`${t.url}/repos/errorg/does-not-exist`, { headers: { authorization: `Bearer ${token}` } });
    expect(missing.status).toBe(404);
  });

  it('GitHub family: unsupported X-Service-Api-Version is 400; the supported one and none are fine', async () => {
    const h = { authorization: `Bearer ${token}` };
    const bad = await fetch(`${t.url}/repos/errorg/private-one`, { headers: { ...h, 'x-service-api-version': '2020-01-01' } });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as any).message).toMatch(/API version '2020-01-01' is not supported/);
    const good = await fetch(`${t.url}/repos/errorg/private-one`, { headers: { ...h, 'x-service-api-version': '2026-03-10' } });
    expect(good.status).toBe(200);
    for (const accept of ['application/vnd.service+json', 'application/vnd.github+json', 'application/vnd.github.v3+json', 'application/json']) {
      const r = await fetch(`${t.url}/repos/errorg/private-one`, { headers: { ...h, accept } });
      expect(r.status).toBe(200);
    }
  });

  it.each([
    ['github', '/repos/errorg/private-one', 'application/json', { message: 'Problems parsing JSON', status: '400' }],
    ['wordpress', '/calendar/events/v1/events', 'application/json', { code: 'rest_invalid_json', data: { status: 400 } }],
  ])('malformed JSON in the %s family is 400 in its style', async (_f, path, type, expected) => {
    const res = await fetch(`${t.url}${path}`, { method: 'PATCH', headers: { 'content-type': type, authorization: `Bearer ${token}` }, body: '{"state": ' });
    expect(res.status).toBe(400);
    const body = (await res.json()) as any;
    expect(body).toMatchObject(expected);
    noInternals(JSON.stringify(body));
  });

  it.each([
    ['truncated JSON', 'application/json', '{"query": '],
    ['a __proto__ key (refused by the secure JSON parser)', 'application/json', '{"query":"{ viewer { login } }","variables":{"__proto__":{"a":1}}}'],
    ['a constructor.prototype key', 'application/json', '{"query":"{ viewer { login } }","variables":{"constructor":{"prototype":{"a":1}}}}'],
    ['an unsupported media type', 'text/csv', 'query,{ viewer { login } }'],
  ])('a body GraphQL cannot read (%s) is 400 in GraphQL shape, without internals', async (_what, type, body) => {
    const res = await fetch(`${t.url}/graphql`, { method: 'POST', headers: { 'content-type': type }, body });
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
    const text = await res.text();
    noInternals(text);
    const json = JSON.parse(text);
    expect(json.errors?.[0]?.message).toEqual(expect.any(String));
    expect(json.errors[0].extensions?.code).toEqual(expect.any(String));
    expect(json.errors[0].extensions.code).not.toBe('INTERNAL_SERVER_ERROR');
  });

  it('GraphQL: a repository the viewer may not see is null plus NOT_FOUND, never data', async () => {
    const r = await gql(t.url, '{ repository(owner: "errorg", name: "private-one") { name } }');
    expect(r.status).toBe(200);
    expect(r.body.data).toEqual({ repository: null });
    expect(r.body.errors?.[0].extensions?.code).toBe('NOT_FOUND');
  });

  it('every response carries an x-request-id; a sane incoming one is kept', async () => {
    const res = await fetch(`${t.url}/healthz`, { headers: { 'x-request-id': 'abc-123' } });
    expect(res.headers.get('x-request-id')).toBe('abc-123');
    const res2 = await fetch(`${t.url}/healthz`, { headers: { 'x-request-id': 'bad id with spaces' } });
    expect(res2.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe('database down', () => {
  it('answers 503 in the family style, GraphQL SERVICE_UNAVAILABLE, /readyz 503, /healthz still 200', async () => {
    const t = await startTestApp({ keepDb: true });
    try {
      const f = new IdentityFixtures(t.db.dataSource);
      const u = await f.user('downuser');
      const token = await f.classicToken(u, ['repo']);
      await t.db.dataSource.destroy();
      const rest = await fetch(`${t.url}/repos/downuser/x`, { headers: { authorization: `Bearer ${token}` } });
      expect(rest.status).toBe(503);
      const body = (await rest.json()) as any;
      expect(body).toMatchObject({ status: '503', message: expect.stringMatching(/unavailable/i) });
      noInternals(JSON.stringify(body));
      const g = await fetch(`${t.url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: '{ repository(owner:"a", name:"b") { name } }' }) });
      const gb = (await g.json()) as any;
      expect(gb.errors[0].extensions.code).toBe('SERVICE_UNAVAILABLE');
      expect((await fetch(`${t.url}/readyz`)).status).toBe(503);
      expect((await fetch(`${t.url}/healthz`)).status).toBe(200);
    } finally {
      await t.app.close();
      await t.db.drop().catch(() => undefined);
    }
  });
});
