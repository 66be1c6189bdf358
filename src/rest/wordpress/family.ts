/**
 * The WordPress REST family (the events calendar under /calendar/, The Events Calendar's REST shape):
 *  - errors: `{ code, message, data: { status, params? } }`; invalid input is 400 `rest_invalid_param` (WordPress
 *    validates arguments before callbacks), a missing login 401 and a refused one 403 (`rest_forbidden`), an
 *    unknown route 404 `rest_no_route`, unparsable JSON 400 `rest_invalid_json`.
 *  - answers `application/json; charset=utf-8`; error field names in snake_case (WordPress argument names).
 *  - claims /calendar and everything below it.
 */
import { AppError, AppErrorCode } from '../../errors/app-error';
import { REQUEST_CODES } from '../../errors/codes';
import { capMessage } from '../../errors/message-cap';
import { ErrorReply, RestFamily, retryHeaders, snakeCase } from '../family';

export const WORDPRESS_REST_PREFIX = '/calendar';

const BY_CATEGORY: Record<AppErrorCode, [string, number]> = {
  NOT_FOUND: ['rest_not_found', 404],
  BAD_USER_INPUT: ['rest_invalid_param', 400],
  FORBIDDEN: ['rest_forbidden', 403],
  UNAUTHENTICATED: ['rest_forbidden', 401],
  CONFLICT: ['rest_conflict', 409],
  GONE: ['rest_already_trashed', 410],
  RATE_LIMITED: ['rest_rate_limited', 429],
  SERVICE_UNAVAILABLE: ['rest_service_unavailable', 503],
};

const BY_DOMAIN_CODE: Record<string, [string, number]> = {
  [REQUEST_CODES.BODY_MALFORMED]: ['rest_invalid_json', 400],
  [REQUEST_CODES.BODY_NOT_OBJECT]: ['rest_invalid_json', 400],
  [REQUEST_CODES.MEDIA_TYPE_UNSUPPORTED]: ['rest_unsupported_media_type', 415],
  [REQUEST_CODES.NOT_ACCEPTABLE]: ['rest_not_acceptable', 406],
  [REQUEST_CODES.BODY_TOO_LARGE]: ['rest_request_too_large', 413],
};

/** WordPress's code and status for an AppError. */
export function wordpressCode(e: AppError): [string, number] {
  return BY_DOMAIN_CODE[e.domainCode] ?? BY_CATEGORY[e.code] ?? ['rest_error', 500];
}

/** Every WordPress-family error body is built here; the message is capped. */
export function wordpressError(status: number, code: string, message: string, data: Record<string, unknown> = {}): ErrorReply {
  return { status, body: { code, message: capMessage(message), data: { status, ...data } } };
}


export const wordpressFamily: RestFamily = {
  name: 'wordpress',
  mediaType: 'application/json; charset=utf-8',

  claims(req) {
    const path = req.url.split('?')[0];
    return path === WORDPRESS_REST_PREFIX || path.startsWith(`${WORDPRESS_REST_PREFIX}/`);
  },

  fieldName: snakeCase,

  unknownOperation: () => wordpressError(404, 'rest_no_route', 'No route was found matching the URL and request method.'),

  errorReply(e, fieldName = snakeCase) {
    const [code, status] = wordpressCode(e);
    const data: Record<string, unknown> = {};
    const fields = e.fieldErrorsFor(fieldName);
    if (fields?.length) {
      data.params = Object.fromEntries(fields.map((f) => [f.field ?? 'body', capMessage(f.message ?? f.code)]));
    }
    return { ...wordpressError(status, code, e.messageFor(fieldName), data), headers: retryHeaders(e) };
  },

  noRoute: () => wordpressError(404, 'rest_no_route', 'No route was found matching the URL and request method.'),

  malformedBody: () => wordpressError(400, 'rest_invalid_json', 'Invalid JSON body passed.'),

  httpError: (status, message) => wordpressError(status, status === 408 ? 'rest_request_timeout' : 'rest_bad_request', message),

  internalError: (requestId) => wordpressError(500, 'rest_internal_error', `Internal server error (request id ${requestId})`),

  openapi: {
    responseMediaType: 'application/json',
    requestMediaTypes: ['application/json'],
    errorSchemas: {
      'wordpress-error': {
        title: 'WordPress REST Error',
        type: 'object',
        required: ['code', 'message', 'data'],
        properties: {
          code: { type: 'string', example: 'rest_not_found' },
          message: { type: 'string' },
          data: {
            type: 'object',
            required: ['status'],
            properties: {
              status: { type: 'integer', example: 404 },
              params: {
                type: 'object',
                description: 'Invalid parameters: name -> problem.',
                additionalProperties: { type: 'string' },
              },
            },
          },
        },
      },
    },
    errorSchemaFor: () => 'wordpress-error',
    standardErrors: {
      '400': 'Invalid JSON body or parameter',
      '401': 'Not authenticated (or the credentials are bad)',
      '403': 'Forbidden',
      '404': 'Resource not found',
      default: 'Unexpected error',
    },
    securityScheme: ['bearerAuth', { type: 'http', scheme: 'bearer', description: 'A personal access token: `Authorization: Bearer <token>`.' }],
  },

  documents: [],
};
