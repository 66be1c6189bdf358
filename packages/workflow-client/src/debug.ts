/**
 * The `debug` option (PHP TraceMiddleware, reference §1): `true` or `{ logfn, stream_size, scrub_auth, http }`
 * (defaults: write to stdout, 524288, true, true). Through `handlerList.interpose`, every middleware of every step
 * logs entering (`-> Entering step build, name 'builder'`) with what the command and request look like at that
 * point, and leaving (`<- Leaving step build, name 'builder'`) with the result's or error's summary and the time
 * spent. With `scrub_auth` (default) the signature of `Authorization`, `X-Amz-Security-Token` and access key ids
 * (AKIA…/ASIA…) are masked; bodies longer than `stream_size` characters are not logged (0: never); `http` (default
 * true) also logs the HTTP exchange as sent and answered.
 */
import { InvalidArgumentError, WorkflowServiceException } from './errors';
import type { Interposer } from './handler-list';
import type { CommandLike, HandlerStep, Middleware, Result, WireRequest } from './types';

export interface DebugConfig {
  logfn: (line: string) => void;
  stream_size: number;
  scrub_auth: boolean;
  http: boolean;
}

export function resolveDebug(value: unknown): DebugConfig | null {
  if (value === undefined || value === null || value === false) return null;
  const base: DebugConfig = { logfn: (line) => void process.stdout.write(`${line}\n`), stream_size: 524_288, scrub_auth: true, http: true };
  if (value === true) return base;
  if (typeof value !== 'object' || Array.isArray(value)) throw new InvalidArgumentError('The debug option must be a boolean or an object {logfn, stream_size, scrub_auth, http}');
  const v = value as Record<string, unknown>;
  if (v.logfn !== undefined && typeof v.logfn !== 'function') throw new InvalidArgumentError('debug.logfn must be a function');
  if (v.stream_size !== undefined && (typeof v.stream_size !== 'number' || !Number.isInteger(v.stream_size) || v.stream_size < 0)) throw new InvalidArgumentError('debug.stream_size must be a whole number ≥ 0');
  for (const k of ['scrub_auth', 'http'] as const) if (v[k] !== undefined && typeof v[k] !== 'boolean') throw new InvalidArgumentError(`debug.${k} must be a boolean`);
  return {
    logfn: (v.logfn as DebugConfig['logfn']) ?? base.logfn,
    stream_size: (v.stream_size as number | undefined) ?? base.stream_size,
    scrub_auth: (v.scrub_auth as boolean | undefined) ?? true,
    http: (v.http as boolean | undefined) ?? true,
  };
}

const KEY_ID = /\b((?:AKIA|ASIA|AKID)[A-Z0-9]{4,})\b/g;

export function scrub(text: string): string {
  return text
    .replace(/(Signature=)[0-9a-f]+/gi, '$1[SIGNATURE]')
    .replace(/("?x-amz-security-token"?\s*[:=]\s*"?)[^",\s}]+/gi, '$1[TOKEN]')
    .replace(KEY_ID, (m) => `${m.slice(0, 4)}[KEY]`);
}

function describeRequest(r: WireRequest | undefined, cfg: DebugConfig): Record<string, unknown> | undefined {
  if (!r) return undefined;
  const port = r.port ? `:${r.port}` : '';
  return {
    method: r.method,
    url: `${r.protocol}//${r.hostname}${port}${r.path}`,
    headers: r.headers,
    body: cfg.stream_size > 0 && r.body.length <= cfg.stream_size ? r.body : `[${r.body.length} characters not logged]`,
  };
}

function args(c: CommandLike): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(c.args)) if (k !== '@context') out[k] = v;
  return out;
}

/** The interposer for `handlerList.interpose(...)`: one log line in and one out per middleware. */
export function traceMiddleware(cfg: DebugConfig): Interposer {
  const log = (line: string) => {
    try {
      cfg.logfn(cfg.scrub_auth ? scrub(line) : line);
    } catch {
      // a failing log function never fails the command
    }
  };
  return (step: HandlerStep, name: string): Middleware =>
    (next) =>
    async (command, request) => {
      const label = `step ${step}, name '${name || 'anonymous'}'`;
      log(`-> Entering ${label}\n  command: ${JSON.stringify({ name: command.name, args: args(command) })}${request ? `\n  request: ${JSON.stringify(describeRequest(request, cfg))}` : ''}`);
      const t0 = process.hrtime.bigint();
      const ms = () => (Number(process.hrtime.bigint() - t0) / 1e6).toFixed(1);
      try {
        const result: Result = await next(command, request);
        log(`<- Leaving ${label} after ${ms()} ms\n  result: ${JSON.stringify({ statusCode: result['@metadata']?.statusCode, keys: Object.keys(result).filter((k) => k !== '@metadata') })}`);
        return result;
      } catch (e) {
        const err = e instanceof WorkflowServiceException ? { code: e.code, statusCode: e.statusCode, connectionError: e.connectionError, message: e.message } : { message: (e as Error)?.message };
        log(`<- Leaving ${label} after ${ms()} ms\n  error: ${JSON.stringify(err)}`);
        throw e;
      }
    };
}

/**
 * `debug.http`: the HTTP exchange itself (the request as signed and sent, the status and headers answered), from the
 * innermost place of the attempt step.
 */
export function httpTraceMiddleware(cfg: DebugConfig): Middleware {
  const log = (line: string) => {
    try {
      cfg.logfn(cfg.scrub_auth ? scrub(line) : line);
    } catch {
      // a failing log function never fails the command
    }
  };
  return (next) => async (command, request) => {
    log(`* HTTP request: ${JSON.stringify(describeRequest(request, cfg))}`);
    try {
      const result = await next(command, request);
      log(`* HTTP response: ${JSON.stringify({ statusCode: result['@metadata'].statusCode, headers: result['@metadata'].headers })}`);
      return result;
    } catch (e) {
      const r = e instanceof WorkflowServiceException ? e.response : undefined;
      log(`* HTTP ${r ? `response: ${JSON.stringify({ statusCode: r.statusCode, headers: r.headers, body: cfg.stream_size > 0 && r.body.length <= cfg.stream_size ? r.body : `[${r.body.length} characters not logged]` })}` : `error: ${(e as Error)?.message}`}`);
      throw e;
    }
  };
}

