/**
 * Bodies are not buffered before authentication (issue 24, item 2): a request without a live credential may send
 * at most ANONYMOUS_BODY_LIMIT body bytes. A larger Content-Length is refused (413 in the family's shape) before
 * the client has sent a byte of the body; a chunked anonymous body is cut once it passes the limit. A live
 * credential (token, application password, or an active SigV4 access key) keeps the route's limit.
 */
import * as net from 'node:net';
import { FuzzCase, makeCase } from '../helpers/fuzz/case';
import { checkResponse } from '../helpers/fuzz/oracle';
import { IdentityFixtures, uniq } from '../fixtures/identity';
import { startTestApp, TestApp } from '../helpers/app';
import { hostPort, parseResponse, RawResponse } from '../helpers/raw-http';
import { AccessKey, signedHeaders } from '../helpers/sigv4';

const LIMIT = 4096;

/**
 * Send `head` (headers only), then `chunks` one by one, each only after the previous was written and the server
 * has not answered; resolves with the answer and how many body bytes had been written when it came.
 */
function send(url: string, head: string, chunks: string[] = [], waitMs = 3000): Promise<{ response?: RawResponse; bodyBytesWritten: number; closed: boolean }> {
  const { host, port } = hostPort(url);
  return new Promise((resolve) => {
    const s = net.connect({ host, port });
    let data = '';
    let written = 0;
    let answered = false;
    const finish = (closed: boolean) => resolve({ response: parseResponse(data), bodyBytesWritten: written, closed });
    const timer = setTimeout(() => {
      s.destroy();
      finish(false);
    }, waitMs);
    s.on('data', (d) => {
      data += d.toString('latin1');
      answered = true;
    });
    s.on('error', () => undefined);
    s.on('close', () => {
      clearTimeout(timer);
      finish(true);
    });
    s.write(head, async () => {
      for (const c of chunks) {
        // Give the server the time to answer before each further chunk.
        await new Promise((r) => setTimeout(r, 30));
        if (answered || s.destroyed) return;
        s.write(c);
        written += Buffer.byteLength(c);
      }
    });
  });
}

function expectShape(r: RawResponse | undefined, status: number, oracle: FuzzCase['oracle']): void {
  expect(r?.status).toBe(status);
  const c = makeCase({ kind: 'rest', mode: 'one-bad', target: 'limit', oracle, request: { method: 'POST', target: '/', headers: {} } });
  expect(checkResponse(c, { status: r!.status, headers: r!.headers, body: r!.body, size: Buffer.byteLength(r!.body), ms: 0 })).toEqual([]);
}

