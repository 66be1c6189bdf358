/**
 * What a REST family is. A family is one REST dialect the gateway speaks (GitHub's, WordPress's, AWS JSON
 * 1.0): how its errors look, which media type it answers with, how its OpenAPI documents describe errors and
 * security, which checks run on each of its requests, how its routes are keyed (by path, or by an operation
 * named in a header), and which OpenAPI documents it serves. Everything about one family lives in ONE adapter
 * object, `src/rest/<family>/family.ts`; the spine (register.ts, openapi.ts, server.ts) only calls adapters
 * and never switches over family names. Domain route rows name their family (`family: 'github'`).
 */
import type { Viewer } from '../auth/viewer';
import type { AppDeps } from '../context';
import { AppError, RateLimitedError, UnavailableError } from '../errors/app-error';
import type { Language } from '../i18n';
import type { RestRequest, RestRoute } from './route-table';

export type FamilyName = 'github' | 'wordpress' | 'aws';

export interface ErrorReply {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

/** What is known of a request when an error must be answered before (or without) a route. */
export interface IncomingLike {
  url: string;
  headers: Record<string, string | string[] | undefined>;
}

/** How a request's failures are answered: implemented by every REST family and by the GraphQL endpoint. */
export interface ErrorStyle {
  /** Content type of error bodies (and, for families, of every answer). */
  readonly mediaType: string;
  /**
   * A service's AppError -> status, body and headers. `fieldName` renames the domain's field names (camelCase)
   * to the names the client sent (a route knows them from its parameter declarations). `language`: the
   * language the request chose (families that translate their messages answer in it).
   */
  errorReply(e: AppError, fieldName?: (field: string) => string, language?: Language): ErrorReply;
  /** No route has this method and path (or this operation). */
  noRoute(method: string, path: string): ErrorReply;
  /** The body is not parsable (e.g. malformed JSON). */
  malformedBody(): ErrorReply;
  /** An error of the HTTP layer itself: unusable request line or Host (400), timeout (408), headers too large (431). */
  httpError(status: number, message: string): ErrorReply;
  /** A bug: a generic 500 naming the request id, nothing else. */
  internalError(requestId: string): ErrorReply;
  /**
   * The bytes of an answer body (success and error) when the family encodes JSON its own way (WordPress:
   * `wp_json_encode`, `/` and non-ASCII escaped); absent = JSON.stringify.
   */
  serialize?(body: unknown): string;
  /**
   * `serialize` only ever writes ASCII (wp_json_encode escapes everything else): success bodies are then sent as
   * latin1 bytes, one copy, instead of a string the socket layer encodes as UTF-8 (the same bytes for ASCII).
   */
  asciiBodies?: boolean;
}

export type JsonSchema = Record<string, unknown>;

export type OpenApiSecurityScheme =
  | { type: 'http'; scheme: string; bearerFormat?: string; description?: string }
  | { type: 'apiKey'; name: string; in: 'header' | 'query' | 'cookie'; description?: string };

/** One OpenAPI document a family serves: which of its rows, where, and the named schemas they refer to. */
export interface OpenApiDocumentSpec {
  /** Served at this path (GET), e.g. /openapi/secret-scanning.json. */
  url: string;
  title: string;
  version: string;
  description?: string;
  /** Which rows of the family belong to the document. */
  includes(route: RestRoute<any, any>): boolean;
  /** Named schemas rows refer to with `{ $ref: '#/components/schemas/<name>' }`. */
  schemas: Record<string, object>;
}

export interface RestFamily extends ErrorStyle {
  readonly name: FamilyName;
  /**
   * Does a request belong to this family when no route claimed it (unknown paths, HTTP-level errors)?
   * Families are asked in the registry's order (src/rest/families.ts); the last one claims everything.
   */
  claims(req: IncomingLike): boolean;
  /**
   * RPC-style families: the (lower-case) header that names the operation, e.g. AWS JSON's `x-amz-target`
   * (`<Service>.<Operation>`). Rows of such a family carry `operation` and may share one method and path.
   */
  readonly operationHeader?: string;
  /** The operation header named no operation of this method and path (AWS: UnknownOperationException). */
  unknownOperation(operation: string | undefined, method: string, path: string): ErrorReply;
  /**
   * Checks every request of the family before its route maps the input (GitHub: API version, Accept;
   * WordPress: the route's declared arguments, all at once). It may set `req.language` (the request's content
   * language, which reaches the RequestContext and the error replies), also when it then throws.
   */
  preHandler?(req: RestRequest, route: RestRoute<any, any>): void;
  /**
   * How the family's requests are authenticated when not by the shared bearer-token rule (AWS JSON: SigV4 over
   * the request as sent). Returns the viewer or throws the family's authentication error.
   */
  authenticate?(req: RestRequest, deps: AppDeps): Promise<Viewer>;
  /**
   * With `authenticate`: whether the request's credential is live, as far as can be told before its body is
   * read (AWS: the access key exists and is active; the signature, which covers the body, is checked later).
   * Requests without a live credential get the small anonymous body limit.
   */
  credentialIsLive?(headers: IncomingLike['headers'], deps: AppDeps): Promise<boolean>;
  /** The family's routes also match with a trailing slash (WordPress strips it before matching). */
  readonly trailingSlash?: boolean;
  /**
   * Request body media types this family reads beyond JSON (WordPress: application/x-www-form-urlencoded), with
   * their parsers (text -> body). Other families answer such bodies as an unsupported media type.
   */
  readonly bodyParsers?: Record<string, (text: string) => unknown>;
  /**
   * Rows the family derives from the domain rows (WordPress: each namespace's index and its /doc), served and
   * documented like the others. Receives every row of every family; returns the extra rows (none -> []).
   */
  generatedRoutes?(routes: RestRoute<any, any>[]): RestRoute<any, any>[];
  /** Renames a domain field name the route does not declare (GitHub: snake_case). */
  fieldName(domainField: string): string;
  readonly openapi: {
    /** The media type of answers in OpenAPI `content` (no parameters). */
    responseMediaType: string;
    /** Media types a request body may be sent as. */
    requestMediaTypes: string[];
    /** Error body schemas, by component name. */
    errorSchemas: Record<string, JsonSchema>;
    /** Which error schema a status (or `default`) uses. */
    errorSchemaFor(status: string): string;
    /** Error answers every operation of the family may give (a row's own description of a status wins). */
    standardErrors: Record<string, string>;
    /** Headers every error answer carries (AWS: x-amzn-ErrorType). */
    errorHeaders?: Record<string, { description?: string; schema: JsonSchema }>;
    /** The security scheme: component name and definition. */
    securityScheme: [string, OpenApiSecurityScheme];
  };
  /** The OpenAPI documents this family serves (generated from its rows). */
  readonly documents: OpenApiDocumentSpec[];
}

/** camelCase -> snake_case (`placeholderId` -> `placeholder_id`). */
export function snakeCase(name: string): string {
  return name.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase();
}

/** Retry-After for errors worth retrying: a rate limit (its own delay) or a busy or unreachable database (1 s). */
export function retryHeaders(e: AppError): Record<string, string> {
  if (e instanceof RateLimitedError && e.retryAfterSeconds) return { 'retry-after': String(e.retryAfterSeconds) };
  if (e instanceof UnavailableError) return { 'retry-after': '1' };
  return {};
}
