import { Arg, Ctx, ID, Query, Resolver } from 'type-graphql';
import type { RequestContext } from '../../src/context';
import { ValidationError } from '../../src/errors/app-error';
import { fromGlobalId } from './global-id';
import { Node, nodeRegistration } from './node';

async function loadNode(ctx: RequestContext, globalId: string): Promise<unknown | null> {
  const parsed = fromGlobalId(globalId);
  if (!parsed) throw new ValidationError(`Could not resolve to a node with the global id of '${globalId}'`, { status: 400 });
  const reg = nodeRegistration(parsed.typeName);
  if (!reg) return null;
  return reg.load(ctx, parsed.id);
}

@Resolver()
export class NodeResolver {
  @Query(() => Node, { nullable: true, description: 'Fetches an object given its global id. Null when missing or not visible.' })
  node(@Arg('id', () => ID) id: string, @Ctx() ctx: RequestContext): Promise<unknown | null> {
    return loadNode(ctx, id);
  }

  @Query(() => [Node], { nullable: 'items', description: 'Fetches objects given their global ids (at most 100).' })
  async nodes(@Arg('ids', () => [ID]) ids: string[], @Ctx() ctx: RequestContext): Promise<Array<unknown | null>> {
    if (ids.length > 100) throw new ValidationError('`ids` may contain at most 100 ids.', { status: 400 });
    return Promise.all(ids.map((id) => loadNode(ctx, id)));
  }
}
