/**
 * /calendar/events/v1/venues and /organizers: route rows (The Events Calendar's REST shape, reference §0, §1.2,
 * §1.3, §2, §4). Thin: arguments declared once, the linked-post service call, the presenter. Protected posts the
 * viewer may not edit are masked everywhere (lists, single reads and writes: reference §1.5).
 */
import type { CalendarOrganizerEntity, CalendarVenueEntity } from '../../../entities/calendar';
import type { RequestContext } from '../../context';
import type { LinkedEntity, LinkedPostList, LinkedPostListQuery, LinkedPostService } from '../../services/calendar/linked-posts';
import type { CalendarOrganizerInput } from '../../services/calendar/organizers.service';
import type { CalendarVenueInput } from '../../services/calendar/venues.service';
import type { RestRoute } from '../route-table';
import { presentOrganizer, presentVenue, PresentOptions, WireContext } from './calendar-venues.presenters';
import { CALENDAR_REST_BASE, clampPerPage, postListResult, wireContext } from './calendar-wire';
import { ArgValues, PATH_ID, PATH_SLUG, wp, WpArgs, wpRoute } from './params';

type Kind = 'venue' | 'organizer';
const COLLECTION = { venue: 'venues', organizer: 'organizers' } as const;

/** List arguments of /venues and /organizers (spec: page, per_page, search, event, has_events, only_with_upcoming, status). */
function listArgs(kind: Kind) {
  return {
    page: wp.integer({ description: 'The archive page to return', default: 1, minimum: 1 }),
    per_page: wp.integer({ description: `The number of ${COLLECTION[kind]} to return on each page (at most 50)`, default: 10, minimum: 1, field: 'perPage' }),
    search: wp.string({ description: `${kind === 'venue' ? 'Venues' : 'Organizers'} that contain the specified string in the title, description or custom fields` }),
    event: wp.integer({ description: `${kind === 'venue' ? 'Venues' : 'Organizers'} linked to this event (id)`, minimum: 1 }),
    has_events: wp.boolean({ description: `${kind === 'venue' ? 'Venues' : 'Organizers'} with (true) or without (false) events`, field: 'hasEvents' }),
    only_with_upcoming: wp.boolean({
      description: `Only ${COLLECTION[kind]} linked to an event that has not ended`,
      default: false,
      field: 'onlyWithUpcoming',
    }),
    status: wp.list('string', { description: 'Post statuses (anonymous callers: publish only)' }),
  } satisfies WpArgs;
}

const STATUS = ['publish', 'future', 'draft', 'pending', 'private'] as const;

/** Fields both kinds write; `name` is the kind's own name field (`venue`, `organizer`). */
function commonFields(kind: Kind, create: boolean) {
  return {
    [kind]: wp.string({ description: `The ${kind} name`, required: create, field: 'name' }),
    author: wp.integer({ description: `The ${kind} author id`, minimum: 1, field: 'authorId' }),
    description: wp.string({ description: `The ${kind} description` }),
    excerpt: wp.string({ description: `The ${kind} excerpt` }),
    slug: wp.string({ description: `The ${kind} slug` }),
    status: wp.enum(STATUS, { description: `The ${kind} post status` }),
    image: wp.string({ description: `The ${kind} featured image URL ("" removes it)` }),
  } as WpArgs;
}

function venueFields(create: boolean) {
  return {
    ...commonFields('venue', create),
    address: wp.string({ description: 'The venue address' }),
    city: wp.string({ description: 'The venue city' }),
    country: wp.string({ description: 'The venue country' }),
    province: wp.string({ description: 'The venue province' }),
    state: wp.string({ description: 'The venue state' }),
    zip: wp.string({ description: 'The venue ZIP or postal code' }),
    phone: wp.string({ description: 'The venue phone number' }),
    stateprovince: wp.string({ description: 'The venue state or province' }),
    website: wp.string({ description: 'The venue website URL' }),
    show_map: wp.boolean({ description: 'Whether the venue shows a map', field: 'showMap' }),
    show_map_link: wp.boolean({ description: 'Whether the venue shows a map link', field: 'showMapLink' }),
    geo_lat: wp.number({ description: 'The venue latitude', minimum: -90, maximum: 90, field: 'geoLat' }),
    geo_lng: wp.number({ description: 'The venue longitude', minimum: -180, maximum: 180, field: 'geoLng' }),
  } satisfies WpArgs;
}

function organizerFields(create: boolean) {
  return {
    ...commonFields('organizer', create),
    phone: wp.string({ description: 'The organizer phone number' }),
    website: wp.string({ description: 'The organizer website URL' }),
    email: wp.string({ description: 'The organizer email address' }),
  } satisfies WpArgs;
}

