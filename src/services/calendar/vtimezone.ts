/**
 * RFC 5545 VTIMEZONE components from the tz database Node ships (Intl), for the .ics feed: every DTSTART with a
 * TZID must have its VTIMEZONE in the same calendar (RFC 5545 §3.2.19). ical-generator takes them from a generator
 * function (its optional peer `@touch4it/ical-timezones` is not a dependency here, and it knows no TEC `UTC+2`
 * offsets), so this builds one per zone from the zone's actual UTC-offset transitions over the years the feed
 * covers: each transition is one observance (STANDARD or DAYLIGHT) with its exact local DTSTART, no RRULE needed.
 *
 * Pure: the years are an argument.
 */
import { canonicalTimezone, offsetSeconds, timezoneAbbr, utcOffsetZone } from './timezones';

/**
 * The TZID a zone gets in iCalendar. IANA names stay. WordPress' manual offsets (`UTC+5:30`, `UTC-9:30`, `UTC+2`)
 * cannot: `:` ends a parameter value unless quoted, and parsers read `TZID=UTC+5:30:20260610T…` as zone `UTC+5`.
 * A whole-hour offset becomes its IANA fixed-offset zone (`Etc/GMT-5` is UTC+5: POSIX signs are inverted), which
 * calendar clients know even without the VTIMEZONE; another offset a name of SAFE-CHARs only (`UTC+0530`). Each
 * comes with a VTIMEZONE of that fixed offset.
 */
export function icalTzid(tz: string): string {
  const minutes = utcOffsetZone(tz);
  if (minutes === null) return tz;
  if (minutes === 0) return 'UTC';
  if (minutes % 60 === 0) return `Etc/GMT${minutes > 0 ? '-' : '+'}${Math.abs(minutes) / 60}`;
  const a = Math.abs(minutes);
  return `UTC${minutes < 0 ? '-' : '+'}${String(Math.floor(a / 60)).padStart(2, '0')}${String(a % 60).padStart(2, '0')}`;
}

const DAY_MS = 86_400_000;

export interface Transition {
  /** The first instant (ms) with the new offset. */
  at: number;
  from: number;
  to: number;
}

/** `+0200`, `-0330`, `+053000` (seconds only when not zero). */
export function icalOffset(seconds: number): string {
  const sign = seconds < 0 ? '-' : '+';
  const a = Math.abs(seconds);
  const hh = String(Math.floor(a / 3600)).padStart(2, '0');
  const mm = String(Math.floor((a % 3600) / 60)).padStart(2, '0');
  const ss = a % 60;
  return `${sign}${hh}${mm}${ss ? String(ss).padStart(2, '0') : ''}`;
}

/** `YYYYMMDDTHHMMSS` of the instant seen at `offset` seconds from UTC. */
function localStamp(ms: number, offset: number): string {
  const d = new Date(ms + offset * 1000);
  const p = (n: number, w = 2) => String(n).padStart(w, '0');
  return `${p(d.getUTCFullYear(), 4)}${p(d.getUTCMonth() + 1)}${p(d.getUTCDate())}T${p(d.getUTCHours())}${p(d.getUTCMinutes())}${p(d.getUTCSeconds())}`;
}

/** The offset changes of `tz` in [fromMs, toMs), to the second. */
export function transitions(tz: string, fromMs: number, toMs: number): Transition[] {
  const out: Transition[] = [];
  // Sample every 12 hours (no zone changes twice within that), then bisect to the second.
  const step = DAY_MS / 2;
  let t = fromMs;
  let off = offsetSeconds(tz, t);
  while (t < toMs) {
    const next = Math.min(t + step, toMs);
    const nextOff = offsetSeconds(tz, next);
    if (nextOff !== off) {
      let lo = t;
      let hi = next;
      while (hi - lo > 1000) {
        const mid = Math.floor((lo + hi) / 2000) * 1000;
        if (mid <= lo) break;
        if (offsetSeconds(tz, mid) === off) lo = mid;
        else hi = mid;
      }
      out.push({ at: hi, from: off, to: nextOff });
    }
    t = next;
    off = nextOff;
  }
  return out;
}

const cache = new Map<string, string>();

/**
 * The VTIMEZONE of `tz` (an IANA name or TEC's `UTC±H[:MM]`) covering the years `fromYear`..`toYear` (inclusive),
 * named `tzid` (default: icalTzid(tz)), lines joined with CRLF, no trailing line break; null for an unknown zone.
 */
export function vtimezone(tz: string, fromYear: number, toYear: number, tzid = icalTzid(tz)): string | null {
  const zone = canonicalTimezone(tz);
  if (!zone) return null;
  const key = `${tz}|${tzid}|${fromYear}|${toYear}`;
  const hit = cache.get(key);
  if (hit !== undefined) return hit;
  const from = Date.UTC(fromYear, 0, 1) - DAY_MS;
  const to = Date.UTC(toYear + 1, 0, 1) + DAY_MS;
  const changes = transitions(zone, from, to);
  const startOffset = offsetSeconds(zone, from);
  // Standard time is the smaller offset of the period; the larger one is daylight saving time.
  const standard = Math.min(startOffset, ...changes.map((c) => c.to));
  const lines = ['BEGIN:VTIMEZONE', `TZID:${tzid}`];
  const observance = (at: number, fromOff: number, toOff: number) => {
    const kind = toOff > standard ? 'DAYLIGHT' : 'STANDARD';
    lines.push(
      `BEGIN:${kind}`,
      `DTSTART:${localStamp(at, fromOff)}`,
      `TZOFFSETFROM:${icalOffset(fromOff)}`,
      `TZOFFSETTO:${icalOffset(toOff)}`,
      `TZNAME:${timezoneAbbr(tz, new Date(at))}`,
      `END:${kind}`,
    );
  };
  // The offset in force at the start of the period, then every change.
  observance(from, startOffset, startOffset);
  for (const c of changes) observance(c.at, c.from, c.to);
  lines.push('END:VTIMEZONE');
  const text = lines.join('\r\n');
  if (cache.size > 500) cache.clear();
  cache.set(key, text);
  return text;
}
