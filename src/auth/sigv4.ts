/**
 * AWS Signature Version 4, server side: every request of the AWS JSON family (the workflow service) is signed
 * with a workflow access key (`Authorization: AWS4-HMAC-SHA256 Credential=<key>/<yyyymmdd>/<region>/states/
 * aws4_request, SignedHeaders=…, Signature=…` + `X-Amz-Date`). We recompute the signature with
 * `@smithy/signature-v4` (the AWS SDK's own signer, SHA-256 and HMAC from node:crypto) over exactly the headers the
 * client signed, the request target as sent and the body bytes as received, and compare in constant time.
 *
 * Answers, in AWS' words (`{__type, message}`, 400): no Authorization -> MissingAuthenticationTokenException; a
 * malformed one -> IncompleteSignatureException; a scope of another region or service, a date more than 15
 * minutes off, a signature that does not cover host, x-amz-date, x-amz-target and content-type (when sent), or a
 * wrong signature -> InvalidSignatureException; an unknown or inactive key ->
 * UnrecognizedClientException. The secret and the signature never appear in a message or a log.
 *
 * Access-key secrets are decrypted once and kept in memory for at most 60 s (at most 1,000 keys per database), so
 * a burst of signed requests costs one lookup per key per minute; a deactivated key stops working within 60 s.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { SignatureV4 } from '@smithy/signature-v4';
import type * as WorkflowClient from '@graphql-domain-gateway/workflow-client';
import type { DataSource } from 'typeorm';
import type { AccountEntity } from '../../entities/identity';
import type { AppConfig } from '../config';
import type { HttpRequestFacts } from '../context';
import { quoteInput, UnauthenticatedError } from '../errors/app-error';
import { WORKFLOW_CODES } from '../services/workflow/error-codes';
import type { Viewer } from './viewer';

export const SIGV4_ALGORITHM = 'AWS4-HMAC-SHA256';
export const SIGNING_SERVICE = 'states';
/** How far X-Amz-Date may be from the server's clock. */
export const MAX_CLOCK_SKEW_MS = 15 * 60 * 1000;
export const SECRET_CACHE_TTL_MS = 60_000;
export const SECRET_CACHE_MAX = 1000;

export const SIGNATURE_MISMATCH_MESSAGE =
  'The request signature we calculated does not match the signature you provided. Check your AWS Secret Access Key and signing method. Consult the service documentation for details.';
export const UNRECOGNIZED_CLIENT_MESSAGE = 'The security token included in the request is invalid.';

/** Headers that, when a request carries them, its signature must cover (lower-case name, name as shown). */
const REQUIRED_SIGNED_HEADERS: ReadonlyArray<[string, string]> = [
  ['x-amz-date', 'X-Amz-Date'],
  ['x-amz-target', 'X-Amz-Target'],
  ['content-type', 'Content-Type'],
];

const fail = (domainCode: string, message: string) => new UnauthenticatedError(message, { domainCode });
const incomplete = (message: string) => fail(WORKFLOW_CODES.INCOMPLETE_SIGNATURE, message);
const invalidSignature = (message: string) => fail(WORKFLOW_CODES.INVALID_SIGNATURE, message);

export interface ParsedAuthorization {
  accessKeyId: string;
  /** yyyymmdd of the credential scope */
  scopeDate: string;
  region: string;
  service: string;
  terminator: string;
  /** Lower-case header names, as listed. */
  signedHeaders: string[];
  signature: string;
}

function header(headers: HttpRequestFacts['headers'], name: string): string | undefined {
  const v = headers[name];
  return Array.isArray(v) ? v.join(',') : v;
}

