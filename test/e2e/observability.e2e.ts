/**
 * Logs and metrics: one JSON line per request with request id, method, path/operation, status and duration;
 * no Authorization header or token ever logged; Prometheus counters and histograms per route and operation.
 */
import { IdentityFixtures } from '../fixtures/identity';
import { createLogger } from '../../src/observability/logger';
import { gql, startTestApp, TestApp } from '../helpers/app';

describe('logs and metrics', () => {
  let t: TestApp;
  let token: string;
  beforeAll(async () => {
    t = await startTestApp({ env: { LOG_LEVEL: 'trace' } });
    const f = new IdentityFixtures(t.db.dataSource);
    const u = await f.user('obsuser');
    await f.repo(u, { name: 'obsrepo' });
    token = await f.classicToken(u, ['repo']);
  });
  afterAll(() => t.close());

  it('logs each request once with request id, method, path, operation, status and duration', async () => {
    await fetch(`${t.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}`, 'x-request-id': 'req-graphql-1' },
      body: JSON.stringify({ query: 'query WhoAmI { viewer { login } }' }),
    });
    await fetch(`${t.url}/repos/obsuser/obsrepo`, { headers: { authorization: `token ${token}`, 'x-request-id': 'req-rest-1' } });
    await new Promise((r) => setTimeout(r, 50));
    const g = t.logs.filter((l) => l.requestId === 'req-graphql-1' && l.msg === 'request completed');
    expect(g).toHaveLength(1);
    expect(g[0]).toMatchObject({ method: 'POST', path: '/graphql', operation: 'WhoAmI', operationType: 'query', status: 200 });
    expect(typeof g[0].durationMs).toBe('number');
    const r = t.logs.filter((l) => l.requestId === 'req-rest-1' && l.msg === 'request completed');
    expect(r).toHaveLength(1);
    expect(r[0]).toMatchObject({ method: 'GET', path: '/repos/obsuser/obsrepo', route: '/repos/:owner/:repo', status: 200 });
  });

  it('never logs the Authorization header or a token, even at trace level and on errors', async () => {
    await fetch(`${t.url}/repos/obsuser/obsrepo`, { headers: { authorization: `Bearer ${token}x` } });
    await gql(t.url, '{ viewer { login } }', undefined, token);
    await fetch(`${t.url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body: '{bad json' });
    const text = JSON.stringify(t.logs);
    expect(t.logs.length).toBeGreaterThan(3);
    expect(text).not.toContain(token);
    expect(text).not.toMatch(/gwc_[0-9A-Za-z]{20}/);
    expect(text.toLowerCase()).not.toContain('bearer ');
  });

  it('exposes Prometheus metrics per route template and per GraphQL operation', async () => {
    await gql(t.url, 'query MetricsProbe { __typename }');
    await fetch(`${t.url}/repos/obsuser/obsrepo`, { headers: { authorization: `Bearer ${token}` } });
    const res = await fetch(`${t.url}/metrics`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/text\/plain/);
    const body = await res.text();
    expect(body).toMatch(/http_requests_total\{method="GET",route="\/repos\/:owner\/:repo",status="200"\} [1-9]/);
    // The request lands in the histogram (the +Inf bucket and the count); which finite bucket depends on the machine.
    expect(body).toMatch(/http_request_duration_seconds_bucket\{le="\+Inf",method="POST",route="\/graphql",status="200"\} [1-9]/);
    expect(body).toMatch(/http_request_duration_seconds_bucket\{le="0\.005",method="POST",route="\/graphql",status="200"\} \d+/);
    expect(body).toMatch(/http_request_duration_seconds_count\{method="POST",route="\/graphql",status="200"\} [1-9]/);
    expect(body).toMatch(/graphql_operations_total\{operation="MetricsProbe",type="query",outcome="success"\} 1/);
    expect(body).toMatch(/graphql_operation_duration_seconds_count\{operation="MetricsProbe",type="query"\} 1/);
    expect(body).not.toContain('/repos/obsuser/obsrepo'); // raw URLs never become labels
  });

  it('bounds operation-name labels a client controls', async () => {
    for (let i = 0; i < 3; i++) await gql(t.url, `query Weird_${'x'.repeat(70)}${i} { __typename }`);
    const body = await (await fetch(`${t.url}/metrics`)).text();
    expect(body).toMatch(/graphql_operations_total\{operation="invalid",type="query",outcome="success"\} 3/);
  });
});

describe('readiness with Redis', () => {
  it('reports database and Redis; an unreachable Redis makes /readyz 503 while /healthz stays 200', async () => {
    const up = await startTestApp({ env: { REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379' } });
    try {
      const r = await fetch(`${up.url}/readyz`);
      expect(r.status).toBe(200);
      expect(await r.json()).toEqual({ status: 'ok', checks: { database: 'ok', redis: 'ok' } });
    } finally {
      await up.close();
    }
    const down = await startTestApp({ env: { REDIS_URL: 'redis://127.0.0.1:1' } });
    try {
      const r = await fetch(`${down.url}/readyz`);
      expect(r.status).toBe(503);
      expect(await r.json()).toEqual({ status: 'unavailable', checks: { database: 'ok', redis: 'unreachable' } });
      expect((await fetch(`${down.url}/healthz`)).status).toBe(200);
    } finally {
      await down.close();
    }
  });
});

describe('database errors in logs', () => {
  it('never logs the bound parameters of a failed SQL statement', async () => {
    const lines: string[] = [];
    const log = createLogger('info', { write: (l: string) => void lines.push(l) });
    const err = Object.assign(new Error('UNIQUE constraint failed'), { query: 'INSERT ...', parameters: ['super-secret-value'] });
    log.error({ err }, 'unexpected error');
    expect(lines.join('')).not.toContain('super-secret-value');
    expect(lines.join('')).toContain('UNIQUE constraint failed');
  });
});
