/**
 * The options about the environment and observability, wired into the client's handler list: the resolve context
 * (environment, home directory, profile: config-files.ts), shared-config values, `app_id`, `stats` (stats.ts),
 * `debug` (debug.ts, through `interpose`) and `csm` (csm.ts: build and attempt steps).
 */
import type { Service } from './api';
import { resolveAppId, sharedConfigValue } from './config-files';
import { csmMiddlewares, resolveCsm, type CsmConfig } from './csm';
import { httpTraceMiddleware, resolveDebug, traceMiddleware, type DebugConfig } from './debug';
import type { HandlerList } from './handler-list';
import { resolveStats, timerMiddleware, type StatsConfig } from './stats';
import type { ResolveContext } from './types';

export interface ExtraOptions {
  csm?: boolean | { enabled?: boolean; host?: string; port?: number; client_id?: string } | (() => unknown);
  debug?: boolean | { logfn?: (line: string) => void; stream_size?: number; scrub_auth?: boolean; http?: boolean };
  stats?: boolean | { retries?: boolean; http?: boolean; timer?: boolean };
}

export interface ResolvedExtras {
  appId?: string;
  stats: StatsConfig;
  debug: DebugConfig | null;
  csm: CsmConfig;
  /** The profile's shared-config settings the retries option reads. */
  sharedConfig: Record<string, string | undefined>;
}

export function resolveExtras(values: { app_id: unknown; csm: unknown; debug: unknown; stats: unknown }, ctx: ResolveContext): ResolvedExtras {
  return {
    appId: resolveAppId(values.app_id, ctx),
    stats: resolveStats(values.stats),
    debug: resolveDebug(values.debug),
    csm: resolveCsm(values.csm, ctx),
    sharedConfig: { retry_mode: sharedConfigValue(ctx, 'retry_mode'), max_attempts: sharedConfigValue(ctx, 'max_attempts') },
  };
}

export function extraMiddleware(list: HandlerList, extras: ResolvedExtras, meta: { service: string; region: string; api: Service; userAgent: string }): void {
  if (extras.stats.timer) list.prependInit(timerMiddleware(), 'stats_timer');
  if (extras.csm.enabled) {
    const csm = csmMiddlewares(extras.csm, { service: meta.service, region: meta.region, userAgent: () => meta.userAgent });
    list.appendBuild(csm.build, 'ApiCallMonitoringMiddleware');
    list.appendAttempt(csm.attempt, 'ApiCallAttemptMonitoringMiddleware');
  }
  if (extras.debug) {
    if (extras.debug.http) list.appendAttempt(httpTraceMiddleware(extras.debug), 'debug_http');
    list.interpose(traceMiddleware(extras.debug));
  }
}
