/**
 * The REST compatibility layer is declarative: each documented path is one row of a route table
 * (method, path, which service method, how path/query/body map onto its input, which presenter shapes
 * the answer, which error style the family uses). The same rows generate the OpenAPI documents.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { RequestContext } from '../context';

export type Family = 'github' | 'wordpress' | 'aws';
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface ParamSpec {
  name: string;
  in: 'path' | 'query' | 'header';
  required?: boolean;
  description?: string;
  schema: Record<string, unknown>;
}

export interface RestRequest {
  params: Record<string, string>;
  query: Record<string, string | string[] | undefined>;
  body: unknown;
  headers: FastifyRequest['headers'];
  /** The absolute URL of this request, built from PUBLIC_URL (for Link headers). */
  url: URL;
  raw: FastifyRequest;
}

export interface RestResult {
  status?: number;
  headers?: Record<string, string>;
  /** undefined -> no body (e.g. 304, 204). */
  body?: unknown;
}

export interface RestRoute<I = unknown, O = unknown> {
  family: Family;
  method: HttpMethod;
  /** Documented path, OpenAPI style: /repos/{owner}/{repo}. */
  path: string;
  operationId: string;
  summary: string;
  tags?: string[];
  parameters?: ParamSpec[];
  requestBody?: Record<string, unknown>;
  /** OpenAPI responses: status -> description (+ optional schema). */
  responses?: Record<string, { description: string; schema?: Record<string, unknown> }>;
  /** Map the HTTP request onto the service input (throw ValidationError for bad input). */
  input(req: RestRequest, ctx: RequestContext): I | Promise<I>;
  /** The service call. */
  handle(ctx: RequestContext, input: I): Promise<O>;
  /** Shape the service result the way the family's clients expect. */
  present(result: O, ctx: RequestContext, req: RestRequest): RestResult | Promise<RestResult>;
}

/** Helper that keeps the generic types of one route together. */
export function route<I, O>(r: RestRoute<I, O>): RestRoute<I, O> {
  return r;
}

export function toFastifyPath(path: string): string {
  return path.replace(/\{([A-Za-z0-9_]+)\}/g, ':$1');
}

export type Reply = FastifyReply;
