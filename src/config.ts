/**
 * Environment -> typed configuration. Every setting the server reads comes through here,
 * so a bad value fails at start with one clear message instead of deep inside a request.
 */
import * as os from 'node:os';
import * as path from 'node:path';
import { isValidTimezone } from './services/calendar/timezones';
import { compileAllowList } from './services/workflow/http/allow-list';

export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
const LOG_LEVELS: readonly LogLevel[] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

export type DatabaseConfig =
  | { type: 'sqlite'; path: string /* ':memory:' for a throwaway database */ }
  | { type: 'postgres'; url: string };

export interface AppConfig {
  port: number;
  host: string;
  database: DatabaseConfig;
  /** The DATABASE_URL exactly as given (undefined for the default SQLite file). */
  databaseUrl?: string;
  redisUrl?: string;
  logLevel: LogLevel;
  /** Base URL used in URLs the APIs return (no trailing slash). */
  publicUrl: string;
  /** true when PUBLIC_URL was given (otherwise it is derived from HOST and PORT). */
  publicUrlExplicit: boolean;
  /** production hides internals (introspection stays on for the playground unless disabled). */
  nodeEnv: string;
  /** GraphQL introspection (needed by the playground); on unless GRAPHQL_INTROSPECTION=false. */
  introspection: boolean;
  /** Seed the demo data when the database has no accounts yet (npm start); SEED_DEMO=false turns it off. */
  seedDemo: boolean;
  /** Key used to encrypt workflow access-key secrets at rest (hex or any string; hashed to 32 bytes). */
  secretKey?: string;
  /** Milliseconds a graceful shutdown waits for in-flight requests before closing sockets. */
  shutdownTimeoutMs: number;
  /** Milliseconds a client has to send a whole request (headers and body); 408 after that. 0 = no limit. */
  requestTimeoutMs: number;
  /** Milliseconds a client has to send the request headers; 408 after that. Never above requestTimeoutMs. */
  headersTimeoutMs: number;
  /** Milliseconds an idle keep-alive connection stays open between requests. */
  keepAliveTimeoutMs: number;
  /** Open connections at most; more are closed as they arrive. 0 = no limit. */
  maxConnections: number;
  /**
   * Body bytes at most for a request without a live credential (ANONYMOUS_BODY_LIMIT), refused (413) from its
   * Content-Length before the body is read, or when a chunked body passes it. 0 = the route's limit for everyone.
   */
  anonymousBodyLimit: number;
  /** When set, GET /metrics needs "Authorization: Bearer <METRICS_TOKEN>". */
  metricsToken?: string;
  /** Worker threads that run secret detection (DETECTOR_THREADS; default available parallelism - 1, at least 1). */
  detectorThreads: number;
  /** Bytes of kept REST texts and answers (REST_MEMO_ALERT_TEXT_BYTES, ..._ALERT_PAGE_BYTES, ..._EVENT_TEXT_BYTES; 0 keeps none). */
  restMemoBytes: { alertTexts: number; alertPages: number; eventTexts: number };
  /** The calendar site's timezone (CALENDAR_TIMEZONE, IANA name or UTC±N; default UTC): list windows and post dates. */
  calendarTimezone: string;
  /**
   * The calendar's clock (default dates, the "upcoming" window). CALENDAR_NOW (an ISO 8601 instant) freezes it, for
   * tests and reproducible demos; otherwise the real time.
   */
  now: () => Date;
  /** The workflow service's AWS region (WORKFLOW_REGION, default us-east-1): ARNs and the SigV4 scope. */
  workflowRegion: string;
  /** The workflow service's AWS account id (WORKFLOW_ACCOUNT_ID, 12 digits, default 000000000000): ARNs. */
  workflowAccountId: string;
  /**
   * Who runs workflow jobs (WORKFLOW_RUNNER): `embedded` (default: an in-process runner on the gateway's database);
   * `queue` (REDIS_URL: jobs are dispatched through BullMQ, and this process works the queue too); `dispatch`
   * (REDIS_URL: dispatch only, `npm run worker` processes run the jobs); `off` (nothing runs jobs here).
   */
  workflowRunner: 'embedded' | 'queue' | 'dispatch' | 'off';
  /** Jobs one runner works on at once (WORKFLOW_CONCURRENCY, default 64). */
  workflowConcurrency: number;
  /** The BullMQ key prefix (WORKFLOW_QUEUE_PREFIX, default `gw`): gateways sharing one Redis for different databases need their own. */
  workflowQueuePrefix: string;
  /** How long a runner's claim on a job lasts unrenewed (WORKFLOW_LEASE_SECONDS, default 30): a dead runner's jobs are taken over after it. */
  workflowLeaseMs: number;
  /** Largest GetExecutionHistory page in bytes of event details (WORKFLOW_HISTORY_PAGE_BYTES, default 1 MiB; at least one event per page). */
  workflowHistoryPageBytes: number;
  /** History bytes one job may store (WORKFLOW_JOB_HISTORY_BYTES, default 32 MiB): past it the job fails with States.DataLimitExceeded. */
  workflowJobHistoryBytes: number;
  /** Longest a GetActivityTask waits for a task (WORKFLOW_ACTIVITY_POLL_SECONDS, 1-60, default 60 as Step Functions). */
  workflowActivityPollMs: number;
  /** GetActivityTask polls one credential may have waiting at once (WORKFLOW_ACTIVITY_POLLS_PER_CREDENTIAL, default 1000). */
  workflowActivityPollsPerCredential: number;
  /** Where HTTP tasks may connect (WORKFLOW_HTTP_ALLOW: host patterns, IP addresses, CIDR ranges, each behind http:// to allow plain HTTP to it; empty = nowhere). */
  workflowHttpAllow: string;
  /** Longest an HTTP task's request may take, connecting to the end of the answer (WORKFLOW_HTTP_TIMEOUT_SECONDS, 1-600, default 60 as Step Functions). */
  workflowHttpTimeoutMs: number;
  /** Largest HTTP task answer body read (WORKFLOW_HTTP_MAX_RESPONSE_BYTES, default 256 KiB): a larger one fails the task with States.DataLimitExceeded. */
  workflowHttpMaxResponseBytes: number;
  /** Jobs that may be open (RUNNING) at once (WORKFLOW_MAX_OPEN_JOBS, default 1,000,000 as Step Functions): more starts and redrives answer ExecutionLimitExceeded. */
  workflowMaxOpenJobs: number;
  /**
   * Longest an Express execution runs (WORKFLOW_EXPRESS_MAX_SECONDS, 1-300, default 300: Step Functions' five minutes),
   * so a StartSyncExecution request ends by then: TIMED_OUT with States.Timeout.
   */
  workflowExpressMaxSeconds: number;
  /** Express executions running in this process at once (WORKFLOW_EXPRESS_MAX_RUNNING, default 1,000): more starts answer ThrottlingException. */
  workflowExpressMaxRunning: number;
}

