/**
 * Errors of the workflow client. A failed command rejects with a `WorkflowServiceException` (PHP's
 * AwsException): the service's error code (`__type` after `#`, before `:`), `type` client for 4xx and server
 * otherwise, the HTTP status, the request id, and `connectionError` when no answer arrived. Bad options or
 * arguments throw `InvalidArgumentError` (PHP's InvalidArgumentException) synchronously.
 */
import type { CommandLike, Result, WireRequest, WireResponse } from './types';

export class InvalidArgumentError extends Error {
  override name = 'InvalidArgumentError';
}

/** A bad `retries` configuration (PHP's Aws\Retry\Exception\ConfigurationException). */
export class ConfigurationError extends InvalidArgumentError {
  override name = 'ConfigurationError';
}

export interface ServiceExceptionInit {
  command: CommandLike;
  request?: WireRequest;
  response?: WireResponse;
  code?: string;
  type?: 'client' | 'server';
  statusCode?: number;
  requestId?: string;
  connectionError?: boolean;
  /** The error that caused this one (a socket error, a parse error). */
  previous?: unknown;
  /** Partial result with `@metadata` (transfer stats, retries). */
  result?: Result;
  /** Whether the model marks the error retryable / throttling (reference §3). */
  retryable?: boolean;
  throttling?: boolean;
}

export class WorkflowServiceException extends Error {
  override name = 'WorkflowServiceException';
  declare readonly command: CommandLike;
  declare readonly request?: WireRequest;
  declare readonly response?: WireResponse;
  readonly code?: string;
  readonly type?: 'client' | 'server';
  readonly statusCode?: number;
  readonly requestId?: string;
  readonly connectionError: boolean;
  readonly previous?: unknown;
  readonly retryable: boolean;
  readonly throttling: boolean;
  /** Transfer stats and retry counts of the failed command (`@metadata` of a Result). */
  transferInfo: Record<string, unknown> = {};
  result?: Result;

  constructor(message: string, init: ServiceExceptionInit) {
    super(message);
    // Not enumerable: logging or inspecting the error does not print the signed request's headers.
    Object.defineProperty(this, 'command', { value: init.command, enumerable: false, writable: true });
    Object.defineProperty(this, 'request', { value: init.request, enumerable: false, writable: true });
    Object.defineProperty(this, 'response', { value: init.response, enumerable: false, writable: true });
    this.code = init.code;
    this.type = init.type;
    this.statusCode = init.statusCode;
    this.requestId = init.requestId;
    this.connectionError = init.connectionError ?? false;
    this.previous = init.previous;
    this.result = init.result;
    this.retryable = init.retryable ?? false;
    this.throttling = init.throttling ?? false;
  }

  getAwsErrorCode(): string | undefined {
    return this.code;
  }
  getAwsErrorType(): 'client' | 'server' | undefined {
    return this.type;
  }
  getStatusCode(): number | undefined {
    return this.statusCode;
  }
  getAwsRequestId(): string | undefined {
    return this.requestId;
  }
  isConnectionError(): boolean {
    return this.connectionError;
  }
  getCommand(): CommandLike {
    return this.command;
  }
  getResponse(): WireResponse | undefined {
    return this.response;
  }
  getTransferInfo(name?: string): unknown {
    return name === undefined ? this.transferInfo : this.transferInfo[name];
  }

  /** Serialising an error never includes the signed request (Authorization, session token) or the command. */
  toJSON(): Record<string, unknown> {
    return { name: this.name, message: this.message, code: this.code, type: this.type, statusCode: this.statusCode, requestId: this.requestId, connectionError: this.connectionError };
  }
}
