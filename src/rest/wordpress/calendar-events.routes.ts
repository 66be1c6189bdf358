/**
 * /calendar/events/v1/events: route rows (The Events Calendar's REST shape). Thin: arguments declared once
 * (checked before the service runs, documented in the index and /doc), the service call, the presenter.
 */
import type { CalendarEventEntity } from '../../../entities/calendar';
import type { RequestContext } from '../../context';
import { parseStrictDates } from '../../services/calendar/list-window';
import { parseWhen } from '../../services/calendar/strtotime';
import type { EventListQuery, EventListResult } from '../../services/calendar/event-list';
import type { EventWrite } from '../../services/calendar/events.service';
import { jsonArrayOfTexts } from '../json-body';
import type { RestResult, RestRoute } from '../route-table';
import { memosOf } from '../text-memo';
import { wpJsonEncode } from './json';
import { LISTED_EVENT_TEXT, presentEvent } from './calendar-events.presenters';
import { CALENDAR_REST_BASE, clampPerPage, postListResult, wireContext } from './calendar-wire';
import { ArgValues, PATH_ID, PATH_SLUG, wp, WpArgs, wpRoute } from './params';

const P = `${CALENDAR_REST_BASE}/events`;
const TAGS = ['events'];

/** A PHP time: any numeric value (a Unix timestamp) or what strtotime reads. */
const isTime = (v: string) => parseWhen(v, { tz: 'UTC', now: new Date() }) !== null;
const dateArg = (description: string, field: string) => wp.string({ description, field, validate: isTime });

export const EVENT_LIST_ARGS = {
  page: wp.integer({ description: 'The archive page to return', default: 1, minimum: 1 }),
  per_page: wp.integer({ description: 'The number of events to return on each page (at most 50)', default: 10, minimum: 1, field: 'perPage' }),
  start_date: dateArg('Events should start on the specified date', 'startDate'),
  end_date: dateArg('Events should end on the specified date', 'endDate'),
  starts_before: dateArg('Events should start before the specified date', 'startsBefore'),
  starts_after: dateArg('Events should start after the specified date', 'startsAfter'),
  ends_before: dateArg('Events should end before the specified date', 'endsBefore'),
  ends_after: dateArg('Events should end after the specified date', 'endsAfter'),
  strict_dates: wp.string({
    description: 'Whether the date filters start at the given times (true) or take whole days (false)',
    default: 'false',
    field: 'strictDates',
    validate: (v) => {
      try {
        parseStrictDates(v);
        return true;
      } catch {
        return false;
      }
    },
  }),
  search: wp.string({ description: 'Events that contain the specified string in the title, excerpt or description' }),
  categories: wp.list('string', { description: 'Events of these categories (ids or slugs); any one matches' }),
  tags: wp.list('string', { description: 'Events with these tags (ids or slugs); any one matches' }),
  venue: wp.list('integer', { description: 'Events at these venues (ids)' }),
  organizer: wp.list('integer', { description: 'Events of these organizers (ids)' }),
  featured: wp.boolean({ description: 'Featured events only (true) or not featured only (false)' }),
  status: wp.list('string', { description: 'Post statuses (anonymous callers: publish only)' }),
  geoloc: wp.boolean({ description: 'Only events whose venue is geocoded' }),
  geoloc_lat: wp.number({ description: 'Venue latitude; with geoloc_lng, events within 25 km', minimum: -90, maximum: 90, field: 'geolocLat' }),
  geoloc_lng: wp.number({ description: 'Venue longitude; with geoloc_lat', minimum: -180, maximum: 180, field: 'geolocLng' }),
  include: wp.list('integer', { description: 'Only these event ids; date filters are then ignored' }),
  post_parent: wp.integer({ description: 'Events whose parent is this event', minimum: 1, field: 'postParent' }),
  ticketed: wp.boolean({ description: 'Events with (true) or without (false) tickets' }),
} satisfies WpArgs;

