/** The EventTag type: its fields and stored count. */
import { FieldResolver, ID, Int, Resolver, Root } from 'type-graphql';
import { CalendarTermEntity } from '../../entities/calendar';
import { toGlobalId } from '../common/global-id';
import { orNull, registerNodeType } from '../common/node';
import { EventTag } from './calendar.type';

registerNodeType({
  typeName: 'EventTag',
  idKind: 'int4',
  isTypeOf: (v) => v instanceof CalendarTermEntity && v.taxonomy === 'tag',
  load: async (ctx, id) => (await orNull(ctx.services.calendarTerms.get(ctx, 'tag', id)))?.term ?? null,
});

@Resolver(() => EventTag)
export class EventTagResolver {
  @FieldResolver(() => ID)
  id(@Root() t: CalendarTermEntity): string {
    return toGlobalId('EventTag', t.id);
  }

  @FieldResolver(() => Int)
  databaseId(@Root() t: CalendarTermEntity): number {
    return t.id;
  }

  @FieldResolver(() => Int)
  count(@Root() t: CalendarTermEntity): number {
    return t.count;
  }
}
