/**
 * The `stats` option (reference §1): `true` = every statistic; an object merges over all-off
 * (`{ retries, http, timer }`). `retries` is reported by the retry middleware (`retries_attempted`,
 * `total_retry_delay`), `http` by the HTTP handler (`transferStats.http`: one entry per attempt), `timer` here:
 * `total_time` (seconds, the whole command with its retries) in the Result's `@metadata.transferStats`, or in the
 * WorkflowServiceException's `transferInfo`.
 */
import { InvalidArgumentError, WorkflowServiceException } from './errors';
import type { Middleware } from './types';

export interface StatsConfig {
  retries: boolean;
  http: boolean;
  timer: boolean;
}

export function resolveStats(value: unknown): StatsConfig {
  if (value === undefined || value === null || value === false) return { retries: false, http: false, timer: false };
  if (value === true) return { retries: true, http: true, timer: true };
  if (typeof value === 'object' && !Array.isArray(value)) {
    const out: StatsConfig = { retries: false, http: false, timer: false };
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
      if (!(k in out)) throw new InvalidArgumentError(`Unknown stats option "${k.slice(0, 64)}" (known: retries, http, timer)`);
      if (typeof v !== 'boolean') throw new InvalidArgumentError(`The stats option "${k}" must be a boolean`);
      out[k as keyof StatsConfig] = v;
    }
    return out;
  }
  throw new InvalidArgumentError('The stats option must be a boolean or an object {retries, http, timer}');
}

/** Adds `total_time` (s) to the command's transfer stats. */
export function timerMiddleware(): Middleware {
  return (next) => async (command, request) => {
    const t0 = process.hrtime.bigint();
    const secs = () => Number(process.hrtime.bigint() - t0) / 1e9;
    try {
      const result = await next(command, request);
      result['@metadata'].transferStats = { ...result['@metadata'].transferStats, total_time: secs() };
      return result;
    } catch (e) {
      if (e instanceof WorkflowServiceException) e.transferInfo = { ...e.transferInfo, total_time: secs() };
      throw e;
    }
  };
}
