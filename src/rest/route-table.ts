/**
 * The REST compatibility layer is declarative: each documented operation is one row of a route table
 * (family, method, path — or an operation name for RPC-style families —, its parameters, which service method,
 * how the request maps onto its input, which presenter shapes the answer). The same rows generate the OpenAPI
 * documents, and each parameter is declared once (src/rest/params.ts): its declaration both reads the value
 * from the request and documents it.
 */
import type { FastifyRequest } from 'fastify';
import type { RequestContext } from '../context';
import type { Language } from '../i18n';
import type { FamilyName } from './family';

export type Family = FamilyName;
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** A parameter as OpenAPI documents it. */
export interface ParamSpec {
  name: string;
  in: 'path' | 'query' | 'header';
  required?: boolean;
  description?: string;
  schema: Record<string, unknown>;
  /**
   * The domain field this parameter fills (e.g. `secret_type` -> `secretTypes`): error field names a service
   * reports in the domain's names are answered in this parameter's name.
   */
  field?: string;
}

export interface RestRequest {
  method: string;
  params: Record<string, string>;
  query: Record<string, string | string[] | undefined>;
  body: unknown;
  headers: FastifyRequest['headers'];
  /** The absolute URL of this request, built from PUBLIC_URL (for Link headers and URLs in answers). */
  url: URL;
  /** The request target exactly as the client sent it (path and query, origin-form): what a signature covers. */
  target: string;
  /** The body bytes exactly as received (undefined without a body): SigV4 hashes the exact payload. */
  rawBody: Buffer | undefined;
  raw: FastifyRequest;
  /** The content language the request chose (set by the family's preHandler; see RequestContext.language). */
  language?: Language;
  /** The request's argument values as its family's preHandler checked them (WordPress: every declared argument). */
  args?: Record<string, unknown>;
}

export interface RestResult {
  status?: number;
  headers?: Record<string, string>;
  /** undefined -> no body (e.g. 304, 204). */
  body?: unknown;
  /**
   * An answer in another media type than the family's (e.g. `text/calendar; charset=utf-8`): `body` is then the
   * encoded text (or bytes), sent as is. Errors keep the family's style.
   */
  contentType?: string;
}

export interface RestRoute<I = unknown, O = unknown> {
  family: Family;
  method: HttpMethod;
  /** Documented path, OpenAPI style: /repos/{owner}/{repo}. Rows of an RPC family may share one. */
  path: string;
  /**
   * RPC-style families (those with an `operationHeader`, e.g. AWS JSON's X-Amz-Target): the operation this row
   * answers, e.g. `AWSStepFunctions.StartExecution`. Rows with the same method and path are told apart by it.
   */
  operation?: string;
  operationId: string;
  summary: string;
  tags?: string[];
  /** Every parameter, declared once (src/rest/params.ts): it reads the value and documents it. */
  parameters?: ParamSpec[];
  requestBody?: Record<string, unknown>;
  /**
   * Domain names this row spells otherwise on the wire, beyond its parameters' `field`s and the family's
   * default renaming (e.g. the PATCH body the domain calls an update: `{ update: 'body' }`). Error messages
   * that name fields (`{{field}}`) are answered with them.
   */
  names?: Record<string, string>;
  /** OpenAPI responses: status -> description (+ optional schema). */
  responses?: Record<string, { description: string; schema?: Record<string, unknown>; /** Not the family's media type. */ mediaType?: string }>;
  /** Map the HTTP request onto the service input (throw ValidationError for bad input). */
  input(req: RestRequest, ctx: RequestContext): I | Promise<I>;
  /** The service call. */
  handle(ctx: RequestContext, input: I): Promise<O>;
  /** Shape the service result the way the family's clients expect; `input` is what `input()` returned. */
  present(result: O, ctx: RequestContext, req: RestRequest, input: I): RestResult | Promise<RestResult>;
}

/** Helper that keeps the generic types of one route together. */
export function route<I, O>(r: RestRoute<I, O>): RestRoute<I, O> {
  return r;
}

export function toFastifyPath(path: string): string {
  return path.replace(/\{([A-Za-z0-9_]+)\}/g, ':$1');
}
