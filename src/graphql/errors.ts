/**
 * GraphQL error mapper: AppError -> { message, extensions.code }. Internal errors are logged with the
 * request id and answered with a generic message; no stack trace or internal message ever leaves.
 */
import type { GraphQLFormattedError } from 'graphql';
import { GraphQLError } from 'graphql';
import type { Logger } from 'pino';
import { toAppError } from '../errors/app-error';
import { capMessage } from '../errors/message-cap';

/** Codes produced by graphql-js / Apollo / type-graphql / graphql-armor that are safe to show as they are. */
const PASS_THROUGH = new Set([
  'GRAPHQL_PARSE_FAILED',
  'GRAPHQL_VALIDATION_FAILED',
  'BAD_USER_INPUT',
  'PERSISTED_QUERY_NOT_FOUND',
  'PERSISTED_QUERY_NOT_SUPPORTED',
  'OPERATION_RESOLUTION_FAILURE',
  'BAD_REQUEST',
  'UNAUTHENTICATED',
  'FORBIDDEN',
  'QUERY_TOO_COMPLEX',
]);

/** Every formatted error's message is capped: graphql-js quotes input values (a 9 MB variable) in its messages. */
export function makeFormatError(log?: Logger) {
  const format = formatError(log);
  return (formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError => {
    const out = format(formatted, error);
    return { ...out, message: capMessage(out.message) };
  };
}

function formatError(_log?: Logger) {
  return (formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError => {
    const original = error instanceof GraphQLError ? error.originalError ?? error : error;
    const app = toAppError(original);
    if (app) {
      const ext: Record<string, unknown> = { code: app.code };
      // The domain's reason when it says more than the category (e.g. RESOLUTION_UNCHANGED, INVALID_CURSOR).
      if (app.hasDomainCode) ext.domainCode = app.domainCode;
      if (app.fieldErrors?.length) {
        ext.fieldErrors = app.fieldErrors.map((f) => (f.message === undefined ? f : { ...f, message: capMessage(f.message) }));
      }
      return { message: app.message, locations: formatted.locations, path: formatted.path, extensions: ext };
    }
    // type-graphql argument validation
    const validationErrors = (original as { extensions?: { validationErrors?: unknown[] } })?.extensions?.validationErrors;
    if (Array.isArray(validationErrors)) {
      const details = validationErrors.map((v) => {
        const ve = v as { property?: string; constraints?: Record<string, string>; children?: unknown[] };
        return { field: ve.property, constraints: ve.constraints };
      });
      return {
        message: formatted.message,
        locations: formatted.locations,
        path: formatted.path,
        extensions: { code: 'BAD_USER_INPUT', validationErrors: details },
      };
    }
    const code = formatted.extensions?.code;
    if (typeof code === 'string' && PASS_THROUGH.has(code)) {
      return { message: formatted.message, locations: formatted.locations, path: formatted.path, extensions: { code } };
    }
    // graphql-js and Apollo errors without an original error are about the request itself (variables, a
    // persisted query hash or version, an operation type the schema lacks). Apollo labels those that carry
    // no code of their own INTERNAL_SERVER_ERROR (`formatted`), so the error's own code decides.
    if (error instanceof GraphQLError && !error.originalError && error.extensions?.code !== 'INTERNAL_SERVER_ERROR') {
      const own = error.extensions?.code;
      return {
        message: formatted.message,
        locations: formatted.locations,
        path: formatted.path,
        extensions: { code: typeof own === 'string' ? own : 'BAD_REQUEST' },
      };
    }
    // Logged with the request id by the observability plugin (didEncounterErrors); only a generic message leaves.
    return {
      message: 'Internal server error',
      locations: formatted.locations,
      path: formatted.path,
      extensions: { code: 'INTERNAL_SERVER_ERROR' },
    };
  };
}
