/**
 * Paging tokens of the workflow operations (nextToken): opaque to clients, HMAC-SHA256-signed with a key derived
 * from the server key (GATEWAY_SECRET_KEY or the generated one), bound to the operation and to its filter (a
 * token of ListExecutions for one definition and status is refused by another), and valid for 24 hours, as Step
 * Functions' tokens are. Anything else is InvalidToken, before any SQL.
 *
 *   token = base64url(JSON [operation, filterDigest, issuedAtMs, position]) "." base64url(hmac)
 */
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { DataSource } from 'typeorm';
import type { RequestContext } from '../../context';
import { rootDataSource } from '../../db/request-cancel';
import { ValidationError } from '../../errors/app-error';
import type { IdentityService } from '../identity/identity.service';
import { WORKFLOW_CODES } from './error-codes';

export const TOKEN_TTL_MS = 24 * 60 * 60 * 1000;
/** Step Functions' nextToken members are at most 1024 characters. */
export const MAX_TOKEN_LENGTH = 1024;

export type TokenPosition = Array<string | number>;

/** The token-signing key of this server, from the identity service's secret box (given by the workflow module). */
export class PageTokenKeys {
  /** Per DataSource: the server key never changes while it runs. */
  private readonly keys = new WeakMap<DataSource, Buffer>();

  constructor(private readonly identity: IdentityService) {}

  async of(ctx: RequestContext): Promise<Buffer> {
    const known = this.keys.get(rootDataSource(ctx.dataSource));
    if (known) return known;
    const box = await this.identity.secretBox(ctx.dataSource.manager, ctx.config.secretKey);
    const key = box.derive('workflow-page-token/v1');
    this.keys.set(rootDataSource(ctx.dataSource), key);
    return key;
  }
}

function digest(filter: unknown): string {
  return createHash('sha256').update(JSON.stringify(filter ?? null)).digest('base64url').slice(0, 16);
}

function mac(key: Buffer, payload: string): Buffer {
  return createHmac('sha256', key).update(payload).digest();
}

export function encodePageToken(key: Buffer, operation: string, filter: unknown, position: TokenPosition, now = Date.now()): string {
  const payload = Buffer.from(JSON.stringify([operation, digest(filter), now, position]), 'utf8').toString('base64url');
  return `${payload}.${mac(key, payload).toString('base64url')}`;
}

function invalid(message = "Invalid Token: 'nextToken' is not a token of this request"): ValidationError {
  return new ValidationError(message, { domainCode: WORKFLOW_CODES.INVALID_TOKEN });
}

/**
 * The position a token holds, after checking its signature, operation, filter and age. `shape` checks the
 * position's types (what the caller will bind in SQL).
 */
export function decodePageToken<P extends TokenPosition>(
  key: Buffer,
  token: string,
  operation: string,
  filter: unknown,
  shape: (p: unknown[]) => p is P,
  now = Date.now(),
): P {
  if (token.length > MAX_TOKEN_LENGTH) throw invalid();
  const m = /^([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]{43})$/.exec(token);
  if (!m) throw invalid();
  const expected = mac(key, m[1]);
  const given = Buffer.from(m[2], 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw invalid();
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(m[1], 'base64url').toString('utf8'));
  } catch {
    throw invalid();
  }
  if (!Array.isArray(parsed) || parsed.length !== 4) throw invalid();
  const [op, f, issued, position] = parsed as unknown[];
  if (op !== operation || f !== digest(filter)) throw invalid();
  if (typeof issued !== 'number' || !Number.isFinite(issued)) throw invalid();
  if (now - issued > TOKEN_TTL_MS) throw invalid("Invalid Token: 'nextToken' has expired (tokens are valid for 24 hours)");
  if (!Array.isArray(position) || !shape(position)) throw invalid();
  return position;
}
