/**
 * The Events Calendar's event object (reference §1.1): field order, types (int id, string author, zero-padded date
 * detail strings), venue object / [] / array, organizer always an array, term shape A, json_ld on single reads only,
 * and the password masking of §1.5.
 */
import type { CalendarEventEntity } from '../../../entities/calendar';
import type { EventRelations } from '../../services/calendar/events.service';
import { formatCost } from '../../services/calendar/cost';
import { dateDetails, formatYmdHis, timezoneAbbr, toIso8601 } from '../../services/calendar/timezones';
import { escHtml, renderContent, renderTitle } from '../../services/calendar/text';
import { authorString, globalId, imageObject, permalink, WireContext } from './calendar-wire';
import { presentTermA } from './calendar-terms.presenters';
import type { TermView } from '../../services/calendar/terms.service';
import { presentOrganizer, presentVenue } from './calendar-venues.presenters';
import { maskProtected } from '../../services/calendar/linked-posts';
import { catalogMessage } from './messages';
import { postWireDates } from '../../services/calendar/posts';
import type { MemoizedText } from '../text-memo';
import { wpJsonEncode } from './json';

export interface EventPresentation {
  event: CalendarEventEntity;
  relations: EventRelations;
  /** Term counts by term id (shape A carries `count`). */
  termCounts: Map<number, number>;
  /** Protected and the viewer may not edit it: masked (lists) */
  masked: boolean;
  /** Ids of linked venues and organizers that are protected and that the viewer may not edit (masked everywhere). */
  maskedLinked: ReadonlySet<number>;
  /** Single reads add json_ld. */
  single?: boolean;
  /** Presentations of linked venues, organizers and terms already made for this answer (a page shares them). */
  shared?: Map<string, Record<string, unknown>>;
}

function sharedPresentation(p: EventPresentation, key: string, make: () => Record<string, unknown>): Record<string, unknown> {
  if (!p.shared) return make();
  let out = p.shared.get(key);
  if (!out) p.shared.set(key, (out = make()));
  return out;
}

function stripTags(html: string): string {
  return html.replace(/<[^>]*>/g, '').replace(/\s+/g, ' ').trim();
}

/** The event's `timezone` as TEC shows it, and the zone its times are in (the site's when it has none). */
function zoneOf(e: CalendarEventEntity, wire: WireContext): string {
  return e.timezone || wire.siteTz;
}

export function presentEvent(p: EventPresentation, wire: WireContext): Record<string, unknown> {
  const e = p.event;
  const tz = zoneOf(e, wire);
  const gid = globalId(wire, e.id);
  const url = permalink(wire, 'event', e.slug);
  const utcStart = formatYmdHis(e.startUtc, 'UTC');
  const utcEnd = formatYmdHis(e.endUtc, 'UTC');
  const free = catalogMessage('Free', [], wire.language) ?? 'Free';
  const values = e.costValues ?? [];
  const term = (t: EventRelations['categories'][number]): Record<string, unknown> =>
    sharedPresentation(p, `t${t.id}`, () => presentTermA({ term: t, count: p.termCounts.get(t.id) ?? 0 } as TermView, wire) as unknown as Record<string, unknown>);
  const venues = p.relations.venues.map((v) =>
    sharedPresentation(p, `v${v.id}`, () => {
      const out = presentVenue(v, wire, { single: false });
      return p.maskedLinked.has(v.id) ? maskProtected(out) : out;
    }),
  );
  const organizers = p.relations.organizers.map((o) =>
    sharedPresentation(p, `o${o.id}`, () => {
      const out = presentOrganizer(o, wire, { single: false });
      return p.maskedLinked.has(o.id) ? maskProtected(out) : out;
    }),
  );
  const out: Record<string, unknown> = {
    id: e.id,
    global_id: gid,
    global_id_lineage: [gid, ...(e.originIds ?? [])],
    author: authorString(e.authorId),
    status: e.status,
    ...postWireDates(e, wire.siteTz),
    url,
    rest_url: `${wire.baseUrl}/events/${e.id}`,
    title: renderTitle(e.title),
    description: renderContent(e.description),
    excerpt: e.excerpt ? renderContent(e.excerpt) : '',
    slug: e.slug,
    image: imageObject(e.image),
    all_day: e.allDay,
    start_date: e.startLocal,
    start_date_details: dateDetails(e.startLocal),
    end_date: e.endLocal,
    end_date_details: dateDetails(e.endLocal),
    utc_start_date: utcStart,
    utc_start_date_details: dateDetails(utcStart),
    utc_end_date: utcEnd,
    utc_end_date_details: dateDetails(utcEnd),
    timezone: e.timezone,
    timezone_abbr: timezoneAbbr(tz, e.startUtc),
    cost: formatCost({ values, currencySymbol: e.currencySymbol, currencyPosition: e.currencyPosition as never, text: e.cost }, { free }),
    cost_details: { currency_symbol: e.currencySymbol, currency_code: e.currencyCode, currency_position: e.currencyPosition, values },
    website: escHtml(e.website ?? url),
    show_map: e.showMap,
    show_map_link: e.showMapLink,
    hide_from_listings: e.hideFromListings,
    sticky: e.sticky,
    featured: e.featured,
    categories: p.relations.categories.map(term),
    tags: p.relations.tags.map(term),
    venue: venues.length === 0 ? [] : venues.length === 1 ? venues[0] : venues,
    organizer: organizers,
    custom_fields: [],
  };
  if (p.single) out.json_ld = eventJsonLd(p, wire, url);
  return p.masked ? maskEvent(out) : out;
}

