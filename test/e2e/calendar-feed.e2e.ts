/**
 * GET /calendar/events.ics over HTTP, parsed back with ical.js: the events a GET /events query matches, their
 * UIDs, start/end instants in their own zones (VTIMEZONE included), all-day DATE values, LOCATION/GEO,
 * ORGANIZER, CATEGORIES, the same filters as the REST list, masking of protected events, the language switch, and
 * WordPress-style errors.
 */
import { authenticateBearer } from '../../src/auth/authenticate';
import { contextFor, RequestContext } from '../../src/context';
import { IdentityFixtures } from '../fixtures/identity';
import { startTestApp, TestApp } from '../helpers/app';

type IcalModule = typeof import('ical.js', { with: { 'resolution-mode': 'import' } }).default;
// eslint-disable-next-line @typescript-eslint/no-require-imports
const ICAL = require('ical.js') as IcalModule;

interface Feed {
  status: number;
  contentType: string | null;
  text: string;
  events: InstanceType<IcalModule['Event']>[];
  calendar: InstanceType<IcalModule['Component']>;
}

describe('calendar iCalendar feed', () => {
  let t: TestApp;
  let editorToken: string;
  const ids: Record<string, number> = {};

  const as = async (token?: string): Promise<RequestContext> =>
    contextFor(t.app.deps, 'test', token ? await authenticateBearer(t.db.dataSource, `Bearer ${token}`) : undefined);

  async function feed(query = '', token?: string): Promise<Feed> {
    const res = await fetch(`${t.url}/calendar/events.ics${query}`, token ? { headers: { authorization: `Bearer ${token}` } } : {});
    const text = await res.text();
    if (res.status !== 200) return { status: res.status, contentType: res.headers.get('content-type'), text, events: [], calendar: undefined as never };
    const calendar = new ICAL.Component(ICAL.parse(text));
    // Zones come from the feed's own VTIMEZONEs (nothing else registered).
    ICAL.TimezoneService.reset();
    for (const vtz of calendar.getAllSubcomponents('vtimezone')) ICAL.TimezoneService.register(vtz);
    const events = calendar.getAllSubcomponents('vevent').map((v) => new ICAL.Event(v));
    return { status: res.status, contentType: res.headers.get('content-type'), text, events, calendar };
  }

  const uidOf = (id: number) => `${id}@127.0.0.1`;
  const byUid = (f: Feed, id: number) => f.events.find((e) => e.uid === uidOf(id));
  const feedIds = (f: Feed) => f.events.map((e) => Number(e.uid.split('@')[0]));

  async function restIds(query: string): Promise<number[]> {
    const res = await fetch(`${t.url}/calendar/events/v1/events${query}`);
    expect(res.status).toBe(200);
    return ((await res.json()) as { events: Array<{ id: number }> }).events.map((e) => e.id);
  }

  beforeAll(async () => {
    t = await startTestApp({ env: { CALENDAR_NOW: '2026-06-01T10:00:00Z', CALENDAR_TIMEZONE: 'Europe/Copenhagen' } });
    const f = new IdentityFixtures(t.db.dataSource);
    const alice = await f.user('alice', { calendarRole: 'editor' });
    editorToken = await f.classicToken(alice, ['repo', 'calendar']);
    const ctx = await as(editorToken);
    const s = ctx.services;
    const music = await s.calendarTerms.create(ctx, 'category', { name: 'Music' });
    const jazz = await s.calendarTerms.create(ctx, 'category', { name: 'Jazz', parent: music.term.id });
    const family = await s.calendarTerms.create(ctx, 'category', { name: 'Family' });
    ids.music = music.term.id;
    ids.jazz = jazz.term.id;
    ids.family = family.term.id;
    const venue = await s.calendarVenues.create(ctx, {
      name: 'Blue Note',
      status: 'publish',
      address: '131 W 3rd St',
      city: 'New York',
      state: 'NY',
      zip: '10012',
      country: 'United States',
      geoLat: 40.7308,
      geoLng: -74.0004,
    });
    const organizer = await s.calendarOrganizers.create(ctx, { name: 'Jazz Society', status: 'publish', email: 'jazz@example.org' });
    ids.venue = venue.id;
    ids.jazzNight = (
      await s.calendarEvents.create(ctx, {
        title: 'Jazz night',
        description: '<p>Trio &amp; friends.</p>\n<p>Second set at <strong>10</strong>.</p>',
        startDate: '2026-06-10 19:00:00',
        endDate: '2026-06-10 22:30:00',
        timezone: 'America/New_York',
        status: 'publish',
        venue: [venue.id],
        organizer: [organizer.id],
        categories: [jazz.term.id],
      })
    ).id;
    ids.picnic = (
      await s.calendarEvents.create(ctx, {
        title: 'Family picnic',
        startDate: '2026-06-20 00:00:00',
        endDate: '2026-06-21 23:59:59',
        allDay: true,
        timezone: 'Europe/Paris',
        status: 'publish',
        categories: [family.term.id],
      })
    ).id;
    ids.winter = (
      await s.calendarEvents.create(ctx, {
        title: 'Winter talk',
        description: 'About snow.',
        startDate: '2026-12-01 18:00:00',
        endDate: '2026-12-01 19:00:00',
        timezone: 'Europe/Copenhagen',
        status: 'publish',
      })
    ).id;
    ids.secret = (
      await s.calendarEvents.create(ctx, {
        title: 'Members evening',
        description: 'The secret programme.',
        startDate: '2026-06-15 20:00:00',
        endDate: '2026-06-15 23:00:00',
        timezone: 'America/New_York',
        status: 'publish',
        password: 'pw',
        venue: [venue.id],
        organizer: [organizer.id],
      })
    ).id;
    ids.draft = (await s.calendarEvents.create(ctx, { title: 'Draft idea', startDate: '2026-06-12 10:00:00', endDate: '2026-06-12 11:00:00', status: 'draft' })).id;
    await s.calendarEvents.translate(ctx, ids.jazzNight, 'da', { title: 'Jazzaften', description: 'Trio og venner.' });
    await s.calendarTerms.update({ ...ctx, language: 'da' }, 'category', jazz.term.id, { name: 'Jazz (da)' });
  });

  afterAll(async () => {
    await t?.close();
  });

  it('answers text/calendar with a VCALENDAR: PRODID, X-WR-CALNAME, one VTIMEZONE per zone used', async () => {
    const f = await feed();
    expect(f.status).toBe(200);
    expect(f.contentType).toBe('text/calendar; charset=utf-8');
    expect(f.calendar.getFirstPropertyValue('prodid')).toMatch(/^-\/\/.+\/\/.+\/\/EN$/);
    expect(f.calendar.getFirstPropertyValue('version')).toBe('2.0');
    expect(f.calendar.getFirstPropertyValue('x-wr-calname')).toBe('Events');
    expect(f.calendar.getFirstPropertyValue('x-wr-timezone')).toBe('Europe/Copenhagen');
    const zones = f.calendar.getAllSubcomponents('vtimezone').map((z) => z.getFirstPropertyValue('tzid'));
    for (const zone of ['America/New_York', 'Europe/Copenhagen']) expect(zones).toContain(zone);
    expect(new Set(zones).size).toBe(zones.length);
    // Every TZID a DTSTART names has its VTIMEZONE (RFC 5545 §3.2.19).
    const tzids = [...f.text.matchAll(/^DT(?:START|END);TZID=([^:;]+)/gm)].map((m) => m[1]);
    for (const tzid of tzids) expect(zones).toContain(tzid);
  });

  it('lists what GET /events lists by default (published upcoming; not drafts for anonymous callers)', async () => {
    const f = await feed();
    expect(feedIds(f)).toEqual(await restIds(''));
    expect(feedIds(f)).toEqual([ids.jazzNight, ids.secret, ids.picnic, ids.winter]);
    expect(feedIds(f)).not.toContain(ids.draft);
  });

  it('writes UID, SUMMARY, plain-text DESCRIPTION, URL, times in the event zone, LOCATION, GEO, ORGANIZER, CATEGORIES, STATUS', async () => {
    const f = await feed();
    const e = byUid(f, ids.jazzNight)!;
    expect(e).toBeDefined();
    expect(e.summary).toBe('Jazz night');
    expect(e.description).toBe('Trio & friends.\n\nSecond set at 10.');
    expect(e.component.getFirstPropertyValue('url')).toBe(`${t.url}/calendar/event/jazz-night/`);
    expect(e.startDate.zone.tzid).toBe('America/New_York');
    expect(e.startDate.toString()).toBe('2026-06-10T19:00:00');
    expect(e.startDate.toJSDate().toISOString()).toBe('2026-06-10T23:00:00.000Z');
    expect(e.endDate.toJSDate().toISOString()).toBe('2026-06-11T02:30:00.000Z');
    expect(e.location).toBe('Blue Note\n131 W 3rd St, New York, NY 10012, United States');
    expect(e.component.getFirstPropertyValue('geo')).toEqual([40.7308, -74.0004]);
    const org = e.component.getFirstProperty('organizer')!;
    expect(org.getFirstValue()).toBe('mailto:jazz@example.org');
    expect(org.getParameter('cn')).toBe('Jazz Society');
    expect(e.component.getFirstProperty('categories')!.getValues()).toEqual(['Jazz']);
    expect(e.component.getFirstPropertyValue('status')).toBe('CONFIRMED');
    expect(e.component.getFirstPropertyValue('last-modified')).toBeTruthy();
    expect((e.component.getFirstPropertyValue('dtstamp') as InstanceType<IcalModule['Time']>).toJSDate().toISOString()).toBe('2026-06-01T10:00:00.000Z');
    // DTSTAMP and LAST-MODIFIED are UTC values (RFC 5545 §3.8.7).
    expect(f.text).toContain('DTSTAMP:20260601T100000Z');
    expect(f.text).toMatch(/^LAST-MODIFIED:\d{8}T\d{6}Z\r?$/m);

    const w = byUid(f, ids.winter)!;
    expect(w.startDate.zone.tzid).toBe('Europe/Copenhagen');
    // December: Copenhagen is UTC+1 (the VTIMEZONE carries the October change back from summer time).
    expect(w.startDate.toJSDate().toISOString()).toBe('2026-12-01T17:00:00.000Z');
    expect(w.component.getFirstPropertyValue('location')).toBeNull();
    expect(w.component.getFirstPropertyValue('geo')).toBeNull();
  });

  it('writes all-day events as DATE values with an exclusive end (the day after the last day)', async () => {
    const f = await feed();
    const p = byUid(f, ids.picnic)!;
    expect(p.startDate.isDate).toBe(true);
    expect(p.startDate.toString()).toBe('2026-06-20');
    expect(p.endDate.isDate).toBe(true);
    expect(p.endDate.toString()).toBe('2026-06-22');
    expect(f.text).toMatch(new RegExp(`UID:${ids.picnic}@127\\.0\\.0\\.1[\\s\\S]*?DTSTART;VALUE=DATE:20260620`));
  });

  it('masks password-protected events for viewers who may not edit them; editors see everything', async () => {
    const anon = byUid(await feed(), ids.secret)!;
    expect(anon.summary).toBe('Members evening');
    expect(anon.description).toBeNull();
    expect(anon.location).toBeNull();
    expect(anon.component.getFirstPropertyValue('geo')).toBeNull();
    expect(anon.component.getFirstProperty('organizer')).toBeNull();
    const editor = await feed('', editorToken);
    const mine = byUid(editor, ids.secret)!;
    expect(mine.description).toBe('The secret programme.');
    expect(mine.location).toContain('Blue Note');
    expect(mine.component.getFirstPropertyValue('organizer')).toBe('mailto:jazz@example.org');
    // The editor's default list covers drafts too, as GET /events does.
    const draft = byUid(editor, ids.draft)!;
    expect(draft.component.getFirstPropertyValue('status')).toBe('TENTATIVE');
  });

  it('applies the date filters as GET /events does', async () => {
    for (const q of ['?start_date=2026-11-01', '?start_date=2026-06-01&end_date=2026-06-16', '?starts_after=2026-06-14&strict_dates=true', '?ends_before=2026-06-11']) {
      const f = await feed(q);
      expect({ q, ids: feedIds(f) }).toEqual({ q, ids: await restIds(q) });
    }
    expect(feedIds(await feed('?start_date=2026-11-01'))).toEqual([ids.winter]);
    expect(feedIds(await feed('?start_date=2026-06-01&end_date=2026-06-16'))).toEqual([ids.jazzNight, ids.secret]);
  });

  it('applies the categories filter (by slug and id, children included) as GET /events does', async () => {
    for (const q of ['?categories=music', `?categories=${ids.family}`, '?categories=jazz,family', `?venue=${ids.venue}`]) {
      const f = await feed(q);
      expect({ q, ids: feedIds(f) }).toEqual({ q, ids: await restIds(q) });
    }
    expect(feedIds(await feed('?categories=music'))).toEqual([ids.jazzNight]);
    expect(feedIds(await feed(`?categories=${ids.family}`))).toEqual([ids.picnic]);
  });

  it('honours per_page and page when given', async () => {
    expect(feedIds(await feed('?per_page=2'))).toEqual([ids.jazzNight, ids.secret]);
    expect(feedIds(await feed('?per_page=2&page=2'))).toEqual([ids.picnic, ids.winter]);
    expect(await restIds('?per_page=2&page=2')).toEqual([ids.picnic, ids.winter]);
  });

  it('without per_page covers the whole window (paging through the service past 50 events)', async () => {
    const ctx = await as(editorToken);
    const made: number[] = [];
    for (let i = 0; i < 53; i++) {
      const day = String(1 + (i % 28)).padStart(2, '0');
      const hour = String(8 + Math.floor(i / 28)).padStart(2, '0');
      made.push((await ctx.services.calendarEvents.create(ctx, { title: `Bulk ${i}`, startDate: `2027-02-${day} ${hour}:00:00`, endDate: `2027-02-${day} ${hour}:30:00`, status: 'publish' })).id);
    }
    const q = '?start_date=2027-02-01&end_date=2027-02-28';
    const f = await feed(q);
    expect(f.events).toHaveLength(53);
    expect(new Set(feedIds(f))).toEqual(new Set(made));
    const rest = await fetch(`${t.url}/calendar/events/v1/events${q}`);
    expect(rest.headers.get('x-tec-total')).toBe('53');
    expect(feedIds(await feed(`${q}&per_page=50&page=2`))).toHaveLength(3);
  });

  it('translates content with i18n_language', async () => {
    const f = await feed('?i18n_language=da');
    const e = byUid(f, ids.jazzNight)!;
    expect(e.summary).toBe('Jazzaften');
    expect(e.description).toBe('Trio og venner.');
    expect(e.component.getFirstProperty('categories')!.getValues()).toEqual(['Jazz (da)']);
    expect(f.calendar.getFirstPropertyValue('x-wr-calname')).toBe('Begivenheder');
    // Untranslated events fall back to the original.
    expect(byUid(f, ids.winter)!.summary).toBe('Winter talk');
  });

  it('answers bad input in the WordPress family style (JSON, never a 500)', async () => {
    const bad = await feed('?per_page=abc');
    expect(bad.status).toBe(400);
    expect(bad.contentType).toMatch(/^application\/json/);
    expect(JSON.parse(bad.text)).toMatchObject({ code: 'rest_invalid_param', data: { status: 400, params: { per_page: expect.any(String) } } });
    const unknown = await feed('?categories=no-such-category');
    expect(unknown.status).toBe(400);
    expect(JSON.parse(unknown.text)).toMatchObject({ code: 'rest_invalid_param' });
    const past = await feed('?per_page=2&page=999');
    expect(past.status).toBe(404);
    expect(JSON.parse(past.text)).toMatchObject({ code: 'event-archive-page-not-found' });
  });
});