export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

export const DEFAULT_SQLITE_PATH = path.join('data', 'gateway.sqlite');

export function parseDatabaseUrl(url: string | undefined): DatabaseConfig {
  if (url === undefined || url.trim() === '') return { type: 'sqlite', path: DEFAULT_SQLITE_PATH };
  const value = url.trim();
  if (value.startsWith('sqlite:')) {
    // sqlite:<path>, sqlite://<path> and sqlite::memory: are all accepted.
    let p = value.slice('sqlite:'.length);
    if (p.startsWith('//')) p = p.slice(2);
    if (p === '') throw new ConfigError('DATABASE_URL "sqlite:" needs a path, e.g. sqlite:data/gateway.sqlite or sqlite::memory:');
    return { type: 'sqlite', path: p };
  }
  if (/^postgres(ql)?:\/\//i.test(value)) {
    try {
      new URL(value);
    } catch {
      throw new ConfigError('DATABASE_URL is not a valid PostgreSQL URL');
    }
    return { type: 'postgres', url: value };
  }
  throw new ConfigError(
    'DATABASE_URL must start with sqlite: or postgres:// (got a value with another scheme)',
  );
}

function parsePort(raw: string | undefined, fallback: number): number {
  if (raw === undefined || raw.trim() === '') return fallback;
  if (!/^\d+$/.test(raw.trim())) throw new ConfigError(`PORT must be an integer between 0 and 65535 (got "${raw}")`);
  const n = Number(raw.trim());
  if (n > 65535) throw new ConfigError(`PORT must be an integer between 0 and 65535 (got "${raw}")`);
  return n;
}

