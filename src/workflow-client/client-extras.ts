/**
 * The seam between the client core and the options about the environment and observability: the resolve context
 * (environment, home directory, profile), shared-config values, `app_id`, `stats`, `debug` and `csm`.
 * TEMPORARY first version (core integration); the credentials/observability work replaces these bodies.
 */
import * as os from 'node:os';
import type { Service } from './api';
import type { HandlerList } from './handler-list';
import type { ResolveContext } from './types';

export interface ExtraOptions {
  csm?: boolean | { enabled?: boolean; host?: string; port?: number; client_id?: string } | (() => unknown);
  debug?: boolean | { logfn?: (line: string) => void; stream_size?: number; scrub_auth?: boolean; http?: boolean };
  stats?: boolean | { retries?: boolean; http?: boolean; timer?: boolean };
}

export interface ResolvedExtras {
  appId?: string;
  stats: { retries: boolean; http: boolean; timer: boolean };
  sharedConfig: Record<string, string | undefined>;
}

export function makeResolveContext(options: { profile?: string; use_vendor_shared_config_files?: boolean }, env: Record<string, string | undefined>): ResolveContext {
  return {
    env,
    homeDir: env.HOME || os.homedir(),
    useSharedConfigFiles: options.use_vendor_shared_config_files !== false,
    profile: options.profile ?? (env.AWS_PROFILE || 'default'),
  };
}

export function envOrSharedConfigValue(ctx: ResolveContext, envName: string, _iniKey: string): string | undefined {
  return ctx.env[envName] || undefined;
}

export function resolveExtras(values: { app_id: unknown; csm: unknown; debug: unknown; stats: unknown }, ctx: ResolveContext): ResolvedExtras {
  const s = values.stats;
  const stats = s === true ? { retries: true, http: true, timer: true } : { retries: false, http: false, timer: false, ...(s && typeof s === 'object' ? (s as object) : {}) };
  return { appId: (values.app_id as string | undefined) ?? ctx.env.AWS_SDK_UA_APP_ID, stats, sharedConfig: {} };
}

export function extraMiddleware(_list: HandlerList, _extras: ResolvedExtras, _meta: { service: string; region: string; api: Service }): void {}
