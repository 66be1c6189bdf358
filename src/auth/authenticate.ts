/**
 * Authorization header -> Viewer. Accepts `Bearer <token>` (the documented form), `token <token>`
 * (what Octokit and other GitHub clients send) and WordPress application passwords,
 * `Basic base64(<login>:<token>)` (what generic WordPress REST clients send): the login of a User account and
 * one of that user's live tokens. No header -> anonymous; a header that does not name a live token ->
 * UnauthenticatedError (401 "Bad credentials" in every family's style; a Basic pair also carries the domain code
 * AUTH_CODES.UNKNOWN_LOGIN or AUTH_CODES.WRONG_PASSWORD, which the WordPress family answers as WordPress does).
 * Neither the token nor the password ever appears in an error message.
 */
import type { DataSource } from 'typeorm';
import { AccessTokenEntity, AccountEntity } from '../../entities/identity';
import { EntityColumns, entityColumns, queryRows } from '../db/rows';
import { rootDataSource } from '../db/request-cancel';
import { UnauthenticatedError } from '../errors/app-error';
import { AUTH_CODES } from '../errors/codes';
import { hashToken, isWellFormedToken } from './tokens';
import { ANONYMOUS, Credential, Viewer } from './viewer';

export const BAD_CREDENTIALS = 'Bad credentials';

export function parseAuthorization(header: string | undefined): { scheme: string; value: string } | null {
  if (header === undefined) return null;
  const trimmed = header.trim();
  if (trimmed === '') return null;
  const space = trimmed.indexOf(' ');
  if (space < 0) return { scheme: '', value: trimmed };
  return { scheme: trimmed.slice(0, space).toLowerCase(), value: trimmed.slice(space + 1).trim() };
}

export async function authenticateBearer(db: DataSource, header: string | undefined): Promise<Viewer> {
  const parsed = parseAuthorization(header);
  if (!parsed) return ANONYMOUS;
  if (parsed.scheme === 'basic') return authenticateBasic(db, parsed.value);
  if (parsed.scheme !== 'bearer' && parsed.scheme !== 'token') {
    throw new UnauthenticatedError(BAD_CREDENTIALS);
  }
  const token = parsed.value;
  if (!isWellFormedToken(token)) throw new UnauthenticatedError(BAD_CREDENTIALS);
  const viewer = await viewerOfToken(db, token);
  if (!viewer) throw new UnauthenticatedError(BAD_CREDENTIALS);
  return viewer;
}

/** `user:password` from a Basic credential (RFC 7617: the user id ends at the first colon); null if malformed. */
export function decodeBasic(value: string): { login: string; password: string } | null {
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(value) || value.length % 4 === 1) return null;
  const text = Buffer.from(value, 'base64').toString('utf8');
  const colon = text.indexOf(':');
  if (colon <= 0) return null;
  return { login: text.slice(0, colon), password: text.slice(colon + 1) };
}

/**
 * WordPress application passwords: `Basic base64(login:token)`. The login names a User account (case-insensitive,
 * as logins are unique case-insensitively); the password must be one of that user's live tokens (the same checks
 * as Bearer: not revoked, not expired). Unknown login -> UNKNOWN_LOGIN, anything else wrong -> WRONG_PASSWORD.
 */
async function authenticateBasic(db: DataSource, value: string): Promise<Viewer> {
  const pair = decodeBasic(value);
  if (!pair) throw new UnauthenticatedError(BAD_CREDENTIALS);
  const { login, password } = pair;
  const unknownLogin = () => new UnauthenticatedError(BAD_CREDENTIALS, { domainCode: AUTH_CODES.UNKNOWN_LOGIN });
  const wrongPassword = () => new UnauthenticatedError(BAD_CREDENTIALS, { domainCode: AUTH_CODES.WRONG_PASSWORD });
  // Logins are at most 39 characters: a longer one names nobody (and is never sent to the database).
  if (login.length > 39) throw unknownLogin();
  const [user] = await queryRows<{ id: number }>(
    db.manager,
    `SELECT id FROM accounts WHERE login_lower = ? AND type = 'User'`,
    [login.toLowerCase()],
  );
  if (!user) throw unknownLogin();
  if (!isWellFormedToken(password)) throw wrongPassword();
  const viewer = await viewerOfToken(db, password);
  // Another user's token is no password of this one.
  if (!viewer || viewer.kind !== 'user' || Number(viewer.user.id) !== Number(user.id)) throw wrongPassword();
  return viewer;
}

