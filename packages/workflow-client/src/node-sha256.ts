/**
 * SHA-256 / HMAC-SHA256 from node:crypto (OpenSSL) in the Checksum shape @smithy/signature-v4 expects. The
 * pure-JavaScript @aws-crypto/sha256-js was a visible share of every signed request's CPU. Used by the client's
 * signer and by the gateway's SigV4 verification.
 */
import { createHash, createHmac, Hash, Hmac } from 'node:crypto';

const bytes = (data: string | ArrayBuffer | ArrayBufferView): string | Buffer =>
  typeof data === 'string' ? data : ArrayBuffer.isView(data) ? Buffer.from(data.buffer, data.byteOffset, data.byteLength) : Buffer.from(data);

export class NodeSha256 {
  private h: Hash | Hmac;
  constructor(private readonly secret?: string | ArrayBuffer | ArrayBufferView) {
    this.h = this.fresh();
  }
  private fresh(): Hash | Hmac {
    return this.secret === undefined ? createHash('sha256') : createHmac('sha256', bytes(this.secret));
  }
  update(data: string | ArrayBuffer | ArrayBufferView): void {
    this.h.update(bytes(data));
  }
  async digest(): Promise<Uint8Array> {
    return new Uint8Array(this.h.digest());
  }
  reset(): void {
    this.h = this.fresh();
  }
}
