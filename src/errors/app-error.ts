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
  | 'SERVICE_UNAVAILABLE';

/**
 * One field-level problem, in the spirit of GitHub's 422 `errors` entries. `field` is the DOMAIN's name of
 * the field (camelCase, as services and GraphQL spell it); a REST family renames it to its own parameter
 * name when it answers (GitHub: snake_case).
 */
export interface FieldError {
  resource?: string;
  field?: string;
  /** GitHub codes: missing, missing_field, invalid, already_exists, unprocessable, custom */
  code: string;
  message?: string;
}

export interface AppErrorOptions {
  /**
   * The domain's reason, e.g. RESOLUTION_UNCHANGED, INVALID_CURSOR, ASSIGNEE_LACKS_WRITE_ACCESS. Families map
   * it to their status and body (GitHub: 400 vs 422; WordPress: `rest_*` codes; AWS: `__type`). Defaults to the
   * category code (`NOT_FOUND`, `BAD_USER_INPUT`, ...).
   */
  domainCode?: string;
  fieldErrors?: FieldError[];
  /** The message and the field errors' messages name fields as `{{field}}` tokens (see the AppError constructor). */
  namesFields?: boolean;
  /**
   * With `namesFields`: the client input a message quotes, referred to as `{{0}}`, `{{1}}`, ... (already
   * quoted with quoteInput). Values are inserted as they are, never read as tokens.
   */
  values?: string[];
}

/**
 * The base of every error a service throws. It says WHAT went wrong (category `code` + `domainCode`, a
 * message for API users, field errors in the domain's names), never HOW a transport answers it: no HTTP
 * status here. The GraphQL mapper (src/graphql/errors.ts) and each REST family adapter
 * (src/rest/<family>/family.ts) decide that.
 */
const TOKEN = /\{\{([A-Za-z][A-Za-z0-9]*|[0-9])\}\}/g;

/**
 * A message template's `{{field}}` tokens, each replaced by `rename(field)`, and its `{{0}}`.. tokens by
 * `values` (in one pass: an inserted value is never read as a token).
 */
function renderTemplate(template: string, rename: (field: string) => string, values: readonly string[] = []): string {
  return template.replace(TOKEN, (m, name: string) => (/^[0-9]$/.test(name) ? (values[Number(name)] ?? m) : rename(name)));
}

const sameName = (field: string) => field;

export abstract class AppError extends Error {
  abstract readonly code: AppErrorCode;
  /** The domain's reason (see AppErrorOptions.domainCode); equals `code` when nothing more specific was given. */
  readonly domainCode: string;
  /** Field errors in the domain's names (their messages too): what GraphQL callers read. */
  readonly fieldErrors?: FieldError[];
  /** The message as written, when it names fields as `{{field}}` tokens (see messageFor). */
  private readonly template?: string;
  /** The field errors as written, when their messages name fields as tokens (see fieldErrorsFor). */
  private readonly fieldTemplates?: FieldError[];
  private readonly values: readonly string[];

  /**
   * With `namesFields`, `message` and the field errors' messages name fields as `{{domainFieldName}}` (e.g.
   * '{{secretTypes}} and {{excludeSecretTypes}} cannot be used together'): `message` and `fieldErrors` show the
   * domain's names (what GraphQL callers use), and a REST family renders its own parameter names with
   * `messageFor` / `fieldErrorsFor`. Client input such a message quotes goes in `values` (`{{0}}`, ...), never
   * in the template itself.
   */
  constructor(message: string, opts: AppErrorOptions = {}) {
    // Backstop: a message that quotes input without quoteInput still cannot flood a response or a log.
    const capped = truncate(message, MAX_MESSAGE_CHARS);
    const templated = opts.namesFields === true;
    const values = (opts.values ?? []).map((v) => truncate(v, MAX_MESSAGE_CHARS));
    super(templated ? truncate(renderTemplate(capped, sameName, values), MAX_MESSAGE_CHARS) : capped);
    if (templated) this.template = capped;
    this.values = values;
    this.name = new.target.name;
    this.domainCode = opts.domainCode ?? '';
    const fields = opts.fieldErrors?.map((f) => (f.message === undefined ? f : { ...f, message: truncate(f.message, MAX_MESSAGE_CHARS) }));
    if (templated) this.fieldTemplates = fields;
    this.fieldErrors = templated ? this.renderFields(sameName) : fields;
  }

