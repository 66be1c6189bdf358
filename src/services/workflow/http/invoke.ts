/**
 * The HTTP task (`arn:aws:states:::http:invoke`, also with `.waitForTaskToken`), as Step Functions runs it:
 * Parameters `ApiEndpoint`, `Method`, `Authentication.ConnectionArn` (required), `Headers`, `QueryParameters`,
 * `RequestBody`, `Transform` {`RequestBodyEncoding` NONE | URL_ENCODED, `RequestEncodingOptions.ArrayFormat`
 * INDICES | REPEAT | COMMAS | BRACKETS}. The connection's credential is added to the request (its header wins over
 * the task's). The output is `{ Headers, ResponseBody, StatusCode, StatusText }` (ResponseBody parsed when it is
 * JSON); a non-2xx answer fails the task with `States.Http.StatusCode.<code>` (the cause is that output as JSON),
 * a timeout or a broken connection with `States.Http.Socket`, an `http://` ApiEndpoint whose host no `http://` entry of
 * WORKFLOW_HTTP_ALLOW lists with `States.Runtime` (Step Functions calls only https:// endpoints), an unknown connection with
 * `Events.ConnectionResource.ResourceNotFound`, a connection that cannot authenticate with
 * `Events.ConnectionResource.InvalidConnectionState`, a destination outside WORKFLOW_HTTP_ALLOW with `Forbidden`,
 * an answer over WORKFLOW_HTTP_MAX_RESPONSE_BYTES with `States.DataLimitExceeded`.
 */
import type { RequestContext } from '../../../context';
import { AppError } from '../../../errors/app-error';
import type { Json } from '../engine';
import { TaskFailure } from '../engine';
import type { ConnectionCredentials, WorkflowConnectionService } from '../connections.service';
import { WORKFLOW_CODES } from '../error-codes';
import { allowListOf } from './allow-list';
import { HttpFailure, safeRequest, SafeResponse } from './safe-request';

export const HTTP_INVOKE = 'arn:aws:states:::http:invoke';

const METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'HEAD'];
const ARRAY_FORMATS = ['INDICES', 'REPEAT', 'COMMAS', 'BRACKETS'] as const;
type ArrayFormat = (typeof ARRAY_FORMATS)[number];
const KEYS = new Set(['ApiEndpoint', 'Method', 'Authentication', 'InvocationConfig', 'Headers', 'QueryParameters', 'RequestBody', 'Transform']);
/** Headers a task may not set (Step Functions refuses them; the transport or the connection owns them). */
const FORBIDDEN_HEADER = /^(authorization|host|connection|keep-alive|transfer-encoding|te|trailer|upgrade|content-length|accept-encoding|expect|proxy-.*|x-amz-.*|x-amzn-.*|x-forwarded-.*)$/i;
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const MAX_CAUSE = 32_768;
export const PLAIN_HTTP_REFUSED = 'ApiEndpoint must be an https:// URL (plain http:// is called only for destinations WORKFLOW_HTTP_ALLOW lists with an http:// entry)';

type JsonObject = { [k: string]: Json };
const isObject = (v: unknown): v is JsonObject => v !== null && typeof v === 'object' && !Array.isArray(v);
const bad = (message: string) => new TaskFailure('States.Runtime', `HTTP task: ${message}`);

function scalarText(v: Json, what: string): string {
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  throw bad(`${what} must be a string, number or boolean`);
}

