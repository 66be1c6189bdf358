/** The EventCategory type: its fields, stored count, parent and children. */
import { Ctx, FieldResolver, ID, Int, Resolver, Root } from 'type-graphql';
import { CalendarTermEntity } from '../../entities/calendar';
import type { RequestContext } from '../../src/context';
import { loadAll } from '../../src/loaders/loader';
import { toGlobalId } from '../common/global-id';
import { orNull, registerNodeType } from '../common/node';
import { EventCategory } from './calendar.type';
import { ctxOf, readIn } from './calendar.support';

registerNodeType({
  typeName: 'EventCategory',
  idKind: 'int4',
  isTypeOf: (v) => v instanceof CalendarTermEntity && v.taxonomy === 'category',
  load: async (ctx, id) => (await orNull(ctx.services.calendarTerms.get(ctx, 'category', id)))?.term ?? null,
});

async function termsById(ctx: RequestContext, ids: number[]): Promise<CalendarTermEntity[]> {
  const found = (await loadAll(ctx.loaders.calendarTermById, ids)).filter((t): t is CalendarTermEntity => t !== null);
  return readIn(ctx, await ctx.services.calendarTerms.translated(ctx, found, ctx.language));
}

@Resolver(() => EventCategory)
export class EventCategoryResolver {
  @FieldResolver(() => ID)
  id(@Root() t: CalendarTermEntity): string {
    return toGlobalId('EventCategory', t.id);
  }

  @FieldResolver(() => Int)
  databaseId(@Root() t: CalendarTermEntity): number {
    return t.id;
  }

  @FieldResolver(() => Int)
  count(@Root() t: CalendarTermEntity): number {
    return t.count;
  }

  @FieldResolver(() => EventCategory, { nullable: true, description: 'The parent category (null at the top level).' })
  async parent(@Root() t: CalendarTermEntity, @Ctx() ctx: RequestContext): Promise<CalendarTermEntity | null> {
    if (t.parentId == null) return null;
    return (await termsById(ctxOf(ctx, t), [t.parentId]))[0] ?? null;
  }

  @FieldResolver(() => [EventCategory], { description: 'The direct child categories, by name.' })
  async children(@Root() t: CalendarTermEntity, @Ctx() ctx: RequestContext): Promise<CalendarTermEntity[]> {
    const ids = await ctx.loaders.calendarTermChildIds.load(t.id);
    return termsById(ctxOf(ctx, t), ids);
  }
}
