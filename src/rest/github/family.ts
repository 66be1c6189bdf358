/**
 * The GitHub REST family (secret scanning, identity): everything about how it speaks.
 *  - errors: `{ message, documentation_url, status: "404" }` (+ `errors[]` on 422); every 404 says "Not Found".
 *    Validation is 422 "Validation Failed"-style unless the domain code says the request itself is malformed
 *    (400) or its media type is wrong (415) or too large (413).
 *  - answers `application/json; charset=utf-8`; checks `X-GitHub-Api-Version` / `X-Service-Api-Version` and
 *    Accept on every request; error field names in snake_case.
 *  - claims every path no other family claims (GitHub's API lives at the root).
 */
import { AppError, AppErrorCode, ValidationError } from '../../errors/app-error';
import { REQUEST_CODES } from '../../errors/codes';
import { capMessage } from '../../errors/message-cap';
import { ErrorReply, RestFamily, retryHeaders, snakeCase } from '../family';
import type { RestRequest } from '../route-table';
import { SECRET_SCANNING_GITHUB_STATUSES } from './secret-scanning.errors';
import { API_VERSION, API_VERSION_HEADERS, GITHUB_DOCS } from './version';

export { API_VERSION, API_VERSION_HEADERS, GITHUB_DOCS };

const TROUBLESHOOTING = `${GITHUB_DOCS}/overview/troubleshooting-the-rest-api`;

/** Malformed JSON and HTTP-level 400s link the troubleshooting section. */
const DOC_400 = `${TROUBLESHOOTING}#400-bad-request`;

/**
 * documentation_url by status. A 400 a service or a family check raises (invalid cursor, unsupported API
 * version, a body that is not an object, an unchanged resolution) links the docs root, as it always has.
 */
const DOC_BY_STATUS: Record<number, string> = {
  401: `${GITHUB_DOCS}/overview/authenticating-to-the-rest-api`,
  403: `${TROUBLESHOOTING}#403-forbidden`,
  404: GITHUB_DOCS,
  422: `${TROUBLESHOOTING}#422-unprocessable-entity`,
};

const STATUS_BY_CATEGORY: Record<AppErrorCode, number> = {
  NOT_FOUND: 404,
  BAD_USER_INPUT: 422,
  FORBIDDEN: 403,
  UNAUTHENTICATED: 401,
  CONFLICT: 409,
  GONE: 410,
  RATE_LIMITED: 429,
  SERVICE_UNAVAILABLE: 503,
};

/** Domain codes GitHub answers with another status than their category's. */
const STATUS_BY_DOMAIN_CODE: Record<string, number> = {
  [REQUEST_CODES.BODY_NOT_OBJECT]: 400,
  [REQUEST_CODES.BODY_MALFORMED]: 400,
  [REQUEST_CODES.API_VERSION_UNSUPPORTED]: 400,
  [REQUEST_CODES.INVALID_CURSOR]: 400,
  [REQUEST_CODES.INVALID_PAGINATION]: 400,
  [REQUEST_CODES.INVALID_GLOBAL_ID]: 400,
  [REQUEST_CODES.TOO_MANY_IDS]: 400,
  [REQUEST_CODES.MEDIA_TYPE_UNSUPPORTED]: 415,
  [REQUEST_CODES.NOT_ACCEPTABLE]: 415,
  [REQUEST_CODES.BODY_TOO_LARGE]: 413,
  // Each domain's own (src/rest/github/<domain>.errors.ts).
  ...SECRET_SCANNING_GITHUB_STATUSES,
};

/** The HTTP status GitHub answers an AppError with. */
export function githubStatus(e: AppError): number {
  return STATUS_BY_DOMAIN_CODE[e.domainCode] ?? STATUS_BY_CATEGORY[e.code] ?? 500;
}

/** Every GitHub-family error body is built here; the message (and field messages) are capped. */
export function githubError(status: number, message: string, extra: Record<string, unknown> = {}, doc?: string): ErrorReply {
  return {
    status,
    body: { message: capMessage(message), documentation_url: doc ?? DOC_BY_STATUS[status] ?? GITHUB_DOCS, status: String(status), ...extra },
  };
}

