/**
 * /calendar/events/v1/categories and /tags over HTTP (reference §0, §1.4 shape B, §2 term lists, §4 Terms, §5):
 * every path × method, the term list envelope and headers, hide_empty default, page past the end (200 empty),
 * per_page clamp, term_exists with data.term_id, 400 on a bad id, rest_forbidden 401/403, permanent delete, the
 * language switch.
 */
import { IdentityFixtures } from '../fixtures/identity';
import { startTestApp, TestApp } from '../helpers/app';
import { createCalendarItem } from '../helpers/calendar-rest';
import { restCall, RestCallOptions } from '../helpers/rest-client';

const NOW = '2025-03-03T12:00:00Z';
let t: TestApp;
let base: string;
let editor: string;
let author: string;

/** A request to the calendar's REST root. */
const call = (method: string, path: string, opts?: RestCallOptions) => restCall(base, method, path, opts);

const create = (kind: 'categories' | 'tags', fields: Record<string, unknown>) => createCalendarItem(base, kind, fields, editor);

beforeAll(async () => {
  t = await startTestApp({ env: { CALENDAR_NOW: NOW, CALENDAR_TIMEZONE: 'UTC' } });
  base = `${t.url}/calendar/events/v1`;
  const f = new IdentityFixtures(t.db.dataSource);
  editor = await f.classicToken(await f.user('tm-editor', { calendarRole: 'editor' }), ['calendar']);
  author = await f.classicToken(await f.user('tm-author', { calendarRole: 'author' }), ['calendar']);
});

afterAll(async () => {
  await t.close();
});