/** Domain names of the service's field errors as the wire spells them (body members are not in `parameters`). */
function wireNames(kind: Kind): Record<string, string> {
  return { name: kind, authorId: 'author', showMap: 'show_map', showMapLink: 'show_map_link', geoLat: 'geo_lat', geoLng: 'geo_lng', perPage: 'per_page' };
}

function commonInput(kind: Kind, a: Record<string, unknown>) {
  return {
    name: a[kind] as string | undefined,
    authorId: a.author as number | undefined,
    description: a.description as string | undefined,
    excerpt: a.excerpt as string | undefined,
    slug: a.slug as string | undefined,
    status: a.status as string | undefined,
    image: a.image as string | undefined,
  };
}

function venueInput(a: ArgValues<ReturnType<typeof venueFields>>): CalendarVenueInput {
  return {
    ...commonInput('venue', a),
    address: a.address,
    city: a.city,
    country: a.country,
    province: a.province,
    state: a.state,
    zip: a.zip,
    phone: a.phone,
    stateprovince: a.stateprovince,
    website: a.website,
    showMap: a.show_map,
    showMapLink: a.show_map_link,
    geoLat: a.geo_lat,
    geoLng: a.geo_lng,
  };
}

function organizerInput(a: ArgValues<ReturnType<typeof organizerFields>>): CalendarOrganizerInput {
  return { ...commonInput('organizer', a), phone: a.phone, website: a.website, email: a.email };
}

/** Drops undefined members (a partial update changes only what was sent). */
function defined<T extends object>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
}

interface KindRows<E extends LinkedEntity, I> {
  kind: Kind;
  service(ctx: RequestContext): LinkedPostService<E, I & object>;
  present(entity: E, wire: WireContext, opts: PresentOptions): Record<string, unknown>;
  fields(create: boolean): WpArgs;
  toInput(a: Record<string, unknown>): I;
  tag: string;
}

