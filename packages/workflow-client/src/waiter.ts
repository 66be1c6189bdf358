/**
 * Waiters (`getWaiter` / `waitUntil`; aws-sdk-php Waiter, reference §4): poll an operation until an acceptor says
 * success or failure, or the attempts run out. The configuration is the model's waiters-2 entry with the
 * `args['@waiter']` overrides over it (PHP's camelCase keys: `delay` seconds or fn(attempt), `maxAttempts`,
 * `initDelay`, `before(command, attempt)`). Matchers: `path`, `pathAll`, `pathAny` (JMESPath on the Result), `status`
 * (HTTP status of the Result, or of the error's response), `error` (the service error code; `true` = any service
 * error, `false` = no error; like PHP, a connection error matches a code acceptor). States success, failure (also
 * spelled `failed`, which PHP compares against) and retry; with no acceptor matching, a service error is a failure
 * and a result a retry. The wait before attempt N (none before attempt 1 unless `initDelay`) is passed to the
 * terminal handler as `args['@http'].delay` in milliseconds, so the client's handler (not this loop) sleeps.
 *
 * Difference from PHP: `pathAll` over an empty list does not match (the waiter spec's allStringEquals needs at least
 * one element; PHP's old Waiter matched, letting "all instances running" succeed on zero instances).
 */
import { InvalidArgumentError, WorkflowServiceException } from './errors';
import { search as jmes } from './jmespath';
import type { WaiterAcceptor } from './api';
import type { OperationClient } from './paginator';
import type { CommandLike, Result } from './types';

export type WaiterDelay = number | ((attempt: number) => number);

export interface WaiterConfig {
  operation: string;
  /** Seconds between attempts, or a function of the attempt number (2, 3, ...). */
  delay: WaiterDelay;
  maxAttempts: number;
  acceptors: WaiterAcceptor[];
  /** Seconds before the first attempt (default 0). */
  initDelay?: WaiterDelay;
  /** Called with each attempt's command just before it is sent. */
  before?: ((command: CommandLike, attempt: number) => void) | null;
  description?: string;
}

export type WaiterOverrides = Partial<WaiterConfig>;

/**
 * Why a wait ended without success: a failure acceptor matched, or the attempts ran out. `result` / `error` (the
 * last attempt's outcome) are not enumerable and not in `toJSON`, so logging or serialising a WaiterError never
 * dumps the signed request (Authorization, session token) that a service error carries.
 */
export class WaiterError extends Error {
  override name = 'WaiterError';
  /** The last attempt's Result, when it did not fail. */
  declare readonly result?: Result;
  /** The last attempt's service error, when it failed. */
  declare readonly error?: WorkflowServiceException;

  constructor(
    message: string,
    readonly waiterName: string,
    readonly reason: 'failure' | 'maxAttempts',
    readonly attempts: number,
    result?: Result,
    error?: WorkflowServiceException,
  ) {
    super(message);
    Object.defineProperty(this, 'result', { value: result, enumerable: false });
    Object.defineProperty(this, 'error', { value: error, enumerable: false });
  }

  toJSON(): Record<string, unknown> {
    return {
      name: this.name,
      message: this.message,
      waiterName: this.waiterName,
      reason: this.reason,
      attempts: this.attempts,
      errorCode: this.error?.code,
      statusCode: this.error?.statusCode ?? this.result?.['@metadata']?.statusCode,
    };
  }
}

const REQUIRED: (keyof WaiterConfig)[] = ['acceptors', 'delay', 'maxAttempts', 'operation'];
const MATCHERS = new Set(['path', 'pathAll', 'pathAny', 'status', 'error']);
const STATES = new Set(['success', 'failure', 'failed', 'retry']);

/** PHP's `==` for the values acceptors compare: numbers and numeric strings, booleans, deep JSON equality. */
function looseEquals(actual: unknown, expected: unknown): boolean {
  if (actual === expected) return true;
  if (actual === null || actual === undefined || expected === null || expected === undefined) return false;
  if (typeof actual === 'object' || typeof expected === 'object') {
    return JSON.stringify(actual) === JSON.stringify(expected);
  }
  if (typeof actual === 'boolean' || typeof expected === 'boolean') {
    return Boolean(actual) === Boolean(expected) && String(actual) === String(expected);
  }
  if (typeof actual === 'number' || typeof expected === 'number') return Number(actual) === Number(expected);
  return String(actual) === String(expected);
}

export class Waiter {
  /** A true private field: serialising or logging a waiter never reaches the client (and its credentials). */
  readonly #client: OperationClient;
  private readonly config: WaiterConfig;
  private readonly args: Record<string, unknown>;

