/**
 * The SigV4 signature of a request, computed the way `@smithy/signature-v4` (the AWS SDK's signer) computes it for
 * the server's verification (sigv4.ts), written straight on node:crypto. The signer, asked to re-sign a received
 * request, clones it, hashes its body, derives the signing key with several HMACs and awaits a promise per hash:
 * it was most of a StartExecution's SigV4 cost. Here: one canonical request, one SHA-256 of the body (or the signed
 * `x-amz-content-sha256` the signer would take instead), the signing key cached per key, day, region and service.
 *
 * Same steps and quirks as the signer (test/unit/workflow/sigv4-canonical.spec.ts compares the two on generated
 * requests): `authorization`, `date` and `x-amz-date` are dropped from the signed headers and `x-amz-date` is
 * written back from the signing date; header values have CR/LF made spaces, runs of spaces and tabs made one, and
 * one leading and one trailing space removed; the path is normalised (`.`, `..`, empty segments) and encoded with
 * RFC 3986's unreserved set; query keys and values are encoded, keys sorted, a key's several values sorted.
 */
import { createHash, createHmac } from 'node:crypto';

export interface CanonicalRequest {
  method: string;
  /** The path, percent-decoded segment by segment (it is encoded here, as the client's signer encoded it). */
  path: string;
  /** Decoded query parameters. */
  query: Record<string, string | string[]>;
  /** The headers the client listed as signed: lower-case name -> value. */
  headers: Record<string, string>;
  body: Buffer | string;
}

export interface SigningScope {
  accessKeyId: string;
  secretAccessKey: string;
  region: string;
  service: string;
  /** When the request was signed (its X-Amz-Date). */
  date: Date;
}

const ALGORITHM = 'AWS4-HMAC-SHA256';
/** Headers the signer generates itself (it drops the request's own). */
const GENERATED = new Set(['authorization', 'x-amz-date', 'date']);

/** RFC 3986 encoding as the signer's `escapeUri`: encodeURIComponent plus ! ' ( ) *. */
function escapeUri(s: string): string {
  return encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

function canonicalPath(path: string): string {
  const segments: string[] = [];
  for (const s of path.split('/')) {
    if (s === '' || s === '.') continue;
    if (s === '..') segments.pop();
    else segments.push(s);
  }
  const normalized = `${path.startsWith('/') ? '/' : ''}${segments.join('/')}${segments.length > 0 && path.endsWith('/') ? '/' : ''}`;
  return escapeUri(normalized).replace(/%2F/g, '/');
}

function canonicalQuery(query: Record<string, string | string[]>): string {
  const keys: string[] = [];
  const serialized: Record<string, string> = {};
  for (const key of Object.keys(query)) {
    if (key.toLowerCase() === 'x-amz-signature') continue;
    const k = escapeUri(key);
    keys.push(k);
    const v = query[key];
    if (typeof v === 'string') serialized[k] = `${k}=${escapeUri(v)}`;
    else if (Array.isArray(v)) serialized[k] = v.map((x) => `${k}=${escapeUri(x)}`).sort().join('&');
  }
  return keys
    .sort()
    .map((k) => serialized[k])
    .filter((x) => x)
    .join('&');
}

/** Signing keys by key id, secret, day, region and service (at most MAX_KEYS; a day's key serves that day). */
const signingKeys = new Map<string, Buffer>();
const MAX_KEYS = 1000;

function signingKey(scope: SigningScope, shortDate: string): Buffer {
  const id = `${scope.accessKeyId}\u0000${scope.secretAccessKey}\u0000${shortDate}\u0000${scope.region}\u0000${scope.service}`;
  let key = signingKeys.get(id);
  if (!key) {
    key = createHmac('sha256', `AWS4${scope.secretAccessKey}`).update(shortDate).digest();
    for (const part of [scope.region, scope.service, 'aws4_request']) key = createHmac('sha256', key).update(part).digest();
    if (signingKeys.size >= MAX_KEYS) signingKeys.delete(signingKeys.keys().next().value as string);
    signingKeys.set(id, key);
  }
  return key;
}

/** The hex signature of `req` signed at `scope.date` for `scope`. */
export function sigv4Signature(req: CanonicalRequest, scope: SigningScope): string {
  const longDate = scope.date.toISOString().replace(/\.\d{3}Z$/, 'Z').replace(/[-:]/g, '');
  const shortDate = longDate.slice(0, 8);
  const canonical: Record<string, string> = {};
  for (const name of Object.keys(req.headers)) {
    const value = req.headers[name];
    if (value == undefined || GENERATED.has(name)) continue;
    canonical[name] = value
      .replace(/[\r\n]/g, ' ')
      .replace(/[ \t]+/g, ' ')
      .replace(/^ | $/g, '');
  }
  canonical['x-amz-date'] = longDate;
  // A signed x-amz-content-sha256 stands for the body (sigv4.ts has checked that it is the body's).
  const declared = req.headers['x-amz-content-sha256'];
  const payloadHash = declared ?? createHash('sha256').update(req.body).digest('hex');
  const names = Object.keys(canonical).sort();
  const canonicalRequest = `${req.method}\n${canonicalPath(req.path)}\n${canonicalQuery(req.query)}\n${names.map((n) => `${n}:${canonical[n]}`).join('\n')}\n\n${names.join(';')}\n${payloadHash}`;
  const credentialScope = `${shortDate}/${scope.region}/${scope.service}/aws4_request`;
  const stringToSign = `${ALGORITHM}\n${longDate}\n${credentialScope}\n${createHash('sha256').update(canonicalRequest).digest('hex')}`;
  return createHmac('sha256', signingKey(scope, shortDate)).update(stringToSign).digest('hex');
}
