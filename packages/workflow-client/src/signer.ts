/**
 * SigV4 signing for the workflow client, on `@smithy/signature-v4` (the AWS SDK's own signer; not hand-written)
 * with SHA-256 from node:crypto. `defaultSignatureProvider` answers for `v4` (and `anonymous`, which leaves
 * requests unsigned); the `signature_provider` option may return its own `Signer`.
 */
import { SignatureV4 } from '@smithy/signature-v4';
import { NodeSha256 } from './node-sha256';
import type { Credentials, SignatureProvider, Signer, WireRequest } from './types';

export const SIGNING_NAME = 'states';

export class SignatureV4Signer implements Signer {
  private readonly signers = new Map<string, SignatureV4>();
  constructor(
    readonly service: string,
    readonly region: string,
    private readonly options: { uriEscapePath?: boolean; applyChecksum?: boolean } = {},
  ) {}

  /** One smithy signer per key (it caches the derived signing key per day). */
  private signerFor(credentials: Credentials): SignatureV4 {
    const key = `${credentials.accessKeyId}\u0000${credentials.secretAccessKey}\u0000${credentials.sessionToken ?? ''}`;
    let signer = this.signers.get(key);
    if (!signer) {
      if (this.signers.size >= 16) this.signers.clear();
      signer = new SignatureV4({
        credentials: { accessKeyId: credentials.accessKeyId, secretAccessKey: credentials.secretAccessKey, sessionToken: credentials.sessionToken },
        region: this.region,
        service: this.service,
        sha256: NodeSha256,
        uriEscapePath: this.options.uriEscapePath ?? true,
        applyChecksum: this.options.applyChecksum ?? true,
      });
      this.signers.set(key, signer);
    }
    return signer;
  }

  async sign(request: WireRequest, credentials: Credentials | null, options: { signingTime?: Date } = {}): Promise<WireRequest> {
    if (credentials === null) return request;
    const signed = await this.signerFor(credentials).sign({ ...request, headers: { ...request.headers } }, { signingDate: options.signingTime ?? new Date() });
    return { ...request, headers: signed.headers as Record<string, string> };
  }
}

class AnonymousSigner implements Signer {
  async sign(request: WireRequest): Promise<WireRequest> {
    return request;
  }
}

/** PHP's SignatureProvider::defaultProvider: v4 (and v4-unsigned-body) and anonymous; anything else → null. */
export const defaultSignatureProvider: SignatureProvider = (version, service, region) => {
  switch (version) {
    case 'v4':
      return new SignatureV4Signer(service, region);
    case 'v4-unsigned-body':
      return new SignatureV4Signer(service, region, { applyChecksum: false });
    case 'anonymous':
      return new AnonymousSigner();
    default:
      return null;
  }
};
