/**
 * iCalendar import on a real database (parsed in the worker thread, as in production): fields, zones, all-day
 * ends, categories/venue/organizer through the events service, repeatable by UID, access, and bad files.
 */
import type { AccountEntity } from '../../../entities/identity';
import { CalendarEventEntity, CalendarEventSourceEntity } from '../../../entities/calendar';
import type { Viewer } from '../../../src/auth/viewer';
import { loadConfig } from '../../../src/config';
import type { RequestContext } from '../../../src/context';
import { AppError, ForbiddenError, UnauthenticatedError, ValidationError } from '../../../src/errors/app-error';
import { parseIcs } from '../../../src/services/calendar/ical-import/parse';
import { IdentityFixtures } from '../../fixtures/identity';
import { testContexts, TestContexts } from '../../helpers/context';
import { openTestDatabase, TestDatabase } from '../../helpers/db';

const ics = (...events: string[]) =>
  ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//test//import//EN', ...events, 'END:VCALENDAR', ''].join('\r\n');

const JAZZ = [
  'BEGIN:VEVENT',
  'UID:jazz-1@example.org',
  'DTSTAMP:20250101T000000Z',
  'SUMMARY:Jazz in the park',
  'DESCRIPTION:Bring a blanket\\, & <friends>.\\nSecond line',
  'DTSTART;TZID=Europe/Copenhagen:20250610T190000',
  'DTEND;TZID=Europe/Copenhagen:20250610T220000',
  'LOCATION:Kongens Have',
  'GEO:55.6858;12.5776',
  'ORGANIZER;CN=Park Jazz:mailto:info@parkjazz.example',
  'CATEGORIES:Music,Outdoor',
  'CATEGORIES:Free',
  'URL:https://parkjazz.example/2025',
  'END:VEVENT',
].join('\r\n');

