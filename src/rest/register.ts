/**
 * Turns route-table rows into Fastify routes: build the shared request context, run the family's checks, map
 * the request onto the service input, call the service, present the result. Rows of an RPC-style family
 * (one with an `operationHeader`, e.g. AWS JSON's X-Amz-Target) that share a method and path become ONE
 * Fastify route that dispatches on the operation; an unknown operation is the family's own error.
 * Errors are answered by the server's error handler through the route's family adapter.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppDeps, RequestContext } from '../context';
import { createContext } from '../context';
import { ValidationError } from '../errors/app-error';
import { REQUEST_CODES } from '../errors/codes';
import type { Language } from '../i18n';
import type { ErrorReply, RestFamily } from './family';
import { FAMILIES, familyNamed } from './families';
import { fieldRenamer } from './params';
import { RestRequest, RestRoute, toFastifyPath } from './route-table';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set once the request context exists (REST and GraphQL). */
    appContext?: RequestContext;
    /** The REST family that answers errors for this request. */
    restFamily?: RestFamily;
    /** The route row serving this request (its parameters rename error fields). */
    restRoute?: RestRoute<any, any>;
    /** The body bytes as received (kept by the content-type parsers, see server.ts). */
    rawBody?: Buffer;
    /** GraphQL operation name, for the request log line. */
    graphqlOperation?: string;
    /** The content language a REST request chose (its family's preHandler found it): error replies use it. */
    restLanguage?: Language;
  }
}

/** PUBLIC_URL + the request path (keeps a path prefix such as https://host/api/v3). */
export function absoluteRequestUrl(publicUrl: string, rawUrl: string): URL {
  return new URL(publicUrl.replace(/\/+$/, '') + rawUrl);
}

function toRestRequest(req: FastifyRequest, publicUrl: string): RestRequest {
  let url: URL | undefined;
  return {
    method: req.method,
    params: (req.params ?? {}) as Record<string, string>,
    query: (req.query ?? {}) as Record<string, string | string[] | undefined>,
    body: req.body,
    headers: req.headers,
    // parsed when a route reads it (few do; a URL per request showed in StartExecution's profile)
    get url() {
      return (url ??= absoluteRequestUrl(publicUrl, req.url));
    },
    target: req.raw.url ?? req.url,
    rawBody: req.rawBody,
    raw: req,
  };
}

/** The error reply of an AppError thrown while serving `route`: field names as the client sent them. */
export function routeErrorReply(
  family: RestFamily,
  route: RestRoute<any, any> | undefined,
  e: import('../errors/app-error').AppError,
  language?: Language,
): ErrorReply {
  return family.errorReply(e, fieldRenamer(route?.parameters, family.fieldName, route?.names), language);
}

/** An answer body as the family encodes it (its `serialize`, else Fastify's JSON). */
export function familyBody(family: Pick<RestFamily, 'serialize'>, body: unknown): unknown {
  return family.serialize ? family.serialize(body) : body;
}

/** The rows to serve: the domains' rows plus the ones each family derives from them (WordPress: index, /doc). */
export function withGeneratedRoutes(routes: RestRoute<any, any>[]): RestRoute<any, any>[] {
  const extra = Object.values(FAMILIES).flatMap((f) => f.generatedRoutes?.(routes) ?? []);
  return extra.length ? [...routes, ...extra] : routes;
}

