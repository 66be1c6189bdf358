/**
 * What every fuzzed response must satisfy, whatever the request (each rule is true of every legitimate
 * answer, so a failure is always a defect):
 *  - no 5xx, and only 2xx, 304 or 4xx;
 *  - no stack trace, source position, SQL, database error or filesystem path in the body (values the
 *    request itself carried are excluded: an echo is judged by the size rule, not as a leak);
 *  - a 304 and a HEAD answer have no body;
 *  - the family's error shape: GitHub REST 4xx is JSON `{message, documentation_url, status?}` with
 *    `status` equal to the HTTP status when present (WordPress `{code, message, data: {status}}`, AWS JSON
 *    `{__type, message}`, see src/rest/families.ts); GraphQL answers are JSON, any `errors[]` entry has a
 *    message and an `extensions.code` other than INTERNAL_SERVER_ERROR, and a 4xx carries errors;
 *  - error answers are bounded: a REST error body at most 16 KB, each GraphQL error at most 4 KB;
 *  - the server logged nothing at error level for the request;
 *  - a request with a foreign Host header gets no URL built from it.
 * Transport-level tampering (Host header, absolute-form target, HTTP/1.0) is held to every rule but the
 * error shape: node or Fastify may refuse such a request before any family is known. Requests broken at the HTTP
 * level under a family's route (header fields too large, stalled headers or body, a body over the limit) must get
 * 431/408/413 in that family's shape.
 */
import type { FuzzCase } from './case';
import type { WireResponse } from './http';
import { FRAMEWORK_STATUS } from './transport';
import { leakIn } from './values';

export const MAX_REST_ERROR_BYTES = 16 * 1024;
export const MAX_GRAPHQL_ERROR_CHARS = 4 * 1024;

export interface Problem {
  /** Short, value-free category used to group failures (e.g. `5xx`, `leak:SQL error`, `shape:documentation_url`). */
  kind: string;
  detail: string;
  /** Finer, still value-free grouping (e.g. the GraphQL error path and message shape). */
  sig?: string;
}

/** A message with its quoted values and numbers blanked, so failures group by cause, not by input. */
export function messageShape(m: unknown): string {
  return String(m)
    .replace(/"(?:[^"\\]|\\.)*"/g, '"…"')
    .replace(/'[^']*'/g, "'…'")
    .replace(/\d+/g, 'N')
    .slice(0, 90);
}

function isJson(res: WireResponse): boolean {
  const t = String(res.headers['content-type'] ?? '');
  return /^application\/(?:[\w.+-]*\+)?json\b/i.test(t);
}

function parse(res: WireResponse): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(res.body) };
  } catch {
    return { ok: false };
  }
}

