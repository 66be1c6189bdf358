/**
 * /calendar/events/v1/venues and /organizers over HTTP (reference §0, §1.2, §1.3, §1.5, §2, §4, §5): every path ×
 * method, the list envelope and headers, per_page clamp, page past the end, 400 on a missing id, 403 not
 * accessible, trash then 410, rest_forbidden 401/403, password masking, the language switch.
 */
import { CalendarOrganizerEntity, CalendarVenueEntity } from '../../entities/calendar';
import { IdentityFixtures } from '../fixtures/identity';
import { startTestApp, TestApp } from '../helpers/app';
import { createCalendarItem } from '../helpers/calendar-rest';
import { restCall, RestCallOptions } from '../helpers/rest-client';

const NOW = '2025-03-03T12:00:00Z';
let t: TestApp;
let base: string;
let editor: string;
let author: string;
let contributor: string;
let subscriber: string;

/** A request to the calendar's REST root. */
const call = (method: string, path: string, opts?: RestCallOptions) => restCall(base, method, path, opts);

const create = (kind: 'venues' | 'organizers', fields: Record<string, unknown>, token = editor) => createCalendarItem(base, kind, fields, token);

beforeAll(async () => {
  t = await startTestApp({ env: { CALENDAR_NOW: NOW, CALENDAR_TIMEZONE: 'UTC' } });
  base = `${t.url}/calendar/events/v1`;
  const f = new IdentityFixtures(t.db.dataSource);
  editor = await f.classicToken(await f.user('pl-editor', { calendarRole: 'editor' }), ['calendar']);
  author = await f.classicToken(await f.user('pl-author', { calendarRole: 'author' }), ['calendar']);
  contributor = await f.classicToken(await f.user('pl-contrib', { calendarRole: 'contributor' }), ['calendar']);
  subscriber = await f.classicToken(await f.user('pl-sub', { calendarRole: 'subscriber' }), ['calendar']);
});

afterAll(async () => {
  await t.close();
});