/** The token's columns a credential is made of (`credentialOfToken`): the rest of its row is never read. */
const CREDENTIAL_COLUMNS = Object.freeze(['kind', 'scopes', 'permissions', 'repositoryIds', 'expiresAt'] as const);

interface TokenRead {
  text: string;
  t: EntityColumns<AccessTokenEntity>;
  u: EntityColumns<AccountEntity>;
}

/** The token check's statement per DataSource, built once: a text built per request was hashed again per request. */
const tokenReads = new WeakMap<DataSource, TokenRead>();

function tokenRead(db: DataSource): TokenRead {
  // A request's view of the DataSource (src/db/request-cancel.ts) reads with its DataSource's statement.
  const root = rootDataSource(db);
  let read = tokenReads.get(root);
  if (read) return read;
  const t = entityColumns(db, AccessTokenEntity, 't', 't_', CREDENTIAL_COLUMNS);
  const u = entityColumns(db, AccountEntity, 'u', 'u_');
  // One statement: the live token and its user (a token whose user is gone or not a User is no credential), both
  // rows as one JSON value each: better-sqlite3 makes a JS value per result column and pg runs a parser per column.
  // On SQLite the user comes from a scalar subquery: better-sqlite3 reads the 1-row JOIN form several times slower.
  const text =
    db.options.type !== 'postgres'
      ? `SELECT ${t.jsonRow} AS t_row, (SELECT ${u.jsonRow} FROM accounts u WHERE u.id = t.user_id AND u.type = 'User') AS u_row` +
        ` FROM access_tokens t WHERE t.token_hash = ? AND t.revoked_at IS NULL`
      : `SELECT ${t.jsonRow} AS t_row, ${u.jsonRow} AS u_row FROM access_tokens t JOIN accounts u ON u.id = t.user_id AND u.type = 'User'` +
        ` WHERE t.token_hash = ? AND t.revoked_at IS NULL`;
  tokenReads.set(root, (read = { text, t, u }));
  return read;
}

/** The viewer a live token stands for, or null (unknown, revoked or expired token, or its user is gone). */
async function viewerOfToken(db: DataSource, token: string): Promise<Viewer | null> {
  const { text, t, u } = tokenRead(db);
  const [found] = await queryRows<{ t_row: unknown; u_row: unknown }>(db.manager, text, [hashToken(token)]);
  const row = found ? t.hydrateJsonArray(found.t_row) : null;
  const user = found ? u.hydrateJsonArray(found.u_row) : null;
  if (!row || !user) return null;
  const credential = credentialOfToken(row);
  return credential ? { kind: 'user', user, credential } : null;
}

/** The credential a token row grants, or null when it has expired (revocation is the caller's query). */
export function credentialOfToken(row: Pick<AccessTokenEntity, 'id' | 'kind' | 'scopes' | 'permissions' | 'repositoryIds' | 'expiresAt'>): Credential | null {
  if (row.expiresAt && row.expiresAt.getTime() <= Date.now()) return null;
  if (row.kind === 'classic') return { type: 'classic', tokenId: row.id, scopes: new Set(row.scopes ?? []) };
  return { type: 'fine_grained', tokenId: row.id, permissions: row.permissions ?? {}, repositoryIds: new Set(row.repositoryIds ?? []) };
}