describe('categories', () => {
  let music: any;
  let jazz: any;

  it('creates a category: 201, shape B in order, urls with up only for a child', async () => {
    music = await create('categories', { name: 'Music', description: 'All music' });
    expect(Object.keys(music)).toEqual(['id', 'count', 'description', 'name', 'slug', 'taxonomy', 'parent', 'meta', 'url', 'urls']);
    expect(music).toMatchObject({ count: 0, description: 'All music', name: 'Music', slug: 'music', taxonomy: 'tribe_events_cat', parent: 0, meta: [] });
    expect(music.urls).toEqual({ self: `${base}/categories/${music.id}`, collection: `${base}/categories` });
    jazz = await create('categories', { name: 'Jazz', parent: music.id, slug: 'Jazz Music' });
    expect(jazz.parent).toBe(music.id);
    expect(jazz.slug).toBe('jazz-music');
    expect(jazz.urls.up).toBe(`${base}/categories/${music.id}`);
  });

  it('term_exists (400) carries the existing term id; a missing name is 400 rest_missing_callback_param', async () => {
    const r = await call('POST', '/categories', { token: editor, body: { name: 'music' } });
    expect(r.status).toBe(400);
    expect(r.body.code).toBe('term_exists');
    expect(r.body.data).toEqual({ status: 400, term_id: music.id });
    const m = await call('POST', '/categories', { token: editor, body: { description: 'x' } });
    expect(m.status).toBe(400);
    expect(m.body.code).toBe('rest_missing_callback_param');
    expect(m.body.data.params).toEqual(['name']);
    const badParent = await call('POST', '/categories', { token: editor, body: { name: 'Orphan', parent: 99999999 } });
    expect(badParent.status).toBe(400);
    expect(Object.keys(badParent.body.data.params)).toEqual(['parent']);
  });

  it('writes need manage_categories: anonymous 401, an author 403 (rest_forbidden)', async () => {
    const anon = await call('POST', '/categories', { body: { name: 'Nope' } });
    expect(anon.status).toBe(401);
    expect(anon.body.code).toBe('rest_forbidden');
    const a = await call('POST', '/categories', { token: author, body: { name: 'Nope' } });
    expect(a.status).toBe(403);
    expect(a.body.code).toBe('rest_forbidden');
    expect((await call('PATCH', `/categories/${music.id}`, { token: author, body: { name: 'X' } })).status).toBe(403);
    expect((await call('DELETE', `/categories/${music.id}`)).status).toBe(401);
  });

  it('hostile ids and strings, hidden events and unknown ids before permission: 400 rest_invalid_param naming the argument', async () => {
    const params = async (method: string, path: string, opts: { token?: string; body?: unknown } = {}) => {
      const r = await call(method, path, opts);
      return [r.status, r.body.code, Object.keys(r.body.data?.params ?? {})];
    };
    expect(await params('GET', '/categories/3000000000')).toEqual([400, 'rest_invalid_param', ['id']]);
    for (const arg of ['include', 'exclude', 'parent']) {
      expect(await params('GET', `/categories?${arg}=3000000000`)).toEqual([400, 'rest_invalid_param', [arg]]);
    }
    expect(await params('GET', '/tags?post=3000000000')).toEqual([400, 'rest_invalid_param', ['post']]);
    expect(await params('GET', '/categories?search=a%00')).toEqual([400, 'rest_invalid_param', ['search']]);
    expect(await params('GET', '/categories?slug=a%00')).toEqual([400, 'rest_invalid_param', ['slug']]);
    expect(await params('POST', '/categories', { token: editor, body: { name: 'a\u0000b' } })).toEqual([400, 'rest_invalid_param', ['name']]);
    // An unknown id is 400 before the permission is asked (WordPress' order); a known one is then 401.
    expect(await params('DELETE', '/categories/987654')).toEqual([400, 'rest_invalid_param', ['id']]);
    expect(await params('PATCH', '/categories/987654', { body: { name: 'X' } })).toEqual([400, 'rest_invalid_param', ['id']]);
    expect((await call('PATCH', `/categories/${music.id}`, { body: { name: 'X' } })).status).toBe(401);
    // A draft event is answered like an id that is no event.
    const e = await call('POST', '/events', { token: author, body: { title: 'Hidden', status: 'draft', start_date: '2025-03-10 10:00', end_date: '2025-03-10 11:00', categories: [music.id] } });
    expect(e.status).toBe(201);
    expect(await params('GET', `/categories?post=${e.body.id}`)).toEqual([400, 'rest_invalid_param', ['post']]);
    const own = await call('GET', `/categories?post=${e.body.id}&hide_empty=false`, { token: author });
    expect(own.body.categories.map((c: any) => c.id)).toEqual([music.id]);
  });

  it('reads one by id; a tag id, an unknown id are 400 on id; a non-numeric id is 404 rest_no_route', async () => {
    const g = await call('GET', `/categories/${music.id}`);
    expect(g.status).toBe(200);
    expect(g.body.name).toBe('Music');
    const tag = await create('tags', { name: 'Not a category' });
    const wrong = await call('GET', `/categories/${tag.id}`);
    expect(wrong.status).toBe(400);
    expect(wrong.body.code).toBe('rest_invalid_param');
    expect(Object.keys(wrong.body.data.params)).toEqual(['id']);
    expect((await call('GET', '/categories/99999999')).status).toBe(400);
    expect((await call('GET', '/categories/abc')).body.code).toBe('rest_no_route');
  });

  it('lists: hide_empty by default, the term envelope and headers, clamp, page past the end is 200 empty', async () => {
    const empty = await call('GET', '/categories');
    expect(empty.status).toBe(200);
    expect(Object.keys(empty.body)).toEqual(['rest_url', 'total', 'total_pages', 'categories']);
    expect(empty.body).toMatchObject({ rest_url: `${base}/categories/`, total: 0, total_pages: 0, categories: [] });
    const ev = await call('POST', '/events', { token: editor, body: { title: 'Jazz night', start_date: '2025-03-10 20:00', end_date: '2025-03-10 23:00', categories: [String(jazz.id)] } });
    expect(ev.status).toBe(201);
    const used = await call('GET', '/categories');
    // The parent of a used category stays (hierarchical hide_empty).
    expect(used.body.categories.map((c: any) => c.name)).toEqual(['Jazz', 'Music']);
    expect(used.body.categories[0].count).toBe(1);
    expect(used.headers.get('x-tec-total')).toBe('2');
    expect(used.headers.get('x-tec-totalpages')).toBe('1');
    const all = await call('GET', '/categories?hide_empty=false&per_page=1');
    expect(all.body.total).toBe(2);
    expect(Object.keys(all.body)).toEqual(['rest_url', 'total', 'total_pages', 'categories', 'next_rest_url']);
    expect(all.body.next_rest_url).toBe(`${base}/categories/?page=2`);
    const p2 = await call('GET', '/categories?hide_empty=false&per_page=1&page=2');
    expect(p2.body.previous_rest_url).toBe(`${base}/categories/?page=1`);
    const clamp = await call('GET', '/categories?hide_empty=0&per_page=500');
    expect(clamp.status).toBe(200);
    expect(clamp.body.total_pages).toBe(Math.ceil(clamp.body.total / 50));
    const past = await call('GET', '/categories?page=50');
    expect(past.status).toBe(200);
    expect(past.body.categories).toEqual([]);
    expect(past.body.total).toBe(2);
    const byEvent = await call('GET', `/categories?event=${ev.body.id}`);
    expect(byEvent.body.categories.map((c: any) => c.id)).toEqual([jazz.id]);
    const byPost = await call('GET', `/categories?post=${ev.body.id}`);
    expect(byPost.body.categories.map((c: any) => c.id)).toEqual([jazz.id]);
    const top = await call('GET', '/categories?parent=0');
    expect(top.body.categories.map((c: any) => c.name)).toEqual(['Music']);
    const desc = await call('GET', '/categories?order=desc');
    expect(desc.body.categories.map((c: any) => c.name)).toEqual(['Music', 'Jazz']);
    const search = await call('GET', '/categories?search=jaz&slug=jazz-music&include=' + jazz.id + '&exclude=' + music.id);
    expect(search.body.categories.map((c: any) => c.name)).toEqual(['Jazz']);
    const badInclude = await call('GET', '/categories?include=no-such-term');
    expect(badInclude.status).toBe(400);
    expect(Object.keys(badInclude.body.data.params)).toEqual(['include']);
    const badOrder = await call('GET', '/categories?orderby=colour');
    expect(badOrder.status).toBe(400);
    expect(badOrder.body.code).toBe('rest_invalid_param');
  });

  it('updates with POST, PUT and PATCH; renaming onto a sibling is term_exists', async () => {
    const c = await create('categories', { name: 'Theatre' });
    const p = await call('POST', `/categories/${c.id}`, { token: editor, body: { description: 'Plays' } });
    expect(p.status).toBe(200);
    expect(p.body.description).toBe('Plays');
    const u = await call('PUT', `/categories/${c.id}`, { token: editor, body: { name: 'Drama' } });
    expect(u.body.name).toBe('Drama');
    const pa = await call('PATCH', `/categories/${c.id}`, { token: editor, body: { slug: 'stage' } });
    expect(pa.body.slug).toBe('stage');
    expect(pa.body.name).toBe('Drama');
    const clash = await call('PATCH', `/categories/${c.id}`, { token: editor, body: { name: 'Music' } });
    expect(clash.status).toBe(400);
    expect(clash.body.code).toBe('term_exists');
    expect(clash.body.data.term_id).toBe(music.id);
  });

  it('switches language: a name written in de is read in de, the original stays', async () => {
    const c = await create('categories', { name: 'Dance' });
    const de = await call('PATCH', `/categories/${c.id}?i18n_language=de`, { token: editor, body: { name: 'Tanz' } });
    expect(de.status).toBe(200);
    expect(de.body.name).toBe('Tanz');
    expect((await call('GET', `/categories/${c.id}?i18n_language=de`)).body.name).toBe('Tanz');
    expect((await call('GET', `/categories/${c.id}`)).body.name).toBe('Dance');
  });

  it('DELETE is permanent and returns the term (shape B); the child moves up; then 400 on id', async () => {
    const parent = await create('categories', { name: 'Outdoor' });
    const child = await create('categories', { name: 'Hiking', parent: parent.id });
    const d = await call('DELETE', `/categories/${parent.id}`, { token: editor });
    expect(d.status).toBe(200);
    expect(d.body.id).toBe(parent.id);
    expect(d.body.name).toBe('Outdoor');
    expect(d.body).not.toHaveProperty('deleted');
    expect((await call('GET', `/categories/${child.id}`)).body.parent).toBe(0);
    const again = await call('DELETE', `/categories/${parent.id}`, { token: editor });
    expect(again.status).toBe(400);
    expect(again.body.code).toBe('rest_invalid_param');
  });
});