/** Fields of an event write (create: title, start_date, end_date required). */
function eventFields(create: boolean) {
  return {
    title: wp.string({ description: 'The event title', required: create }),
    start_date: wp.string({ description: 'The event start date and time', required: create, field: 'startDate' }),
    end_date: wp.string({ description: 'The event end date and time', required: create, field: 'endDate' }),
    author: wp.integer({ description: 'The event author id', minimum: 1 }),
    date: wp.string({ description: 'The event publication date' }),
    date_utc: wp.string({ description: 'The event publication date (UTC)', field: 'dateUtc' }),
    description: wp.string({ description: 'The event description' }),
    slug: wp.string({ description: 'The event slug' }),
    excerpt: wp.string({ description: 'The event excerpt' }),
    status: wp.enum(['publish', 'future', 'draft', 'pending', 'private'] as const, { description: 'The event post status' }),
    timezone: wp.string({ description: 'The event timezone' }),
    all_day: wp.boolean({ description: 'Whether the event lasts the whole day', field: 'allDay' }),
    image: wp.string({ description: 'The event featured image URL' }),
    cost: wp.any({
      description: 'The event cost (text such as "$10 - $20", or a number)',
      validate: (v) => typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v) && Math.abs(v) < 1e12),
    }),
    website: wp.string({ description: 'The event website URL' }),
    show_map: wp.boolean({ description: 'Whether the event shows a map', field: 'showMap' }),
    show_map_link: wp.boolean({ description: 'Whether the event shows a map link', field: 'showMapLink' }),
    hide_from_listings: wp.boolean({ description: 'Whether the event is hidden from listings', field: 'hideFromListings' }),
    sticky: wp.boolean({ description: 'Whether the event is sticky in month view' }),
    featured: wp.boolean({ description: 'Whether the event is featured' }),
    categories: termRefs('Event categories (ids or names; unknown names are created)'),
    tags: termRefs('Event tags (ids or names; unknown names are created)'),
    venue: wp.any({ description: 'Venue: an id, {id}, venue fields, or a list of them' }),
    organizer: wp.any({ description: 'Organizers: ids, {id}, organizer fields, or a list of them' }),
  } satisfies WpArgs;
}

/** Term references of a write: a list (or CSV) of ids and names; JSON numbers and strings alike. */
function termRefs(description: string) {
  return wp.any({
    description,
    validate: (v) => {
      const items = Array.isArray(v) ? v : [v];
      return items.every((x) => (typeof x === 'number' && Number.isSafeInteger(x) && x > 0) || (typeof x === 'string' && x.length <= 200));
    },
  });
}

function termList(v: unknown): Array<number | string> | undefined {
  if (v === undefined || v === null) return undefined;
  const items = Array.isArray(v) ? v : String(v).split(',');
  return items.map((x) => (typeof x === 'number' ? x : String(x).trim())).filter((x) => x !== '');
}

const PASSWORD_ARG = { password: wp.string({ description: 'The event password' }) };

/** The /venues and /organizers field names a nested venue/organizer object uses, as the services name them. */
const LINKED_FIELDS: Record<string, string> = {
  venue: 'name',
  organizer: 'name',
  author: 'authorId',
  show_map: 'showMap',
  show_map_link: 'showMapLink',
  geo_lat: 'geoLat',
  geo_lng: 'geoLng',
};

/** A venue/organizer reference of an event write: an id (number or digits), `{id}`, or /venues-style fields. */
function linkedRef(x: unknown): number | Record<string, unknown> {
  if (typeof x === 'number') return x;
  if (typeof x === 'string') return /^\d{1,10}$/.test(x) ? Number(x) : -1; // not an id: answered invalid-linked-post-id
  if (x === null || typeof x !== 'object' || Array.isArray(x)) return -1;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(x as Record<string, unknown>)) out[Object.hasOwn(LINKED_FIELDS, k) ? LINKED_FIELDS[k] : k] = v;
  return out;
}

function listOf(v: unknown): Array<number | Record<string, unknown>> | undefined {
  if (v === undefined || v === null) return undefined;
  const items = Array.isArray(v) ? v : typeof v === 'string' ? v.split(/[\s,]+/).filter((s) => s !== '') : [v];
  return items.map(linkedRef);
}

function toWrite(a: ArgValues<ReturnType<typeof eventFields>>): EventWrite {
  const str = (v: unknown) => (v === undefined || v === null ? undefined : String(v));
  return {
    title: a.title,
    startDate: a.start_date,
    endDate: a.end_date,
    author: a.author,
    date: a.date,
    dateUtc: a.date_utc,
    description: a.description,
    slug: a.slug,
    excerpt: a.excerpt,
    status: a.status,
    timezone: a.timezone,
    allDay: a.all_day,
    image: a.image,
    cost: str(a.cost),
    website: str(a.website),
    showMap: a.show_map,
    showMapLink: a.show_map_link,
    hideFromListings: a.hide_from_listings,
    sticky: a.sticky,
    featured: a.featured,
    categories: termList(a.categories),
    tags: termList(a.tags),
    venue: listOf(a.venue),
    organizer: listOf(a.organizer),
  };
}

