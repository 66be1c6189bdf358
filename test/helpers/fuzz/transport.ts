/**
 * Transport-level tampering of an otherwise valid request: absolute-form request targets, odd Host
 * headers, HTTP/1.0 without Host. URLs the API returns come from PUBLIC_URL, never from the Host header,
 * and none of these may produce a 5xx or a logged stack trace.
 */
import fc from 'fast-check';
import { FuzzCase, makeCase } from './case';

interface Tamper {
  absolute?: string;
  host?: string;
  http10?: boolean;
  target?: string;
}

const TAMPERS: Tamper[] = [
  { absolute: 'http://evil.example' },
  { absolute: 'http://[::1' },
  { absolute: 'http://a:b@evil.example:99999' },
  { absolute: 'ftp://x' },
  { absolute: 'http://' },
  { host: '[::1' },
  { host: '[::1]:80' },
  { host: '' },
  { host: 'evil.example' },
  { host: 'a'.repeat(300) },
  { host: 'localhost:99999' },
  { host: 'localhost:-1' },
  { host: '%' },
  { host: 'a b' },
  { host: 'x@y' },
  { host: '[zz]' },
  { http10: true },
  { http10: true, host: '' },
  { http10: true, host: '[::1' },
  { http10: true, absolute: 'http://evil.example' },
  { target: '*' },
  { target: 'example.com:443' },
  { target: '//evil.example/x' },
];

export function transportCase(base: fc.Arbitrary<FuzzCase>): fc.Arbitrary<FuzzCase> {
  return fc.tuple(base, fc.constantFrom(...TAMPERS)).map(([c, t]) => {
    const headers = { ...c.request.headers };
    if (t.host !== undefined) headers.host = t.host;
    let target = c.request.target;
    if (t.absolute !== undefined) target = `${t.absolute}${target}`;
    if (t.target !== undefined) target = t.target;
    const label = Object.entries(t)
      .map(([k, v]) => `${k}=${JSON.stringify(v).slice(0, 40)}`)
      .join(',');
    return makeCase({ ...c, kind: 'transport', mode: 'one-bad', bad: label, oracle: 'any', request: { ...c.request, headers, target, http10: t.http10, fresh: true } });
  });
}

/**
 * Answers the HTTP layer gives before (or instead of) the route, for a request of the route's family: header
 * fields too large (431), headers or body that stall (408), a body above the limit (413, announced by its
 * Content-Length and never sent). Held to every rule including the family's error shape (the case's oracle).
 */
export type FrameworkFault = 'headers-too-large' | 'stalled-headers' | 'stalled-body' | 'body-too-large';

/** The status each fault must get. */
export const FRAMEWORK_STATUS: Record<FrameworkFault, number> = { 'headers-too-large': 431, 'stalled-headers': 408, 'stalled-body': 408, 'body-too-large': 413 };

/** The case sent broken at the HTTP level by `fault` (on a connection of its own). */
export function withFault(c: FuzzCase, fault: FrameworkFault): FuzzCase {
  return makeCase({ ...c, kind: 'transport', mode: 'one-bad', bad: `framework=${fault}`, request: { ...c.request, framework: fault, fresh: true } });
}
