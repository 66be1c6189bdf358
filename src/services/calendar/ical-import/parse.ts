/**
 * iCalendar (RFC 5545) → the events an import writes, with ical.js (a maintained parser: line folding, escaping,
 * parameters, VTIMEZONE offsets). Pure: runs in the import worker thread (./worker), never on the main thread for
 * real imports, and directly in unit tests.
 *
 * What each VEVENT becomes (as The Events Calendar's iCal importer maps it):
 *  - UID → the import key (an event without UID is reported, not imported: it could not be matched again);
 *  - SUMMARY → title, DESCRIPTION → description (text, HTML special characters escaped, line breaks kept),
 *    URL → website, CATEGORIES → categories (every value of every CATEGORIES line), LOCATION → a venue by that name,
 *    GEO → its coordinates, ORGANIZER → an organizer (CN, else the address without `mailto:`);
 *  - DTSTART/DTEND as wall clocks in their zone: a TZID that is an IANA zone is kept as the event's timezone; UTC
 *    times are UTC; floating times take the site's zone; any other TZID is converted with the file's VTIMEZONE to
 *    UTC. DATE values are all-day events (TEC's all-day end is 23:59:59 of the last day; DTEND is exclusive).
 *    No DTEND: DURATION, else the start (one day for dates).
 *  - STATUS:CANCELLED events are skipped (reported); recurring events (RRULE/RDATE) import their first occurrence
 *    and say so.
 */
type IcalModule = typeof import('ical.js', { with: { 'resolution-mode': 'import' } }).default;
// eslint-disable-next-line @typescript-eslint/no-require-imports
const ICAL = require('ical.js') as IcalModule;

export interface ParsedEvent {
  uid: string;
  title: string;
  description: string;
  startDate: string;
  endDate: string;
  /** IANA zone or 'UTC'; undefined = floating (the site's zone). */
  timezone?: string;
  allDay: boolean;
  website?: string;
  categories: string[];
  venue?: { name: string; lat?: number; lng?: number };
  organizer?: { name: string; email?: string };
  recurring: boolean;
}

export interface ParseProblem {
  /** 1-based position of the VEVENT in the file. */
  index: number;
  uid?: string;
  reason: string;
}

export interface ParseResult {
  events: ParsedEvent[];
  skipped: ParseProblem[];
}

export class IcsSyntaxError extends Error {}

const isIana = (() => {
  const memo = new Map<string, boolean>();
  return (tz: string): boolean => {
    let ok = memo.get(tz);
    if (ok === undefined) {
      try {
        new Intl.DateTimeFormat('en-US', { timeZone: tz });
        ok = /^[A-Za-z_]+(\/[A-Za-z0-9_+-]+)*$/.test(tz);
      } catch {
        ok = false;
      }
      if (memo.size < 1000) memo.set(tz, ok);
    }
    return ok;
  };
})();

const pad = (n: number, w = 2) => String(n).padStart(w, '0');
type IcalTime = InstanceType<IcalModule['Time']>;

function wall(t: IcalTime): string {
  return `${pad(t.year, 4)}-${pad(t.month)}-${pad(t.day)} ${pad(t.hour)}:${pad(t.minute)}:${pad(t.second)}`;
}

function utcWall(t: IcalTime): string {
  const d = new Date(t.toUnixTime() * 1000);
  const iso = d.toISOString();
  return `${iso.slice(0, 10)} ${iso.slice(11, 19)}`;
}

function escapeHtml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

function text(v: unknown, max: number): string {
  return typeof v === 'string' ? v.replace(/\u0000/g, '').trim().slice(0, max) : '';
}

