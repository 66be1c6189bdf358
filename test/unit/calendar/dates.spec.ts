import fc from 'fast-check';
import { ValidationError } from '../../../src/errors/app-error';
import { normalizeEventTimes } from '../../../src/services/calendar/event-times';
import { eventDateWindow, parseStrictDates } from '../../../src/services/calendar/list-window';
import { parseWhen } from '../../../src/services/calendar/strtotime';
import {
  canonicalTimezone,
  dateDetails,
  formatYmdHis,
  fromWallClock,
  isValidTimezone,
  timezoneAbbr,
  toIso8601,
  wallClock,
} from '../../../src/services/calendar/timezones';

// Wednesday 2024-05-15 14:30:45 UTC = 10:30:45 in New York (EDT).
const NOW = new Date('2024-05-15T14:30:45Z');
const NY = 'America/New_York';

/** parseWhen's answer as a New York wall clock (or null). */
function ny(value: string, now = NOW): string | null {
  const at = parseWhen(value, { tz: NY, now });
  return at ? formatYmdHis(at, NY) : null;
}

function thrown(fn: () => unknown): ValidationError {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(ValidationError);
    return e as ValidationError;
  }
  throw new Error('expected a ValidationError');
}

describe('timezones', () => {
  it.each(['America/New_York', 'Europe/Paris', 'UTC', 'UTC+2', 'UTC-5:30', 'UTC+0', 'UTC+5.5', 'america/new_york'])('accepts %s', (tz) => {
    expect(isValidTimezone(tz)).toBe(true);
  });
  it.each(['', 'Mars/Olympus', 'UTC+25', 'GMT+2:00x', '+02:00', 'New York', 'UTC+2:75'])('refuses %j', (tz) => {
    expect(isValidTimezone(tz)).toBe(false);
  });

  it('spells zones canonically and keeps TEC offsets as given', () => {
    expect(canonicalTimezone('america/new_york')).toBe('America/New_York');
    expect(canonicalTimezone('UTC-5:30')).toBe('UTC-5:30');
    expect(canonicalTimezone('Nowhere/City')).toBeNull();
  });

  it('converts between instants and wall clocks', () => {
    expect(formatYmdHis(NOW, NY)).toBe('2024-05-15 10:30:45');
    expect(formatYmdHis(NOW, 'UTC+2')).toBe('2024-05-15 16:30:45');
    expect(formatYmdHis(NOW, 'UTC-5:30')).toBe('2024-05-15 09:00:45');
    expect(wallClock(NOW, 'Asia/Kolkata')).toEqual({ year: 2024, month: 5, day: 15, hour: 20, minute: 0, second: 45 });
    expect(fromWallClock('2024-05-15 10:30:45', NY).toISOString()).toBe('2024-05-15T14:30:45.000Z');
    expect(fromWallClock('2024-01-15 10:00:00', NY).toISOString()).toBe('2024-01-15T15:00:00.000Z');
    expect(fromWallClock({ year: 2024, month: 2, day: 30, hour: 0, minute: 0, second: 0 }, 'UTC').toISOString()).toBe('2024-03-01T00:00:00.000Z');
  });

  it('resolves DST gaps forward and overlaps to the first occurrence, as PHP does', () => {
    // 02:30 does not exist on 2024-03-10 in New York: PHP gives 03:30 EDT.
    expect(formatYmdHis(fromWallClock('2024-03-10 02:30:00', NY), NY)).toBe('2024-03-10 03:30:00');
    // 01:30 happens twice on 2024-11-03: PHP takes EDT (-04:00).
    expect(fromWallClock('2024-11-03 01:30:00', NY).toISOString()).toBe('2024-11-03T05:30:00.000Z');
    expect(fromWallClock('2024-03-31 02:30:00', 'Europe/Paris').toISOString()).toBe('2024-03-31T01:30:00.000Z');
  });

  it('gives zero-padded string date details', () => {
    expect(dateDetails('2024-05-01 07:05:09')).toEqual({ year: '2024', month: '05', day: '01', hour: '07', minutes: '05', seconds: '09' });
    expect(() => dateDetails('2024-5-1 7:05')).toThrow(RangeError);
  });

  it.each([
    [NY, '2024-01-15T12:00:00Z', 'EST'],
    [NY, '2024-07-15T12:00:00Z', 'EDT'],
    ['America/Los_Angeles', '2024-07-15T12:00:00Z', 'PDT'],
    ['Europe/Paris', '2024-01-15T12:00:00Z', 'CET'],
    ['Europe/Paris', '2024-07-15T12:00:00Z', 'CEST'],
    ['Europe/London', '2024-01-15T12:00:00Z', 'GMT'],
    ['Europe/London', '2024-07-15T12:00:00Z', 'BST'],
    ['Australia/Sydney', '2024-01-15T12:00:00Z', 'AEDT'],
    ['Asia/Tokyo', '2024-01-15T12:00:00Z', 'JST'],
    ['Europe/Istanbul', '2024-01-15T12:00:00Z', '+03'],
    ['America/Sao_Paulo', '2024-01-15T12:00:00Z', '-03'],
    ['Asia/Kathmandu', '2024-01-15T12:00:00Z', '+0545'],
    ['UTC', '2024-01-15T12:00:00Z', 'UTC'],
    ['UTC+2', '2024-01-15T12:00:00Z', 'UTC+2'],
  ])('abbreviates %s at %s as %s (PHP T format)', (tz, at, abbr) => {
    expect(timezoneAbbr(tz, new Date(at))).toBe(abbr);
  });

  it('writes ISO 8601 with the offset for json_ld', () => {
    expect(toIso8601(new Date('2024-05-01T22:00:00Z'), NY)).toBe('2024-05-01T18:00:00-04:00');
    expect(toIso8601(new Date('2024-01-01T22:00:00Z'), NY)).toBe('2024-01-01T17:00:00-05:00');
    expect(toIso8601(new Date('2024-01-01T22:00:00Z'), 'UTC-5:30')).toBe('2024-01-01T16:30:00-05:30');
    expect(toIso8601(new Date('2024-01-01T22:00:00Z'), 'UTC')).toBe('2024-01-01T22:00:00+00:00');
  });
});

