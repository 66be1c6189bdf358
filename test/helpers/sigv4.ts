/**
 * Signing raw AWS JSON requests the way the AWS SDKs do (@smithy/signature-v4), for tests that need more control
 * than @aws-sdk/client-sfn gives (a stale date, a tampered body, an odd target, malformed JSON).
 */
import { Sha256 } from '@aws-crypto/sha256-js';
import { SignatureV4 } from '@smithy/signature-v4';

export interface AccessKey {
  accessKeyId: string;
  secretAccessKey: string;
}

export interface SignedCallOptions {
  key: AccessKey;
  /** X-Amz-Target; omitted when undefined. */
  target?: string;
  body?: string;
  path?: string;
  region?: string;
  service?: string;
  signingDate?: Date;
  contentType?: string;
  /** Headers added after signing (not covered by the signature). */
  extraHeaders?: Record<string, string>;
  /** Headers sent but left out of SignedHeaders (a client that signs less than the AWS SDKs do). */
  unsigned?: string[];
}

/** Signed headers for a POST to `url` + path. */
export async function signedHeaders(baseUrl: string, o: SignedCallOptions): Promise<Record<string, string>> {
  const u = new URL(baseUrl + (o.path ?? '/workflow'));
  const signer = new SignatureV4({
    credentials: o.key,
    region: o.region ?? 'us-east-1',
    service: o.service ?? 'states',
    sha256: Sha256,
  });
  const req = await signer.sign(
    {
      method: 'POST',
      protocol: u.protocol,
      hostname: u.hostname,
      port: Number(u.port),
      path: u.pathname,
      query: {},
      headers: {
        host: u.host,
        'content-type': o.contentType ?? 'application/x-amz-json-1.0',
        ...(o.target !== undefined ? { 'x-amz-target': o.target } : {}),
      },
      body: o.body ?? '{}',
    },
    { signingDate: o.signingDate ?? new Date(), unsignableHeaders: new Set(o.unsigned ?? []) },
  );
  return { ...(req.headers as Record<string, string>), ...(o.extraHeaders ?? {}) };
}

/** POST a signed AWS JSON request; status, headers and parsed body. */
export async function signedCall(baseUrl: string, o: SignedCallOptions): Promise<{ status: number; headers: Headers; body: any }> {
  const headers = await signedHeaders(baseUrl, o);
  delete headers.host;
  const res = await fetch(baseUrl + (o.path ?? '/workflow'), { method: 'POST', headers, body: o.body ?? '{}' });
  const text = await res.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    /* not JSON */
  }
  return { status: res.status, headers: res.headers, body };
}