/** What presenting a batch of events needs besides each event: relations, term counts, masking, wire context. */
async function presentationInputs(ctx: RequestContext, events: CalendarEventEntity[]) {
  const relations = await ctx.services.calendarEvents.relations(ctx, events);
  // Term counts are stored on the terms the relations loaded (term-counts.ts): no statement of their own.
  const termCounts = new Map(relations.flatMap((r) => [...r.categories, ...r.tags].map((t) => [t.id, t.count] as const)));
  const maskedLinked = new Set<number>();
  for (const r of relations) {
    for (const v of r.venues) if (ctx.services.calendarVenues.mustMask(ctx.viewer, v)) maskedLinked.add(v.id);
    for (const o of r.organizers) if (ctx.services.calendarOrganizers.mustMask(ctx.viewer, o)) maskedLinked.add(o.id);
  }
  // One presentation per linked venue, organizer and term for the whole answer (JSON.stringify writes a shared
  // object once per place it appears; the objects are never changed after they are made).
  return { relations, termCounts, maskedLinked, wire: wireContext(ctx), shared: new Map<string, Record<string, unknown>>() };
}

/** Events as the wire shows them (relations and term counts loaded in batches). */
export async function presentEvents(ctx: RequestContext, events: CalendarEventEntity[], single = false): Promise<Record<string, unknown>[]> {
  const service = ctx.services.calendarEvents;
  const { relations, termCounts, maskedLinked, wire, shared } = await presentationInputs(ctx, events);
  return events.map((event, i) => presentEvent({ event, relations: relations[i], termCounts, masked: !single && service.masked(ctx, event), maskedLinked, single, shared }, wire));
}

/** The list answer: `{"events":[...], rest_url, ...}`, the events' texts memoized across answers, as ASCII bytes. */
async function eventListAnswer(ctx: RequestContext, r: EventListResult, q: EventListQuery): Promise<RestResult> {
  const events = r.items;
  const service = ctx.services.calendarEvents;
  const { relations, termCounts, maskedLinked, wire, shared } = await presentationInputs(ctx, events);
  const memo = memosOf(ctx).eventTexts;
  const texts = events.map((event, i) =>
    memo.textOf(ctx.db, LISTED_EVENT_TEXT, {
      presentation: { event, relations: relations[i], termCounts, masked: service.masked(ctx, event), maskedLinked, single: false, shared },
      wire,
    }),
  );
  const list = postListResult('events', [], wire, q.page, q.perPage, r.total, listArgsForUrl(q, r));
  const rest: Record<string, unknown> = { ...list.body };
  delete rest.events;
  const tail = wpJsonEncode(rest);
  const body = Buffer.concat([
    Buffer.from('{"events":', 'latin1'),
    memo.jsonArray(texts, jsonArrayOfTexts),
    Buffer.from(tail === '{}' ? '}' : `,${tail.slice(1)}`, 'latin1'),
  ]);
  return { status: list.status, headers: list.headers, body };
}

const single = async (result: CalendarEventEntity, ctx: RequestContext) => ({ body: (await presentEvents(ctx, [result], true))[0] });
const written = (status: number) => async (result: CalendarEventEntity, ctx: RequestContext) => ({ status, body: (await presentEvents(ctx, [result]))[0] });

function listArgsForUrl(q: EventListQuery, r: EventListResult): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  if (r.window.startsOnOrAfter) out.push(['start_date', r.window.startsOnOrAfter]);
  if (r.window.endsOnOrBefore) out.push(['end_date', r.window.endsOnOrBefore]);
  if (q.search) out.push(['search', q.search]);
  if (r.status) out.push(['status', r.status.join(',')]);
  if (q.include?.length) out.push(['include', q.include.join(',')]);
  if (r.window.startsBefore) out.push(['starts_before', r.window.startsBefore]);
  if (r.window.startsAfter) out.push(['starts_after', r.window.startsAfter]);
  if (r.window.endsBefore) out.push(['ends_before', r.window.endsBefore]);
  if (r.window.endsAfter) out.push(['ends_after', r.window.endsAfter]);
  if (q.venue?.length) out.push(['venue', q.venue.join(',')]);
  if (q.organizer?.length) out.push(['organizer', q.organizer.join(',')]);
  if (q.featured !== undefined) out.push(['featured', q.featured ? '1' : '']);
  return out;
}

export function eventListQuery(a: ArgValues<typeof EVENT_LIST_ARGS>): EventListQuery {
  return {
    page: a.page ?? 1,
    perPage: clampPerPage(a.per_page),
    startDate: a.start_date,
    endDate: a.end_date,
    startsBefore: a.starts_before,
    startsAfter: a.starts_after,
    endsBefore: a.ends_before,
    endsAfter: a.ends_after,
    strictDates: parseStrictDates(a.strict_dates ?? 'false'),
    search: a.search,
    categories: a.categories,
    tags: a.tags,
    venue: a.venue,
    organizer: a.organizer,
    featured: a.featured,
    status: a.status,
    geoloc: a.geoloc,
    geolocLat: a.geoloc_lat,
    geolocLng: a.geoloc_lng,
    include: a.include,
    postParent: a.post_parent,
    ticketed: a.ticketed,
  };
}