  constructor(
    client: OperationClient,
    readonly name: string,
    args: Record<string, unknown> = {},
    config: Partial<WaiterConfig> = {},
  ) {
    this.#client = client;
    const { '@waiter': overrides, ...rest } = args;
    this.args = rest;
    const merged: Partial<WaiterConfig> = {
      initDelay: 0,
      before: null,
      ...config,
      ...(typeof overrides === 'object' && overrides !== null ? (overrides as WaiterOverrides) : {}),
    };
    for (const key of REQUIRED) {
      if (merged[key] === undefined || merged[key] === null) {
        throw new InvalidArgumentError('The provided waiter configuration was incomplete.');
      }
    }
    if (merged.before !== null && merged.before !== undefined && typeof merged.before !== 'function') {
      throw new InvalidArgumentError('The provided "before" callback is not callable.');
    }
    for (const a of merged.acceptors ?? []) {
      if (!MATCHERS.has(a.matcher)) throw new InvalidArgumentError(`Unknown waiter matcher: ${String(a.matcher)}`);
      if (!STATES.has(a.state)) throw new InvalidArgumentError(`Unknown waiter state: ${String(a.state)}`);
    }
    this.config = merged as WaiterConfig;
  }

  getConfig(): Readonly<WaiterConfig> {
    return this.config;
  }

  /** Resolves when a success acceptor matches; rejects with a WaiterError otherwise. */
  async promise(): Promise<void> {
    const { maxAttempts, operation } = this.config;
    for (let attempt = 1; ; attempt++) {
      const command = this.#client.getCommand(operation, this.argsForAttempt(attempt));
      if (this.config.before) this.config.before(command, attempt);
      let outcome: Result | WorkflowServiceException;
      try {
        outcome = await this.#client.executeAsync(command);
      } catch (err) {
        if (!(err instanceof WorkflowServiceException)) throw err;
        outcome = err;
      }
      const state = this.determineState(outcome);
      const isError = outcome instanceof WorkflowServiceException;
      const result = isError ? undefined : (outcome as Result);
      const error = isError ? (outcome as WorkflowServiceException) : undefined;
      if (state === 'success') return;
      if (state === 'failure') {
        let msg = `The ${this.name} waiter entered a failure state.`;
        if (error) msg += ` Reason: ${error.message}`;
        throw new WaiterError(msg, this.name, 'failure', attempt, result, error);
      }
      if (attempt >= maxAttempts) {
        throw new WaiterError(
          `The ${this.name} waiter failed after attempt #${attempt}.`,
          this.name,
          'maxAttempts',
          attempt,
          result,
          error,
        );
      }
    }
  }

  private argsForAttempt(attempt: number): Record<string, unknown> {
    const args: Record<string, unknown> = { ...this.args };
    const raw = attempt === 1 ? this.config.initDelay ?? 0 : this.config.delay;
    const seconds = typeof raw === 'function' ? raw(attempt) : raw;
    const http = typeof args['@http'] === 'object' && args['@http'] !== null ? { ...(args['@http'] as object) } : {};
    if (attempt > 1 || seconds > 0) (http as Record<string, unknown>).delay = seconds * 1000;
    if (Object.keys(http).length > 0 || attempt > 1) args['@http'] = http;
    return args;
  }

  private determineState(outcome: Result | WorkflowServiceException): 'success' | 'failure' | 'retry' {
    for (const acceptor of this.config.acceptors) {
      if (this.matches(acceptor, outcome)) {
        return acceptor.state === 'failed' ? 'failure' : acceptor.state;
      }
    }
    return outcome instanceof WorkflowServiceException ? 'failure' : 'retry';
  }

  private matches(acceptor: WaiterAcceptor, outcome: Result | WorkflowServiceException): boolean {
    const isError = outcome instanceof WorkflowServiceException;
    switch (acceptor.matcher) {
      case 'path':
        return !isError && looseEquals(jmes(outcome, acceptor.argument ?? '@'), acceptor.expected);
      case 'pathAll': {
        if (isError) return false;
        const actual = jmes(outcome, acceptor.argument ?? '@');
        return Array.isArray(actual) && actual.length > 0 && actual.every((v) => looseEquals(v, acceptor.expected));
      }
      case 'pathAny': {
        if (isError) return false;
        const actual = jmes(outcome, acceptor.argument ?? '@');
        return Array.isArray(actual) && actual.some((v) => looseEquals(v, acceptor.expected));
      }
      case 'status': {
        const status = isError
          ? outcome.statusCode ?? outcome.response?.statusCode
          : (outcome as Result)['@metadata']?.statusCode;
        return status !== undefined && looseEquals(status, acceptor.expected);
      }
      case 'error':
        if (typeof acceptor.expected === 'boolean') return acceptor.expected === isError;
        return isError && (outcome.connectionError || looseEquals(outcome.code, acceptor.expected));
      default:
        return false;
    }
  }
}
