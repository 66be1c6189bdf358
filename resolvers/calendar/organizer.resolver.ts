/** The Organizer type: its fields (masked as the organizers service says) and the organizer's events. */
import type { GraphQLResolveInfo } from 'graphql';
import { Arg, Args, Ctx, FieldResolver, ID, Info, Int, Resolver, Root } from 'type-graphql';
import { CalendarEventEntity, CalendarOrganizerEntity } from '../../entities/calendar';
import type { RequestContext } from '../../src/context';
import { permalink, wireContext } from '../../src/rest/wordpress/calendar-wire';
import { renderContent, renderTitle } from '../../src/services/calendar/text';
import type { ConnectionShape } from '../common/connection';
import { toGlobalId } from '../common/global-id';
import { orNull, registerNodeType } from '../common/node';
import { CalendarPageArgs, EventsWhere, Organizer } from './calendar.type';
import { ctxOf, linkedMasked, linkedText } from './calendar.support';
import { EventConnection, eventConnection } from './calendar.connections';

registerNodeType({
  typeName: 'Organizer',
  idKind: 'int4',
  isTypeOf: (v) => v instanceof CalendarOrganizerEntity,
  load: (ctx, id) => orNull(ctx.services.calendarOrganizers.get(ctx, id)),
});

@Resolver(() => Organizer)
export class OrganizerResolver {
  @FieldResolver(() => ID)
  id(@Root() o: CalendarOrganizerEntity): string {
    return toGlobalId('Organizer', o.id);
  }

  @FieldResolver(() => Int)
  databaseId(@Root() o: CalendarOrganizerEntity): number {
    return o.id;
  }

  @FieldResolver(() => String)
  name(@Root() o: CalendarOrganizerEntity): string {
    return renderTitle(o.title);
  }

  @FieldResolver(() => String)
  description(@Root() o: CalendarOrganizerEntity, @Ctx() ctx: RequestContext): string {
    return linkedText(ctx, o, renderContent(o.description));
  }

  @FieldResolver(() => String)
  excerpt(@Root() o: CalendarOrganizerEntity, @Ctx() ctx: RequestContext): string {
    return linkedText(ctx, o, o.excerpt ? renderContent(o.excerpt) : '');
  }

  @FieldResolver(() => String) phone(@Root() o: CalendarOrganizerEntity, @Ctx() ctx: RequestContext): string {
    return linkedText(ctx, o, o.phone);
  }
  @FieldResolver(() => String) website(@Root() o: CalendarOrganizerEntity, @Ctx() ctx: RequestContext): string {
    return linkedText(ctx, o, o.website);
  }
  @FieldResolver(() => String) email(@Root() o: CalendarOrganizerEntity, @Ctx() ctx: RequestContext): string {
    return linkedText(ctx, o, o.email);
  }

  @FieldResolver(() => String)
  url(@Root() o: CalendarOrganizerEntity, @Ctx() ctx: RequestContext): string {
    return permalink(wireContext(ctx), 'organizer', o.slug);
  }

  @FieldResolver(() => String, { nullable: true })
  image(@Root() o: CalendarOrganizerEntity, @Ctx() ctx: RequestContext): string | null {
    return linkedMasked(ctx, o) ? null : o.image;
  }

  @FieldResolver(() => EventConnection, { description: 'Events of this organizer (the `events` filters and default window).' })
  events(
    @Root() o: CalendarOrganizerEntity,
    @Arg('where', () => EventsWhere, { nullable: true }) where: EventsWhere | null,
    @Args() args: CalendarPageArgs,
    @Ctx() ctx: RequestContext,
    @Info() info: GraphQLResolveInfo,
  ): Promise<ConnectionShape<CalendarEventEntity>> {
    const c = ctxOf(ctx, o);
    return eventConnection(c, { ...args, language: args.language ?? c.language }, where, info, { organizer: [o.id] });
  }
}
