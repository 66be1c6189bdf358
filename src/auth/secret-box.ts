/**
 * AES-256-GCM encryption for secrets the server must be able to use again (SigV4 secret keys).
 * The key comes from GATEWAY_SECRET_KEY, or else from a random key generated once and kept in
 * server_settings (shared by every instance on the same database).
 */
import { createCipheriv, createDecipheriv, createHash, createHmac, randomBytes } from 'node:crypto';

export class SecretBox {
  private readonly key: Buffer;

  constructor(keyMaterial: string) {
    this.key = createHash('sha256').update(keyMaterial, 'utf8').digest();
  }

  /** A key for one purpose (e.g. signing paging tokens), derived from the server key: HMAC-SHA256(key, purpose). */
  derive(purpose: string): Buffer {
    return createHmac('sha256', this.key).update(purpose, 'utf8').digest();
  }

  seal(plain: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const ct = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return Buffer.concat([iv, cipher.getAuthTag(), ct]).toString('base64');
  }

  open(sealed: string): string {
    const buf = Buffer.from(sealed, 'base64');
    const iv = buf.subarray(0, 12);
    const tag = buf.subarray(12, 28);
    const decipher = createDecipheriv('aes-256-gcm', this.key, iv);
    decipher.setAuthTag(tag);
    return Buffer.concat([decipher.update(buf.subarray(28)), decipher.final()]).toString('utf8');
  }
}
