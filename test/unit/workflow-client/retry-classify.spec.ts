/**
 * Which failures each mode retries (reference §3 lists), and the @smithy/core/retry pieces reused for it still
 * holding the documented numbers (an SDK upgrade that changes them fails here, not silently in production).
 */
import * as smithyRetry from '@smithy/core/retry';
import { InvalidArgumentError, WorkflowServiceException } from '../../../packages/workflow-client/src/errors';
import { isLegacyRetryableError, isLegacyRetryableResult, QUOTA_STANDARD, retryErrorType } from '../../../packages/workflow-client/src/retry';

const command = { name: 'DescribeExecution', args: {} };
const wse = (init: Partial<ConstructorParameters<typeof WorkflowServiceException>[1]>) =>
  new WorkflowServiceException('Error executing "DescribeExecution"', { command, ...init });
const errno = (code: string) => Object.assign(new Error(`connect ${code}`), { code });

const THROTTLING_CODES = [
  'Throttling',
  'ThrottlingException',
  'ThrottledException',
  'RequestThrottledException',
  'TooManyRequestsException',
  'ProvisionedThroughputExceededException',
  'TransactionInProgressException',
  'RequestLimitExceeded',
  'BandwidthLimitExceeded',
  'LimitExceededException',
  'RequestThrottled',
  'SlowDown',
  'PriorRequestNotComplete',
  'EC2ThrottledException',
];

describe('reused @smithy/core/retry pieces hold the documented numbers', () => {
  it('quota 500 / retry cost 5 / timeout cost 10 / +1; bases 100 and 500 ms; cap 20 s; header names', () => {
    expect(QUOTA_STANDARD).toEqual({ capacity: 500, throttlingCost: 5, transientCost: 10, noRetryIncrement: 1 });
    expect(smithyRetry.DEFAULT_RETRY_DELAY_BASE).toBe(100);
    expect(smithyRetry.THROTTLING_RETRY_DELAY_BASE).toBe(500);
    expect(smithyRetry.MAXIMUM_RETRY_DELAY).toBe(20_000);
    expect(smithyRetry.INVOCATION_ID_HEADER).toBe('amz-sdk-invocation-id');
    expect(smithyRetry.REQUEST_HEADER).toBe('amz-sdk-request');
  });
});

describe('standard/adaptive classification', () => {
  it.each(THROTTLING_CODES)('%s is THROTTLING', (code) => {
    expect(retryErrorType(wse({ code, statusCode: 400, type: 'client' }))).toBe('THROTTLING');
  });

  it('HTTP 429 and the throttling flag are THROTTLING', () => {
    expect(retryErrorType(wse({ code: 'SomethingElse', statusCode: 429 }))).toBe('THROTTLING');
    expect(retryErrorType(wse({ code: 'ModelledBusy', statusCode: 400, throttling: true, retryable: true }))).toBe('THROTTLING');
  });

  it('timeouts codes, 500/502/503/504, connection errors, socket errno codes and the retryable flag are TRANSIENT', () => {
    for (const code of ['RequestTimeout', 'RequestTimeoutException']) expect(retryErrorType(wse({ code, statusCode: 400 }))).toBe('TRANSIENT');
    for (const statusCode of [500, 502, 503, 504]) expect(retryErrorType(wse({ code: 'InternalFailure', statusCode }))).toBe('TRANSIENT');
    expect(retryErrorType(wse({ connectionError: true, previous: new Error('socket hang up') }))).toBe('TRANSIENT');
    for (const code of ['ECONNRESET', 'ECONNREFUSED', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']) {
      expect(retryErrorType(wse({ previous: errno(code) }))).toBe('TRANSIENT');
      // A raw socket error from a custom handler, as the JS SDK classifies it.
      expect(retryErrorType(errno(code))).toBe('TRANSIENT');
    }
    expect(retryErrorType(wse({ code: 'ModelledRetryable', statusCode: 400, retryable: true }))).toBe('TRANSIENT');
  });

  it('other 4xx, other 5xx and non-service errors are not retried', () => {
    expect(retryErrorType(wse({ code: 'ValidationException', statusCode: 400 }))).toBe('CLIENT_ERROR');
    expect(retryErrorType(wse({ code: 'ExecutionDoesNotExist', statusCode: 400 }))).toBe('CLIENT_ERROR');
    expect(retryErrorType(wse({ code: 'NotImplemented', statusCode: 501 }))).toBe('SERVER_ERROR');
    // InternalError is transient only in the 2026 variant (PHP's addition), see retry-modes.spec.ts.
    expect(retryErrorType(wse({ code: 'InternalError', statusCode: 400 }))).toBe('CLIENT_ERROR');
    expect(retryErrorType(new InvalidArgumentError('bad input'))).toBe('CLIENT_ERROR');
    expect(retryErrorType('a string')).toBe('CLIENT_ERROR');
    expect(retryErrorType(null)).toBe('CLIENT_ERROR');
  });
});

describe('legacy classification (PHP RetryMiddleware)', () => {
  it("PHP's eight codes, connection errors and 500/502/503/504 are retried", () => {
    for (const code of [
      'RequestLimitExceeded',
      'Throttling',
      'ThrottlingException',
      'ThrottledException',
      'ProvisionedThroughputExceededException',
      'RequestThrottled',
      'BandwidthLimitExceeded',
      'RequestThrottledException',
    ]) {
      expect(isLegacyRetryableError(wse({ code, statusCode: 400 }))).toBe(true);
    }
    expect(isLegacyRetryableError(wse({ connectionError: true }))).toBe(true);
    for (const statusCode of [500, 502, 503, 504]) expect(isLegacyRetryableError(wse({ statusCode }))).toBe(true);
  });

  it('anything else is not: 429, TooManyRequestsException, 501, plain errors', () => {
    expect(isLegacyRetryableError(wse({ code: 'TooManyRequestsException', statusCode: 429 }))).toBe(false);
    expect(isLegacyRetryableError(wse({ code: 'SlowDown', statusCode: 400 }))).toBe(false);
    expect(isLegacyRetryableError(wse({ statusCode: 501 }))).toBe(false);
    expect(isLegacyRetryableError(errno('ECONNRESET'))).toBe(false);
  });

  it('a Result carrying a retry status (a custom handler that resolves on 503) is retried', () => {
    expect(isLegacyRetryableResult({ '@metadata': { statusCode: 503, headers: {}, transferStats: {} } })).toBe(true);
    expect(isLegacyRetryableResult({ '@metadata': { statusCode: 200, headers: {}, transferStats: {} } })).toBe(false);
  });
});