/** schema.org Event, as the plugin's single reads carry it. */
export function eventJsonLd(p: EventPresentation, wire: WireContext, url: string): Record<string, unknown> {
  const e = p.event;
  const tz = zoneOf(e, wire);
  const ld: Record<string, unknown> = {
    '@context': 'http://schema.org',
    '@type': 'Event',
    name: stripTags(renderTitle(e.title)),
    description: stripTags(renderContent(e.description)),
  };
  if (e.image) ld.image = e.image;
  ld.url = url;
  ld.eventAttendanceMode = 'https://schema.org/OfflineEventAttendanceMode';
  ld.eventStatus = 'https://schema.org/EventScheduled';
  ld.startDate = toIso8601(e.startUtc, tz);
  ld.endDate = toIso8601(e.endUtc, tz);
  const v = p.relations.venues[0];
  if (v) {
    const place: Record<string, unknown> = { '@type': 'Place', name: stripTags(v.title), description: stripTags(v.description), url: permalink(wire, 'venue', v.slug) };
    place.address = { '@type': 'PostalAddress', streetAddress: v.address, addressLocality: v.city, addressRegion: v.stateprovince || v.state || v.province, postalCode: v.zip, addressCountry: v.country };
    if (v.geoLat !== null && v.geoLng !== null) place.geo = { '@type': 'GeoCoordinates', latitude: v.geoLat, longitude: v.geoLng };
    if (v.phone) place.telephone = v.phone;
    if (v.website) place.sameAs = v.website;
    ld.location = place;
  }
  const orgs = p.relations.organizers.map((o) => ({
    '@type': 'Person',
    name: stripTags(o.title),
    description: stripTags(o.description),
    url: permalink(wire, 'organizer', o.slug),
    ...(o.phone ? { telephone: o.phone } : {}),
    ...(o.email ? { email: o.email } : {}),
    ...(o.website ? { sameAs: o.website } : {}),
  }));
  if (orgs.length === 1) ld.organizer = orgs[0];
  else if (orgs.length > 1) ld.organizer = orgs;
  const values = e.costValues ?? [];
  if (values.length) {
    ld.offers = {
      '@type': 'Offer',
      price: values[0],
      priceCurrency: e.currencyCode || undefined,
      url,
      category: 'primary',
      availability: 'inStock',
      validFrom: toIso8601(e.dateUtc ?? e.modifiedAt, wire.siteTz),
    };
  }
  ld.performer = 'Organization';
  return JSON.parse(JSON.stringify(ld)) as Record<string, unknown>;
}

/** §1.5: what a password-protected event shows to those without the password (id, title, dates and urls kept). */
export function maskEvent(out: Record<string, unknown>): Record<string, unknown> {
  const masked = maskProtected(out);
  delete masked.json_ld;
  return masked;
}

/** One event of a list answer, as `presentEvent` is given it. */
export interface ListedEvent {
  presentation: EventPresentation;
  wire: WireContext;
}

const maskFlag = (masked: boolean) => (masked ? 'm' : '-');

/**
 * What a listed event's text (wp_json_encode'd, ASCII) is made from (../text-memo.ts `MemoizedText`): the event and its
 * venues, organizers, categories and tags as the answer read them (in its language: translations are applied to
 * those rows; term counts are columns of the terms), and the rest as one string: the site's URLs, time zone and
 * language, and which of them are masked for this viewer.
 */
export const LISTED_EVENT_TEXT: MemoizedText<ListedEvent> = {
  slot: ({ presentation }) => `e${presentation.event.id}`,
  madeWith: ({ presentation: p, wire }) => {
    const x = p.relations;
    const site = `${wire.baseUrl}\u0000${wire.siteUrl}\u0000${wire.siteTz}\u0000${wire.language ?? ''}`;
    return `${site}\u0000${maskFlag(p.masked)}${x.venues.map((v) => maskFlag(p.maskedLinked.has(v.id))).join('')}|${x.organizers.map((o) => maskFlag(p.maskedLinked.has(o.id))).join('')}|${x.categories.length}|${x.tags.length}`;
  },
  rows: ({ presentation: { event, relations: x } }) => [event, ...x.venues, ...x.organizers, ...x.categories, ...x.tags],
  text: ({ presentation, wire }) => wpJsonEncode(presentEvent(presentation, wire)),
};
