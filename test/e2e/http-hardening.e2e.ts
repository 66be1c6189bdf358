/**
 * The HTTP layer under hostile input (issue 6, items 4, 8 and 10), over raw sockets where fetch cannot
 * send the request:
 *  - request targets and Host headers: absolute-form is accepted (RFC 9112 §3.2.2) and routed by its path,
 *    its authority ignored; an unusable target or Host is a 400 in the API's error style; never a 500,
 *    never a stack trace in the logs, URLs in answers always from PUBLIC_URL;
 *  - timeouts and limits: a stalled body or stalled headers get 408 and a closed socket, idle keep-alive
 *    sockets close, connections above MAX_CONNECTIONS are refused; a slow handler is not cut;
 *  - GraphQL error codes: subscriptions and persisted-query mistakes are BAD_REQUEST, not INTERNAL_SERVER_ERROR;
 *    messages quoting a huge input are capped.
 */
import * as net from 'node:net';
import { loadConfig } from '../../src/config';
import { createLogger } from '../../src/observability/logger';
import { App, createApp } from '../../src/server';
import { IdentityFixtures } from '../fixtures/identity';
import { startTestApp, TestApp } from '../helpers/app';
import { openTestDatabase, TestDatabase } from '../helpers/db';
import { FuzzCase, makeCase } from '../helpers/fuzz/case';
import { checkResponse } from '../helpers/fuzz/oracle';
import { hostPort, parseResponse, rawRequest, RawResponse, stalledRequest } from '../helpers/raw-http';

const PUBLIC_URL = 'https://api.example.test:8443';

/** No log line written since `from` carries an error object or a stack, and at most `maxWarn` warn lines. */
function expectQuietLogs(logs: Array<Record<string, unknown>>, from: number, maxWarn = 1): void {
  const lines = logs.slice(from);
  const text = JSON.stringify(lines);
  expect(text).not.toMatch(/stack|"err"|\bat \/|node_modules/);
  expect(lines.filter((l) => (l.level as number) >= 50)).toEqual([]);
  expect(lines.filter((l) => (l.level as number) === 40).length).toBeLessThanOrEqual(maxWarn);
}

function json(r: RawResponse): any {
  return JSON.parse(r.body);
}

