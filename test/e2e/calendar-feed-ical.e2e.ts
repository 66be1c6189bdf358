/**
 * The .ics feed read by a real parser (ical.js) — issue 20 item 8: no CONTROL characters reach TEXT values
 * (RFC 5545 §3.3.11: HTAB allowed, newlines escaped), and events in WordPress' manual-offset zones (`UTC+5:30`,
 * `UTC-9:30`, `UTC+2`) and in Asia/Kolkata and Pacific/Chatham are at the right instants: every TZID is a valid
 * parameter value with its VTIMEZONE in the feed.
 */
import { IdentityFixtures } from '../fixtures/identity';
import { startTestApp, TestApp } from '../helpers/app';
import { createCalendarItem } from '../helpers/calendar-rest';

type IcalModule = typeof import('ical.js', { with: { 'resolution-mode': 'import' } }).default;
// eslint-disable-next-line @typescript-eslint/no-require-imports
const ICAL = require('ical.js') as IcalModule;

let t: TestApp;
let editor: string;
const ids: Record<string, number> = {};

const create = async (fields: Record<string, unknown>): Promise<number> => (await createCalendarItem<{ id: number }>(`${t.url}/calendar/events/v1`, 'events', fields, editor)).id;

beforeAll(async () => {
  t = await startTestApp({ env: { CALENDAR_NOW: '2026-01-01T00:00:00Z', CALENDAR_TIMEZONE: 'UTC+5:30' } });
  const f = new IdentityFixtures(t.db.dataSource);
  editor = await f.classicToken(await f.user('ics-editor', { calendarRole: 'editor' }), ['calendar']);
  const at = (title: string, timezone: string, start: string, end: string, extra: Record<string, unknown> = {}) =>
    create({ title, start_date: start, end_date: end, timezone, ...extra });
  ids.control = await at('Evil\u0001\b\u001b[31m title\u007f', 'UTC', '2026-06-10 19:00:00', '2026-06-10 20:00:00', {
    description: 'Bell\u0007 and\ttab<br>next\u000bline &#1;&#x1b;[0m',
  });
  ids.plus530 = await at('India offset', 'UTC+5:30', '2026-06-10 19:00:00', '2026-06-10 21:00:00');
  ids.minus930 = await at('Marquesas offset', 'UTC-9:30', '2026-06-10 19:00:00', '2026-06-10 21:00:00');
  ids.plus2 = await at('Whole hours', 'UTC+2', '2026-06-10 19:00:00', '2026-06-10 21:00:00');
  ids.kolkata = await at('Kolkata', 'Asia/Kolkata', '2026-06-10 19:00:00', '2026-06-10 21:00:00');
  ids.chathamWinter = await at('Chatham June', 'Pacific/Chatham', '2026-06-10 19:00:00', '2026-06-10 21:00:00');
  ids.chathamSummer = await at('Chatham January', 'Pacific/Chatham', '2026-01-10 19:00:00', '2026-01-10 21:00:00');
});

afterAll(async () => {
  await t?.close();
});

async function feed() {
  const res = await fetch(`${t.url}/calendar/events.ics?start_date=2026-01-01&end_date=2026-12-31`);
  expect(res.status).toBe(200);
  const text = await res.text();
  const calendar = new ICAL.Component(ICAL.parse(text));
  ICAL.TimezoneService.reset();
  for (const vtz of calendar.getAllSubcomponents('vtimezone')) ICAL.TimezoneService.register(vtz);
  const events = calendar.getAllSubcomponents('vevent').map((v) => new ICAL.Event(v));
  const byId = (id: number) => events.find((e) => e.uid.startsWith(`${id}@`))!;
  return { text, calendar, byId };
}

describe('iCalendar feed text and zones', () => {
  it('no CONTROL characters in the feed; tabs kept, newlines escaped', async () => {
    const { text, byId } = await feed();
    // Only CRLF line ends and HTAB among the C0 characters, and no DEL.
    expect(text.replace(/\r\n/g, '').match(/[\u0000-\u0008\u000A-\u001F\u007F]/g)).toBeNull();
    const e = byId(ids.control);
    expect(e.summary).toBe('Evil[31m title');
    expect(e.description).toBe('Bell and\ttab\nnextline [0m');
  });

  it('offset zones, Asia/Kolkata and Pacific/Chatham: valid TZIDs, each with its VTIMEZONE, at the right instants', async () => {
    const { text, calendar, byId } = await feed();
    const vtimezones = new Set(calendar.getAllSubcomponents('vtimezone').map((v) => v.getFirstPropertyValue('tzid')));
    const tzids = [...text.matchAll(/^DT(?:START|END);TZID=([^:;]*)[:;]/gm)].map((m) => m[1]);
    expect(tzids.length).toBeGreaterThan(0);
    for (const tzid of tzids) {
      // An unquoted parameter value has no `:`, `;` or `,` (RFC 5545 §3.1), and names a VTIMEZONE of the feed.
      expect(tzid).toMatch(/^[^:;,"]+$/);
      expect(vtimezones.has(tzid)).toBe(true);
    }
    const instant = (id: number) => {
      const e = byId(id);
      return [e.startDate.toJSDate().toISOString(), e.endDate.toJSDate().toISOString()];
    };
    expect(instant(ids.plus530)).toEqual(['2026-06-10T13:30:00.000Z', '2026-06-10T15:30:00.000Z']);
    expect(instant(ids.minus930)).toEqual(['2026-06-11T04:30:00.000Z', '2026-06-11T06:30:00.000Z']);
    expect(instant(ids.plus2)).toEqual(['2026-06-10T17:00:00.000Z', '2026-06-10T19:00:00.000Z']);
    expect(instant(ids.kolkata)).toEqual(['2026-06-10T13:30:00.000Z', '2026-06-10T15:30:00.000Z']);
    // Chatham: +12:45 in (southern) winter, +13:45 in summer.
    expect(instant(ids.chathamWinter)).toEqual(['2026-06-10T06:15:00.000Z', '2026-06-10T08:15:00.000Z']);
    expect(instant(ids.chathamSummer)).toEqual(['2026-01-10T05:15:00.000Z', '2026-01-10T07:15:00.000Z']);
    // The whole-hour offset is the IANA fixed zone; the site's own zone is named the same way.
    expect(text).toMatch(/^DTSTART;TZID=Etc\/GMT-2:20260610T190000\r$/m);
    expect(text).toMatch(/^X-WR-TIMEZONE:UTC\+0530\r$/m);
  });
});
