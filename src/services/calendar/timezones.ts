/**
 * Calendar time zones: IANA names and TEC's `UTC±H[:MM]` offsets, wall clocks in a zone and back, the
 * `'Y-m-d H:i:s'` strings the columns hold, and zone abbreviations. Pure functions. Arithmetic uses Intl (the ICU
 * tz database shipped with Node), no library needed.
 *
 * Instants are `Date`s with whole seconds (PHP's resolution). Wall-clock strings are `'YYYY-MM-DD HH:MM:SS'`.
 */

export interface WallClock {
  year: number;
  month: number; // 1-12
  day: number;
  hour: number;
  minute: number;
  second: number;
}

/** `UTC`, `UTC+2`, `UTC-5:30`, `UTC+5.5` (WordPress' manual offsets), `UTC+0`: the offset in minutes, else null. */
export function utcOffsetZone(tz: string): number | null {
  const m = /^UTC(?:([+-])(\d{1,2})(?:(?::([0-5]\d))|(?:\.(\d+)))?)?$/.exec(tz);
  if (!m) return null;
  if (!m[1]) return 0;
  const hours = Number(m[2]);
  const minutes = m[3] !== undefined ? Number(m[3]) : m[4] !== undefined ? Math.round(Number(`0.${m[4]}`) * 60) : 0;
  const total = hours * 60 + minutes;
  if (total > 14 * 60) return null;
  return m[1] === '-' ? -total : total;
}

const formatterCache = new Map<string, Intl.DateTimeFormat | null>();

function ianaFormatter(tz: string): Intl.DateTimeFormat | null {
  let f = formatterCache.get(tz);
  if (f !== undefined) return f;
  try {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: tz,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
      era: 'short',
    });
  } catch {
    f = null;
  }
  if (formatterCache.size > 1000) formatterCache.clear(); // client-supplied names: keep the cache bounded
  formatterCache.set(tz, f);
  return f;
}

/** True for an IANA name Intl knows (`America/New_York`, `Europe/Paris`, `UTC`) or TEC's `UTC±H[:MM]` offsets. */
export function isValidTimezone(tz: string): boolean {
  if (typeof tz !== 'string' || tz === '' || tz.length > 64) return false;
  if (utcOffsetZone(tz) !== null) return true;
  // Intl also takes bare offsets like "+02:00" on some versions; TEC only takes names or UTC±N.
  if (!/^[A-Za-z][A-Za-z0-9_+\-/]*$/.test(tz)) return false;
  return ianaFormatter(tz) !== null;
}

/** The canonical spelling of a valid timezone (`america/new_york` → `America/New_York`), or null. */
export function canonicalTimezone(tz: string): string | null {
  const hit = CANONICAL.get(tz);
  if (hit !== undefined) return hit;
  let out: string | null = null;
  if (isValidTimezone(tz)) out = utcOffsetZone(tz) !== null ? tz : ianaFormatter(tz)!.resolvedOptions().timeZone;
  if (CANONICAL.size > 1000) CANONICAL.clear(); // client-supplied names: bounded
  CANONICAL.set(tz, out);
  return out;
}

const CANONICAL = new Map<string, string | null>();

function requireZone(tz: string): Intl.DateTimeFormat | number {
  const fixed = utcOffsetZone(tz);
  if (fixed !== null) return fixed;
  const f = isValidTimezone(tz) ? ianaFormatter(tz) : null;
  if (!f) throw new RangeError(`Unknown timezone ${tz}`);
  return f;
}

const DAY_MS = 86_400_000;
/** `${zone}|${UTC day}` -> the zone's offset that whole day (only days without a transition are kept). */
const OFFSET_MEMO = new Map<string, number>();

