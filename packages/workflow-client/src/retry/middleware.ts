/**
 * The `retry` middleware (reference §3). The client core appends it to the `sign` step before the signer, so every
 * attempt passes through the signer again and is re-signed (fresh X-Amz-Date and signature). One instance per
 * client: its retry quota (standard/adaptive) and rate limiter (adaptive) are shared by all of that client's
 * commands, as the SDKs' per-client retry strategy is.
 *
 * Every attempt carries `amz-sdk-invocation-id` (one UUID per operation) and `amz-sdk-request: attempt=N; max=M`;
 * legacy mode also sends PHP's `aws-sdk-retry: <retries>/<delay ms>` (`0/0` on the first attempt, as PHP does).
 * The per-command `@retries` argument overrides the maximum number of retries (max attempts = @retries + 1).
 *
 * Modes:
 *  - legacy — PHP RetryMiddleware: no quota; retried on connection errors, PHP's eight throttling codes and
 *    500/502/503/504 (classify.ts); delay before retry k (k = 0, 1, …) is mt_rand(0, min(20000, 2^k·100)) ms,
 *    i.e. an integer uniform in [0, cap] inclusive.
 *  - standard — the AWS SDK for JavaScript's StandardRetryStrategy before "retries 2026", the variant whose
 *    numbers the SDKs & Tools reference guide (and our brief) document: quota 500 / 5 / 10 / refund (quota.ts);
 *    only THROTTLING and TRANSIENT errors retried; delay before retry i (i = 0, 1, …) is
 *    floor(b · min(x · 2^i, 20000)) ms with b uniform in [0, 1) and x = 100 ms, or 500 ms after a throttling
 *    error. Chosen over PHP's RetryMiddlewareV2 (min(1000·rand·2^attempts, 20000): another base, and a quota taken
 *    even when max attempts then refuses the retry) because it is the documented cross-SDK behaviour, and over
 *    2026 because 2026 is still opt-in in PHP and in the Smithy repository.
 *  - standard with the 2026 variant (opt-in: `variant: '2026'`, from env AWS_NEW_RETRIES_2026=true): base 50 ms,
 *    throttling base 1000 ms, retry cost 14, throttling cost 5, InternalError transient, and retry-after hints
 *    (`x-amz-retry-after` ms, `retry-after` seconds or HTTP date) clamped to [backoff, backoff + 5 s]; a long-poll
 *    operation (GetActivityTask) refused by the quota sleeps the backoff before failing.
 *  - adaptive — standard plus the CUBIC client rate limiter (rate-limiter.ts): every attempt first takes a send
 *    token (sleeping when the bucket is short), and every response updates the sending rate.
 *
 * Sleeping: the backoff is not slept here. Like PHP, the middleware sets `command.args['@http'].delay` (ms) and
 * the terminal HTTP handler waits that long before sending (the core's http-handler honours `@http.delay`; a
 * custom `handler` must too). The command's original `@http` is restored when the operation ends. The rate
 * limiter's waits (adaptive) are slept here, through the injectable `sleep`. Clock, randomness, sleep and the
 * invocation id are injectable so tests can assert exact delays and send gaps.
 *
 * Stats (`stats.retries`): `retries_attempted` and `total_retry_delay` (ms, the sum of the backoff delays) are
 * merged into the Result's `@metadata.transferStats`, or into the WorkflowServiceException's `transferInfo`
 * (0 and 0 when no retry happened); per-attempt `http` stats lists are concatenated across attempts.
 */
import { randomUUID } from 'node:crypto';
import {
  DEFAULT_RETRY_DELAY_BASE,
  INVOCATION_ID_HEADER,
  MAXIMUM_RETRY_DELAY,
  REQUEST_HEADER,
  THROTTLING_RETRY_DELAY_BASE,
} from '@smithy/core/retry';
import { InvalidArgumentError, WorkflowServiceException } from '../errors';
import type { CommandLike, Handler, HttpOptions, Middleware, Result, WireRequest } from '../types';
import { isLegacyRetryableError, isLegacyRetryableResult, isRetryableErrorType, retryErrorType, RetryErrorType } from './classify';
import type { ResolvedRetryConfig } from './config';
import { QUOTA_2026, QUOTA_STANDARD, RetryQuota } from './quota';
import { ClientRateLimiter } from './rate-limiter';

export const LEGACY_RETRY_HEADER = 'aws-sdk-retry';

