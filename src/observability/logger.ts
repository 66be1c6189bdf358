/**
 * JSON logs with pino. Authorization headers, cookies, tokens and secrets are redacted wherever they
 * appear in a logged object; request logs carry the request id, method, path or operation, status, duration.
 */
import pino, { Logger } from 'pino';
import type { LogLevel } from '../config';

export const REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-amz-security-token"]',
  'headers.authorization',
  'headers.cookie',
  '*.authorization',
  '*.password',
  '*.token',
  '*.secret',
  '*.secretAccessKey',
  '*.secret_access_key',
  'token',
  'secret',
  'secretAccessKey',
  // TypeORM's QueryFailedError carries the statement's bound values (may include secrets or token hashes).
  'err.parameters',
  'err.driverError.parameters',
];

export function createLogger(level: LogLevel, destination?: pino.DestinationStream): Logger {
  return pino(
    {
      level,
      base: { service: 'graphql-gateway' },
      timestamp: pino.stdTimeFunctions.isoTime,
      redact: { paths: REDACT_PATHS, censor: '[redacted]' },
      serializers: { err: pino.stdSerializers.err },
    },
    destination,
  );
}