describe('request target and Host header', () => {
  let t: TestApp;
  let token: string;
  let login: string;

  beforeAll(async () => {
    t = await startTestApp({ env: { PUBLIC_URL } });
    const f = new IdentityFixtures(t.db.dataSource);
    login = `hh${Date.now().toString(36)}`;
    token = await f.classicToken(await f.user(login), ['repo']);
  });
  afterAll(async () => t?.close());

  const gqlGet = (target: string, headers: string) =>
    `GET ${target}?query=%7B__typename%7D HTTP/1.1\r\n${headers}apollo-require-preflight: true\r\nConnection: close\r\n\r\n`;

  it.each([
    ['Host: [::1 on GET /graphql', gqlGet('/graphql', 'Host: [::1\r\n'), 'graphql'],
    ['Host: [::1 on POST /graphql', `POST /graphql HTTP/1.1\r\nHost: [::1\r\nContent-Type: application/json\r\nContent-Length: 26\r\nConnection: close\r\n\r\n{"query":"{ __typename }"}`, 'graphql'],
    ['an empty Host over HTTP/1.0 on GET /graphql', `GET /graphql?query=%7B__typename%7D HTTP/1.0\r\nHost:\r\napollo-require-preflight: true\r\n\r\n`, 'graphql'],
    ['Host: a b on GET /graphql', gqlGet('/graphql', 'Host: a b\r\n'), 'graphql'],
    ['two Host lines', gqlGet('/graphql', 'Host: a.example\r\nHost: b.example\r\n'), 'graphql'],
    ['Host: [::1 on a REST route', 'GET /user HTTP/1.1\r\nHost: [::1\r\nConnection: close\r\n\r\n', 'github'],
    ['Host: a b on an unknown REST path', 'GET /nowhere HTTP/1.1\r\nHost: a b\r\nConnection: close\r\n\r\n', 'github'],
    ['Host with a bad port', 'GET /healthz HTTP/1.1\r\nHost: a.example:99999\r\nConnection: close\r\n\r\n', 'github'],
    ['Host: [::1 on the WordPress family', 'GET /calendar/v1/events HTTP/1.1\r\nHost: [::1\r\nConnection: close\r\n\r\n', 'wordpress'],
    ['Host: [::1 on the AWS JSON family', 'POST /workflow HTTP/1.1\r\nHost: [::1\r\nX-Amz-Target: Workflow.ListJobs\r\nContent-Type: application/x-amz-json-1.0\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}', 'aws'],
    ['an absolute-form target with another scheme', 'GET ftp://evil.example/user HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n', 'github'],
    ['an absolute-form target with an unparsable authority', 'GET http://[::1/user HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n', 'github'],
    ['an asterisk-form target on GET', 'GET * HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n', 'github'],
    ['a path with a broken percent-encoding', 'GET /repos/%E0%A4%A/x HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n', 'github'],
  ])('%s: 400 in the API style, one short warn line, no stack', async (_name, request, style) => {
    const from = t.logs.length;
    const r = await rawRequest(t.url, request);
    expect(r.status).toBe(400);
    const body = json(r);
    if (style === 'graphql') {
      expect(body).toEqual({ errors: [{ message: expect.stringMatching(/^Bad request/), extensions: { code: 'BAD_REQUEST' } }] });
    } else if (style === 'aws') {
      expect(body).toEqual({ __type: 'ValidationException', message: expect.stringMatching(/^Bad request/) });
      expect(r.headers['x-amzn-errortype']).toBe('ValidationException');
    } else if (style === 'wordpress') {
      expect(body).toMatchObject({ code: 'rest_bad_request', message: expect.any(String), data: { status: 400 } });
    } else {
      expect(body).toEqual({ message: expect.stringMatching(/^Bad request/), documentation_url: expect.stringContaining('docs.github.com'), status: '400' });
    }
    expect(r.body).not.toMatch(/evil|%E0/);
    expectQuietLogs(t.logs, from);
  });

  it('accepts an absolute-form target (RFC 9112 §3.2.2): routed by its path, URLs from PUBLIC_URL', async () => {
    const from = t.logs.length;
    const rest = await rawRequest(
      t.url,
      `GET http://evil.example/user HTTP/1.1\r\nHost: evil.example\r\nAuthorization: token ${token}\r\nConnection: close\r\n\r\n`,
    );
    expect(rest.status).toBe(200);
    expect(json(rest)).toMatchObject({ login, url: `${PUBLIC_URL}/users/${login}` });
    expect(rest.body).not.toContain('evil.example');

    const body = JSON.stringify({ query: '{ viewer { login } }' });
    const graphql = await rawRequest(
      t.url,
      `POST https://evil.example:8443/graphql HTTP/1.1\r\nHost: evil.example\r\nAuthorization: Bearer ${token}\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
    expect(graphql.status).toBe(200);
    expect(json(graphql)).toEqual({ data: { viewer: { login } } });

    const get = await rawRequest(t.url, gqlGet('http://evil.example/graphql', 'Host: evil.example\r\n'));
    expect(get.status).toBe(200);
    expect(json(get)).toEqual({ data: { __typename: 'Query' } });
    expectQuietLogs(t.logs, from, 0);
  });

  it('serves HTTP/1.0 without a Host header (the fixed PUBLIC_URL stands in for it)', async () => {
    const from = t.logs.length;
    const graphql = await rawRequest(t.url, `GET /graphql?query=%7B__typename%7D HTTP/1.0\r\napollo-require-preflight: true\r\n\r\n`);
    expect(graphql.status).toBe(200);
    expect(json(graphql)).toEqual({ data: { __typename: 'Query' } });
    const rest = await rawRequest(t.url, `GET /user HTTP/1.0\r\nAuthorization: token ${token}\r\n\r\n`);
    expect(rest.status).toBe(200);
    expect(json(rest)).toMatchObject({ login, url: `${PUBLIC_URL}/users/${login}` });
    expectQuietLogs(t.logs, from, 0);
  });

  it('answers a request line Node cannot parse with a short 400 in the API style', async () => {
    const from = t.logs.length;
    const r = await rawRequest(t.url, 'GET user HTTP/1.1\r\nHost: a\r\n\r\n');
    expect(r.status).toBe(400);
    expect(json(r)).toMatchObject({ message: expect.stringMatching(/^Bad request/), status: '400' });
    expectQuietLogs(t.logs, from);
  });
});

describe('timeouts and connection limits', () => {
  const REQUEST_TIMEOUT_MS = 1200;
  const HEADERS_TIMEOUT_MS = 600;
  const KEEP_ALIVE_TIMEOUT_MS = 500;
  const MAX_CONNECTIONS = 8;
  let db: TestDatabase;
  let app: App;
  let url: string;
  const logs: Array<Record<string, unknown>> = [];

  beforeAll(async () => {
    db = await openTestDatabase();
    const config = {
      ...loadConfig({
        PORT: '0',
        HOST: '127.0.0.1',
        REQUEST_TIMEOUT_MS: String(REQUEST_TIMEOUT_MS),
        HEADERS_TIMEOUT_MS: String(HEADERS_TIMEOUT_MS),
        KEEP_ALIVE_TIMEOUT_MS: String(KEEP_ALIVE_TIMEOUT_MS),
        MAX_CONNECTIONS: String(MAX_CONNECTIONS),
      }),
      database: db.database,
    };
    app = await createApp(config, { dataSource: db.dataSource, logger: createLogger('info', { write: (l: string) => void logs.push(JSON.parse(l)) }) });
    // A legitimate request whose handler runs longer than the request timeout.
    app.fastify.get('/test/slow', async () => {
      await new Promise((r) => setTimeout(r, REQUEST_TIMEOUT_MS * 2));
      return { slow: 'done' };
    });
    url = await app.listen();
  });
  afterAll(async () => {
    await app?.close();
    await db?.drop();
  });

  it('answers a stalled body with 408 and closes the socket; a slow handler or a steady upload is not cut', async () => {
    const from = logs.length;
    const slowHandler = rawRequest(url, 'GET /test/slow HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n', { timeoutMs: REQUEST_TIMEOUT_MS * 5 });
    const head = (path: string) => `POST ${path} HTTP/1.1\r\nHost: a\r\nContent-Type: application/json\r\nContent-Length: 200\r\n\r\n{"query":`;
    const [graphql, rest] = await Promise.all([
      stalledRequest(url, head('/graphql'), REQUEST_TIMEOUT_MS * 4),
      stalledRequest(url, head('/repos/acme/api/secret-scanning/alerts/1').replace('POST', 'PATCH'), REQUEST_TIMEOUT_MS * 4),
    ]);
    for (const r of [graphql, rest]) {
      expect(r.response?.status).toBe(408);
      expect(r.closedAfterMs).toBeGreaterThanOrEqual(REQUEST_TIMEOUT_MS - 50);
      expect(r.closedAfterMs).toBeLessThan(REQUEST_TIMEOUT_MS + 1000);
    }
    expect(JSON.parse(graphql.response!.body)).toEqual({ errors: [{ message: expect.stringMatching(/timeout/i), extensions: { code: 'REQUEST_TIMEOUT' } }] });
    expect(JSON.parse(rest.response!.body)).toMatchObject({ message: expect.stringMatching(/timeout/i), status: '408' });

    // A body that keeps arriving within the timeout is served.
    const body = JSON.stringify({ query: '{ __typename }' });
    const steady = await new Promise<RawResponse>((resolve, reject) => {
      const { host, port } = hostPort(url);
      const s = net.connect({ host, port });
      let data = '';
      s.on('data', (d) => (data += d));
      s.on('error', reject);
      s.on('close', () => resolve({ status: Number(data.slice(9, 12)), headers: {}, body: data.slice(data.indexOf('\r\n\r\n') + 4), raw: data }));
      s.write(`POST /graphql HTTP/1.1\r\nHost: a\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n`);
      const third = Math.ceil(body.length / 3);
      [0, 1, 2].forEach((i) => setTimeout(() => s.write(body.slice(i * third, (i + 1) * third)), (i + 1) * (REQUEST_TIMEOUT_MS / 5)));
    });
    expect(steady.status).toBe(200);

    const slow = await slowHandler;
    expect(slow.status).toBe(200);
    expect(json(slow)).toEqual({ slow: 'done' });
    expectQuietLogs(logs, from, 2);
  });

  it("answers every framework-level error under a family's prefix in that family's shape (431, 408, 413, 415, 400, 404)", async () => {
    const style = (status: number, r: RawResponse | undefined, oracle: FuzzCase['oracle'], what: string) => {
      expect(`${what}: ${r?.status}`).toBe(`${what}: ${status}`);
      const c = makeCase({ kind: 'rest', mode: 'one-bad', target: what, oracle, request: { method: 'GET', target: '/', headers: {} } });
      const res = { status: r!.status, headers: r!.headers, body: r!.body, size: Buffer.byteLength(r!.body), ms: 0 };
      expect([what, checkResponse(c, res)]).toEqual([what, []]);
      if (oracle === 'aws') expect([what, r!.headers['x-amzn-errortype']]).toEqual([what, JSON.parse(r!.body).__type]);
    };
    const big = `X-Big: ${'a'.repeat(20_000)}\r\n`;
    const families: Array<[FuzzCase['oracle'], string, string, string]> = [
      ['wordpress', 'POST', '/calendar/events/v1/events', ''],
      ['aws', 'POST', '/workflow', 'X-Amz-Target: AWSStepFunctions.ListStateMachines\r\n'],
      ['github', 'PATCH', '/repos/acme/api/secret-scanning/alerts/1', ''],
    ];
    await Promise.all(
      families.map(async ([oracle, method, path, extra]) => {
        const head = (more: string, m = method, p = path) => `${m} ${p} HTTP/1.1\r\nHost: a\r\n${extra}${more}`;
        style(431, await rawRequest(url, head(`${big}Connection: close\r\n\r\n`)), oracle, `${path} 431`);
        style(408, (await stalledRequest(url, head('X-Slow: 1'), REQUEST_TIMEOUT_MS * 4)).response, oracle, `${path} 408 headers`);
        style(408, (await stalledRequest(url, head('Content-Type: application/json\r\nContent-Length: 200\r\n\r\n{'), REQUEST_TIMEOUT_MS * 4)).response, oracle, `${path} 408 body`);
        style(400, await rawRequest(url, head('Content-Length: abc\r\nConnection: close\r\n\r\n')), oracle, `${path} unparsable head`);
        style(413, await rawRequest(url, head('Content-Type: application/json\r\nContent-Length: 20000000\r\nConnection: close\r\n\r\n{')), oracle, `${path} 413`);
        const unsupported = await rawRequest(url, head('Content-Type: text/xml\r\nContent-Length: 4\r\nConnection: close\r\n\r\n<a/>'));
        style(oracle === 'aws' ? 400 : 415, unsupported, oracle, `${path} 415`);
        style(400, await rawRequest(url, head('Content-Type: application/json\r\nContent-Length: 1\r\nConnection: close\r\n\r\n{')), oracle, `${path} malformed JSON`);
        const unknown = await rawRequest(url, head('Connection: close\r\n\r\n', 'GET', `${path.split('/').slice(0, 2).join('/')}/no/such/route`));
        style(oracle === 'aws' ? 400 : 404, unknown, oracle, `${path} unknown route`);
        // On a kept-alive connection, the request that failed names the family, not the one before it.
        const { host, port } = hostPort(url);
        const second = await new Promise<RawResponse | undefined>((resolve) => {
          const s = net.connect({ host, port });
          let data = '';
          s.on('data', (d) => {
            data += d.toString('latin1');
            if (data.includes('"ok"') && !data.includes('HTTP/1.1 431')) s.write(head(`${big}\r\n`));
          });
          s.on('error', () => undefined);
          s.on('close', () => resolve(parseResponse(data.slice(data.lastIndexOf('HTTP/1.1 ')))));
          s.write('GET /healthz HTTP/1.1\r\nHost: a\r\n\r\n');
        });
        style(431, second, oracle, `${path} 431 after a kept-alive request`);
      }),
    );
  });

  it('answers stalled headers with 408 within the headers timeout', async () => {
    const r = await stalledRequest(url, 'GET /healthz HTTP/1.1\r\nHost: a\r\nX-Slow: 1', REQUEST_TIMEOUT_MS * 4);
    expect(r.response?.status).toBe(408);
    expect(r.closedAfterMs).toBeLessThan(HEADERS_TIMEOUT_MS + 1000);
  });

  it('closes an idle keep-alive connection after the keep-alive timeout', async () => {
    const r = await stalledRequest(url, 'GET /healthz HTTP/1.1\r\nHost: a\r\n\r\n', 10_000);
    expect(r.response?.status).toBe(200);
    // Node keeps a socket up to one second past keepAliveTimeout (its buffer against racing clients).
    expect(r.closedAfterMs).toBeDefined();
    expect(r.closedAfterMs!).toBeLessThan(KEEP_ALIVE_TIMEOUT_MS + 2000);
  });

  it('refuses connections above MAX_CONNECTIONS and accepts again once some close', async () => {
    const { host, port } = hostPort(url);
    const open = await Promise.all(
      Array.from(
        { length: MAX_CONNECTIONS },
        () =>
          new Promise<net.Socket>((resolve) => {
            const s = net.connect({ host, port }, () => resolve(s));
            s.on('error', () => undefined);
          }),
      ),
    );
    try {
      await new Promise((r) => setTimeout(r, 100));
      const refused = await stalledRequest(url, 'GET /healthz HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n', 3000);
      expect(refused.data).toBe('');
      expect(refused.closedAfterMs).toBeLessThan(1000);
    } finally {
      for (const s of open) s.destroy();
    }
    await new Promise((r) => setTimeout(r, 100));
    const ok = await rawRequest(url, 'GET /healthz HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n');
    expect(ok.status).toBe(200);
  });
});

describe('GraphQL error codes and message sizes', () => {
  let t: TestApp;
  beforeAll(async () => {
    // Huge anonymous requests reach GraphQL here (by default they stop at the anonymous body limit, see
    // anonymous-body-limit.e2e.ts): what is tested is how GraphQL answers them.
    t = await startTestApp({ env: { ANONYMOUS_BODY_LIMIT: '0' } });
  });
  afterAll(async () => t?.close());

  async function post(body: unknown) {
    const res = await fetch(`${t.url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    return { status: res.status, body: (await res.json()) as { errors?: Array<{ message: string; extensions?: { code?: string } }> } };
  }

  it('a subscription operation is a 400 BAD_REQUEST that says subscriptions are not supported over HTTP', async () => {
    for (const query of ['subscription { anything }', 'subscription S { __typename }', 'query Q { __typename } subscription S { __typename }']) {
      const r = await post({ query, operationName: query.startsWith('query') ? 'S' : undefined });
      expect(r.status).toBe(400);
      expect(r.body.errors).toEqual([{ message: expect.stringMatching(/subscriptions are not supported over HTTP/i), extensions: { code: 'BAD_REQUEST' } }]);
    }
  });

  it.each([
    ['Unsupported persisted query version', { query: '{ __typename }', extensions: { persistedQuery: { version: 2, sha256Hash: 'abc' } } }],
    ['provided sha does not match query', { query: '{ __typename }', extensions: { persistedQuery: { version: 1, sha256Hash: 'abc' } } }],
  ])('"%s" is a 400 BAD_REQUEST', async (message, body) => {
    const r = await post(body);
    expect(r.status).toBe(400);
    expect(r.body.errors).toEqual([{ message, extensions: { code: 'BAD_REQUEST' } }]);
  });

  it('caps messages that quote a huge variable value (quoted values 100 characters + "…", message ≤ 1,000)', async () => {
    const huge = 'y'.repeat(2_000_000);
    const r = await post({
      query: 'query Q($n: Int) { organization(login: "nobody") { repositories(first: $n) { totalCount } } }',
      variables: { n: huge },
    });
    expect(r.status).toBe(400);
    expect(r.body.errors).toHaveLength(1);
    const [e] = r.body.errors!;
    expect(e.extensions?.code).toBe('BAD_USER_INPUT');
    expect(e.message.length).toBeLessThanOrEqual(1000);
    expect(e.message).toContain(`"${'y'.repeat(100)}…"`);
    expect(e.message).not.toContain('y'.repeat(101));
    expect(e.message).toMatch(/^Variable "\$n" got invalid value/);
  });

  it('caps a REST message that quotes the request path', async () => {
    const res = await fetch(`${t.url}/workflow/${'p'.repeat(5000)}`, { method: 'POST', headers: { 'content-type': 'application/x-amz-json-1.0' }, body: '{}' });
    const body = (await res.json()) as { message: string };
    expect(res.status).toBeLessThan(500);
    expect(body.message.length).toBeLessThanOrEqual(1000);
  });
});
