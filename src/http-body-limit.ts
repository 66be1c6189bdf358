/**
 * The anonymous body limit: a request without a live credential may send at most ANONYMOUS_BODY_LIMIT body
 * bytes; authenticated requests keep the route's limit. Judged before the body is read (Fastify's preParsing
 * hook), so a flood of large anonymous bodies is refused without being buffered:
 *  - a Content-Length above the limit is refused (413, in the family's shape) before a byte of the body is read,
 *    and the connection closes instead of reading the rest;
 *  - a chunked body is counted as it arrives and cut (413) once it passes the limit.
 * Small bodies (at most the limit) are never looked at, so the common request pays nothing here. "Live
 * credential": a token or application password that authenticates (the shared rule), or, for a family with its
 * own authentication (AWS SigV4), what it can tell before the body (the access key is active).
 */
import { Transform, TransformCallback } from 'node:stream';
import type { FastifyReply, FastifyRequest, preParsingHookHandler } from 'fastify';
import { authenticateBearer } from './auth/authenticate';
import { AppDeps, headerValue } from './context';
import { UnauthenticatedError, ValidationError } from './errors/app-error';
import { REQUEST_CODES } from './errors/codes';
import { isGraphqlPath } from './graphql/http-errors';
import { familyOf } from './rest/families';

function tooLarge(reply: FastifyReply, limit: number): ValidationError {
  // The rest of the body is not read: the connection closes after the answer.
  reply.header('connection', 'close');
  return Object.assign(
    new ValidationError(`Request body is too large: without valid credentials at most ${limit} bytes are accepted`, { domainCode: REQUEST_CODES.BODY_TOO_LARGE }),
    { statusCode: 413 },
  );
}

async function credentialIsLive(deps: AppDeps, req: FastifyRequest): Promise<boolean> {
  const family = isGraphqlPath(req.url) ? undefined : familyOf(req);
  if (family?.credentialIsLive) return family.credentialIsLive(req.headers, deps);
  const authorization = headerValue(req.headers, 'authorization');
  if (authorization === undefined) return false;
  try {
    return (await authenticateBearer(deps.dataSource, authorization)).kind === 'user';
  } catch (e) {
    if (e instanceof UnauthenticatedError) return false;
    throw e;
  }
}

/** Passes at most `limit` bytes, then fails with `error()`. */
class CountingStream extends Transform {
  private seen = 0;
  constructor(
    private readonly limit: number,
    private readonly error: () => Error,
  ) {
    super();
  }
  override _transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback): void {
    this.seen += chunk.length;
    if (this.seen > this.limit) return done(this.error());
    done(null, chunk);
  }
}

export function anonymousBodyLimit(deps: AppDeps, limit: number): preParsingHookHandler {
  return (req, reply, payload, done) => {
    const declared = req.headers['content-length'];
    const chunked = declared === undefined && req.headers['transfer-encoding'] !== undefined;
    // No body, or one within the anonymous limit: nothing to decide.
    if (!chunked && (declared === undefined || Number(declared) <= limit)) return done(null, payload);
    credentialIsLive(deps, req).then(
      (live) => {
        if (live) return done(null, payload);
        if (!chunked) return done(tooLarge(reply, limit));
        const counted = new CountingStream(limit, () => tooLarge(reply, limit));
        payload.on('error', (e) => counted.destroy(e));
        done(null, payload.pipe(counted));
      },
      (e: Error) => done(e),
    );
  };
}