/** The zone's offset from UTC in seconds at `instant` (ms since epoch). */
export function offsetSeconds(tz: string, instantMs: number): number {
  const z = requireZone(tz);
  if (typeof z === 'number') return z * 60;
  // Offsets change at most once a day: a day whose first and last second have the same offset has it throughout,
  // and is answered from the memo afterwards (formatToParts per date showed in a REST event list's profile).
  const day = Math.floor(instantMs / DAY_MS);
  const key = `${tz}|${day}`;
  const hit = OFFSET_MEMO.get(key);
  if (hit !== undefined) return hit;
  const first = formatterOffset(z, day * DAY_MS);
  const last = formatterOffset(z, day * DAY_MS + DAY_MS - 1000);
  if (first === last) {
    if (OFFSET_MEMO.size > 20_000) OFFSET_MEMO.clear();
    OFFSET_MEMO.set(key, first);
    return first;
  }
  return formatterOffset(z, instantMs);
}

function formatterOffset(z: Intl.DateTimeFormat, instantMs: number): number {
  const parts = z.formatToParts(new Date(instantMs));
  const get = (t: string) => Number(parts.find((p) => p.type === t)!.value);
  let year = get('year');
  if (parts.find((p) => p.type === 'era')?.value === 'BC') year = 1 - year;
  const asUtc = Date.UTC(year, get('month') - 1, get('day'), get('hour'), get('minute'), get('second'));
  // Date.UTC maps years 0-99 to 1900-1999; correct that.
  const fixed = year >= 0 && year < 100 ? new Date(asUtc).setUTCFullYear(year) : asUtc;
  return Math.round((fixed - Math.floor(instantMs / 1000) * 1000) / 1000);
}

export function utcParts(ms: number): WallClock {
  const d = new Date(ms);
  return {
    year: d.getUTCFullYear(),
    month: d.getUTCMonth() + 1,
    day: d.getUTCDate(),
    hour: d.getUTCHours(),
    minute: d.getUTCMinutes(),
    second: d.getUTCSeconds(),
  };
}

/** Wall-clock parts from (possibly overflowing) fields, normalized like PHP (Feb 30 → Mar 1, 24:00 → next day). */
export function utcMs(p: WallClock): number {
  const d = new Date(0);
  d.setUTCFullYear(p.year, p.month - 1, p.day);
  d.setUTCHours(p.hour, p.minute, p.second, 0);
  return d.getTime();
}

/** The wall clock of `instant` in `tz`. */
export function wallClock(instant: Date, tz: string): WallClock {
  const ms = Math.floor(instant.getTime() / 1000) * 1000;
  return utcParts(ms + offsetSeconds(tz, ms) * 1000);
}

const YMDHIS = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/;

/** `'Y-m-d H:i:s'` → parts (no range check beyond the shape); null if the shape is wrong. */
export function parseYmdHis(s: string): WallClock | null {
  const m = YMDHIS.exec(s);
  if (!m) return null;
  return { year: +m[1], month: +m[2], day: +m[3], hour: +m[4], minute: +m[5], second: +m[6] };
}

/**
 * The instant a wall clock in `tz` denotes. Fields may overflow (normalized as PHP does). DST, as PHP: a time in a
 * spring-forward gap moves forward by the gap (02:30 → 03:30 EDT); a time that occurs twice takes the first
 * occurrence (the daylight-saving one).
 */
export function fromWallClock(wall: WallClock | string, tz: string): Date {
  const parts = typeof wall === 'string' ? parseYmdHis(wall) : wall;
  if (!parts) throw new RangeError(`Not a Y-m-d H:i:s string: ${String(wall)}`);
  const local = utcMs(parts);
  const before = offsetSeconds(tz, local - 86_400_000) * 1000;
  const after = offsetSeconds(tz, local + 86_400_000) * 1000;
  const t1 = local - before;
  if (before === after) return new Date(t1);
  const t2 = local - after;
  const ok1 = offsetSeconds(tz, t1) * 1000 === before;
  const ok2 = offsetSeconds(tz, t2) * 1000 === after;
  if (ok1 && ok2) return new Date(Math.min(t1, t2));
  if (ok2) return new Date(t2);
  return new Date(t1); // valid with the earlier offset, or in a gap: the earlier offset moves it forward
}

