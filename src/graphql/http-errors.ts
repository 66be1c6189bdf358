/**
 * How the /graphql endpoint answers failures that happen before (or around) GraphQL execution: an unusable
 * request line or Host, a timeout, malformed JSON, a body too large. Same status as a REST family would use,
 * GraphQL's body shape `{ errors: [{ message, extensions: { code } }] }`. Errors inside execution are
 * formatted by Apollo (src/graphql/errors.ts).
 */
import type { AppError } from '../errors/app-error';
import { capMessage } from '../errors/message-cap';
import type { ErrorReply, ErrorStyle, IncomingLike } from '../rest/family';
import { githubFamily } from '../rest/github/family';

export function isGraphqlPath(url: string): boolean {
  // Asked several times per request (body parser, error style): compared in place, no split array.
  if (!url.startsWith('/graphql')) return false;
  const rest = url.length === 8 ? '' : url[8] === '/' ? url.slice(9, 10) : url[8];
  return rest === '' || rest === '?';
}

function graphqlError(status: number, message: string, code: string, headers?: Record<string, string>): ErrorReply {
  return { status, headers, body: { errors: [{ message: capMessage(message), extensions: { code } }] } };
}

const HTTP_CODE: Record<number, string> = { 408: 'REQUEST_TIMEOUT', 431: 'REQUEST_HEADER_FIELDS_TOO_LARGE' };

export const graphqlHttpErrors: ErrorStyle = {
  mediaType: 'application/json; charset=utf-8',
  // Before execution, only request-level problems reach here (415, 413, a bad token): GitHub's statuses.
  errorReply: (e: AppError) => {
    const r = githubFamily.errorReply(e);
    const message = (r.body as { message: string }).message;
    return graphqlError(r.status, message, r.status === 413 || r.status === 415 ? 'BAD_REQUEST' : e.code, r.headers);
  },
  noRoute: () => graphqlError(404, 'Not Found', 'NOT_FOUND'),
  malformedBody: () => graphqlError(400, 'Problems parsing JSON', 'BAD_REQUEST'),
  httpError: (status, message) => graphqlError(status, message, HTTP_CODE[status] ?? 'BAD_REQUEST'),
  internalError: (requestId) => graphqlError(500, `Internal server error (request id ${requestId})`, 'INTERNAL_SERVER_ERROR'),
};

export type { IncomingLike };