async function serve(deps: AppDeps, r: RestRoute<any, any>, family: RestFamily, req: FastifyRequest, reply: import('fastify').FastifyReply) {
  req.restRoute = r;
  // Octokit sends an empty body when a PATCH has no body fields: treat it as "no fields" (the service's 422).
  if (req.body === '') req.body = undefined;
  const rr = toRestRequest(req, deps.config.publicUrl);
  try {
    family.preHandler?.(rr, r);
  } finally {
    req.restLanguage = rr.language;
  }
  // A family's own authentication (AWS: SigV4) comes before any look at the body, as AWS orders it.
  const viewer = family.authenticate ? await family.authenticate(rr, deps) : undefined;
  if (r.method !== 'GET' && r.method !== 'DELETE' && req.body !== undefined && req.body !== null && r.requestBody) {
    if (typeof req.body !== 'object' || Array.isArray(req.body)) {
      throw new ValidationError('Body should be a JSON object', { domainCode: REQUEST_CODES.BODY_NOT_OBJECT });
    }
  }
  // The client hanging up before the answer aborts this (a long poll stops waiting). Made when a route reads it
  // (long polls, Express executions): most requests never do, and an AbortController per request showed in profiles.
  let gone: AbortController | undefined;
  let hungUp = false;
  reply.raw.once('close', () => {
    if (reply.raw.writableFinished) return;
    hungUp = true;
    gone?.abort();
  });
  const http = {
    method: rr.method,
    target: rr.target,
    headers: rr.headers,
    rawBody: rr.rawBody,
    get signal() {
      if (!gone) {
        gone = new AbortController();
        if (hungUp) gone.abort();
      }
      return gone.signal;
    },
  };
  const ctx = await createContext(
    deps,
    {
      id: req.id,
      headers: req.headers,
      log: req.log,
      http,
      language: rr.language,
      response: reply.raw,
    },
    viewer,
  );
  req.appContext = ctx;
  const input = await r.input(rr, ctx);
  const result = await r.handle(ctx, input);
  const out = await r.present(result, ctx, rr, input);
  if (out.headers) reply.headers(out.headers);
  reply.code(out.status ?? 200);
  if (out.body === undefined) return reply.send();
  if (out.contentType) return reply.type(out.contentType).send(out.body);
  // A body the route already encoded the family's way (e.g. list answers made of memoized texts, ./text-memo.ts).
  if (Buffer.isBuffer(out.body)) return reply.type(family.mediaType).send(out.body);
  const body = familyBody(family, out.body);
  return reply.type(family.mediaType).send(family.asciiBodies && typeof body === 'string' ? Buffer.from(body, 'latin1') : body);
}

function headerValue(req: FastifyRequest, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
}

/**
 * Serve `routes` (pass them through withGeneratedRoutes first to get the families' derived rows too). A
 * family with `trailingSlash` answers each path also with a trailing slash.
 */
export function registerRoutes(app: FastifyInstance, deps: AppDeps, routes: RestRoute<any, any>[]): void {
  // Rows by method and path: one Fastify route each; several rows only when keyed by operation.
  const groups = new Map<string, RestRoute<any, any>[]>();
  for (const r of routes) {
    const key = `${r.method} ${toFastifyPath(r.path)}`;
    groups.set(key, [...(groups.get(key) ?? []), r]);
  }
  for (const rows of groups.values()) {
    const first = rows[0];
    const family = familyNamed(first.family);
    const where = `${first.method} ${first.path}`;
    if (rows.some((r) => r.family !== first.family)) throw new Error(`rest: rows of several families share ${where}`);
    if (!family.operationHeader) {
      if (rows.length > 1) throw new Error(`rest: ${rows.length} rows for ${where} (the ${family.name} family routes by path)`);
      const url = toFastifyPath(first.path);
      const urls = family.trailingSlash && !url.endsWith('/') ? [url, `${url}/`] : [url];
      for (const u of urls) {
        app.route({
          method: first.method,
          url: u,
          handler: async (req, reply) => {
            req.restFamily = family;
            return serve(deps, first, family, req, reply);
          },
        });
      }
      continue;
    }
    const header = family.operationHeader;
    const byOperation = new Map<string, RestRoute<any, any>>();
    for (const r of rows) {
      if (!r.operation) throw new Error(`rest: ${r.operationId} (${where}) needs an operation: the ${family.name} family routes by ${header}`);
      if (byOperation.has(r.operation)) throw new Error(`rest: two rows for operation ${r.operation} on ${where}`);
      byOperation.set(r.operation, r);
    }
    const url = toFastifyPath(first.path);
    const urls = family.trailingSlash && !url.endsWith('/') ? [url, `${url}/`] : [url];
    for (const u of urls) {
      app.route({
        method: first.method,
        url: u,
        handler: async (req, reply) => {
          req.restFamily = family;
          const operation = headerValue(req, header);
          const r = operation === undefined ? undefined : byOperation.get(operation);
          if (!r) {
            const e = family.unknownOperation(operation, req.method, req.url.split('?')[0]);
            if (e.headers) reply.headers(e.headers);
            return reply.code(e.status).type(family.mediaType).send(familyBody(family, e.body));
          }
          return serve(deps, r, family, req, reply);
        },
      });
    }
  }
}
