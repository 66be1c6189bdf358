/**
 * The calendar's lists as connections: the connection types, the `events` filters mapped onto the services' list
 * query, and the event and term pages the query, venue and organizer resolvers answer.
 */
import type { GraphQLResolveInfo } from 'graphql';
import { CalendarEventEntity, CalendarTermEntity } from '../../entities/calendar';
import type { CalendarTaxonomy } from '../../entities/calendar';
import type { RequestContext } from '../../src/context';
import type { EventListQuery } from '../../src/services/calendar/event-list';
import type { TermView } from '../../src/services/calendar/terms.service';
import { opt } from '../common/args';
import { Connection, ConnectionShape } from '../common/connection';
import { connectionSelection } from '../common/lookahead';
import { CalendarPageArgs, Event, EventCategory, EventsWhere, EventTag, EventTermsWhere, Organizer, Venue } from './calendar.type';
import { eventMasked, contextIn, offsetConnection, primeRelations, readIn } from './calendar.support';

export const EventConnection = Connection(Event, 'Event');
export const VenueConnection = Connection(Venue, 'Venue');
export const OrganizerConnection = Connection(Organizer, 'Organizer');
export const EventCategoryConnection = Connection(EventCategory, 'EventCategory');
export const EventTagConnection = Connection(EventTag, 'EventTag');

function eventListQuery(where: EventsWhere | null | undefined, page: number, perPage: number): EventListQuery {
  const w = where ?? ({} as EventsWhere);
  return {
    page,
    perPage,
    startDate: opt(w.startDate),
    endDate: opt(w.endDate),
    startsAfter: opt(w.startsAfter),
    startsBefore: opt(w.startsBefore),
    endsAfter: opt(w.endsAfter),
    endsBefore: opt(w.endsBefore),
    strictDates: opt(w.strictDates),
    search: opt(w.search),
    categories: opt(w.categories),
    tags: opt(w.tags),
    venue: opt(w.venues),
    organizer: opt(w.organizers),
    featured: opt(w.featured),
    status: opt(w.status),
    geolocLat: w.geo ? w.geo.lat : undefined,
    geolocLng: w.geo ? w.geo.lng : undefined,
    radiusKm: w.geo ? opt(w.geo.radiusKm) : undefined,
  };
}

/** Event fields whose values come from `calendarEvents.relations`. */
const RELATION_FIELDS = ['venue', 'venues', 'organizers', 'categories', 'tags'];

/** A page of events as a connection; relations primed in one batch when the selection asks for them. */
export async function eventConnection(
  ctx: RequestContext,
  args: CalendarPageArgs,
  where: EventsWhere | null | undefined,
  info: GraphQLResolveInfo,
  extra: Partial<EventListQuery> = {},
): Promise<ConnectionShape<CalendarEventEntity>> {
  const c = contextIn(ctx, args.language);
  const wanted = connectionSelection(info).node;
  const withLinks = RELATION_FIELDS.some((f) => wanted.has(f));
  const conn = await offsetConnection(args, async (page, perPage) => {
    // The page's links are read with it only when a relation field is asked for.
    const r = await c.services.calendarEvents.list(c, { ...eventListQuery(where, page, perPage), ...extra, withLinks });
    return { items: readIn(c, r.items), total: r.total };
  });
  // Loaded before the page is answered, so every relation field of every event answers without a promise.
  if (withLinks) await primeRelations(c, conn.nodes.filter((e) => !eventMasked(c, e)));
  return conn;
}

/** Term views as entities (each carries its stored count). */
export function termEntities(ctx: RequestContext, views: TermView[]): CalendarTermEntity[] {
  return readIn(ctx, views.map((v) => v.term));
}

export async function termConnection(ctx: RequestContext, taxonomy: CalendarTaxonomy, args: CalendarPageArgs, where: EventTermsWhere | null | undefined) {
  const c = contextIn(ctx, args.language);
  const w = where ?? ({} as EventTermsWhere);
  return offsetConnection(args, async (page, perPage) => {
    const r = await c.services.calendarTerms.list(c, taxonomy, {
      page,
      perPage,
      search: opt(w.search),
      hideEmpty: w.hideEmpty ?? false,
      parent: opt(w.parent),
      post: opt(w.event),
      slug: opt(w.slugs),
      orderby: 'name',
      order: 'asc',
    });
    return { items: termEntities(c, r.items), total: r.total };
  });
}
