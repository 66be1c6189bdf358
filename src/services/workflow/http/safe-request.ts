/**
 * One HTTP request of an HTTP task, safe by default:
 *  - the host must be allowed (allow-list.ts), and the socket connects only to an address that passed the check:
 *    the lookup that resolves the name is the one whose answer is checked and used (no DNS rebinding window);
 *  - plain http:// only to a host an `http://` entry of the allow-list names (this also covers OAuth token
 *    endpoints, which carry the client secret);
 *  - redirects are not followed (a 3xx answer is the task's answer, as any other non-2xx);
 *  - one timeout covers connecting, sending and the whole answer; the body read stops at the size cap;
 *  - no `Accept-Encoding` is sent, so the cap counts the bytes the task would hold.
 * Failures are `HttpFailure`s with the ASL error the task fails with; their texts never carry header values.
 */
import * as dns from 'node:dns';
import * as http from 'node:http';
import * as https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import type { AllowList } from './allow-list';

export class HttpFailure extends Error {
  constructor(
    readonly error: string,
    override readonly cause: string,
  ) {
    super(cause);
  }
}

export interface SafeRequest {
  url: URL;
  method: string;
  headers: Record<string, string>;
  body?: Buffer;
  allow: AllowList;
  timeoutMs: number;
  maxResponseBytes: number;
  signal?: AbortSignal;
}

export interface SafeResponse {
  status: number;
  statusText: string;
  headers: Record<string, string[]>;
  body: Buffer;
}

const notAllowed = (url: URL, why: string) => new HttpFailure('Forbidden', `The HTTP task may not call ${url.origin}: ${why}`);

/** A lookup that answers only addresses the allow-list accepts (the socket connects to what it answers). */
function checkedLookup(allow: AllowList, url: URL, refused: { why?: string }): LookupFunction {
  return (hostname, options, callback) => {
    dns.lookup(hostname, { all: true, family: options.family, hints: options.hints }, (err, addresses) => {
      if (err) return callback(err, '', 0);
      const ok = addresses.filter((a) => allow.addressProblem(a.address) === null);
      if (!ok.length) {
        refused.why = allow.addressProblem(addresses[0]?.address ?? '') ?? `${hostname} has no address`;
        const e = Object.assign(new Error(`refused: ${refused.why}`), { code: 'EREFUSEDADDRESS' });
        return callback(e, '', 0);
      }
      if (options.all) return (callback as unknown as (e: null, a: dns.LookupAddress[]) => void)(null, ok);
      callback(null, ok[0].address, ok[0].family);
    });
  };
}

export function safeRequest(req: SafeRequest): Promise<SafeResponse> {
  const { url, allow } = req;
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return Promise.reject(new HttpFailure('Validation', 'ApiEndpoint must be an http or https URL'));
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (!allow.hostAllowed(host)) {
    return Promise.reject(notAllowed(url, `${host} is not listed in WORKFLOW_HTTP_ALLOW`));
  }
  if (url.protocol === 'http:' && !allow.plainHttpAllowed(host)) {
    return Promise.reject(notAllowed(url, `plain http:// is allowed only to destinations WORKFLOW_HTTP_ALLOW lists with an http:// entry (${host} is not)`));
  }
  if (isIP(host)) {
    const why = allow.addressProblem(host);
    if (why) return Promise.reject(notAllowed(url, why));
  }
  const refused: { why?: string } = {};
  const mod = url.protocol === 'https:' ? https : http;
  return new Promise<SafeResponse>((resolve, reject) => {
    let settled = false;
    const finish = (e: HttpFailure | null, r?: SafeResponse) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      req.signal?.removeEventListener('abort', onAbort);
      if (e) {
        request.destroy();
        reject(e);
      } else resolve(r!);
    };
    const timer = setTimeout(() => finish(new HttpFailure('States.Http.Socket', `The HTTP request to ${url.origin} did not complete within ${Math.round(req.timeoutMs / 1000)} seconds`)), req.timeoutMs);
    const onAbort = () => finish(new HttpFailure('States.Http.Socket', 'The HTTP request was abandoned (the task was stopped or timed out)'));
    const request = mod.request(url, {
      method: req.method,
      headers: req.headers,
      lookup: checkedLookup(allow, url, refused),
      // no pooled socket: each request resolves and checks its address itself
      agent: false,
    });
    request.on('error', (err: NodeJS.ErrnoException) => {
      if (refused.why) return finish(notAllowed(url, refused.why));
      finish(new HttpFailure('States.Http.Socket', `The HTTP request to ${url.origin} failed: ${err.code ?? err.message}`));
    });
    request.on('response', (res) => {
      const declared = Number(res.headers['content-length']);
      const tooLarge = () => new HttpFailure('States.DataLimitExceeded', `The HTTP response body is larger than ${req.maxResponseBytes} bytes (WORKFLOW_HTTP_MAX_RESPONSE_BYTES)`);
      if (Number.isFinite(declared) && declared > req.maxResponseBytes) return finish(tooLarge());
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (c: Buffer) => {
        size += c.length;
        if (size > req.maxResponseBytes) return finish(tooLarge());
        chunks.push(c);
      });
      res.on('error', (err: NodeJS.ErrnoException) => finish(new HttpFailure('States.Http.Socket', `The HTTP response from ${url.origin} broke off: ${err.code ?? err.message}`)));
      res.on('end', () =>
        finish(null, {
          status: res.statusCode ?? 0,
          statusText: res.statusMessage ?? '',
          headers: res.headersDistinct as Record<string, string[]>,
          body: Buffer.concat(chunks),
        }),
      );
    });
    if (req.signal) {
      if (req.signal.aborted) return onAbort();
      req.signal.addEventListener('abort', onAbort, { once: true });
    }
    request.end(req.body);
  });
}
