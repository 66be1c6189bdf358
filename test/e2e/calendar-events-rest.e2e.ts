/**
 * /calendar/events/v1/events over HTTP, as The Events Calendar's REST clients use it (reference §1-§5): the default
 * window around a fixed clock, strict vs inclusive dates, taxonomy by slug and id, include, clamp 50, page past the
 * end, trash then 410, passwords, visibility by role, validation before auth, the language switch, wp_json_encode.
 */
import { sqlFor } from '../../src/db/rows';
import { IdentityFixtures } from '../fixtures/identity';
import { startTestApp, TestApp } from '../helpers/app';
import { createCalendarItem } from '../helpers/calendar-rest';
import { restCall, RestCallOptions } from '../helpers/rest-client';
import { validateOpenApi } from '../helpers/openapi-validate';

const NOW = '2025-03-03T12:00:00Z';
let t: TestApp;
let base: string;
let editor: string;
let author: string;
let contributor: string;
let subscriber: string;

/** A request to the calendar's REST root. */
const call = (method: string, path: string, opts?: RestCallOptions) => restCall(base, method, path, opts);

const createEvent = (fields: Record<string, unknown>, token = editor) => createCalendarItem(base, 'events', fields, token);

beforeAll(async () => {
  t = await startTestApp({ env: { CALENDAR_NOW: NOW, CALENDAR_TIMEZONE: 'UTC' } });
  base = `${t.url}/calendar/events/v1`;
  const f = new IdentityFixtures(t.db.dataSource);
  editor = await f.classicToken(await f.user('cal-editor', { calendarRole: 'editor' }), ['calendar']);
  author = await f.classicToken(await f.user('cal-author', { calendarRole: 'author' }), ['calendar']);
  contributor = await f.classicToken(await f.user('cal-contrib', { calendarRole: 'contributor' }), ['calendar']);
  subscriber = await f.classicToken(await f.user('cal-sub', { calendarRole: 'subscriber' }), ['calendar']);
});

afterAll(async () => {
  await t.close();
});

