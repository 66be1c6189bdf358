/**
 * The iCalendar (RFC 5545) feed of a list of events, generated with ical-generator: a VCALENDAR (PRODID,
 * X-WR-CALNAME, one VTIMEZONE per zone used) and one VEVENT per event: UID `<id>@<host of PUBLIC_URL>`, SUMMARY,
 * DESCRIPTION (plain text), URL (permalink), DTSTART/DTEND in the event's own timezone (all-day events as DATE
 * values, DTEND the day after the last day), LOCATION (venue name and address), GEO (geocoded venue), ORGANIZER
 * (first organizer with an email), CATEGORIES (category names), LAST-MODIFIED, DTSTAMP, STATUS.
 * Password-protected events the viewer may not edit carry no description, location, organizer or categories.
 *
 * Pure: a function of what the event service returns, the wire context and the clock.
 */
import ical, { ICalCalendarMethod, ICalEventStatus } from 'ical-generator';
import type { CalendarEventEntity, CalendarVenueEntity } from '../../../entities/calendar';
import type { EventRelations } from '../../services/calendar/events.service';
import { parseYmdHis } from '../../services/calendar/timezones';
import { icalTzid, vtimezone } from '../../services/calendar/vtimezone';
import { permalink, WireContext } from './calendar-wire';

export const ICS_MEDIA_TYPE = 'text/calendar; charset=utf-8';

export interface FeedEvent {
  event: CalendarEventEntity;
  relations: EventRelations;
  masked: boolean;
}

export interface FeedOptions {
  now: Date;
  /** X-WR-CALNAME. */
  name: string;
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' };

/**
 * RFC 5545 TEXT has no CONTROL characters but HTAB (newlines are written escaped, `\n`): the others (C0 but tab and
 * line feed, and DEL) are dropped from every text the feed carries, wherever they came from (titles, descriptions,
 * entities such as `&#1;`, venue fields).
 */
export function icsText(s: string): string {
  return s.replace(/\r\n?/g, '\n').replace(/[\u0000-\u0008\u000B-\u001F\u007F]/g, '');
}

/** HTML (WordPress post content) as plain text: paragraphs and line breaks kept as newlines, tags dropped, entities decoded. */
export function plainText(html: string): string {
  return icsText(html
    .replace(/\r\n?/g, '\n')
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(/<\/(p|div|h[1-6]|li|blockquote|tr)>/gi, '\n\n')
    .replace(/<[^>]*>/g, '')
    .replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (m, name: string) => {
      if (name[0] === '#') {
        const code = name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
        if (!Number.isFinite(code) || code <= 0 || code > 0x10ffff) return m;
        // A surrogate code point is no character: U+FFFD, as a decoder makes of it.
        return code >= 0xd800 && code <= 0xdfff ? '\ufffd' : String.fromCodePoint(code);
      }
      return ENTITIES[name.toLowerCase()] ?? m;
    })
    .replace(/[ \t]+\n/g, '\n')
    .replace(/\n{3,}/g, '\n\n'))
    .trim();
}

/** The venue as LOCATION: its name, then its address (street, city, region and zip, country). */
export function venueLocation(v: CalendarVenueEntity): { title: string; address?: string } {
  const region = v.stateprovince || v.state || v.province;
  const cityLine = [v.city, [region, v.zip].filter(Boolean).join(' ')].filter(Boolean).join(', ');
  const address = icsText([v.address, cityLine, v.country].filter((s) => s && s.trim() !== '').join(', '));
  return address ? { title: plainText(v.title), address } : { title: plainText(v.title) };
}

/**
 * A wall clock as ical-generator reads a Date: in a TZID, its local fields (it formats with the process zone's
 * getters; the server runs in UTC, src/db/utc.ts, and the Date is built from the fields in the process zone, so it
 * round-trips in any zone without a gap at that hour); as a DATE without a zone, its UTC fields.
 */
