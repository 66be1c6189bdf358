/**
 * The Event type: its fields (masked when the viewer may not read a protected event) and its relations, read from
 * `calendarEvents.relations` (primed once per page when the selection asks for them) and the request's DataLoaders.
 */
import { Ctx, FieldResolver, ID, Int, Resolver, Root } from 'type-graphql';
import { CalendarEventEntity, CalendarOrganizerEntity, CalendarTermEntity, CalendarVenueEntity } from '../../entities/calendar';
import { AccountEntity } from '../../entities/identity';
import type { RequestContext } from '../../src/context';
import { permalink, wireContext } from '../../src/rest/wordpress/calendar-wire';
import { catalogMessage } from '../../src/rest/wordpress/messages';
import { formatCost } from '../../src/services/calendar/cost';
import { timezoneAbbr } from '../../src/services/calendar/timezones';
import { escHtml, renderContent, renderTitle } from '../../src/services/calendar/text';
import { toGlobalId } from '../common/global-id';
import { orNull, registerNodeType } from '../common/node';
import { User } from '../identity/identity.type';
import { Event, EventCategory, EventTag, Organizer, Venue } from './calendar.type';
import { ctxOf, eventMasked, withRelations } from './calendar.support';

registerNodeType({
  typeName: 'Event',
  idKind: 'int4',
  isTypeOf: (v) => v instanceof CalendarEventEntity,
  load: (ctx, id) => orNull(ctx.services.calendarEvents.get(ctx, id)),
});

@Resolver(() => Event)
export class EventResolver {
  @FieldResolver(() => ID)
  id(@Root() e: CalendarEventEntity): string {
    return toGlobalId('Event', e.id);
  }

  @FieldResolver(() => Int)
  databaseId(@Root() e: CalendarEventEntity): number {
    return e.id;
  }

  @FieldResolver(() => String)
  title(@Root() e: CalendarEventEntity): string {
    return renderTitle(e.title);
  }

  @FieldResolver(() => String)
  description(@Root() e: CalendarEventEntity, @Ctx() ctx: RequestContext): string {
    return eventMasked(ctx, e) ? '' : renderContent(e.description);
  }

  @FieldResolver(() => String)
  excerpt(@Root() e: CalendarEventEntity, @Ctx() ctx: RequestContext): string {
    return eventMasked(ctx, e) || !e.excerpt ? '' : renderContent(e.excerpt);
  }

  @FieldResolver(() => String)
  startDate(@Root() e: CalendarEventEntity): string {
    return e.startLocal;
  }

  @FieldResolver(() => String)
  endDate(@Root() e: CalendarEventEntity): string {
    return e.endLocal;
  }

  @FieldResolver(() => Date)
  startDateUtc(@Root() e: CalendarEventEntity): Date {
    return e.startUtc;
  }

  @FieldResolver(() => Date)
  endDateUtc(@Root() e: CalendarEventEntity): Date {
    return e.endUtc;
  }

  @FieldResolver(() => String)
  timezoneAbbr(@Root() e: CalendarEventEntity, @Ctx() ctx: RequestContext): string {
    return timezoneAbbr(e.timezone || ctx.config.calendarTimezone, e.startUtc);
  }

  @FieldResolver(() => Boolean, { nullable: true })
  allDay(@Root() e: CalendarEventEntity, @Ctx() ctx: RequestContext): boolean | null {
    return eventMasked(ctx, e) ? null : e.allDay;
  }

  @FieldResolver(() => String)
  cost(@Root() e: CalendarEventEntity, @Ctx() ctx: RequestContext): string {
    if (eventMasked(ctx, e)) return '';
    const free = catalogMessage('Free', [], ctxOf(ctx, e).language) ?? 'Free';
    return formatCost({ values: e.costValues ?? [], currencySymbol: e.currencySymbol, currencyPosition: e.currencyPosition as never, text: e.cost }, { free });
  }

  @FieldResolver(() => String, { nullable: true })
  costMin(@Root() e: CalendarEventEntity, @Ctx() ctx: RequestContext): string | null {
    const v = eventMasked(ctx, e) ? [] : (e.costValues ?? []);
    return v.length ? v[0] : null;
  }

  @FieldResolver(() => String, { nullable: true })
  costMax(@Root() e: CalendarEventEntity, @Ctx() ctx: RequestContext): string | null {
    const v = eventMasked(ctx, e) ? [] : (e.costValues ?? []);
    return v.length ? v[v.length - 1] : null;
  }

  @FieldResolver(() => String)
  currencySymbol(@Root() e: CalendarEventEntity, @Ctx() ctx: RequestContext): string {
    return eventMasked(ctx, e) ? '' : e.currencySymbol;
  }