describe('writes', () => {
  it('creates an event: 201, the reference field set and types', async () => {
    const e = await createEvent({ title: 'Opening Night', start_date: '2025-03-10 19:00:00', end_date: '2025-03-10 22:00:00', timezone: 'America/New_York', cost: '$10 - $20' });
    expect(typeof e.id).toBe('number');
    expect(typeof e.author).toBe('string');
    expect(e.status).toBe('publish');
    expect(e.start_date).toBe('2025-03-10 19:00:00');
    expect(e.utc_start_date).toBe('2025-03-10 23:00:00');
    expect(e.start_date_details).toEqual({ year: '2025', month: '03', day: '10', hour: '19', minutes: '00', seconds: '00' });
    expect(e.timezone).toBe('America/New_York');
    expect(e.timezone_abbr).toBe('EDT');
    expect(e.cost).toBe('$10 – $20');
    expect(e.cost_details).toEqual({ currency_symbol: '$', currency_code: expect.any(String), currency_position: 'prefix', values: ['10', '20'] });
    expect(e.venue).toEqual([]);
    expect(e.organizer).toEqual([]);
    expect(e.categories).toEqual([]);
    expect(e.json_ld).toBeUndefined();
    expect(Object.keys(e).slice(0, 6)).toEqual(['id', 'global_id', 'global_id_lineage', 'author', 'status', 'date']);
  });

  it('lists missing required fields (400 rest_missing_callback_param)', async () => {
    const r = await call('POST', '/events', { token: editor, body: { description: 'x' } });
    expect(r.status).toBe(400);
    expect(r.body.code).toBe('rest_missing_callback_param');
    expect(r.body.data.params).toEqual(['title', 'start_date', 'end_date']);
  });

  it('validates before it authenticates: anonymous bad body → 400, anonymous good body → 401, subscriber → 403', async () => {
    expect((await call('POST', '/events', { body: { title: 'x' } })).status).toBe(400);
    const anon = await call('POST', '/events', { body: { title: 'x', start_date: '2025-04-01', end_date: '2025-04-01' } });
    expect(anon.status).toBe(401);
    expect(anon.body.code).toBe('rest_forbidden');
    const sub = await call('POST', '/events', { token: subscriber, body: { title: 'x', start_date: '2025-04-01', end_date: '2025-04-01' } });
    expect(sub.status).toBe(403);
    expect(sub.body.code).toBe('rest_forbidden');
  });

  it('rejects an invalid date with rest_invalid_param naming the parameter', async () => {
    const r = await call('POST', '/events', { token: editor, body: { title: 'x', start_date: 'not a date', end_date: '2025-04-01' } });
    expect(r.status).toBe(400);
    expect(r.body.code).toBe('rest_invalid_param');
    expect(Object.keys(r.body.data.params)).toEqual(['start_date']);
  });

  it('scales a contributor back to pending / draft; an author publishes', async () => {
    expect((await createEvent({ title: 'C1', start_date: '2025-04-01', end_date: '2025-04-01', status: 'publish' }, contributor)).status).toBe('pending');
    expect((await createEvent({ title: 'C2', start_date: '2025-04-01', end_date: '2025-04-01' }, contributor)).status).toBe('draft');
    expect((await createEvent({ title: 'A1', start_date: '2025-04-01', end_date: '2025-04-01' }, author)).status).toBe('publish');
  });

  it('events written at once that name one new tag share one tag (no duplicate names)', async () => {
    const made = await Promise.all(
      [1, 2, 3, 4].map((i) => createEvent({ title: `Race ${i}`, start_date: '2025-04-05 10:00', end_date: '2025-04-05 11:00', tags: ['Brand New Tag'] })),
    );
    const ids = new Set(made.map((e: any) => e.tags[0].id));
    expect(ids.size).toBe(1);
    const tags = await call('GET', '/tags?search=brand%20new&hide_empty=false');
    expect(tags.body.tags.map((x: any) => [x.name, x.slug, x.count])).toEqual([['Brand New Tag', 'brand-new-tag', 4]]);
  });

  it('tags named in a write: an existing name matches whatever its case or slug; a new name is cleaned as the tags endpoint cleans it', async () => {
    const made = await call('POST', '/tags', { token: editor, body: { name: 'Jazz Nights', slug: 'jazz-evenings' } });
    expect(made.status).toBe(201);
    const e = await createEvent({ title: 'Tagged', start_date: '2025-04-06 10:00', end_date: '2025-04-06 11:00', tags: ['JAZZ NIGHTS', ' <i>Late</i>   show '] });
    expect(e.tags.map((x: any) => [x.name, x.slug]).sort()).toEqual([['Jazz Nights', 'jazz-evenings'], ['Late show', 'late-show']]);
    expect(e.tags.find((x: any) => x.slug === 'jazz-evenings').id).toBe(made.body.id);
  });

  it('updates partially with POST, PUT and PATCH', async () => {
    const e = await createEvent({ title: 'To update', start_date: '2025-04-02 10:00', end_date: '2025-04-02 11:00', featured: true });
    const r = await call('PATCH', `/events/${e.id}`, { token: editor, body: { title: 'Updated' } });
    expect(r.status).toBe(200);
    expect(r.body.title).toBe('Updated');
    expect(r.body.featured).toBe(true);
    const p = await call('PUT', `/events/${e.id}`, { token: editor, body: { end_date: '2025-04-02 12:00' } });
    expect(p.body.end_date).toBe('2025-04-02 12:00:00');
    const byOther = await call('POST', `/events/${e.id}`, { token: author, body: { title: 'Nope' } });
    expect(byOther.status).toBe(403);
  });

  it('DELETE trashes and returns the event; a second DELETE is 410 event-is-in-trash; reading it is 403', async () => {
    const e = await createEvent({ title: 'Doomed', start_date: '2025-04-03', end_date: '2025-04-03' });
    const d = await call('DELETE', `/events/${e.id}`, { token: editor });
    expect(d.status).toBe(200);
    expect(d.body.status).toBe('trash');
    expect(d.body.slug).toMatch(/__trashed$/);
    const again = await call('DELETE', `/events/${e.id}`, { token: editor });
    expect(again.status).toBe(410);
    expect(again.body).toEqual({ code: 'event-is-in-trash', message: 'The event is already trashed', data: { status: 410 } });
    const read = await call('GET', `/events/${e.id}`);
    expect(read.status).toBe(403);
    expect(read.body.code).toBe('event-no-longer-available');
  });
});

