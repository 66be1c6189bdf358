/**
 * The error-code mapping of the three REST families and of GraphQL: services say what went wrong (category +
 * domain code + domain field names), each transport decides how a client sees it.
 */
import { GraphQLError } from 'graphql';
import {
  AppError,
  ConflictError,
  ForbiddenError,
  GoneError,
  NotFoundError,
  RateLimitedError,
  UnauthenticatedError,
  UnavailableError,
  ValidationError,
} from '../../src/errors/app-error';
import { REQUEST_CODES } from '../../src/errors/codes';
import { makeFormatError } from '../../src/graphql/errors';
import { graphqlHttpErrors } from '../../src/graphql/http-errors';
import { awsFamily } from '../../src/rest/aws/family';
import { FAMILIES, familyOf } from '../../src/rest/families';
import { githubFamily } from '../../src/rest/github/family';
import { list } from '../../src/rest/github/secret-scanning.params';
import { fieldRenamer } from '../../src/rest/params';
import { wordpressFamily } from '../../src/rest/wordpress/family';
import { SECRET_SCANNING_CODES } from '../../src/services/secret-scanning/error-codes';

const body = (r: { body: unknown }) => r.body as Record<string, any>;

/** One error of each category, plus the domain codes whose answer differs from their category's. */
const ERRORS: Array<[string, AppError]> = [
  ['not found', new NotFoundError('Alert 7 is hidden')],
  ['invalid input', new ValidationError('state must be open or resolved', { fieldErrors: [{ resource: 'SecretScanningAlert', field: 'state', code: 'invalid', message: 'bad state' }] })],
  ['forbidden', new ForbiddenError('Only admins')],
  ['unauthenticated', new UnauthenticatedError('Bad credentials')],
  ['conflict', new ConflictError('It exists')],
  ['gone', new GoneError('Trashed')],
  ['rate limited', new RateLimitedError('Slow down', 30)],
  ['unavailable', new UnavailableError('Database busy')],
  ['resolution unchanged', new ValidationError('The alert is already open', { domainCode: SECRET_SCANNING_CODES.RESOLUTION_UNCHANGED })],
  ['invalid cursor', new ValidationError('`after` is not a valid cursor', { domainCode: REQUEST_CODES.INVALID_CURSOR })],
  ['unsupported media type', new ValidationError('Unsupported media type', { domainCode: REQUEST_CODES.MEDIA_TYPE_UNSUPPORTED })],
  ['body too large', new ValidationError('Request body is too large', { domainCode: REQUEST_CODES.BODY_TOO_LARGE })],
];

