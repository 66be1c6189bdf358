/**
 * The browser playground (GET /graphql, Accept: text/html) in real headless Chromium: GraphiQL 4 renders
 * and runs a query with only our own server on the network (no CDN, no third-party host at all).
 *
 * Uses Debian's /usr/bin/chromium through playwright-core (`npx playwright install` is not available).
 * A missing browser FAILS this file: CI installs chromium, so a skip would hide a broken setup.
 */
import * as fs from 'node:fs';
import { Browser, BrowserContext, chromium, Page } from 'playwright-core';
import { IdentityFixtures } from '../fixtures/identity';
import { startTestApp, TestApp } from '../helpers/app';

const CHROMIUM = '/usr/bin/chromium';
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-quic',
  '--no-first-run',
  '--disable-component-update',
  '--disable-sync',
];
/** Timeouts are generous: a slow 2-core CI machine parses a 1 MB bundle while jest runs other files. */
const UI_TIMEOUT = 20_000;
const SCREENSHOT = process.env.PLAYGROUND_SCREENSHOT; // e.g. /tmp/playground.png while developing

const LOCAL_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** Requests that stay in the browser or go to this machine; anything else breaks the offline promise. */
function isLocal(url: string): boolean {
  const u = new URL(url);
  if (u.protocol === 'data:' || u.protocol === 'blob:' || u.protocol === 'about:') return true;
  return (u.protocol === 'http:' || u.protocol === 'https:' || u.protocol === 'ws:' || u.protocol === 'wss:') && LOCAL_HOSTS.has(u.hostname);
}

// GraphiQL 4 still uses CodeMirror 5: each editor's wrapper element carries its instance as `.CodeMirror`.
const QUERY_EDITOR = '.graphiql-query-editor .CodeMirror';
const HEADERS_EDITOR = '.graphiql-editor-tool .graphiql-editor:not(.hidden) .CodeMirror';
const RESULT_EDITOR = '.result-window .CodeMirror';

/** The slice of the DOM the in-page function uses (tsconfig has no "dom" lib; this runs in the browser). */
type PageDocument = { querySelector(selector: string): { CodeMirror?: { getValue(): string } } | null };

/** Runs in the page (serialized by Playwright, so self-contained): the editor's text once it contains `text`. */
function editorTextContaining({ selector, text }: { selector: string; text: string }): string | false {
  const doc = (globalThis as unknown as { document: PageDocument }).document;
  const value = doc.querySelector(selector)?.CodeMirror?.getValue();
  return value !== undefined && value.includes(text) ? value : false;
}

function assertChromiumInstalled(): void {
  try {
    fs.accessSync(CHROMIUM, fs.constants.X_OK);
  } catch {
    throw new Error(
      `Chromium is required for the playground e2e test but ${CHROMIUM} is missing or not executable. ` +
        'Install it (Debian/Ubuntu: apt-get install -y chromium); this test never skips.',
    );
  }
}