/** `application/x-www-form-urlencoded` of an object, arrays as the ArrayFormat says (nested objects as a[b]=c). */
export function urlEncode(body: JsonObject, format: ArrayFormat): string {
  const parts: string[] = [];
  const add = (k: string, v: string): void => void parts.push(`${encodeURIComponent(k)}=${encodeURIComponent(v)}`);
  const walk = (key: string, v: Json): void => {
    if (v === null) return add(key, '');
    if (Array.isArray(v)) {
      if (format === 'COMMAS' && v.every((x) => x === null || typeof x !== 'object')) return add(key, v.map((x) => (x === null ? '' : String(x))).join(','));
      v.forEach((x, i) => walk(format === 'INDICES' || format === 'COMMAS' ? `${key}[${i}]` : format === 'BRACKETS' ? `${key}[]` : key, x));
      return;
    }
    if (typeof v === 'object') {
      for (const [k, x] of Object.entries(v)) walk(`${key}[${k}]`, x);
      return;
    }
    add(key, String(v));
  };
  for (const [k, v] of Object.entries(body)) walk(k, v);
  return parts.join('&');
}

interface Prepared {
  url: URL;
  method: string;
  headers: Record<string, string>;
  body?: Buffer;
  connectionArn: string;
}

function prepare(input: Json): Prepared {
  if (!isObject(input)) throw bad('Parameters must be an object');
  const unknown = Object.keys(input).filter((k) => !KEYS.has(k));
  if (unknown.length) throw bad(`unknown field ${JSON.stringify(unknown[0].slice(0, 64))} (fields: ${[...KEYS].join(', ')})`);
  if (typeof input.ApiEndpoint !== 'string' || !input.ApiEndpoint) throw bad('ApiEndpoint is required (a URL)');
  let url: URL;
  try {
    url = new URL(input.ApiEndpoint);
  } catch {
    throw bad('ApiEndpoint must be an absolute https URL');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw bad('ApiEndpoint must be an absolute https URL');
  if (url.username || url.password) throw bad('ApiEndpoint must not carry credentials (use a connection)');
  url.hash = '';
  if (typeof input.Method !== 'string' || !METHODS.includes(input.Method.toUpperCase())) throw bad(`Method must be one of ${METHODS.join(', ')}`);
  const method = input.Method.toUpperCase();
  const auth = isObject(input.Authentication) ? input.Authentication : isObject(input.InvocationConfig) ? input.InvocationConfig : null;
  if (!auth || typeof auth.ConnectionArn !== 'string' || !auth.ConnectionArn) throw bad('Authentication.ConnectionArn is required');

  const headers: Record<string, string> = {};
  if (input.Headers !== undefined && input.Headers !== null) {
    if (!isObject(input.Headers)) throw bad('Headers must be an object');
    for (const [k, v] of Object.entries(input.Headers)) {
      if (!HEADER_NAME.test(k)) throw bad(`${JSON.stringify(k.slice(0, 64))} is not a header name`);
      if (FORBIDDEN_HEADER.test(k)) throw bad(`the header ${k} may not be set by the task`);
      const text = scalarText(v, `Headers.${k}`);
      if (/[\r\n\u0000]/.test(text)) throw bad(`Headers.${k} must not contain line breaks`);
      headers[k.toLowerCase()] = text;
    }
  }
  if (input.QueryParameters !== undefined && input.QueryParameters !== null) {
    if (!isObject(input.QueryParameters)) throw bad('QueryParameters must be an object');
    for (const [k, v] of Object.entries(input.QueryParameters)) {
      if (Array.isArray(v)) for (const x of v) url.searchParams.append(k, scalarText(x, `QueryParameters.${k}`));
      else url.searchParams.append(k, scalarText(v, `QueryParameters.${k}`));
    }
  }
  let encoding = 'NONE';
  let format: ArrayFormat = 'INDICES';
  if (input.Transform !== undefined) {
    if (!isObject(input.Transform)) throw bad('Transform must be an object');
    const t = input.Transform;
    if (t.RequestBodyEncoding !== undefined) {
      if (t.RequestBodyEncoding !== 'NONE' && t.RequestBodyEncoding !== 'URL_ENCODED') throw bad('Transform.RequestBodyEncoding must be NONE or URL_ENCODED');
      encoding = t.RequestBodyEncoding;
    }
    if (t.RequestEncodingOptions !== undefined) {
      const o = t.RequestEncodingOptions;
      if (!isObject(o) || (o.ArrayFormat !== undefined && !(ARRAY_FORMATS as readonly Json[]).includes(o.ArrayFormat))) {
        throw bad(`Transform.RequestEncodingOptions.ArrayFormat must be one of ${ARRAY_FORMATS.join(', ')}`);
      }
      if (o.ArrayFormat !== undefined) format = o.ArrayFormat as ArrayFormat;
    }
  }
  let body: Buffer | undefined;
  const b = input.RequestBody;
  if (b !== undefined && method !== 'HEAD') {
    if (encoding === 'URL_ENCODED') {
      if (!isObject(b)) throw bad('RequestBody must be an object to be URL_ENCODED');
      body = Buffer.from(urlEncode(b, format));
      headers['content-type'] = 'application/x-www-form-urlencoded';
    } else if (typeof b === 'string') {
      body = Buffer.from(b);
      headers['content-type'] ??= 'text/plain; charset=utf-8';
    } else {
      body = Buffer.from(JSON.stringify(b));
      headers['content-type'] ??= 'application/json';
    }
  }
  return { url, method, headers, body, connectionArn: auth.ConnectionArn };
}

/* ------------------------------------------------------------------------------------------------ OAuth */

/** Access tokens of OAuth connections, per connection row, until shortly before they expire (bounded). */
const tokens = new Map<string, { token: string; until: number }>();
const MAX_CACHED_TOKENS = 1000;

async function oauthToken(c: ConnectionCredentials, request: (url: URL, method: string, headers: Record<string, string>, body?: Buffer) => Promise<SafeResponse>): Promise<string> {
  const cached = tokens.get(c.cacheKey);
  if (cached && cached.until > Date.now()) return cached.token;
  const endpoint = new URL(c.params.authorizationEndpoint!);
  const form = new URLSearchParams({ grant_type: 'client_credentials' });
  if (c.params.scope) form.set('scope', c.params.scope);
  const basic = Buffer.from(`${encodeURIComponent(c.params.clientId ?? '')}:${encodeURIComponent(c.secret)}`).toString('base64');
  const method = c.params.httpMethod ?? 'POST';
  let res: SafeResponse;
  if (method === 'GET') {
    for (const [k, v] of form) endpoint.searchParams.set(k, v);
    res = await request(endpoint, method, { authorization: `Basic ${basic}`, accept: 'application/json' });
  } else {
    res = await request(endpoint, method, { authorization: `Basic ${basic}`, accept: 'application/json', 'content-type': 'application/x-www-form-urlencoded' }, Buffer.from(form.toString()));
  }
  let parsed: unknown = null;
  try {
    parsed = JSON.parse(res.body.toString('utf8'));
  } catch {
    parsed = null;
  }
  const token = isObject(parsed as Json) ? (parsed as JsonObject).access_token : undefined;
  if (res.status < 200 || res.status > 299 || typeof token !== 'string' || !token) {
    throw new TaskFailure('Events.ConnectionResource.InvalidConnectionState', `The connection's OAuth token endpoint ${endpoint.origin}${endpoint.pathname} answered ${res.status} without an access_token`);
  }
  const expires = Number((parsed as JsonObject).expires_in);
  const lifetime = Number.isFinite(expires) && expires > 0 ? expires * 1000 : 3600_000;
  if (tokens.size >= MAX_CACHED_TOKENS) tokens.delete(tokens.keys().next().value!);
  tokens.set(c.cacheKey, { token, until: Date.now() + Math.max(0, lifetime - 30_000) });
  return token;
}

/* ------------------------------------------------------------------------------------------------ the task */

function output(res: SafeResponse): JsonObject {
  const text = res.body.toString('utf8');
  let body: Json = text;
  const type = res.headers['content-type']?.[0] ?? '';
  if (text && /[/+]json\b/i.test(type)) {
    try {
      body = JSON.parse(text) as Json;
    } catch {
      body = text;
    }
  }
  const headers: JsonObject = {};
  for (const [k, v] of Object.entries(res.headers)) headers[k] = v;
  return { Headers: headers, ResponseBody: body, StatusCode: res.status, StatusText: res.statusText };
}

/** TestState's TRACE: the request as sent and the answer (strings as Step Functions shows them). */
export interface HttpTrace {
  /** Show the connection's credential (TestState's revealSecrets); otherwise its headers are left out. */
  reveal: boolean;
  report(request: { protocol: string; method: string; url: string; headers: string; body: string }, response: { protocol: string; statusCode: string; statusMessage: string; headers: string; body: string }): void;
}

export async function httpInvoke(ctx: RequestContext, connections: WorkflowConnectionService, input: Json, signal: AbortSignal, trace?: HttpTrace): Promise<Json> {
  const p = prepare(input);
  const allow = allowListOf(ctx.config.workflowHttpAllow);
  // before the connection's secret is read: a plain-HTTP request would carry it in clear
  if (p.url.protocol === 'http:' && !allow.plainHttpAllowed(p.url.hostname)) throw bad(PLAIN_HTTP_REFUSED);
  const send = (url: URL, method: string, headers: Record<string, string>, body?: Buffer) =>
    safeRequest({ url, method, headers, body, allow, timeoutMs: ctx.config.workflowHttpTimeoutMs, maxResponseBytes: ctx.config.workflowHttpMaxResponseBytes, signal });
  try {
    let c: ConnectionCredentials;
    try {
      c = await connections.credentialsFor(ctx, p.connectionArn);
    } catch (e) {
      if (e instanceof AppError && e.domainCode === WORKFLOW_CODES.CONNECTION_DOES_NOT_EXIST) throw new TaskFailure('Events.ConnectionResource.ResourceNotFound', e.message);
      if (e instanceof AppError && e.domainCode === WORKFLOW_CODES.CONNECTION_INVALID_STATE) throw new TaskFailure('Events.ConnectionResource.InvalidConnectionState', e.message);
      throw e;
    }
    const headers: Record<string, string> = { 'user-agent': `Amazon|StepFunctions|HttpInvoke|${ctx.config.workflowRegion}`, ...p.headers };
    // the connection's credential wins over the task's headers
    if (c.type === 'API_KEY') headers[c.params.apiKeyName!.toLowerCase()] = c.secret;
    else if (c.type === 'BASIC') headers.authorization = `Basic ${Buffer.from(`${c.params.username}:${c.secret}`).toString('base64')}`;
    else headers.authorization = `Bearer ${await oauthToken(c, send)}`;
    const res = await send(p.url, p.method, headers, p.body);
    if (trace) {
      const shown: Record<string, string> = {};
      const secret = c.type === 'API_KEY' ? c.params.apiKeyName!.toLowerCase() : 'authorization';
      for (const [k, v] of Object.entries(headers)) if (trace.reveal || k !== secret) shown[k] = v;
      const protocol = p.url.protocol.replace(':', '');
      trace.report(
        { protocol, method: p.method, url: p.url.toString(), headers: JSON.stringify(shown), body: p.body ? p.body.toString('utf8') : '' },
        { protocol, statusCode: String(res.status), statusMessage: res.statusText, headers: JSON.stringify(res.headers), body: res.body.toString('utf8') },
      );
    }
    // A refused bearer token is not kept: the next attempt (a Retry) asks for a fresh one.
    if (c.type === 'OAUTH_CLIENT_CREDENTIALS' && res.status === 401) tokens.delete(c.cacheKey);
    const out = output(res);
    if (res.status < 200 || res.status > 299) {
      let cause = JSON.stringify(out);
      if (cause.length > MAX_CAUSE) cause = JSON.stringify({ StatusCode: out.StatusCode, StatusText: out.StatusText });
      throw new TaskFailure(`States.Http.StatusCode.${res.status}`, cause);
    }
    return out;
  } catch (e) {
    if (e instanceof HttpFailure) throw new TaskFailure(e.error, e.cause);
    throw e;
  }
}