describe('GitHub family', () => {
  const expected: Record<string, number> = {
    'not found': 404,
    'invalid input': 422,
    forbidden: 403,
    unauthenticated: 401,
    conflict: 409,
    gone: 410,
    'rate limited': 429,
    unavailable: 503,
    'resolution unchanged': 400,
    'invalid cursor': 400,
    'unsupported media type': 415,
    'body too large': 413,
  };

  it.each(ERRORS)('%s -> its status and { message, documentation_url, status }', (name, e) => {
    const r = githubFamily.errorReply(e);
    expect(r.status).toBe(expected[name]);
    expect(body(r)).toMatchObject({ status: String(expected[name]), documentation_url: expect.stringMatching(/^https:\/\/docs\.github\.com\/rest/) });
    // Every 404 says the same thing, so a hidden resource looks like a missing one.
    expect(body(r).message).toBe(r.status === 404 ? 'Not Found' : e.message);
  });

  it('422 lists field errors with snake_case names; rate limits and outages say when to retry', () => {
    const e = new ValidationError('bad', { fieldErrors: [{ resource: 'SecretScanningPushProtectionBypass', field: 'placeholderId', code: 'missing_field' }] });
    expect(body(githubFamily.errorReply(e)).errors).toEqual([{ resource: 'SecretScanningPushProtectionBypass', field: 'placeholder_id', code: 'missing_field' }]);
    expect(githubFamily.errorReply(new RateLimitedError('x', 30)).headers).toEqual({ 'retry-after': '30' });
    expect(githubFamily.errorReply(new UnavailableError()).headers).toEqual({ 'retry-after': '1' });
  });

  it('a route renames domain fields (and {{field}} tokens of the message) to the parameters it declared', () => {
    const e = new ValidationError('{{secretTypes}} and {{excludeSecretTypes}} cannot be used together', {
      namesFields: true,
      fieldErrors: [{ resource: 'SecretScanningAlert', field: 'excludeSecretTypes', code: 'invalid' }],
    });
    const rename = fieldRenamer(Object.values(list), githubFamily.fieldName);
    const r = githubFamily.errorReply(e, rename);
    expect(body(r).message).toBe('secret_type and exclude_secret_types cannot be used together');
    expect(body(r).errors).toEqual([{ resource: 'SecretScanningAlert', field: 'exclude_secret_types', code: 'invalid' }]);
    // Fields a route does not declare fall back to the family's convention.
    expect(rename('resolutionComment')).toBe('resolution_comment');
    // GraphQL callers read the domain's names.
    expect(e.message).toBe('secretTypes and excludeSecretTypes cannot be used together');
  });

  it('the request-level answers keep GitHub’s wording', () => {
    expect(githubFamily.noRoute('GET', '/nope')).toMatchObject({ status: 404, body: { message: 'Not Found' } });
    expect(githubFamily.malformedBody()).toMatchObject({ status: 400, body: { message: 'Problems parsing JSON' } });
    expect(githubFamily.internalError('req-1')).toMatchObject({ status: 500, body: { message: 'Internal server error (request id req-1)' } });
  });
});

describe('WordPress family', () => {
  const expected: Record<string, [number, string]> = {
    'not found': [404, 'rest_not_found'],
    'invalid input': [400, 'rest_invalid_param'],
    forbidden: [403, 'rest_forbidden'],
    unauthenticated: [401, 'rest_forbidden'],
    conflict: [409, 'rest_conflict'],
    gone: [410, 'rest_already_trashed'],
    'rate limited': [429, 'rest_rate_limited'],
    unavailable: [503, 'rest_service_unavailable'],
    'resolution unchanged': [400, 'rest_invalid_param'],
    'invalid cursor': [400, 'rest_invalid_param'],
    'unsupported media type': [415, 'rest_unsupported_media_type'],
    'body too large': [413, 'rest_request_too_large'],
  };

  it.each(ERRORS)('%s -> { code, message, data: { status } }', (name, e) => {
    const [status, code] = expected[name];
    const r = wordpressFamily.errorReply(e);
    expect(r.status).toBe(status);
    // Field errors are answered as WordPress's argument checks are: "Invalid parameter(s): <names>".
    const message = e.fieldErrors?.length ? `Invalid parameter(s): ${e.fieldErrors.map((f) => f.field).join(', ')}` : e.message;
    expect(body(r)).toMatchObject({ code, message, data: { status } });
  });

  it('invalid parameters are listed in data.params by their argument names', () => {
    const e = new ValidationError('Invalid parameter(s): startDate', { fieldErrors: [{ field: 'startDate', code: 'invalid', message: 'Invalid parameter.' }] });
    expect(body(wordpressFamily.errorReply(e)).data).toEqual({ status: 400, params: { start_date: 'Invalid parameter.' }, details: [] });
    expect(wordpressFamily.noRoute('GET', '/calendar/nope')).toMatchObject({ status: 404, body: { code: 'rest_no_route', data: { status: 404 } } });
    expect(wordpressFamily.malformedBody()).toMatchObject({ status: 400, body: { code: 'rest_invalid_json' } });
  });
});