describe('parseWhen (PHP is_time + strtotime)', () => {
  it('reads numeric strings as Unix timestamps', () => {
    expect(parseWhen('20240101', { tz: NY, now: NOW })!.toISOString()).toBe('1970-08-23T06:15:01.000Z');
    expect(parseWhen('0', { tz: NY, now: NOW })!.toISOString()).toBe('1970-01-01T00:00:00.000Z');
    expect(parseWhen('1714586400', { tz: NY, now: NOW })!.toISOString()).toBe('2024-05-01T18:00:00.000Z');
    expect(parseWhen('@1714586400', { tz: NY, now: NOW })!.toISOString()).toBe('2024-05-01T18:00:00.000Z');
  });

  it.each([
    ['2024-05-01', '2024-05-01 00:00:00'],
    ['2024-05-01 18:00', '2024-05-01 18:00:00'],
    ['2024-05-01 18:00:30', '2024-05-01 18:00:30'],
    ['2024-05-01T18:00:00', '2024-05-01 18:00:00'],
    ['2024/05/01', '2024-05-01 00:00:00'],
    ['05/01/2024', '2024-05-01 00:00:00'], // m/d/Y
    ['01-05-2024', '2024-05-01 00:00:00'], // d-m-Y
    ['01.05.2024', '2024-05-01 00:00:00'],
    ['May 1, 2024', '2024-05-01 00:00:00'],
    ['May 1st 2024 18:30', '2024-05-01 18:30:00'],
    ['1 May 2024 6pm', '2024-05-01 18:00:00'],
    ['1 May 2024 12am', '2024-05-01 00:00:00'],
    ['May 2024', '2024-05-01 00:00:00'],
    ['December 25', '2024-12-25 00:00:00'],
    ['2024-02-30', '2024-03-01 00:00:00'], // PHP overflows the day
    ['2024-05-01 24:00', '2024-05-02 00:00:00'],
  ])('reads %j as a New York wall clock %s', (input, expected) => {
    expect(ny(input)).toBe(expected);
  });

  it('honours an explicit offset or zone in the string', () => {
    const at = (s: string) => parseWhen(s, { tz: NY, now: NOW })!.toISOString();
    expect(at('2024-05-01T18:00:00Z')).toBe('2024-05-01T18:00:00.000Z');
    expect(at('2024-05-01T18:00:00.123+02:00')).toBe('2024-05-01T16:00:00.000Z');
    expect(at('2024-05-01 18:00 +0530')).toBe('2024-05-01T12:30:00.000Z');
    expect(at('2024-05-01 18:00 UTC')).toBe('2024-05-01T18:00:00.000Z');
    expect(at('2024-05-01 18:00 Europe/Paris')).toBe('2024-05-01T16:00:00.000Z');
    expect(at('Wed, 01 May 2024 18:00:00 +0000')).toBe('2024-05-01T18:00:00.000Z');
  });

  it.each([
    ['now', '2024-05-15 10:30:45'],
    ['NOW', '2024-05-15 10:30:45'],
    ['today', '2024-05-15 00:00:00'],
    ['midnight', '2024-05-15 00:00:00'],
    ['noon', '2024-05-15 12:00:00'],
    ['tomorrow', '2024-05-16 00:00:00'],
    ['tomorrow noon', '2024-05-16 12:00:00'],
    ['yesterday', '2024-05-14 00:00:00'],
    ['yesterday 23:59', '2024-05-14 23:59:00'],
    ['+1 week', '2024-05-22 10:30:45'],
    ['-2 days', '2024-05-13 10:30:45'],
    ['2 days ago', '2024-05-13 10:30:45'],
    ['+1 week 2 days', '2024-05-24 10:30:45'],
    ['+3 hours', '2024-05-15 13:30:45'],
    ['next monday', '2024-05-20 00:00:00'],
    ['last friday', '2024-05-10 00:00:00'],
    ['wednesday', '2024-05-15 00:00:00'], // today when it is that day
    ['next wednesday', '2024-05-22 00:00:00'],
    ['last wednesday', '2024-05-08 00:00:00'],
    ['monday 9am', '2024-05-20 09:00:00'],
    ['next month', '2024-06-15 10:30:45'],
    ['first day of next month', '2024-06-01 00:00:00'],
    ['last day of this month', '2024-05-31 00:00:00'],
    ['last day of february 2024', '2024-02-29 00:00:00'],
    ['+24 months', '2026-05-15 10:30:45'],
    ['2024-05-01 +1 day', '2024-05-02 00:00:00'],
  ])('reads the relative form %j (now = Wed 2024-05-15 10:30:45 New York) as %s', (input, expected) => {
    expect(ny(input)).toBe(expected);
  });

  it('overflows months like PHP (Jan 31 + 1 month = Mar 2 in a leap year)', () => {
    expect(ny('+1 month', new Date('2024-01-31T15:00:00Z'))).toBe('2024-03-02 10:00:00');
  });

  it.each(['', '   ', 'foo', 'tomorrowish', '2024-13-01', '2024-05-32', '10:00 11:00', '2024-05-01 2024-05-02', 'next', '25:00', '1 May 2024 13pm', 'Mars/Olympus', '<script>'])(
    'refuses %j',
    (input) => {
      expect(parseWhen(input, { tz: NY, now: NOW })).toBeNull();
    },
  );

  it('refuses non-strings other than finite numbers', () => {
    expect(parseWhen(undefined, { tz: NY, now: NOW })).toBeNull();
    expect(parseWhen({}, { tz: NY, now: NOW })).toBeNull();
    expect(parseWhen(86400, { tz: NY, now: NOW })!.toISOString()).toBe('1970-01-02T00:00:00.000Z');
  });
});

