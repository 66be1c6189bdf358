/** The Venue type: its fields (masked as the venues service says) and the events at the venue. */
import type { GraphQLResolveInfo } from 'graphql';
import { Arg, Args, Ctx, FieldResolver, ID, Info, Int, Resolver, Root } from 'type-graphql';
import { CalendarEventEntity, CalendarVenueEntity } from '../../entities/calendar';
import type { RequestContext } from '../../src/context';
import { permalink, wireContext } from '../../src/rest/wordpress/calendar-wire';
import { renderContent, renderTitle } from '../../src/services/calendar/text';
import type { ConnectionShape } from '../common/connection';
import { toGlobalId } from '../common/global-id';
import { orNull, registerNodeType } from '../common/node';
import { CalendarPageArgs, EventsWhere, GeoPoint, Venue } from './calendar.type';
import { ctxOf, linkedMasked, linkedText } from './calendar.support';
import { EventConnection, eventConnection } from './calendar.connections';

registerNodeType({
  typeName: 'Venue',
  idKind: 'int4',
  isTypeOf: (v) => v instanceof CalendarVenueEntity,
  load: (ctx, id) => orNull(ctx.services.calendarVenues.get(ctx, id)),
});

@Resolver(() => Venue)
export class VenueResolver {
  @FieldResolver(() => ID)
  id(@Root() v: CalendarVenueEntity): string {
    return toGlobalId('Venue', v.id);
  }

  @FieldResolver(() => Int)
  databaseId(@Root() v: CalendarVenueEntity): number {
    return v.id;
  }

  @FieldResolver(() => String)
  name(@Root() v: CalendarVenueEntity): string {
    return renderTitle(v.title);
  }

  @FieldResolver(() => String)
  description(@Root() v: CalendarVenueEntity, @Ctx() ctx: RequestContext): string {
    return linkedText(ctx, v, renderContent(v.description));
  }

  @FieldResolver(() => String)
  excerpt(@Root() v: CalendarVenueEntity, @Ctx() ctx: RequestContext): string {
    return linkedText(ctx, v, v.excerpt ? renderContent(v.excerpt) : '');
  }

  @FieldResolver(() => String) address(@Root() v: CalendarVenueEntity, @Ctx() ctx: RequestContext): string {
    return linkedText(ctx, v, v.address);
  }
  @FieldResolver(() => String) city(@Root() v: CalendarVenueEntity, @Ctx() ctx: RequestContext): string {
    return linkedText(ctx, v, v.city);
  }
  @FieldResolver(() => String) country(@Root() v: CalendarVenueEntity, @Ctx() ctx: RequestContext): string {
    return linkedText(ctx, v, v.country);
  }
  @FieldResolver(() => String) province(@Root() v: CalendarVenueEntity, @Ctx() ctx: RequestContext): string {
    return linkedText(ctx, v, v.province);
  }
  @FieldResolver(() => String) state(@Root() v: CalendarVenueEntity): string {
    return v.state;
  }
  @FieldResolver(() => String) stateProvince(@Root() v: CalendarVenueEntity, @Ctx() ctx: RequestContext): string {
    return linkedText(ctx, v, v.stateprovince);
  }
  @FieldResolver(() => String) zip(@Root() v: CalendarVenueEntity, @Ctx() ctx: RequestContext): string {
    return linkedText(ctx, v, v.zip);
  }
  @FieldResolver(() => String) phone(@Root() v: CalendarVenueEntity, @Ctx() ctx: RequestContext): string {
    return linkedText(ctx, v, v.phone);
  }
  @FieldResolver(() => String) website(@Root() v: CalendarVenueEntity, @Ctx() ctx: RequestContext): string {
    return linkedText(ctx, v, v.website);
  }

  @FieldResolver(() => GeoPoint, { nullable: true })
  geo(@Root() v: CalendarVenueEntity, @Ctx() ctx: RequestContext): GeoPoint | null {
    if (linkedMasked(ctx, v)) return { lat: 0, lng: 0 };
    return v.geoLat !== null && v.geoLng !== null ? { lat: v.geoLat, lng: v.geoLng } : null;
  }

  @FieldResolver(() => Boolean, { nullable: true }) showMap(@Root() v: CalendarVenueEntity, @Ctx() ctx: RequestContext): boolean | null {
    return linkedMasked(ctx, v) ? null : v.showMap;
  }
  @FieldResolver(() => Boolean, { nullable: true }) showMapLink(@Root() v: CalendarVenueEntity, @Ctx() ctx: RequestContext): boolean | null {
    return linkedMasked(ctx, v) ? null : v.showMapLink;
  }

  @FieldResolver(() => String)
  url(@Root() v: CalendarVenueEntity, @Ctx() ctx: RequestContext): string {
    return permalink(wireContext(ctx), 'venue', v.slug);
  }

  @FieldResolver(() => String, { nullable: true })
  image(@Root() v: CalendarVenueEntity, @Ctx() ctx: RequestContext): string | null {
    return linkedMasked(ctx, v) ? null : v.image;
  }

  @FieldResolver(() => EventConnection, { description: 'Events at this venue (the `events` filters and default window).' })
  events(
    @Root() v: CalendarVenueEntity,
    @Arg('where', () => EventsWhere, { nullable: true }) where: EventsWhere | null,
    @Args() args: CalendarPageArgs,
    @Ctx() ctx: RequestContext,
    @Info() info: GraphQLResolveInfo,
  ): Promise<ConnectionShape<CalendarEventEntity>> {
    const c = ctxOf(ctx, v);
    return eventConnection(c, { ...args, language: args.language ?? c.language }, where, info, { venue: [v.id] });
  }
}
