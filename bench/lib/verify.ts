/**
 * Helpers for workload verification: fetch once, compare JSON exactly and say where it differs.
 */
import { BenchFailure, FetchedResponse, HttpRequestSpec } from './types';

export async function fetchOnce(baseUrl: string, spec: HttpRequestSpec): Promise<FetchedResponse> {
  const res = await fetch(new URL(spec.path, baseUrl), { method: spec.method, headers: spec.headers, body: spec.body });
  const text = await res.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, contentType: res.headers.get('content-type') ?? '', text, json };
}

/** The first path where a and b differ, or null when they are deeply equal (key order ignored). */
export function firstDifference(a: unknown, b: unknown, at = '$'): string | null {
  if (Object.is(a, b)) return null;
  if (typeof a !== typeof b || a === null || b === null || typeof a !== 'object') {
    return `${at}: ${JSON.stringify(a)} vs ${JSON.stringify(b)}`;
  }
  if (Array.isArray(a) !== Array.isArray(b)) return `${at}: array vs object`;
  if (Array.isArray(a)) {
    const bb = b as unknown[];
    if (a.length !== bb.length) return `${at}: length ${a.length} vs ${bb.length}`;
    for (let i = 0; i < a.length; i++) {
      const d = firstDifference(a[i], bb[i], `${at}[${i}]`);
      if (d) return d;
    }
    return null;
  }
  const ao = a as Record<string, unknown>;
  const bo = b as Record<string, unknown>;
  const keys = new Set([...Object.keys(ao), ...Object.keys(bo)]);
  for (const k of keys) {
    if (!(k in ao)) return `${at}.${k}: missing on the left`;
    if (!(k in bo)) return `${at}.${k}: missing on the right`;
    const d = firstDifference(ao[k], bo[k], `${at}.${k}`);
    if (d) return d;
  }
  return null;
}

export function assertOk(label: string, r: FetchedResponse): void {
  if (r.status < 200 || r.status >= 300) throw new BenchFailure(`${label} answered HTTP ${r.status}: ${r.text.slice(0, 500)}`);
  if (r.json === undefined) throw new BenchFailure(`${label} did not answer JSON: ${r.text.slice(0, 200)}`);
  const errors = (r.json as { errors?: unknown }).errors;
  if (errors !== undefined) throw new BenchFailure(`${label} answered GraphQL errors: ${JSON.stringify(errors).slice(0, 500)}`);
}

export function assertSame(label: string, gateway: unknown, baseline: unknown): void {
  const d = firstDifference(gateway, baseline);
  if (d) throw new BenchFailure(`${label}: gateway and baseline differ at ${d}`);
}
