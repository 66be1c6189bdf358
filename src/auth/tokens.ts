/**
 * Token format, generation and hashing. Tokens are `gwc_` (classic) or `gwf_` (fine-grained) followed by
 * 40 base62 characters (~238 bits) and a 6-character CRC32 checksum, so a scanner can recognise them and a
 * typo is caught before any database look-up. Only the SHA-256 of a token is stored.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { TokenKind } from '../../entities/identity';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
export const TOKEN_PREFIX: Record<TokenKind, string> = { classic: 'gwc_', fine_grained: 'gwf_' };
const TOKEN_RE = /^(gwc|gwf)_([0-9A-Za-z]{40})([0-9A-Za-z]{6})$/;

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

function crc32(s: string): number {
  let c = ~0;
  for (let i = 0; i < s.length; i++) {
    c ^= s.charCodeAt(i);
    for (let k = 0; k < 8; k++) c = (c >>> 1) ^ (0xedb88320 & -(c & 1));
  }
  return ~c >>> 0;
}

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
  const m = TOKEN_RE.exec(token);
  if (!m) return false;
  return checksum(`${m[1]}_${m[2]}`) === m[3];
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
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
