/**
 * The AWS JSON 1.0 protocol (Step Functions' `awsJson1_0`), driven by the service model:
 *  - request: `POST` to the endpoint's path, `Content-Type: application/x-amz-json-1.0`,
 *    `X-Amz-Target: <targetPrefix>.<Operation>`, a JSON body of the input members (reserved `@` keys dropped,
 *    null/undefined members left out, timestamps as epoch seconds, blobs as base64; an empty input is `{}`);
 *  - answer: a 2xx JSON body becomes the Result (timestamps → Date) with `@metadata`; anything else a
 *    WorkflowServiceException whose code is `__type` cut after `#` and before `:` (or the `x-amzn-errortype`
 *    header), type client for 4xx and server otherwise, request id from `x-amzn-requestid`, and the message
 *    `Error executing "Op" on "uri"; AWS HTTP error: Client error: `POST uri` resulted in a `400 Bad Request`
 *    response: … Code (client): message`.
 * Shapes with no timestamp or blob inside are sent and read as plain JSON (no walk): the common case is one
 * JSON.stringify and one JSON.parse per call.
 */
import { STATUS_CODES } from 'node:http';
import type { ResolvedShape, Service, ShapeRef } from './api';
import { WorkflowServiceException } from './errors';
import type { CommandLike, Result, ResultMetadata, WireRequest, WireResponse } from './types';

type Conv = 'none' | 'walk';

export class JsonProtocol {
  private readonly convCache = new Map<string, Conv>();

  constructor(private readonly service: Service) {}

  /** Does a value of this shape need converting (a timestamp or blob somewhere inside)? */
  private conv(shape: ResolvedShape, seen = new Set<string>()): Conv {
    const cached = this.convCache.get(shape.name);
    if (cached) return cached;
    if (seen.has(shape.name)) return 'none';
    seen.add(shape.name);
    let c: Conv = 'none';
    if (shape.type === 'timestamp' || shape.type === 'blob') c = 'walk';
    else {
      const refs: ShapeRef[] = [];
      if (shape.type === 'structure') refs.push(...Object.values(shape.members ?? {}));
      if (shape.type === 'list' && shape.member) refs.push(shape.member);
      if (shape.type === 'map') refs.push(...[shape.key, shape.value].filter((r): r is ShapeRef => !!r));
      for (const r of refs) if (this.conv(this.service.resolveShape(r), seen) === 'walk') c = 'walk';
    }
    this.convCache.set(shape.name, c);
    return c;
  }

