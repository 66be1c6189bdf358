/**
 * The shared AWS config and credentials files (`~/.aws/config`, `~/.aws/credentials`) for the workflow client:
 * an INI parser with the AWS CLI/SDK rules and lookups of profile settings (`region`, `retry_mode`,
 * `max_attempts`, `sdk_ua_app_id`, `account_id_endpoint_mode`, `csm_*`, credentials keys).
 *
 * Why our own parser: the files' dialect is not plain INI. The config file names profiles `[profile name]` (and
 * `[default]`, also spelled `[profile default]`), the credentials file names them `[name]`; `#` and `;` start a
 * comment at the start of a line or after whitespace; a key with an empty value opens an indented sub-section
 * (`s3 =\n  max_concurrent_requests = 20`) whose keys are stored as `parent.key` and never leak into the
 * profile's own keys. Section and key maps have no prototype, so a profile called `__proto__` or `constructor`
 * cannot reach Object.prototype.
 *
 * Where the files live (reference §1, PHP CredentialProvider/ConfigurationProvider): `AWS_CONFIG_FILE` and
 * `AWS_SHARED_CREDENTIALS_FILE` from the context's env, else `<homeDir>/.aws/config|credentials`. Nothing is read
 * when `use_vendor_shared_config_files` is false (`ctx.useSharedConfigFiles`), except that an explicit `profile`
 * option still reads them (the reference: the flag "is ignored when profile is set").
 */
import { readFileSync, statSync } from 'node:fs';
import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { InvalidArgumentError } from './errors';
import { describeType } from './resolver';
import type { ResolveContext } from './types';

export type IniSection = Record<string, string>;
export type IniData = Record<string, IniSection>;

const SUBSECTION_SEPARATOR = '.';

