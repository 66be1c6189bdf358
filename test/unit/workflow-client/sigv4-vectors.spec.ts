/**
 * The client's SigV4 signer (packages/workflow-client/src/signer.ts: @smithy/signature-v4 with node:crypto SHA-256) on ALL the
 * official test vectors in test/fixtures/sigv4 (a copy of ../shared/vectors/sigv4: the aws-c-auth v4 suite: 38 cases). For each case it checks the
 * header-signed request (X-Amz-Date, X-Amz-Content-Sha256 when the body is signed, the Authorization header with
 * scope, signed headers and signature: the signature is the hash of the canonical request and string to sign the
 * case lists) and, with the same signer library and hash, the presigned URL of query-signed-request.txt.
 *
 * How the harness maps a case's context.json onto the signer (reference §5):
 *  - credentials, region, service, timestamp → the signer's credentials, region, service and signing date;
 *  - sign_body → `applyChecksum` (the x-amz-content-sha256 header is added and signed only then);
 *  - normalize: false (the "-unnormalized" cases) → the path is passed already escaped with `uriEscapePath: false`,
 *    because this signer normalizes dot segments and slashes only while escaping (normalize: true → the raw path
 *    with `uriEscapePath: true`);
 *  - omit_session_token: true → signed without the token, which is then added as X-Amz-Security-Token (the signer
 *    cannot add it after signing); otherwise the token is signed with the rest;
 *  - expiration_in_seconds → the presigned URL's X-Amz-Expires;
 *  - folded header lines (a continuation starting with spaces) are joined to the previous value with one space.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { SignatureV4 } from '@smithy/signature-v4';
import { NodeSha256 } from '../../../packages/workflow-client/src/node-sha256';
import { SignatureV4Signer } from '../../../packages/workflow-client/src/signer';
import { Credentials, type WireRequest } from '../../../packages/workflow-client/src/types';

// A copy of ../shared/vectors/sigv4 (aws-c-auth's suite, Apache-2.0, LICENSE alongside), so a clean clone runs it.
const DIR = path.join(__dirname, '..', '..', 'fixtures', 'sigv4');

interface Context {
  credentials: { access_key_id: string; secret_access_key: string; token?: string };
  expiration_in_seconds: number;
  normalize: boolean;
  region: string;
  service: string;
  sign_body: boolean;
  timestamp: string;
  omit_session_token?: boolean;
}

interface ParsedRequest {
  method: string;
  rawPath: string;
  query: Record<string, string | string[]>;
  headers: Array<[string, string]>;
  body: string;
}

function parseRequest(text: string): ParsedRequest {
  const [head, ...rest] = text.split('\n\n');
  const lines = head.split('\n');
  const m = /^(\S+) (.*) HTTP\/1\.1$/.exec(lines[0]);
  if (!m) throw new Error(`bad request line ${lines[0]}`);
  const [rawPath, rawQuery] = m[2].split(/\?(.*)/s);
  const headers: Array<[string, string]> = [];
  for (const line of lines.slice(1)) {
    if (line === '') continue;
    if (/^\s/.test(line) && headers.length) headers[headers.length - 1][1] += ` ${line.trim()}`;
    else {
      const i = line.indexOf(':');
      headers.push([line.slice(0, i), line.slice(i + 1)]);
    }
  }
  const query: Record<string, string | string[]> = {};
  for (const pair of (rawQuery ?? '').split('&').filter(Boolean)) {
    const [k, v = ''] = pair.split('=');
    const key = decodeURIComponent(k);
    const value = decodeURIComponent(v);
    const prev = query[key];
    query[key] = prev === undefined ? value : Array.isArray(prev) ? [...prev, value] : [prev, value];
  }
  return { method: m[1], rawPath, query, headers, body: rest.join('\n\n') };
}

/** Duplicate header names (get-header-key-duplicate) are one header with comma-joined values. */
function headerMap(h: Array<[string, string]>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of h) out[k] = out[k] === undefined ? v : `${out[k]},${v}`;
  return out;
}

const escapePath = (p: string) => p.split('/').map((s) => encodeURIComponent(s)).join('/');

const cases = fs.readdirSync(DIR).filter((d) => fs.existsSync(path.join(DIR, d, 'context.json'))).sort();

describe('SigV4 test vectors (aws-c-auth v4 suite)', () => {
  it('has all 38 cases', () => {
    expect(cases).toHaveLength(38);
  });

  describe.each(cases)('%s', (name) => {
    const read = (f: string) => fs.readFileSync(path.join(DIR, name, f), 'utf8');
    const ctx = JSON.parse(read('context.json')) as Context;
    const req = parseRequest(read('request.txt'));
    const signingTime = new Date(ctx.timestamp);
    const token = ctx.omit_session_token ? undefined : ctx.credentials.token;
    const wire: WireRequest = {
      method: req.method,
      protocol: 'https:',
      hostname: headerMap(req.headers).Host ?? 'example.amazonaws.com',
      path: ctx.normalize ? req.rawPath : escapePath(req.rawPath),
      query: req.query,
      headers: headerMap(req.headers),
      body: req.body,
    };

    it('header signing: the Authorization header and signature of header-signed-request.txt', async () => {
      const signer = new SignatureV4Signer(ctx.service, ctx.region, { uriEscapePath: ctx.normalize, applyChecksum: ctx.sign_body });
      const signed = await signer.sign(wire, new Credentials(ctx.credentials.access_key_id, ctx.credentials.secret_access_key, token), { signingTime });
      const expected = headerMap(parseRequest(read('header-signed-request.txt')).headers);
      const lower = (h: Record<string, string>) => Object.fromEntries(Object.entries(h).map(([k, v]) => [k.toLowerCase(), v]));
      const got = lower(signed.headers);
      if (ctx.omit_session_token && ctx.credentials.token) got['x-amz-security-token'] = ctx.credentials.token;
      const want = lower(expected);
      expect(got.authorization).toBe(want.authorization);
      expect(got.authorization.endsWith(`Signature=${read('header-signature.txt').trim()}`)).toBe(true);
      expect(got['x-amz-date']).toBe(want['x-amz-date']);
      expect(got['x-amz-content-sha256']).toBe(want['x-amz-content-sha256']);
      expect(got['x-amz-security-token']).toBe(want['x-amz-security-token']);
      // The canonical request's signed-header list is the one the case lists.
      const canonical = read('header-canonical-request.txt').split('\n');
      expect(got.authorization).toContain(`SignedHeaders=${canonical[canonical.length - 2]},`);
    });

    it('query signing (presigned URL): the signature of query-signed-request.txt', async () => {
      const presigner = new SignatureV4({
        credentials: { accessKeyId: ctx.credentials.access_key_id, secretAccessKey: ctx.credentials.secret_access_key, sessionToken: token },
        region: ctx.region,
        service: ctx.service,
        sha256: NodeSha256,
        uriEscapePath: ctx.normalize,
        applyChecksum: ctx.sign_body,
      });
      const presigned = await presigner.presign({ ...wire, headers: { ...wire.headers } }, { signingDate: signingTime, expiresIn: ctx.expiration_in_seconds });
      expect(presigned.query?.['X-Amz-Signature']).toBe(read('query-signature.txt').trim());
    });
  });
});
