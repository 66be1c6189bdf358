/**
 * src/auth/sigv4-canonical.ts against the signer it stands in for: @smithy/signature-v4 asked to re-sign a received
 * request exactly as sigv4.ts asked it before (only the listed headers, `signableHeaders` = that list, no checksum
 * header added, SHA-256 from node:crypto). Generated requests with the parts where the signer has rules of its own:
 * paths with `.`/`..`/empty segments and characters to encode, queries with repeated keys, empty values and
 * X-Amz-Signature, header values with tabs, runs of spaces and line breaks, a signed `date` (dropped by the
 * signer), a signed x-amz-content-sha256 (taken for the body's hash), unsignable names listed as signed, bodies as
 * text and bytes.
 */
import { NodeSha256 } from '@graphql-domain-gateway/workflow-client';
import { SignatureV4 } from '@smithy/signature-v4';
import { sigv4Signature, type CanonicalRequest } from '../../../src/auth/sigv4-canonical';

async function bySigner(req: CanonicalRequest, scope: { accessKeyId: string; secretAccessKey: string; region: string; service: string; date: Date }): Promise<string> {
  const signer = new SignatureV4({ credentials: { accessKeyId: scope.accessKeyId, secretAccessKey: scope.secretAccessKey }, region: scope.region, service: scope.service, sha256: NodeSha256, applyChecksum: false });
  const signed = await signer.sign(
    { method: req.method, protocol: 'https:', hostname: req.headers.host ?? '', path: req.path, query: req.query, headers: req.headers, body: req.body },
    { signingDate: scope.date, signableHeaders: new Set(Object.keys(req.headers)) },
  );
  return /Signature=([0-9a-f]{64})/.exec(String(signed.headers.authorization))![1];
}

/** A small deterministic generator (the same cases on every run). */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const PATH_PARTS = ['', '.', '..', 'workflow', 'a b', 'ü', '%', '!*()\'', '~_-.', 'x+y', 'a=b&c', '日本', ';,:@$'];
const VALUES = ['', 'x', 'a b', '  padded  ', 'tab\there', 'two\r\nlines', 'many    spaces', 'ü', '!*()', 'a/b?c=d', '=&'];
const HEADER_NAMES = ['content-type', 'x-amz-target', 'x-custom', 'user-agent', 'date', 'x-amz-user-agent', 'cache-control', 'x-amz-content-sha256', 'x-forwarded-for', 'sec-fetch-mode'];

function generated(next: () => number): CanonicalRequest {
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(next() * xs.length)];
  const segments = Array.from({ length: Math.floor(next() * 5) }, () => pick(PATH_PARTS));
  const path = `/${segments.join('/')}${next() < 0.3 ? '/' : ''}`;
  const query: Record<string, string | string[]> = {};
  for (let i = Math.floor(next() * 4); i > 0; i--) {
    const key = pick(['a', 'B', 'x y', 'X-Amz-Signature', 'ü', '!', 'z']);
    query[key] = next() < 0.3 ? [pick(VALUES), pick(VALUES), pick(VALUES)] : pick(VALUES);
  }
  const headers: Record<string, string> = { host: pick(['127.0.0.1:3000', 'example.com', ' spaced.example ']), 'x-amz-date': '20261128T120000Z' };
  for (let i = Math.floor(next() * 4); i > 0; i--) {
    const name = pick(HEADER_NAMES);
    headers[name] = name === 'x-amz-content-sha256' ? 'ab'.repeat(32) : pick(VALUES);
  }
  const text = pick(['', '{}', '{"input":"ü"}', 'x'.repeat(300)]);
  return { method: pick(['POST', 'GET', 'PUT']), path, query, headers, body: next() < 0.5 ? text : Buffer.from(text) };
}

describe('SigV4 signatures: sigv4-canonical.ts and @smithy/signature-v4 agree', () => {
  it('on 500 generated requests', async () => {
    const next = rng(22);
    for (let i = 0; i < 500; i++) {
      const req = generated(next);
      const scope = { accessKeyId: 'AKID' + (i % 3), secretAccessKey: 'secret/' + (i % 5), region: i % 2 ? 'us-east-1' : 'eu-west-3', service: 'states', date: new Date(Date.UTC(2026, 10, 28, 12, 0, 0) + (i % 4) * 86_400_000) };
      const ours = sigv4Signature(req, scope);
      expect([i, ours]).toEqual([i, await bySigner(req, scope)]);
    }
  });

  it('a signing key is per secret: the same key id with another secret signs differently', () => {
    const req: CanonicalRequest = { method: 'POST', path: '/workflow', query: {}, headers: { host: 'h', 'x-amz-date': '20261128T120000Z' }, body: '{}' };
    const scope = { accessKeyId: 'AKID', secretAccessKey: 'one', region: 'us-east-1', service: 'states', date: new Date(Date.UTC(2026, 10, 28, 12)) };
    expect(sigv4Signature(req, scope)).not.toBe(sigv4Signature(req, { ...scope, secretAccessKey: 'two' }));
  });
});