describe('single reads', () => {
  it('404 rest-event-not-found for an unknown id, rest_no_route for a non-numeric one, 400 for another kind', async () => {
    const missing = await call('GET', '/events/999999');
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ code: 'rest-event-not-found', message: 'Event with ID 999999 does not exist.', data: { status: 404 } });
    const noRoute = await call('GET', '/events/abc');
    expect(noRoute.status).toBe(404);
    expect(noRoute.body.code).toBe('rest_no_route');
    const venue = await call('POST', '/venues', { token: editor, body: { venue: 'A Hall' } });
    if (venue.status === 201) {
      const other = await call('GET', `/events/${venue.body.id}`);
      expect(other.status).toBe(400);
      expect(other.body.code).toBe('rest-invalid-event-id');
    }
  });

  it('a draft is readable by its editors only (403 event-not-accessible)', async () => {
    const e = await createEvent({ title: 'Draft one', start_date: '2025-04-04', end_date: '2025-04-04' }, contributor);
    expect((await call('GET', `/events/${e.id}`)).body.code).toBe('event-not-accessible');
    expect((await call('GET', `/events/${e.id}`, { token: author })).status).toBe(403);
    expect((await call('GET', `/events/${e.id}`, { token: contributor })).status).toBe(200);
    expect((await call('GET', `/events/${e.id}`, { token: editor })).status).toBe(200);
  });

  it('password: 403 event-password-protected without it, 200 with it, masked in lists', async () => {
    const e = await createEvent({ title: 'Secret gig', description: 'Backstage', start_date: '2025-03-20 20:00', end_date: '2025-03-20 23:00', password: 'opensesame' });
    const no = await call('GET', `/events/${e.id}`);
    expect(no.status).toBe(403);
    expect(no.body.code).toBe('event-password-protected');
    const yes = await call('GET', `/events/${e.id}?password=opensesame`);
    expect(yes.status).toBe(200);
    expect(yes.body.description).toBe('<p>Backstage</p>');
    expect(yes.body.json_ld['@type']).toBe('Event');
    const list = await call('GET', `/events?include=${e.id}`);
    const item = list.body.events[0];
    expect(item.title).toBe('Secret gig');
    expect(item.description).toBe('');
    expect(item.featured).toBeNull();
  });

  it('by slug', async () => {
    const e = await createEvent({ title: 'Slug Party', start_date: '2025-04-05', end_date: '2025-04-05' });
    expect(e.slug).toBe('slug-party');
    const r = await call('GET', '/events/by-slug/slug-party');
    expect(r.status).toBe(200);
    expect(r.body.id).toBe(e.id);
    expect((await call('GET', '/events/by-slug/no-such-slug')).status).toBe(400);
  });
});

