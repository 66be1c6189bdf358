/**
 * VTIMEZONEs built from Intl's tz data: read back by ical.js, a wall clock in the zone maps to the instant Intl gives,
 * across DST changes in both hemispheres, for zones without DST and for TEC's `UTC±H[:MM]` offsets.
 */
import { fromWallClock } from '../../../src/services/calendar/timezones';
import { icalOffset, icalTzid, transitions, vtimezone } from '../../../src/services/calendar/vtimezone';

type IcalModule = typeof import('ical.js', { with: { 'resolution-mode': 'import' } }).default;
// eslint-disable-next-line @typescript-eslint/no-require-imports
const ICAL = require('ical.js') as IcalModule;

function instantVia(vtz: string, tzid: string, wall: string): string {
  const cal = ICAL.Component.fromString(`BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//t//EN\r\n${vtz}\r\nEND:VCALENDAR`);
  const zone = new ICAL.Timezone(cal.getFirstSubcomponent('vtimezone')!);
  expect(zone.tzid).toBe(tzid);
  const t = ICAL.Time.fromDateTimeString(wall.replace(' ', 'T'));
  t.zone = zone;
  return t.toJSDate().toISOString();
}

describe('vtimezone', () => {
  it.each([
    ['America/New_York', '2026-03-08 01:30:00'],
    ['America/New_York', '2026-03-08 03:30:00'],
    ['America/New_York', '2026-07-04 12:00:00'],
    ['America/New_York', '2026-11-01 03:00:00'],
    ['Europe/Copenhagen', '2026-03-29 01:59:00'],
    ['Europe/Copenhagen', '2026-10-25 04:00:00'],
    ['Australia/Sydney', '2026-01-15 19:00:00'],
    ['Australia/Sydney', '2026-06-15 19:00:00'],
    ['Australia/Sydney', '2026-10-04 03:30:00'],
    ['Asia/Kolkata', '2026-05-01 09:15:00'],
    ['Asia/Tokyo', '2026-12-31 23:59:59'],
    ['UTC+5:30', '2026-05-01 09:15:00'],
    ['UTC-3', '2026-08-01 00:00:00'],
    ['UTC', '2026-08-01 00:00:00'],
  ])('%s: %s maps to the instant Intl gives', (tz, wall) => {
    const text = vtimezone(tz, 2026, 2026)!;
    expect(text).toMatch(/^BEGIN:VTIMEZONE\r\nTZID:/);
    expect(instantVia(text, icalTzid(tz), wall)).toBe(fromWallClock(wall, tz).toISOString());
  });

  it('names manual offsets with TZIDs a parameter can hold (issue 20.8): IANA fixed zones for whole hours, SAFE-CHARs otherwise', () => {
    expect(['UTC+5:30', 'UTC-9:30', 'UTC+5.75', 'UTC+2', 'UTC-3', 'UTC+14', 'UTC-12', 'UTC', 'UTC+0', 'Asia/Kolkata', 'Pacific/Chatham'].map(icalTzid)).toEqual([
      'UTC+0530',
      'UTC-0930',
      'UTC+0545',
      'Etc/GMT-2',
      'Etc/GMT+3',
      'Etc/GMT-14',
      'Etc/GMT+12',
      'UTC',
      'UTC',
      'Asia/Kolkata',
      'Pacific/Chatham',
    ]);
  });

  it('lists each DST change of the covered years once, with its offsets and names', () => {
    const text = vtimezone('Europe/Paris', 2026, 2027)!;
    expect(text.match(/BEGIN:DAYLIGHT/g)).toHaveLength(2);
    expect(text.match(/BEGIN:STANDARD/g)).toHaveLength(3);
    expect(text).toContain('BEGIN:DAYLIGHT\r\nDTSTART:20260329T020000\r\nTZOFFSETFROM:+0100\r\nTZOFFSETTO:+0200\r\nTZNAME:CEST');
    expect(text).toContain('BEGIN:STANDARD\r\nDTSTART:20261025T030000\r\nTZOFFSETFROM:+0200\r\nTZOFFSETTO:+0100\r\nTZNAME:CET');
    expect(transitions('Asia/Tokyo', Date.UTC(2026, 0, 1), Date.UTC(2027, 0, 1))).toEqual([]);
  });

  it('formats offsets as RFC 5545 utc-offset values and rejects unknown zones', () => {
    expect(icalOffset(19800)).toBe('+0530');
    expect(icalOffset(-12600)).toBe('-0330');
    expect(icalOffset(0)).toBe('+0000');
    expect(icalOffset(-(3600 + 61))).toBe('-010101');
    expect(vtimezone('Mars/Olympus_Mons', 2026, 2026)).toBeNull();
  });
});