/** The parts of an `AWS4-HMAC-SHA256 Credential=…, SignedHeaders=…, Signature=…` header. */
export function parseAuthorizationHeader(value: string | undefined): ParsedAuthorization {
  if (value === undefined || value.trim() === '') throw fail(WORKFLOW_CODES.MISSING_AUTHENTICATION_TOKEN, 'Missing Authentication Token');
  const trimmed = value.trim();
  const space = trimmed.indexOf(' ');
  const algorithm = space < 0 ? trimmed : trimmed.slice(0, space);
  if (algorithm !== SIGV4_ALGORITHM) {
    // Never echoed: it may be a bearer token or another secret.
    throw incomplete(`Authorization header requires '${SIGV4_ALGORITHM}' signing (AWS Signature Version 4) with a workflow access key.`);
  }
  const params = new Map<string, string>();
  for (const part of trimmed.slice(space + 1).split(',')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    params.set(part.slice(0, eq).trim(), part.slice(eq + 1).trim());
  }
  const missing = ['Credential', 'Signature', 'SignedHeaders'].filter((p) => !params.get(p));
  if (missing.length) throw incomplete(missing.map((p) => `Authorization header requires '${p}' parameter.`).join(' '));
  const credential = params.get('Credential')!;
  const parts = credential.split('/');
  if (parts.length !== 5 || parts.some((p) => p === '')) {
    throw incomplete(`Credential must have exactly 5 slash-delimited elements, e.g. keyid/date/region/service/term, got ${quoteInput(credential)}`);
  }
  const signature = params.get('Signature')!;
  if (!/^[0-9a-f]{64}$/.test(signature)) throw invalidSignature(SIGNATURE_MISMATCH_MESSAGE);
  const signedHeaders = params.get('SignedHeaders')!.split(';');
  if (signedHeaders.some((h) => !/^[a-z0-9!#$%&'*+.^_`|~-]+$/.test(h)) || signedHeaders.length > 64) {
    throw incomplete('SignedHeaders must be a semicolon-separated list of lower-case header names.');
  }
  const [accessKeyId, scopeDate, region, service, terminator] = parts;
  return { accessKeyId, scopeDate, region, service, terminator, signedHeaders, signature };
}

/** yyyymmddThhmmssZ -> Date, or undefined. */
export function parseAmzDate(value: string | undefined): Date | undefined {
  const m = value === undefined ? null : /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(value);
  if (!m) return undefined;
  const d = new Date(Date.UTC(+m[1], +m[2] - 1, +m[3], +m[4], +m[5], +m[6]));
  return Number.isNaN(d.getTime()) || d.toISOString().slice(0, 19).replace(/[-:]/g, '') !== value!.slice(0, 15) ? undefined : d;
}

const amz = (d: Date) => d.toISOString().replace(/\.\d{3}Z$/, 'Z').replace(/[-:]/g, '');

/** The path of a target, percent-decoded segment by segment (the signer encodes it again, as clients did). */
function decodedPath(path: string): string {
  return path
    .split('/')
    .map((s) => {
      try {
        return decodeURIComponent(s);
      } catch {
        return s;
      }
    })
    .join('/');
}

function queryOf(search: string): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  if (!search) return out;
  for (const pair of search.split('&')) {
    if (pair === '') continue;
    const eq = pair.indexOf('=');
    const dec = (s: string) => {
      try {
        return decodeURIComponent(s.replace(/\+/g, '%20'));
      } catch {
        return s;
      }
    };
    const k = dec(eq < 0 ? pair : pair.slice(0, eq));
    const v = eq < 0 ? '' : dec(pair.slice(eq + 1));
    const prev = out[k];
    out[k] = prev === undefined ? v : Array.isArray(prev) ? [...prev, v] : [prev, v];
  }
  return out;
}

/**
 * One signer per key and scope, reused (it caches the derived signing key per day: four HMACs less per request).
 * Bounded; keyed by the secret too, so a rotated secret gets a new signer.
 */
const signers = new Map<string, SignatureV4>();
const MAX_SIGNERS = 1000;

function signerFor(auth: ParsedAuthorization, secretAccessKey: string): SignatureV4 {
  const key = `${auth.accessKeyId}\u0000${secretAccessKey}\u0000${auth.region}\u0000${auth.service}`;
  let signer = signers.get(key);
  if (!signer) {
    // Required on the first signed request, as is the client package below: a process that verifies no SigV4
    // request does not load them.
    const { SignatureV4: Signer } = require('@smithy/signature-v4') as typeof import('@smithy/signature-v4');
    signer = new Signer({
      credentials: { accessKeyId: auth.accessKeyId, secretAccessKey },
      region: auth.region,
      service: auth.service,
      // The client package's entry point loads the whole client (35 modules), for this one class.
      sha256: (require('@graphql-domain-gateway/workflow-client') as typeof WorkflowClient).NodeSha256,
      // Never add headers the client did not sign (x-amz-content-sha256).
      applyChecksum: false,
    });
    if (signers.size >= MAX_SIGNERS) signers.delete(signers.keys().next().value as string);
    signers.set(key, signer);
  }
  return signer;
}

/**
 * The signature of a request as the client should have computed it: method, target (path and query as sent),
 * exactly the headers it lists in SignedHeaders, the body bytes, signed at `date` for the parsed scope.
 * Throws InvalidSignatureException when a listed header is missing.
 */
export async function computeSignature(req: HttpRequestFacts, auth: ParsedAuthorization, secretAccessKey: string, date: Date): Promise<string> {
  const q = req.target.indexOf('?');
  const path = q < 0 ? req.target : req.target.slice(0, q);
  const headers: Record<string, string> = {};
  for (const name of auth.signedHeaders) {
    const v = header(req.headers, name);
    if (v === undefined) throw invalidSignature(SIGNATURE_MISMATCH_MESSAGE);
    headers[name] = v;
  }
  const signer = signerFor(auth, secretAccessKey);
  const signed = await signer.sign(
    {
      method: req.method,
      protocol: 'https:',
      hostname: headers.host ?? '',
      path: decodedPath(path),
      query: queryOf(q < 0 ? '' : req.target.slice(q + 1)),
      headers,
      body: req.rawBody ?? '',
    },
    { signingDate: date, signableHeaders: new Set(auth.signedHeaders) },
  );
  const m = /Signature=([0-9a-f]{64})/.exec(String(signed.headers.authorization ?? ''));
  return m ? m[1] : '';
}

export interface SigV4Options {
  region: string;
  service?: string;
  now?: Date;
  /** The secret and user of an active access key, or null. */
  lookup(accessKeyId: string): Promise<{ secret: string; user: AccountEntity } | null>;
}

/** Verify a request's SigV4 signature; the key's user, or an UnauthenticatedError with AWS' answer. */
export async function verifySigV4(req: HttpRequestFacts, opts: SigV4Options): Promise<{ accessKeyId: string; user: AccountEntity }> {
  const auth = parseAuthorizationHeader(header(req.headers, 'authorization'));
  const service = opts.service ?? SIGNING_SERVICE;
  if (auth.terminator !== 'aws4_request') throw invalidSignature(`Credential should be scoped with a valid terminator: 'aws4_request', not ${quoteInput(auth.terminator)}. `);
  if (auth.region !== opts.region) throw invalidSignature(`Credential should be scoped to a valid region, not ${quoteInput(auth.region)}. `);
  if (auth.service !== service) throw invalidSignature(`Credential should be scoped to correct service: '${service}'. `);
  if (!auth.signedHeaders.includes('host')) throw invalidSignature(`'Host' or ':authority' must be a 'SignedHeader' in the AWS Authorization.`);
  // A signature that leaves out the operation, the date or the body's media type could be replayed as another
  // operation (a signed Describe sent again as a Stop) or re-read as another body: the AWS SDKs and the AWS CLI
  // always sign them, so a request that carries them must have signed them.
  for (const [name, shown] of REQUIRED_SIGNED_HEADERS) {
    if (header(req.headers, name) !== undefined && !auth.signedHeaders.includes(name)) {
      throw invalidSignature(`'${shown}' must be a 'SignedHeader' in the AWS Authorization.`);
    }
  }
  if (auth.signedHeaders.includes('authorization')) throw invalidSignature(SIGNATURE_MISMATCH_MESSAGE);
  const rawDate = header(req.headers, 'x-amz-date');
  const date = parseAmzDate(rawDate);
  if (!date) throw incomplete("Authorization header requires existence of either a 'X-Amz-Date' or a 'Date' header.");
  if (auth.scopeDate !== rawDate!.slice(0, 8)) {
    throw invalidSignature(
      `Date in Credential scope does not match YYYYMMDD from ISO-8601 version of date from HTTP: ${quoteInput(auth.scopeDate)} != '${rawDate!.slice(0, 8)}', from '${rawDate}'.`,
    );
  }
  const now = opts.now ?? new Date();
  if (date.getTime() < now.getTime() - MAX_CLOCK_SKEW_MS) {
    throw invalidSignature(`Signature expired: ${rawDate} is now earlier than ${amz(new Date(now.getTime() - MAX_CLOCK_SKEW_MS))} (${amz(now)} - 15 min.)`);
  }
  if (date.getTime() > now.getTime() + MAX_CLOCK_SKEW_MS) {
    throw invalidSignature(`Signature not yet current: ${rawDate} is still later than ${amz(new Date(now.getTime() + MAX_CLOCK_SKEW_MS))} (${amz(now)} + 15 min.)`);
  }
  // The payload hash a client may send must be the body's (no UNSIGNED-PAYLOAD: the body is what we act on).
  const declared = header(req.headers, 'x-amz-content-sha256');
  if (declared !== undefined && declared !== createHash('sha256').update(req.rawBody ?? Buffer.alloc(0)).digest('hex')) {
    throw invalidSignature("The provided 'x-amz-content-sha256' header does not match what was computed.");
  }
  if (!/^[A-Za-z0-9]{1,128}$/.test(auth.accessKeyId)) throw fail(WORKFLOW_CODES.UNRECOGNIZED_CLIENT, UNRECOGNIZED_CLIENT_MESSAGE);
  const key = await opts.lookup(auth.accessKeyId);
  if (!key) throw fail(WORKFLOW_CODES.UNRECOGNIZED_CLIENT, UNRECOGNIZED_CLIENT_MESSAGE);
  const expected = Buffer.from(await computeSignature(req, auth, key.secret, date), 'utf8');
  const given = Buffer.from(auth.signature, 'utf8');
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) throw invalidSignature(SIGNATURE_MISMATCH_MESSAGE);
  return { accessKeyId: auth.accessKeyId, user: key.user };
}

