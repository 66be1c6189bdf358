/**
 * The `retries` constructor option (reference §1 and §3), resolved the way aws-sdk-php's ClientResolver
 * (`_apply_retries`) and Aws\Retry\ConfigurationProvider (`unwrap`, `env`, `ini`, `fallback`) do, into a
 * `RetryConfig { mode, maxAttempts }`:
 *
 *  - an integer n ≥ 0 → legacy mode with n RETRIES (n + 1 attempts); 0 disables retrying;
 *  - the array form `{ mode, max_attempts? }` → that mode with max_attempts ATTEMPTS (default 3);
 *  - a RetryConfig-like object (`{ mode, maxAttempts }`, or PHP's ConfigurationInterface shape with
 *    `getMode()` / `getMaxAttempts()`), or a callable returning any of these forms;
 *  - unset (undefined / null) → env `AWS_RETRY_MODE` (+ `AWS_MAX_ATTEMPTS`, default 3), else the shared config
 *    profile's `retry_mode` (+ `max_attempts`), else legacy with max_attempts 3.
 *
 * So in standard/adaptive mode `max_attempts` counts attempts (default 3, as the SDKs & Tools reference guide
 * says), while the bare integer form counts retries (legacy). The unset fallback is PHP's
 * `new Configuration('legacy', 3)`: 3 attempts = 2 retries (see DEFAULT_MAX_ATTEMPTS below).
 *
 * Opt-in "retries 2026" numbers for standard/adaptive (middleware.ts): env AWS_NEW_RETRIES_2026=true (PHP's
 * switch) or `variant: '2026'` on the object forms; the result then carries `variant: '2026'`.
 *
 * Errors are PHP's: a bad mode → ConfigurationError `'x' is not a valid mode. The mode has to be 'legacy',
 * 'standard', or 'adaptive'.` (mode lower-cased first, as PHP does); a bad max_attempts → ConfigurationError
 * `The 'maxAttempts' parameter has to be an integer >= 1.`; any other shape → InvalidArgumentError
 * `Not a valid retry configuration argument.`
 */
import { ConfigurationError, InvalidArgumentError } from '../errors';
import type { ResolveContext, RetryConfig } from '../types';

export type RetryMode = RetryConfig['mode'];

/** Which standard/adaptive numbers the middleware uses: the documented pre-2026 ones, or the opt-in 2026 ones. */
export type RetryVariant = 'standard' | '2026';

/**
 * A RetryConfig as resolveRetries returns it. `variant: '2026'` is set (standard/adaptive only) when the
 * environment opts in with AWS_NEW_RETRIES_2026=true (PHP's switch) or a RetryConfig-like object carries it.
 */
export type ResolvedRetryConfig = RetryConfig & { variant?: RetryVariant };
export const ENV_NEW_RETRIES_2026 = 'AWS_NEW_RETRIES_2026';
export const RETRY_MODES: readonly RetryMode[] = ['legacy', 'standard', 'adaptive'];

/** PHP Aws\Retry\ConfigurationProvider::DEFAULT_MAX_ATTEMPTS (array form without max_attempts, env, ini, fallback). */
export const DEFAULT_MAX_ATTEMPTS = 3;
/** PHP Aws\Retry\ConfigurationProvider::DEFAULT_MODE. */
export const DEFAULT_MODE: RetryMode = 'legacy';

export const ENV_RETRY_MODE = 'AWS_RETRY_MODE';
export const ENV_MAX_ATTEMPTS = 'AWS_MAX_ATTEMPTS';
export const INI_RETRY_MODE = 'retry_mode';
export const INI_MAX_ATTEMPTS = 'max_attempts';

/**
 * The second argument may carry the selected profile's section of the shared config file (`~/.aws/config`),
 * read by the credentials work's config-files.ts; it is ignored when `useSharedConfigFiles` is false.
 */
export type RetryResolveContext = ResolveContext & { sharedConfig?: Record<string, string | undefined> };

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** PHP Aws\Retry\Configuration::__construct: validates and normalises mode and max attempts. */
export function retryConfiguration(mode: unknown, maxAttempts: unknown): RetryConfig {
  const m = String(mode).toLowerCase();
  if (!(RETRY_MODES as readonly string[]).includes(m)) {
    throw new ConfigurationError(`'${m}' is not a valid mode. The mode has to be 'legacy', 'standard', or 'adaptive'.`);
  }
  // PHP: is_numeric($n) && intval($n) == $n && $n >= 1 — numeric strings from env/ini are accepted.
  const n =
    typeof maxAttempts === 'number' ? maxAttempts : typeof maxAttempts === 'string' && /^\s*\d+(\.0*)?\s*$/.test(maxAttempts) ? Number(maxAttempts) : NaN;
  if (!Number.isInteger(n) || n < 1) {
    throw new ConfigurationError("The 'maxAttempts' parameter has to be an integer >= 1.");
  }
  return { mode: m as RetryMode, maxAttempts: n };
}

