/**
 * The `retries` option (reference §1 + §3): every accepted form, the env / shared-config defaults, and PHP's errors.
 */
import { ConfigurationError, InvalidArgumentError } from '../../../packages/workflow-client/src/errors';
import { resolveRetries, RetryResolveContext } from '../../../packages/workflow-client/src/retry';

const ctx = (env: Record<string, string> = {}, extra: Partial<RetryResolveContext> = {}): RetryResolveContext => ({
  env,
  homeDir: '/nonexistent',
  useSharedConfigFiles: true,
  ...extra,
});

describe('retries option: explicit forms', () => {
  it('an integer n is legacy mode with n retries (n + 1 attempts); 0 disables retrying', () => {
    expect(resolveRetries(3, ctx())).toEqual({ mode: 'legacy', maxAttempts: 4 });
    expect(resolveRetries(0, ctx())).toEqual({ mode: 'legacy', maxAttempts: 1 });
    expect(resolveRetries(10, ctx())).toEqual({ mode: 'legacy', maxAttempts: 11 });
  });

  it('the array form {mode, max_attempts} counts attempts; max_attempts defaults to 3', () => {
    expect(resolveRetries({ mode: 'standard', max_attempts: 5 }, ctx())).toEqual({ mode: 'standard', maxAttempts: 5 });
    expect(resolveRetries({ mode: 'adaptive' }, ctx())).toEqual({ mode: 'adaptive', maxAttempts: 3 });
    expect(resolveRetries({ mode: 'legacy', max_attempts: 2 }, ctx())).toEqual({ mode: 'legacy', maxAttempts: 2 });
  });

  it('the mode is case-insensitive (PHP lower-cases it)', () => {
    expect(resolveRetries({ mode: 'STANDARD', max_attempts: 2 }, ctx())).toEqual({ mode: 'standard', maxAttempts: 2 });
  });

  it('a RetryConfig-like object, a PHP ConfigurationInterface-like object, and a callable returning either', () => {
    expect(resolveRetries({ mode: 'adaptive', maxAttempts: 7 }, ctx())).toEqual({ mode: 'adaptive', maxAttempts: 7 });
    expect(resolveRetries({ getMode: () => 'standard', getMaxAttempts: () => 6 }, ctx())).toEqual({ mode: 'standard', maxAttempts: 6 });
    expect(resolveRetries(() => ({ mode: 'standard', max_attempts: 2 }), ctx())).toEqual({ mode: 'standard', maxAttempts: 2 });
    expect(resolveRetries(() => 2, ctx())).toEqual({ mode: 'legacy', maxAttempts: 3 });
  });

  it("a bad mode is a ConfigurationError with PHP's message", () => {
    expect(() => resolveRetries({ mode: 'Turbo', max_attempts: 3 }, ctx())).toThrow(ConfigurationError);
    expect(() => resolveRetries({ mode: 'Turbo', max_attempts: 3 }, ctx())).toThrow(
      "'turbo' is not a valid mode. The mode has to be 'legacy', 'standard', or 'adaptive'.",
    );
  });

  it('max_attempts must be an integer >= 1', () => {
    for (const bad of [0, -1, 2.5, 'x', true]) {
      expect(() => resolveRetries({ mode: 'standard', max_attempts: bad }, ctx())).toThrow(
        new ConfigurationError("The 'maxAttempts' parameter has to be an integer >= 1."),
      );
    }
    // Numeric strings pass, as PHP's is_numeric/intval check lets them.
    expect(resolveRetries({ mode: 'standard', max_attempts: '4' }, ctx())).toEqual({ mode: 'standard', maxAttempts: 4 });
    // A negative integer form is -1 retries = 0 attempts.
    expect(() => resolveRetries(-1, ctx())).toThrow(ConfigurationError);
  });

  it('other shapes are an InvalidArgumentError', () => {
    for (const bad of ['3', true, 1.5, { max_attempts: 3 }, [], () => () => 3, () => Promise.resolve(3)]) {
      const call = () => resolveRetries(bad, ctx());
      expect(call).toThrow(InvalidArgumentError);
      expect(call).toThrow(/Not a valid retry configuration argument/);
    }
  });
});

describe('retries option: unset', () => {
  it('falls back to legacy with 3 attempts (PHP Configuration(legacy, 3))', () => {
    expect(resolveRetries(undefined, ctx())).toEqual({ mode: 'legacy', maxAttempts: 3 });
    expect(resolveRetries(null, ctx())).toEqual({ mode: 'legacy', maxAttempts: 3 });
  });

  it('AWS_RETRY_MODE / AWS_MAX_ATTEMPTS from the environment', () => {
    expect(resolveRetries(undefined, ctx({ AWS_RETRY_MODE: 'standard', AWS_MAX_ATTEMPTS: '6' }))).toEqual({ mode: 'standard', maxAttempts: 6 });
    expect(resolveRetries(undefined, ctx({ AWS_RETRY_MODE: 'adaptive' }))).toEqual({ mode: 'adaptive', maxAttempts: 3 });
    expect(resolveRetries(undefined, ctx({ AWS_MAX_ATTEMPTS: '5' }))).toEqual({ mode: 'legacy', maxAttempts: 5 });
    expect(() => resolveRetries(undefined, ctx({ AWS_RETRY_MODE: 'fast' }))).toThrow("'fast' is not a valid mode.");
    expect(() => resolveRetries(undefined, ctx({ AWS_RETRY_MODE: 'standard', AWS_MAX_ATTEMPTS: 'zero' }))).toThrow(
      "The 'maxAttempts' parameter has to be an integer >= 1.",
    );
  });

  it('the shared config profile (retry_mode / max_attempts) after the environment, unless the files are off', () => {
    const sharedConfig = { retry_mode: 'adaptive', max_attempts: '8' };
    expect(resolveRetries(undefined, ctx({}, { sharedConfig }))).toEqual({ mode: 'adaptive', maxAttempts: 8 });
    expect(resolveRetries(undefined, ctx({ AWS_RETRY_MODE: 'standard' }, { sharedConfig }))).toEqual({ mode: 'standard', maxAttempts: 3 });
    expect(resolveRetries(undefined, ctx({}, { sharedConfig, useSharedConfigFiles: false }))).toEqual({ mode: 'legacy', maxAttempts: 3 });
  });

  it('an explicit value wins over the environment', () => {
    expect(resolveRetries(0, ctx({ AWS_RETRY_MODE: 'standard', AWS_MAX_ATTEMPTS: '9' }))).toEqual({ mode: 'legacy', maxAttempts: 1 });
  });

  it('the 2026 numbers are opt-in (AWS_NEW_RETRIES_2026=true or variant), for standard/adaptive only', () => {
    expect(resolveRetries({ mode: 'standard' }, ctx({ AWS_NEW_RETRIES_2026: 'true' }))).toEqual({ mode: 'standard', maxAttempts: 3, variant: '2026' });
    expect(resolveRetries({ mode: 'adaptive', variant: '2026' }, ctx())).toEqual({ mode: 'adaptive', maxAttempts: 3, variant: '2026' });
    expect(resolveRetries({ mode: 'standard', variant: 'standard' }, ctx({ AWS_NEW_RETRIES_2026: 'true' }))).toEqual({ mode: 'standard', maxAttempts: 3 });
    expect(resolveRetries(2, ctx({ AWS_NEW_RETRIES_2026: 'true' }))).toEqual({ mode: 'legacy', maxAttempts: 3 });
    expect(() => resolveRetries({ mode: 'standard', variant: '2027' }, ctx())).toThrow(InvalidArgumentError);
  });
});
