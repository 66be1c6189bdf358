/**
 * The `retries` option and the `retry` middleware (reference §3): legacy, standard and adaptive modes.
 *
 * OWNED BY THE RETRIES WORK. Contract used by the client core:
 *  - `resolveRetries(value, ctx)` parses the option (int → legacy with n retries; `{mode, max_attempts}`; a
 *    RetryConfig; a callable returning one; unset → env AWS_RETRY_MODE / AWS_MAX_ATTEMPTS, shared config
 *    `retry_mode` / `max_attempts`, else legacy with 3 retries), throwing ConfigurationError on bad values.
 *  - `retryMiddleware(config, { stats })` is appended to the `sign` step before the signer, so every attempt is
 *    re-signed. It reads `command.args['@retries']` (per-command max retries), sets `command.args['@http'].delay`
 *    (ms) for the terminal handler to sleep, adds `amz-sdk-invocation-id` / `amz-sdk-request` headers, and with
 *    `stats` adds `retries_attempted` / `total_retry_delay` to the result's (or exception's) transfer info.
 *
 * This first version only parses the option and passes requests through; the retries work replaces it.
 */
import { ConfigurationError } from '../errors';
import type { Middleware, ResolveContext, RetryConfig } from '../types';

export function resolveRetries(value: unknown, _ctx: ResolveContext): RetryConfig {
  if (value === undefined || value === null) return { mode: 'legacy', maxAttempts: 4 };
  if (typeof value === 'number' && Number.isInteger(value) && value >= 0) return { mode: 'legacy', maxAttempts: value + 1 };
  throw new ConfigurationError('Invalid retries configuration');
}

export function retryMiddleware(_config: RetryConfig, _options: { stats: boolean }): Middleware {
  return (next) => next;
}