function wallDate(ymdHis: string): Date {
  const w = parseYmdHis(ymdHis);
  if (!w) throw new RangeError(`Not a wall clock: ${ymdHis}`);
  return new Date(w.year, w.month - 1, w.day, w.hour, w.minute, w.second);
}

/** The day of a wall clock (plus `days`) as a DATE value: midnight UTC of that day. */
function wallDay(ymdHis: string, days = 0): Date {
  const w = parseYmdHis(ymdHis);
  if (!w) throw new RangeError(`Not a wall clock: ${ymdHis}`);
  return new Date(Date.UTC(w.year, w.month - 1, w.day + days));
}

function feedStatus(e: CalendarEventEntity): ICalEventStatus {
  return e.status === 'draft' || e.status === 'pending' ? ICalEventStatus.TENTATIVE : ICalEventStatus.CONFIRMED;
}

/** The feed's text. */
export function presentFeed(items: FeedEvent[], wire: WireContext, opts: FeedOptions): string {
  const host = new URL(wire.siteUrl).hostname;
  const zoneOf = (e: CalendarEventEntity) => e.timezone || wire.siteTz;
  const years = items.flatMap(({ event }) => [event.startUtc.getUTCFullYear(), event.endUtc.getUTCFullYear()]);
  const fromYear = years.length ? Math.min(...years) : opts.now.getUTCFullYear();
  const toYear = years.length ? Math.max(...years) : fromYear;
  const cal = ical({
    prodId: { company: 'gateway', product: 'events-calendar', language: (wire.language ?? 'en').toUpperCase() },
    name: opts.name,
    method: ICalCalendarMethod.PUBLISH,
    url: `${wire.siteUrl}/calendar/events.ics`,
    // No calendar-wide zone: DTSTAMP and LAST-MODIFIED are then UTC (RFC 5545 §3.8.7.2), all-day dates carry no
    // zone, and each timed event names its own zone in DTSTART/DTEND (with its VTIMEZONE from the generator).
    // Events name their zone by its iCalendar TZID (icalTzid); the generator is asked for that TZID.
    timezone: { name: '', generator: (tzid) => vtimezone(zoneOfTzid.get(tzid) ?? tzid, fromYear, toYear, tzid) },
  });
  const zoneOfTzid = new Map<string, string>();
  const tzidOf = (tz: string) => {
    const tzid = icalTzid(tz);
    zoneOfTzid.set(tzid, tz);
    return tzid;
  };
  cal.x([{ key: 'X-WR-TIMEZONE', value: icalTzid(wire.siteTz) }]);
  for (const { event: e, relations, masked } of items) {
    const tz = zoneOf(e);
    const url = permalink(wire, 'event', e.slug);
    const ev = cal.createEvent({
      id: `${e.id}@${host}`,
      summary: plainText(e.title),
      url,
      stamp: opts.now,
      lastModified: e.modifiedAt,
      status: feedStatus(e),
      ...(e.allDay
        ? { allDay: true, start: wallDay(e.startLocal), end: wallDay(e.endLocal, 1) }
        : { timezone: tzidOf(tz), start: wallDate(e.startLocal), end: wallDate(e.endLocal) }),
    });
    // Masked as the REST list masks them (§1.5): no description, venue, organizer or terms.
    if (masked) continue;
    const categories = relations.categories.map((c) => ({ name: plainText(c.name) })).filter((c) => c.name !== '');
    if (categories.length) ev.categories(categories);
    const description = plainText(e.description);
    if (description) ev.description(description);
    const venue = relations.venues[0];
    if (venue) {
      const loc = venueLocation(venue);
      const geo = venue.geoLat !== null && venue.geoLng !== null ? { lat: Number(venue.geoLat), lon: Number(venue.geoLng) } : undefined;
      if (loc.title) ev.location({ ...loc, ...(geo ? { geo } : {}) });
      else if (geo) ev.location({ geo });
    }
    const organizer = relations.organizers.find((o) => o.email);
    if (organizer) ev.organizer({ name: plainText(organizer.title) || organizer.email, email: organizer.email });
  }
  return cal.toString();
}