function rowsOf<E extends LinkedEntity, I>(k: KindRows<E, I>): RestRoute<any, any>[] {
  const P = `${CALENDAR_REST_BASE}/${COLLECTION[k.kind]}`;
  const Cap = k.kind === 'venue' ? 'Venue' : 'Organizer';
  const TAGS = [k.tag];
  const names = wireNames(k.kind);
  const LIST_ARGS = listArgs(k.kind);
  const byId = { id: PATH_ID };
  const bySlug = { slug: PATH_SLUG };

  /** One post as the viewer may see it (masked when protected and not editable by the viewer). */
  const show = (ctx: RequestContext, e: E, single: boolean) => {
    const service = k.service(ctx);
    const view = k.present(e, wireContext(ctx), { single });
    return service.mustMask(ctx.viewer, e) ? service.masked(view) : view;
  };
  const single = async (e: E, ctx: RequestContext) => ({ body: show(ctx, e, true) });
  const written = (status: number) => async (e: E, ctx: RequestContext) => ({ status, body: show(ctx, e, false) });
  const idBySlug = (ctx: RequestContext, slug: string): Promise<number> => k.service(ctx).visibleIdBySlug(ctx, slug);

  const rows: RestRoute<any, any>[] = [
    wpRoute({
      method: 'GET',
      path: P,
      operationId: `calendarList${Cap}s`,
      summary: `List ${COLLECTION[k.kind]}`,
      tags: TAGS,
      args: LIST_ARGS,
      names,
      input: (a): LinkedPostListQuery => ({
        page: a.page ?? 1,
        perPage: clampPerPage(a.per_page),
        search: a.search,
        event: a.event,
        hasEvents: a.has_events,
        onlyWithUpcoming: a.only_with_upcoming,
        status: a.status,
      }),
      handle: (ctx, q: LinkedPostListQuery) => k.service(ctx).list(ctx, q),
      present: (r: LinkedPostList<E>, ctx, _req, q: LinkedPostListQuery) => {
        const args: Array<[string, string]> = [];
        if (q.search !== undefined) args.push(['search', q.search]);
        if (q.event !== undefined) args.push(['event', String(q.event)]);
        if (q.hasEvents !== undefined) args.push(['has_events', q.hasEvents ? '1' : '']);
        if (q.onlyWithUpcoming) args.push(['only_with_upcoming', '1']);
        if (q.status?.length) args.push(['status', q.status.join(',')]);
        const items = r.items.map((e) => show(ctx, e, false));
        return postListResult(COLLECTION[k.kind], items, wireContext(ctx), q.page, q.perPage, r.total, args);
      },
    }),
    wpRoute({
      method: 'POST',
      path: P,
      operationId: `calendarCreate${Cap}`,
      summary: `Create a ${k.kind}`,
      tags: TAGS,
      args: k.fields(true),
      names,
      input: (a) => defined(k.toInput(a) as object) as I,
      handle: (ctx, i: I) => k.service(ctx).create(ctx, i as I & object),
      present: written(201),
    }),
    wpRoute({
      method: 'GET',
      path: `${P}/{id}`,
      operationId: `calendarGet${Cap}`,
      summary: `Get a ${k.kind}`,
      tags: TAGS,
      args: byId,
      input: (a) => a.id!,
      handle: (ctx, id: number) => k.service(ctx).get(ctx, id),
      present: single,
    }),
    wpRoute({
      method: 'DELETE',
      path: `${P}/{id}`,
      operationId: `calendarDelete${Cap}`,
      summary: `Move a ${k.kind} to the trash`,
      tags: TAGS,
      args: byId,
      input: (a) => a.id!,
      handle: (ctx, id: number) => k.service(ctx).delete(ctx, id),
      present: written(200),
    }),
    wpRoute({
      method: 'GET',
      path: `${P}/by-slug/{slug}`,
      operationId: `calendarGet${Cap}BySlug`,
      summary: `Get a ${k.kind} by slug`,
      tags: TAGS,
      args: bySlug,
      input: (a) => a.slug!,
      handle: (ctx, slug: string) => k.service(ctx).getBySlug(ctx, slug),
      present: single,
    }),
    wpRoute({
      method: 'DELETE',
      path: `${P}/by-slug/{slug}`,
      operationId: `calendarDelete${Cap}BySlug`,
      summary: `Move a ${k.kind} to the trash by slug`,
      tags: TAGS,
      args: bySlug,
      input: (a) => a.slug!,
      handle: async (ctx, slug: string) => k.service(ctx).delete(ctx, await idBySlug(ctx, slug)),
      present: written(200),
    }),
  ];
  for (const method of ['POST', 'PUT', 'PATCH'] as const) {
    const suffix = method === 'POST' ? 'Post' : method === 'PUT' ? 'Put' : 'Patch';
    rows.push(
      wpRoute({
        method,
        path: `${P}/{id}`,
        operationId: `calendarUpdate${Cap}${suffix}`,
        summary: `Update a ${k.kind}`,
        tags: TAGS,
        args: { ...byId, ...k.fields(false) },
        names,
        input: (a) => ({ id: a.id as number, patch: defined(k.toInput(a) as object) as I }),
        handle: (ctx, i: { id: number; patch: I }) => k.service(ctx).update(ctx, i.id, i.patch as I & object),
        present: written(200),
      }),
      wpRoute({
        method,
        path: `${P}/by-slug/{slug}`,
        operationId: `calendarUpdate${Cap}BySlug${suffix}`,
        summary: `Update a ${k.kind} by slug`,
        tags: TAGS,
        // The path's slug names the post; it cannot also be the new slug (the path wins, as in params.ts).
        args: { ...k.fields(false), ...bySlug },
        names,
        input: (a) => ({ slug: a.slug as string, patch: defined({ ...(k.toInput(a) as object), slug: undefined }) as I }),
        handle: async (ctx, i: { slug: string; patch: I }) => k.service(ctx).update(ctx, await idBySlug(ctx, i.slug), i.patch as I & object),
        present: written(200),
      }),
    );
  }
  return rows;
}

export const CALENDAR_VENUE_ROUTES: RestRoute<any, any>[] = rowsOf<CalendarVenueEntity, CalendarVenueInput>({
  kind: 'venue',
  tag: 'venues',
  service: (ctx) => ctx.services.calendarVenues,
  present: presentVenue,
  fields: venueFields,
  toInput: (a) => venueInput(a as ArgValues<ReturnType<typeof venueFields>>),
});

export const CALENDAR_ORGANIZER_ROUTES: RestRoute<any, any>[] = rowsOf<CalendarOrganizerEntity, CalendarOrganizerInput>({
  kind: 'organizer',
  tag: 'organizers',
  service: (ctx) => ctx.services.calendarOrganizers,
  present: presentOrganizer,
  fields: organizerFields,
  toInput: (a) => organizerInput(a as ArgValues<ReturnType<typeof organizerFields>>),
});

export const CALENDAR_PLACE_ROUTES: RestRoute<any, any>[] = [...CALENDAR_VENUE_ROUTES, ...CALENDAR_ORGANIZER_ROUTES];
