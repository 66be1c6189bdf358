/**
 * The fuzz test's HTTP client: node:http over one keep-alive agent (cheap per request), plus a raw-socket
 * path for requests node:http refuses to write (HTTP/1.0 without Host, arbitrary request lines).
 */
import * as http from 'node:http';
import * as net from 'node:net';

export interface WireRequest {
  method: string;
  /** The request-target exactly as sent (origin-form, or absolute-form for tampered requests). */
  target: string;
  headers: Record<string, string>;
  body?: string;
  /** Send over a raw socket as HTTP/1.0 (no Host unless given in headers). */
  http10?: boolean;
  /** Use a connection of its own (requests that may make the server drop the connection). */
  fresh?: boolean;
  /** Send it broken at the HTTP level over a raw socket (see transport.ts withFault). */
  framework?: 'headers-too-large' | 'stalled-headers' | 'stalled-body' | 'body-too-large';
}

export interface WireResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  /** Body size in bytes. */
  size: number;
  ms: number;
}

export class FuzzClient {
  private readonly agent: http.Agent;
  private readonly host: string;
  private readonly port: number;

  constructor(baseUrl: string, maxSockets = 8) {
    const u = new URL(baseUrl);
    this.host = u.hostname;
    this.port = Number(u.port);
    this.agent = new http.Agent({ keepAlive: true, maxSockets });
  }

  async send(req: WireRequest, timeoutMs = 15_000): Promise<WireResponse> {
    if (req.http10 || req.framework) return this.sendRaw(req, timeoutMs);
    try {
      return await this.sendHttp(req, timeoutMs, Boolean(req.fresh));
    } catch (e) {
      // A kept-alive connection the server closed after its previous answer (allowed by HTTP/1.1): the
      // request never reached the server, so send it again once on a new connection, as clients do.
      if ((e as { reusedSocket?: boolean }).reusedSocket) return this.sendHttp(req, timeoutMs, true);
      throw e;
    }
  }

  private sendHttp(req: WireRequest, timeoutMs: number, fresh: boolean): Promise<WireResponse> {
    const started = performance.now();
    return new Promise<WireResponse>((resolve, reject) => {
      const headers: Record<string, string> = { ...req.headers };
      if (req.body !== undefined) headers['content-length'] = String(Buffer.byteLength(req.body));
      const r = http.request(
        { host: this.host, port: this.port, method: req.method, path: req.target, headers, agent: fresh ? false : this.agent, setHost: headers.host === undefined },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => {
            const buf = Buffer.concat(chunks);
            resolve({ status: res.statusCode ?? 0, headers: res.headers, body: buf.toString('utf8'), size: buf.length, ms: performance.now() - started });
          });
          res.on('error', reject);
        },
      );
      r.setTimeout(timeoutMs, () => r.destroy(new Error(`no answer within ${timeoutMs} ms`)));
      r.on('error', (e: Error & { code?: string }) => {
        const reset = e.code === 'ECONNRESET' || /socket hang up/.test(e.message);
        reject(Object.assign(e, { reusedSocket: r.reusedSocket && reset }));
      });
      if (req.body !== undefined) r.write(req.body);
      r.end();
    });
  }

  /** HTTP/1.0 (or a request broken at the HTTP level) over a fresh socket (Connection: close), parsed by hand. */
  private sendRaw(req: WireRequest, timeoutMs: number): Promise<WireResponse> {
    const started = performance.now();
    return new Promise((resolve, reject) => {
      const sock = net.connect(this.port, this.host);
      const chunks: Buffer[] = [];
      sock.setTimeout(timeoutMs, () => sock.destroy(new Error(`no answer within ${timeoutMs} ms`)));
      sock.on('data', (c: Buffer) => chunks.push(c));
      // A server that answers and then resets the connection (unread request bytes): the answer counts.
      sock.on('error', (e) => {
        if (!chunks.length) reject(e);
      });
      sock.on('close', () => {
        const raw = Buffer.concat(chunks);
        const end = raw.indexOf('\r\n\r\n');
        if (end < 0) return reject(new Error(`malformed or empty response: ${JSON.stringify(raw.toString('latin1').slice(0, 200))}`));
        const head = raw.subarray(0, end).toString('latin1').split('\r\n');
        const m = /^HTTP\/1\.[01] (\d{3})/.exec(head[0]);
        if (!m) return reject(new Error(`malformed status line: ${JSON.stringify(head[0])}`));
        const headers: Record<string, string> = {};
        for (const line of head.slice(1)) {
          const i = line.indexOf(':');
          if (i > 0) headers[line.slice(0, i).trim().toLowerCase()] = line.slice(i + 1).trim();
        }
        let body: Buffer = raw.subarray(end + 4);
        if (/chunked/i.test(headers['transfer-encoding'] ?? '')) body = dechunk(body);
        resolve({ status: Number(m[1]), headers, body: body.toString('utf8'), size: body.length, ms: performance.now() - started });
      });
      const lines = [`${req.method} ${req.target} HTTP/1.${req.framework ? 1 : 0}`, 'Connection: close'];
      if (req.framework && req.headers.host === undefined) lines.push(`Host: ${this.host}:${this.port}`);
      for (const [k, v] of Object.entries(req.headers)) {
        if (!(req.framework && /^(content-length|content-type)$/i.test(k))) lines.push(`${k}: ${v}`);
      }
      switch (req.framework) {
        case undefined:
          if (req.body !== undefined) lines.push(`Content-Length: ${Buffer.byteLength(req.body)}`);
          sock.write(`${lines.join('\r\n')}\r\n\r\n`);
          if (req.body !== undefined) sock.write(req.body);
          return;
        case 'headers-too-large':
          // Past node's 16 KiB header limit (after the case's own headers, which name the family).
          sock.write(`${lines.join('\r\n')}\r\nX-Padding: ${'p'.repeat(20_000)}\r\n\r\n`);
          return;
        case 'stalled-headers':
          sock.write(`${lines.join('\r\n')}\r\nX-Never-Ends: 1`);
          return;
        case 'stalled-body':
          sock.write(`${lines.join('\r\n')}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"a":`);
          return;
        case 'body-too-large':
          sock.write(`${lines.join('\r\n')}\r\nContent-Type: application/json\r\nContent-Length: 20000000\r\n\r\n`);
      }
    });
  }

  close(): void {
    this.agent.destroy();
  }
}

function dechunk(buf: Buffer): Buffer {
  const out: Buffer[] = [];
  let i = 0;
  while (i < buf.length) {
    const eol = buf.indexOf('\r\n', i);
    if (eol < 0) break;
    const size = parseInt(buf.subarray(i, eol).toString('latin1'), 16);
    if (!size) break;
    out.push(buf.subarray(eol + 2, eol + 2 + size));
    i = eol + 2 + size + 2;
  }
  return Buffer.concat(out);
}
