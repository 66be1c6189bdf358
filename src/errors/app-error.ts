import { MAX_MESSAGE_CHARS, MAX_QUOTED_CHARS, truncate } from './message-cap';

/**
 * Client input quoted in an error message: its first MAX_QUOTED_CHARS (100) characters + "…" when longer,
 * between `quote`s. Every message that quotes what a client sent goes through this, so a 9 MB login is
 * never echoed back (the AppError constructor caps whole messages as a backstop).
 */
export function quoteInput(value: unknown, quote = "'"): string {
  const s = String(value);
  if (s.length <= MAX_QUOTED_CHARS) return `${quote}${s}${quote}`;
  let head = s.slice(0, MAX_QUOTED_CHARS);
  const last = head.charCodeAt(head.length - 1);
  if (last >= 0xd800 && last <= 0xdbff) head = head.slice(0, -1); // never half a surrogate pair
  return `${quote}${head}…${quote}`;
}

/**
 * The one error tree. Services throw only these; the GraphQL mapper and each REST family's mapper
 * turn them into that transport's shape. Messages are written for API users: no internals, no secrets.
 */
export type AppErrorCode =
  | 'NOT_FOUND'
  | 'BAD_USER_INPUT'
  | 'FORBIDDEN'
  | 'UNAUTHENTICATED'
  | 'CONFLICT'
  | 'GONE'
  | 'RATE_LIMITED'
  | 'SERVICE_UNAVAILABLE'
  | 'NOT_MODIFIED';

/** One field-level problem, in the spirit of GitHub's 422 `errors` entries. */
export interface FieldError {
  resource?: string;
  field?: string;
  /** GitHub codes: missing, missing_field, invalid, already_exists, unprocessable, custom */
  code: string;
  message?: string;
}

export abstract class AppError extends Error {
  abstract readonly code: AppErrorCode;
  /** Default HTTP status; a REST family may refine it via `httpStatus`. */
  abstract readonly httpStatus: number;
  /** A family-specific machine code (e.g. WordPress `rest_post_invalid_id`, AWS `InvalidArn`). */
  readonly detailCode?: string;
  readonly fieldErrors?: FieldError[];

  constructor(message: string, opts: { detailCode?: string; fieldErrors?: FieldError[]; status?: number } = {}) {
    // Backstop: a message that quotes input without quoteInput still cannot flood a response or a log.
    super(truncate(message, MAX_MESSAGE_CHARS));
    this.name = new.target.name;
    this.detailCode = opts.detailCode;
    this.fieldErrors = opts.fieldErrors?.map((f) => (f.message === undefined ? f : { ...f, message: truncate(f.message, MAX_MESSAGE_CHARS) }));
    if (opts.status !== undefined) (this as { statusOverride?: number }).statusOverride = opts.status;
  }

  /** The HTTP status, honouring a per-instance override (e.g. GitHub's 400 vs 422 validation split). */
  get status(): number {
    return (this as { statusOverride?: number }).statusOverride ?? this.httpStatus;
  }
}

export class NotFoundError extends AppError {
  readonly code = 'NOT_FOUND' as const;
  readonly httpStatus = 404;
  constructor(message = 'Not Found', opts?: { detailCode?: string }) {
    super(message, opts);
  }
}

/** Bad input. Defaults to 422 (GitHub's "Validation Failed"); pass status 400 for malformed requests. */
export class ValidationError extends AppError {
  readonly code = 'BAD_USER_INPUT' as const;
  readonly httpStatus = 422;
}

export class ForbiddenError extends AppError {
  readonly code = 'FORBIDDEN' as const;
  readonly httpStatus = 403;
  constructor(message = 'Forbidden', opts?: { detailCode?: string }) {
    super(message, opts);
  }
}

export class UnauthenticatedError extends AppError {
  readonly code = 'UNAUTHENTICATED' as const;
  readonly httpStatus = 401;
  constructor(message = 'Requires authentication', opts?: { detailCode?: string }) {
    super(message, opts);
  }
}

