import { Arg, Ctx, ID, Query, Resolver } from 'type-graphql';
import type { RequestContext } from '../../src/context';
import { quoteInput, ValidationError } from '../../src/errors/app-error';
import { REQUEST_CODES } from '../../src/errors/codes';
import { decodeNodeId, fromGlobalId } from './global-id';
import { Node, nodeRegistration } from './node';

function invalidId(globalId: string): ValidationError {
  return new ValidationError(`Could not resolve to a node with the global id of ${quoteInput(globalId)}`, { domainCode: REQUEST_CODES.INVALID_GLOBAL_ID });
}

/**
 * One global id -> its node, null when missing or hidden. A malformed id (not ours, or a database id its
 * type cannot have: `User:abc`, `User:1e20`) is a ValidationError, decided before any SQL.
 */
async function loadNode(ctx: RequestContext, globalId: string): Promise<unknown | null> {
  const parsed = fromGlobalId(globalId);
  if (!parsed) throw invalidId(globalId);
  const reg = nodeRegistration(parsed.typeName);
  if (!reg) return null;
  const id = decodeNodeId(reg.idKind, parsed.id);
  if (id === undefined) throw invalidId(globalId);
  return reg.load(ctx, id);
}

@Resolver()
export class NodeResolver {
  @Query(() => Node, { nullable: true, description: 'Fetches an object given its global id. Null when missing or not visible.' })
  node(@Arg('id', () => ID) id: string, @Ctx() ctx: RequestContext): Promise<unknown | null> {
    return loadNode(ctx, id);
  }

  /**
   * Each id resolves on its own: an invalid one is null at its index with a BAD_USER_INPUT error located at
   * `nodes.<i>` (graphql-js turns an Error returned as a list item into that), the others still resolve.
   */
  @Query(() => [Node], { nullable: 'items', description: 'Fetches objects given their global ids (at most 100).' })
  async nodes(@Arg('ids', () => [ID]) ids: string[], @Ctx() ctx: RequestContext): Promise<Array<unknown | null>> {
    if (ids.length > 100) throw new ValidationError('`ids` may contain at most 100 ids.', { domainCode: REQUEST_CODES.TOO_MANY_IDS });
    return Promise.all(ids.map((id) => loadNode(ctx, id).catch((e: unknown) => (e instanceof ValidationError ? e : Promise.reject(e)))));
  }
}
