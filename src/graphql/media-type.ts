/**
 * The media type of a single GraphQL result for a request's Accept value, chosen as Apollo Server chooses it
 * (negotiator over the same types in the same order, application/json without an Accept header), and kept per
 * distinct Accept value. Our plugin sets it on the response before Apollo serializes the result; Apollo negotiates
 * only when no content-type is set, so a client sending the same Accept on every request is negotiated once.
 * An Accept that matches none of the types is left to Apollo (its 406), as is any value past the memo's size.
 */
import Negotiator from 'negotiator';

/** Apollo Server's single-result types (MEDIA_TYPES in @apollo/server), in its order of preference. */
const SINGLE_RESULT_TYPES = [
  'application/json; charset=utf-8',
  'application/graphql-response+json; charset=utf-8',
  'application/json; callbackSpec=1.0; charset=utf-8',
];

/** Distinct Accept values remembered; clients send few (their library's constant), so this is never reached in use. */
const MAX_MEMOIZED = 256;

export class SingleResultMediaTypes {
  private readonly memo = new Map<string, string | null>();

  /** The content-type to answer with, or undefined when Apollo must decide (no match: 406). */
  for(accept: string | undefined): string | undefined {
    if (!accept) return SINGLE_RESULT_TYPES[0];
    let type = this.memo.get(accept);
    if (type === undefined) {
      type = new Negotiator({ headers: { accept } }).mediaType(SINGLE_RESULT_TYPES) ?? null;
      if (this.memo.size < MAX_MEMOIZED) this.memo.set(accept, type);
    }
    return type ?? undefined;
  }
}