interface CachedKey {
  value: { secret: string; user: AccountEntity } | null;
  until: number;
}

/** Decrypted access-key secrets, per database, for at most SECRET_CACHE_TTL_MS, at most SECRET_CACHE_MAX keys. */
const secretCaches = new WeakMap<DataSource, Map<string, CachedKey>>();

/** Forget every cached secret (tests; a key's deactivation otherwise takes effect within 60 s). */
export function clearAccessKeyCache(ds: DataSource): void {
  secretCaches.get(ds)?.clear();
}

export interface SigV4Deps {
  dataSource: DataSource;
  config: Pick<AppConfig, 'workflowRegion' | 'secretKey'>;
  services: { identity: { accessKeySecret(db: DataSource['manager'], accessKeyId: string, configuredKey?: string): Promise<{ secret: string; user: AccountEntity } | null> } };
}

async function cachedLookup(deps: SigV4Deps, accessKeyId: string): Promise<{ secret: string; user: AccountEntity } | null> {
  let cache = secretCaches.get(deps.dataSource);
  if (!cache) secretCaches.set(deps.dataSource, (cache = new Map()));
  const now = Date.now();
  const hit = cache.get(accessKeyId);
  if (hit && hit.until > now) return hit.value;
  const value = await deps.services.identity.accessKeySecret(deps.dataSource.manager, accessKeyId, deps.config.secretKey);
  // Unknown keys are remembered briefly too (5 s), so a flood of them does not reach the database each time.
  cache.delete(accessKeyId);
  cache.set(accessKeyId, { value, until: now + (value ? SECRET_CACHE_TTL_MS : 5_000) });
  while (cache.size > SECRET_CACHE_MAX) cache.delete(cache.keys().next().value as string);
  return value;
}

/**
 * Whether a request's Authorization header names an active access key: what can be known of a SigV4 request
 * before its body is read (the signature covers the body's hash, so it is verified once the body is in).
 */
export async function accessKeyIsLive(deps: SigV4Deps, authorization: string | undefined): Promise<boolean> {
  let auth: ParsedAuthorization;
  try {
    auth = parseAuthorizationHeader(authorization);
  } catch {
    return false;
  }
  if (!/^[A-Za-z0-9]{1,128}$/.test(auth.accessKeyId)) return false;
  return (await cachedLookup(deps, auth.accessKeyId)) !== null;
}

/** The viewer of a SigV4-signed request: the access key's user with an `access_key` credential. */
export async function authenticateSigV4(deps: SigV4Deps, req: HttpRequestFacts): Promise<Viewer> {
  const { accessKeyId, user } = await verifySigV4(req, { region: deps.config.workflowRegion, lookup: (id) => cachedLookup(deps, id) });
  return { kind: 'user', user, credential: { type: 'access_key', accessKeyId } };
}