describe('GraphiQL playground in headless Chromium (offline)', () => {
  let t: TestApp;
  let browser: Browser | undefined;
  let context: BrowserContext | undefined;
  let page: Page;
  let token: string;
  let login: string;
  const requests: string[] = [];
  const consoleErrors: string[] = [];
  const pageErrors: string[] = [];
  const failedRequests: string[] = [];

  beforeAll(async () => {
    assertChromiumInstalled();
    // Browser start and server start are independent: overlap them (and keep whichever started, so
    // afterAll can stop it when the other one failed).
    const [b, app] = await Promise.allSettled([
      chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, timeout: UI_TIMEOUT }),
      startTestApp(),
    ]);
    if (b.status === 'fulfilled') browser = b.value;
    if (app.status === 'fulfilled') t = app.value;
    if (b.status === 'rejected') throw new Error(`Could not start ${CHROMIUM}: ${String(b.reason?.message ?? b.reason)}`);
    if (app.status === 'rejected') throw app.reason;
    const f = new IdentityFixtures(t.db.dataSource);
    login = `pgviewer${Date.now().toString(36)}`;
    const user = await f.user(login);
    token = await f.classicToken(user, ['repo']);

    context = await browser!.newContext({ serviceWorkers: 'block', viewport: { width: 1280, height: 800 } });
    // Record everything the page asks for, and make sure nothing external could ever be fetched (the
    // recorded list still shows the attempt, so the assertion below fails instead of hanging on a CDN).
    context.on('request', (req) => void requests.push(req.url()));
    await context.route(
      (url) => !isLocal(url.href),
      (route) => route.abort('blockedbyclient'),
    );
    page = await context.newPage();
    page.setDefaultTimeout(UI_TIMEOUT);
    page.on('console', (msg) => {
      if (msg.type() === 'error') consoleErrors.push(`${msg.text()} @ ${msg.location().url}`);
    });
    page.on('pageerror', (err) => void pageErrors.push(String(err.stack ?? err)));
    page.on('requestfailed', (req) => void failedRequests.push(`${req.method()} ${req.url()}: ${req.failure()?.errorText}`));
  }, 30_000);

  afterAll(async () => {
    await context?.close().catch(() => undefined);
    await browser?.close().catch(() => undefined);
    await t?.close();
  });

  it('serves an HTML page that references only its own assets', async () => {
    const res = await fetch(`${t.url}/graphql`, { headers: { accept: 'text/html,application/xhtml+xml' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await res.text();
    const absolute = html.match(/\b(?:https?:)?\/\/[^\s"'`<>)]+/g) ?? [];
    expect(absolute.filter((u) => !/^(?:https?:)?\/\/(?:127\.0\.0\.1|localhost)(?:[:/]|$)/.test(u))).toEqual([]);

    const assets = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]);
    expect(assets.sort()).toEqual(
      [
        '/graphql/assets/graphiql.min.css',
        '/graphql/assets/graphiql.min.js',
        '/graphql/assets/react-dom.production.min.js',
        '/graphql/assets/react.production.min.js',
      ].sort(),
    );
    for (const asset of assets) {
      const a = await fetch(`${t.url}${asset}`);
      expect({ asset, status: a.status }).toEqual({ asset, status: 200 });
      expect(a.headers.get('content-type')).toMatch(asset.endsWith('.css') ? /^text\/css/ : /^text\/javascript/);
      expect((await a.arrayBuffer()).byteLength).toBeGreaterThan(1000);
    }
  });

  it('renders GraphiQL and runs { viewer { login } } with the token from the headers editor', async () => {
    const query = '{ viewer { login } }';
    const headers = JSON.stringify({ Authorization: `Bearer ${token}` });
    const fragment = new URLSearchParams({ query, headers }).toString();

    const response = await page.goto(`${t.url}/graphql#${fragment}`, { waitUntil: 'load' });
    expect(response?.status()).toBe(200);

    // GraphiQL mounted (React replaced the "Loading…" placeholder) with our prefilled editors; the
    // headers editor is the visible tool (defaultEditorToolsVisibility: 'headers').
    await page.waitForSelector(`.graphiql-container ${QUERY_EDITOR}`);
    const queryHandle = await page.waitForFunction(editorTextContaining, { selector: QUERY_EDITOR, text: 'viewer' });
    expect(await queryHandle.jsonValue()).toBe(query);
    const headersHandle = await page.waitForFunction(editorTextContaining, { selector: HEADERS_EDITOR, text: token });
    expect(await headersHandle.jsonValue()).toBe(headers);

    const execute = page.locator('button.graphiql-execute-button');
    await execute.waitFor({ state: 'visible' });
    const graphqlPost = page.waitForRequest(
      (req) => req.method() === 'POST' && new URL(req.url()).pathname === '/graphql' && (req.postData() ?? '').includes('viewer'),
    );
    await execute.click();
    const sent = await graphqlPost;
    expect((await sent.allHeaders()).authorization).toBe(`Bearer ${token}`);

    // The result pane shows the viewer's login.
    const handle = await page.waitForFunction(editorTextContaining, { selector: RESULT_EDITOR, text: '"login"' });
    const result = JSON.parse((await handle.jsonValue()) as string);
    expect(result).toEqual({ data: { viewer: { login } } });
    expect(await page.locator('.result-window').innerText()).toContain(login);

    if (SCREENSHOT) await page.screenshot({ path: SCREENSHOT });
    if (process.env.PLAYGROUND_DEBUG) console.log({ requests, consoleErrors, pageErrors, failedRequests });

    // Offline proof: every request the page made went to this server (or stayed in the browser).
    expect(requests.length).toBeGreaterThan(0);
    expect(requests.filter((u) => !isLocal(u))).toEqual([]);
    const paths = new Set(requests.map((u) => new URL(u).pathname));
    for (const p of ['/graphql', '/graphql/assets/graphiql.min.js', '/graphql/assets/graphiql.min.css', '/graphql/assets/react.production.min.js']) {
      expect(paths).toContain(p);
    }
    // The token travelled in the URL fragment and the request header only: never in a URL or a log line.
    expect(requests.filter((u) => u.includes(token))).toEqual([]);
    expect(JSON.stringify(t.logs)).not.toContain(token);
    expect(failedRequests).toEqual([]);
    expect(pageErrors).toEqual([]);
    expect(consoleErrors).toEqual([]);
  });
});
