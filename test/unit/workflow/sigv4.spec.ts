/**
 * Server-side SigV4 verification (src/auth/sigv4.ts) against the official AWS signing test vectors (the CRT v4
 * suite in /work/shared/vectors/sigv4: each case's signed request, verified as a server receives it) and against
 * the ways a request goes wrong.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { SignatureV4 } from '@smithy/signature-v4';
import type { AccountEntity } from '../../../entities/identity';
import { computeSignature, parseAmzDate, parseAuthorizationHeader, verifySigV4 } from '../../../src/auth/sigv4';
import type { HttpRequestFacts } from '../../../src/context';
import { UnauthenticatedError } from '../../../src/errors/app-error';
import { NodeSha256 } from '../../../packages/workflow-client/src/node-sha256';

const VECTORS = '/work/shared/vectors/sigv4';
const SECRET = 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY';
const NOW = new Date('2015-08-30T12:36:00Z');
const USER = { id: 7, login: 'vector' } as AccountEntity;

/**
 * Cases a server can check as received. Left out: the session-token cases (we issue no session tokens), the
 * `*-unnormalized` ones (S3-style paths), header folding and duplicate keys (Node joins them before we see them),
 * relative paths with `..` (clients send them normalized), and the x-www-form-urlencoded-parameters case, which is
 * internally inconsistent.
 */
const CASES = [
  'get-vanilla',
  'get-vanilla-query',
  'get-vanilla-empty-query-key',
  'get-vanilla-query-order-key-case',
  'get-vanilla-query-unreserved',
  'get-vanilla-utf8-query',
  'get-unreserved',
  'get-utf8',
  'get-space-normalized',
  'get-header-value-trim',
  'get-header-value-order',
  'post-vanilla',
  'post-vanilla-query',
  'post-vanilla-empty-query-value',
  'post-header-key-case',
  'post-header-key-sort',
  'post-header-value-case',
  'post-x-www-form-urlencoded',
];

/** A vector's header-signed-request.txt as a server sees it: method, target, lower-case headers, body bytes. */
function received(name: string): HttpRequestFacts {
  const text = fs.readFileSync(path.join(VECTORS, name, 'header-signed-request.txt'), 'utf8');
  const blank = text.indexOf('\n\n');
  const head = (blank < 0 ? text : text.slice(0, blank)).split('\n');
  const body = blank < 0 ? '' : text.slice(blank + 2);
  const method = head[0].slice(0, head[0].indexOf(' '));
  const target = head[0].slice(method.length + 1, head[0].lastIndexOf(' HTTP/'));
  const headers: Record<string, string> = {};
  for (const line of head.slice(1)) {
    const c = line.indexOf(':');
    const k = line.slice(0, c).toLowerCase();
    const v = line.slice(c + 1);
    headers[k] = headers[k] === undefined ? v : `${headers[k]},${v}`;
  }
  // A client sends the path percent-encoded; the vectors show it decoded.
  const q = target.indexOf('?');
  const p = q < 0 ? target : target.slice(0, q);
  const encodedTarget = p.split('/').map((s) => encodeURIComponent(s)).join('/') + (q < 0 ? '' : target.slice(q));
  return { method, target: encodedTarget, headers, rawBody: body ? Buffer.from(body, 'utf8') : undefined };
}

const verify = (req: HttpRequestFacts, opts: { now?: Date; region?: string; secret?: string | null } = {}) =>
  verifySigV4(req, {
    region: opts.region ?? 'us-east-1',
    service: 'service',
    now: opts.now ?? NOW,
    lookup: async (id) => (id === 'AKIDEXAMPLE' && opts.secret !== null ? { secret: opts.secret ?? SECRET, user: USER } : null),
  });

async function failure(p: Promise<unknown>): Promise<string> {
  try {
    await p;
    return 'ok';
  } catch (e) {
    if (!(e instanceof UnauthenticatedError)) throw e;
    return `${e.domainCode}: ${e.message}`;
  }
}