describe('lists', () => {
  let cat: number;
  beforeAll(async () => {
    const c = await call('POST', '/categories', { token: editor, body: { name: 'Jazz Nights' } });
    cat = c.body?.id;
    await createEvent({ title: 'Yesterday', start_date: '2025-03-02 10:00', end_date: '2025-03-02 11:00' });
    await createEvent({ title: 'Today early', start_date: '2025-03-03 08:00', end_date: '2025-03-03 09:00', categories: cat ? [cat] : ['Jazz Nights'] });
    await createEvent({ title: 'Next week', start_date: '2025-03-10 10:00', end_date: '2025-03-10 11:00', tags: ['outdoor'] });
    await createEvent({ title: 'Far future', start_date: '2028-01-01 10:00', end_date: '2028-01-01 11:00' });
    await createEvent({ title: 'Hidden', start_date: '2025-03-11 10:00', end_date: '2025-03-11 11:00', hide_from_listings: true });
  });

  const titles = (body: any) => body.events.map((e: any) => e.title);

  it('default window: start of yesterday (UTC site) … +24 months; hidden events never list; start ASC', async () => {
    const r = await call('GET', '/events?per_page=50');
    expect(r.status).toBe(200);
    const ts = titles(r.body);
    expect(ts).toContain('Yesterday');
    expect(ts).toContain('Today early');
    expect(ts).not.toContain('Far future');
    expect(ts).not.toContain('Hidden');
    const starts = r.body.events.map((e: any) => e.start_date);
    expect([...starts].sort()).toEqual(starts);
    expect(r.headers.get('x-tec-total')).toBe(String(r.body.total));
    expect(r.headers.get('x-tec-totalpages')).toBe(String(r.body.total_pages));
    expect(r.body.rest_url).toContain('start_date=2025-03-02 00:00:00');
    expect(r.body.rest_url).toContain('end_date=2027-03-03 23:59:59');
  });

  it('inclusive whole days vs strict dates', async () => {
    const inclusive = await call('GET', '/events?start_date=2025-03-03 09:30&end_date=2025-03-03&per_page=50');
    expect(titles(inclusive.body)).toContain('Today early');
    const strict = await call('GET', '/events?start_date=2025-03-03 09:30&end_date=2025-03-03 23:00&strict_dates=true&per_page=50');
    expect(titles(strict.body)).not.toContain('Today early');
    expect((await call('GET', '/events?strict_dates=0')).status).toBe(400);
    expect((await call('GET', '/events?start_date=nonsense')).body.code).toBe('rest_invalid_param');
  });

  it('starts_*/ends_* drop the default bounds', async () => {
    const r = await call('GET', '/events?starts_after=2027-12-01&per_page=50');
    expect(titles(r.body)).toEqual(['Far future']);
  });

  it('categories by id and by slug; tags by slug; unknown → 400', async () => {
    const bySlug = await call('GET', '/events?categories=jazz-nights');
    expect(titles(bySlug.body)).toEqual(['Today early']);
    if (cat) expect(titles((await call('GET', `/events?categories=${cat}`)).body)).toEqual(['Today early']);
    expect(titles((await call('GET', '/events?tags=outdoor')).body)).toEqual(['Next week']);
    expect((await call('GET', '/events?categories=no-such-category')).status).toBe(400);
  });

  it('include ignores the date filters', async () => {
    const all = await call('GET', '/events?starts_after=2027-12-01');
    const far = all.body.events[0].id;
    const r = await call('GET', `/events?include=${far}&start_date=2025-03-01&end_date=2025-03-31`);
    expect(titles(r.body)).toEqual(['Far future']);
  });

  it('per_page clamps to 50; page past the end is 404 event-archive-page-not-found; envelope links', async () => {
    const r = await call('GET', '/events?per_page=500');
    expect(r.status).toBe(200);
    expect(r.body.rest_url).toContain('per_page=50');
    const one = await call('GET', '/events?per_page=1');
    expect(one.body.total_pages).toBe(one.body.total);
    expect(one.body.next_rest_url).toContain('page=2');
    expect(one.body.previous_rest_url).toBeUndefined();
    const two = await call('GET', '/events?per_page=1&page=2');
    expect(two.body.previous_rest_url).not.toMatch(/[?&]page=/);
    const past = await call('GET', '/events?page=99');
    expect(past.status).toBe(404);
    expect(past.body).toEqual({ code: 'event-archive-page-not-found', message: 'The requested event archive page does not exist', data: { status: 404 } });
    expect((await call('GET', '/events?page=0')).status).toBe(400);
  });

  it('anonymous callers may only ask for publish; ticketed=true is 400', async () => {
    expect((await call('GET', '/events?status=draft')).status).toBe(400);
    expect((await call('GET', '/events?status=draft', { token: editor })).status).toBe(200);
    const t1 = await call('GET', '/events?ticketed=true');
    expect(t1.status).toBe(400);
    expect(t1.body.code).toBe('rest_invalid_param');
  });

  it('wp_json_encode escapes / and non-ASCII', async () => {
    await createEvent({ title: 'Café ☕', start_date: '2025-03-12', end_date: '2025-03-12' });
    const r = await call('GET', '/events?search=Caf');
    expect(r.text).toContain('Caf\\u00e9 \\u2615');
    expect(r.text).toContain('http:\\/\\/');
  });

  it('search ANDs words over title, excerpt and description', async () => {
    await createEvent({ title: 'Blue Moon Jam', description: 'A night of improvisation', start_date: '2025-03-13', end_date: '2025-03-13' });
    expect(titles((await call('GET', '/events?search=moon improvisation')).body)).toEqual(['Blue Moon Jam']);
    expect(titles((await call('GET', '/events?search=moon sunshine')).body)).toEqual([]);
  });
});

