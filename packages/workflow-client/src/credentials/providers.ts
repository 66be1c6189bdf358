/**
 * Credential providers of the workflow client (PHP's Aws\Credentials\CredentialProvider, reference §1): the
 * environment, a profile of the shared credentials file and of the shared config file, their chain, and memoize
 * (resolve once, resolve again when the credentials have expired or the last attempt failed).
 *
 * A provider that finds nothing rejects with a `CredentialsError` saying where it looked (variable names, file
 * paths, profile names) and why each place gave nothing; no message ever includes a secret key or session token.
 */
import { configFilePath, credentialsFilePath, loadIniFile, profileName, profileSection, sharedFilesEnabled } from '../config-files';
import { Credentials, CredentialProvider, ResolveContext } from '../types';

/** A provider could not produce credentials; `attempts` lists each place tried and why it gave nothing. */
export class CredentialsError extends Error {
  override name = 'CredentialsError';
  constructor(
    message: string,
    readonly attempts: string[] = [],
  ) {
    super(message);
  }
}

/** Rejection of a provider that found nothing at its place (the chain goes on to the next one). */
class NotFound extends CredentialsError {
  override name = 'CredentialsError';
}

export const ENV_KEY = 'AWS_ACCESS_KEY_ID';
export const ENV_SECRET = 'AWS_SECRET_ACCESS_KEY';
export const ENV_SESSION = 'AWS_SESSION_TOKEN';
export const ENV_ACCOUNT_ID = 'AWS_ACCOUNT_ID';

/** Credentials from AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY (+ AWS_SESSION_TOKEN, AWS_ACCOUNT_ID). */
export function fromEnv(ctx: ResolveContext): CredentialProvider {
  return async () => {
    const key = ctx.env[ENV_KEY];
    const secret = ctx.env[ENV_SECRET];
    if (key && secret) {
      return new Credentials(key, secret, ctx.env[ENV_SESSION] || undefined, undefined, ctx.env[ENV_ACCOUNT_ID] || undefined);
    }
    const why = key ? `${ENV_SECRET} is not set` : secret ? `${ENV_KEY} is not set` : 'not set';
    throw new NotFound(`environment variables ${ENV_KEY}/${ENV_SECRET} (${why})`);
  };
}

/** Profile keys that name a way of getting credentials this client does not implement (said in the error). */
const UNSUPPORTED_SOURCES = ['role_arn', 'credential_process', 'sso_session', 'sso_start_url', 'web_identity_token_file'];

/**
 * Credentials from the profile's section of one shared file: `aws_access_key_id`, `aws_secret_access_key`,
 * `aws_session_token`, `aws_account_id`. `kind` decides the section naming (`[name]` vs `[profile name]`).
 */
export function fromIni(ctx: ResolveContext, kind: 'credentials' | 'config'): CredentialProvider {
  return async () => {
    const file = kind === 'credentials' ? credentialsFilePath(ctx) : configFilePath(ctx);
    const profile = profileName(ctx);
    const where = `profile '${profile}' in ${file}`;
    const data = await loadIniFile(file);
    if (!data) throw new NotFound(`${where} (cannot read the file)`);
    const section = profileSection(data, profile, kind);
    if (!section) throw new NotFound(`${where} (no such profile)`);
    const key = section.aws_access_key_id;
    const secret = section.aws_secret_access_key;
    if (key && secret) {
      return new Credentials(key, secret, section.aws_session_token || undefined, undefined, section.aws_account_id || undefined);
    }
    const other = UNSUPPORTED_SOURCES.filter((k) => section[k] !== undefined);
    const why = other.length
      ? `it uses ${other.join(', ')}, which this client does not support`
      : key
        ? 'aws_secret_access_key is missing'
        : secret
          ? 'aws_access_key_id is missing'
          : 'no aws_access_key_id/aws_secret_access_key';
    throw new NotFound(`${where} (${why})`);
  };
}

/**
 * Tries providers in order; the first that fulfils wins. An error that is not "nothing here" (a provider
 * callable that threw) stops the chain. When all find nothing: `Error retrieving credentials: none found; looked in
 * <place (why)>; <place (why)>`.
 */
export function chain(...providers: CredentialProvider[]): CredentialProvider {
  return async () => {
    const attempts: string[] = [];
    for (const provider of providers) {
      try {
        return await provider();
      } catch (err) {
        if (err instanceof NotFound) attempts.push(err.message);
        else throw err;
      }
    }
    throw new CredentialsError(`Error retrieving credentials: none found; looked in ${attempts.join('; ')}`, attempts);
  };
}

/** A provider for an explicit place that already failed to configure (e.g. the shared files switched off). */
function nothingAt(place: string): CredentialProvider {
  return async () => {
    throw new NotFound(place);
  };
}

/** The shared-file part of the chain: credentials file, then config file (or a note that both are switched off). */
export function fromSharedFiles(ctx: ResolveContext): CredentialProvider[] {
  if (!sharedFilesEnabled(ctx)) return [nothingAt('the shared config and credentials files (not read: use_vendor_shared_config_files is false)')];
  return [fromIni(ctx, 'credentials'), fromIni(ctx, 'config')];
}

/**
 * Caches what `provider` gives. Calls it again when the cached credentials have expired (`expires` passed), and
 * after a rejection (a failure is never cached). Concurrent callers share one pending call.
 */
export function memoize<T extends { isExpired(now?: number): boolean } | null>(provider: () => Promise<T>, now: () => number = Date.now): () => Promise<T> {
  let pending: Promise<T> | undefined;
  let value: T | undefined;
  let has = false;
  const load = (): Promise<T> => {
    if (!pending) {
      pending = provider().then(
        (v) => {
          value = v;
          has = true;
          pending = undefined;
          return v;
        },
        (err: unknown) => {
          pending = undefined;
          throw err;
        },
      );
    }
    return pending;
  };
  return () => {
    if (has && !(value !== null && value !== undefined && value.isExpired(now()))) return Promise.resolve(value as T);
    return load();
  };
}

/**
 * PHP's CredentialProvider::defaultProvider for this client: environment, then the shared credentials file, then
 * the shared config file (under the context's profile), memoized.
 */
export function defaultProvider(ctx: ResolveContext): CredentialProvider {
  return memoize(chain(fromEnv(ctx), ...fromSharedFiles(ctx)));
}

/** The `profile` option's provider (PHP CredentialProvider::ini): that profile of the shared files only, memoized. */
export function profileProvider(ctx: ResolveContext): CredentialProvider {
  return memoize(chain(fromIni(ctx, 'credentials'), fromIni(ctx, 'config')));
}