export interface RetryMiddlewareOptions {
  /** `stats.retries`: report retries_attempted / total_retry_delay. */
  stats: boolean;
  /** Milliseconds since the epoch (rate limiter, retry-after dates). Default Date.now. */
  clock?: () => number;
  /** Uniform in [0, 1) (backoff jitter). Default Math.random. */
  random?: () => number;
  /** Rate-limiter waits and long-poll waits. Default a setTimeout promise. */
  sleep?: (ms: number) => Promise<void>;
  /** One id per operation. Default crypto.randomUUID. */
  invocationId?: () => string;
  /** To share a bucket/limiter explicitly (default: a new one per middleware instance = per client). */
  quota?: RetryQuota;
  rateLimiter?: ClientRateLimiter;
}

/** The middleware, with its per-client state exposed read-only for diagnostics. */
export type RetryMiddleware = Middleware & {
  readonly config: ResolvedRetryConfig;
  readonly quota?: RetryQuota;
  readonly rateLimiter?: ClientRateLimiter;
};

interface BackoffBases {
  base: number;
  throttlingBase: number;
}
const BASES_STANDARD: BackoffBases = { base: DEFAULT_RETRY_DELAY_BASE, throttlingBase: THROTTLING_RETRY_DELAY_BASE };
const BASES_2026: BackoffBases = { base: 50, throttlingBase: 1000 };
/** Long-poll operations (2026): a quota refusal sleeps the backoff before failing. */
const LONG_POLL_OPERATIONS: ReadonlySet<string> = new Set(['GetActivityTask', 'PollForActivityTask', 'PollForDecisionTask', 'ReceiveMessage']);
const RETRY_AFTER_MAX_EXTRA = 5000;

const realSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** PHP RetryMiddleware::exponentialDelay: mt_rand(0, min(20000, 2^retries·100)), inclusive. */
export function legacyDelay(retries: number, random: () => number): number {
  const cap = Math.min(MAXIMUM_RETRY_DELAY, 2 ** retries * 100);
  return Math.min(cap, Math.floor(random() * (cap + 1)));
}

/** JS DefaultRetryBackoffStrategy: floor(b · min(x · 2^i, 20000)). */
export function standardDelay(retryCount: number, base: number, random: () => number): number {
  return Math.floor(random() * Math.min(base * 2 ** retryCount, MAXIMUM_RETRY_DELAY));
}

/** A copy of `request` with `set` replacing any header of the same name in another case. */
function withHeaders(request: WireRequest, set: Record<string, string>): WireRequest {
  const headers: Record<string, string> = {};
  for (const name in request.headers) {
    if (!Object.prototype.hasOwnProperty.call(set, name.toLowerCase())) headers[name] = request.headers[name];
  }
  return { ...request, headers: Object.assign(headers, set) };
}

/** 2026: the retry-after hint of an error's response, in ms from now (JS parseRetryAfterHeader). */
export function retryAfterHintMs(error: unknown, now: number): number | undefined {
  if (!(error instanceof WorkflowServiceException) || !error.response) return undefined;
  const headers = error.response.headers;
  for (const name in headers) {
    const h = name.toLowerCase();
    const v = headers[name];
    if (h === 'x-amz-retry-after') {
      const ms = Number(v);
      return Number.isNaN(ms) ? undefined : ms;
    }
    if (h === 'retry-after') {
      if (/^\d+(\.\d+)?$/.test(v.trim())) return Number(v) * 1000;
      const at = Date.parse(v);
      return Number.isNaN(at) ? undefined : at - now;
    }
  }
  return undefined;
}

function maxRetriesOverride(command: CommandLike): number | undefined {
  const r = command.args['@retries'];
  if (r === undefined || r === null) return undefined;
  if (typeof r !== 'number' || !Number.isInteger(r) || r < 0) {
    throw new InvalidArgumentError(`The "@retries" argument must be an integer >= 0 (the maximum number of retries), got ${typeof r === 'number' ? r : typeof r}.`);
  }
  return r;
}

function httpStatsOf(value: unknown): unknown[] | undefined {
  const ts =
    value instanceof WorkflowServiceException
      ? value.transferInfo
      : value && typeof value === 'object'
        ? ((value as Result)['@metadata']?.transferStats as Record<string, unknown> | undefined)
        : undefined;
  const http = ts?.http;
  return Array.isArray(http) ? http : undefined;
}

