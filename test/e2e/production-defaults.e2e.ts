/**
 * Production defaults (issue 6, item 13): no demo data in production unless asked for, an access-key
 * secret printed only by the run that created it, GraphiQL's page locked down by a Content-Security-Policy
 * and X-Frame-Options, /metrics behind METRICS_TOKEN when it is set.
 */
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { startTestApp, TestApp } from '../helpers/app';
import { ServerProcess, startServerProcess } from '../helpers/process';

async function stop(server: ServerProcess): Promise<void> {
  if (server.child.exitCode === null) server.child.kill('SIGTERM');
  await server.exited;
}

/** The whole banner: it ends with an empty line after the last entry. */
async function banner(server: ServerProcess): Promise<string> {
  for (let i = 0; i < 100 && !/Health .*\n[\s\S]*\n\n/.test(server.stdout()); i++) await new Promise((r) => setTimeout(r, 50));
  return server.stdout();
}

describe('/metrics with METRICS_TOKEN', () => {
  const METRICS_TOKEN = 'scrape-token-0123456789abcdef';
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ env: { METRICS_TOKEN } });
  });
  afterAll(async () => t?.close());

  it.each([
    ['no Authorization header', undefined],
    ['a wrong bearer token', 'Bearer scrape-token-0123456789abcdeX'],
    ['a prefix of the token', `Bearer ${METRICS_TOKEN.slice(0, -1)}`],
    ['the token with another scheme', `Basic ${METRICS_TOKEN}`],
    ['the token without a scheme', METRICS_TOKEN],
  ])('answers 401 to %s', async (_name, authorization) => {
    const res = await fetch(`${t.url}/metrics`, { headers: authorization ? { authorization } : {} });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toMatch(/^Bearer /);
    const body = await res.text();
    expect(JSON.parse(body)).toMatchObject({ message: expect.stringMatching(/METRICS_TOKEN/), status: '401' });
    expect(body).not.toContain('http_requests');
    expect(body).not.toContain(METRICS_TOKEN);
  });

  it('serves the metrics to the right bearer token only', async () => {
    const res = await fetch(`${t.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('# TYPE');
    expect((await fetch(`${t.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}x` } })).status).toBe(401);
  });
});

describe('GraphiQL page headers', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => t?.close());

  it('sends a Content-Security-Policy without unsafe-inline/eval that pins the inline script and style, and X-Frame-Options: DENY', async () => {
    const res = await fetch(`${t.url}/graphql`, { headers: { accept: 'text/html' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-frame-options')).toBe('DENY');
    const csp = res.headers.get('content-security-policy') ?? '';
    const directives = new Map(csp.split(';').map((d) => d.trim().split(/\s+/)).map(([k, ...v]) => [k, v]));
    expect(csp).not.toMatch(/unsafe-inline|unsafe-eval|\*/);
    expect(directives.get('default-src')).toEqual(["'none'"]);
    expect(directives.get('frame-ancestors')).toEqual(["'none'"]);
    expect(directives.get('connect-src')).toEqual(["'self'"]);
    const html = await res.text();
    const sha = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;
    const inlineScripts = [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => m[1]);
    const inlineStyles = [...html.matchAll(/<style>([\s\S]*?)<\/style>/g)].map((m) => m[1]);
    expect(inlineScripts).toHaveLength(1);
    expect(directives.get('script-src')).toEqual(["'self'", ...inlineScripts.map(sha)]);
    expect(directives.get('style-src')).toEqual(["'self'", ...inlineStyles.map(sha)]);
  });
});

describe('npm start: demo seeding and the banner', () => {
  let dir: string;
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gw-prod-'));
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('does not seed the demo with NODE_ENV=production unless SEED_DEMO=true', async () => {
    const server = await startServerProcess({ DATABASE_URL: `sqlite:${path.join(dir, 'prod.sqlite')}`, NODE_ENV: 'production', LOG_LEVEL: 'warn' });
    try {
      const out = await banner(server);
      expect(out).toContain('Gateway ready');
      expect(out).not.toMatch(/Demo tokens|gwc_|gwf_|access key/i);
      const res = await fetch(`${server.url}/users/alice`);
      expect(res.status).toBe(404);
    } finally {
      await stop(server);
    }
    expect(fs.existsSync(path.join(dir, 'prod.sqlite.demo-credentials.json'))).toBe(false);
  }, 60_000);

  it('prints the access-key secret on the run that created it only, and never stores it', async () => {
    const env = { DATABASE_URL: `sqlite:${path.join(dir, 'demo.sqlite')}`, LOG_LEVEL: 'warn' };
    const first = await startServerProcess(env);
    let keyId: string;
    let secret: string;
    let tokens: string[];
    try {
      const out = await banner(first);
      const m = /Demo workflow access key \(alice\): (\S+) \/ (\S+)/.exec(out);
      expect(m).not.toBeNull();
      [, keyId, secret] = m!;
      expect(secret.length).toBeGreaterThanOrEqual(20);
      tokens = [...out.matchAll(/\b(gw[a-z]_\w+)/g)].map((x) => x[1]);
      expect(tokens.length).toBeGreaterThan(0);
    } finally {
      await stop(first);
    }
    const file = path.join(dir, 'demo.sqlite.demo-credentials.json');
    const stored = fs.readFileSync(file, 'utf8');
    expect(stored).toContain(keyId);
    expect(stored).not.toContain(secret);

    const second = await startServerProcess(env);
    try {
      const out = await banner(second);
      expect(out).toContain(keyId);
      expect(out).not.toContain(secret);
      // Tokens are still shown on later runs (local demo convenience; they live in the 0600 file).
      for (const token of tokens) expect(out).toContain(token);
    } finally {
      await stop(second);
    }
  }, 60_000);

  it('drops an access-key secret left in a credentials file by an older version, without printing it', async () => {
    const env = { DATABASE_URL: `sqlite:${path.join(dir, 'old.sqlite')}`, LOG_LEVEL: 'warn' };
    const first = await startServerProcess(env);
    await banner(first);
    await stop(first);
    const file = path.join(dir, 'old.sqlite.demo-credentials.json');
    const creds = JSON.parse(fs.readFileSync(file, 'utf8'));
    creds.accessKeys[0].secretAccessKey = 'OLDVERSIONSECRET0123456789abcdefghijklmn';
    fs.writeFileSync(file, JSON.stringify(creds));

    const second = await startServerProcess(env);
    try {
      const out = await banner(second);
      expect(out).toContain(creds.accessKeys[0].accessKeyId);
      expect(out).not.toContain('OLDVERSIONSECRET');
    } finally {
      await stop(second);
    }
    expect(fs.readFileSync(file, 'utf8')).not.toContain('OLDVERSIONSECRET');
  }, 60_000);
});
