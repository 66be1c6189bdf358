/**
 * Token format, generation and hashing. Tokens are `gwc_` (classic) or `gwf_` (fine-grained) followed by
 * 40 base62 characters (~238 bits) and a 6-character CRC32 checksum, so a scanner can recognise them and a
 * typo is caught before any database look-up. Only the SHA-256 of a token is stored.
 */
import { hash, randomBytes } from 'node:crypto';
import { crc32 } from 'node:zlib';
import type { TokenKind } from '../../entities/identity';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
export const TOKEN_PREFIX: Record<TokenKind, string> = { classic: 'gwc_', fine_grained: 'gwf_' };
const TOKEN_RE = /^(?:gwc|gwf)_[0-9A-Za-z]{46}$/;
/** `gwc_`/`gwf_` and the 40 random characters: what the checksum covers. */
const TOKEN_BODY_LENGTH = 44;

function base62(bytes: Buffer, length: number): string {
  let out = '';
  // rejection sampling keeps the distribution uniform
  let i = 0;
  while (out.length < length) {
    if (i >= bytes.length) {
      bytes = randomBytes(length * 2);
      i = 0;
    }
    const b = bytes[i++];
    if (b < 248) out += ALPHABET[b % 62];
  }
  return out;
}

/** Six base62 digits of the body's CRC-32 (IEEE; token bodies are ASCII, so their UTF-8 bytes are their characters). */
function checksum(body: string): string {
  let n = crc32(body);
  let out = '';
  for (let i = 0; i < 6; i++) {
    out = ALPHABET[n % 62] + out;
    n = Math.floor(n / 62);
  }
  return out;
}

export function generateToken(kind: TokenKind): string {
  const prefix = TOKEN_PREFIX[kind];
  const body = base62(randomBytes(64), 40);
  return `${prefix}${body}${checksum(prefix + body)}`;
}

/** true when the string has the shape and checksum of one of our tokens. */
export function isWellFormedToken(token: string): boolean {
  if (!TOKEN_RE.test(token)) return false;
  // The shape is fixed: prefix and body (TOKEN_BODY_LENGTH characters), then the checksum of both.
  return checksum(token.slice(0, TOKEN_BODY_LENGTH)) === token.slice(TOKEN_BODY_LENGTH);
}

export function hashToken(token: string): string {
  // The one-shot form: the same digest as createHash(...).update(token, 'utf8').digest('hex'), without a Hash object.
  return hash('sha256', token, 'hex');
}

/** What may be shown of a token later: its prefix and first 4 characters. */
export function tokenHint(token: string): string {
  return token.slice(0, 8);
}

/** Random URL-safe identifier for other purposes (request ids, placeholders). */
export function randomId(bytes = 16): string {
  return randomBytes(bytes).toString('base64url');
}

/** AWS-style access key pair: 20-char id (AKIA + 16 base32 upper) and a 40-char secret. */
export function generateAccessKeyPair(): { accessKeyId: string; secretAccessKey: string } {
  const upper = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  const idBytes = randomBytes(16);
  let id = 'AKIA';
  for (let i = 0; i < 16; i++) id += upper[idBytes[i] % 32];
  const secret = randomBytes(30).toString('base64').replace(/\+/g, 'A').replace(/\//g, 'B');
  return { accessKeyId: id, secretAccessKey: secret };
}