export function retryMiddleware(config: ResolvedRetryConfig, options: RetryMiddlewareOptions = { stats: false }): RetryMiddleware {
  const clock = options.clock ?? Date.now;
  const random = options.random ?? Math.random;
  const sleep = options.sleep ?? realSleep;
  const newInvocationId = options.invocationId ?? randomUUID;
  const collectStats = options.stats === true;
  const mode = config.mode;
  const is2026 = config.variant === '2026';
  const bases = is2026 ? BASES_2026 : BASES_STANDARD;
  const quota = mode === 'legacy' ? undefined : (options.quota ?? new RetryQuota(is2026 ? QUOTA_2026 : QUOTA_STANDARD));
  const limiter = mode === 'adaptive' ? (options.rateLimiter ?? new ClientRateLimiter({ clock, sleep })) : undefined;

  const classify = (error: unknown): RetryErrorType => {
    const t = retryErrorType(error);
    if (is2026 && t !== 'THROTTLING' && error instanceof WorkflowServiceException && error.code === 'InternalError') return 'TRANSIENT';
    return t;
  };

  const middleware: Middleware = (next: Handler): Handler =>
    async (command: CommandLike, request?: WireRequest): Promise<Result> => {
      const override = maxRetriesOverride(command);
      const maxAttempts = override !== undefined ? override + 1 : config.maxAttempts;
      const invocationId = newInvocationId();
      const hadHttp = Object.prototype.hasOwnProperty.call(command.args, '@http');
      const originalHttp = command.args['@http'];
      let attempt = 1;
      let delay = 0;
      let totalDelay = 0;
      let lastRetryCost: number | undefined;
      const httpStats: unknown[] = [];

      const report = (retries: number): Record<string, unknown> => {
        const out: Record<string, unknown> = {};
        if (collectStats) {
          out.retries_attempted = retries;
          out.total_retry_delay = totalDelay;
        }
        if (httpStats.length > 0) out.http = [...httpStats];
        return out;
      };
      const bindResult = (result: Result): Result => {
        const extra = report(attempt - 1);
        if (Object.keys(extra).length > 0) {
          const meta = (result['@metadata'] ??= { headers: {}, transferStats: {} });
          meta.transferStats = { ...(meta.transferStats ?? {}), ...extra };
        }
        return result;
      };
      const bindError = (error: unknown): unknown => {
        const extra = report(attempt - 1);
        if (error instanceof WorkflowServiceException && Object.keys(extra).length > 0) {
          error.transferInfo = { ...error.transferInfo, ...extra };
        }
        return error;
      };
      const scheduleRetry = (ms: number) => {
        delay = ms;
        totalDelay += ms;
        const http = (command.args['@http'] as HttpOptions | undefined) ?? {};
        command.args['@http'] = { ...http, delay: ms };
        attempt++;
      };

      try {
        for (;;) {
          if (limiter) await limiter.getSendToken();
          const headers: Record<string, string> = {
            [INVOCATION_ID_HEADER]: invocationId,
            [REQUEST_HEADER]: `attempt=${attempt}; max=${maxAttempts}`,
          };
          if (mode === 'legacy') headers[LEGACY_RETRY_HEADER] = `${attempt - 1}/${delay}`;
          const attemptRequest = request ? withHeaders(request, headers) : request;

          let result: Result;
          try {
            result = await next(command, attemptRequest);
          } catch (error) {
            const stats = httpStatsOf(error);
            if (stats) httpStats.push(...stats);
            // A cancelled request (`@http.signal`) is the caller's decision, not a fault to retry.
            if ((command.args['@http'] as HttpOptions | undefined)?.signal?.aborted) throw bindError(error);
            if (mode === 'legacy') {
              if (attempt >= maxAttempts || !isLegacyRetryableError(error)) throw bindError(error);
              scheduleRetry(legacyDelay(attempt - 1, random));
              continue;
            }
            const errorType = classify(error);
            limiter?.updateClientSendingRate(errorType === 'THROTTLING');
            if (!isRetryableErrorType(errorType) || attempt >= maxAttempts) throw bindError(error);
            let backoff = standardDelay(attempt - 1, errorType === 'THROTTLING' ? bases.throttlingBase : bases.base, random);
            if (is2026) {
              const hint = retryAfterHintMs(error, clock());
              if (hint !== undefined) backoff = Math.max(backoff, Math.min(hint, backoff + RETRY_AFTER_MAX_EXTRA));
            }
            const cost = quota!.acquire(errorType);
            if (cost === undefined) {
              if (is2026 && LONG_POLL_OPERATIONS.has(command.name) && backoff > 0) await sleep(backoff);
              throw bindError(error);
            }
            lastRetryCost = cost;
            scheduleRetry(backoff);
            continue;
          }

          const stats = httpStatsOf(result);
          if (stats) httpStats.push(...stats);
          if (mode === 'legacy') {
            if (attempt < maxAttempts && isLegacyRetryableResult(result)) {
              scheduleRetry(legacyDelay(attempt - 1, random));
              continue;
            }
            return bindResult(result);
          }
          limiter?.updateClientSendingRate(false);
          quota!.release(lastRetryCost);
          return bindResult(result);
        }
      } finally {
        if (attempt > 1) {
          if (hadHttp) command.args['@http'] = originalHttp;
          else delete command.args['@http'];
        }
      }
    };

  return Object.assign(middleware, { config, quota, rateLimiter: limiter }) as RetryMiddleware;
}