describe('AWS JSON family', () => {
  const expected: Record<string, [number, string]> = {
    'not found': [400, 'ResourceNotFound'],
    'invalid input': [400, 'ValidationException'],
    forbidden: [400, 'AccessDeniedException'],
    unauthenticated: [400, 'UnrecognizedClientException'],
    conflict: [400, 'ConflictException'],
    gone: [400, 'ResourceNotFound'],
    'rate limited': [400, 'ThrottlingException'],
    unavailable: [503, 'ServiceUnavailable'],
    'resolution unchanged': [400, 'ValidationException'],
    'invalid cursor': [400, 'ValidationException'],
    'unsupported media type': [400, 'UnsupportedMediaTypeException'],
    'body too large': [413, 'RequestEntityTooLargeException'],
  };

  it.each(ERRORS)('%s -> { __type, message } and x-amzn-errortype', (name, e) => {
    const [status, type] = expected[name];
    const r = awsFamily.errorReply(e);
    expect(r.status).toBe(status);
    expect(body(r)).toEqual({ __type: type, message: e.message });
    expect(r.headers).toMatchObject({ 'x-amzn-errortype': type });
  });

  it('unknown operations, malformed bodies and bugs', () => {
    expect(awsFamily.unknownOperation('Svc.Nope', 'POST', '/')).toMatchObject({ status: 400, body: { __type: 'UnknownOperationException', message: "Unknown operation 'Svc.Nope'" } });
    expect(body(awsFamily.unknownOperation('x'.repeat(5000), 'POST', '/')).message.length).toBeLessThan(200);
    expect(awsFamily.malformedBody()).toMatchObject({ status: 400, body: { __type: 'SerializationException' } });
    expect(awsFamily.internalError('r')).toMatchObject({ status: 500, body: { __type: 'InternalFailure' } });
  });
});

describe('GraphQL', () => {
  const format = makeFormatError();
  const formatted = (e: AppError) => format({ message: e.message, path: ['x'] }, new GraphQLError(e.message, { originalError: e }));

  it('maps the category to extensions.code and adds the domain code when there is one', () => {
    expect(formatted(new NotFoundError())).toEqual({ message: 'Not Found', path: ['x'], extensions: { code: 'NOT_FOUND' } });
    expect(formatted(new ValidationError('The alert is already open', { domainCode: SECRET_SCANNING_CODES.RESOLUTION_UNCHANGED }))).toEqual({
      message: 'The alert is already open',
      path: ['x'],
      extensions: { code: 'BAD_USER_INPUT', domainCode: 'RESOLUTION_UNCHANGED' },
    });
  });

  it('request-level failures on /graphql keep GraphQL’s shape with the statuses GitHub uses', () => {
    expect(graphqlHttpErrors.malformedBody()).toMatchObject({ status: 400, body: { errors: [{ extensions: { code: 'BAD_REQUEST' } }] } });
    expect(graphqlHttpErrors.errorReply(new ValidationError('Request body is too large', { domainCode: REQUEST_CODES.BODY_TOO_LARGE }))).toMatchObject({
      status: 413,
      body: { errors: [{ message: 'Request body is too large', extensions: { code: 'BAD_REQUEST' } }] },
    });
    expect(graphqlHttpErrors.httpError(408, 'timeout')).toMatchObject({ status: 408, body: { errors: [{ extensions: { code: 'REQUEST_TIMEOUT' } }] } });
  });
});

describe('which family answers a request no route took', () => {
  it.each([
    ['/nope', {}, 'github'],
    ['/calendar', {}, 'wordpress'],
    ['/calendar/events/v1/x?y=1', {}, 'wordpress'],
    ['/calendarx', {}, 'github'],
    ['/workflow', {}, 'aws'],
    ['/', { 'x-amz-target': 'AWSStepFunctions.ListActivities' }, 'aws'],
  ])('%s %j -> %s', (url, headers, family) => {
    expect(familyOf({ url, headers }).name).toBe(family);
  });

  it('every family is registered under its own name', () => {
    for (const [name, f] of Object.entries(FAMILIES)) expect(f.name).toBe(name);
  });
});
