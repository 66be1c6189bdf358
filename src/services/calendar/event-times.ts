/** The start/end normalization of event writes (reference §4). Pure: the clock is always an argument (`now`). */
import { invalidParameter } from './error-codes';
import type { WindowOptions } from './list-window';
import { parseWhen } from './strtotime';
import { canonicalTimezone,formatYmdHis,fromWallClock } from './timezones';

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
