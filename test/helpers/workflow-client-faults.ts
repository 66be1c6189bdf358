/**
 * Test-only fault injection for the workflow client's retry middleware:
 *
 *  - `startFaultServer(script)`: a real `node:http` server on 127.0.0.1:0 answering a scripted sequence (503s, 500s,
 *    400 `{"__type":"ThrottlingException"}`, a destroyed socket, then 200), recording every request it received
 *    (headers, body, arrival time) and checking each SigV4 signature with the gateway's own verification code
 *    (src/auth/sigv4.ts computeSignature over exactly the signed headers, the target and the body bytes).
 *  - `faultPipeline(...)`: a minimal request pipeline of the shape the client core builds (build → retry →
 *    signer → terminal): the request built from the command, the retry middleware under test, the real
 *    `SignatureV4Signer`, and a tiny terminal handler that waits `@http.delay` ms (through an injectable sleep),
 *    POSTs to the server, and maps non-2xx answers to `WorkflowServiceException` (code from `__type` after `#`,
 *    type client/server, statusCode) and socket failures to a connection error. The core's real terminal handler
 *    replaces it at integration.
 *  - `VirtualClock`: a clock whose `sleep` advances time instantly, to assert exact delays and inter-send gaps.
 */
import { createServer, IncomingHttpHeaders, request as httpRequest, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { computeSignature, parseAmzDate, parseAuthorizationHeader } from '../../src/auth/sigv4';
import { WorkflowServiceException } from '../../packages/workflow-client/src/errors';
import { SignatureV4Signer } from '../../packages/workflow-client/src/signer';
import { Credentials } from '../../packages/workflow-client/src/types';
import type { CommandLike, Handler, HttpOptions, Middleware, Result, WireRequest } from '../../packages/workflow-client/src/types';

export type Fault =
  | { kind: 'answer'; status: number; body: string; headers?: Record<string, string> }
  | { kind: 'destroy' };

export const ok = (body: unknown = {}): Fault => ({ kind: 'answer', status: 200, body: JSON.stringify(body) });
export const status = (code: number, type = code >= 500 ? 'InternalFailure' : 'ValidationException', headers?: Record<string, string>): Fault => ({
  kind: 'answer',
  status: code,
  body: JSON.stringify({ __type: type, message: `scripted ${code}` }),
  headers,
});
export const throttle = (headers?: Record<string, string>): Fault => ({
  kind: 'answer',
  status: 400,
  body: JSON.stringify({ __type: 'ThrottlingException' }),
  headers,
});
export const destroy: Fault = { kind: 'destroy' };

export const TEST_KEY = { accessKeyId: 'AKIDFAULTTEST', secretAccessKey: 'fault-test-secret-key/0123456789abcdefABCDEF' };
export const REGION = 'us-east-1';

export interface ReceivedRequest {
  /** Date.now() at arrival (real time). */
  arrivedAt: number;
  /** process.hrtime in ms at arrival. */
  arrivedHr: number;
  /** The server's `clock` at arrival (a test's virtual clock), when it was given one. */
  arrivedClock?: number;
  headers: IncomingHttpHeaders;
  body: string;
  /** The signature checked with the gateway's SigV4 code: true valid, false wrong or missing. */
  signatureValid: boolean;
  fault: Fault;
}

export interface FaultServer {
  url: string;
  port: number;
  requests: ReceivedRequest[];
  /** Replaces the remaining script. */
  script(faults: Fault[], fallback?: Fault): void;
  close(): Promise<void>;
}

async function verify(method: string, target: string, headers: IncomingHttpHeaders, body: Buffer): Promise<boolean> {
  try {
    const auth = parseAuthorizationHeader(headers.authorization);
    const date = parseAmzDate(String(headers['x-amz-date'] ?? ''));
    if (!date || auth.accessKeyId !== TEST_KEY.accessKeyId) return false;
    const expected = await computeSignature({ method, target, headers, rawBody: body }, auth, TEST_KEY.secretAccessKey, date);
    return expected === auth.signature;
  } catch {
    return false;
  }
}

/** A loopback server answering `faults` in order, then `fallback` (default 200 `{}`) forever. */
export async function startFaultServer(faults: Fault[] = [], fallback: Fault = ok(), options: { clock?: () => number } = {}): Promise<FaultServer> {
  let queue = [...faults];
  let rest = fallback;
  const requests: ReceivedRequest[] = [];
  const server: Server = createServer((req, res) => {
    const arrivedAt = Date.now();
    const arrivedHr = Number(process.hrtime.bigint()) / 1e6;
    const arrivedClock = options.clock?.();
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const fault = queue.length > 0 ? queue.shift()! : rest;
      void verify(req.method ?? 'GET', req.url ?? '/', req.headers, body).then((signatureValid) => {
        requests.push({ arrivedAt, arrivedHr, arrivedClock, headers: req.headers, body: body.toString('utf8'), signatureValid, fault });
        if (fault.kind === 'destroy') {
          req.socket.destroy();
          return;
        }
        res.writeHead(fault.status, {
          'content-type': 'application/x-amz-json-1.0',
          'x-amzn-requestid': `req-${requests.length}`,
          ...(fault.headers ?? {}),
        });
        res.end(fault.body);
      });
    });
  });
  server.keepAliveTimeout = 1;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    script(f, fb) {
      queue = [...f];
      if (fb) rest = fb;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Time that only moves when someone sleeps (or `advance`s it). */
export class VirtualClock {
  constructor(public ms = Date.UTC(2026, 10, 23, 12, 0, 0)) {}
  now = (): number => this.ms;
  sleep = async (ms: number): Promise<void> => {
    this.ms += ms;
  };
  advance(ms: number): void {
    this.ms += ms;
  }
}

export interface SentAttempt {
  /** The pipeline clock when the request left (after the @http.delay wait). */
  at: number;
  /** The pipeline clock when the signer signed this attempt (before the @http.delay wait, as in PHP). */
  signedAt: number;
  /** `@http.delay` the terminal handler honoured for this attempt (ms). */
  delay: number;
  request: WireRequest;
}

export interface PipelineOptions {
  server: FaultServer;
  retry: Middleware;
  /** Waits `@http.delay` (default: real setTimeout). */
  sleep?: (ms: number) => Promise<void>;
  /** Pipeline time (send timestamps, signing time). Default Date.now. */
  clock?: () => number;
  /** Extra time each send takes on `clock` (simulated latency for a VirtualClock). */
  onSend?: () => void;
  credentials?: Credentials | null;
  /** Report per-attempt HTTP stats as the core's handler does with stats.http: `transferStats.http = [{…}]`. */
  httpStats?: boolean;
}

export interface Pipeline {
  sent: SentAttempt[];
  execute(name: string, input?: Record<string, unknown>, reserved?: Record<string, unknown>): Promise<Result>;
  command(name: string, input?: Record<string, unknown>, reserved?: Record<string, unknown>): CommandLike;
  run(command: CommandLike): Promise<Result>;
}

const realSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

function post(url: URL, request: WireRequest): Promise<{ statusCode: number; headers: Record<string, string>; body: string }> {
  return new Promise((resolve, reject) => {
    const headers = { ...request.headers };
    delete headers.host;
    const req = httpRequest(
      { host: url.hostname, port: url.port, method: request.method, path: request.path, headers: { ...headers, host: `${url.hostname}:${url.port}` }, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const h: Record<string, string> = {};
          for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) h[k] = Array.isArray(v) ? v.join(', ') : v;
          resolve({ statusCode: res.statusCode ?? 0, headers: h, body: Buffer.concat(chunks).toString('utf8') });
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(request.body);
  });
}

/** build → retry → signer → terminal, against `server`. */
export function faultPipeline(options: PipelineOptions): Pipeline {
  const url = new URL(options.server.url);
  const clock = options.clock ?? Date.now;
  const sleep = options.sleep ?? realSleep;
  const credentials =
    options.credentials === undefined ? new Credentials(TEST_KEY.accessKeyId, TEST_KEY.secretAccessKey) : options.credentials;
  const signer = new SignatureV4Signer('states', REGION);
  const sent: SentAttempt[] = [];
  let signedAt = NaN;

  const terminal: Handler = async (command, request) => {
    if (!request) throw new Error('no request');
    const delay = (command.args['@http'] as HttpOptions | undefined)?.delay ?? 0;
    if (delay > 0) await sleep(delay);
    options.onSend?.();
    sent.push({ at: clock(), signedAt, delay, request });
    const uri = `${options.server.url}${request.path}`;
    let res: { statusCode: number; headers: Record<string, string>; body: string };
    try {
      res = await post(url, request);
    } catch (err) {
      throw new WorkflowServiceException(`Error executing "${command.name}" on "${uri}"; AWS HTTP error: ${(err as Error).message}`, {
        command,
        request,
        connectionError: true,
        previous: err,
      });
    }
    const transferStats: Record<string, unknown> = options.httpStats ? { http: [{ attempt: sent.length, status: res.statusCode }] } : {};
    const meta = { statusCode: res.statusCode, effectiveUri: uri, headers: res.headers, transferStats };
    if (res.statusCode >= 300) {
      let parsed: { __type?: string; message?: string } = {};
      try {
        parsed = JSON.parse(res.body);
      } catch {
        /* not JSON */
      }
      const raw = parsed.__type ?? res.headers['x-amzn-errortype'] ?? '';
      const code = raw.split(':')[0].split('#').pop() || undefined;
      const type = res.statusCode < 500 ? 'client' : 'server';
      const error = new WorkflowServiceException(
        `Error executing "${command.name}" on "${uri}"; AWS HTTP error: ${code ?? res.statusCode} (${type}): ${parsed.message ?? ''}`,
        { command, request, response: res, code, type, statusCode: res.statusCode, requestId: res.headers['x-amzn-requestid'], result: { '@metadata': meta } },
      );
      error.transferInfo = { ...transferStats };
      throw error;
    }
    return { ...(JSON.parse(res.body || '{}') as Record<string, unknown>), '@metadata': meta };
  };

  const signerMw: Middleware = (next) => async (command, request) => {
    signedAt = clock();
    return next(command, request ? await signer.sign(request, credentials, { signingTime: new Date(signedAt) }) : request);
  };

  const handler = options.retry(signerMw(terminal));

  const build = (command: CommandLike): WireRequest => {
    const input: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(command.args)) if (!k.startsWith('@')) input[k] = v;
    return {
      method: 'POST',
      protocol: 'http:',
      hostname: url.hostname,
      port: Number(url.port),
      path: '/',
      query: {},
      headers: {
        host: url.host,
        'content-type': 'application/x-amz-json-1.0',
        'x-amz-target': `AWSStepFunctions.${command.name}`,
      },
      body: JSON.stringify(input),
    };
  };

  const command = (name: string, input: Record<string, unknown> = {}, reserved: Record<string, unknown> = {}): CommandLike => ({
    name,
    args: { ...input, ...reserved },
  });
  const run = (c: CommandLike) => handler(c, build(c));
  return { sent, command, run, execute: (name, input, reserved) => run(command(name, input, reserved)) };
}

/** The N in `amz-sdk-request: attempt=N; max=M` of each request the server got. */
export const attemptsSeen = (server: FaultServer): string[] => server.requests.map((r) => String(r.headers['amz-sdk-request']));

/** Rejection of `p`, or a failure if it resolved. */
export async function rejection(p: Promise<unknown>): Promise<WorkflowServiceException> {
  try {
    await p;
  } catch (e) {
    return e as WorkflowServiceException;
  }
  throw new Error('expected a rejection');
}