export function parseIcs(source: string): ParseResult {
  let root: InstanceType<IcalModule['Component']>;
  try {
    const jcal = ICAL.parse(source);
    root = new ICAL.Component(jcal as never);
  } catch (e) {
    throw new IcsSyntaxError(`Not an iCalendar file: ${String((e as Error).message ?? e).slice(0, 200)}`);
  }
  if (root.name !== 'vcalendar') {
    const cal = root.getFirstSubcomponent('vcalendar');
    if (!cal) throw new IcsSyntaxError('Not an iCalendar file: no VCALENDAR');
    root = cal;
  }
  // The file's own VTIMEZONEs, for TZIDs that are not IANA names (e.g. Windows names from Outlook).
  const zones = new Map<string, InstanceType<IcalModule['Timezone']>>();
  for (const vtz of root.getAllSubcomponents('vtimezone')) {
    // Real zones change their offset at most yearly; a rule that repeats more often would make ical.js expand
    // transitions without end (a 330-byte file could exhaust memory): such a zone is not used.
    const rules = [...vtz.getAllSubcomponents('standard'), ...vtz.getAllSubcomponents('daylight')].flatMap((c) => c.getAllProperties('rrule').map((p) => String((p.getFirstValue() as { freq?: string } | null)?.freq ?? '')));
    if (rules.some((f) => f !== 'YEARLY')) continue;
    const tzid = vtz.getFirstPropertyValue('tzid');
    if (typeof tzid === 'string') zones.set(tzid, new ICAL.Timezone(vtz));
  }
  const out: ParseResult = { events: [], skipped: [] };
  root.getAllSubcomponents('vevent').forEach((vevent, i) => {
    const index = i + 1;
    const uid = text(vevent.getFirstPropertyValue('uid'), 255);
    try {
      if (!uid) return void out.skipped.push({ index, reason: 'no UID' });
      if (vevent.getFirstPropertyValue('recurrence-id')) return void out.skipped.push({ index, uid, reason: 'an exception to a recurring event (RECURRENCE-ID) is not imported' });
      const status = text(vevent.getFirstPropertyValue('status'), 20).toUpperCase();
      if (status === 'CANCELLED') return void out.skipped.push({ index, uid, reason: 'cancelled' });
      const dtstartProp = vevent.getFirstProperty('dtstart');
      if (!dtstartProp) return void out.skipped.push({ index, uid, reason: 'no DTSTART' });
      const start = dtstartProp.getFirstValue() as IcalTime;
      const tzid = dtstartProp.getParameter('tzid') as string | undefined;
      const dtendProp = vevent.getFirstProperty('dtend');
      let end: IcalTime;
      if (dtendProp) end = dtendProp.getFirstValue() as IcalTime;
      else {
        const duration = vevent.getFirstPropertyValue('duration') as InstanceType<IcalModule['Duration']> | null;
        end = start.clone();
        if (duration) end.addDuration(duration);
        else if (start.isDate) end.day += 1;
      }
      const allDay = start.isDate;
      let startDate: string;
      let endDate: string;
      let timezone: string | undefined;
      if (allDay) {
        const last = end.clone();
        last.day -= 1;
        if (last.compare(start) < 0) last.day = start.day, (last.month = start.month), (last.year = start.year);
        startDate = `${wall(start).slice(0, 10)} 00:00:00`;
        endDate = `${wall(last).slice(0, 10)} 23:59:59`;
        if (tzid && isIana(tzid)) timezone = tzid;
      } else if (start.zone === ICAL.Timezone.utcTimezone || (!tzid && String(vevent.getFirstProperty('dtstart')?.toICALString() ?? '').endsWith('Z'))) {
        startDate = utcWall(start);
        endDate = utcWall(end);
        timezone = 'UTC';
      } else if (tzid && isIana(tzid)) {
        startDate = wall(start);
        const endTz = (dtendProp?.getParameter('tzid') as string | undefined) ?? tzid;
        endDate = endTz === tzid ? wall(end) : utcToZone(end, zones, endTz, tzid);
        timezone = tzid;
      } else if (tzid) {
        const zone = zones.get(tzid);
        if (!zone) return void out.skipped.push({ index, uid, reason: `unknown time zone ${JSON.stringify(tzid.slice(0, 64))} (no VTIMEZONE)` });
        startDate = utcWall(withZone(start, zone));
        const endZone = zones.get((dtendProp?.getParameter('tzid') as string | undefined) ?? tzid) ?? zone;
        endDate = utcWall(withZone(end, endZone));
        timezone = 'UTC';
      } else {
        startDate = wall(start);
        endDate = wall(end);
      }
      if (endDate < startDate) endDate = startDate;
      const categories: string[] = [];
      for (const p of vevent.getAllProperties('categories')) {
        for (const v of p.getValues()) {
          const c = text(v, 200);
          if (c && !categories.includes(c)) categories.push(c);
        }
      }
      const location = text(vevent.getFirstPropertyValue('location'), 200);
      const geo = vevent.getFirstPropertyValue('geo') as unknown;
      let venue: ParsedEvent['venue'];
      if (location) {
        venue = { name: location };
        if (Array.isArray(geo) && geo.length === 2 && geo.every((n) => typeof n === 'number' && Number.isFinite(n)) && Math.abs(geo[0]) <= 90 && Math.abs(geo[1]) <= 180) {
          venue.lat = geo[0];
          venue.lng = geo[1];
        }
      }
      let organizer: ParsedEvent['organizer'];
      const orgProp = vevent.getFirstProperty('organizer');
      if (orgProp) {
        const address = text(orgProp.getFirstValue(), 200).replace(/^mailto:/i, '');
        const cn = text(orgProp.getParameter('cn'), 200);
        const name = cn || address;
        if (name) organizer = { name, ...(address.includes('@') ? { email: address } : {}) };
      }
      const url = text(vevent.getFirstPropertyValue('url'), 2000);
      out.events.push({
        uid,
        title: text(vevent.getFirstPropertyValue('summary'), 1000) || '(no title)',
        description: escapeHtml(text(vevent.getFirstPropertyValue('description'), 100_000)).replace(/\r?\n/g, '<br />\n'),
        startDate,
        endDate,
        ...(timezone ? { timezone } : {}),
        allDay,
        ...(/^https?:\/\//i.test(url) ? { website: url } : {}),
        categories,
        ...(venue ? { venue } : {}),
        ...(organizer ? { organizer } : {}),
        recurring: vevent.hasProperty('rrule') || vevent.hasProperty('rdate'),
      });
    } catch (e) {
      out.skipped.push({ index, ...(uid ? { uid } : {}), reason: `unreadable: ${String((e as Error).message ?? e).slice(0, 200)}` });
    }
  });
  return out;
}

function withZone(t: IcalTime, zone: InstanceType<IcalModule['Timezone']>): IcalTime {
  const c = t.clone();
  c.zone = zone;
  return c;
}

/** An end in another zone than the start: its instant shown as a wall clock of the start's zone. */
function utcToZone(end: IcalTime, zones: Map<string, InstanceType<IcalModule['Timezone']>>, endTz: string, startTz: string): string {
  const ms = isIana(endTz) ? zonedToUtcMs(wall(end), endTz) : zones.get(endTz) ? withZone(end, zones.get(endTz)!).toUnixTime() * 1000 : zonedToUtcMs(wall(end), startTz);
  const f = new Intl.DateTimeFormat('en-CA', { timeZone: startTz, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' });
  const p = Object.fromEntries(f.formatToParts(new Date(ms)).map((x) => [x.type, x.value]));
  return `${p.year}-${p.month}-${p.day} ${p.hour}:${p.minute}:${p.second}`;
}

/** The instant (ms) of a wall clock in an IANA zone (two passes over the zone's offset). */
function zonedToUtcMs(wallClock: string, tz: string): number {
  const asUtc = Date.parse(`${wallClock.replace(' ', 'T')}Z`);
  const offset = (ms: number) => {
    const f = new Intl.DateTimeFormat('en-US', { timeZone: tz, timeZoneName: 'longOffset' });
    const name = f.formatToParts(new Date(ms)).find((x) => x.type === 'timeZoneName')?.value ?? 'GMT';
    const m = /GMT([+-])(\d{2}):?(\d{2})?/.exec(name);
    return m ? (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3] ?? 0)) * 60_000 : 0;
  };
  const first = asUtc - offset(asUtc);
  return asUtc - offset(first);
}
