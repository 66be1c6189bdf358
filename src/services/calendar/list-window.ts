/**
 * The GET /events date window (reference §3): the date parameters of a list, validated and turned into site-local
 * bounds. Pure: the clock is always an argument (`now`).
 */
import { invalidParameter } from './error-codes';
import { parseWhen } from './strtotime';
import { formatYmdHis,utcMs,utcParts,ymdHis } from './timezones';

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
