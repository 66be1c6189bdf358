/**
 * The `retries` option and the `retry` middleware (reference §3): legacy, standard and adaptive modes.
 *
 * Contract used by the client core:
 *  - `resolveRetries(value, ctx)` parses the option (config.ts): int n → legacy with n retries (0 disables);
 *    `{mode, max_attempts}` (max_attempts counts attempts, default 3); a RetryConfig-like object; a callable
 *    returning one; unset → env AWS_RETRY_MODE / AWS_MAX_ATTEMPTS, the shared config profile's `retry_mode` /
 *    `max_attempts` (pass them as `ctx.sharedConfig`), else legacy with 3 attempts. Throws ConfigurationError /
 *    InvalidArgumentError on bad values.
 *  - `retryMiddleware(config, { stats })` (middleware.ts) is appended to the `sign` step before the signer, so
 *    every attempt is re-signed; call it once per client (its quota and rate limiter are per client). It reads
 *    `command.args['@retries']`, sets `command.args['@http'].delay` (ms) for the terminal handler to sleep, adds
 *    `amz-sdk-invocation-id` / `amz-sdk-request` headers, and with `stats` adds `retries_attempted` /
 *    `total_retry_delay` to the result's (or exception's) transfer info.
 */
export {
  resolveRetries,
  retryConfiguration,
  DEFAULT_MAX_ATTEMPTS,
  DEFAULT_MODE,
  RETRY_MODES,
  ENV_RETRY_MODE,
  ENV_MAX_ATTEMPTS,
  ENV_NEW_RETRIES_2026,
} from './config';
export type { ResolvedRetryConfig, RetryResolveContext, RetryMode, RetryVariant } from './config';
export { retryMiddleware, legacyDelay, standardDelay, retryAfterHintMs, LEGACY_RETRY_HEADER } from './middleware';
export type { RetryMiddleware, RetryMiddlewareOptions } from './middleware';
export { RetryQuota, QUOTA_STANDARD, QUOTA_2026 } from './quota';
export type { QuotaCosts } from './quota';
export { ClientRateLimiter } from './rate-limiter';
export type { RateLimiterOptions } from './rate-limiter';
export { retryErrorType, isLegacyRetryableError, isLegacyRetryableResult, LEGACY_RETRY_CODES, RETRY_STATUS_CODES } from './classify';
export type { RetryErrorType } from './classify';
