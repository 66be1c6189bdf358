/**
 * The `credentials` and `token` options (reference §1): a provider callable, a Credentials/Token object, an array
 * form `{key, secret, token?, expires?, accountId?}` / `{token, expires?}`, `false` (no credentials: unsigned
 * requests), or unset (the default provider chain: environment, then the shared config and credentials files in the
 * home directory unless `use_vendor_shared_config_files` is false, under `profile`).
 *
 * OWNED BY THE CREDENTIALS WORK: this first version handles the explicit forms only; the default chain (env vars,
 * INI files, profiles, caching, expiry refresh) is added there.
 */
import { InvalidArgumentError } from '../errors';
import { Credentials, CredentialProvider, ResolveContext, Token, TokenProvider } from '../types';

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export function resolveCredentials(value: unknown, _ctx: ResolveContext): CredentialProvider {
  if (typeof value === 'function') return value as CredentialProvider;
  if (value instanceof Credentials) return async () => value;
  if (value === false) return async () => null;
  if (isRecord(value)) {
    if (typeof value.key !== 'string' || typeof value.secret !== 'string') {
      throw new InvalidArgumentError('Credentials must be an instance of Credentials, an associative array that contains "key", "secret", and an optional "token" key-value pairs, a credentials provider function, or false.');
    }
    const creds = new Credentials(value.key, value.secret, typeof value.token === 'string' ? value.token : undefined, typeof value.expires === 'number' ? value.expires : undefined, typeof value.accountId === 'string' ? value.accountId : undefined);
    return async () => creds;
  }
  throw new InvalidArgumentError('Credentials must be an instance of Credentials, an associative array that contains "key", "secret", and an optional "token" key-value pairs, a credentials provider function, or false.');
}

export function resolveToken(value: unknown, _ctx: ResolveContext): TokenProvider {
  if (typeof value === 'function') return value as TokenProvider;
  if (value instanceof Token) return async () => value;
  if (value === false || value === undefined || value === null) return async () => null;
  if (isRecord(value) && typeof value.token === 'string') {
    const token = new Token(value.token, typeof value.expires === 'number' ? value.expires : undefined);
    return async () => token;
  }
  throw new InvalidArgumentError('Token must be an instance of Token, an associative array that contains "token" and an optional "expires" key-value pair, a token provider function, or false.');
}