export class ConflictError extends AppError {
  readonly code = 'CONFLICT' as const;
  readonly httpStatus = 409;
}

export class GoneError extends AppError {
  readonly code = 'GONE' as const;
  readonly httpStatus = 410;
}

export class RateLimitedError extends AppError {
  readonly code = 'RATE_LIMITED' as const;
  readonly httpStatus = 429;
  constructor(message = 'Rate limit exceeded', readonly retryAfterSeconds?: number) {
    super(message);
  }
}

export class UnavailableError extends AppError {
  readonly code = 'SERVICE_UNAVAILABLE' as const;
  readonly httpStatus = 503;
  constructor(message = 'Service unavailable', opts?: { detailCode?: string }) {
    super(message, opts);
  }
}

export function isAppError(e: unknown): e is AppError {
  return e instanceof AppError;
}

/**
 * Errors of the database driver that mean "the database is not reachable" rather than a bug.
 * They become 503 / SERVICE_UNAVAILABLE instead of a generic 500.
 */
export function isDatabaseUnavailable(e: unknown): boolean {
  if (!e || typeof e !== 'object') return false;
  const err = e as { code?: string; message?: string; name?: string };
  const code = err.code ?? '';
  if (['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'ENOTFOUND', 'EPIPE', '57P01', '57P02', '57P03', '53300', '08006', '08001', '08003', '08004'].includes(code)) {
    return true;
  }
  if (isDatabaseBusy(e)) return true;
  const driverCode = (e as { driverError?: { code?: unknown } }).driverError?.code;
  if ([code, driverCode].some((c) => typeof c === 'string' && /^SQLITE_(CANTOPEN|IOERR)(_|$)/.test(c))) return true;
  const msg = err.message ?? '';
  return (
    /Connection terminated|connection is closed|The database connection is not open|Cannot use a pool after calling end|DataSource is not initialized|Client has encountered a connection error|Driver not Connected|terminating connection due to administrator command/i.test(
      msg,
    ) || err.name === 'CannotExecuteNotConnectedError'
  );
}

/**
 * The database is busy (another writer holds the lock) rather than broken: every SQLite SQLITE_BUSY* /
 * SQLITE_LOCKED* code (extended ones like SQLITE_BUSY_SNAPSHOT included), PostgreSQL serialization failure,
 * deadlock and lock timeout; also when wrapped in TypeORM's QueryFailedError (`driverError`).
 * A transaction failing so is worth retrying (src/db/transaction.ts).
 */
export function isDatabaseBusy(e: unknown): boolean {
  if (!e || typeof e !== 'object') return false;
  const err = e as { code?: unknown; driverError?: { code?: unknown } };
  for (const code of [err.code, err.driverError?.code]) {
    if (typeof code !== 'string') continue;
    if (/^SQLITE_(BUSY|LOCKED)(_|$)/.test(code)) return true;
    if (code === '40001' || code === '40P01' || code === '55P03') return true;
  }
  return false;
}

/** A unique-index violation: two writers raced to create the same thing. */
export function isUniqueViolation(e: unknown): boolean {
  const err = (e ?? {}) as { code?: string; driverError?: { code?: string } };
  const code = err.code ?? err.driverError?.code ?? '';
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}

/** Normalise anything thrown into an AppError, or undefined when it is an unexpected bug. */
export function toAppError(e: unknown): AppError | undefined {
  if (isAppError(e)) return e;
  const cause = (e as { originalError?: unknown })?.originalError;
  if (isAppError(cause)) return cause;
  if (isUniqueViolation(e) || isUniqueViolation(cause)) {
    return new ConflictError('The resource already exists (it was created concurrently).');
  }
  if (isDatabaseUnavailable(e) || isDatabaseUnavailable(cause)) {
    return new UnavailableError('Service unavailable: the database cannot be reached. Try again shortly.');
  }
  return undefined;
}