const pad = (n: number, w = 2) => String(Math.abs(n)).padStart(w, '0');

export function ymdHis(p: WallClock): string {
  return `${pad(p.year, 4)}-${pad(p.month)}-${pad(p.day)} ${pad(p.hour)}:${pad(p.minute)}:${pad(p.second)}`;
}

/**
 * Recent answers of formatYmdHis per zone (a post's dates are shown again on every read of it: a list answer formats
 * ~14 dates per event). Bounded: a zone's map is dropped whole when it grows past FORMAT_MEMO_MAX.
 */
const FORMAT_MEMO = new Map<string, Map<number, string>>();
const FORMAT_MEMO_MAX = 50_000;

/** `'Y-m-d H:i:s'` of `instant` in `tz`. */
export function formatYmdHis(instant: Date, tz: string): string {
  const t = Math.floor(instant.getTime() / 1000) * 1000;
  let memo = FORMAT_MEMO.get(tz);
  const hit = memo?.get(t);
  if (hit !== undefined) return hit;
  // The wall clock in `tz` is the UTC wall clock of the instant shifted by the zone's offset; ISO strings of years
  // 0000-9999 are `YYYY-MM-DDTHH:MM:SS.sssZ`, so no parts need building.
  const wall = tz === 'UTC' ? t : t + offsetSeconds(tz, t) * 1000;
  let out: string;
  if (wall >= -62_167_219_200_000 && wall < 253_402_300_800_000) {
    const iso = new Date(wall).toISOString();
    out = `${iso.slice(0, 10)} ${iso.slice(11, 19)}`;
  } else {
    out = ymdHis(wallClock(instant, tz));
  }
  if (!memo || memo.size >= FORMAT_MEMO_MAX) {
    if (!memo && FORMAT_MEMO.size >= 1000) FORMAT_MEMO.clear();
    FORMAT_MEMO.set(tz, (memo = new Map()));
  }
  memo.set(t, out);
  return out;
}

export interface DateDetails {
  year: string;
  month: string;
  day: string;
  hour: string;
  minutes: string;
  seconds: string;
}

/** TEC's `*_date_details`: every part a zero-padded string. */
export function dateDetails(ymdHisString: string): DateDetails {
  // The string is already zero-padded `YYYY-MM-DD HH:MM:SS`: its parts are the details.
  if (!YMDHIS.test(ymdHisString)) throw new RangeError(`Not a Y-m-d H:i:s string: ${ymdHisString}`);
  const s = ymdHisString;
  return { year: s.slice(0, 4), month: s.slice(5, 7), day: s.slice(8, 10), hour: s.slice(11, 13), minutes: s.slice(14, 16), seconds: s.slice(17, 19) };
}

function offsetString(seconds: number, colon: boolean): string {
  const sign = seconds < 0 ? '-' : '+';
  const abs = Math.abs(seconds);
  return `${sign}${pad(Math.floor(abs / 3600))}${colon ? ':' : ''}${pad(Math.floor((abs % 3600) / 60))}`;
}

/** ISO 8601 with the zone's offset, as json_ld uses: `2024-05-01T18:00:00-04:00`. */
export function toIso8601(instant: Date, tz: string): string {
  const ms = Math.floor(instant.getTime() / 1000) * 1000;
  const off = offsetSeconds(tz, ms);
  return `${ymdHis(utcParts(ms + off * 1000)).replace(' ', 'T')}${offsetString(off, true)}`;
}