describe('language switch', () => {
  it('writes store into the language, reads fall back to the original, messages come out translated', async () => {
    const e = await createEvent({ title: 'Summer Fair', start_date: '2025-05-01', end_date: '2025-05-01' });
    const fr = await call('POST', `/events/${e.id}?i18n_language=fr`, { token: editor, body: { title: "Fête d'été" } });
    expect(fr.status).toBe(200);
    expect((await call('GET', `/events/${e.id}?i18n_language=fr`)).body.title).toBe('Fête d&#8217;été');
    expect((await call('GET', `/events/${e.id}`)).body.title).toBe('Summer Fair');
    expect((await call('GET', `/events/${e.id}?i18n_language=de`)).body.title).toBe('Summer Fair');
    const msg = await call('GET', '/events/999999?i18n_language=de');
    expect(msg.status).toBe(404);
    expect(msg.body.code).toBe('rest-event-not-found');
    expect(msg.body.message).not.toBe('Event with ID 999999 does not exist.');
    const bad = await call('GET', '/events?i18n_language=es');
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('rest_invalid_param');
  });
});

describe('hostile input (review findings): a clear 400/404, never a 500', () => {
  it('ids beyond int4 name nothing', async () => {
    const one = await call('GET', '/events/3000000000');
    expect(one.status).toBe(404);
    expect(one.body.code).toBe('rest-event-not-found');
    for (const q of ['include=3000000000', 'venue=3000000000', 'organizer=3000000000', 'post_parent=3000000000', 'categories=3000000000']) {
      const r = await call('GET', `/events?${q}`);
      expect([q, r.status, r.body.code]).toEqual([q, 400, 'rest_invalid_param']);
    }
    const w = await call('POST', '/events', { token: editor, body: { title: 'x', start_date: '2025-04-01', end_date: '2025-04-01', venue: 3000000000, categories: [3000000000] } });
    expect(w.status).toBe(400);
  });

  it('NUL characters and oversized values are invalid parameters', async () => {
    expect((await call('GET', '/events?search=a%00b')).status).toBe(400);
    expect((await call('GET', '/events/by-slug/a%00b')).status).toBe(400);
    const nul = await call('POST', '/events', { token: editor, body: { title: 'a\u0000b', start_date: '2025-04-01', end_date: '2025-04-01' } });
    expect(nul.status).toBe(400);
    const cost = await call('POST', '/events', { token: editor, body: { title: 'x', start_date: '2025-04-01', end_date: '2025-04-01', cost: 'x'.repeat(300) } });
    expect(cost.status).toBe(400);
    expect(Object.keys(cost.body.data.params)).toEqual(['cost']);
    const site = await call('POST', '/events', { token: editor, body: { title: 'x', start_date: '2025-04-01', end_date: '2025-04-01', website: `https://e.example/${'a'.repeat(3000)}` } });
    expect(site.status).toBe(400);
  });

  it('dates outside years 1-9999 are invalid, before authentication', async () => {
    const r = await call('POST', '/events', { body: { title: 'x', start_date: '253402300800', end_date: '253402300800' } });
    expect(r.status).toBe(400);
    expect(r.body.code).toBe('rest_invalid_param');
    expect((await call('GET', '/events?start_date=253402300800')).status).toBe(400);
  });

  it('a protected event matches no search of someone who may not edit it', async () => {
    await createEvent({ title: 'Members only', description: 'door code 4711', start_date: '2025-03-21', end_date: '2025-03-21', password: 's3cret' });
    const anon = await call('GET', '/events?search=4711');
    expect(anon.body.total).toBe(0);
    const ed = await call('GET', '/events?search=4711', { token: editor });
    expect(ed.body.total).toBe(1);
  });

  it('writes by slug tell nothing about drafts: 400 like an unknown slug', async () => {
    const d = await createEvent({ title: 'Secret merger party', start_date: '2025-04-06', end_date: '2025-04-06' }, contributor);
    const del = await call('DELETE', `/events/by-slug/${d.slug}`, { token: author });
    expect(del.status).toBe(400);
    expect(del.body.code).toBe('rest_invalid_param');
    expect((await call('DELETE', '/events/by-slug/no-such-slug-at-all', { token: author })).status).toBe(400);
    expect((await call('GET', `/events/by-slug/${d.slug}`, { token: contributor })).status).toBe(200);
  });

  it('creating in a language takes a slug free in that language too', async () => {
    const a = await createEvent({ title: 'Autumn Concert', start_date: '2025-04-07', end_date: '2025-04-07' });
    expect((await call('POST', `/events/${a.id}?i18n_language=fr`, { token: editor, body: { slug: 'concert' } })).status).toBe(200);
    const b = await call('POST', '/events?i18n_language=fr', { token: editor, body: { title: 'Concert', start_date: '2025-04-08', end_date: '2025-04-08' } });
    expect(b.status).toBe(201);
    expect(b.body.slug).toBe('concert-2');
  });

  it('a nested venue object uses the /venues field names', async () => {
    const e = await createEvent({ title: 'Hall gig', start_date: '2025-04-09', end_date: '2025-04-09', venue: { venue: 'Big Hall', address: '1 Main St', city: 'Springfield' } });
    expect(e.venue).toMatchObject({ venue: 'Big Hall', address: '1 Main St', city: 'Springfield' });
    const bad = await call('POST', '/events', { token: editor, body: { title: 'x', start_date: '2025-04-09', end_date: '2025-04-09', venue: 'not-an-id' } });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('invalid-linked-post-id');
  });
});

