/**
 * The GraphQL playground: GraphiQL 4 (prebuilt UMD bundle) with React 18 UMD, all served from
 * node_modules by this server, so it works with no network access at all (no CDN).
 *
 * Links can prefill the editors through the URL fragment, e.g.
 *   /graphql#query={viewer{login}}&headers={"Authorization":"Bearer gwc_..."}
 * (URL-encoded; keys query, variables, headers). The fragment, not the search string: the server
 * answers GET /graphql?query=... as a GraphQL request, and a fragment never leaves the browser, so a
 * token in it stays out of access logs, proxies and Referer headers.
 */
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';

const ASSETS: Record<string, { file: string; type: string }> = {
  'react.production.min.js': { file: 'react/umd/react.production.min.js', type: 'text/javascript; charset=utf-8' },
  'react-dom.production.min.js': { file: 'react-dom/umd/react-dom.production.min.js', type: 'text/javascript; charset=utf-8' },
  'graphiql.min.js': { file: 'graphiql/dist/index.umd.js', type: 'text/javascript; charset=utf-8' },
  'graphiql.min.css': { file: 'graphiql/dist/style.css', type: 'text/css; charset=utf-8' },
};

const cache = new Map<string, Buffer>();

/** Walk up from this file to the node_modules that holds `rel` (works from src/ under ts-jest and from dist/). */
function findInNodeModules(rel: string): string {
  let dir = __dirname;
  for (;;) {
    const candidate = path.join(dir, 'node_modules', rel);
    if (fs.existsSync(candidate)) return candidate;
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error(`playground asset ${rel} not found in node_modules`);
    dir = parent;
  }
}

export const PLAYGROUND_ASSET_PREFIX = '/graphql/assets/';

export function playgroundAsset(name: string): { body: Buffer; type: string } | null {
  const a = ASSETS[name];
  if (!a) return null;
  let body = cache.get(name);
  if (!body) {
    body = fs.readFileSync(findInNodeModules(a.file));
    cache.set(name, body);
  }
  return { body, type: a.type };
}

function escapeForScript(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c').replace(/>/g, '\\u003e').replace(/&/g, '\\u0026');
}

const DEFAULT_QUERY = `# Welcome to the gateway playground.
# Put a token in the Headers tab, e.g. {"Authorization": "Bearer gwc_..."}
# (npm start prints demo tokens), then run this query with the play button.
query Viewer {
  viewer {
    login
    name
  }
  organization(login: "acme") {
    login
    repositories(first: 5) {
      totalCount
      nodes { nameWithOwner isPrivate }
    }
  }
}
`;

const PAGE_STYLE = 'html,body,#graphiql{height:100%;margin:0;overflow:hidden}';

function pageScript(endpoint: string): string {
  return `
  (function () {
    var endpoint = ${escapeForScript(endpoint)};
    // Prefill the editors from the URL fragment (see the module comment); the search string is read
    // too, but GET /graphql?query=... is a GraphQL-over-HTTP request and never reaches this page.
    var prefill = {};
    [window.location.search, window.location.hash].forEach(function (part) {
      var params = new URLSearchParams(part.replace(/^[?#]/, ''));
      ['query', 'variables', 'headers'].forEach(function (key) {
        var value = params.get(key);
        if (value !== null && value !== '') prefill[key] = value;
      });
    });
    var fetcher = GraphiQL.createFetcher({ url: endpoint });
    var root = ReactDOM.createRoot(document.getElementById('graphiql'));
    root.render(React.createElement(GraphiQL, {
      fetcher: fetcher,
      defaultQuery: ${escapeForScript(DEFAULT_QUERY)},
      query: prefill.query,
      variables: prefill.variables,
      headers: prefill.headers,
      defaultEditorToolsVisibility: 'headers',
      shouldPersistHeaders: true
    }));
  })();
`;
}

function cspHash(text: string): string {
  return `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
}

/**
 * The page and the headers it must be sent with: a Content-Security-Policy that allows only this
 * server's assets plus the page's one inline script and style, pinned by their SHA-256 (no
 * 'unsafe-inline', no eval), and no framing (clickjacking: the page holds a token in its headers editor).
 */
export function playgroundPage(opts: { endpoint: string; title?: string }): { html: string; headers: Record<string, string> } {
  const a = PLAYGROUND_ASSET_PREFIX;
  const script = pageScript(opts.endpoint);
  const title = (opts.title ?? 'GraphQL gateway playground').replace(/[<>&"]/g, (c) => `&#${c.charCodeAt(0)};`);
  const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title>
<link rel="stylesheet" href="${a}graphiql.min.css">
<style>${PAGE_STYLE}</style>
</head>
<body>
<div id="graphiql">Loading…</div>
<script src="${a}react.production.min.js"></script>
<script src="${a}react-dom.production.min.js"></script>
<script src="${a}graphiql.min.js"></script>
<script>${script}</script>
</body>
</html>`;
  const csp = [
    "default-src 'none'",
    `script-src 'self' ${cspHash(script)}`,
    `style-src 'self' ${cspHash(PAGE_STYLE)}`,
    "img-src 'self' data:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
  return {
    html,
    headers: {
      'content-security-policy': csp,
      'x-frame-options': 'DENY',
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
    },
  };
}