/** Media types a GitHub client may ask for; anything JSON-compatible is answered with JSON. */
export function acceptable(accept: string | undefined): boolean {
  if (!accept || accept.trim() === '') return true;
  return accept.split(',').some((part) => {
    const t = part.split(';')[0].trim().toLowerCase();
    return (
      t === '*/*' ||
      t === 'application/*' ||
      t === 'application/json' ||
      t === 'application/vnd.service+json' ||
      /^application\/vnd\.github(\.v3)?(\.[a-z-]+)?(\+json)?$/.test(t)
    );
  });
}


export const githubFamily: RestFamily = {
  name: 'github',
  mediaType: 'application/json; charset=utf-8',

  claims: () => true,

  unknownOperation: () => githubError(404, 'Not Found', {}, GITHUB_DOCS),

  fieldName: snakeCase,

  errorReply(e, fieldName = snakeCase) {
    const status = githubStatus(e);
    const extra: Record<string, unknown> = {};
    const fields = e.fieldErrorsFor(fieldName);
    if (fields?.length) extra.errors = fields.map((f) => (f.message === undefined ? f : { ...f, message: capMessage(f.message) }));
    // GitHub answers every 404 with the same "Not Found", so nothing tells a hidden resource from a missing one.
    return { ...githubError(status, status === 404 ? 'Not Found' : e.messageFor(fieldName), extra), headers: retryHeaders(e) };
  },

  noRoute: () => githubError(404, 'Not Found', {}, GITHUB_DOCS),

  malformedBody: () => githubError(400, 'Problems parsing JSON', {}, DOC_400),

  httpError: (status, message) => githubError(status, message, {}, status === 400 ? DOC_400 : undefined),

  internalError: (requestId) => githubError(500, `Internal server error (request id ${requestId})`),

  preHandler(req: RestRequest) {
    for (const h of API_VERSION_HEADERS) {
      const v = req.headers[h];
      if (v === undefined) continue;
      const value = Array.isArray(v) ? v[0] : v;
      if (value.trim() !== API_VERSION) {
        throw new ValidationError(`The requested API version '${value.slice(0, 40)}' is not supported. Supported versions: ${API_VERSION}.`, {
          domainCode: REQUEST_CODES.API_VERSION_UNSUPPORTED,
        });
      }
    }
    if (!acceptable(req.headers.accept)) {
      throw new ValidationError('Unsupported Accept header: use application/vnd.service+json, application/vnd.github+json or application/json.', {
        domainCode: REQUEST_CODES.NOT_ACCEPTABLE,
      });
    }
  },

  openapi: {
    responseMediaType: 'application/json',
    requestMediaTypes: ['application/json'],
    errorSchemas: {
      'basic-error': {
        title: 'Basic Error',
        description: 'The body of every GitHub-family error answer.',
        type: 'object',
        required: ['message', 'documentation_url', 'status'],
        properties: {
          message: { type: 'string', example: 'Not Found' },
          documentation_url: { type: 'string', example: GITHUB_DOCS },
          status: { type: 'string', description: 'The HTTP status code, as a string.', example: '404' },
        },
      },
      'validation-error': {
        title: 'Validation Error',
        description: 'A 422 answer: the request was well formed but some fields are invalid.',
        type: 'object',
        required: ['message', 'documentation_url', 'status'],
        properties: {
          message: { type: 'string', example: 'Validation Failed' },
          documentation_url: { type: 'string' },
          status: { type: 'string', example: '422' },
          errors: {
            type: 'array',
            items: {
              type: 'object',
              required: ['code'],
              properties: {
                resource: { type: 'string' },
                field: { type: 'string' },
                code: { type: 'string', description: 'missing, missing_field, invalid, already_exists, unprocessable or custom.' },
                message: { type: 'string' },
              },
            },
          },
        },
      },
    },
    errorSchemaFor: (status) => (status === '422' ? 'validation-error' : 'basic-error'),
    standardErrors: {
      '400': 'Bad request: malformed JSON or an unsupported API version header',
      '401': 'Requires authentication (or the credentials are bad)',
      '403': 'Forbidden',
      '404': 'Resource not found',
      '415': 'Unsupported media type (Accept or Content-Type)',
      '422': 'Validation failed',
      default: 'Unexpected error (rate limited, service unavailable, internal error)',
    },
    securityScheme: ['bearerAuth', { type: 'http', scheme: 'bearer', description: 'A personal access token: `Authorization: Bearer <token>`.' }],
  },

  // The secret scanning module declares its document (src/modules).
  documents: [],
};