describe('anonymous body limit', () => {
  let t: TestApp;
  let token: string;
  let key: AccessKey;

  beforeAll(async () => {
    t = await startTestApp({ env: { ANONYMOUS_BODY_LIMIT: String(LIMIT), WORKFLOW_RUNNER: 'off' } });
    const fx = new IdentityFixtures(t.db.dataSource);
    const user = await fx.user(uniq('big'));
    token = await fx.classicToken(user, ['repo', 'workflow']);
    const k = await fx.services.identity.createAccessKey(t.db.dataSource.manager, { user: user.login });
    key = { accessKeyId: k.accessKeyId, secretAccessKey: k.secretAccessKey };
  });
  afterAll(async () => t?.close());

  const HUGE = 9_961_472; // 9.5 MiB: declared, never sent
  const head = (method: string, path: string, length: number | 'chunked', extra = '') =>
    `${method} ${path} HTTP/1.1\r\nHost: a\r\nContent-Type: application/json\r\n${extra}` +
    (length === 'chunked' ? 'Transfer-Encoding: chunked\r\n' : `Content-Length: ${length}\r\n`) +
    '\r\n';

  it.each<[FuzzCase['oracle'], string, string, string]>([
    ['wordpress', 'POST', '/calendar/events/v1/events', ''],
    ['github', 'PATCH', '/repos/acme/api/secret-scanning/alerts/1', ''],
    ['graphql', 'POST', '/graphql', ''],
    ['aws', 'POST', '/workflow', 'X-Amz-Target: AWSStepFunctions.ListStateMachines\r\n'],
  ])('%s: a large Content-Length without credentials is 413 before the body is sent, and the connection closes', async (oracle, method, path, extra) => {
    // Only the head is sent: the answer comes without the body.
    const r = await send(t.url, head(method, path, HUGE, extra));
    expectShape(r.response, 413, oracle);
    expect(r.bodyBytesWritten).toBe(0);
    expect(r.closed).toBe(true);
    expect(r.response!.body).toMatch(/too large/i);
    // A bad credential is no credential.
    const bad = await send(t.url, head(method, path, HUGE, `${extra}Authorization: Bearer ghp_${'x'.repeat(36)}\r\n`));
    expect(bad.response?.status).toBe(413);
    expect(bad.bodyBytesWritten).toBe(0);
  });

  it('a chunked anonymous body is cut once it passes the limit; up to the limit it reaches the route', async () => {
    const chunk = (s: string) => `${Buffer.byteLength(s).toString(16)}\r\n${s}\r\n`;
    const piece = 'a'.repeat(1024);
    // Ten KiB offered in 1 KiB chunks, never finished: the answer comes after the fifth (4096 + 1024 > limit).
    const cut = await send(t.url, head('POST', '/calendar/events/v1/events', 'chunked'), Array.from({ length: 10 }, () => chunk(piece)));
    expectShape(cut.response, 413, 'wordpress');
    expect(cut.bodyBytesWritten).toBeLessThan(6 * (piece.length + 10));
    // Within the limit, a chunked body is read and the route answers (anonymous: 401 for a calendar write).
    const body = JSON.stringify({ title: 'x'.repeat(LIMIT - 100) });
    const fine = await send(t.url, head('POST', '/calendar/events/v1/events', 'chunked', 'Connection: close\r\n'), [chunk(body), '0\r\n\r\n']);
    expect(fine.response?.status).not.toBe(413);
    expectShape(fine.response, fine.response!.status, 'wordpress');
  });

  it('live credentials keep the route limit: a token, an active SigV4 access key', async () => {
    const big = JSON.stringify({ state: 'resolved', resolution_comment: 'c'.repeat(20_000) });
    const withToken = await fetch(`${t.url}/repos/acme/api/secret-scanning/alerts/1`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: big,
    });
    // Past the body limit: the route itself answers (here: the comment is too long for GitHub).
    expect(withToken.status).toBe(400);
    expect(await withToken.text()).not.toMatch(/too large/i);
    const graphql = await fetch(`${t.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ query: `{ viewer { login } } # ${'c'.repeat(20_000)}` }),
    });
    expect(graphql.status).toBe(200);
    const anonymous = await fetch(`${t.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: `{ __typename } # ${'c'.repeat(20_000)}` }),
    });
    expect(anonymous.status).toBe(413);
    // SigV4: the key is active, so the body is read and the signature (over it) verified as usual.
    const body = JSON.stringify({ maxResults: 10, nextToken: 'n'.repeat(20_000) });
    const h = await signedHeaders(t.url, { key, target: 'AWSStepFunctions.ListStateMachines', body });
    delete h.host;
    const signed = await fetch(`${t.url}/workflow`, { method: 'POST', headers: h, body });
    expect(signed.status).toBe(400);
    expect(((await signed.json()) as { __type: string }).__type).not.toBe('RequestEntityTooLargeException');
    const unknown = await signedHeaders(t.url, { key: { accessKeyId: 'AKIAUNKNOWNUNKNOWN00', secretAccessKey: 'x'.repeat(40) }, target: 'AWSStepFunctions.ListStateMachines', body });
    delete unknown.host;
    const refused = await fetch(`${t.url}/workflow`, { method: 'POST', headers: unknown, body });
    expect(refused.status).toBe(413);
    expect(await refused.json()).toEqual({ __type: 'RequestEntityTooLargeException', message: expect.stringMatching(/too large/) });
  });
});
