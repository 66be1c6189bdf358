/**
 * `parseWhen`: PHP `is_time` + a `strtotime` subset, for the forms clients of The Events Calendar send. Pure: the
 * clock is always an argument (`now`).
 *
 * Parser choice: none of the maintained candidates fits, so this is a small tokenizer of its own.
 *  - locutus/php/datetime/strtotime ports PHP's strtotime but computes in the process's local zone (setting
 *    process.env.TZ per call is global state shared by concurrent requests) and is not in our dependencies;
 *  - chrono-node parses English prose with its own (non-PHP) rules: `05/01/2024` vs `01-05-2024`, numeric strings as
 *    timestamps and `next monday` differ from PHP, and clients of The Events Calendar send PHP forms;
 *  - dayjs / date-fns-tz only parse fixed formats.
 */
import { canonicalTimezone,fromWallClock,offsetSeconds,utcMs,utcParts } from './timezones';
import type { WallClock } from './timezones';

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
