/**
 * The workflow client's shared contracts (spec 002; semantics from ../shared/reference/workflow-client.md, which
 * follows aws-sdk-php's AwsClient). Every part of the client (options resolver, handler list, serializer, retries,
 * signing, credentials, debug/stats/csm) speaks these types, so each can be built and tested on its own.
 *
 * Request flow (reference §2): `client.execute(command)` → `command.getHandlerList().resolve()(command)`, i.e. the
 * middleware of the steps init → validate → build → sign → attempt, then the terminal handler. `build` turns the
 * command into a `WireRequest` (JSON 1.0 serializer), `sign` holds `retry` then `signer` (so every attempt is
 * re-signed), `attempt` runs once per HTTP attempt, and the terminal handler calls the HTTP handler and parses the
 * answer into a `Result` or rejects with a `WorkflowServiceException`.
 */

/** The HTTP request a command becomes (the shape @smithy/signature-v4 signs). */
export interface WireRequest {
  method: string;
  protocol: 'http:' | 'https:';
  hostname: string;
  port?: number;
  /** Path as sent, already escaped. */
  path: string;
  query: Record<string, string | string[] | null>;
  /** Header names as given; lookups are case-insensitive (use `headerValue`). */
  headers: Record<string, string>;
  body: string;
}

export interface WireResponse {
  statusCode: number;
  /** Lower-case names. */
  headers: Record<string, string>;
  body: string;
}

/** Per-request HTTP options: the client's `http` option merged under the command's `@http` (command keys win). */
export interface HttpOptions {
  /** Milliseconds to wait before sending (retries and waiters set it). */
  delay?: number;
  /** Overall request timeout in seconds (0 = none). */
  timeout?: number;
  /** Connect timeout in seconds (0 = none). */
  connect_timeout?: number;
  /** Called with the adapter's transfer statistics when `stats.http` is on. */
  http_stats_receiver?: (stats: Record<string, unknown>) => void;
  /** Cancels the request (and its retries); the command rejects with a connection error and is not retried. */
  signal?: AbortSignal;
  [key: string]: unknown;
}

/** `http_handler`: sends one request. Rejects with a `ConnectionError`-like error on network failure. */
export type HttpHandler = (request: WireRequest, options: HttpOptions) => Promise<WireResponse>;

export interface ResultMetadata {
  statusCode?: number;
  effectiveUri?: string;
  headers: Record<string, string>;
  transferStats: Record<string, unknown>;
  /** Filled by the retry middleware when stats.retries is on (reference §1). */
  [key: string]: unknown;
}

/** An operation's output members plus `@metadata`. */
export type Result = Record<string, unknown> & { '@metadata': ResultMetadata };

/**
 * A terminal handler or a handler wrapped in middleware. `request` is undefined before the build step.
 */
export type Handler = (command: CommandLike, request?: WireRequest) => Promise<Result>;
/** PHP's `fn(callable $next) => fn(Command, ?Request): Promise`. */
export type Middleware = (next: Handler) => Handler;

export type HandlerStep = 'init' | 'validate' | 'build' | 'sign' | 'attempt';

/** What middleware may read and write on a command (the full class lives in command.ts). */
export interface CommandLike {
  readonly name: string;
  /** Operation input plus the reserved keys `@http`, `@retries`, `@context`, `@waiter`. */
  args: Record<string, unknown>;
}

/** The credentials a request is signed with (`key`/`secret`/`token` in the spec's array form). */
export class Credentials {
  constructor(
    readonly accessKeyId: string,
    readonly secretAccessKey: string,
    readonly sessionToken?: string,
    /** Epoch seconds, or undefined for credentials that never expire. */
    readonly expires?: number,
    readonly accountId?: string,
  ) {}
  getAccessKeyId(): string {
    return this.accessKeyId;
  }
  getSecretKey(): string {
    return this.secretAccessKey;
  }
  getSecurityToken(): string | undefined {
    return this.sessionToken;
  }
  getExpiration(): number | undefined {
    return this.expires;
  }
  getAccountId(): string | undefined {
    return this.accountId;
  }
  isExpired(now = Date.now()): boolean {
    return this.expires !== undefined && now >= this.expires * 1000;
  }
  /** Never prints the secret or the session token. */
  toJSON(): Record<string, unknown> {
    return { accessKeyId: this.accessKeyId, expires: this.expires, accountId: this.accountId };
  }
}

/** Resolves credentials; `null` credentials mean anonymous (unsigned) requests. */
export type CredentialProvider = () => Promise<Credentials | null>;

export class Token {
  constructor(
    readonly token: string,
    /** Epoch seconds. */
    readonly expires?: number,
  ) {}
  getToken(): string {
    return this.token;
  }
  getExpiration(): number | undefined {
    return this.expires;
  }
  isExpired(now = Date.now()): boolean {
    return this.expires !== undefined && now >= this.expires * 1000;
  }
  toJSON(): Record<string, unknown> {
    return { expires: this.expires };
  }
}

export type TokenProvider = () => Promise<Token | null>;

/** A request signer (the `signature_provider` returns one per version/service/region). */
export interface Signer {
  /** Returns the signed copy of `request`; `credentials` null = leave it unsigned. */
  sign(request: WireRequest, credentials: Credentials | null, options?: { signingTime?: Date }): Promise<WireRequest>;
}

export type SignatureProvider = (version: string, service: string, region: string) => Signer | null;

/** Where option resolution reads the environment and the shared config files from (tests pass their own). */
export interface ResolveContext {
  env: Record<string, string | undefined>;
  /** Home directory holding `.aws/config` and `.aws/credentials` (AWS_CONFIG_FILE / AWS_SHARED_CREDENTIALS_FILE win). */
  homeDir: string;
  /** `use_vendor_shared_config_files` (false = never read the files). */
  useSharedConfigFiles: boolean;
  /** The `profile` option, else AWS_PROFILE, else 'default'. */
  profile?: string;
  /**
   * True when `profile` came from the `profile` option (not AWS_PROFILE): the profile's credentials then override
   * the `credentials` option, and the shared files are read even when `useSharedConfigFiles` is false (reference
   * §1). Added by the credentials work; `createResolveContext` in config-files.ts fills it.
   */
  explicitProfile?: boolean;
}

/** The resolved `retries` option. */
export interface RetryConfig {
  mode: 'legacy' | 'standard' | 'adaptive';
  /** Attempts in all (retries + 1); 1 = no retries. */
  maxAttempts: number;
}