function parseBool(name: string, raw: string | undefined, fallback: boolean): boolean {
  if (raw === undefined || raw.trim() === '') return fallback;
  const v = raw.trim().toLowerCase();
  if (['1', 'true', 'yes', 'on'].includes(v)) return true;
  if (['0', 'false', 'no', 'off'].includes(v)) return false;
  throw new ConfigError(`${name} must be true or false (got "${raw}")`);
}

function parsePositiveInt(name: string, raw: string | undefined, fallback: number): number {
  if (raw === undefined || raw.trim() === '') return fallback;
  if (!/^\d+$/.test(raw.trim())) throw new ConfigError(`${name} must be a non-negative integer (got "${raw}")`);
  return Number(raw.trim());
}

/** DETECTOR_THREADS: 1 to 256; default one less than the available parallelism, at least 1. */
function parseDetectorThreads(raw: string | undefined): number {
  const n = parsePositiveInt('DETECTOR_THREADS', raw, Math.max(1, os.availableParallelism() - 1));
  if (n < 1 || n > 256) throw new ConfigError(`DETECTOR_THREADS must be between 1 and 256 (got "${raw}")`);
  return n;
}

function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return '<invalid url>';
  }
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const port = parsePort(env.PORT, 4000);
  const host = env.HOST?.trim() || '0.0.0.0';
  const database = parseDatabaseUrl(env.DATABASE_URL);

  const rawLevel = (env.LOG_LEVEL ?? '').trim().toLowerCase();
  const logLevel = (rawLevel === '' ? 'info' : rawLevel) as LogLevel;
  if (!LOG_LEVELS.includes(logLevel)) {
    throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')} (got "${env.LOG_LEVEL}")`);
  }

  let redisUrl: string | undefined;
  if (env.REDIS_URL && env.REDIS_URL.trim() !== '') {
    redisUrl = env.REDIS_URL.trim();
    if (!/^rediss?:\/\//i.test(redisUrl)) {
      throw new ConfigError(`REDIS_URL must start with redis:// or rediss:// (got "${redactUrl(redisUrl)}")`);
    }
  }

  let publicUrl: string;
  if (env.PUBLIC_URL && env.PUBLIC_URL.trim() !== '') {
    const raw = env.PUBLIC_URL.trim();
    let u: URL;
    try {
      u = new URL(raw);
    } catch {
      throw new ConfigError(`PUBLIC_URL must be an absolute http(s) URL (got "${raw}")`);
    }
    if (u.protocol !== 'http:' && u.protocol !== 'https:') {
      throw new ConfigError(`PUBLIC_URL must be an absolute http(s) URL (got "${raw}")`);
    }
    publicUrl = raw.replace(/\/+$/, '');
  } else {
    const shownHost = host === '0.0.0.0' || host === '::' ? 'localhost' : host;
    publicUrl = `http://${shownHost}:${port}`;
  }

  const nodeEnv = env.NODE_ENV?.trim() || 'development';
  const requestTimeoutMs = parsePositiveInt('REQUEST_TIMEOUT_MS', env.REQUEST_TIMEOUT_MS, 60_000);
  const headersTimeoutMs = parsePositiveInt('HEADERS_TIMEOUT_MS', env.HEADERS_TIMEOUT_MS, Math.min(15_000, requestTimeoutMs || 15_000));
  if (headersTimeoutMs === 0) throw new ConfigError('HEADERS_TIMEOUT_MS must be a positive integer (got "0")');
  if (requestTimeoutMs > 0 && headersTimeoutMs > requestTimeoutMs) {
    throw new ConfigError(`HEADERS_TIMEOUT_MS (${headersTimeoutMs}) must not be above REQUEST_TIMEOUT_MS (${requestTimeoutMs})`);
  }
  const keepAliveTimeoutMs = parsePositiveInt('KEEP_ALIVE_TIMEOUT_MS', env.KEEP_ALIVE_TIMEOUT_MS, 72_000);
  if (keepAliveTimeoutMs === 0) throw new ConfigError('KEEP_ALIVE_TIMEOUT_MS must be a positive integer (got "0")');
  const metricsToken = env.METRICS_TOKEN?.trim() || undefined;
  if (metricsToken !== undefined && (metricsToken.length < 16 || !/^[\x21-\x7e]+$/.test(metricsToken))) {
    // Not echoed: it is a secret.
    throw new ConfigError('METRICS_TOKEN must be at least 16 printable characters without spaces');
  }
  return {
    port,
    host,
    database,
    databaseUrl: env.DATABASE_URL?.trim() || undefined,
    redisUrl,
    logLevel,
    publicUrl,
    publicUrlExplicit: Boolean(env.PUBLIC_URL && env.PUBLIC_URL.trim() !== ''),
    nodeEnv,
    introspection: parseBool('GRAPHQL_INTROSPECTION', env.GRAPHQL_INTROSPECTION, true),
    // Production never gets demo accounts (with printed tokens) unless asked for explicitly.
    seedDemo: parseBool('SEED_DEMO', env.SEED_DEMO, nodeEnv !== 'production'),
    secretKey: env.GATEWAY_SECRET_KEY?.trim() || undefined,
    shutdownTimeoutMs: parsePositiveInt('SHUTDOWN_TIMEOUT_MS', env.SHUTDOWN_TIMEOUT_MS, 10_000),
    requestTimeoutMs,
    headersTimeoutMs,
    keepAliveTimeoutMs,
    maxConnections: parsePositiveInt('MAX_CONNECTIONS', env.MAX_CONNECTIONS, 1024),
    anonymousBodyLimit: parsePositiveInt('ANONYMOUS_BODY_LIMIT', env.ANONYMOUS_BODY_LIMIT, 64 * 1024),
    metricsToken,
    detectorThreads: parseDetectorThreads(env.DETECTOR_THREADS),
    restMemoBytes: {
      alertTexts: parseMemoBytes('REST_MEMO_ALERT_TEXT_BYTES', env.REST_MEMO_ALERT_TEXT_BYTES, 16 * 1024 * 1024),
      alertPages: parseMemoBytes('REST_MEMO_ALERT_PAGE_BYTES', env.REST_MEMO_ALERT_PAGE_BYTES, 32 * 1024 * 1024),
      eventTexts: parseMemoBytes('REST_MEMO_EVENT_TEXT_BYTES', env.REST_MEMO_EVENT_TEXT_BYTES, 8 * 1024 * 1024),
    },
    calendarTimezone: parseTimezone(env.CALENDAR_TIMEZONE),
    now: parseClock(env.CALENDAR_NOW),
    workflowRegion: parseWorkflowRegion(env.WORKFLOW_REGION),
    workflowAccountId: parseWorkflowAccount(env.WORKFLOW_ACCOUNT_ID),
    workflowRunner: parseWorkflowRunner(env.WORKFLOW_RUNNER, redisUrl),
    workflowConcurrency: parseConcurrency(env.WORKFLOW_CONCURRENCY),
    workflowQueuePrefix: parseQueuePrefix(env.WORKFLOW_QUEUE_PREFIX),
    workflowLeaseMs: parseLeaseSeconds(env.WORKFLOW_LEASE_SECONDS) * 1000,
    workflowHistoryPageBytes: parseByteBound('WORKFLOW_HISTORY_PAGE_BYTES', env.WORKFLOW_HISTORY_PAGE_BYTES, 1024 * 1024),
    workflowJobHistoryBytes: parseByteBound('WORKFLOW_JOB_HISTORY_BYTES', env.WORKFLOW_JOB_HISTORY_BYTES, 32 * 1024 * 1024),
    workflowActivityPollMs: parseRange('WORKFLOW_ACTIVITY_POLL_SECONDS', env.WORKFLOW_ACTIVITY_POLL_SECONDS, 60, 1, 60) * 1000,
    workflowActivityPollsPerCredential: parseRange('WORKFLOW_ACTIVITY_POLLS_PER_CREDENTIAL', env.WORKFLOW_ACTIVITY_POLLS_PER_CREDENTIAL, 1000, 1, 100_000),
    workflowHttpAllow: parseHttpAllow(env.WORKFLOW_HTTP_ALLOW),
    workflowHttpTimeoutMs: parseRange('WORKFLOW_HTTP_TIMEOUT_SECONDS', env.WORKFLOW_HTTP_TIMEOUT_SECONDS, 60, 1, 600) * 1000,
    workflowHttpMaxResponseBytes: parseByteBound('WORKFLOW_HTTP_MAX_RESPONSE_BYTES', env.WORKFLOW_HTTP_MAX_RESPONSE_BYTES, 262_144),
    workflowMaxOpenJobs: parseRange('WORKFLOW_MAX_OPEN_JOBS', env.WORKFLOW_MAX_OPEN_JOBS, 1_000_000, 1, 100_000_000),
    workflowExpressMaxSeconds: parseRange('WORKFLOW_EXPRESS_MAX_SECONDS', env.WORKFLOW_EXPRESS_MAX_SECONDS, 300, 1, 300),
    workflowExpressMaxRunning: parseRange('WORKFLOW_EXPRESS_MAX_RUNNING', env.WORKFLOW_EXPRESS_MAX_RUNNING, 1000, 1, 100_000),
  };
}