describe('calendar iCalendar import', () => {
  let db: TestDatabase;
  let f: IdentityFixtures;
  let contexts: TestContexts;
  const users: Record<string, AccountEntity> = {};
  const as = (login?: string): RequestContext => {
    if (!login) return contexts.forViewer({ kind: 'anonymous' });
    const viewer: Viewer = { kind: 'user', user: users[login], credential: { type: 'internal' } };
    return contexts.forViewer(viewer);
  };
  const svc = () => f.services.calendarImport;
  const events = () => db.dataSource.getRepository(CalendarEventEntity);

  beforeAll(async () => {
    db = await openTestDatabase();
    f = new IdentityFixtures(db.dataSource);
    const config = loadConfig({ PUBLIC_URL: 'https://cal.example', CALENDAR_TIMEZONE: 'UTC' });
    contexts = testContexts(db.dataSource, f.services, config);
    users.ed = await f.user('imp-ed', { calendarRole: 'editor' });
    users.au = await f.user('imp-au', { calendarRole: 'author' });
    users.contrib = await f.user('imp-contrib', { calendarRole: 'contributor' });
    users.sub = await f.user('imp-sub', { calendarRole: 'subscriber' });
  });
  afterAll(async () => {
    await f.services.calendarImport.close();
    await db.drop();
  });

  it('imports an event with its zone, text, website, categories, venue (with GEO) and organizer', async () => {
    const r = await svc().importIcs(as('au'), { ics: ics(JAZZ) });
    expect(r).toMatchObject({ created: 1, updated: 0, skipped: 0 });
    const id = r.events[0].id!;
    const e = await events().findOneByOrFail({ id });
    expect(e).toMatchObject({ title: 'Jazz in the park', startLocal: '2025-06-10 19:00:00', endLocal: '2025-06-10 22:00:00', timezone: 'Europe/Copenhagen', allDay: false, website: 'https://parkjazz.example/2025', status: 'publish', authorId: users.au.id });
    expect(e.startUtc.toISOString()).toBe('2025-06-10T17:00:00.000Z');
    expect(e.description).toBe('Bring a blanket, &amp; &lt;friends&gt;.<br />\nSecond line');
    const rel = (await f.services.calendarEvents.relations(as('au'), [e]))[0];
    expect(rel.categories.map((c) => c.name).sort()).toEqual(['Free', 'Music', 'Outdoor']);
    expect(rel.venues.map((v) => [v.title, v.geoLat, v.geoLng])).toEqual([['Kongens Have', 55.6858, 12.5776]]);
    expect(rel.organizers.map((o) => [o.title, o.email])).toEqual([['Park Jazz', 'info@parkjazz.example']]);
  });

  it('importing the same UID again updates that event (no duplicate), however often it runs', async () => {
    const changed = JAZZ.replace('SUMMARY:Jazz in the park', 'SUMMARY:Jazz in the park (moved)').replace('T190000', 'T200000');
    const before = await events().count();
    const r1 = await svc().importIcs(as('au'), { ics: ics(changed) });
    const r2 = await svc().importIcs(as('au'), { ics: ics(changed) });
    expect([r1.updated, r2.updated, r1.created + r2.created]).toEqual([1, 1, 0]);
    expect(await events().count()).toBe(before);
    const source = await db.dataSource.getRepository(CalendarEventSourceEntity).findOneByOrFail({ uid: 'jazz-1@example.org' });
    const e = await events().findOneByOrFail({ id: source.eventId });
    expect([e.title, e.startLocal]).toEqual(['Jazz in the park (moved)', '2025-06-10 20:00:00']);
  });

  it('another author may not update an imported event: reported as skipped, the event unchanged', async () => {
    users.au2 = await f.user('imp-au2', { calendarRole: 'author' });
    const r = await svc().importIcs(as('au2'), { ics: ics(JAZZ.replace('SUMMARY:Jazz in the park', 'SUMMARY:Hijacked')) });
    expect(r).toMatchObject({ created: 0, updated: 0, skipped: 1 });
    expect(r.events[0].reason).toMatch(/not yours/);
    expect(await events().count({ where: { title: 'Hijacked' } })).toBe(0);
  });

  it('all-day events end at 23:59:59 of their last day (DTEND is exclusive); UTC and floating times; DURATION', async () => {
    const r = await svc().importIcs(as('ed'), {
      ics: ics(
        'BEGIN:VEVENT\r\nUID:allday@x\r\nSUMMARY:Festival\r\nDTSTART;VALUE=DATE:20250701\r\nDTEND;VALUE=DATE:20250704\r\nEND:VEVENT',
        'BEGIN:VEVENT\r\nUID:utc@x\r\nSUMMARY:Call\r\nDTSTART:20250702T080000Z\r\nDURATION:PT90M\r\nEND:VEVENT',
        'BEGIN:VEVENT\r\nUID:floating@x\r\nSUMMARY:Local\r\nDTSTART:20250703T100000\r\nEND:VEVENT',
      ),
    });
    expect(r.created).toBe(3);
    const [a, u, l] = await Promise.all(r.events.map((x) => events().findOneByOrFail({ id: x.id! })));
    expect([a.allDay, a.startLocal, a.endLocal]).toEqual([true, '2025-07-01 00:00:00', '2025-07-03 23:59:59']);
    expect([u.timezone, u.startLocal, u.endLocal]).toEqual(['UTC', '2025-07-02 08:00:00', '2025-07-02 09:30:00']);
    expect([l.startLocal, l.endLocal]).toEqual(['2025-07-03 10:00:00', '2025-07-03 10:00:00']);
  });

  it('a TZID that is no IANA name is converted with the file\'s VTIMEZONE', () => {
    const vtz = [
      'BEGIN:VTIMEZONE', 'TZID:W. Europe Standard Time',
      'BEGIN:STANDARD', 'DTSTART:16010101T030000', 'TZOFFSETFROM:+0200', 'TZOFFSETTO:+0100', 'RRULE:FREQ=YEARLY;BYDAY=-1SU;BYMONTH=10', 'END:STANDARD',
      'BEGIN:DAYLIGHT', 'DTSTART:16010101T020000', 'TZOFFSETFROM:+0100', 'TZOFFSETTO:+0200', 'RRULE:FREQ=YEARLY;BYDAY=-1SU;BYMONTH=3', 'END:DAYLIGHT',
      'END:VTIMEZONE',
    ].join('\r\n');
    const out = parseIcs(ics(vtz, 'BEGIN:VEVENT\r\nUID:win@x\r\nSUMMARY:Outlook\r\nDTSTART;TZID=W. Europe Standard Time:20250610T190000\r\nDTEND;TZID=W. Europe Standard Time:20250610T200000\r\nEND:VEVENT'));
    expect(out.events[0]).toMatchObject({ timezone: 'UTC', startDate: '2025-06-10 17:00:00', endDate: '2025-06-10 18:00:00' });
  });

  it('a VTIMEZONE whose rules repeat more often than yearly is not used (ical.js would expand it without end)', async () => {
    const evil = ['BEGIN:VTIMEZONE', 'TZID:Evil', 'BEGIN:STANDARD', 'DTSTART:19000101T000000', 'TZOFFSETFROM:+0100', 'TZOFFSETTO:+0100', 'RRULE:FREQ=MINUTELY', 'END:STANDARD', 'END:VTIMEZONE'].join('\r\n');
    const t0 = Date.now();
    const r = await svc().importIcs(as('ed'), { ics: ics(evil, 'BEGIN:VEVENT\r\nUID:evil@x\r\nSUMMARY:Evil\r\nDTSTART;TZID=Evil:20250801T100000\r\nEND:VEVENT') });
    expect(Date.now() - t0).toBeLessThan(5000);
    expect(r.events).toEqual([expect.objectContaining({ uid: 'evil@x', action: 'skipped', reason: expect.stringMatching(/unknown time zone "Evil"/) })]);
  });

  it('events without UID, cancelled ones and unknown zones are reported, the rest imported; recurring ones say so', async () => {
    const r = await svc().importIcs(as('ed'), {
      ics: ics(
        'BEGIN:VEVENT\r\nSUMMARY:No uid\r\nDTSTART:20250801T100000Z\r\nEND:VEVENT',
        'BEGIN:VEVENT\r\nUID:c@x\r\nSTATUS:CANCELLED\r\nSUMMARY:Off\r\nDTSTART:20250801T100000Z\r\nEND:VEVENT',
        'BEGIN:VEVENT\r\nUID:z@x\r\nSUMMARY:Zone\r\nDTSTART;TZID=Mars/Olympus:20250801T100000\r\nEND:VEVENT',
        'BEGIN:VEVENT\r\nUID:weekly@x\r\nSUMMARY:Weekly\r\nDTSTART:20250801T100000Z\r\nRRULE:FREQ=WEEKLY;COUNT=4\r\nEND:VEVENT',
      ),
    });
    expect(r).toMatchObject({ created: 1, skipped: 3 });
    expect(r.events.filter((e) => e.action === 'skipped').map((e) => e.reason)).toEqual(['no UID', 'cancelled', expect.stringMatching(/unknown time zone "Mars\/Olympus"/)]);
    expect(r.events.find((e) => e.uid === 'weekly@x')).toMatchObject({ action: 'created', recurring: true });
  });

  it('a contributor\'s imports are drafts; subscribers and anonymous may not import', async () => {
    const r = await svc().importIcs(as('contrib'), { ics: ics('BEGIN:VEVENT\r\nUID:contrib@x\r\nSUMMARY:Mine\r\nDTSTART:20250901T100000Z\r\nEND:VEVENT') });
    expect((await events().findOneByOrFail({ id: r.events[0].id! })).status).toBe('draft');
    await expect(svc().importIcs(as('sub'), { ics: ics(JAZZ) })).rejects.toBeInstanceOf(ForbiddenError);
    await expect(svc().importIcs(as(), { ics: ics(JAZZ) })).rejects.toBeInstanceOf(UnauthenticatedError);
  });

  it('bad input: not iCalendar, empty, too long, wrong types, an unknown status → a validation error naming the field', async () => {
    const field = async (input: unknown) => {
      try {
        await svc().importIcs(as('ed'), input as never);
      } catch (e) {
        expect(e).toBeInstanceOf(ValidationError);
        return (e as AppError).fieldErrors?.[0]?.field;
      }
      throw new Error('expected an error');
    };
    expect(await field({ ics: 'hello world' })).toBe('ics');
    expect(await field({ ics: '' })).toBe('ics');
    expect(await field({ ics: 42 })).toBe('ics');
    expect(await field(null)).toBe('ics');
    expect(await field({ ics: 'x'.repeat(2 * 1024 * 1024 + 1) })).toBe('ics');
    expect(await field({ ics: ics(JAZZ), status: 'trash' })).toBe('status');
  });
});
