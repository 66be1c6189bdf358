/**
 * The request line and the Host header, checked once for every request before any route runs.
 *
 * - Request target (RFC 9112 §3.2): origin-form (`/path?query`) is used as is. Absolute-form
 *   (`http://authority/path?query`) MUST be accepted by a server (§3.2.2): it is rewritten to its origin-form
 *   before routing, and its authority is ignored, like the Host header. Asterisk-form is accepted for
 *   OPTIONS only. Anything else (authority-form, another scheme, an unparsable authority) is a 400.
 * - Host (RFC 9110 §7.2, RFC 9112 §3.2): never used to build a URL (URLs the APIs return come from
 *   PUBLIC_URL), but a request with an invalid Host value, an empty one, or several Host lines is a 400,
 *   as RFC 9112 requires. A missing Host is fine over HTTP/1.0 (Node already answers 400 to HTTP/1.1
 *   without one): the server's fixed authority (PUBLIC_URL) stands in for it.
 */
import type { IncomingMessage } from 'node:http';
import { isIPv6 } from 'node:net';

/** Set on the raw request by `normalizeTarget` when the target cannot be used; read by `requestLineProblem`. */
const BAD_TARGET = Symbol('badRequestTarget');

type MarkedRequest = IncomingMessage & { [BAD_TARGET]?: string };

/** reg-name / IPv4 (RFC 3986 §3.2.2) with an optional port. */
const REG_NAME_HOST = /^[A-Za-z0-9\-._~!$&'()*+,;=%]+(?::\d{0,5})?$/;
/** IP-literal with an optional port. */
const IP_LITERAL_HOST = /^\[([0-9A-Fa-f:.]+)\](?::\d{0,5})?$/;

/** Why a Host value is invalid, or undefined when it is a valid `uri-host [ ":" port ]`. */
export function hostProblem(value: string): string | undefined {
  if (value === '') return 'empty Host header';
  const literal = IP_LITERAL_HOST.exec(value);
  if (literal) return isIPv6(literal[1]) ? undefined : 'invalid Host header';
  if (!REG_NAME_HOST.test(value)) return 'invalid Host header';
  // Percent-encoding must be well formed.
  if (/%(?![0-9A-Fa-f]{2})/.test(value)) return 'invalid Host header';
  const port = value.includes(':') ? value.slice(value.lastIndexOf(':') + 1) : '';
  if (port !== '' && Number(port) > 65535) return 'invalid Host header';
  return undefined;
}

/**
 * Fastify's rewriteUrl hook (runs before routing): the origin-form of the target. An unusable target is
 * left as it is and marked, so the onRequest check answers 400 in the style of the API.
 */
export function normalizeTarget(req: IncomingMessage): string {
  const url = req.url ?? '';
  if (url.startsWith('/')) return url;
  if (url === '*' && req.method === 'OPTIONS') return url;
  const m = /^(https?):\/\/([^/?#]*)([^#]*)$/i.exec(url);
  if (!m || hostProblem(m[2]) !== undefined || m[2].includes('@')) {
    (req as MarkedRequest)[BAD_TARGET] = 'invalid request target';
    return url;
  }
  const rest = m[3];
  return rest.startsWith('/') ? rest : `/${rest}`;
}

/** Why the request line or the Host header cannot be used, or undefined when they are fine. */
export function requestLineProblem(req: IncomingMessage): string | undefined {
  const marked = (req as MarkedRequest)[BAD_TARGET];
  if (marked) return marked;
  let hosts = 0;
  for (let i = 0; i < req.rawHeaders.length; i += 2) {
    if (req.rawHeaders[i].length === 4 && req.rawHeaders[i].toLowerCase() === 'host') hosts++;
  }
  if (hosts > 1) return 'several Host headers';
  const host = req.headers.host;
  if (host === undefined) return req.httpVersionMajor === 1 && req.httpVersionMinor === 0 ? undefined : 'missing Host header';
  return hostProblem(host);
}

/**
 * The start of a request as received (its request line and the first header lines), for the errors Node's HTTP
 * layer raises before a request exists (431 header fields too large, 408 on stalled headers, unparsable
 * requests): only these bytes say which API the client was talking to. Kept per connection, replaced by each
 * chunk that starts a request; read (parsed) only when such an error is answered.
 */
const REQUEST_HEAD = Symbol('requestHead');
/** Enough for a long request line and the headers that pick a family (X-Amz-Target). */
const HEAD_BYTES = 4096;
const REQUEST_START = /^[A-Z]{3,10} (?:\/|https?:\/\/|\*)/;

type HeadSocket = { [REQUEST_HEAD]?: string };

/** Remember `chunk` when it begins a request (a method token and a space). */
export function noteRequestStart(socket: object, chunk: Buffer): void {
  // Cheap test first: a method starts with an upper-case letter.
  const c = chunk[0];
  if (c < 0x41 || c > 0x5a) return;
  const head = chunk.toString('latin1', 0, Math.min(chunk.length, HEAD_BYTES));
  if (REQUEST_START.test(head)) (socket as HeadSocket)[REQUEST_HEAD] = head;
}

/**
 * What the last request begun on `socket` asked for, as far as its bytes tell: the origin-form path (from an
 * origin- or absolute-form target) and the headers seen in full. Undefined when no request line arrived.
 */
export function requestStartOf(socket: object): { url: string; headers: Record<string, string> } | undefined {
  const head = (socket as HeadSocket)[REQUEST_HEAD];
  if (head === undefined) return undefined;
  const lines = head.split('\r\n');
  const m = /^[A-Z]+ (\S+)(?: |$)/.exec(lines[0]);
  if (!m) return undefined;
  let url = m[1];
  if (!url.startsWith('/')) {
    const abs = /^https?:\/\/[^/?#]*([^#]*)$/i.exec(url);
    url = abs ? (abs[1].startsWith('/') ? abs[1] : `/${abs[1]}`) : '/';
  }
  const headers: Record<string, string> = {};
  // The last line may be cut: only complete lines count.
  for (const line of lines.slice(1, -1)) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return { url, headers };
}