/** Checked at start (a bad entry is a configuration error, not a failing task later). */
function parseHttpAllow(raw: string | undefined): string {
  try {
    compileAllowList(raw);
  } catch (e) {
    throw new ConfigError((e as Error).message);
  }
  return raw?.trim() ?? '';
}

function parseRange(name: string, raw: string | undefined, fallback: number, min: number, max: number): number {
  const n = parsePositiveInt(name, raw, fallback);
  if (n < min || n > max) throw new ConfigError(`${name} must be from ${min} to ${max} (got "${String(raw).slice(0, 64)}")`);
  return n;
}

/** Bytes a memo may keep: 0 (none) to 16 GiB. */
function parseMemoBytes(name: string, raw: string | undefined, fallback: number): number {
  if (raw === undefined || raw.trim() === '') return fallback;
  const n = Number(raw.trim());
  if (!/^\d+$/.test(raw.trim()) || n > 2 ** 34) throw new ConfigError(`${name} must be a number of bytes from 0 to ${2 ** 34} (got "${String(raw).slice(0, 64)}")`);
  return n;
}

/** A byte bound of the workflow service: 1 KiB to 16 GiB. */
function parseByteBound(name: string, raw: string | undefined, fallback: number): number {
  const n = parsePositiveInt(name, raw, fallback);
  if (n < 1024 || n > 2 ** 34) throw new ConfigError(`${name} must be a number of bytes from 1024 to ${2 ** 34} (got "${String(raw).slice(0, 64)}")`);
  return n;
}

