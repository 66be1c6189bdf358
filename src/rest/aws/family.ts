/**
 * The AWS JSON 1.0 family (the workflow service, Step Functions' wire protocol):
 *  - every operation is `POST` with `X-Amz-Target: <Service>.<Operation>`: rows are keyed by operation and
 *    share one path (`operationHeader`); an unknown target is `UnknownOperationException`.
 *  - errors: `{ __type, message }` with the same type in `x-amzn-ErrorType`; client errors are 400 (as the AWS
 *    SDKs expect), a server-side outage 503, a bug 500 `InternalFailure`.
 *  - answers `application/x-amz-json-1.0`; field names are the service's own (camelCase in the domain,
 *    PascalCase members on the wire: the route's declarations rename them).
 *  - claims requests carrying X-Amz-Target, and /workflow and below.
 *  - every request is SigV4-signed with a workflow access key (`authenticate`); the key's user is the viewer.
 */
import { AppError, AppErrorCode, quoteInput } from '../../errors/app-error';
import { REQUEST_CODES } from '../../errors/codes';
import { capMessage } from '../../errors/message-cap';
import { accessKeyIsLive, authenticateSigV4 } from '../../auth/sigv4';
import { ErrorReply, RestFamily, retryHeaders } from '../family';
import { WORKFLOW_AWS_ERRORS } from './workflow.errors';

export const AWS_JSON_MEDIA_TYPE = 'application/x-amz-json-1.0';
export const AWS_REST_PREFIX = '/workflow';

const BY_CATEGORY: Record<AppErrorCode, [string, number]> = {
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

const BY_DOMAIN_CODE: Record<string, [string, number]> = {
  [REQUEST_CODES.BODY_MALFORMED]: ['SerializationException', 400],
  [REQUEST_CODES.BODY_NOT_OBJECT]: ['SerializationException', 400],
  [REQUEST_CODES.MEDIA_TYPE_UNSUPPORTED]: ['UnsupportedMediaTypeException', 400],
  [REQUEST_CODES.BODY_TOO_LARGE]: ['RequestEntityTooLargeException', 413],
  ...WORKFLOW_AWS_ERRORS,
};

/** The AWS error type (`__type`) and status of an AppError. */
export function awsType(e: AppError): [string, number] {
  return BY_DOMAIN_CODE[e.domainCode] ?? BY_CATEGORY[e.code] ?? ['InternalFailure', 500];
}

/** Every AWS-family error body is built here; the message is capped. */
export function awsError(status: number, type: string, message: string): ErrorReply {
  return { status, body: { __type: type, message: capMessage(message) }, headers: { 'x-amzn-errortype': type } };
}

export const awsFamily: RestFamily = {
  name: 'aws',
  mediaType: AWS_JSON_MEDIA_TYPE,
  operationHeader: 'x-amz-target',
  // The AWS SDKs post to the endpoint's path with a trailing slash (endpoint https://host/workflow -> /workflow/).
  trailingSlash: true,

  claims(req) {
    if (req.headers['x-amz-target'] !== undefined) return true;
    const path = req.url.split('?')[0];
    return path === AWS_REST_PREFIX || path.startsWith(`${AWS_REST_PREFIX}/`);
  },

  // Every request is signed with a workflow access key (SigV4, src/auth/sigv4.ts); the key's user is the viewer.
  authenticate: (req, deps) => authenticateSigV4(deps, { method: req.method, target: req.target, headers: req.headers, rawBody: req.rawBody }),
  credentialIsLive: (headers, deps) => accessKeyIsLive(deps, typeof headers.authorization === 'string' ? headers.authorization : undefined),

  // AWS JSON member names are the service's (the domain's camelCase, PascalCased by the route's declarations).
  fieldName: (f) => f,

  unknownOperation: (operation, method, path) =>
    awsError(
      400,
      'UnknownOperationException',
      // Without X-Amz-Target: the same words as an unknown path (the path as sent, cut to 100 characters).
      operation ? `Unknown operation ${quoteInput(operation)}` : `Unknown operation ${method} ${quoteInput(path, '')}`,
    ),

  errorReply(e, fieldName = (f: string) => f) {
    const [type, status] = awsType(e);
    return { ...awsError(status, type, e.messageFor(fieldName)), headers: { 'x-amzn-errortype': type, ...retryHeaders(e) } };
  },

  // The path as sent (unquoted, as before the spine refactor), cut to its first 100 characters.
  noRoute: (method, path) => awsError(400, 'UnknownOperationException', `Unknown operation ${method} ${quoteInput(path, '')}`),

  malformedBody: () => awsError(400, 'SerializationException', 'Start of structure or map found where not expected.'),

  httpError: (status, message) => awsError(status, status === 408 ? 'RequestTimeoutException' : 'ValidationException', message),

  internalError: (requestId) => awsError(500, 'InternalFailure', `Internal server error (request id ${requestId})`),

  openapi: {
    responseMediaType: AWS_JSON_MEDIA_TYPE,
    requestMediaTypes: ['application/json', AWS_JSON_MEDIA_TYPE],
    errorSchemas: {
      'aws-error': {
        title: 'AWS JSON Error',
        type: 'object',
        required: ['__type', 'message'],
        properties: {
          __type: { type: 'string', example: 'ResourceNotFound' },
          message: { type: 'string' },
        },
      },
    },
    errorSchemaFor: () => 'aws-error',
    standardErrors: {
      '400': 'Client error; `__type` (and the x-amzn-ErrorType header) names it, e.g. ValidationException or ResourceNotFound',
      default: 'Server error (InternalFailure, ServiceUnavailable)',
    },
    errorHeaders: { 'x-amzn-ErrorType': { description: 'The error type (same as `__type`).', schema: { type: 'string' } } },
    securityScheme: [
      'awsSigV4',
      { type: 'apiKey', in: 'header', name: 'Authorization', description: 'AWS Signature Version 4 with a workflow access key.' },
    ],
  },

  documents: [],
};