/** Locales whose Intl short names are the tz database's abbreviations for a zone family. */
function abbrLocales(tz: string): string[] {
  if (/^(America|US|Canada|Pacific\/Honolulu)/.test(tz)) return ['en-US', 'en-CA'];
  if (tz === 'Europe/Dublin') return ['en-IE', 'en-GB'];
  if (/^(Europe|Africa\/Cairo|Africa\/Tripoli|Atlantic\/(Canary|Faroe|Madeira))/.test(tz)) return ['en-GB'];
  if (/^Australia\//.test(tz)) return ['en-AU'];
  if (/^(Pacific\/Auckland|Pacific\/Chatham|NZ)/.test(tz)) return ['en-NZ'];
  if (/^Asia\/(Kolkata|Calcutta)$/.test(tz)) return ['en-IN'];
  if (/^Africa\//.test(tz)) return ['en-ZA'];
  return [];
}

/** tz database abbreviations Intl has no English short name for: [standard, daylight]. */
const KNOWN_ABBR: Record<string, [string, string?]> = {
  'Asia/Tokyo': ['JST'],
  'Asia/Seoul': ['KST'],
  'Asia/Pyongyang': ['KST'],
  'Europe/Moscow': ['MSK'],
  'Europe/Simferopol': ['MSK'],
  'Asia/Jerusalem': ['IST', 'IDT'],
  'Asia/Tel_Aviv': ['IST', 'IDT'],
  'Asia/Karachi': ['PKT'],
  'Asia/Hong_Kong': ['HKT'],
  'Asia/Shanghai': ['CST'],
  'Asia/Taipei': ['CST'],
  'Asia/Macau': ['CST'],
  'Asia/Manila': ['PST'],
  'Asia/Jakarta': ['WIB'],
};

/**
 * PHP's `T` format: `EST`/`EDT`, `CET`/`CEST`, `GMT`/`BST`, `UTC`; zones without a letter abbreviation in the tz
 * database print their offset (`+03`, `+0530`, `-0330`); TEC's manual offsets (`UTC+2`) are shown as they are.
 */
export function timezoneAbbr(tz: string, instant: Date): string {
  if (utcOffsetZone(tz) !== null) return tz;
  const canonical = canonicalTimezone(tz);
  if (!canonical) throw new RangeError(`Unknown timezone ${tz}`);
  if (/^(UTC|Etc\/UTC|Etc\/UCT|UCT|Etc\/Universal|Universal|Zulu|Etc\/Zulu)$/.test(canonical)) return 'UTC';
  const ms = Math.floor(instant.getTime() / 1000) * 1000;
  const off = offsetSeconds(canonical, ms);
  // A zone's abbreviation follows its offset (standard / summer time): computed once per zone and offset (building
  // Intl formatters for it costs far more than everything else a presenter does).
  const key = `${canonical}|${off}|${new Date(ms).getUTCFullYear() < 1970 ? 'old' : 'new'}`;
  const hit = ABBR_MEMO.get(key);
  if (hit !== undefined) return hit;
  const name = zoneAbbr(canonical, ms, off);
  if (ABBR_MEMO.size > 2000) ABBR_MEMO.clear();
  ABBR_MEMO.set(key, name);
  return name;
}

const ABBR_MEMO = new Map<string, string>();

function zoneAbbr(canonical: string, ms: number, off: number): string {
  for (const locale of abbrLocales(canonical)) {
    const name = new Intl.DateTimeFormat(locale, { timeZone: canonical, timeZoneName: 'short' })
      .formatToParts(new Date(ms))
      .find((p) => p.type === 'timeZoneName')?.value;
    if (name && /^[A-Z]{2,5}$/.test(name) && (name !== 'GMT' || off === 0)) return name;
  }
  const known = KNOWN_ABBR[canonical];
  if (known) {
    if (known.length === 1 || !known[1]) return known[0];
    const jan = offsetSeconds(canonical, Date.UTC(new Date(ms).getUTCFullYear(), 0, 1));
    return off > jan ? known[1] : known[0];
  }
  if (off === 0) return /^(Europe\/London|GB|Europe\/Dublin|Africa\/Abidjan|Africa\/Accra|Atlantic\/Reykjavik|Iceland)/.test(canonical) ? 'GMT' : '+00';
  const hhmm = offsetString(off, false);
  return hhmm.endsWith('00') ? hhmm.slice(0, 3) : hhmm;
}
