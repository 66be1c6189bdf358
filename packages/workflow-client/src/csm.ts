/**
 * Client-side monitoring (the `csm` option; AWS SDK CSM, as aws-sdk-php's ApiCallMonitoringMiddleware and
 * ApiCallAttemptMonitoringMiddleware): when enabled, one JSON record per HTTP attempt (`ApiCallAttempt`, from the
 * attempt step) and one per command (`ApiCall`, from the build step, around all attempts) go as UDP datagrams to
 * host:port (default 127.0.0.1:31000). Options: `false` (off), `true`, `{enabled, host, port, client_id}`, or a
 * function returning one of those; unset: env AWS_CSM_ENABLED / AWS_CSM_HOST / AWS_CSM_PORT / AWS_CSM_CLIENT_ID
 * (default off). Records carry the access key id like the SDKs' but never the secret or the session token; sending
 * never fails or delays a command.
 */
import * as dgram from 'node:dgram';
import { InvalidArgumentError, WorkflowServiceException } from './errors';
import type { Middleware, ResolveContext, WireRequest } from './types';

export interface CsmConfig {
  enabled: boolean;
  host: string;
  port: number;
  client_id: string;
}

const OFF: CsmConfig = { enabled: false, host: '127.0.0.1', port: 31000, client_id: '' };

export function resolveCsm(value: unknown, ctx: ResolveContext): CsmConfig {
  let v = value;
  if (typeof v === 'function') v = (v as () => unknown)();
  if (v === undefined || v === null) {
    const env = ctx.env;
    return {
      enabled: /^(1|true)$/i.test(env.AWS_CSM_ENABLED ?? ''),
      host: env.AWS_CSM_HOST || OFF.host,
      port: env.AWS_CSM_PORT && /^\d+$/.test(env.AWS_CSM_PORT) ? Number(env.AWS_CSM_PORT) : OFF.port,
      client_id: env.AWS_CSM_CLIENT_ID ?? '',
    };
  }
  if (typeof v === 'boolean') return { ...OFF, enabled: v };
  if (typeof v !== 'object' || Array.isArray(v)) throw new InvalidArgumentError('The csm option must be false, true, an object {enabled, host, port, client_id} or a function returning one');
  const o = v as Record<string, unknown>;
  const port = o.port ?? OFF.port;
  if (typeof port !== 'number' || !Number.isInteger(port) || port < 1 || port > 65535) throw new InvalidArgumentError('csm.port must be a port number (1-65535)');
  if (o.host !== undefined && typeof o.host !== 'string') throw new InvalidArgumentError('csm.host must be a string');
  if (o.client_id !== undefined && typeof o.client_id !== 'string') throw new InvalidArgumentError('csm.client_id must be a string');
  return { enabled: o.enabled === true, host: (o.host as string | undefined) ?? OFF.host, port, client_id: (o.client_id as string | undefined) ?? '' };
}

const cut = (s: string | undefined, n: number) => (s === undefined ? undefined : s.slice(0, n));

function keyIdOf(request: WireRequest | undefined): string | undefined {
  const auth = request?.headers.authorization ?? request?.headers.Authorization;
  const m = auth ? /Credential=([^/]+)\//.exec(auth) : null;
  return m?.[1];
}

/** The middleware of the build (ApiCall) and attempt (ApiCallAttempt) steps. */
export function csmMiddlewares(cfg: CsmConfig, meta: { service: string; region: string; userAgent: () => string }): { build: Middleware; attempt: Middleware; close(): void } {
  let socket: dgram.Socket | undefined;
  const send = (record: Record<string, unknown>) => {
    try {
      if (!socket) {
        socket = dgram.createSocket(cfg.host.includes(':') ? 'udp6' : 'udp4');
        socket.unref();
        socket.on('error', () => undefined);
      }
      const data = Buffer.from(JSON.stringify(record));
      socket.send(data, cfg.port, cfg.host, () => undefined);
    } catch {
      // monitoring never fails a command
    }
  };
  const base = (api: string, type: string) => ({ Version: 1, ClientId: cfg.client_id, Type: type, Service: 'SFN', Api: api, Timestamp: Date.now(), Region: meta.region, UserAgent: cut(meta.userAgent(), 256) });
  const attempts = new WeakMap<object, number>();
  const build: Middleware = (next) => async (command, request) => {
    const t0 = Date.now();
    attempts.set(command, 0);
    try {
      const result = await next(command, request);
      send({ ...base(command.name, 'ApiCall'), Latency: Date.now() - t0, AttemptCount: attempts.get(command) ?? 1, FinalHttpStatusCode: result['@metadata'].statusCode, MaxRetriesExceeded: 0 });
      return result;
    } catch (e) {
      const svc = e instanceof WorkflowServiceException && !e.connectionError;
      send({
        ...base(command.name, 'ApiCall'),
        Latency: Date.now() - t0,
        AttemptCount: attempts.get(command) ?? 1,
        ...(svc ? { FinalHttpStatusCode: e.statusCode, FinalAwsException: cut(e.code, 128), FinalAwsExceptionMessage: cut(e.message, 512) } : { FinalSdkException: cut((e as Error)?.name, 128), FinalSdkExceptionMessage: cut((e as Error)?.message, 512) }),
        MaxRetriesExceeded: e instanceof WorkflowServiceException && (e.retryable || e.connectionError || (e.statusCode ?? 0) >= 500) ? 1 : 0,
      });
      throw e;
    }
  };
  const attempt: Middleware = (next) => async (command, request) => {
    const t0 = Date.now();
    attempts.set(command, (attempts.get(command) ?? 0) + 1);
    const common = { ...base(command.name, 'ApiCallAttempt'), Fqdn: request?.hostname, AccessKey: keyIdOf(request) };
    try {
      const result = await next(command, request);
      const h = result['@metadata'].headers;
      send({ ...common, AttemptLatency: Date.now() - t0, HttpStatusCode: result['@metadata'].statusCode, XAmznRequestId: h['x-amzn-requestid'] });
      return result;
    } catch (e) {
      if (e instanceof WorkflowServiceException && !e.connectionError) {
        send({ ...common, AttemptLatency: Date.now() - t0, HttpStatusCode: e.statusCode, AwsException: cut(e.code, 128), AwsExceptionMessage: cut(e.message, 512), XAmznRequestId: e.requestId });
      } else {
        send({ ...common, AttemptLatency: Date.now() - t0, SdkException: cut((e as Error)?.name, 128), SdkExceptionMessage: cut((e as Error)?.message, 512) });
      }
      throw e;
    }
  };
  return { build, attempt, close: () => socket?.close() };
}