// Listed events' texts are kept between answers (src/rest/text-memo.ts) with the rows they were made of: every
// change to any of those rows, the answer's language and each viewer's masking show in the next answer.
describe('list answers follow every change to the rows they are made of', () => {
  it('venue, organizer, term count, translation and masking changes, also behind the service', async () => {
    const venue = (await call('POST', '/venues', { token: editor, body: { venue: 'Memo Hall', city: 'Aarhus' } })).body;
    const organizer = (await call('POST', '/organizers', { token: editor, body: { organizer: 'Memo Org', phone: '111' } })).body;
    const cat = (await call('POST', '/categories', { token: editor, body: { name: 'Memo Category' } })).body;
    const open = await createEvent({ title: 'Memo open', start_date: '2025-05-01 10:00', end_date: '2025-05-01 11:00', venue: venue.id, organizer: [organizer.id], categories: [cat.id] });
    const locked = await createEvent({ title: 'Memo locked', description: 'Inside', start_date: '2025-05-02 10:00', end_date: '2025-05-02 11:00', password: 'pw', venue: venue.id });
    const list = `/events?include=${open.id},${locked.id}`;
    const get = async (path = list, token?: string) => {
      const r = await call('GET', path, { token });
      expect(r.status).toBe(200);
      expect(Number(r.headers.get('content-length'))).toBe(Buffer.byteLength(r.text));
      return r.body.events as any[];
    };
    const first = await get();
    expect(await get()).toEqual(first);
    expect(first.map((e) => e.title)).toEqual(['Memo open', 'Memo locked']);
    expect(first[0].venue.city).toBe('Aarhus');
    expect(first[1].description).toBe('');

    // Masking is the viewer's: the editor sees the protected event, anonymous callers again do not.
    expect((await get(list, editor))[1].description).toBe('<p>Inside</p>');
    expect((await get())[1].description).toBe('');

    // Behind the service's back (no modified date moves): the venue's city, the organizer's phone.
    const ds = t.db.dataSource;
    await ds.query(sqlFor(ds, 'UPDATE calendar_venues SET city = ? WHERE id = ?'), ['Odense', venue.id]);
    await ds.query(sqlFor(ds, 'UPDATE calendar_organizers SET phone = ? WHERE id = ?'), ['222', organizer.id]);
    const second = await get();
    expect(second[0].venue.city).toBe('Odense');
    expect(second[0].organizer[0].phone).toBe('222');

    // Another event in the category moves its count.
    expect(second[0].categories[0].count).toBe(1);
    await createEvent({ title: 'Memo other', start_date: '2025-05-03 10:00', end_date: '2025-05-03 11:00', categories: [cat.id] });
    expect((await get())[0].categories[0].count).toBe(2);

    // The language: the venue's French name, then a changed French name.
    const fr = `${list}&i18n_language=fr`;
    expect((await call('POST', `/venues/${venue.id}?i18n_language=fr`, { token: editor, body: { venue: 'Salle Memo' } })).status).toBe(200);
    expect((await get(fr))[0].venue.venue).toBe('Salle Memo');
    expect((await get())[0].venue.venue).toBe('Memo Hall');
    expect((await call('POST', `/venues/${venue.id}?i18n_language=fr`, { token: editor, body: { venue: 'Grande Salle' } })).status).toBe(200);
    expect((await get(fr))[0].venue.venue).toBe('Grande Salle');

    // Every listed event still equals its single read (never kept), but for the fields only single reads have.
    for (const e of await get(`${list}&password=pw`, editor)) {
      const one = (await call('GET', `/events/${e.id}?password=pw`, { token: editor })).body;
      delete one.json_ld;
      expect(e).toEqual(one);
    }
  });
});

