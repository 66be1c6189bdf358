/**
 * Turns route-table rows into Fastify routes: build the shared request context, map the request onto the
 * service input, call the service, present the result. Errors are mapped by the server's error handler
 * in the style of the route's family.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppDeps, RequestContext } from '../context';
import { createContext } from '../context';
import { ValidationError } from '../errors/app-error';
import { RestRequest, RestRoute, toFastifyPath } from './route-table';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set once the request context exists (REST and GraphQL). */
    appContext?: RequestContext;
    /** The REST family that answers errors for this request. */
    restFamily?: 'github' | 'wordpress' | 'aws';
    /** GraphQL operation name, for the request log line. */
    graphqlOperation?: string;
  }
}

/** PUBLIC_URL + the request path (keeps a path prefix such as https://host/api/v3). */
export function absoluteRequestUrl(publicUrl: string, rawUrl: string): URL {
  return new URL(publicUrl.replace(/\/+$/, '') + rawUrl);
}

function toRestRequest(req: FastifyRequest, publicUrl: string): RestRequest {
  return {
    params: (req.params ?? {}) as Record<string, string>,
    query: (req.query ?? {}) as Record<string, string | string[] | undefined>,
    body: req.body,
    headers: req.headers,
    url: absoluteRequestUrl(publicUrl, req.url),
    raw: req,
  };
}

export interface FamilyHooks {
  /** Checks every request of the family before the handler (e.g. GitHub's API version header). */
  preHandler?: (req: FastifyRequest) => void;
}

export function registerRoutes(app: FastifyInstance, deps: AppDeps, routes: RestRoute<any, any>[], hooks: Partial<Record<string, FamilyHooks>> = {}): void {
  for (const r of routes) {
    app.route({
      method: r.method,
      url: toFastifyPath(r.path),
      handler: async (req, reply) => {
        req.restFamily = r.family;
        hooks[r.family]?.preHandler?.(req);
        // Octokit sends an empty body when a PATCH has no body fields: treat it as "no fields" (the service's 422).
        if (req.body === '') req.body = undefined;
        if (r.method !== 'GET' && r.method !== 'DELETE' && req.body !== undefined && req.body !== null && r.requestBody) {
          if (typeof req.body !== 'object' || Array.isArray(req.body)) {
            throw new ValidationError('Body should be a JSON object', { status: 400 });
          }
        }
        const ctx = await createContext(deps, { id: req.id, headers: req.headers, log: req.log });
        req.appContext = ctx;
        const rr = toRestRequest(req, deps.config.publicUrl);
        const input = await r.input(rr, ctx);
        const result = await r.handle(ctx, input);
        const out = await r.present(result, ctx, rr);
        if (out.headers) reply.headers(out.headers);
        reply.code(out.status ?? 200);
        if (out.body === undefined) return reply.send();
        return reply.type(r.family === 'aws' ? 'application/x-amz-json-1.0' : 'application/json; charset=utf-8').send(out.body);
      },
    });
  }
}