describe('venues', () => {
  it('creates a venue: 201, WordPress names in, the reference fields out (empty ones dropped)', async () => {
    const v = await create('venues', { venue: 'Town Hall', address: '1 Main St', city: 'Springfield', stateprovince: 'IL', show_map: false, website: 'https://hall.example' });
    expect(typeof v.id).toBe('number');
    expect(v.venue).toBe('Town Hall');
    expect(v.address).toBe('1 Main St');
    expect(v.stateprovince).toBe('IL');
    expect(v.website).toBe('https://hall.example');
    expect(v.show_map).toBe(false);
    expect(v.show_map_link).toBe(true);
    expect(v.status).toBe('publish');
    expect(v.slug).toBe('town-hall');
    expect(v).not.toHaveProperty('country');
    expect(v).not.toHaveProperty('json_ld');
    expect(Object.keys(v).slice(0, 3)).toEqual(['id', 'author', 'status']);
  });

  it('requires the name (400 rest_missing_callback_param naming `venue`) before it authenticates', async () => {
    const r = await call('POST', '/venues', { body: { city: 'X' } });
    expect(r.status).toBe(400);
    expect(r.body.code).toBe('rest_missing_callback_param');
    expect(r.body.data.params).toEqual(['venue']);
    const anon = await call('POST', '/venues', { body: { venue: 'Anon' } });
    expect(anon.status).toBe(401);
    expect(anon.body.code).toBe('rest_forbidden');
    const sub = await call('POST', '/venues', { token: subscriber, body: { venue: 'Sub' } });
    expect(sub.status).toBe(403);
    expect(sub.body.code).toBe('rest_forbidden');
  });

  it('answers a bad field in its WordPress name (website, show_map, venue)', async () => {
    const w = await call('POST', '/venues', { token: editor, body: { venue: 'Bad', website: 'not a url' } });
    expect(w.status).toBe(400);
    expect(w.body.code).toBe('rest_invalid_param');
    expect(Object.keys(w.body.data.params)).toEqual(['website']);
    const b = await call('POST', '/venues', { token: editor, body: { venue: 'Bad', show_map: 'maybe' } });
    expect(b.status).toBe(400);
    expect(Object.keys(b.body.data.params)).toEqual(['show_map']);
    const blank = await call('POST', '/venues', { token: editor, body: { venue: '   ' } });
    expect(blank.status).toBe(400);
    expect(blank.body.code).toBe('could-not-create-venue');
  });

  it('reads by id (json_ld on single reads) and by slug; an unknown id or slug is 400, a non-numeric id 404', async () => {
    const v = await create('venues', { venue: 'Read Me Hall' });
    const g = await call('GET', `/venues/${v.id}`);
    expect(g.status).toBe(200);
    expect(g.body.venue).toBe('Read Me Hall');
    expect(g.body.json_ld).toBeDefined();
    const s = await call('GET', `/venues/by-slug/${v.slug}`);
    expect(s.status).toBe(200);
    expect(s.body.id).toBe(v.id);
    const missing = await call('GET', '/venues/99999999');
    expect(missing.status).toBe(400);
    expect(missing.body.code).toBe('rest_invalid_param');
    expect(Object.keys(missing.body.data.params)).toEqual(['id']);
    const badSlug = await call('GET', '/venues/by-slug/no-such-venue');
    expect(badSlug.status).toBe(400);
    expect(Object.keys(badSlug.body.data.params)).toEqual(['slug']);
    expect((await call('GET', '/venues/abc')).body.code).toBe('rest_no_route');
  });

  it('an organizer id on /venues is 400 on id', async () => {
    const o = await create('organizers', { organizer: 'Not A Venue' });
    const r = await call('GET', `/venues/${o.id}`);
    expect(r.status).toBe(400);
    expect(r.body.code).toBe('rest_invalid_param');
  });

  it('a draft venue is 403 venue-not-accessible to anonymous readers', async () => {
    const v = await create('venues', { venue: 'Draft Hall', status: 'draft' });
    const r = await call('GET', `/venues/${v.id}`);
    expect(r.status).toBe(403);
    expect(r.body.code).toBe('venue-not-accessible');
    expect(r.body.message).toBe('The requested venue is not accessible');
    expect((await call('GET', `/venues/${v.id}`, { token: editor })).status).toBe(200);
  });

  it('updates with POST, PUT and PATCH by id and by slug; others may not (403)', async () => {
    const v = await create('venues', { venue: 'Update Hall', city: 'Old' });
    const p = await call('PATCH', `/venues/${v.id}`, { token: editor, body: { city: 'New' } });
    expect(p.status).toBe(200);
    expect(p.body.city).toBe('New');
    expect(p.body.venue).toBe('Update Hall');
    const u = await call('PUT', `/venues/${v.id}`, { token: editor, body: { venue: 'Renamed Hall' } });
    expect(u.body.venue).toBe('Renamed Hall');
    expect(u.body.city).toBe('New');
    const po = await call('POST', `/venues/${v.id}`, { token: editor, body: { zip: '12345' } });
    expect(po.body.zip).toBe('12345');
    for (const method of ['POST', 'PUT', 'PATCH']) {
      const s = await call(method, `/venues/by-slug/${v.slug}`, { token: editor, body: { phone: `555-${method}` } });
      expect(s.status).toBe(200);
      expect(s.body.phone).toBe(`555-${method}`);
      expect(s.body.slug).toBe(v.slug);
    }
    const other = await call('PATCH', `/venues/${v.id}`, { token: contributor, body: { city: 'Nope' } });
    expect(other.status).toBe(403);
    expect(other.body.code).toBe('rest_forbidden');
    const anon = await call('PATCH', `/venues/${v.id}`, { body: { city: 'Nope' } });
    expect(anon.status).toBe(401);
  });

  it('DELETE trashes and returns the venue; a second DELETE is 410 venue-is-in-trash', async () => {
    const v = await create('venues', { venue: 'Doomed Hall' });
    const d = await call('DELETE', `/venues/${v.id}`, { token: editor });
    expect(d.status).toBe(200);
    expect(d.body.status).toBe('trash');
    expect(d.body.slug).toMatch(/__trashed$/);
    const again = await call('DELETE', `/venues/${v.id}`, { token: editor });
    expect(again.status).toBe(410);
    expect(again.body.code).toBe('venue-is-in-trash');
    expect(again.body.message).toBe('The venue is already trashed');
    const w = await create('venues', { venue: 'Doomed By Slug' });
    const bs = await call('DELETE', `/venues/by-slug/${w.slug}`, { token: editor });
    expect(bs.status).toBe(200);
    expect(bs.body.status).toBe('trash');
    expect((await call('DELETE', `/venues/by-slug/${w.slug}`)).status).toBe(400);
  });

  it('lists with the envelope, headers, clamp and page past the end', async () => {
    const l = await call('GET', '/venues?per_page=500');
    expect(l.status).toBe(200);
    expect(Object.keys(l.body)).toEqual(['venues', 'rest_url', 'total', 'total_pages']);
    expect(l.body.rest_url).toBe(`${base}/venues/?page=1&per_page=50`);
    expect(l.headers.get('x-tec-total')).toBe(String(l.body.total));
    expect(l.headers.get('x-tec-totalpages')).toBe(String(l.body.total_pages));
    expect(l.body.venues.every((v: any) => v.status === 'publish')).toBe(true);
    expect(l.body.venues.some((v: any) => v.venue === 'Draft Hall')).toBe(false);
    const p1 = await call('GET', '/venues?per_page=1');
    expect(p1.body.venues).toHaveLength(1);
    expect(p1.body.next_rest_url).toBe(`${base}/venues/?per_page=1&page=2`);
    expect(p1.body).not.toHaveProperty('previous_rest_url');
    const past = await call('GET', `/venues?per_page=1&page=${p1.body.total + 1}`);
    expect(past.status).toBe(404);
    expect(past.body.code).toBe('venue-archive-page-not-found');
    const bad = await call('GET', '/venues?page=0');
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('rest_invalid_param');
    const search = await call('GET', '/venues?search=springfield');
    expect(search.body.venues.map((v: any) => v.venue)).toEqual(['Town Hall']);
    const ev = await call('GET', '/venues?event=99999999');
    expect(ev.status).toBe(400);
    expect(Object.keys(ev.body.data.params)).toEqual(['event']);
  });

  it('answers hostile ids and strings, hidden events and bad fields with 400 rest_invalid_param naming the argument', async () => {
    const params = async (method: string, path: string, opts: { token?: string; body?: unknown } = {}) => {
      const r = await call(method, path, opts);
      return [r.status, r.body.code, Object.keys(r.body.data?.params ?? {})];
    };
    expect(await params('GET', '/venues/3000000000')).toEqual([400, 'rest_invalid_param', ['id']]);
    expect(await params('GET', '/organizers?event=3000000000')).toEqual([400, 'rest_invalid_param', ['event']]);
    expect(await params('GET', '/venues?search=a%00b')).toEqual([400, 'rest_invalid_param', ['search']]);
    expect(await params('GET', '/venues/by-slug/a%00b')).toEqual([400, 'rest_invalid_param', ['slug']]);
    expect(await params('POST', '/venues', { token: editor, body: { venue: 'a\u0000b' } })).toEqual([400, 'rest_invalid_param', ['venue']]);
    expect(await params('POST', '/venues', { token: editor, body: { venue: 'V', author: 3000000000 } })).toEqual([400, 'rest_invalid_param', ['author']]);
    // Fields before permission (WordPress' order).
    expect(await params('POST', '/venues', { body: { venue: 'x', website: 'nope' } })).toEqual([400, 'rest_invalid_param', ['website']]);
    expect(await params('POST', '/organizers', { body: { organizer: 'x', email: 'nope' } })).toEqual([400, 'rest_invalid_param', ['email']]);
    expect(await params('GET', '/venues?status=draft', { token: subscriber })).toEqual([400, 'rest_invalid_param', ['status']]);
    // A draft event is answered like an id that is no event.
    const v = await create('venues', { venue: 'Draft Event Venue' }, author);
    const e = await call('POST', '/events', { token: author, body: { title: 'Hidden', status: 'draft', start_date: '2025-03-10 10:00', end_date: '2025-03-10 11:00', venue: v.id } });
    expect(e.status).toBe(201);
    expect(await params('GET', `/venues?event=${e.body.id}`)).toEqual([400, 'rest_invalid_param', ['event']]);
    expect((await call('GET', `/venues?event=${e.body.id}`, { token: author })).body.venues.map((x: any) => x.id)).toEqual([v.id]);
  });

  it('filters by event and has_events', async () => {
    const v = await create('venues', { venue: 'Event Venue' });
    const e = await call('POST', '/events', { token: editor, body: { title: 'At the venue', start_date: '2025-03-10 10:00', end_date: '2025-03-10 11:00', venue: v.id } });
    expect(e.status).toBe(201);
    const byEvent = await call('GET', `/venues?event=${e.body.id}`);
    expect(byEvent.body.venues.map((x: any) => x.id)).toEqual([v.id]);
    const withEvents = await call('GET', '/venues?has_events=true&per_page=50');
    expect(withEvents.body.venues.map((x: any) => x.id)).toContain(v.id);
    const without = await call('GET', '/venues?has_events=false&per_page=50');
    expect(without.body.venues.map((x: any) => x.id)).not.toContain(v.id);
    const upcoming = await call('GET', '/venues?only_with_upcoming=true&per_page=50');
    expect(upcoming.body.venues.map((x: any) => x.id)).toEqual([v.id]);
  });

  it('masks a password-protected venue for readers who may not edit it, everywhere', async () => {
    const v = await create('venues', { venue: 'Secret Hall', address: '9 Hidden Rd', city: 'Nowhere' });
    await t.db.dataSource.getRepository(CalendarVenueEntity).update({ id: v.id }, { password: 'pw' });
    const g = await call('GET', `/venues/${v.id}`);
    expect(g.status).toBe(200);
    expect(g.body.address).toBe('');
    expect(g.body.city).toBe('');
    expect(g.body.venue).toEqual([]);
    expect(g.body.show_map).toBeNull();
    expect(g.body.id).toBe(v.id);
    const l = await call('GET', '/venues?per_page=50', { token: subscriber });
    const listed = l.body.venues.find((x: any) => x.id === v.id);
    expect(listed.address).toBe('');
    // Its text cannot be probed by search (WordPress leaves protected posts out of searches for such readers).
    for (const search of ['Secret', 'Hidden', 'Nowhere']) {
      expect((await call('GET', `/venues?search=${search}`, { token: subscriber })).body.venues ?? []).toEqual([]);
      expect((await call('GET', `/venues?search=${search}`)).body.venues ?? []).toEqual([]);
    }
    const found = await call('GET', '/venues?search=Hidden', { token: editor });
    expect(found.body.venues.map((x: any) => x.id)).toEqual([v.id]);
    const ed = await call('GET', `/venues/${v.id}`, { token: editor });
    expect(ed.body.address).toBe('9 Hidden Rd');
    expect(ed.body.venue).toBe('Secret Hall');
  });

  it('switches language: a write in fr is read back in fr, the original stays', async () => {
    const v = await create('venues', { venue: 'Library' });
    const fr = await call('PATCH', `/venues/${v.id}?i18n_language=fr`, { token: editor, body: { venue: 'Bibliothèque' } });
    expect(fr.status).toBe(200);
    expect(fr.body.venue).toBe('Bibliothèque');
    expect((await call('GET', `/venues/${v.id}?i18n_language=fr`)).body.venue).toBe('Bibliothèque');
    expect((await call('GET', `/venues/${v.id}`)).body.venue).toBe('Library');
  });
});

