/**
 * Venue and organizer JSON of The Events Calendar's REST API (reference §1.2, §1.3): pure functions of what the
 * venue/organizer services return (already in the request's language) and the wire context. Field order is the
 * plugin's; empty values are dropped as PHP's array_filter drops them; `json_ld` only on single reads. Password
 * masking (§1.5) is the service's `masked`, applied by the caller to what these return.
 */
import type { CalendarOrganizerEntity, CalendarPostColumns, CalendarVenueEntity } from '../../../entities/calendar';
import { postWireDates } from '../../services/calendar/posts';
import { renderContent, renderTitle } from '../../services/calendar/text';
import { globalId as globalIdOf, imageObject as presentImage, WireContext } from './calendar-wire';

export type { WireContext };

export interface PresentOptions {
  /** A single read (GET /venues/{id}): adds `json_ld`. Lists, writes and venues nested in events have none. */
  single?: boolean;
}

type Json = Record<string, unknown>;

/** PHP's empty(): what array_filter drops. */
export function phpEmpty(v: unknown): boolean {
  return v === null || v === undefined || v === false || v === 0 || v === '' || v === '0' || (Array.isArray(v) && v.length === 0);
}

export function arrayFilter(o: Json): Json {
  const out: Json = {};
  for (const k in o) {
    const v = o[k];
    if (!phpEmpty(v)) out[k] = v;
  }
  return out;
}

export function venueUrl(wire: WireContext, slug: string): string {
  return `${wire.siteUrl}/calendar/venue/${slug}/`;
}

export function organizerUrl(wire: WireContext, slug: string): string {
  return `${wire.siteUrl}/calendar/organizer/${slug}/`;
}

/** WordPress' esc_js: HTML specials as entities (no double encoding), quotes and backslashes escaped, newlines as \n. */
function escJs(text: string): string {
  return text
    .replace(/&(?!(?:#\d+|#x[0-9a-f]+|[a-z][a-z0-9]*);)/gi, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/&#(x0*27|0*39);?/gi, "'")
    .replace(/\r/g, '')
    .replace(/[\\']/g, (c) => `\\${c}`)
    .replace(/\n/g, '\\n');
}

/** tribe_post_excerpt for JSON-LD: the excerpt, else the first 55 words of the content, tags stripped. */
function ldDescription(post: CalendarPostColumns): string {
  const source = post.excerpt.trim() !== '' ? post.excerpt : post.description;
  const words = source.replace(/<[^>]*>/g, ' ').trim().split(/\s+/).filter(Boolean);
  const text = words.length > 55 ? `${words.slice(0, 55).join(' ')}&hellip;` : words.join(' ');
  return text;
}

/** json_ld appears for posts anyone may read: published and not password-protected (the plugin's JSON-LD rule). */
function ldAllowed(post: CalendarPostColumns): boolean {
  return post.status === 'publish' && !post.password;
}

function ldBase(type: string, post: CalendarPostColumns, url: string): Json {
  const ld: Json = { '@context': 'http://schema.org', '@type': type, name: escJs(renderTitle(post.title)), description: escJs(ldDescription(post)) };
  if (post.image) ld.image = post.image;
  ld.url = url;
  return ld;
}

/** schema.org Place of a venue (address parts that are set; coordinates when geocoded). */
export function venueJsonLd(venue: CalendarVenueEntity, wire: WireContext): Json {
  const ld = ldBase('Place', venue, venueUrl(wire, venue.slug));
  ld.address = arrayFilter({
    streetAddress: venue.address,
    addressLocality: venue.city,
    addressRegion: venue.stateprovince || venue.state || venue.province,
    postalCode: venue.zip,
    addressCountry: venue.country,
  });
  ld.telephone = venue.phone;
  ld.sameAs = venue.website;
  if (isGeocoded(venue)) ld.geo = { '@type': 'GeoCoordinates', latitude: venue.geoLat, longitude: venue.geoLng };
  return ld;
}

/** schema.org description of an organizer (The Events Calendar marks organizers up as a Person). */
export function organizerJsonLd(organizer: CalendarOrganizerEntity, wire: WireContext): Json {
  const ld = ldBase('Person', organizer, organizerUrl(wire, organizer.slug));
  ld.telephone = organizer.phone;
  ld.sameAs = organizer.website;
  return ld;
}

function isGeocoded(v: CalendarVenueEntity): boolean {
  return typeof v.geoLat === 'number' && typeof v.geoLng === 'number';
}

/** A venue as `get_venue_data` gives it (reference §1.2). */
export function presentVenue(venue: CalendarVenueEntity, wire: WireContext, opts: PresentOptions = {}): Json {
  const dates = postWireDates(venue, wire.siteTz);
  const data: Json = {
    id: venue.id,
    author: String(venue.authorId ?? 0),
    status: venue.status,
    date: dates.date,
    date_utc: dates.date_utc,
    modified: dates.modified,
    modified_utc: dates.modified_utc,
    url: venueUrl(wire, venue.slug),
    venue: renderTitle(venue.title),
    description: renderContent(venue.description),
    excerpt: renderContent(venue.excerpt),
    slug: venue.slug,
    image: presentImage(venue.image),
    address: venue.address,
    city: venue.city,
    country: venue.country,
    province: venue.province,
    state: venue.state,
    zip: venue.zip,
    phone: venue.phone,
    website: venue.website,
    stateprovince: venue.stateprovince,
  };
  if (isGeocoded(venue)) {
    data.geo_lat = venue.geoLat;
    data.geo_lng = venue.geoLng;
  }
  if (opts.single && ldAllowed(venue)) data.json_ld = venueJsonLd(venue, wire);
  const out = arrayFilter(data);
  out.show_map = venue.showMap;
  out.show_map_link = venue.showMapLink;
  const gid = globalIdOf(wire, venue.id);
  out.global_id = gid;
  out.global_id_lineage = [gid];
  return out;
}

/** An organizer as `get_organizer_data` gives it (reference §1.3): the whole object array_filtered. */
export function presentOrganizer(organizer: CalendarOrganizerEntity, wire: WireContext, opts: PresentOptions = {}): Json {
  const dates = postWireDates(organizer, wire.siteTz);
  const gid = globalIdOf(wire, organizer.id);
  const data: Json = {
    id: organizer.id,
    author: String(organizer.authorId ?? 0),
    status: organizer.status,
    date: dates.date,
    date_utc: dates.date_utc,
    modified: dates.modified,
    modified_utc: dates.modified_utc,
    url: organizerUrl(wire, organizer.slug),
    organizer: renderTitle(organizer.title),
    description: renderContent(organizer.description),
    excerpt: renderContent(organizer.excerpt),
    slug: organizer.slug,
    image: presentImage(organizer.image),
    phone: organizer.phone,
    website: organizer.website,
    email: organizer.email,
  };
  if (opts.single && ldAllowed(organizer)) data.json_ld = organizerJsonLd(organizer, wire);
  data.global_id = gid;
  data.global_id_lineage = [gid];
  return arrayFilter(data);
}