describe('SigV4 verification against the official vectors', () => {
  it.each(CASES)('%s verifies, and the recomputed signature is the vector’s', async (name) => {
    const req = received(name);
    await expect(verify(req)).resolves.toEqual({ accessKeyId: 'AKIDEXAMPLE', user: USER });
    const expected = fs.readFileSync(path.join(VECTORS, name, 'header-signature.txt'), 'utf8').trim();
    const auth = parseAuthorizationHeader(req.headers.authorization as string);
    expect(await computeSignature(req, auth, SECRET, NOW)).toBe(expected);
  });

  it('any change to a signed part is InvalidSignatureException', async () => {
    const base = received('post-x-www-form-urlencoded');
    const mismatch = /^INVALID_SIGNATURE: The request signature we calculated does not match/;
    expect(await failure(verify({ ...base, method: 'PUT' }))).toMatch(mismatch);
    expect(await failure(verify({ ...base, target: '/other' }))).toMatch(mismatch);
    expect(await failure(verify({ ...base, headers: { ...base.headers, 'content-type': 'application/json' } }))).toMatch(mismatch);
    // The body no longer matches its declared hash.
    expect(await failure(verify({ ...base, rawBody: Buffer.from('Param1=value2') }))).toMatch(/^INVALID_SIGNATURE: The provided 'x-amz-content-sha256'/);
    // A signed header that is missing.
    const { 'content-length': _gone, ...fewer } = base.headers as Record<string, string>;
    expect(await failure(verify({ ...base, headers: fewer }))).toMatch(mismatch);
    expect(await failure(verify(base, { secret: SECRET.replace('w', 'W') }))).toMatch(mismatch);
    // An unsigned header may be added freely.
    await expect(verify({ ...base, headers: { ...base.headers, 'user-agent': 'curl' } })).resolves.toBeDefined();
  });

  it('an unknown key, a stale or future date, a foreign scope and malformed headers get AWS’ answers', async () => {
    const base = received('get-vanilla');
    expect(await failure(verify(base, { secret: null }))).toBe('UNRECOGNIZED_CLIENT: The security token included in the request is invalid.');
    expect(await failure(verify(base, { now: new Date(NOW.getTime() + 16 * 60_000) }))).toBe(
      'INVALID_SIGNATURE: Signature expired: 20150830T123600Z is now earlier than 20150830T123700Z (20150830T125200Z - 15 min.)',
    );
    expect(await failure(verify(base, { now: new Date(NOW.getTime() - 16 * 60_000) }))).toMatch(/^INVALID_SIGNATURE: Signature not yet current: 20150830T123600Z is still later than/);
    // 15 minutes exactly is still fine.
    await expect(verify(base, { now: new Date(NOW.getTime() + 15 * 60_000) })).resolves.toBeDefined();
    expect(await failure(verify(base, { region: 'eu-west-1' }))).toBe("INVALID_SIGNATURE: Credential should be scoped to a valid region, not 'us-east-1'. ");
    expect(await failure(verifySigV4(base, { region: 'us-east-1', now: NOW, lookup: async () => null }))).toBe(
      "INVALID_SIGNATURE: Credential should be scoped to correct service: 'states'. ",
    );
    const auth = base.headers.authorization as string;
    const withAuth = (a: string | undefined) => ({ ...base, headers: { ...base.headers, authorization: a } });
    expect(await failure(verify(withAuth(undefined)))).toBe('MISSING_AUTHENTICATION_TOKEN: Missing Authentication Token');
    expect(await failure(verify(withAuth('Bearer gwc_secretsecret')))).not.toContain('gwc_secretsecret');
    expect(await failure(verify(withAuth('AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/service/aws4_request')))).toBe(
      "INCOMPLETE_SIGNATURE: Authorization header requires 'Signature' parameter. Authorization header requires 'SignedHeaders' parameter.",
    );
    expect(await failure(verify(withAuth(auth.replace('/aws4_request', ''))))).toMatch(/^INCOMPLETE_SIGNATURE: Credential must have exactly 5 slash-delimited elements/);
    expect(await failure(verify(withAuth(auth.replace('SignedHeaders=host;x-amz-date', 'SignedHeaders=x-amz-date'))))).toMatch(/'Host' or ':authority' must be a 'SignedHeader'/);
    expect(await failure(verify(withAuth(auth.replace('/20150830/', '/20150831/'))))).toMatch(/^INVALID_SIGNATURE: Date in Credential scope does not match/);
    expect(await failure(verify({ ...base, headers: { ...base.headers, 'x-amz-date': '2015-08-30' } }))).toMatch(/requires existence of either a 'X-Amz-Date'/);
    expect(await failure(verify(withAuth(auth.replace(/Signature=[0-9a-f]+/, 'Signature=zz'))))).toMatch(/^INVALID_SIGNATURE/);
    // Megabytes of credential are never echoed whole.
    const huge = await failure(verify(withAuth(`AWS4-HMAC-SHA256 Credential=${'A'.repeat(100_000)}, SignedHeaders=host, Signature=${'0'.repeat(64)}`)));
    expect(huge.length).toBeLessThan(400);
  });

  it('a request must have signed its X-Amz-Date, X-Amz-Target and Content-Type (no replay as another operation)', async () => {
    const sign = async (unsigned: string[], target = 'AWSStepFunctions.DescribeExecution'): Promise<HttpRequestFacts> => {
      const signer = new SignatureV4({ credentials: { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: SECRET }, region: 'us-east-1', service: 'service', sha256: NodeSha256 });
      const body = '{"executionArn":"arn:aws:states:us-east-1:000000000000:execution:sm:job"}';
      const signed = await signer.sign(
        {
          method: 'POST',
          protocol: 'https:',
          hostname: 'example.amazonaws.com',
          path: '/',
          headers: { host: 'example.amazonaws.com', 'content-type': 'application/x-amz-json-1.0', 'x-amz-target': target },
          body,
        },
        { signingDate: NOW, unsignableHeaders: new Set(unsigned) },
      );
      return { method: 'POST', target: '/', headers: signed.headers, rawBody: Buffer.from(body) };
    };
    await expect(verify(await sign([]))).resolves.toBeDefined();
    const noTarget = await sign(['x-amz-target']);
    expect(noTarget.headers.authorization).not.toContain('x-amz-target');
    // Refused as signed, and so as replayed with another operation.
    for (const target of ['AWSStepFunctions.DescribeExecution', 'AWSStepFunctions.StopExecution']) {
      expect(await failure(verify({ ...noTarget, headers: { ...noTarget.headers, 'x-amz-target': target } }))).toBe(
        "INVALID_SIGNATURE: 'X-Amz-Target' must be a 'SignedHeader' in the AWS Authorization.",
      );
    }
    expect(await failure(verify(await sign(['x-amz-date'])))).toBe("INVALID_SIGNATURE: 'X-Amz-Date' must be a 'SignedHeader' in the AWS Authorization.");
    expect(await failure(verify(await sign(['content-type'])))).toBe("INVALID_SIGNATURE: 'Content-Type' must be a 'SignedHeader' in the AWS Authorization.");
    // Signed, a changed target is a signature mismatch.
    const full = await sign([]);
    expect(await failure(verify({ ...full, headers: { ...full.headers, 'x-amz-target': 'AWSStepFunctions.StopExecution' } }))).toMatch(/^INVALID_SIGNATURE: The request signature we calculated/);
  });

  it('parses X-Amz-Date strictly', () => {
    expect(parseAmzDate('20150830T123600Z')?.toISOString()).toBe('2015-08-30T12:36:00.000Z');
    for (const bad of ['20150830T123600', '20151330T123600Z', '20150230T123600Z', '2015-08-30T12:36:00Z', '', undefined]) expect(parseAmzDate(bad)).toBeUndefined();
  });
});
