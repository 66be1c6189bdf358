/**
 * Which failures are retried (reference §3), per mode:
 *
 *  - legacy (PHP RetryMiddleware::createDefaultDecider): a WorkflowServiceException that is a connection error,
 *    has one of PHP's eight retryable codes, or has status 500/502/503/504 (also a Result carrying such a status,
 *    which a custom `handler` may resolve with). curl errno 56 (CURLE_RECV_ERROR) is a connection error here.
 *    Anything else (a plain Error, an argument error) is not retried.
 *  - standard/adaptive: the SDK classification (JS getRetryErrorType): THROTTLING (the 14 throttling codes, HTTP
 *    429, the `throttling` flag = Smithy's `$retryable.throttling`), else TRANSIENT (RequestTimeout /
 *    RequestTimeoutException / TimeoutError, 500/502/503/504, connection errors, Node socket/DNS errno codes
 *    anywhere in the `previous`/`cause` chain, HTTP/2 REFUSED_STREAM, the modelled `retryable` flag), else
 *    SERVER_ERROR (other 5xx) or CLIENT_ERROR; only THROTTLING and TRANSIENT are retried.
 *
 * The standard lists are not copied: `isThrottlingError` / `isTransientError` from @smithy/core/retry (the AWS
 * SDK for JavaScript's own code) are reused through a small adapter that presents a WorkflowServiceException in
 * the SDK error shape ({name: code, $metadata.httpStatusCode, $retryable, cause}). Their lists match the
 * reference's lists exactly (checked in retry-classify.spec.ts, so an upgrade that changes them fails a test).
 */
import { isThrottlingError, isTransientError } from '@smithy/core/retry';
import { WorkflowServiceException } from '../errors';
import type { Result } from '../types';

export type RetryErrorType = 'THROTTLING' | 'TRANSIENT' | 'SERVER_ERROR' | 'CLIENT_ERROR';

/** PHP RetryMiddleware::$retryCodes (legacy mode). */
export const LEGACY_RETRY_CODES: ReadonlySet<string> = new Set([
  'RequestLimitExceeded',
  'Throttling',
  'ThrottlingException',
  'ThrottledException',
  'ProvisionedThroughputExceededException',
  'RequestThrottled',
  'BandwidthLimitExceeded',
  'RequestThrottledException',
]);

/** PHP RetryMiddleware::$retryStatusCodes; also the transient statuses of standard mode. */
export const RETRY_STATUS_CODES: ReadonlySet<number> = new Set([500, 502, 503, 504]);

/** Legacy decision for a rejection (PHP isRetryable with `$error`). */
export function isLegacyRetryableError(error: unknown): boolean {
  if (!(error instanceof WorkflowServiceException)) return false;
  if (error.connectionError) return true;
  if (error.code !== undefined && LEGACY_RETRY_CODES.has(error.code)) return true;
  return error.statusCode !== undefined && RETRY_STATUS_CODES.has(error.statusCode);
}

/** Legacy decision for a fulfilled Result (PHP isRetryable with `$result`): its status is a retry status. */
export function isLegacyRetryableResult(result: Result | undefined): boolean {
  const status = result?.['@metadata']?.statusCode;
  return typeof status === 'number' && RETRY_STATUS_CODES.has(status);
}

/** The SDK error shape @smithy/core/retry classifies. */
interface SdkErrorView {
  name: string;
  message: string;
  code?: string;
  $metadata: { httpStatusCode?: number };
  $retryable?: { throttling?: boolean };
  cause?: unknown;
}

function sdkView(error: WorkflowServiceException): SdkErrorView {
  return {
    name: error.code ?? error.name,
    message: error.message,
    $metadata: { httpStatusCode: error.statusCode },
    $retryable: error.throttling ? { throttling: true } : error.retryable ? { throttling: false } : undefined,
    // The socket error (ECONNRESET, ETIMEDOUT, ...) is the `previous` one; smithy walks `cause`.
    cause: error.previous,
  };
}

/** Standard/adaptive classification (JS getRetryErrorType). */
export function retryErrorType(error: unknown): RetryErrorType {
  if (error === null || typeof error !== 'object') return 'CLIENT_ERROR';
  if (error instanceof WorkflowServiceException) {
    const view = sdkView(error);
    if (isThrottlingError(view as never)) return 'THROTTLING';
    if (error.connectionError || isTransientError(view as never)) return 'TRANSIENT';
    return error.statusCode !== undefined && error.statusCode >= 500 && error.statusCode <= 599 ? 'SERVER_ERROR' : 'CLIENT_ERROR';
  }
  // A raw error from a custom handler: classified as the JS SDK would (errno codes, `$metadata`, `name`).
  if (isThrottlingError(error as never)) return 'THROTTLING';
  if (isTransientError(error as never)) return 'TRANSIENT';
  return 'CLIENT_ERROR';
}

export const isRetryableErrorType = (t: RetryErrorType): boolean => t === 'THROTTLING' || t === 'TRANSIENT';
