/**
 * Calendar date/time rules: timezones, PHP-style date parsing, the GET /events date window (reference §3) and the
 * start/end normalization of writes (reference §4). Pure functions: the clock is always an argument (`now`).
 *
 * Parser choice: none of the maintained candidates fits, so `parseWhen` is a small tokenizer of its own.
 *  - locutus/php/datetime/strtotime ports PHP's strtotime but computes in the process's local zone (setting
 *    process.env.TZ per call is global state shared by concurrent requests) and is not in our dependencies;
 *  - chrono-node parses English prose with its own (non-PHP) rules: `05/01/2024` vs `01-05-2024`, numeric strings as
 *    timestamps and `next monday` differ from PHP, and clients of The Events Calendar send PHP forms;
 *  - dayjs / date-fns-tz only parse fixed formats.
 * Timezone arithmetic uses Intl (the ICU tz database shipped with Node), no library needed.
 *
 * Instants are `Date`s with whole seconds (PHP's resolution). Wall-clock strings are `'YYYY-MM-DD HH:MM:SS'`.
 */
import { ValidationError } from '../../errors/app-error';
import { CALENDAR_CODES } from './error-codes';

// ---------------------------------------------------------------------------------------------------------------
// Timezones
// ---------------------------------------------------------------------------------------------------------------

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
  // and is answered from the memo afterwards (formatToParts per date was ~10 % of a REST event list's CPU).
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