const byId = { id: PATH_ID };
const bySlug = { slug: PATH_SLUG };

function updateRows(): RestRoute<any, any>[] {
  const rows: RestRoute<any, any>[] = [];
  for (const method of ['POST', 'PUT', 'PATCH'] as const) {
    const suffix = method === 'POST' ? 'Post' : method === 'PUT' ? 'Put' : 'Patch';
    rows.push(
      wpRoute({
        method,
        path: `${P}/{id}`,
        operationId: `calendarUpdateEvent${suffix}`,
        summary: 'Update an event',
        tags: TAGS,
        args: { ...byId, ...PASSWORD_ARG, ...eventFields(false) },
        input: (a) => ({ id: a.id!, password: a.password, write: toWrite(a) }),
        handle: (ctx, i: { id: number; password?: string; write: EventWrite }) => ctx.services.calendarEvents.update(ctx, i.id, i.write, i.password),
        present: written(200),
      }),
      wpRoute({
        method,
        path: `${P}/by-slug/{slug}`,
        operationId: `calendarUpdateEventBySlug${suffix}`,
        summary: 'Update an event by slug',
        tags: TAGS,
        args: { ...bySlug, ...eventFields(false) },
        input: (a) => ({ slug: a.slug!, write: toWrite({ ...a, slug: undefined }) }),
        handle: async (ctx, i: { slug: string; write: EventWrite }) =>
          ctx.services.calendarEvents.update(ctx, await ctx.services.calendarEvents.idBySlug(ctx, i.slug), i.write),
        present: written(200),
      }),
    );
  }
  return rows;
}

export const CALENDAR_EVENT_ROUTES: RestRoute<any, any>[] = [
  wpRoute({
    method: 'GET',
    path: P,
    operationId: 'calendarListEvents',
    summary: 'List events',
    tags: TAGS,
    args: EVENT_LIST_ARGS,
    input: (a) => eventListQuery(a),
    handle: (ctx, q: EventListQuery) => ctx.services.calendarEvents.list(ctx, q),
    present: (r: EventListResult, ctx, _req, q: EventListQuery) => eventListAnswer(ctx, r, q),
  }),
  wpRoute({
    method: 'POST',
    path: P,
    operationId: 'calendarCreateEvent',
    summary: 'Create an event',
    tags: TAGS,
    // On create, `password` is the new event's post password (on reads, updates and deletes it is the password
    // that opens a protected event).
    args: { ...eventFields(true), password: wp.string({ description: 'The event password (protects the event)' }) },
    input: (a) => ({ ...toWrite(a), password: a.password }),
    handle: (ctx, w: EventWrite) => ctx.services.calendarEvents.create(ctx, w),
    present: written(201),
  }),
  wpRoute({
    method: 'GET',
    path: `${P}/{id}`,
    operationId: 'calendarGetEvent',
    summary: 'Get an event',
    tags: TAGS,
    args: { ...byId, ...PASSWORD_ARG },
    input: (a) => ({ id: a.id!, password: a.password }),
    handle: (ctx, i: { id: number; password?: string }) => ctx.services.calendarEvents.get(ctx, i.id, i.password),
    present: single,
  }),
  wpRoute({
    method: 'DELETE',
    path: `${P}/{id}`,
    operationId: 'calendarDeleteEvent',
    summary: 'Move an event to the trash',
    tags: TAGS,
    args: { ...byId, ...PASSWORD_ARG },
    input: (a) => a.id!,
    handle: (ctx, id: number) => ctx.services.calendarEvents.trash(ctx, id),
    present: written(200),
  }),
  wpRoute({
    method: 'GET',
    path: `${P}/by-slug/{slug}`,
    operationId: 'calendarGetEventBySlug',
    summary: 'Get an event by slug',
    tags: TAGS,
    args: { ...bySlug, ...PASSWORD_ARG },
    input: (a) => ({ slug: a.slug!, password: a.password }),
    handle: (ctx, i: { slug: string; password?: string }) => ctx.services.calendarEvents.getBySlug(ctx, i.slug, i.password),
    present: single,
  }),
  wpRoute({
    method: 'DELETE',
    path: `${P}/by-slug/{slug}`,
    operationId: 'calendarDeleteEventBySlug',
    summary: 'Move an event to the trash by slug',
    tags: TAGS,
    args: bySlug,
    input: (a) => a.slug!,
    handle: async (ctx, slug: string) => ctx.services.calendarEvents.trash(ctx, await ctx.services.calendarEvents.idBySlug(ctx, slug)),
    present: written(200),
  }),
  ...updateRows(),
];