function parseLeaseSeconds(raw: string | undefined): number {
  const v = raw?.trim() || '30';
  const n = Number(v);
  if (!/^\d+$/.test(v) || n < 2 || n > 3600) throw new ConfigError(`WORKFLOW_LEASE_SECONDS must be a whole number of seconds from 2 to 3600 (got "${v.slice(0, 64)}")`);
  return n;
}

function parseWorkflowRunner(raw: string | undefined, redisUrl: string | undefined): 'embedded' | 'queue' | 'dispatch' | 'off' {
  const v = raw?.trim().toLowerCase() || 'embedded';
  if (v !== 'embedded' && v !== 'queue' && v !== 'dispatch' && v !== 'off') {
    throw new ConfigError(`WORKFLOW_RUNNER must be embedded, queue, dispatch or off (got "${v.slice(0, 64)}")`);
  }
  if ((v === 'queue' || v === 'dispatch') && !redisUrl) throw new ConfigError(`WORKFLOW_RUNNER=${v} dispatches jobs through Redis: set REDIS_URL`);
  return v;
}

function parseQueuePrefix(raw: string | undefined): string {
  const v = raw?.trim() || 'gw';
  if (!/^[A-Za-z0-9_.-]{1,64}$/.test(v)) throw new ConfigError(`WORKFLOW_QUEUE_PREFIX must be 1-64 letters, digits, _ . - (got "${v.slice(0, 64)}")`);
  return v;
}