describe('eventDateWindow (GET /events, reference §3)', () => {
  const base = { strictDates: false, include: false };

  it('defaults to the start of yesterday (UTC sites and west) … now + 24 months, whole days', () => {
    expect(eventDateWindow(base, { siteTz: 'UTC', now: NOW })).toEqual({ startsOnOrAfter: '2024-05-14 00:00:00', endsOnOrBefore: '2026-05-15 23:59:59' });
    expect(eventDateWindow(base, { siteTz: NY, now: NOW })).toEqual({ startsOnOrAfter: '2024-05-14 00:00:00', endsOnOrBefore: '2026-05-15 23:59:59' });
  });

  it('starts today on UTC+ sites (yesterday 23:59 UTC is already today there)', () => {
    expect(eventDateWindow(base, { siteTz: 'Europe/Paris', now: NOW }).startsOnOrAfter).toBe('2024-05-15 00:00:00');
    expect(eventDateWindow(base, { siteTz: 'UTC+2', now: NOW }).startsOnOrAfter).toBe('2024-05-15 00:00:00');
  });

  it('keeps the default times in strict mode', () => {
    expect(eventDateWindow({ ...base, strictDates: true }, { siteTz: 'Europe/Paris', now: NOW })).toEqual({
      startsOnOrAfter: '2024-05-15 01:59:00',
      endsOnOrBefore: '2026-05-15 16:30:45',
    });
  });

  it('inclusive mode: start at 00:00:00 of its day (time discarded), end and the four comparisons at 23:59:59', () => {
    const w = eventDateWindow(
      { ...base, startDate: '2024-06-01 18:45', endDate: '2024-06-30 08:00', startsAfter: '2024-06-02 10:00', endsBefore: '2024-06-20' },
      { siteTz: NY, now: NOW },
    );
    expect(w).toEqual({
      startsOnOrAfter: '2024-06-01 00:00:00',
      endsOnOrBefore: '2024-06-30 23:59:59',
      startsAfter: '2024-06-02 23:59:59',
      endsBefore: '2024-06-20 23:59:59',
    });
  });

  it('shifts whole days by the multi-day cutoff when one is set', () => {
    const w = eventDateWindow({ ...base, startDate: '2024-06-01', endDate: '2024-06-30', startsBefore: '2024-06-10' }, { siteTz: 'UTC', now: NOW, multidayCutoff: '04:00' });
    expect(w).toEqual({ startsOnOrAfter: '2024-06-01 04:00:00', endsOnOrBefore: '2024-07-01 03:59:59', startsBefore: '2024-06-11 03:59:59' });
    expect(() => eventDateWindow(base, { siteTz: 'UTC', now: NOW, multidayCutoff: '25:00' })).toThrow(RangeError);
  });

  it('strict mode: values without offset are UTC, shown in the site timezone', () => {
    const w = eventDateWindow({ ...base, strictDates: true, startDate: '2024-06-01 18:45', endsAfter: '2024-06-02T10:00:00+02:00' }, { siteTz: NY, now: NOW });
    expect(w).toEqual({ startsOnOrAfter: '2024-06-01 14:45:00', endsAfter: '2024-06-02 04:00:00' });
  });

  it('any starts_*/ends_* drops the default start and end, but not explicit ones', () => {
    expect(eventDateWindow({ ...base, startsBefore: '2024-07-01' }, { siteTz: 'UTC', now: NOW })).toEqual({ startsBefore: '2024-07-01 23:59:59' });
    expect(eventDateWindow({ ...base, endsAfter: '2024-07-01', endDate: '2024-08-01' }, { siteTz: 'UTC', now: NOW })).toEqual({
      endsAfter: '2024-07-01 23:59:59',
      endsOnOrBefore: '2024-08-01 23:59:59',
    });
  });

  it('an explicit start_date keeps the default end (and the other way round)', () => {
    expect(eventDateWindow({ ...base, startDate: '2024-01-01' }, { siteTz: 'UTC', now: NOW })).toEqual({
      startsOnOrAfter: '2024-01-01 00:00:00',
      endsOnOrBefore: '2026-05-15 23:59:59',
    });
  });

  it('reads relative and numeric values against the injected clock', () => {
    expect(eventDateWindow({ ...base, startDate: 'now', endDate: '+1 week' }, { siteTz: 'UTC', now: NOW })).toEqual({
      startsOnOrAfter: '2024-05-15 00:00:00',
      endsOnOrBefore: '2024-05-22 23:59:59',
    });
    expect(eventDateWindow({ ...base, startDate: '20240101' }, { siteTz: 'UTC', now: NOW }).startsOnOrAfter).toBe('1970-08-23 00:00:00');
  });

  it('include ignores every date filter (but still validates them)', () => {
    expect(eventDateWindow({ ...base, include: true, startDate: '2024-01-01' }, { siteTz: 'UTC', now: NOW })).toEqual({});
    expect(() => eventDateWindow({ ...base, include: true, startDate: 'garbage' }, { siteTz: 'UTC', now: NOW })).toThrow(ValidationError);
  });

  it.each([
    ['startDate', 'start_date'],
    ['endDate', 'end_date'],
    ['startsBefore', 'starts_before'],
    ['startsAfter', 'starts_after'],
    ['endsBefore', 'ends_before'],
    ['endsAfter', 'ends_after'],
  ] as const)('an invalid %s is a field error in WordPress words', (field, restName) => {
    const e = thrown(() => eventDateWindow({ ...base, [field]: 'the day after forever' }, { siteTz: 'UTC', now: NOW }));
    expect(e.fieldErrors).toEqual([expect.objectContaining({ field, message: 'Invalid parameter.' })]);
    const snake = (f: string) => f.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
    expect(e.messageFor(snake)).toBe(`Invalid parameter(s): ${restName}`);
  });

  it('validates strict_dates as WordPress does', () => {
    expect(parseStrictDates(undefined)).toBe(false);
    expect(parseStrictDates('false')).toBe(false);
    expect(parseStrictDates('no')).toBe(false);
    for (const v of ['true', '1', 'yes', 'on', 'TRUE']) expect(parseStrictDates(v)).toBe(true);
    expect(thrown(() => parseStrictDates('0')).fieldErrors?.[0].field).toBe('strictDates');
    expect(() => parseStrictDates('')).toThrow(ValidationError);
  });
});