describe('namespace index and /doc (generated from the rows that serve the requests)', () => {
  it('GET / lists every calendar route with its methods and arguments', async () => {
    const r = await call('GET', '');
    expect(r.status).toBe(200);
    expect(r.body.namespace).toBe('calendar/events/v1');
    const routes = Object.keys(r.body.routes);
    for (const key of [
      '/calendar/events/v1/events',
      '/calendar/events/v1/events/(?P<id>\\d+)',
      '/calendar/events/v1/events/by-slug/(?P<slug>[^/]+)',
      '/calendar/events/v1/venues/(?P<id>\\d+)',
      '/calendar/events/v1/organizers/by-slug/(?P<slug>[^/]+)',
      '/calendar/events/v1/categories/(?P<id>\\d+)',
      '/calendar/events/v1/tags',
      '/calendar/events/v1/doc',
    ]) {
      expect(routes).toContain(key);
    }
    const events = r.body.routes['/calendar/events/v1/events'];
    expect(events.methods).toEqual(expect.arrayContaining(['GET', 'POST']));
    const get = events.endpoints.find((e: any) => e.methods.includes('GET'));
    expect(get.args.per_page).toMatchObject({ required: false, type: 'integer', default: 10 });
    expect(get.args.i18n_language).toMatchObject({ required: false, enum: ['da', 'en', 'fr', 'de'] });
    const post = events.endpoints.find((e: any) => e.methods.includes('POST'));
    expect(post.args.title.required).toBe(true);
  });

  it('GET /doc is a valid OpenAPI 3.0 document of every calendar path, with the plugin\'s component schemas', async () => {
    const r = await call('GET', '/doc');
    expect(r.status).toBe(200);
    expect(r.body.openapi).toBe('3.0.0');
    expect(r.body.info.title).toBe('The Events Calendar REST API');
    expect(r.body.servers).toEqual([{ url: `${t.url}/calendar/events/v1` }]);
    expect(Object.keys(r.body.paths)).toEqual(
      expect.arrayContaining(['/doc', '/events', '/events/{id}', '/events/by-slug/{slug}', '/venues', '/venues/{id}', '/venues/by-slug/{slug}', '/organizers', '/organizers/{id}', '/organizers/by-slug/{slug}', '/categories', '/categories/{id}', '/tags', '/tags/{id}']),
    );
    expect(Object.keys(r.body.components.schemas)).toEqual(expect.arrayContaining(['ImageSize', 'CostDetails', 'Term', 'Image', 'DateDetails', 'Event', 'Venue', 'Organizer']));
    expect(r.body.paths['/events'].get.responses['200'].content['application/json'].schema.properties.events.items).toEqual({ $ref: '#/components/schemas/Event' });
    await expect(validateOpenApi(r.body)).resolves.toBe('valid');
  });
});

describe('bounded work per request', () => {
  it('a list filter naming more than 500 values is an invalid parameter', async () => {
    const many = Array.from({ length: 501 }, (_, i) => `c${i}`).join(',');
    const r = await call('GET', `/events?categories=${many}`);
    expect(r.status).toBe(400);
    expect(Object.keys(r.body.data.params)).toEqual(['categories']);
    const ids = Array.from({ length: 501 }, (_, i) => i + 1).join(',');
    expect((await call('GET', `/events?include=${ids}`)).status).toBe(400);
  });
});