describe('organizers', () => {
  it('creates (201), reads by id and slug, updates by every method, trashes then 410', async () => {
    const o = await create('organizers', { organizer: 'Jane Roe', email: 'jane@example.com', phone: '555-1' });
    expect(o.organizer).toBe('Jane Roe');
    expect(o.email).toBe('jane@example.com');
    expect(o).not.toHaveProperty('website');
    expect((await call('GET', `/organizers/${o.id}`)).body.json_ld).toBeDefined();
    expect((await call('GET', `/organizers/by-slug/${o.slug}`)).body.id).toBe(o.id);
    for (const [i, method] of ['POST', 'PUT', 'PATCH'].entries()) {
      const r = await call(method, `/organizers/${o.id}`, { token: editor, body: { phone: `555-${i}` } });
      expect(r.status).toBe(200);
      expect(r.body.phone).toBe(`555-${i}`);
      const s = await call(method, `/organizers/by-slug/${o.slug}`, { token: editor, body: { website: `https://o${i}.example` } });
      expect(s.status).toBe(200);
      expect(s.body.website).toBe(`https://o${i}.example`);
    }
    const bad = await call('PATCH', `/organizers/${o.id}`, { token: editor, body: { email: 'nope' } });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.data.params)).toEqual(['email']);
    const d = await call('DELETE', `/organizers/by-slug/${o.slug}`, { token: editor });
    expect(d.status).toBe(200);
    expect(d.body.status).toBe('trash');
    const again = await call('DELETE', `/organizers/${o.id}`, { token: editor });
    expect(again.status).toBe(410);
    expect(again.body.code).toBe('organizer-is-in-trash');
  });

  it('requires `organizer`; contributors create drafts; anonymous 401; 403 not accessible; masking', async () => {
    const m = await call('POST', '/organizers', { token: editor, body: { email: 'x@example.com' } });
    expect(m.status).toBe(400);
    expect(m.body.data.params).toEqual(['organizer']);
    expect((await call('POST', '/organizers', { body: { organizer: 'Anon' } })).status).toBe(401);
    const draft = await create('organizers', { organizer: 'Contrib Org', status: 'publish' }, contributor);
    expect(draft.status).toBe('pending');
    const na = await call('GET', `/organizers/${draft.id}`);
    expect(na.status).toBe(403);
    expect(na.body.code).toBe('organizer-not-accessible');
    expect((await call('DELETE', `/organizers/${draft.id}`, { token: author })).status).toBe(403);
    const p = await create('organizers', { organizer: 'Hidden Org', email: 'h@example.com' });
    await t.db.dataSource.getRepository(CalendarOrganizerEntity).update({ id: p.id }, { password: 'pw' });
    const g = await call('GET', `/organizers/${p.id}`, { token: subscriber });
    expect(g.body.email).toBe('');
    expect(g.body.organizer).toEqual([]);
  });

  it('lists with the envelope and clamp; a page past the end is 404 organizer-archive-page-not-found', async () => {
    const l = await call('GET', '/organizers?per_page=51');
    expect(l.status).toBe(200);
    expect(Object.keys(l.body)[0]).toBe('organizers');
    expect(l.body.rest_url).toBe(`${base}/organizers/?page=1&per_page=50`);
    expect(l.headers.get('x-tec-total')).toBe(String(l.body.total));
    const past = await call('GET', '/organizers?page=999');
    expect(past.status).toBe(404);
    expect(past.body.code).toBe('organizer-archive-page-not-found');
  });
});