describe('normalizeEventTimes (writes, reference §4)', () => {
  const opts = { siteTz: 'UTC', now: NOW };

  it('parses both strings in the event timezone', () => {
    const t = normalizeEventTimes({ start: '2024-05-01 18:00', end: '2024-05-01 20:30', timezone: NY }, opts);
    expect(t).toEqual({
      timezone: NY,
      startLocal: '2024-05-01 18:00:00',
      endLocal: '2024-05-01 20:30:00',
      startUtc: new Date('2024-05-01T22:00:00Z'),
      endUtc: new Date('2024-05-02T00:30:00Z'),
    });
  });

  it('falls back to the site timezone when none (or an empty one) is given', () => {
    const t = normalizeEventTimes({ start: 'tomorrow 10am', end: 'tomorrow 11am', timezone: '' }, { siteTz: 'Europe/Paris', now: NOW });
    expect(t.timezone).toBe('Europe/Paris');
    expect(t.startLocal).toBe('2024-05-16 10:00:00');
    expect(t.startUtc.toISOString()).toBe('2024-05-16T08:00:00.000Z');
  });

  it('accepts TEC manual offsets', () => {
    const t = normalizeEventTimes({ start: '2024-05-01 18:00', end: '2024-05-01 19:00', timezone: 'UTC+2' }, opts);
    expect(t.timezone).toBe('UTC+2');
    expect(t.startUtc.toISOString()).toBe('2024-05-01T16:00:00.000Z');
  });

  it('an instant with its own offset is shown in the event timezone', () => {
    const t = normalizeEventTimes({ start: '2024-05-01T18:00:00Z', end: '2024-05-01T19:00:00Z', timezone: NY }, opts);
    expect(t.startLocal).toBe('2024-05-01 14:00:00');
  });

  it('moves an end before the start to the start', () => {
    const t = normalizeEventTimes({ start: '2024-05-01 18:00', end: '2024-04-01 10:00', timezone: NY }, opts);
    expect(t.endLocal).toBe('2024-05-01 18:00:00');
    expect(t.endUtc).toEqual(t.startUtc);
  });

  it('all day covers 00:00:00 … 23:59:59 of the days', () => {
    const t = normalizeEventTimes({ start: '2024-05-01 18:00', end: '2024-05-03 09:00', timezone: NY, allDay: true }, opts);
    expect([t.startLocal, t.endLocal]).toEqual(['2024-05-01 00:00:00', '2024-05-03 23:59:59']);
    expect(t.startUtc.toISOString()).toBe('2024-05-01T04:00:00.000Z');
    const back = normalizeEventTimes({ start: '2024-05-03', end: '2024-05-01', allDay: true }, opts);
    expect([back.startLocal, back.endLocal]).toEqual(['2024-05-03 00:00:00', '2024-05-03 23:59:59']);
  });

  it('names the bad field', () => {
    expect(thrown(() => normalizeEventTimes({ start: 'soon', end: '2024-05-01' }, opts)).fieldErrors?.[0].field).toBe('startDate');
    expect(thrown(() => normalizeEventTimes({ start: '2024-05-01', end: 'later' }, opts)).fieldErrors?.[0].field).toBe('endDate');
    expect(thrown(() => normalizeEventTimes({ start: '2024-05-01', end: '2024-05-02', timezone: 'Mars/Olympus' }, opts)).fieldErrors?.[0].field).toBe('timezone');
  });
});

