/**
 * The default HTTP handler (`http_handler`'s default): node:http / node:https with keep-alive agents of its own (one
 * pair per client, so `destroy()` ends exactly its sockets). Per request it honours, from the command's `@http`
 * merged over the client's `http` option: `delay` (ms to wait before sending: retries' backoff and waiters'
 * delays), `timeout` (s, the whole request), `connect_timeout` (s), `http_stats_receiver` (called with
 * `{ total_time, connect_time?, … }` in seconds), `signal` (an AbortSignal that cancels the wait and the request).
 * A request that gets no answer rejects with a ConnectionError (`connectionError: true`, code `ABORT_ERR` when
 * aborted), which the terminal handler turns into a WorkflowServiceException.
 */
import * as http from 'node:http';
import * as https from 'node:https';
import type { HttpHandler, HttpOptions, WireRequest, WireResponse } from './types';

export class ConnectionError extends Error {
  override name = 'ConnectionError';
  readonly connectionError = true;
  constructor(
    message: string,
    readonly code?: string,
  ) {
    super(message);
  }
}

const aborted = () => new ConnectionError('The request was aborted', 'ABORT_ERR');

/** Waits `ms`, or rejects as soon as `signal` aborts. */
const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(aborted());
    const onAbort = () => {
      clearTimeout(timer);
      reject(aborted());
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });

function queryString(q: WireRequest['query']): string {
  const parts: string[] = [];
  for (const [k, v] of Object.entries(q)) {
    if (v === null) parts.push(encodeURIComponent(k));
    else for (const x of Array.isArray(v) ? v : [v]) parts.push(`${encodeURIComponent(k)}=${encodeURIComponent(x)}`);
  }
  return parts.length ? `?${parts.join('&')}` : '';
}

export interface NodeHttpHandler extends HttpHandler {
  /** Close the kept-alive sockets. */
  destroy(): void;
}

export function createNodeHttpHandler(): NodeHttpHandler {
  const agents = {
    'http:': new http.Agent({ keepAlive: true, maxSockets: 50 }),
    'https:': new https.Agent({ keepAlive: true, maxSockets: 50 }),
  };
  const handler = (async (request: WireRequest, options: HttpOptions = {}): Promise<WireResponse> => {
    const delay = Number(options.delay ?? 0);
    const signal = options.signal instanceof AbortSignal ? options.signal : undefined;
    if (delay > 0) await sleep(delay, signal);
    if (signal?.aborted) throw aborted();
    const t0 = process.hrtime.bigint();
    const secs = () => Number(process.hrtime.bigint() - t0) / 1e9;
    const mod = request.protocol === 'http:' ? http : https;
    const timeoutMs = Number(options.timeout ?? 0) * 1000;
    const connectMs = Number(options.connect_timeout ?? 0) * 1000;
    return new Promise<WireResponse>((resolve, reject) => {
      let connectTime: number | undefined;
      const req = mod.request(
        {
          method: request.method,
          protocol: request.protocol,
          hostname: request.hostname,
          port: request.port,
          path: `${request.path}${queryString(request.query)}`,
          headers: request.headers,
          agent: agents[request.protocol],
          ...(signal ? { signal } : {}),
          ...(typeof options.verify === 'boolean' && request.protocol === 'https:' ? { rejectUnauthorized: options.verify } : {}),
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('error', (e) => reject(new ConnectionError(`Error reading the response: ${e.message}`, (e as NodeJS.ErrnoException).code)));
          res.on('end', () => {
            const headers: Record<string, string> = {};
            for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) headers[k] = Array.isArray(v) ? v.join(', ') : v;
            if (typeof options.http_stats_receiver === 'function') {
              options.http_stats_receiver({ total_time: secs(), ...(connectTime !== undefined ? { connect_time: connectTime } : {}), http_code: res.statusCode, size_download: chunks.reduce((n, c) => n + c.length, 0) });
            }
            resolve({ statusCode: res.statusCode ?? 0, headers, body: Buffer.concat(chunks).toString('utf8') });
          });
        },
      );
      if (timeoutMs > 0) req.setTimeout(timeoutMs, () => req.destroy(new ConnectionError(`Request timed out after ${timeoutMs / 1000} s`, 'ETIMEDOUT')));
      req.on('socket', (socket) => {
        if (!socket.connecting) return;
        const timer = connectMs > 0 ? setTimeout(() => req.destroy(new ConnectionError(`Connection timed out after ${connectMs / 1000} s`, 'ETIMEDOUT')), connectMs) : undefined;
        socket.once('connect', () => {
          connectTime = secs();
          if (timer) clearTimeout(timer);
        });
        socket.once('close', () => timer && clearTimeout(timer));
      });
      req.on('error', (e) =>
        reject(e instanceof ConnectionError ? e : signal?.aborted ? aborted() : new ConnectionError(e.message, (e as NodeJS.ErrnoException).code)),
      );
      req.end(request.body);
    });
  }) as NodeHttpHandler;
  handler.destroy = () => {
    agents['http:'].destroy();
    agents['https:'].destroy();
  };
  return handler;
}