  @FieldResolver(() => String)
  currencyCode(@Root() e: CalendarEventEntity, @Ctx() ctx: RequestContext): string {
    return eventMasked(ctx, e) ? '' : e.currencyCode;
  }

  @FieldResolver(() => String)
  currencyPosition(@Root() e: CalendarEventEntity, @Ctx() ctx: RequestContext): string {
    return eventMasked(ctx, e) ? '' : e.currencyPosition;
  }

  @FieldResolver(() => String)
  website(@Root() e: CalendarEventEntity, @Ctx() ctx: RequestContext): string {
    return eventMasked(ctx, e) ? '' : escHtml(e.website ?? permalink(wireContext(ctx), 'event', e.slug));
  }

  @FieldResolver(() => Boolean, { nullable: true })
  showMap(@Root() e: CalendarEventEntity, @Ctx() ctx: RequestContext): boolean | null {
    return eventMasked(ctx, e) ? null : e.showMap;
  }

  @FieldResolver(() => Boolean, { nullable: true })
  showMapLink(@Root() e: CalendarEventEntity, @Ctx() ctx: RequestContext): boolean | null {
    return eventMasked(ctx, e) ? null : e.showMapLink;
  }

  @FieldResolver(() => Boolean, { nullable: true })
  hideFromListings(@Root() e: CalendarEventEntity, @Ctx() ctx: RequestContext): boolean | null {
    return eventMasked(ctx, e) ? null : e.hideFromListings;
  }

  @FieldResolver(() => Boolean, { nullable: true })
  sticky(@Root() e: CalendarEventEntity, @Ctx() ctx: RequestContext): boolean | null {
    return eventMasked(ctx, e) ? null : e.sticky;
  }

  @FieldResolver(() => Boolean, { nullable: true })
  featured(@Root() e: CalendarEventEntity, @Ctx() ctx: RequestContext): boolean | null {
    return eventMasked(ctx, e) ? null : e.featured;
  }

  @FieldResolver(() => String)
  url(@Root() e: CalendarEventEntity, @Ctx() ctx: RequestContext): string {
    return permalink(wireContext(ctx), 'event', e.slug);
  }

  @FieldResolver(() => String, { nullable: true })
  image(@Root() e: CalendarEventEntity, @Ctx() ctx: RequestContext): string | null {
    return eventMasked(ctx, e) ? null : e.image;
  }

  @FieldResolver(() => Boolean)
  masked(@Root() e: CalendarEventEntity, @Ctx() ctx: RequestContext): boolean {
    return eventMasked(ctx, e);
  }

  @FieldResolver(() => User, { nullable: true, description: 'The author (null when none).' })
  author(@Root() e: CalendarEventEntity, @Ctx() ctx: RequestContext): Promise<AccountEntity | null> | null {
    return e.authorId == null ? null : ctx.loaders.accountById.load(e.authorId);
  }

  @FieldResolver(() => Venue, { nullable: true, description: 'The first venue (null when none or masked).' })
  venue(@Root() e: CalendarEventEntity, @Ctx() ctx: RequestContext): CalendarVenueEntity | null | Promise<CalendarVenueEntity | null> {
    return eventMasked(ctx, e) ? null : withRelations(ctx, e, (r) => r.venues[0] ?? null);
  }

  @FieldResolver(() => [Venue])
  venues(@Root() e: CalendarEventEntity, @Ctx() ctx: RequestContext): CalendarVenueEntity[] | Promise<CalendarVenueEntity[]> {
    return eventMasked(ctx, e) ? [] : withRelations(ctx, e, (r) => r.venues);
  }

  @FieldResolver(() => [Organizer])
  organizers(@Root() e: CalendarEventEntity, @Ctx() ctx: RequestContext): CalendarOrganizerEntity[] | Promise<CalendarOrganizerEntity[]> {
    return eventMasked(ctx, e) ? [] : withRelations(ctx, e, (r) => r.organizers);
  }

  @FieldResolver(() => [EventCategory])
  categories(@Root() e: CalendarEventEntity, @Ctx() ctx: RequestContext): CalendarTermEntity[] | Promise<CalendarTermEntity[]> {
    return eventMasked(ctx, e) ? [] : withRelations(ctx, e, (r) => r.categories);
  }

  @FieldResolver(() => [EventTag])
  tags(@Root() e: CalendarEventEntity, @Ctx() ctx: RequestContext): CalendarTermEntity[] | Promise<CalendarTermEntity[]> {
    return eventMasked(ctx, e) ? [] : withRelations(ctx, e, (r) => r.tags);
  }
}