export function checkResponse(c: FuzzCase, res: WireResponse): Problem[] {
  const problems: Problem[] = [];
  const s = res.status;
  if (s >= 500) problems.push({ kind: `status ${s}`, detail: `server error ${s}` });
  else if (!((s >= 200 && s < 300) || s === 304 || (s >= 400 && s < 500))) problems.push({ kind: `status ${s}`, detail: `unexpected status ${s}` });

  const leak = leakIn(res.body);
  if (leak) {
    const sent = `${c.request.target}\n${Object.values(c.request.headers).join('\n')}\n${c.request.body ?? ''}`;
    let echoed = sent.includes(leak.match);
    try {
      echoed ||= decodeURIComponent(sent).includes(leak.match);
    } catch {
      /* not decodable: compare as sent */
    }
    if (!echoed) problems.push({ kind: `leak: ${leak.name}`, detail: `body contains ${JSON.stringify(leak.match)}` });
  }

  // URLs the API returns come from PUBLIC_URL, never from the Host header.
  if (c.kind === 'transport' && c.request.headers.host === 'evil.example') {
    const link = String(res.headers.link ?? '') + String(res.headers.location ?? '');
    if (res.body.includes('evil.example') || link.includes('evil.example')) problems.push({ kind: 'URL from Host header', detail: 'the answer names the Host header\'s host' });
  }

  // A request broken at the HTTP level gets the HTTP layer's answer (then its family's shape, below).
  if (c.request.framework && s !== FRAMEWORK_STATUS[c.request.framework]) {
    problems.push({ kind: `framework ${c.request.framework}: status ${s}`, detail: `expected ${FRAMEWORK_STATUS[c.request.framework]}` });
  }

  if (c.request.method === 'HEAD' || s === 304) {
    if (res.size > 0) problems.push({ kind: `body on ${c.request.method === 'HEAD' ? 'HEAD' : '304'}`, detail: `${res.size} bytes` });
    return problems;
  }
  if (s === 204) return problems;

  switch (c.oracle) {
    case 'github':
      if (s >= 400) {
        if (res.size > MAX_REST_ERROR_BYTES) problems.push({ kind: 'error body too large', detail: `${res.size} bytes` });
        if (!isJson(res)) problems.push({ kind: 'shape: not JSON', detail: `content-type ${String(res.headers['content-type'])}` });
        const p = parse(res);
        if (!p.ok || !p.value || typeof p.value !== 'object' || Array.isArray(p.value)) {
          problems.push({ kind: 'shape: body not a JSON object', detail: JSON.stringify(res.body.slice(0, 200)) });
          break;
        }
        const b = p.value as Record<string, unknown>;
        if (typeof b.message !== 'string') problems.push({ kind: 'shape: message', detail: 'no string `message`' });
        if (typeof b.documentation_url !== 'string') problems.push({ kind: 'shape: documentation_url', detail: 'no string `documentation_url`' });
        if (b.status !== undefined && b.status !== String(s)) problems.push({ kind: 'shape: status', detail: `status ${JSON.stringify(b.status)} on HTTP ${s}` });
      } else if (isJson(res) && !parse(res).ok) {
        problems.push({ kind: 'invalid JSON', detail: JSON.stringify(res.body.slice(0, 200)) });
      }
      break;
    case 'wordpress':
    case 'aws':
      if (s >= 400) {
        if (res.size > MAX_REST_ERROR_BYTES) problems.push({ kind: 'error body too large', detail: `${res.size} bytes` });
        const p = parse(res);
        const b = (p.ok ? p.value : undefined) as Record<string, unknown> | undefined;
        if (!b || typeof b !== 'object' || Array.isArray(b)) {
          problems.push({ kind: 'shape: body not a JSON object', detail: JSON.stringify(res.body.slice(0, 200)) });
        } else if (c.oracle === 'wordpress') {
          // { code, message, data: { status } }
          const data = b.data as Record<string, unknown> | undefined;
          if (typeof b.code !== 'string' || typeof b.message !== 'string') problems.push({ kind: 'shape: code/message', detail: JSON.stringify(b).slice(0, 200) });
          if (!data || data.status !== s) problems.push({ kind: 'shape: data.status', detail: JSON.stringify(b).slice(0, 200) });
        } else if (typeof b.__type !== 'string' || typeof b.message !== 'string') {
          // { __type, message }
          problems.push({ kind: 'shape: __type/message', detail: JSON.stringify(b).slice(0, 200) });
        }
      }
      break;
    case 'graphql': {
      if (!isJson(res)) {
        problems.push({ kind: 'shape: not JSON', detail: `content-type ${String(res.headers['content-type'])}: ${JSON.stringify(res.body.slice(0, 200))}` });
        break;
      }
      const p = parse(res);
      if (!p.ok || !p.value || typeof p.value !== 'object' || Array.isArray(p.value)) {
        problems.push({ kind: 'shape: body not a JSON object', detail: JSON.stringify(res.body.slice(0, 200)) });
        break;
      }
      const errors = (p.value as { errors?: unknown }).errors;
      if (errors !== undefined && !Array.isArray(errors)) problems.push({ kind: 'shape: errors not a list', detail: JSON.stringify(errors).slice(0, 200) });
      if (s >= 400 && (!Array.isArray(errors) || errors.length === 0)) problems.push({ kind: 'shape: 4xx without errors', detail: JSON.stringify(res.body.slice(0, 200)) });
      if (Array.isArray(errors)) {
        const seen = new Set<string>();
        for (const e of errors as Array<{ message?: unknown; extensions?: { code?: unknown }; path?: unknown[] }>) {
          const code = e?.extensions?.code;
          const text = JSON.stringify(e);
          const where = Array.isArray(e?.path) ? e.path.filter((x) => typeof x === 'string').join('.') : '';
          const sig = `${where ? `at ${where}: ` : ''}${messageShape(e?.message)}`;
          const add = (kind: string, detail: string) => {
            if (!seen.has(kind)) problems.push({ kind, detail, sig });
            seen.add(kind);
          };
          if (typeof e?.message !== 'string') add('shape: error without message', text.slice(0, 200));
          if (typeof code !== 'string') add('shape: error without extensions.code', text.slice(0, 300));
          else if (code === 'INTERNAL_SERVER_ERROR') add('code INTERNAL_SERVER_ERROR', text.slice(0, 300));
          if (text.length > MAX_GRAPHQL_ERROR_CHARS) add('error too large', `${text.length} chars: ${text.slice(0, 200)}`);
        }
      }
      break;
    }
    case 'any':
      if (s >= 400 && res.size > MAX_REST_ERROR_BYTES) problems.push({ kind: 'error body too large', detail: `${res.size} bytes` });
      break;
  }
  return problems;
}