/** Strips a comment: `#`/`;` at the line start or after whitespace (a value like `a#b` keeps its `#`). */
function stripComment(line: string): string {
  const m = /(^|\s)[#;]/.exec(line);
  return m ? line.slice(0, m.index) : line;
}

/**
 * Parses one shared file. Section names are kept as written inside the brackets (trimmed, inner whitespace
 * collapsed: `[profile   foo]` → `profile foo`); use `profileSection` to look a profile up.
 */
export function parseIni(text: string): IniData {
  const data: IniData = Object.create(null) as IniData;
  let section: IniSection | undefined;
  let subSection: string | undefined;
  for (const rawLine of text.split(/\r?\n/)) {
    const line = stripComment(rawLine).trim();
    if (line === '') continue;
    if (line.startsWith('[')) {
      subSection = undefined;
      if (!line.endsWith(']')) {
        section = undefined; // a malformed header: ignore its keys rather than file them under the previous profile
        continue;
      }
      const name = line.slice(1, -1).trim().replace(/\s+/g, ' ');
      section = data[name] ?? (data[name] = Object.create(null) as IniSection);
      continue;
    }
    if (!section) continue;
    const eq = line.indexOf('=');
    if (eq <= 0) continue;
    const key = line.slice(0, eq).trim();
    const value = line.slice(eq + 1).trim();
    const indented = /^\s/.test(rawLine);
    if (value === '') {
      // `key =` opens a nested block; an empty value at the top level is also just that (no value to store).
      subSection = indented && subSection ? subSection : key;
      continue;
    }
    if (indented && subSection) {
      section[`${subSection}${SUBSECTION_SEPARATOR}${key}`] = value;
    } else {
      subSection = undefined;
      section[key] = value;
    }
  }
  return data;
}

export function configFilePath(ctx: Pick<ResolveContext, 'env' | 'homeDir'>): string {
  return ctx.env.AWS_CONFIG_FILE || path.join(ctx.homeDir, '.aws', 'config');
}

export function credentialsFilePath(ctx: Pick<ResolveContext, 'env' | 'homeDir'>): string {
  return ctx.env.AWS_SHARED_CREDENTIALS_FILE || path.join(ctx.homeDir, '.aws', 'credentials');
}

/** The profile in force: the `profile` option, else AWS_PROFILE, else `default`. */
export function profileName(ctx: Pick<ResolveContext, 'env' | 'profile'>): string {
  return ctx.profile || ctx.env.AWS_PROFILE || 'default';
}

/** Whether the shared files may be read under this context. */
export function sharedFilesEnabled(ctx: ResolveContext): boolean {
  return ctx.useSharedConfigFiles || ctx.explicitProfile === true;
}

/**
 * A profile's section. In the config file `[profile x]` (and, for `default`, `[default]` first, then
 * `[profile default]`); in the credentials file `[x]`.
 */
export function profileSection(data: IniData, profile: string, kind: 'config' | 'credentials'): IniSection | undefined {
  if (kind === 'credentials') return data[profile];
  if (profile === 'default') return data.default ?? data['profile default'];
  return data[`profile ${profile}`];
}

const cache = new Map<string, { mtimeMs: number; size: number; data: IniData }>();

/** Reads and parses a file; undefined when it does not exist or cannot be read. Re-reads when it changed. */
export function loadIniFileSync(file: string): IniData | undefined {
  try {
    const st = statSync(file);
    const hit = cache.get(file);
    if (hit && hit.mtimeMs === st.mtimeMs && hit.size === st.size) return hit.data;
    const data = parseIni(readFileSync(file, 'utf8'));
    if (cache.size > 32) cache.clear();
    cache.set(file, { mtimeMs: st.mtimeMs, size: st.size, data });
    return data;
  } catch {
    return undefined;
  }
}

/** Async twin of `loadIniFileSync` for the credential providers (they run per request when not memoized). */
export async function loadIniFile(file: string): Promise<IniData | undefined> {
  try {
    const st = await fsp.stat(file);
    const hit = cache.get(file);
    if (hit && hit.mtimeMs === st.mtimeMs && hit.size === st.size) return hit.data;
    const data = parseIni(await fsp.readFile(file, 'utf8'));
    if (cache.size > 32) cache.clear();
    cache.set(file, { mtimeMs: st.mtimeMs, size: st.size, data });
    return data;
  } catch {
    return undefined;
  }
}

/**
 * A setting of the current profile in the shared config file (`region`, `retry_mode`, `max_attempts`,
 * `sdk_ua_app_id`, `account_id_endpoint_mode`, ...; nested keys as `parent.key`). Undefined when the files are off,
 * absent, or the profile or key is missing. Only the config file holds settings (as PHP's ConfigurationProvider::ini).
 */
export function sharedConfigValue(ctx: ResolveContext, key: string): string | undefined {
  if (!sharedFilesEnabled(ctx)) return undefined;
  const data = loadIniFileSync(configFilePath(ctx));
  if (!data) return undefined;
  return profileSection(data, profileName(ctx), 'config')?.[key];
}

/** An environment variable, else the shared config setting: the order of every DEFAULT_FROM_ENV_INI option. */
export function envOrSharedConfig(ctx: ResolveContext, envName: string, iniKey: string): string | undefined {
  const fromEnv = ctx.env[envName];
  if (fromEnv !== undefined && fromEnv !== '') return fromEnv;
  return sharedConfigValue(ctx, iniKey);
}

/**
 * Builds the context option resolution reads: the real environment and home directory unless given (tests pass
 * their own env object and a temporary home), the `profile` option (explicit, so it overrides given credentials
 * and reads the files even with `use_vendor_shared_config_files: false`), else AWS_PROFILE, else `default`.
 */
export function createResolveContext(
  options: { profile?: unknown; use_vendor_shared_config_files?: unknown },
  env: Record<string, string | undefined> = process.env,
  homeDir: string = env.HOME || os.homedir(),
): ResolveContext {
  const explicit = typeof options.profile === 'string' && options.profile !== '';
  return {
    env,
    homeDir,
    useSharedConfigFiles: options.use_vendor_shared_config_files !== false,
    profile: explicit ? (options.profile as string) : env.AWS_PROFILE || 'default',
    explicitProfile: explicit,
  };
}

export const APP_ID_MAX_LENGTH = 50;

/**
 * The `app_id` option (reference §1): the given string, else env `AWS_SDK_UA_APP_ID`, else the profile's
 * `sdk_ua_app_id`. A value longer than 50 characters is kept but warned about (PHP: E_USER_WARNING), via
 * `process.emitWarning`. Anything but a string (or unset) is an InvalidArgumentError.
 */
export function resolveAppId(value: unknown, ctx: ResolveContext): string | undefined {
  let appId: string | undefined;
  if (value === undefined || value === null) {
    appId = envOrSharedConfig(ctx, 'AWS_SDK_UA_APP_ID', 'sdk_ua_app_id');
  } else if (typeof value === 'string') {
    appId = value;
  } else {
    throw new InvalidArgumentError(
      `Invalid configuration value provided for "app_id". Expected string, but got ${describeType(value)}\n\n` +
        'app_id: (string) Application-specific identifier appended to the User-Agent header as app/<AppId>.',
    );
  }
  if (appId === undefined || appId === '') return undefined;
  if (appId.length > APP_ID_MAX_LENGTH) {
    process.emitWarning(`The provided or configured value for \`AppId\`, which is an user agent parameter, exceeds the maximum length of ${APP_ID_MAX_LENGTH} characters.`, 'AppIdWarning');
  }
  return appId;
}