function parseConcurrency(raw: string | undefined): number {
  const v = raw?.trim() || '64';
  const n = Number(v);
  if (!/^\d+$/.test(v) || n < 1 || n > 1000) throw new ConfigError(`WORKFLOW_CONCURRENCY must be a whole number from 1 to 1000 (got "${v.slice(0, 64)}")`);
  return n;
}

/** An AWS region name (us-east-1, eu-central-2, us-gov-west-1, ...). */
function parseWorkflowRegion(raw: string | undefined): string {
  const v = raw?.trim() || 'us-east-1';
  if (!/^[a-z]{2}(-[a-z]+)+-\d{1,2}$/.test(v) || v.length > 32) {
    throw new ConfigError(`WORKFLOW_REGION must be an AWS region name such as us-east-1 (got "${v.slice(0, 64)}")`);
  }
  return v;
}

function parseWorkflowAccount(raw: string | undefined): string {
  const v = raw?.trim() || '000000000000';
  if (!/^\d{12}$/.test(v)) throw new ConfigError(`WORKFLOW_ACCOUNT_ID must be 12 digits (got "${v.slice(0, 64)}")`);
  return v;
}

function parseTimezone(raw: string | undefined): string {
  const tz = raw?.trim() || 'UTC';
  if (!isValidTimezone(tz)) throw new ConfigError(`CALENDAR_TIMEZONE must be an IANA timezone name or UTC±N (got "${tz.slice(0, 64)}")`);
  return tz;
}

function parseClock(raw: string | undefined): () => Date {
  const v = raw?.trim();
  if (!v) return () => new Date();
  const t = Date.parse(v);
  if (!/^\d{4}-\d{2}-\d{2}T/.test(v) || Number.isNaN(t)) throw new ConfigError(`CALENDAR_NOW must be an ISO 8601 instant (got "${v.slice(0, 64)}")`);
  return () => new Date(t);
}

/** The config as it may be logged: credentials in URLs masked. */
export function describeConfig(config: AppConfig): Record<string, unknown> {
  return {
    port: config.port,
    host: config.host,
    database: config.database.type === 'sqlite' ? `sqlite:${config.database.path}` : redactUrl(config.database.url),
    redis: config.redisUrl ? redactUrl(config.redisUrl) : undefined,
    logLevel: config.logLevel,
    publicUrl: config.publicUrl,
    nodeEnv: config.nodeEnv,
    requestTimeoutMs: config.requestTimeoutMs,
    headersTimeoutMs: config.headersTimeoutMs,
    keepAliveTimeoutMs: config.keepAliveTimeoutMs,
    maxConnections: config.maxConnections,
    anonymousBodyLimit: config.anonymousBodyLimit,
    metricsProtected: Boolean(config.metricsToken),
  };
}