function utcParts(ms: number): WallClock {
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
function utcMs(p: WallClock): number {
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

function ymdHis(p: WallClock): string {
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

// ---------------------------------------------------------------------------------------------------------------
// parseWhen: PHP is_time + strtotime subset
// ---------------------------------------------------------------------------------------------------------------

const MONTHS: Record<string, number> = {
  january: 1, jan: 1, february: 2, feb: 2, march: 3, mar: 3, april: 4, apr: 4, may: 5, june: 6, jun: 6,
  july: 7, jul: 7, august: 8, aug: 8, september: 9, sept: 9, sep: 9, october: 10, oct: 10, november: 11, nov: 11,
  december: 12, dec: 12,
};
const WEEKDAYS: Record<string, number> = {
  sunday: 0, sun: 0, monday: 1, mon: 1, tuesday: 2, tue: 2, tues: 2, wednesday: 3, wed: 3, thursday: 4, thu: 4,
  thur: 4, thurs: 4, friday: 5, fri: 5, saturday: 6, sat: 6,
};
const RELATIVE_WORDS: Record<string, number> = {
  next: 1, last: -1, previous: -1, this: 0, first: 1, second: 2, third: 3, fourth: 4, fifth: 5, sixth: 6, seventh: 7,
  eighth: 8, ninth: 9, tenth: 10, eleventh: 11, twelfth: 12,
};
type Unit = 'y' | 'm' | 'd' | 'h' | 'i' | 's';
const UNITS: Record<string, [Unit, number]> = {
  sec: ['s', 1], secs: ['s', 1], second: ['s', 1], seconds: ['s', 1],
  min: ['i', 1], mins: ['i', 1], minute: ['i', 1], minutes: ['i', 1],
  hour: ['h', 1], hours: ['h', 1],
  day: ['d', 1], days: ['d', 1],
  week: ['d', 7], weeks: ['d', 7], fortnight: ['d', 14], fortnights: ['d', 14], forthnight: ['d', 14],
  month: ['m', 1], months: ['m', 1],
  year: ['y', 1], years: ['y', 1],
};

const MONTH_RE = Object.keys(MONTHS).sort((a, b) => b.length - a.length).join('|');
const WEEKDAY_RE = Object.keys(WEEKDAYS).sort((a, b) => b.length - a.length).join('|');
const UNIT_RE = Object.keys(UNITS).sort((a, b) => b.length - a.length).join('|');
const RELWORD_RE = Object.keys(RELATIVE_WORDS).join('|');
/** A word must end here (not run into more letters). */
const END = '(?![a-z])';
const MERIDIAN = '([ap])\\.?m\\.?(?![a-z])';

interface ParseState {
  date?: { y?: number; m: number; d: number };
  time?: { h: number; i: number; s: number };
  /** Time fields forced by today/midnight/noon/weekday names without counting as "a time was given". */
  timeReset?: { h: number; i: number; s: number };
  rel: Record<Unit, number>;
  weekday?: { day: number; behavior: 0 | 1; d: number };
  firstLast?: 'first' | 'last';
  zoneSeconds?: number;
  zoneName?: string;
  timestamp?: number;
}

type Handler = (m: RegExpExecArray, st: ParseState) => boolean;

/** A date whose day comes from the base date (a month name alone). */
const KEEP_DAY = -1;

function setDate(st: ParseState, y: number | undefined, m: number, d: number): boolean {
  if (st.date) return false; // PHP: "Double date specification"
  if (m < 1 || m > 12 || d < KEEP_DAY || d > 31) return false;
  st.date = { y, m, d };
  return true;
}

function setTime(st: ParseState, h: number, i: number, s: number): boolean {
  if (st.time) return false; // PHP: "Double time specification"
  if (h > 24 || i > 59 || s > 60) return false;
  st.time = { h, i, s };
  st.timeReset = undefined;
  return true;
}

function meridianHour(h: number, mer: string | undefined): number | null {
  if (!mer) return h;
  if (h < 1 || h > 12) return null;
  if (mer === 'a') return h === 12 ? 0 : h;
  return h === 12 ? 12 : h + 12;
}

function resetTime(st: ParseState, h = 0): void {
  st.time = undefined;
  st.timeReset = { h, i: 0, s: 0 };
}

function setZone(st: ParseState, seconds: number | undefined, name?: string): boolean {
  if (st.zoneSeconds !== undefined || st.zoneName !== undefined) return false; // "Double timezone specification"
  if (seconds !== undefined) st.zoneSeconds = seconds;
  if (name !== undefined) st.zoneName = name;
  return true;
}

function zoneOffset(sign: string, hh: string, mm: string | undefined): number {
  const total = Number(hh) * 3600 + Number(mm ?? 0) * 60;
  return sign === '-' ? -total : total;
}

const TIME_TAIL = `(?:[:.](\\d{2})(?:[:.](\\d{2})(?:[.,]\\d+)?)?)?`;

/** The formats, tried in order at each position (first match wins, as in PHP's scanner for these forms). */
const FORMATS: Array<[RegExp, Handler]> = [
  [/@(-?\d+)(?:\.\d+)?/y, (m, st) => {
    if (st.timestamp !== undefined) return false;
    st.timestamp = Number(m[1]);
    return true;
  }],
  [new RegExp(`(now|today|midnight|noon|tomorrow|yesterday)${END}`, 'y'), (m, st) => {
    switch (m[1]) {
      case 'now': break;
      case 'noon': resetTime(st, 12); break;
      case 'today': case 'midnight': resetTime(st); break;
      case 'tomorrow': st.rel.d += 1; resetTime(st); break;
      case 'yesterday': st.rel.d -= 1; resetTime(st); break;
    }
    return true;
  }],
  [/(first|last) day of(?![a-z])/y, (m, st) => {
    st.firstLast = m[1] as 'first' | 'last';
    resetTime(st);
    return true;
  }],
  // ISO 8601 date and time: 2024-05-01T18:00[:00[.000]]
  [/(\d{4})-(\d{1,2})-(\d{1,2})t(\d{1,2}):(\d{2})(?::(\d{2})(?:[.,]\d+)?)?/y, (m, st) =>
    setDate(st, +m[1], +m[2], +m[3]) && setTime(st, +m[4], +m[5], +(m[6] ?? 0))],
  // 2024-05-01, 2024/05/01
  [/(\d{4})([-/])(\d{1,2})\2(\d{1,2})(?![\d])/y, (m, st) => setDate(st, +m[1], +m[3], +m[4])],
  // 05/01/2024 (American m/d/Y), 05/01 (m/d)
  [/(\d{1,2})\/(\d{1,2})(?:\/(\d{4}))?(?![\d])/y, (m, st) => setDate(st, m[3] ? +m[3] : undefined, +m[1], +m[2])],
  // 01-05-2024, 01.05.2024 (d-m-Y, d.m.Y)
  [/(\d{1,2})([-.])(\d{1,2})\2(\d{4})(?![\d])/y, (m, st) => setDate(st, +m[4], +m[3], +m[1])],
  // May 1, 2024 / May 1st 2024 / May 1
  [new RegExp(`(${MONTH_RE})\\.?[ \\t]+(\\d{1,2})(?:st|nd|rd|th)?(?!\\d|:)(?:,?[ \\t]*(\\d{4})(?![\\d:]))?`, 'y'), (m, st) =>
    setDate(st, m[3] ? +m[3] : undefined, MONTHS[m[1]], +m[2])],
  // 1 May 2024 / 1-May-2024 / 1st May
  [new RegExp(`(\\d{1,2})(?:st|nd|rd|th)?[ \\t.-]*(${MONTH_RE})${END}\\.?(?:[ \\t.-]*(\\d{4})(?![\\d:]))?`, 'y'), (m, st) =>
    setDate(st, m[3] ? +m[3] : undefined, MONTHS[m[2]], +m[1])],
  // May 2024
  [new RegExp(`(${MONTH_RE})${END}\\.?[ \\t]*(\\d{4})(?![\\d:])`, 'y'), (m, st) => setDate(st, +m[2], MONTHS[m[1]], 1)],
  // a month name alone: that month, the day of the base date (PHP)
  [new RegExp(`(${MONTH_RE})${END}\\.?`, 'y'), (m, st) => setDate(st, undefined, MONTHS[m[1]], KEEP_DAY)],
  // 6pm, 6:30pm, 6:30:15 pm, 6 p.m.
  [new RegExp(`(\\d{1,2})${TIME_TAIL}[ \\t]*${MERIDIAN}`, 'y'), (m, st) => {
    const h = meridianHour(+m[1], m[4]);
    return h !== null && setTime(st, h, +(m[2] ?? 0), +(m[3] ?? 0));
  }],
  // 18:00, 18:00:00, t18:00, 18.00.00 (only with colons for the first separator)
  [/t?(\d{1,2}):(\d{2})(?::(\d{2})(?:[.,]\d+)?)?/y, (m, st) => setTime(st, +m[1], +m[2], +(m[3] ?? 0))],
  // zones: z, utc, gmt, +02:00, +0200, +02, (gmt|utc)+2
  [/(?:z|utc|gmt|ut)(?:([+-])(\d{1,2})(?::?(\d{2}))?)?(?![a-z])/y, (m, st) =>
    setZone(st, m[1] ? zoneOffset(m[1], m[2], m[3]) : 0)],
  [/([+-])(\d{2}):?(\d{2})(?![\d])(?![ \t]*[a-z])/y, (m, st) => st.date !== undefined || st.time !== undefined ? setZone(st, zoneOffset(m[1], m[2], m[3])) : false],
  [/([+-])(\d{2})(?![\d:])(?![ \t]*[a-z])/y, (m, st) => st.time !== undefined ? setZone(st, zoneOffset(m[1], m[2], undefined)) : false],
  // IANA names: Europe/Paris, America/Argentina/Buenos_Aires
  [/([a-z]+(?:\/[a-z0-9_+\-]+)+)/y, (m, st) => {
    const name = canonicalTimezone(m[1]);
    return name !== null && setZone(st, undefined, name);
  }],
  // next monday, last friday, this sunday
  [new RegExp(`(${RELWORD_RE})[ \\t]+(${WEEKDAY_RE})${END}`, 'y'), (m, st) => {
    const amount = RELATIVE_WORDS[m[1]];
    const behavior = m[1] === 'this' ? 1 : 0;
    if (st.weekday) return false;
    st.weekday = { day: WEEKDAYS[m[2]], behavior, d: (amount > 0 ? amount - 1 : amount) * 7 };
    resetTime(st);
    return true;
  }],
  // next week, last month, this year, second day
  [new RegExp(`(${RELWORD_RE})[ \\t]+(${UNIT_RE})${END}`, 'y'), (m, st) => {
    const [unit, mult] = UNITS[m[2]];
    st.rel[unit] += RELATIVE_WORDS[m[1]] * mult;
    return true;
  }],
  // +1 week, -2 days, 3 months, +1 monday (PHP allows signs to repeat: "+-1")
  [new RegExp(`([+-]*)[ \\t]*(\\d{1,13})[ \\t]*(${UNIT_RE}|${WEEKDAY_RE})${END}`, 'y'), (m, st) => {
    const neg = (m[1].match(/-/g) ?? []).length % 2 === 1;
    const n = (neg ? -1 : 1) * Number(m[2]);
    const word = m[3];
    if (word in UNITS) {
      const [unit, mult] = UNITS[word];
      st.rel[unit] += n * mult;
      return true;
    }
    if (st.weekday) return false;
    st.weekday = { day: WEEKDAYS[word], behavior: 0, d: (n > 0 ? n - 1 : n) * 7 };
    resetTime(st);
    return true;
  }],
  [/ago(?![a-z])/y, (_m, st) => {
    for (const k of Object.keys(st.rel) as Unit[]) st.rel[k] = -st.rel[k];
    if (st.weekday) st.weekday.d = -st.weekday.d;
    return true;
  }],
  // a weekday name alone: this one or the next
  [new RegExp(`(${WEEKDAY_RE})${END}\\.?`, 'y'), (m, st) => {
    if (st.weekday) return true; // "Wed, 01 May 2024": a second day name changes nothing PHP-wise here
    st.weekday = { day: WEEKDAYS[m[1]], behavior: 1, d: 0 };
    resetTime(st);
    return true;
  }],
];

const NUMERIC = /^[ \t\n\r\v\f]*[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?[ \t\n\r\v\f]*$/;

export interface ParseWhenOptions {
  /** The zone of wall-clock strings without an offset, and of `today`, `midnight` … */
  tz: string;
  now: Date;
}

/**
 * PHP `is_time` + `strtotime`, for the forms clients of The Events Calendar send. A numeric string is a Unix
 * timestamp (`20240101` → 1970-08-23). Wall clocks without offset are in `tz`. Unknown input → null.
 */
export function parseWhen(value: unknown, opts: ParseWhenOptions): Date | null {
  return inCalendarRange(parseWhenAnyYear(value, opts));
}

/** Earliest and latest instants a calendar date may be: years 0001 … 9999 in every timezone (±14 h of slack). */
const FIRST_MS = Date.UTC(1, 0, 1) + 14 * 3_600_000;
const LAST_MS = Date.UTC(9999, 11, 31, 23, 59, 59) - 14 * 3_600_000;

/**
 * Only dates whose wall clock has a four-digit year anywhere on Earth (PHP's `Y-m-d H:i:s`, the columns'
 * `YYYY-MM-DD HH:MM:SS`): anything else is no date at all (a 400 for the parameter, never a 500 further on).
 */
function inCalendarRange(d: Date | null): Date | null {
  if (d === null) return null;
  const t = d.getTime();
  return Number.isFinite(t) && t >= FIRST_MS && t <= LAST_MS ? d : null;
}

function parseWhenAnyYear(value: unknown, opts: ParseWhenOptions): Date | null {
  if (typeof value === 'number') return Number.isFinite(value) ? new Date(Math.floor(value) * 1000) : null;
  if (typeof value !== 'string') return null;
  if (NUMERIC.test(value)) {
    const n = Math.floor(Number(value.trim()));
    return Number.isFinite(n) && Math.abs(n) < 8.64e12 ? new Date(n * 1000) : null;
  }
  const input = value.toLowerCase().trim();
  if (input === '' || input.length > 200) return null;

  const st: ParseState = { rel: { y: 0, m: 0, d: 0, h: 0, i: 0, s: 0 } };
  let pos = 0;
  while (pos < input.length) {
    const c = input[pos];
    if (c === ' ' || c === '\t' || c === ',' || c === '\n') {
      pos++;
      continue;
    }
    let matched = false;
    for (const [re, handler] of FORMATS) {
      re.lastIndex = pos;
      const m = re.exec(input);
      if (!m || m[0] === '') continue;
      if (!handler(m, st)) return null;
      pos += m[0].length;
      matched = true;
      break;
    }
    if (!matched) return null;
  }
  return resolve(st, opts);
}

function resolve(st: ParseState, opts: ParseWhenOptions): Date | null {
  const nowMs = Math.floor(opts.now.getTime() / 1000) * 1000;
  if (st.timestamp !== undefined) {
    // "@ts" may still carry relative parts ("@0 +1 day"); it is always UTC.
    const base = utcParts(st.timestamp * 1000);
    return finish(base, st, (p) => utcMs(p));
  }
  const zone = st.zoneName ?? (st.zoneSeconds === undefined ? opts.tz : undefined);
  const toInstant = (p: WallClock): number =>
    zone !== undefined ? fromWallClock(p, zone).getTime() : utcMs(p) - st.zoneSeconds! * 1000;
  const baseMs = zone !== undefined ? nowMs + offsetSeconds(zone, nowMs) * 1000 : nowMs + st.zoneSeconds! * 1000;
  const base = utcParts(baseMs);
  if (st.date) {
    if (st.date.y !== undefined) base.year = st.date.y;
    base.month = st.date.m;
    if (st.date.d !== KEEP_DAY) base.day = st.date.d;
    if (!st.time) base.hour = base.minute = base.second = 0;
  }
  if (st.timeReset) Object.assign(base, { hour: st.timeReset.h, minute: st.timeReset.i, second: st.timeReset.s });
  if (st.time) Object.assign(base, { hour: st.time.h, minute: st.time.i, second: st.time.s });
  return finish(base, st, toInstant);
}

/** Years 0001-9999 and a little around them; further is refused (PHP would answer, nobody means it). */
const MAX_MS = 253_402_300_800_000 + 366 * 86_400_000;

function finish(p: WallClock, st: ParseState, toInstant: (p: WallClock) => number): Date | null {
  let w = { ...p };
  if (st.weekday) {
    // PHP's do_adjust_for_weekday on the (normalized) date before the relative offsets.
    w = utcParts(utcMs(w));
    const current = new Date(utcMs(w)).getUTCDay();
    let diff = st.weekday.day - current;
    if ((st.weekday.d < 0 && diff < 0) || (st.weekday.d >= 0 && diff <= -st.weekday.behavior)) diff += 7;
    w.day += diff + st.weekday.d;
  }
  w.year += st.rel.y;
  w.month += st.rel.m;
  w.day += st.rel.d;
  if (st.firstLast === 'first') w.day = 1;
  if (st.firstLast === 'last') {
    // normalize year/month first (PHP normalizes month overflow before applying "last day of")
    const ym = utcParts(utcMs({ ...w, day: 1 }));
    w.year = ym.year;
    w.month = ym.month + 1;
    w.day = 0;
  }
  // hours/minutes/seconds are added on the wall clock too (PHP does the same for relative h/i/s)
  w.hour += st.rel.h;
  w.minute += st.rel.i;
  w.second += st.rel.s;
  // Beyond what Date can hold (±273,790 years), or what is sensible: not a time.
  const approx = utcMs(w);
  if (!Number.isFinite(approx) || Math.abs(approx) > MAX_MS) return null;
  const ms = toInstant(w);
  if (!Number.isFinite(ms)) return null;
  return new Date(ms);
}

// ---------------------------------------------------------------------------------------------------------------
// GET /events date window (reference §3)
// ---------------------------------------------------------------------------------------------------------------

export interface EventDateQuery {
  startDate?: string;
  endDate?: string;
  startsBefore?: string;
  startsAfter?: string;
  endsBefore?: string;
  endsAfter?: string;
  strictDates: boolean;
  /** `include` was given: "date filters are ignored". */
  include: boolean;
}

/** Site-local `'Y-m-d H:i:s'` bounds, compared with each event's local start/end. All ANDed. */
export interface EventDateWindow {
  /** start_date: event start ≥ this */
  startsOnOrAfter?: string;
  /** end_date: event end ≤ this */
  endsOnOrBefore?: string;
  /** starts_before: start < this */
  startsBefore?: string;
  /** starts_after: start > this */
  startsAfter?: string;
  /** ends_before: end < this */
  endsBefore?: string;
  /** ends_after: end > this */
  endsAfter?: string;
}

export interface WindowOptions {
  siteTz: string;
  now: Date;
  /**
   * TEC's "end of day cutoff" for multi-day events (`'HH:MM'`, default `'00:00'`): in inclusive mode a day then
   * runs from HH:MM:00 to HH:MM:00 of the next day minus one second.
   */
  multidayCutoff?: string;
}

const DATE_PARAMS = ['startDate', 'endDate', 'startsBefore', 'startsAfter', 'endsBefore', 'endsAfter'] as const;
type DateParam = (typeof DATE_PARAMS)[number];

/** WordPress' per-parameter validation failure: "Invalid parameter(s): start_date" / params.start_date "Invalid parameter." */
export function invalidParameter(field: string, resource = 'Event', message = 'Invalid parameter.'): ValidationError {
  return new ValidationError(`Invalid parameter(s): {{${field}}}`, {
    // The family code on both transports (GraphQL shows it as extensions.domainCode, as it does for every other
    // calendar rest_invalid_param).
    domainCode: CALENDAR_CODES.INVALID_PARAM,
    namesFields: true,
    fieldErrors: [{ resource, field, code: 'invalid', message }],
  });
}

/**
 * `strict_dates` as WordPress validates it: a non-empty string (`"0"` and `""` are refused, PHP's empty());
 * true for `true|1|yes|on` (any case), false for any other string. Absent → false.
 */
export function parseStrictDates(raw: unknown): boolean {
  if (raw === undefined || raw === null) return false;
  if (typeof raw === 'boolean') return raw;
  if (typeof raw !== 'string' || raw === '' || raw === '0') throw invalidParameter('strictDates');
  return /^(true|1|yes|on)$/i.test(raw.trim());
}

/**
 * The effective date bounds of GET /events (reference §3):
 *  - every given value must be a PHP time (numeric = Unix timestamp, else strtotime), else ValidationError naming it;
 *  - defaults: start = UTC "yesterday 23:59" shown in the site TZ, end = now + 24 months (site wall clock);
 *    any of starts_before/starts_after/ends_before/ends_after drops the default start/end (an explicit start_date/end_date stays);
 *  - inclusive (not strict): start → 00:00:00 of its day, end and those four → 23:59:59 of their
 *    day, the day being the raw value's date as PHP reads it (UTC, WordPress' PHP zone); days shift by
 *    `multidayCutoff` when one is configured;
 *  - strict: the instant (a value without offset read as UTC) shown in the site TZ;
 *  - include: no window at all (values are still validated).
 */
export function eventDateWindow(query: EventDateQuery, opts: WindowOptions): EventDateWindow {
  const cutoff = /^([01]\d|2[0-3]):([0-5]\d)$/.exec(opts.multidayCutoff ?? '00:00');
  if (!cutoff) throw new RangeError(`Bad multi-day cutoff ${String(opts.multidayCutoff)}`);
  /** Y-m-d of a UTC-read instant or site-local string → the start / end of that (cutoff-shifted) day. */
  const dayStart = (ymd: string): string => `${ymd} ${cutoff[1]}:${cutoff[2]}:00`;
  const dayEnd = (ymd: string): string => {
    const [y, m, d] = ymd.split('-').map(Number);
    return ymdHis(utcParts(utcMs({ year: y, month: m, day: d + 1, hour: +cutoff[1], minute: +cutoff[2], second: -1 })));
  };
  const parsed: Partial<Record<DateParam, Date>> = {};
  for (const key of DATE_PARAMS) {
    const raw = query[key];
    if (raw === undefined) continue;
    const at = parseWhen(raw, { tz: 'UTC', now: opts.now });
    if (!at) throw invalidParameter(key);
    parsed[key] = at;
  }
  if (query.include) return {};

  const hasRange = parsed.startsBefore || parsed.startsAfter || parsed.endsBefore || parsed.endsAfter;
  const site = opts.siteTz;
  // Defaults, as site-local wall clocks.
  let start: string | undefined;
  let end: string | undefined;
  if (parsed.startDate) start = query.strictDates ? formatYmdHis(parsed.startDate, site) : dayStart(formatYmdHis(parsed.startDate, 'UTC').slice(0, 10));
  else if (!hasRange) {
    const yesterday = parseWhen('yesterday 23:59', { tz: 'UTC', now: opts.now })!;
    const local = formatYmdHis(yesterday, site);
    start = query.strictDates ? local : dayStart(local.slice(0, 10));
  }
  if (parsed.endDate) end = query.strictDates ? formatYmdHis(parsed.endDate, site) : dayEnd(formatYmdHis(parsed.endDate, 'UTC').slice(0, 10));
  else if (!hasRange) {
    const later = parseWhen('+24 months', { tz: site, now: opts.now })!;
    const local = formatYmdHis(later, site);
    end = query.strictDates ? local : dayEnd(local.slice(0, 10));
  }
  const bound = (key: Exclude<DateParam, 'startDate' | 'endDate'>): string | undefined => {
    const at = parsed[key];
    if (!at) return undefined;
    return query.strictDates ? formatYmdHis(at, site) : dayEnd(formatYmdHis(at, 'UTC').slice(0, 10));
  };
  const out: EventDateWindow = {};
  if (start !== undefined) out.startsOnOrAfter = start;
  if (end !== undefined) out.endsOnOrBefore = end;
  for (const key of ['startsBefore', 'startsAfter', 'endsBefore', 'endsAfter'] as const) {
    const v = bound(key);
    if (v !== undefined) out[key] = v;
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------------------
// Writes (reference §4)
// ---------------------------------------------------------------------------------------------------------------

export interface EventTimesInput {
  start: string;
  end: string;
  /** The event's timezone as sent; empty/undefined → the site timezone. */
  timezone?: string | null;
  allDay?: boolean;
}

export interface EventTimes {
  /** The effective timezone (canonical spelling), never empty. */
  timezone: string;
  startLocal: string;
  endLocal: string;
  startUtc: Date;
  endUtc: Date;
}

/**
 * Start/end of a write: both parsed in the event timezone (else the site's), natural language allowed;
 * all_day → 00:00:00 of the start day … 23:59:59 of the end day; end before start → end = start.
 * Invalid timezone/start/end → ValidationError naming `timezone` / `startDate` / `endDate`.
 */
export function normalizeEventTimes(input: EventTimesInput, opts: WindowOptions): EventTimes {
  let tz = opts.siteTz;
  if (input.timezone !== undefined && input.timezone !== null && input.timezone !== '') {
    const canonical = typeof input.timezone === 'string' ? canonicalTimezone(input.timezone) : null;
    if (!canonical) throw invalidParameter('timezone');
    tz = canonical;
  }
  const start = parseWhen(input.start, { tz, now: opts.now });
  if (!start) throw invalidParameter('startDate');
  const end = parseWhen(input.end, { tz, now: opts.now });
  if (!end) throw invalidParameter('endDate');

  let startLocal = formatYmdHis(start, tz);
  let endLocal = formatYmdHis(end, tz);
  if (input.allDay) {
    startLocal = `${startLocal.slice(0, 10)} 00:00:00`;
    endLocal = `${endLocal.slice(0, 10)} 23:59:59`;
  }
  if (endLocal < startLocal) endLocal = startLocal; // wall-clock strings sort chronologically within one zone
  if (input.allDay && endLocal.slice(11) !== '23:59:59') endLocal = `${endLocal.slice(0, 10)} 23:59:59`;
  return {
    timezone: tz,
    startLocal,
    endLocal,
    startUtc: fromWallClock(startLocal, tz),
    endUtc: fromWallClock(endLocal, tz),
  };
}