  private serialize(shape: ResolvedShape, value: unknown): unknown {
    if (value === null || value === undefined) return undefined;
    switch (shape.type) {
      case 'timestamp': {
        const d = value instanceof Date ? value : typeof value === 'number' ? new Date(value * 1000) : new Date(String(value));
        return Number.isNaN(d.getTime()) ? value : d.getTime() / 1000;
      }
      case 'blob':
        return Buffer.isBuffer(value) || value instanceof Uint8Array ? Buffer.from(value).toString('base64') : Buffer.from(String(value)).toString('base64');
      case 'structure': {
        if (typeof value !== 'object') return value;
        const out: Record<string, unknown> = {};
        for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
          if (k.startsWith('@') || v === undefined || v === null) continue;
          const ref = shape.members?.[k];
          out[k] = ref ? this.serialize(this.service.resolveShape(ref), v) : v;
        }
        return out;
      }
      case 'list':
        return Array.isArray(value) && shape.member ? value.map((v) => this.serialize(this.service.resolveShape(shape.member!), v)) : value;
      case 'map': {
        if (typeof value !== 'object' || !shape.value) return value;
        const vs = this.service.resolveShape(shape.value);
        return Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, this.serialize(vs, v)]));
      }
      default:
        return value;
    }
  }

  private deserialize(shape: ResolvedShape, value: unknown): unknown {
    if (value === null || value === undefined) return value;
    switch (shape.type) {
      case 'timestamp':
        return typeof value === 'number' ? new Date(Math.round(value * 1000)) : typeof value === 'string' ? new Date(value) : value;
      case 'blob':
        return typeof value === 'string' ? Buffer.from(value, 'base64') : value;
      case 'structure': {
        if (typeof value !== 'object' || Array.isArray(value)) return value;
        const o = value as Record<string, unknown>;
        for (const [k, ref] of Object.entries(shape.members ?? {})) {
          if (o[k] !== undefined) o[k] = this.deserialize(this.service.resolveShape(ref), o[k]);
        }
        return o;
      }
      case 'list':
        return Array.isArray(value) && shape.member ? value.map((v) => this.deserialize(this.service.resolveShape(shape.member!), v)) : value;
      case 'map': {
        if (typeof value !== 'object' || !shape.value) return value;
        const vs = this.service.resolveShape(shape.value);
        const o = value as Record<string, unknown>;
        for (const k of Object.keys(o)) o[k] = this.deserialize(vs, o[k]);
        return o;
      }
      default:
        return value;
    }
  }

  /** The JSON body of an operation's input. */
  body(operation: string, args: Record<string, unknown>): string {
    const shape = this.service.getInputShape(operation);
    if (this.conv(shape) === 'none') {
      let plain = true;
      for (const k in args) {
        const v = args[k];
        if (k.charCodeAt(0) === 64 /* @ */ || v === undefined || v === null) {
          plain = false;
          break;
        }
      }
      if (plain) return JSON.stringify(args);
      const out: Record<string, unknown> = {};
      for (const k in args) {
        const v = args[k];
        if (k.charCodeAt(0) !== 64 && v !== undefined && v !== null) out[k] = v;
      }
      return JSON.stringify(out);
    }
    return JSON.stringify(this.serialize(shape, args) ?? {});
  }

  /** The HTTP request of a command, to `endpoint` (host prefix already applied by the caller). */
  build(command: CommandLike, endpoint: URL, headers: Record<string, string>): WireRequest {
    const meta = this.service.metadata;
    const body = this.body(command.name, command.args);
    return {
      method: 'POST',
      protocol: endpoint.protocol === 'http:' ? 'http:' : 'https:',
      hostname: endpoint.hostname,
      ...(endpoint.port ? { port: Number(endpoint.port) } : {}),
      path: endpoint.pathname || '/',
      query: {},
      headers: {
        ...headers,
        host: endpoint.host,
        'content-type': `application/x-amz-json-${meta.jsonVersion ?? '1.0'}`,
        'x-amz-target': `${meta.targetPrefix}.${command.name}`,
        'content-length': String(Buffer.byteLength(body)),
      },
      body,
    };
  }

  /** A 2xx answer as the operation's Result. */
  parse(operation: string, response: WireResponse, metadata: ResultMetadata): Result {
    let data: Record<string, unknown> = {};
    if (response.body) {
      const parsed = JSON.parse(response.body) as unknown;
      if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) data = parsed as Record<string, unknown>;
    }
    const shape = this.service.getOutputShape(operation);
    if (this.conv(shape) === 'walk') this.deserialize(shape, data);
    const result = data as Result;
    result['@metadata'] = metadata;
    return result;
  }

  /** A non-2xx answer as the exception a command rejects with. */
  error(command: CommandLike, request: WireRequest, response: WireResponse, uri: string, result: Result): WorkflowServiceException {
    let parsed: Record<string, unknown> = {};
    try {
      const p = JSON.parse(response.body) as unknown;
      if (p && typeof p === 'object' && !Array.isArray(p)) parsed = p as Record<string, unknown>;
    } catch {
      // not JSON: the status speaks
    }
    const rawType = (typeof parsed.__type === 'string' ? parsed.__type : undefined) ?? (typeof parsed.code === 'string' ? parsed.code : undefined) ?? response.headers['x-amzn-errortype'];
    const code = rawType ? rawType.split(':')[0].split('#').pop() || undefined : undefined;
    const message = typeof parsed.message === 'string' ? parsed.message : typeof parsed.Message === 'string' ? parsed.Message : undefined;
    const type = response.statusCode < 500 ? 'client' : 'server';
    const requestId = response.headers['x-amzn-requestid'] ?? response.headers['x-amz-request-id'];
    const errShape = code ? this.service.getErrorShapes()[code] : undefined;
    const retryable = errShape?.retryable as { throttling?: boolean } | undefined;
    const status = `${response.statusCode} ${STATUS_CODES[response.statusCode] ?? ''}`.trim();
    const head = type === 'client' ? 'Client error' : 'Server error';
    const excerpt = response.body.length > 120 ? `${response.body.slice(0, 120)} (truncated...)` : response.body;
    const text =
      `Error executing "${command.name}" on "${uri}"; AWS HTTP error: ${head}: \`POST ${uri}\` resulted in a \`${status}\` response:\n${excerpt}\n` +
      `${code ?? 'Unknown'} (${type}): ${message ?? ''}`.trimEnd();
    return new WorkflowServiceException(text, {
      command,
      request,
      response,
      code,
      type,
      statusCode: response.statusCode,
      requestId,
      result,
      retryable: retryable !== undefined,
      throttling: retryable?.throttling === true,
    });
  }
}
