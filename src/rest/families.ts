/**
 * The three REST families and their error body styles:
 *  - github:    { message, documentation_url, status: "404" } (+ errors[] on 422)
 *  - wordpress: { code, message, data: { status } }
 *  - aws:       { __type, message } (awsJson1_0, as the AWS SDKs parse it)
 */
import type { FastifyRequest } from 'fastify';
import { AppError, FieldError, RateLimitedError, UnavailableError } from '../errors/app-error';
import { capMessage } from '../errors/message-cap';
import type { Family } from './route-table';

export const GITHUB_DOCS = 'https://docs.github.com/rest';
export const WORDPRESS_REST_PREFIX = '/calendar/';

export function familyOf(req: Pick<FastifyRequest, 'url' | 'headers'>): Family {
  if (req.headers['x-amz-target'] !== undefined) return 'aws';
  const path = req.url.split('?')[0];
  if (path === '/calendar' || path.startsWith(WORDPRESS_REST_PREFIX)) return 'wordpress';
  if (path === '/workflow' || path.startsWith('/workflow/')) return 'aws';
  return 'github';
}

export interface ErrorReply {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

const GITHUB_DOC_BY_STATUS: Record<number, string> = {
  401: `${GITHUB_DOCS}/overview/authenticating-to-the-rest-api`,
  403: `${GITHUB_DOCS}/overview/troubleshooting-the-rest-api#403-forbidden`,
  404: `${GITHUB_DOCS}`,
  422: `${GITHUB_DOCS}/overview/troubleshooting-the-rest-api#422-unprocessable-entity`,
};

// Every error body below is built by githubError, wordpressError or awsError: each caps its message (and
// field error messages), the last line of defence against messages that quote input of any length.

export function githubError(status: number, message: string, extra: Record<string, unknown> = {}, doc?: string): ErrorReply {
  return {
    status,
    body: { message: capMessage(message), documentation_url: doc ?? GITHUB_DOC_BY_STATUS[status] ?? GITHUB_DOCS, status: String(status), ...extra },
  };
}

const WP_CODE_BY_ERROR: Record<string, string> = {
  NOT_FOUND: 'rest_not_found',
  BAD_USER_INPUT: 'rest_invalid_param',
  FORBIDDEN: 'rest_forbidden',
  UNAUTHENTICATED: 'rest_forbidden',
  CONFLICT: 'rest_conflict',
  GONE: 'rest_already_trashed',
  RATE_LIMITED: 'rest_rate_limited',
  SERVICE_UNAVAILABLE: 'rest_service_unavailable',
};

export function wordpressError(status: number, code: string, message: string, data: Record<string, unknown> = {}): ErrorReply {
  return { status, body: { code, message: capMessage(message), data: { status, ...data } } };
}

const AWS_TYPE_BY_ERROR: Record<string, [string, number]> = {
  NOT_FOUND: ['ResourceNotFound', 400],
  BAD_USER_INPUT: ['ValidationException', 400],
  FORBIDDEN: ['AccessDeniedException', 400],
  // What AWS JSON services answer for credentials they do not know.
  UNAUTHENTICATED: ['UnrecognizedClientException', 400],
  CONFLICT: ['ConflictException', 400],
  GONE: ['ResourceNotFound', 400],
  RATE_LIMITED: ['ThrottlingException', 400],
  SERVICE_UNAVAILABLE: ['ServiceUnavailable', 503],
};

export function awsError(status: number, type: string, message: string): ErrorReply {
  return { status, body: { __type: type, message: capMessage(message) }, headers: { 'x-amzn-errortype': type } };
}

function capFieldError(f: FieldError): FieldError {
  return f.message === undefined ? f : { ...f, message: capMessage(f.message) };
}

/** Map an AppError to the family's status and body. */
export function appErrorReply(family: Family, e: AppError): ErrorReply {
  const headers: Record<string, string> = {};
  if (e instanceof RateLimitedError && e.retryAfterSeconds) headers['retry-after'] = String(e.retryAfterSeconds);
  // A busy or unreachable database: worth retrying shortly.
  if (e instanceof UnavailableError) headers['retry-after'] = '1';
  switch (family) {
    case 'github': {
      const extra: Record<string, unknown> = {};
      if (e.fieldErrors?.length) extra.errors = e.fieldErrors.map(capFieldError);
      // GitHub answers every 404 with the same "Not Found", so nothing tells a hidden resource from a missing one.
      const r = githubError(e.status, e.status === 404 ? 'Not Found' : e.message, extra);
      return { ...r, headers };
    }
    case 'wordpress': {
      const code = e.detailCode ?? WP_CODE_BY_ERROR[e.code] ?? 'rest_error';
      const data: Record<string, unknown> = {};
      if (e.fieldErrors?.length) {
        data.params = Object.fromEntries(e.fieldErrors.map(capFieldError).map((f) => [f.field ?? 'body', f.message ?? f.code]));
      }
      return { ...wordpressError(e.status, code, e.message, data), headers };
    }
    case 'aws': {
      const [type, status] = AWS_TYPE_BY_ERROR[e.code] ?? ['InternalFailure', 500];
      return { ...awsError(status, e.detailCode ?? type, e.message), headers: { ...headers, 'x-amzn-errortype': e.detailCode ?? type } };
    }
  }
}

export function notFoundReply(family: Family, method: string, path: string): ErrorReply {
  switch (family) {
    case 'github':
      return githubError(404, 'Not Found', {}, GITHUB_DOCS);
    case 'wordpress':
      return wordpressError(404, 'rest_no_route', 'No route was found matching the URL and request method.');
    case 'aws':
      return awsError(400, 'UnknownOperationException', `Unknown operation ${method} ${path}`);
  }
}

export function malformedBodyReply(family: Family): ErrorReply {
  switch (family) {
    case 'github':
      return githubError(400, 'Problems parsing JSON', {}, `${GITHUB_DOCS}/overview/troubleshooting-the-rest-api#400-bad-request`);
    case 'wordpress':
      return wordpressError(400, 'rest_invalid_json', 'Invalid JSON body passed.');
    case 'aws':
      return awsError(400, 'SerializationException', 'Start of structure or map found where not expected.');
  }
}

/** An error of the HTTP layer itself (unusable request line or Host header, request timeout), in the family's style. */
export function httpErrorReply(family: Family, status: number, message: string): ErrorReply {
  switch (family) {
    case 'github':
      return githubError(status, message, {}, status === 400 ? `${GITHUB_DOCS}/overview/troubleshooting-the-rest-api#400-bad-request` : undefined);
    case 'wordpress':
      return wordpressError(status, status === 408 ? 'rest_request_timeout' : 'rest_bad_request', message);
    case 'aws':
      return awsError(status, status === 408 ? 'RequestTimeoutException' : 'ValidationException', message);
  }
}

export function internalErrorReply(family: Family, requestId: string): ErrorReply {
  switch (family) {
    case 'github':
      return githubError(500, `Internal server error (request id ${requestId})`);
    case 'wordpress':
      return wordpressError(500, 'rest_internal_error', `Internal server error (request id ${requestId})`);
    case 'aws':
      return awsError(500, 'InternalFailure', `Internal server error (request id ${requestId})`);
  }
}
