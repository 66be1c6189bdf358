/**
 * The events calendar in the graph (issue 8, ql-events model): events with the GET /events filters, venues,
 * organizers, categories and tags, node(id:) for each, and the writes. Thin: args -> the calendar services (the
 * REST routes' own; access and rules live there) -> entities. Relations go through `calendarEvents.relations`
 * (primed once per page when the selection asks for them) and the request's DataLoaders.
 */
import type { GraphQLResolveInfo } from 'graphql';
import { Arg, Args, Ctx, FieldResolver, ID, Info, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import { AccountEntity, CalendarEventEntity, CalendarOrganizerEntity, CalendarTermEntity, CalendarVenueEntity } from '../../entities';
import type { CalendarLanguage, CalendarTaxonomy } from '../../entities';
import type { RequestContext } from '../../src/context';
import { AppError, ValidationError } from '../../src/errors/app-error';
import { CALENDAR_CODES } from '../../src/services/calendar/error-codes';
import { permalink, wireContext } from '../../src/rest/wordpress/calendar-wire';
import { catalogMessage } from '../../src/rest/wordpress/messages';
import { formatCost } from '../../src/services/calendar/cost';
import { timezoneAbbr } from '../../src/services/calendar/dates';
import type { EventListQuery } from '../../src/services/calendar/event-list';
import type { EventWrite } from '../../src/services/calendar/events.service';
import type { CalendarOrganizerInput } from '../../src/services/calendar/organizers.service';
import type { TermView } from '../../src/services/calendar/terms.service';
import { escHtml, renderContent, renderTitle } from '../../src/services/calendar/text';
import type { CalendarVenueInput } from '../../src/services/calendar/venues.service';
import { loadAll } from '../../src/loaders';
import { Connection, ConnectionShape } from '../common/connection';
import { toGlobalId } from '../common/global-id';
import { connectionSelection } from '../common/lookahead';
import { registerNodeType } from '../common/node';
import { User } from '../identity/identity.type';
import {
  CalendarLanguageEnum,
  CalendarPageArgs,
  CalendarTranslationInput,
  Event,
  EventCategory,
  EventInput,
  EventsOrder,
  EventsWhere,
  EventTag,
  EventTermInput,
  EventTermsWhere,
  GeoPoint,
  LinkedPostsWhere,
  Organizer,
  OrganizerInput,
  Venue,
  VenueInput,
} from './calendar.type';
import {
  ctxOf,
  databaseIdOf,
  eventMasked,
  inLanguage,
  offsetConnection,
  primeRelations,
  readIn,
  withRelations,
  unlock,
} from './calendar.support';

const EventConnection = Connection(Event, 'Event');
const VenueConnection = Connection(Venue, 'Venue');
const OrganizerConnection = Connection(Organizer, 'Organizer');
const EventCategoryConnection = Connection(EventCategory, 'EventCategory');
const EventTagConnection = Connection(EventTag, 'EventTag');

// ------------------------------------------------------------------ argument mapping

const opt = <T>(v: T | null | undefined): T | undefined => (v === null ? undefined : v);

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
async function eventConnection(
  ctx: RequestContext,
  args: CalendarPageArgs,
  where: EventsWhere | null | undefined,
  info: GraphQLResolveInfo,
  extra: Partial<EventListQuery> = {},
): Promise<ConnectionShape<CalendarEventEntity>> {
  const c = inLanguage(ctx, args.language);
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

function eventWrite(input: EventInput): EventWrite {
  const w: EventWrite = {};
  const copy = ['title', 'startDate', 'endDate', 'description', 'excerpt', 'slug', 'status', 'timezone', 'allDay', 'cost', 'showMap', 'showMapLink', 'hideFromListings', 'sticky', 'featured', 'password'] as const;
  for (const k of copy) if (input[k] !== undefined && input[k] !== null) (w as Record<string, unknown>)[k] = input[k];
  if (input.image !== undefined) w.image = input.image;
  if (input.website !== undefined) w.website = input.website;
  if (input.categories != null) w.categories = input.categories;
  if (input.tags != null) w.tags = input.tags;
  if (input.venues != null) w.venue = input.venues;
  if (input.organizers != null) w.organizer = input.organizers;
  if (input.authorId != null) w.author = input.authorId;
  return w;
}

function venueWrite(input: VenueInput): CalendarVenueInput {
  const w: CalendarVenueInput = {};
  const copy = ['name', 'description', 'excerpt', 'slug', 'status', 'address', 'city', 'country', 'province', 'state', 'zip', 'phone', 'website', 'showMap', 'showMapLink'] as const;
  for (const k of copy) if (input[k] !== undefined && input[k] !== null) (w as Record<string, unknown>)[k] = input[k];
  if (input.stateProvince != null) w.stateprovince = input.stateProvince;
  if (input.image !== undefined) w.image = input.image;
  if (input.lat !== undefined) w.geoLat = input.lat;
  if (input.lng !== undefined) w.geoLng = input.lng;
  return w;
}

function organizerWrite(input: OrganizerInput): CalendarOrganizerInput {
  const w: CalendarOrganizerInput = {};
  const copy = ['name', 'description', 'excerpt', 'slug', 'status', 'phone', 'website', 'email'] as const;
  for (const k of copy) if (input[k] !== undefined && input[k] !== null) (w as Record<string, unknown>)[k] = input[k];
  if (input.image !== undefined) w.image = input.image;
  return w;
}

function translation(input: CalendarTranslationInput): { title?: string; description?: string; excerpt?: string; slug?: string } {
  const out: { title?: string; description?: string; excerpt?: string; slug?: string } = {};
  for (const k of ['title', 'description', 'excerpt', 'slug'] as const) if (input[k] != null) out[k] = input[k]!;
  return out;
}

/** null for "missing or not visible" answers of node(id:) (the services' 4xx errors), never data. */
async function orNull<T>(p: Promise<T>): Promise<T | null> {
  try {
    return await p;
  } catch (e) {
    if (e instanceof AppError) return null;
    throw e;
  }
}

// ------------------------------------------------------------------ nodes

registerNodeType({
  typeName: 'Event',
  idKind: 'int4',
  isTypeOf: (v) => v instanceof CalendarEventEntity,
  load: (ctx, id) => orNull(ctx.services.calendarEvents.get(ctx, id)),
});
registerNodeType({
  typeName: 'Venue',
  idKind: 'int4',
  isTypeOf: (v) => v instanceof CalendarVenueEntity,
  load: (ctx, id) => orNull(ctx.services.calendarVenues.get(ctx, id)),
});
registerNodeType({
  typeName: 'Organizer',
  idKind: 'int4',
  isTypeOf: (v) => v instanceof CalendarOrganizerEntity,
  load: (ctx, id) => orNull(ctx.services.calendarOrganizers.get(ctx, id)),
});
registerNodeType({
  typeName: 'EventCategory',
  idKind: 'int4',
  isTypeOf: (v) => v instanceof CalendarTermEntity && v.taxonomy === 'category',
  load: async (ctx, id) => (await orNull(ctx.services.calendarTerms.get(ctx, 'category', id)))?.term ?? null,
});
registerNodeType({
  typeName: 'EventTag',
  idKind: 'int4',
  isTypeOf: (v) => v instanceof CalendarTermEntity && v.taxonomy === 'tag',
  load: async (ctx, id) => (await orNull(ctx.services.calendarTerms.get(ctx, 'tag', id)))?.term ?? null,
});

// ------------------------------------------------------------------ event

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

// ------------------------------------------------------------------ venue and organizer

type Linked = CalendarVenueEntity | CalendarOrganizerEntity;

function linkedMasked(ctx: RequestContext, p: Linked): boolean {
  return p instanceof CalendarVenueEntity ? ctx.services.calendarVenues.mustMask(ctx.viewer, p) : ctx.services.calendarOrganizers.mustMask(ctx.viewer, p);
}

function linkedText(ctx: RequestContext, p: Linked, value: string): string {
  return linkedMasked(ctx, p) ? '' : value;
}

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

// ------------------------------------------------------------------ terms

async function termsById(ctx: RequestContext, ids: number[]): Promise<CalendarTermEntity[]> {
  const found = (await loadAll(ctx.loaders.calendarTermById, ids)).filter((t): t is CalendarTermEntity => t !== null);
  return readIn(ctx, await ctx.services.calendarTerms.translated(ctx, found, ctx.language));
}

/** Term views as entities (each carries its stored count). */
function termEntities(ctx: RequestContext, views: TermView[]): CalendarTermEntity[] {
  return readIn(ctx, views.map((v) => v.term));
}

async function termConnection(ctx: RequestContext, taxonomy: CalendarTaxonomy, args: CalendarPageArgs, where: EventTermsWhere | null | undefined) {
  const c = inLanguage(ctx, args.language);
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

  @FieldResolver(() => Int, { description: 'Published events using the term (stored on the term, kept by every event write).' })
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

  @FieldResolver(() => Int, { description: 'Published events using the term (stored on the term, kept by every event write).' })
  count(@Root() t: CalendarTermEntity): number {
    return t.count;
  }
}

// ------------------------------------------------------------------ queries

@Resolver()
export class CalendarQueryResolver {
  @Query(() => EventConnection, {
    description: 'Events with the GET /events filters and rules (default window today … +24 months, start date ascending; anonymous viewers see published events only).',
  })
  events(
    @Arg('where', () => EventsWhere, { nullable: true }) where: EventsWhere | null,
    @Arg('orderBy', () => EventsOrder, { nullable: true }) orderBy: EventsOrder | null,
    @Args() args: CalendarPageArgs,
    @Ctx() ctx: RequestContext,
    @Info() info: GraphQLResolveInfo,
  ): Promise<ConnectionShape<CalendarEventEntity>> {
    return eventConnection(ctx, args, where, info, orderBy ? { orderBy: { field: orderBy.field, direction: orderBy.direction } } : {});
  }

  @Query(() => Event, {
    nullable: true,
    description: 'One event by id (global or database id) or slug. A protected event needs its `password` unless the viewer may edit it.',
  })
  async event(
    @Arg('id', () => ID, { nullable: true }) id: string | null,
    @Arg('slug', () => String, { nullable: true }) slug: string | null,
    @Arg('password', () => String, { nullable: true }) password: string | null,
    @Arg('language', () => CalendarLanguageEnum, { nullable: true }) language: CalendarLanguage | null,
    @Ctx() ctx: RequestContext,
  ): Promise<CalendarEventEntity> {
    const c = inLanguage(ctx, language);
    const svc = c.services.calendarEvents;
    exactlyOne(id, slug);
    const e = id != null ? await svc.get(c, databaseIdOf('Event', id), password ?? undefined) : await svc.getBySlug(c, slug!, password ?? undefined);
    // Read with its password (or by someone who may edit it): shown whole.
    return readIn(c, unlock(e));
  }

  @Query(() => VenueConnection, { description: 'Venues, newest first (GET /venues).' })
  venues(
    @Arg('where', () => LinkedPostsWhere, { nullable: true }) where: LinkedPostsWhere | null,
    @Args() args: CalendarPageArgs,
    @Ctx() ctx: RequestContext,
  ): Promise<ConnectionShape<CalendarVenueEntity>> {
    const c = inLanguage(ctx, args.language);
    return offsetConnection(args, async (page, perPage) => {
      const r = await c.services.calendarVenues.list(c, { page, perPage, ...linkedWhere(where) });
      return { items: readIn(c, r.items), total: r.total };
    });
  }

  @Query(() => Venue, { nullable: true, description: 'One venue by id (global or database id) or slug.' })
  async venue(
    @Arg('id', () => ID, { nullable: true }) id: string | null,
    @Arg('slug', () => String, { nullable: true }) slug: string | null,
    @Arg('language', () => CalendarLanguageEnum, { nullable: true }) language: CalendarLanguage | null,
    @Ctx() ctx: RequestContext,
  ): Promise<CalendarVenueEntity> {
    const c = inLanguage(ctx, language);
    const svc = c.services.calendarVenues;
    exactlyOne(id, slug);
    return readIn(c, id != null ? await svc.get(c, databaseIdOf('Venue', id)) : await svc.getBySlug(c, slug!));
  }

  @Query(() => OrganizerConnection, { description: 'Organizers, newest first (GET /organizers).' })
  organizers(
    @Arg('where', () => LinkedPostsWhere, { nullable: true }) where: LinkedPostsWhere | null,
    @Args() args: CalendarPageArgs,
    @Ctx() ctx: RequestContext,
  ): Promise<ConnectionShape<CalendarOrganizerEntity>> {
    const c = inLanguage(ctx, args.language);
    return offsetConnection(args, async (page, perPage) => {
      const r = await c.services.calendarOrganizers.list(c, { page, perPage, ...linkedWhere(where) });
      return { items: readIn(c, r.items), total: r.total };
    });
  }

  @Query(() => Organizer, { nullable: true, description: 'One organizer by id (global or database id) or slug.' })
  async organizer(
    @Arg('id', () => ID, { nullable: true }) id: string | null,
    @Arg('slug', () => String, { nullable: true }) slug: string | null,
    @Arg('language', () => CalendarLanguageEnum, { nullable: true }) language: CalendarLanguage | null,
    @Ctx() ctx: RequestContext,
  ): Promise<CalendarOrganizerEntity> {
    const c = inLanguage(ctx, language);
    const svc = c.services.calendarOrganizers;
    exactlyOne(id, slug);
    return readIn(c, id != null ? await svc.get(c, databaseIdOf('Organizer', id)) : await svc.getBySlug(c, slug!));
  }

  @Query(() => EventCategoryConnection, { description: 'Event categories by name (every category unless hideEmpty).' })
  eventCategories(
    @Arg('where', () => EventTermsWhere, { nullable: true }) where: EventTermsWhere | null,
    @Args() args: CalendarPageArgs,
    @Ctx() ctx: RequestContext,
  ): Promise<ConnectionShape<CalendarTermEntity>> {
    return termConnection(ctx, 'category', args, where);
  }

  @Query(() => EventTagConnection, { description: 'Event tags by name (every tag unless hideEmpty).' })
  eventTags(
    @Arg('where', () => EventTermsWhere, { nullable: true }) where: EventTermsWhere | null,
    @Args() args: CalendarPageArgs,
    @Ctx() ctx: RequestContext,
  ): Promise<ConnectionShape<CalendarTermEntity>> {
    return termConnection(ctx, 'tag', args, where);
  }

  @Query(() => EventCategory, { nullable: true, description: 'One category by id (global or database id).' })
  async eventCategory(
    @Arg('id', () => ID) id: string,
    @Arg('language', () => CalendarLanguageEnum, { nullable: true }) language: CalendarLanguage | null,
    @Ctx() ctx: RequestContext,
  ): Promise<CalendarTermEntity> {
    const c = inLanguage(ctx, language);
    return termEntities(c, [await c.services.calendarTerms.get(c, 'category', databaseIdOf('EventCategory', id))])[0];
  }

  @Query(() => EventTag, { nullable: true, description: 'One tag by id (global or database id).' })
  async eventTag(
    @Arg('id', () => ID) id: string,
    @Arg('language', () => CalendarLanguageEnum, { nullable: true }) language: CalendarLanguage | null,
    @Ctx() ctx: RequestContext,
  ): Promise<CalendarTermEntity> {
    const c = inLanguage(ctx, language);
    return termEntities(c, [await c.services.calendarTerms.get(c, 'tag', databaseIdOf('EventTag', id))])[0];
  }
}

/** A single read names its post by exactly one of `id` and `slug`. */
function exactlyOne(id: string | null, slug: string | null): void {
  if ((id == null) === (slug == null)) {
    throw new ValidationError('Give exactly one of `id` and `slug`.', {
      domainCode: CALENDAR_CODES.INVALID_PARAM,
      fieldErrors: [{ field: 'id', code: 'invalid', message: 'Give exactly one of `id` and `slug`.' }],
    });
  }
}

function linkedWhere(where: LinkedPostsWhere | null | undefined) {
  const w = where ?? ({} as LinkedPostsWhere);
  return { search: opt(w.search), event: opt(w.event), hasEvents: opt(w.hasEvents), onlyWithUpcoming: opt(w.onlyWithUpcoming), status: opt(w.status) };
}

// ------------------------------------------------------------------ mutations

const languageArg = () => Arg('language', () => CalendarLanguageEnum, { nullable: true, description: 'Write into (and answer in) this language.' });

@Resolver()
export class CalendarMutationResolver {
  // ---- events

  @Mutation(() => Event, { description: 'Create an event (POST /events: required title, startDate, endDate; status scale-back for those who may not publish).' })
  async createEvent(@Arg('input', () => EventInput) input: EventInput, @languageArg() language: CalendarLanguage | null, @Ctx() ctx: RequestContext): Promise<CalendarEventEntity> {
    const c = inLanguage(ctx, language);
    return readIn(c, unlock(await c.services.calendarEvents.create(c, eventWrite(input))));
  }

  @Mutation(() => Event, { description: 'Update an event (only the fields given).' })
  async updateEvent(
    @Arg('id', () => ID) id: string,
    @Arg('input', () => EventInput) input: EventInput,
    @languageArg() language: CalendarLanguage | null,
    @Ctx() ctx: RequestContext,
  ): Promise<CalendarEventEntity> {
    const c = inLanguage(ctx, language);
    return readIn(c, unlock(await c.services.calendarEvents.update(c, databaseIdOf('Event', id), eventWrite(input))));
  }

  @Mutation(() => Event, { description: 'Move an event to the trash (a second delete is GONE: event-is-in-trash).' })
  async deleteEvent(@Arg('id', () => ID) id: string, @Ctx() ctx: RequestContext): Promise<CalendarEventEntity> {
    return readIn(ctx, unlock(await ctx.services.calendarEvents.trash(ctx, databaseIdOf('Event', id))));
  }

  @Mutation(() => Event, { description: 'Take an event out of the trash.' })
  async restoreEvent(@Arg('id', () => ID) id: string, @Ctx() ctx: RequestContext): Promise<CalendarEventEntity> {
    return readIn(ctx, unlock(await ctx.services.calendarEvents.restore(ctx, databaseIdOf('Event', id))));
  }

  @Mutation(() => Event, { description: 'Store the event\'s title, description, excerpt and slug in one language.' })
  async translateEvent(
    @Arg('id', () => ID) id: string,
    @Arg('language', () => CalendarLanguageEnum) language: CalendarLanguage,
    @Arg('input', () => CalendarTranslationInput) input: CalendarTranslationInput,
    @Ctx() ctx: RequestContext,
  ): Promise<CalendarEventEntity> {
    const c = inLanguage(ctx, language);
    return readIn(c, unlock(await ctx.services.calendarEvents.translate(ctx, databaseIdOf('Event', id), language, translation(input))));
  }

  // ---- venues

  @Mutation(() => Venue, { description: 'Create a venue (name required).' })
  async createVenue(@Arg('input', () => VenueInput) input: VenueInput, @languageArg() language: CalendarLanguage | null, @Ctx() ctx: RequestContext): Promise<CalendarVenueEntity> {
    const c = inLanguage(ctx, language);
    return readIn(c, await c.services.calendarVenues.create(c, venueWrite(input)));
  }

  @Mutation(() => Venue)
  async updateVenue(
    @Arg('id', () => ID) id: string,
    @Arg('input', () => VenueInput) input: VenueInput,
    @languageArg() language: CalendarLanguage | null,
    @Ctx() ctx: RequestContext,
  ): Promise<CalendarVenueEntity> {
    const c = inLanguage(ctx, language);
    return readIn(c, await c.services.calendarVenues.update(c, databaseIdOf('Venue', id), venueWrite(input)));
  }

  @Mutation(() => Venue, { description: 'Move a venue to the trash (a second delete is GONE).' })
  async deleteVenue(@Arg('id', () => ID) id: string, @Ctx() ctx: RequestContext): Promise<CalendarVenueEntity> {
    return readIn(ctx, await ctx.services.calendarVenues.delete(ctx, databaseIdOf('Venue', id)));
  }

  @Mutation(() => Venue)
  async restoreVenue(@Arg('id', () => ID) id: string, @Ctx() ctx: RequestContext): Promise<CalendarVenueEntity> {
    return readIn(ctx, await ctx.services.calendarVenues.restore(ctx, databaseIdOf('Venue', id)));
  }

  @Mutation(() => Venue, { description: 'Store the venue\'s name (`title`), description, excerpt and slug in one language.' })
  async translateVenue(
    @Arg('id', () => ID) id: string,
    @Arg('language', () => CalendarLanguageEnum) language: CalendarLanguage,
    @Arg('input', () => CalendarTranslationInput) input: CalendarTranslationInput,
    @Ctx() ctx: RequestContext,
  ): Promise<CalendarVenueEntity> {
    const c = inLanguage(ctx, language);
    const t = translation(input);
    return readIn(c, await c.services.calendarVenues.update(c, databaseIdOf('Venue', id), { name: t.title, description: t.description, excerpt: t.excerpt, slug: t.slug }));
  }

  // ---- organizers

  @Mutation(() => Organizer, { description: 'Create an organizer (name required).' })
  async createOrganizer(@Arg('input', () => OrganizerInput) input: OrganizerInput, @languageArg() language: CalendarLanguage | null, @Ctx() ctx: RequestContext): Promise<CalendarOrganizerEntity> {
    const c = inLanguage(ctx, language);
    return readIn(c, await c.services.calendarOrganizers.create(c, organizerWrite(input)));
  }

  @Mutation(() => Organizer)
  async updateOrganizer(
    @Arg('id', () => ID) id: string,
    @Arg('input', () => OrganizerInput) input: OrganizerInput,
    @languageArg() language: CalendarLanguage | null,
    @Ctx() ctx: RequestContext,
  ): Promise<CalendarOrganizerEntity> {
    const c = inLanguage(ctx, language);
    return readIn(c, await c.services.calendarOrganizers.update(c, databaseIdOf('Organizer', id), organizerWrite(input)));
  }

  @Mutation(() => Organizer, { description: 'Move an organizer to the trash (a second delete is GONE).' })
  async deleteOrganizer(@Arg('id', () => ID) id: string, @Ctx() ctx: RequestContext): Promise<CalendarOrganizerEntity> {
    return readIn(ctx, await ctx.services.calendarOrganizers.delete(ctx, databaseIdOf('Organizer', id)));
  }

  @Mutation(() => Organizer)
  async restoreOrganizer(@Arg('id', () => ID) id: string, @Ctx() ctx: RequestContext): Promise<CalendarOrganizerEntity> {
    return readIn(ctx, await ctx.services.calendarOrganizers.restore(ctx, databaseIdOf('Organizer', id)));
  }

  @Mutation(() => Organizer, { description: 'Store the organizer\'s name (`title`), description, excerpt and slug in one language.' })
  async translateOrganizer(
    @Arg('id', () => ID) id: string,
    @Arg('language', () => CalendarLanguageEnum) language: CalendarLanguage,
    @Arg('input', () => CalendarTranslationInput) input: CalendarTranslationInput,
    @Ctx() ctx: RequestContext,
  ): Promise<CalendarOrganizerEntity> {
    const c = inLanguage(ctx, language);
    const t = translation(input);
    return readIn(c, await c.services.calendarOrganizers.update(c, databaseIdOf('Organizer', id), { name: t.title, description: t.description, excerpt: t.excerpt, slug: t.slug }));
  }

  // ---- categories and tags

  @Mutation(() => EventCategory, { description: 'Create a category (name required; parent optional).' })
  createEventCategory(@Arg('input', () => EventTermInput) input: EventTermInput, @languageArg() language: CalendarLanguage | null, @Ctx() ctx: RequestContext): Promise<CalendarTermEntity> {
    return createTerm(ctx, 'category', input, language);
  }

  @Mutation(() => EventCategory)
  updateEventCategory(
    @Arg('id', () => ID) id: string,
    @Arg('input', () => EventTermInput) input: EventTermInput,
    @languageArg() language: CalendarLanguage | null,
    @Ctx() ctx: RequestContext,
  ): Promise<CalendarTermEntity> {
    return updateTerm(ctx, 'category', databaseIdOf('EventCategory', id), input, language);
  }

  @Mutation(() => EventCategory, { description: 'Delete a category for good (its children move up); answers the category as it was.' })
  deleteEventCategory(@Arg('id', () => ID) id: string, @Ctx() ctx: RequestContext): Promise<CalendarTermEntity> {
    return deleteTerm(ctx, 'category', databaseIdOf('EventCategory', id));
  }

  @Mutation(() => EventCategory, { description: 'Store the category\'s name (`title`), description and slug in one language.' })
  translateEventCategory(
    @Arg('id', () => ID) id: string,
    @Arg('language', () => CalendarLanguageEnum) language: CalendarLanguage,
    @Arg('input', () => CalendarTranslationInput) input: CalendarTranslationInput,
    @Ctx() ctx: RequestContext,
  ): Promise<CalendarTermEntity> {
    return translateTerm(ctx, 'category', databaseIdOf('EventCategory', id), language, input);
  }

  @Mutation(() => EventTag, { description: 'Create a tag (name required).' })
  createEventTag(@Arg('input', () => EventTermInput) input: EventTermInput, @languageArg() language: CalendarLanguage | null, @Ctx() ctx: RequestContext): Promise<CalendarTermEntity> {
    return createTerm(ctx, 'tag', input, language);
  }

  @Mutation(() => EventTag)
  updateEventTag(
    @Arg('id', () => ID) id: string,
    @Arg('input', () => EventTermInput) input: EventTermInput,
    @languageArg() language: CalendarLanguage | null,
    @Ctx() ctx: RequestContext,
  ): Promise<CalendarTermEntity> {
    return updateTerm(ctx, 'tag', databaseIdOf('EventTag', id), input, language);
  }

  @Mutation(() => EventTag, { description: 'Delete a tag for good; answers the tag as it was.' })
  deleteEventTag(@Arg('id', () => ID) id: string, @Ctx() ctx: RequestContext): Promise<CalendarTermEntity> {
    return deleteTerm(ctx, 'tag', databaseIdOf('EventTag', id));
  }

  @Mutation(() => EventTag, { description: 'Store the tag\'s name (`title`), description and slug in one language.' })
  translateEventTag(
    @Arg('id', () => ID) id: string,
    @Arg('language', () => CalendarLanguageEnum) language: CalendarLanguage,
    @Arg('input', () => CalendarTranslationInput) input: CalendarTranslationInput,
    @Ctx() ctx: RequestContext,
  ): Promise<CalendarTermEntity> {
    return translateTerm(ctx, 'tag', databaseIdOf('EventTag', id), language, input);
  }
}

function termPatch(input: EventTermInput): { name?: string; description?: string; slug?: string; parent?: number } {
  const out: { name?: string; description?: string; slug?: string; parent?: number } = {};
  for (const k of ['name', 'description', 'slug', 'parent'] as const) if (input[k] != null) (out as Record<string, unknown>)[k] = input[k];
  return out;
}

async function createTerm(ctx: RequestContext, taxonomy: CalendarTaxonomy, input: EventTermInput, language: CalendarLanguage | null): Promise<CalendarTermEntity> {
  const c = inLanguage(ctx, language);
  // A missing name is the service's own answer (empty_term_name).
  const view = await c.services.calendarTerms.create(c, taxonomy, { ...termPatch(input), name: input.name ?? '' });
  return termEntities(c, [view])[0];
}

async function updateTerm(ctx: RequestContext, taxonomy: CalendarTaxonomy, id: number, input: EventTermInput, language: CalendarLanguage | null): Promise<CalendarTermEntity> {
  const c = inLanguage(ctx, language);
  return termEntities(c, [await c.services.calendarTerms.update(c, taxonomy, id, termPatch(input))])[0];
}

async function deleteTerm(ctx: RequestContext, taxonomy: CalendarTaxonomy, id: number): Promise<CalendarTermEntity> {
  return termEntities(ctx, [await ctx.services.calendarTerms.delete(ctx, taxonomy, id)])[0];
}

async function translateTerm(ctx: RequestContext, taxonomy: CalendarTaxonomy, id: number, language: CalendarLanguage, input: CalendarTranslationInput): Promise<CalendarTermEntity> {
  const c = inLanguage(ctx, language);
  const t = translation(input);
  return termEntities(c, [await c.services.calendarTerms.update(c, taxonomy, id, { name: t.title, description: t.description, slug: t.slug })])[0];
}

export const CALENDAR_RESOLVERS = [
  EventResolver,
  VenueResolver,
  OrganizerResolver,
  EventCategoryResolver,
  EventTagResolver,
  CalendarQueryResolver,
  CalendarMutationResolver,
] as const;