  /** The message with field names as a transport spells them (`rename`: domain field -> transport name). */
  messageFor(rename: (field: string) => string): string {
    return this.template === undefined ? this.message : truncate(renderTemplate(this.template, rename, this.values), MAX_MESSAGE_CHARS);
  }

  /** The field errors with fields (and the field names their messages hold) as a transport spells them. */
  fieldErrorsFor(rename: (field: string) => string): FieldError[] | undefined {
    if (this.fieldTemplates) return this.renderFields(rename);
    return this.fieldErrors?.map((f) => (f.field === undefined ? f : { ...f, field: rename(f.field) }));
  }

  private renderFields(rename: (field: string) => string): FieldError[] | undefined {
    return this.fieldTemplates?.map((f) => ({
      ...f,
      ...(f.field !== undefined ? { field: rename(f.field) } : {}),
      ...(f.message !== undefined ? { message: truncate(renderTemplate(f.message, rename, this.values), MAX_MESSAGE_CHARS) } : {}),
    }));
  }

  /** True when the service named a reason more specific than the category. */
  get hasDomainCode(): boolean {
    return this.domainCode !== '' && this.domainCode !== this.code;
  }

  /** The domain code, or the category code when none more specific was given. */
  get reason(): string {
    return this.domainCode || this.code;
  }
}

export class NotFoundError extends AppError {
  readonly code = 'NOT_FOUND' as const;
  constructor(message = 'Not Found', opts?: AppErrorOptions) {
    super(message, opts);
  }
}

/** Bad input (GitHub answers it 422 "Validation Failed" unless the domain code says the request is malformed). */
export class ValidationError extends AppError {
  readonly code = 'BAD_USER_INPUT' as const;
}

export class ForbiddenError extends AppError {
  readonly code = 'FORBIDDEN' as const;
  constructor(message = 'Forbidden', opts?: AppErrorOptions) {
    super(message, opts);
  }
}

export class UnauthenticatedError extends AppError {
  readonly code = 'UNAUTHENTICATED' as const;
  constructor(message = 'Requires authentication', opts?: AppErrorOptions) {
    super(message, opts);
  }
}

export class ConflictError extends AppError {
  readonly code = 'CONFLICT' as const;
}

export class GoneError extends AppError {
  readonly code = 'GONE' as const;
}

export class RateLimitedError extends AppError {
  readonly code = 'RATE_LIMITED' as const;
  constructor(message = 'Rate limit exceeded', readonly retryAfterSeconds?: number) {
    super(message);
  }
}

export class UnavailableError extends AppError {
  readonly code = 'SERVICE_UNAVAILABLE' as const;
  constructor(message = 'Service unavailable', opts?: AppErrorOptions) {
    super(message, opts);
  }
}

export function isAppError(e: unknown): e is AppError {
  return e instanceof AppError;
}

/**
 * Errors of the database driver that mean "the database is not reachable" rather than a bug.
 * They become 503 / SERVICE_UNAVAILABLE instead of a generic 500. So do a pool that gives no connection within its
 * wait (pg-pool's "timeout exceeded when trying to connect") and a statement cut off by statement_timeout: overload.
 */
export function isDatabaseUnavailable(e: unknown): boolean {
  if (!e || typeof e !== 'object') return false;
  const err = e as { code?: string; message?: string; name?: string };
  const code = err.code ?? '';
  // 57014 query_canceled: a statement timeout, or a request's statement cancelled because its client went away.
  if (['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'ENOTFOUND', 'EPIPE', '57014', '57P01', '57P02', '57P03', '53300', '08006', '08001', '08003', '08004'].includes(code)) {
    return true;
  }
  if (isDatabaseBusy(e)) return true;
  const driverCode = (e as { driverError?: { code?: unknown } }).driverError?.code;
  if ([code, driverCode].some((c) => typeof c === 'string' && /^SQLITE_(CANTOPEN|IOERR)(_|$)/.test(c))) return true;
  const msg = err.message ?? '';
  return (
    /Connection terminated|connection is closed|The database connection is not open|Cannot use a pool after calling end|DataSource is not initialized|Client has encountered a connection error|Driver not Connected|terminating connection due to administrator command|timeout exceeded when trying to connect|canceling statement due to statement timeout/i.test(
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
