/**
 * The WordPress REST family (the events calendar under /calendar/, The Events Calendar's REST shape):
 *  - errors: `{ code, message, data: { status, params?, details? } }`; invalid input is 400 `rest_invalid_param`
 *    (WordPress validates arguments before callbacks: see params.ts), missing required arguments 400
 *    `rest_missing_callback_param`, a missing login 401 and a refused one 403 (`rest_forbidden`), an unknown
 *    route 404 `rest_no_route`, unparsable JSON 400 `rest_invalid_json`, a bad application password 401
 *    `invalid_username` / `incorrect_password`. A domain code written the WordPress/TEC way
 *    (`event-is-in-trash`) is the answer's code, its status from messages.ts (TEC's) or registered by the domain.
 *  - messages in the request's `i18n_language` (messages.ts; English when none is chosen).
 *  - bodies encoded as wp_json_encode does (`\/`, `\uXXXX`); JSON or form-encoded request bodies; a trailing
 *    slash is ignored; every route accepts `i18n_language`.
 *  - each namespace's index and /doc are derived from its rows (namespaces.ts).
 *  - claims /calendar and everything below it.
 */
import { AppError, AppErrorCode } from '../../errors/app-error';
import { AUTH_CODES, REQUEST_CODES } from '../../errors/codes';
import { capMessage } from '../../errors/message-cap';
import type { Language } from '../../i18n';
import { ErrorReply, RestFamily, retryHeaders, snakeCase } from '../family';
import { parseFormBody } from './form-body';
import { wpJsonEncode } from './json';
import { catalogMessage, CoreMessageId, isWordpressStyleCode, registeredStatus, translateMessage } from './messages';
import { namespaceRoutes } from './namespaces';
import { prepareWordpressRequest, problemText, WpParamsError } from './params';

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

/** Domain codes answered with a WordPress code and status (and, with a message id, WordPress's own message). */
const BY_DOMAIN_CODE: Record<string, [string, number, CoreMessageId?]> = {
  [REQUEST_CODES.BODY_MALFORMED]: ['rest_invalid_json', 400, 'rest_invalid_json'],
  [REQUEST_CODES.BODY_NOT_OBJECT]: ['rest_invalid_json', 400, 'rest_invalid_json'],
  [REQUEST_CODES.MEDIA_TYPE_UNSUPPORTED]: ['rest_unsupported_media_type', 415],
  [REQUEST_CODES.NOT_ACCEPTABLE]: ['rest_not_acceptable', 406],
  [REQUEST_CODES.BODY_TOO_LARGE]: ['rest_request_too_large', 413],
  [REQUEST_CODES.PARAMS_OVER_LIMIT]: ['rest_bad_request', 400],
  [AUTH_CODES.UNKNOWN_LOGIN]: ['invalid_username', 401, 'invalid_username'],
  [AUTH_CODES.WRONG_PASSWORD]: ['incorrect_password', 401, 'incorrect_password'],
};

/** WordPress's code and status for an AppError. */
export function wordpressCode(e: AppError): [string, number] {
  const special = BY_DOMAIN_CODE[e.domainCode];
  if (special) return [special[0], special[1]];
  if (isWordpressStyleCode(e.domainCode)) return [e.domainCode, registeredStatus(e.domainCode) ?? BY_CATEGORY[e.code]?.[1] ?? 500];
  return BY_CATEGORY[e.code] ?? ['rest_error', 500];
}

/** Every WordPress-family error body is built here; the message is capped. */
export function wordpressError(status: number, code: string, message: string, data: Record<string, unknown> = {}): ErrorReply {
  return { status, body: { code, message: capMessage(message), data: { status, ...data } } };
}

/** The answer to a WpParamsError (all argument problems of one request), in `language`. */
function paramsErrorReply(e: WpParamsError, language?: Language): ErrorReply {
  const names = e.problems.map((p) => p.name);
  if (e.kind === 'missing') {
    return wordpressError(400, 'rest_missing_callback_param', catalogMessage('rest_missing_callback_param', [names.join(', ')], language)!, { params: names });
  }
  const params: Record<string, string> = {};
  const details: Record<string, unknown> = {};
  for (const { name, problem } of e.problems) {
    params[name] = capMessage(problem ? problemText(problem, language) : catalogMessage('invalid_parameter', [], language)!);
    if (problem) details[name] = { code: problem.code, message: params[name], data: problem.data ?? null };
  }
  return wordpressError(400, 'rest_invalid_param', catalogMessage('rest_invalid_param', [names.join(', ')], language)!, {
    params,
    // PHP encodes an empty array as [].
    details: Object.keys(details).length ? details : [],
  });
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

  errorReply(e, fieldName = snakeCase, language) {
    if (e instanceof WpParamsError) return paramsErrorReply(e, language);
    const [code, status] = wordpressCode(e);
    const fields = e.fieldErrorsFor(fieldName);
    if (code === 'rest_invalid_param' && fields?.length) {
      // A service's field errors (domain names): the same shape as the argument checks', in WordPress names.
      const params: Record<string, string> = {};
      const details: Record<string, unknown> = {};
      for (const f of fields) {
        const name = f.field ?? 'body';
        params[name] = capMessage(f.message ? translateMessage(f.message, language) : catalogMessage('invalid_parameter', [], language)!);
        if (isWordpressStyleCode(f.code)) details[name] = { code: f.code, message: params[name], data: null };
      }
      const message = catalogMessage('rest_invalid_param', [Object.keys(params).join(', ')], language)!;
      return { ...wordpressError(status, code, message, { params, details: Object.keys(details).length ? details : [] }), headers: retryHeaders(e) };
    }
    const own = BY_DOMAIN_CODE[e.domainCode]?.[2];
    const message = own ? catalogMessage(own, [], language)! : translateMessage(e.messageFor(fieldName), language);
    const data: Record<string, unknown> = {};
    if (fields?.length) data.params = Object.fromEntries(fields.map((f) => [f.field ?? 'body', capMessage(f.message ?? f.code)]));
    return { ...wordpressError(status, code, message, data), headers: retryHeaders(e) };
  },

  serialize: wpJsonEncode,
  asciiBodies: true,

  preHandler: prepareWordpressRequest,

  trailingSlash: true,

  bodyParsers: { 'application/x-www-form-urlencoded': parseFormBody },

  generatedRoutes: namespaceRoutes,

  noRoute: () => wordpressError(404, 'rest_no_route', 'No route was found matching the URL and request method.'),

  malformedBody: () => wordpressError(400, 'rest_invalid_json', 'Invalid JSON body passed.'),

  httpError: (status, message) => wordpressError(status, status === 408 ? 'rest_request_timeout' : 'rest_bad_request', message),

  internalError: (requestId) => wordpressError(500, 'rest_internal_error', `Internal server error (request id ${requestId})`),

  openapi: {
    responseMediaType: 'application/json',
    requestMediaTypes: ['application/json', 'application/x-www-form-urlencoded'],
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
    securityScheme: [
      'bearerAuth',
      {
        type: 'http',
        scheme: 'bearer',
        description: 'A personal access token: `Authorization: Bearer <token>` (or, as an application password, `Authorization: Basic base64(login:token)`).',
      },
    ],
  },

  documents: [],
};