/** PHP ConfigurationProvider::unwrap for an explicitly given value. */
function unwrap(value: unknown, depth = 0): ResolvedRetryConfig {
  if (typeof value === 'function') {
    if (depth > 0) throw new InvalidArgumentError('Not a valid retry configuration argument.');
    return unwrap((value as () => unknown)(), depth + 1);
  }
  if (typeof value === 'number') {
    if (!Number.isInteger(value)) throw new InvalidArgumentError('Not a valid retry configuration argument.');
    // An integer is the legacy number of retries, incremented to translate to max attempts.
    return retryConfiguration('legacy', value + 1);
  }
  if (isRecord(value)) {
    if (typeof (value as { then?: unknown }).then === 'function') {
      throw new InvalidArgumentError('Not a valid retry configuration argument. A callable must return the configuration itself, not a Promise.');
    }
    // ConfigurationInterface (getMode / getMaxAttempts), e.g. a PHP-style configuration object.
    if (typeof value.getMode === 'function' && typeof value.getMaxAttempts === 'function') {
      return withVariant(retryConfiguration((value.getMode as () => unknown)(), (value.getMaxAttempts as () => unknown)()), variantOf(value));
    }
    if (value.mode !== undefined && value.mode !== null) {
      // The array form uses max_attempts; a RetryConfig uses maxAttempts.
      const max = value.max_attempts ?? value.maxAttempts ?? DEFAULT_MAX_ATTEMPTS;
      return withVariant(retryConfiguration(value.mode, max), variantOf(value));
    }
  }
  throw new InvalidArgumentError('Not a valid retry configuration argument.');
}

const present = (v: string | undefined): v is string => v !== undefined && v.trim() !== '';

/**
 * The default provider chain (env, then the shared config profile, then legacy/3). Each source needs its mode key
 * to apply, as in PHP; a max-attempts key alone (AWS_MAX_ATTEMPTS or the profile's `max_attempts`) also applies,
 * with the default mode (legacy) — PHP's original chain ignored it, its 2026 fix and the JS SDK honour it.
 */
function fromEnvironment(ctx: RetryResolveContext): RetryConfig {
  const env = ctx.env ?? {};
  const ini = ctx.useSharedConfigFiles === false ? {} : (ctx.sharedConfig ?? {});
  if (present(env[ENV_RETRY_MODE])) {
    return retryConfiguration(env[ENV_RETRY_MODE]!.trim(), present(env[ENV_MAX_ATTEMPTS]) ? env[ENV_MAX_ATTEMPTS] : DEFAULT_MAX_ATTEMPTS);
  }
  if (present(ini[INI_RETRY_MODE])) {
    return retryConfiguration(ini[INI_RETRY_MODE]!.trim(), present(ini[INI_MAX_ATTEMPTS]) ? ini[INI_MAX_ATTEMPTS] : DEFAULT_MAX_ATTEMPTS);
  }
  if (present(env[ENV_MAX_ATTEMPTS])) return retryConfiguration(DEFAULT_MODE, env[ENV_MAX_ATTEMPTS]);
  if (present(ini[INI_MAX_ATTEMPTS])) return retryConfiguration(DEFAULT_MODE, ini[INI_MAX_ATTEMPTS]);
  return retryConfiguration(DEFAULT_MODE, DEFAULT_MAX_ATTEMPTS);
}

/**
 * Resolves the `retries` option. `null`/`undefined` = unset (the default chain). Throws ConfigurationError /
 * InvalidArgumentError synchronously on a bad value.
 */
export function resolveRetries(value: unknown, ctx: RetryResolveContext): ResolvedRetryConfig {
  const config: ResolvedRetryConfig = value === undefined || value === null ? fromEnvironment(ctx) : unwrap(value);
  const envOptIn = (ctx.env?.[ENV_NEW_RETRIES_2026] ?? '').trim().toLowerCase() === 'true';
  if (config.variant === undefined && envOptIn) config.variant = '2026';
  if (config.mode === 'legacy' || config.variant === 'standard') delete config.variant;
  return config;
}

/** `variant` of a RetryConfig-like object, if it carries one. */
function variantOf(value: Record<string, unknown>): RetryVariant | undefined {
  if (value.variant === undefined || value.variant === null) return undefined;
  if (value.variant !== 'standard' && value.variant !== '2026') {
    throw new InvalidArgumentError(`Not a valid retry configuration argument. "variant" must be 'standard' or '2026'.`);
  }
  return value.variant;
}

const withVariant = (config: RetryConfig, variant: RetryVariant | undefined): ResolvedRetryConfig =>
  variant === undefined ? config : { ...config, variant };