describe('tags', () => {
  it('every path × method: create 201 (no parent), list, read, update ×3, delete; term_exists', async () => {
    const tag = await create('tags', { name: 'Free Entry' });
    expect(tag.taxonomy).toBe('post_tag');
    expect(tag).not.toHaveProperty('parent');
    expect(Object.keys(tag)).toEqual(['id', 'count', 'description', 'name', 'slug', 'taxonomy', 'meta', 'url', 'urls']);
    const dup = await call('POST', '/tags', { token: editor, body: { name: 'free entry' } });
    expect(dup.status).toBe(400);
    expect(dup.body.code).toBe('term_exists');
    expect(dup.body.data.term_id).toBe(tag.id);
    const l = await call('GET', '/tags?hide_empty=false&search=free');
    expect(Object.keys(l.body)).toEqual(['rest_url', 'total', 'total_pages', 'tags']);
    expect(l.body.rest_url).toBe(`${base}/tags/`);
    expect(l.body.tags.map((x: any) => x.id)).toEqual([tag.id]);
    expect(l.headers.get('x-tec-total')).toBe('1');
    expect((await call('GET', `/tags/${tag.id}`)).body.name).toBe('Free Entry');
    for (const [i, method] of ['POST', 'PUT', 'PATCH'].entries()) {
      const r = await call(method, `/tags/${tag.id}`, { token: editor, body: { description: `d${i}` } });
      expect(r.status).toBe(200);
      expect(r.body.description).toBe(`d${i}`);
    }
    expect((await call('POST', `/tags/${tag.id}`, { body: { name: 'x' } })).status).toBe(401);
    const d = await call('DELETE', `/tags/${tag.id}`, { token: editor });
    expect(d.status).toBe(200);
    expect(d.body.id).toBe(tag.id);
    expect((await call('GET', `/tags/${tag.id}`)).status).toBe(400);
  });
});
