/**
 * Raw HTTP/1.x over a TCP socket, for requests fetch() cannot send: absolute-form targets, broken or
 * missing Host headers, HTTP/1.0, bodies that stall.
 */
import * as net from 'node:net';

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** The whole bytes received, as text. */
  raw: string;
}

export function hostPort(url: string): { host: string; port: number } {
  const u = new URL(url);
  return { host: u.hostname, port: Number(u.port) };
}

/** Parse the first response in `raw` (Content-Length or chunked body; else everything after the head). */
export function parseResponse(raw: string): RawResponse | undefined {
  const end = raw.indexOf('\r\n\r\n');
  if (end < 0) return undefined;
  const [statusLine, ...lines] = raw.slice(0, end).split('\r\n');
  const m = /^HTTP\/1\.[01] (\d{3})/.exec(statusLine);
  if (!m) return undefined;
  const headers: Record<string, string> = {};
  for (const l of lines) {
    const i = l.indexOf(':');
    headers[l.slice(0, i).trim().toLowerCase()] = l.slice(i + 1).trim();
  }
  let body = raw.slice(end + 4);
  if (headers['transfer-encoding'] === 'chunked') {
    let out = '';
    let rest = body;
    for (;;) {
      const nl = rest.indexOf('\r\n');
      if (nl < 0) return undefined;
      const size = parseInt(rest.slice(0, nl), 16);
      if (size === 0) break;
      if (rest.length < nl + 2 + size) return undefined;
      out += rest.slice(nl + 2, nl + 2 + size);
      rest = rest.slice(nl + 2 + size + 2);
    }
    body = out;
  } else if (headers['content-length'] !== undefined) {
    const len = Number(headers['content-length']);
    if (Buffer.byteLength(body) < len) return undefined;
    body = Buffer.from(body).subarray(0, len).toString();
  }
  return { status: Number(m[1]), headers, body, raw };
}

/**
 * Send `request` as is and resolve with the response once the server closed the connection (or once a
 * complete response arrived, when `untilClose` is false). Rejects after `timeoutMs`.
 */
export function rawRequest(url: string, request: string, opts: { timeoutMs?: number; untilClose?: boolean } = {}): Promise<RawResponse> {
  const { host, port } = hostPort(url);
  const timeoutMs = opts.timeoutMs ?? 5000;
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host, port });
    let data = '';
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no complete response within ${timeoutMs} ms; got: ${JSON.stringify(data.slice(0, 500))}`));
    }, timeoutMs);
    const done = () => {
      const r = parseResponse(data);
      clearTimeout(timer);
      socket.destroy();
      if (r) resolve(r);
      else reject(new Error(`connection closed without a complete response; got: ${JSON.stringify(data.slice(0, 500))}`));
    };
    socket.on('data', (d) => {
      data += d.toString('latin1');
      if (opts.untilClose === false && parseResponse(data)) done();
    });
    socket.on('end', done);
    socket.on('close', done);
    socket.on('error', () => undefined);
    socket.write(request);
  });
}

/** A socket that sent `head` and then nothing: resolves with what the server did and when. */
export function stalledRequest(
  url: string,
  head: string,
  timeoutMs: number,
): Promise<{ response?: RawResponse; closedAfterMs?: number; data: string }> {
  const { host, port } = hostPort(url);
  return new Promise((resolve) => {
    const started = Date.now();
    const socket = net.connect({ host, port });
    let data = '';
    const timer = setTimeout(() => {
      socket.destroy();
      resolve({ response: parseResponse(data), data });
    }, timeoutMs);
    socket.on('data', (d) => (data += d.toString('latin1')));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearTimeout(timer);
      resolve({ response: parseResponse(data), closedAfterMs: Date.now() - started, data });
    });
    socket.write(head);
  });
}