describe('properties', () => {
  const zones = [NY, 'Europe/Paris', 'Australia/Lord_Howe', 'Asia/Kathmandu', 'America/St_Johns', 'UTC', 'UTC-5:30', 'UTC+14'];

  it('parseWhen answers a date or null for any input, never throws', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.stringMatching(/^[+\-@ 0-9a-z:/.,T]{0,30}$/)), fc.constantFrom(...zones), (input, tz) => {
        const at = parseWhen(input, { tz, now: NOW });
        expect(at === null || Number.isFinite(at.getTime())).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });

  it("an instant's wall clock maps back to the same wall clock (and to the instant outside DST overlaps)", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 4_102_444_800 }), fc.constantFrom(...zones), (seconds, tz) => {
        const instant = new Date(seconds * 1000);
        const local = formatYmdHis(instant, tz);
        const back = fromWallClock(local, tz);
        expect(formatYmdHis(back, tz)).toBe(local);
        // In an overlap the first occurrence wins, which is never later than the instant.
        expect(back.getTime()).toBeLessThanOrEqual(instant.getTime());
      }),
      { numRuns: 1000 },
    );
  });

  it('the window bounds are well-formed site-local strings, start before end', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 4_102_444_800 }), fc.constantFrom(...zones), fc.boolean(), (seconds, siteTz, strictDates) => {
        const w = eventDateWindow({ strictDates, include: false }, { siteTz, now: new Date(seconds * 1000) });
        expect(w.startsOnOrAfter).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
        expect(w.endsOnOrBefore! > w.startsOnOrAfter!).toBe(true);
      }),
      { numRuns: 300 },
    );
  });
});
