/**
 * Request signing for families that authenticate by signature rather than a bearer token (AWS JSON: SigV4).
 * The fuzz test signs each case of such a family with the credential's access key, over the request exactly as
 * it will be sent (target, headers, body bytes), so valid cases reach the services; a bad credential signs with
 * a wrong secret.
 */
import { computeSignature, SIGV4_ALGORITHM } from '../../../src/auth/sigv4';
import type { WireRequest } from './http';

export interface SigningKey {
  accessKeyId: string;
  secretAccessKey: string;
}

/** Headers to add to `req` (sent to `host`, as node sets it) so that it carries a valid SigV4 signature. */
export async function sigV4Headers(req: WireRequest, key: SigningKey, host: string, region = 'us-east-1', now = new Date()): Promise<Record<string, string>> {
  const amzDate = now.toISOString().replace(/\.\d{3}Z$/, 'Z').replace(/[-:]/g, '');
  const headers: Record<string, string> = { ...lower(req.headers), host: req.headers.host ?? host, 'x-amz-date': amzDate };
  const signed = ['host', 'x-amz-date', ...['content-type', 'x-amz-target'].filter((h) => headers[h] !== undefined)].sort();
  const auth = { accessKeyId: key.accessKeyId, scopeDate: amzDate.slice(0, 8), region, service: 'states', terminator: 'aws4_request', signedHeaders: signed, signature: '' };
  // A target the server cannot parse as origin-form is still signed as given (the server then refuses it).
  const target = req.target.startsWith('/') ? req.target : '/';
  const signature = await computeSignature(
    { method: req.method, target, headers, rawBody: req.body === undefined ? undefined : Buffer.from(req.body, 'utf8') },
    auth,
    key.secretAccessKey,
    now,
  );
  return {
    'x-amz-date': amzDate,
    authorization: `${SIGV4_ALGORITHM} Credential=${key.accessKeyId}/${amzDate.slice(0, 8)}/${region}/states/aws4_request, SignedHeaders=${signed.join(';')}, Signature=${signature}`,
  };
}

function lower(h: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(h).map(([k, v]) => [k.toLowerCase(), v]));
}
