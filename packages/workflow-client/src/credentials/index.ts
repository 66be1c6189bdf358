/**
 * The `credentials` and `token` options (reference §1, PHP ClientResolver::_apply_credentials/_apply_token/
 * _apply_profile), resolved into providers the signer calls before every attempt.
 *
 * credentials:
 * - a function → used as the provider, called before every signing as in PHP (not memoized: a function that
 *   fetches should cache itself); its answer is checked: Credentials, the array form, or null;
 * - a `Credentials` object → always those;
 * - the array form `{key, secret, token?, expires?, accountId?}` → a Credentials of them (`expires` epoch seconds);
 * - `false` → null credentials: requests go unsigned (the client forces the `anonymous` signature version);
 * - unset (`undefined`/`null`) → the default chain: environment (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY,
 *   AWS_SESSION_TOKEN, AWS_ACCOUNT_ID), then the profile in the shared credentials file, then in the shared config
 *   file (files skipped when `use_vendor_shared_config_files` is false), memoized and refreshed on expiry;
 * - anything else (including `true`) → InvalidArgumentError with PHP's message.
 * The `profile` option (ctx.explicitProfile) overrides all of that: the profile's credentials from the shared files,
 * whatever `credentials` says, as in PHP where `profile` is processed first.
 *
 * token (bearer tokens):
 * - a function / a `Token` / `{token, expires?}` as above;
 * - `false` → no token. The SPEC says "false means no token"; the reference notes the stored PHP code documents
 *   that but throws. We follow the spec.
 * - unset → no token. PHP's default token provider reads an SSO session's cached token (`sso_session` profiles);
 *   this client does not implement SSO, so the default resolves to null (documented, not an error).
 * - anything else (including `true`) → InvalidArgumentError.
 */
import { InvalidArgumentError } from '../errors';
import { Credentials, CredentialProvider, ResolveContext, Token, TokenProvider } from '../types';
import { defaultProvider, profileProvider } from './providers';

export { CredentialsError, chain, defaultProvider, fromEnv, fromIni, memoize, profileProvider } from './providers';

export const CREDENTIALS_ERROR =
  'Credentials must be an instance of Credentials, an associative array that contains "key", "secret", and an optional "token" key-value pairs, a credentials provider function, or false.';
export const TOKEN_ERROR =
  'Token must be an instance of Token, an associative array that contains "token" and an optional "expires" key-value pair, a token provider function, or false.';

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

const optionalString = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);
const optionalEpoch = (v: unknown): number | undefined =>
  typeof v === 'number' && Number.isFinite(v) ? v : v instanceof Date ? Math.floor(v.getTime() / 1000) : undefined;

/** The array form → Credentials, or undefined when it lacks a string key and secret. */
function credentialsFromArray(value: Record<string, unknown>): Credentials | undefined {
  if (typeof value.key !== 'string' || typeof value.secret !== 'string' || value.key === '' || value.secret === '') return undefined;
  return new Credentials(value.key, value.secret, optionalString(value.token), optionalEpoch(value.expires), optionalString(value.accountId));
}

/** Normalizes what a user's provider function gave (Credentials, the array form, or null for anonymous). */
function checkedCredentials(value: unknown): Credentials | null {
  if (value instanceof Credentials || value === null) return value;
  if (isRecord(value)) {
    const creds = credentialsFromArray(value);
    if (creds) return creds;
  }
  throw new InvalidArgumentError(`The credentials provider function must return a Credentials object, an associative array with "key" and "secret", or null.`);
}

export function resolveCredentials(value: unknown, ctx: ResolveContext): CredentialProvider {
  if (ctx.explicitProfile) return profileProvider(ctx);
  if (value === undefined || value === null) return defaultProvider(ctx);
  if (typeof value === 'function') {
    const fn = value as () => unknown;
    return async () => checkedCredentials(await fn());
  }
  if (value instanceof Credentials) return async () => value;
  if (value === false) return async () => null;
  if (isRecord(value)) {
    const creds = credentialsFromArray(value);
    if (creds) return async () => creds;
  }
  throw new InvalidArgumentError(CREDENTIALS_ERROR);
}

function checkedToken(value: unknown): Token | null {
  if (value instanceof Token || value === null) return value;
  if (isRecord(value) && typeof value.token === 'string' && value.token !== '') return new Token(value.token, optionalEpoch(value.expires));
  throw new InvalidArgumentError('The token provider function must return a Token object, an associative array with "token", or null.');
}

export function resolveToken(value: unknown, _ctx: ResolveContext): TokenProvider {
  if (value === undefined || value === null || value === false) return async () => null;
  if (typeof value === 'function') {
    const fn = value as () => unknown;
    return async () => checkedToken(await fn());
  }
  if (value instanceof Token) return async () => value;
  if (isRecord(value) && typeof value.token === 'string' && value.token !== '') {
    const token = new Token(value.token, optionalEpoch(value.expires));
    return async () => token;
  }
  throw new InvalidArgumentError(TOKEN_ERROR);
}
