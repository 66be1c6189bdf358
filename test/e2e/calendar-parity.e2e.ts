/**
 * REST <-> GraphQL parity of the events calendar (issue 8): for one shared fixture, each read of
 * /calendar/events/v1 and its GraphQL twin answer the same data for the same viewer and language.
 *
 *   GET /events (default window, ?categories=<slug>, ?venue=<id>, ?search=, page 2)   events(where:, first:, after:)
 *   GET /events/{id} (also ?password=), /events/by-slug/{slug}                        event(id:|slug:, password:)
 *   GET /venues, /venues/{id}, /venues/by-slug/{slug}                                 venues, venue(id:|slug:)
 *   GET /organizers, /organizers/{id}, /organizers/by-slug/{slug}                     organizers, organizer(id:|slug:)
 *   GET /categories, /categories/{id}                                                 eventCategories, eventCategory(id:)
 *   GET /tags, /tags/{id}                                                             eventTags, eventTag(id:)
 *
 * Every row runs for anonymous, an editor (alice) and a contributor (carol, whose draft only she and the editor
 * see), and for anonymous and the editor again in French (`i18n_language=fr` / `language: FR`).
 *
 * Common form (the REST wire names' meaning, GraphQL's spelling): ids, titles/names, local start/end, UTC instants
 * (`Y-m-d H:i:s`), timezone and its abbreviation, cost (formatted, lowest and highest value, currency symbol),
 * venue/organizer ids, category/tag slugs, texts (masked ones are ""), totals; a refused read is its error class
 * (REST status -> the GraphQL extensions.code of the same class). REST drops empty venue/organizer fields
 * (PHP's array_filter): absent = "". Term lists: REST's default hide_empty=true is asked explicitly of GraphQL
 * (whose default is every term).
 *
 * Fixture (site timezone Europe/Copenhagen, clock 2026-03-01 12:00 UTC):
 *   categories Music > Jazz, Music > Rock, Theatre (unused); tags outdoor, family, unused
 *   venues Jazzhuset (geocoded), Blue Note (New York), Shibuya Club (Tokyo), Back room (draft, editor only)
 *   organizers Ann, Ben; events in three timezones (site, America/New_York, Asia/Tokyo), a free one, a
 *   password-protected one, one in the past (outside the default window), and carol's draft; French
 *   translations of an event (title, slug, description), a venue, an organizer, a category and a tag.
 * Runs on SQLite, and on PostgreSQL when DATABASE_URL is set.
 */
import { IdentityFixtures } from '../fixtures/identity';
import { gql, startTestApp, TestApp } from '../helpers/app';
import { expectParity } from '../helpers/parity';

type Json = Record<string, any>;
type Who = 'alice' | 'carol' | undefined;
type Lang = 'fr' | undefined;

let t: TestApp;
const tokens: Record<string, string> = {};
const ids: Record<string, number> = {};

// ---------------------------------------------------------------------------------------------------------
// Transports

type RestAnswer = { status: number; body: any };
type GqlAnswer = { status: number; body: { data?: any; errors?: Array<{ message: string; extensions?: Record<string, unknown> }> } };

async function rest(path: string, who: Who, lang: Lang, query: Record<string, string | number> = {}): Promise<RestAnswer> {
  const q = new URLSearchParams(Object.entries(query).map(([k, v]): [string, string] => [k, String(v)]));
  if (lang) q.set('i18n_language', lang);
  const qs = q.toString();
  const headers: Record<string, string> = who ? { authorization: `Bearer ${tokens[who]}` } : {};
  const res = await fetch(`${t.url}/calendar/events/v1${path}${qs ? `?${qs}` : ''}`, { headers });
  const text = await res.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = text;
  }
  return { status: res.status, body };
}

async function graph(query: string, variables: Record<string, unknown>, who: Who, lang: Lang): Promise<GqlAnswer> {
  const r = await gql(t.url, query, { ...variables, language: lang ? lang.toUpperCase() : null }, who ? tokens[who] : undefined);
  expect(r.status).toBeLessThan(500);
  return r;
}

/** Error classes: REST status -> the GraphQL extensions.code of the same class. */
function restClass(status: number): string {
  return ({ 400: 'BAD_USER_INPUT', 401: 'UNAUTHENTICATED', 403: 'FORBIDDEN', 404: 'NOT_FOUND', 410: 'GONE' } as Record<number, string>)[status] ?? `HTTP ${status}`;
}
const restError = (r: RestAnswer) => ({ error: restClass(r.status), code: r.body?.code });
const gqlError = (g: GqlAnswer) => ({ error: String(g.body.errors![0].extensions?.code), code: g.body.errors![0].extensions?.domainCode });

/** A single read: the common form of the object, or the error class and domain code of the refusal. */
function restOne<N>(r: RestAnswer, form: (b: Json) => N): N | { error: string; code: unknown } {
  return r.status === 200 ? form(r.body) : restError(r);
}
function gqlOne<N>(g: GqlAnswer, pick: (d: any) => Json | null | undefined, form: (n: Json) => N): N | { error: string; code: unknown } {
  if (g.body.errors?.length) return gqlError(g);
  const v = g.body.data ? pick(g.body.data) : null;
  return v ? form(v) : { error: 'null without an error', code: undefined };
}

// ---------------------------------------------------------------------------------------------------------
// Common forms

/** GraphQL DateTimeISO -> the REST `Y-m-d H:i:s` of the same UTC instant. */
const utc = (iso: string) => new Date(iso).toISOString().slice(0, 19).replace('T', ' ');
const lower = (s: string | null | undefined) => (s == null ? s : s.toLowerCase());

/** REST `venue`: [] (none), one object, or an array of them. */
const restVenueList = (v: unknown): Json[] => (Array.isArray(v) ? v : v && typeof v === 'object' ? [v as Json] : []);

function restEvent(e: Json) {
  const values: string[] = e.cost_details?.values ?? [];
  return {
    id: e.id,
    title: e.title,
    status: e.status,
    slug: e.slug,
    start: e.start_date,
    end: e.end_date,
    utcStart: e.utc_start_date,
    utcEnd: e.utc_end_date,
    timezone: e.timezone,
    timezoneAbbr: e.timezone_abbr,
    allDay: e.all_day,
    cost: e.cost,
    costMin: values.length ? values[0] : null,
    costMax: values.length ? values[values.length - 1] : null,
    currencySymbol: e.cost_details?.currency_symbol,
    featured: e.featured,
    description: e.description,
    excerpt: e.excerpt,
    url: e.url,
    website: e.website,
    venues: restVenueList(e.venue).map((v) => v.id),
    organizers: (e.organizer as Json[]).map((o) => o.id),
    categories: (e.categories as Json[]).map((c) => c.slug),
    tags: (e.tags as Json[]).map((c) => c.slug),
    related: [
      ...restVenueList(e.venue).map((v) => `venue ${v.venue}`),
      ...(e.organizer as Json[]).map((o) => `organizer ${o.organizer}`),
      ...(e.categories as Json[]).map((c) => `category ${c.name} (${c.count}, parent ${c.parent})`),
      ...(e.tags as Json[]).map((c) => `tag ${c.name} (${c.count})`),
    ],
  };
}

const EVENT_FIELDS = `databaseId title status slug startDate endDate startDateUtc endDateUtc timezone timezoneAbbr allDay cost costMin costMax
  currencySymbol featured description excerpt url website venues { databaseId name } organizers { databaseId name }
  categories { slug name count parent { databaseId } } tags { slug name count }`;

function gqlEvent(e: Json) {
  return {
    id: e.databaseId,
    title: e.title,
    status: lower(e.status),
    slug: e.slug,
    start: e.startDate,
    end: e.endDate,
    utcStart: utc(e.startDateUtc),
    utcEnd: utc(e.endDateUtc),
    timezone: e.timezone,
    timezoneAbbr: e.timezoneAbbr,
    allDay: e.allDay,
    cost: e.cost,
    costMin: e.costMin,
    costMax: e.costMax,
    currencySymbol: e.currencySymbol,
    featured: e.featured,
    description: e.description,
    excerpt: e.excerpt,
    url: e.url,
    website: e.website,
    venues: (e.venues as Json[]).map((v) => v.databaseId),
    organizers: (e.organizers as Json[]).map((o) => o.databaseId),
    categories: (e.categories as Json[]).map((c) => c.slug),
    tags: (e.tags as Json[]).map((c) => c.slug),
    related: [
      ...(e.venues as Json[]).map((v) => `venue ${v.name}`),
      ...(e.organizers as Json[]).map((o) => `organizer ${o.name}`),
      ...(e.categories as Json[]).map((c) => `category ${c.name} (${c.count}, parent ${c.parent ? c.parent.databaseId : 0})`),
      ...(e.tags as Json[]).map((c) => `tag ${c.name} (${c.count})`),
    ],
  };
}

function restVenue(v: Json) {
  const geocoded = v.geo_lat !== undefined && v.geo_lng !== undefined;
  return {
    id: v.id,
    name: v.venue,
    status: v.status,
    slug: v.slug,
    description: v.description ?? '',
    excerpt: v.excerpt ?? '',
    address: v.address ?? '',
    city: v.city ?? '',
    country: v.country ?? '',
    province: v.province ?? '',
    stateProvince: v.stateprovince ?? '',
    zip: v.zip ?? '',
    phone: v.phone ?? '',
    website: v.website ?? '',
    geo: geocoded ? { lat: v.geo_lat, lng: v.geo_lng } : null,
    showMap: v.show_map,
    showMapLink: v.show_map_link,
    url: v.url,
  };
}

const VENUE_FIELDS = `databaseId name status slug description excerpt address city country province stateProvince zip phone website geo { lat lng } showMap showMapLink url`;

function gqlVenue(v: Json) {
  return {
    id: v.databaseId,
    name: v.name,
    status: lower(v.status),
    slug: v.slug,
    description: v.description,
    excerpt: v.excerpt,
    address: v.address,
    city: v.city,
    country: v.country,
    province: v.province,
    stateProvince: v.stateProvince,
    zip: v.zip,
    phone: v.phone,
    website: v.website,
    geo: v.geo,
    showMap: v.showMap,
    showMapLink: v.showMapLink,
    url: v.url,
  };
}

function restOrganizer(o: Json) {
  return {
    id: o.id,
    name: o.organizer,
    status: o.status,
    slug: o.slug,
    description: o.description ?? '',
    excerpt: o.excerpt ?? '',
    phone: o.phone ?? '',
    website: o.website ?? '',
    email: o.email ?? '',
    url: o.url,
  };
}

const ORGANIZER_FIELDS = `databaseId name status slug description excerpt phone website email url`;

function gqlOrganizer(o: Json) {
  return {
    id: o.databaseId,
    name: o.name,
    status: lower(o.status),
    slug: o.slug,
    description: o.description,
    excerpt: o.excerpt,
    phone: o.phone,
    website: o.website,
    email: o.email,
    url: o.url,
  };
}

const restTerm = (c: Json) => ({ id: c.id, name: c.name, slug: c.slug, description: c.description, count: c.count, ...('parent' in c ? { parent: c.parent } : {}) });
const CATEGORY_FIELDS = `databaseId name slug description count parent { databaseId }`;
const TAG_FIELDS = `databaseId name slug description count`;
const gqlCategory = (c: Json) => ({ id: c.databaseId, name: c.name, slug: c.slug, description: c.description, count: c.count, parent: c.parent ? c.parent.databaseId : 0 });
const gqlTag = (c: Json) => ({ id: c.databaseId, name: c.name, slug: c.slug, description: c.description, count: c.count });

type ListForm<N> = { total: number; items: N[] } | { error: string; code: unknown };

function restList<N>(r: RestAnswer, key: string, form: (b: Json) => N): ListForm<N> {
  return r.status === 200 ? { total: r.body.total, items: (r.body[key] as Json[]).map(form) } : restError(r);
}
function gqlList<N>(g: GqlAnswer, key: string, form: (n: Json) => N): ListForm<N> {
  if (g.body.errors?.length) return gqlError(g);
  const c = g.body.data[key];
  return { total: c.totalCount, items: (c.nodes as Json[]).map(form) };
}

/** expectParity on a list: a page of at least one item unless `empty` (the helper's rule, for the `items` of a page). */
async function listParity<N>(c: { rest: () => Promise<ListForm<N>>; graphql: () => Promise<ListForm<N>>; expect?: 'empty' }): Promise<ListForm<N>> {
  const form = await expectParity({ rest: c.rest, graphql: c.graphql, normalize: { rest: (x) => x, graphql: (x) => x } });
  expect('items' in form).toBe(true);
  if ('items' in form) {
    if (c.expect === 'empty') expect(form.items).toEqual([]);
    else expect(form.items.length).toBeGreaterThan(0);
  }
  return form;
}

// ---------------------------------------------------------------------------------------------------------
// Fixture

beforeAll(async () => {
  t = await startTestApp({ env: { CALENDAR_NOW: '2026-03-01T12:00:00Z', CALENDAR_TIMEZONE: 'Europe/Copenhagen' } });
  const f = new IdentityFixtures(t.db.dataSource);
  for (const [login, calendarRole] of Object.entries({ alice: 'editor', carol: 'contributor' })) {
    tokens[login] = await f.classicToken(await f.user(login, { calendarRole }), ['repo', 'calendar']);
  }
  const ok = async (query: string, variables: Record<string, unknown>, who: Who = 'alice') => {
    const r = await gql(t.url, query, variables, who ? tokens[who] : undefined);
    if (r.body.errors) throw new Error(`${query}: ${JSON.stringify(r.body.errors)}`);
    return r.body.data;
  };
  const category = async (name: string, parent?: number) =>
    (await ok(`mutation($input: EventTermInput!) { createEventCategory(input: $input) { databaseId } }`, { input: { name, parent } })).createEventCategory.databaseId;
  ids.music = await category('Music');
  ids.jazz = await category('Jazz', ids.music);
  ids.rock = await category('Rock', ids.music);
  ids.theatre = await category('Theatre');
  const tag = async (name: string) => (await ok(`mutation($input: EventTermInput!) { createEventTag(input: $input) { databaseId } }`, { input: { name } })).createEventTag.databaseId;
  ids.outdoor = await tag('Outdoor');
  ids.family = await tag('Family');
  ids.unusedTag = await tag('Unused');

  const venue = async (input: Record<string, unknown>) => (await ok(`mutation($input: VenueInput!) { createVenue(input: $input) { databaseId } }`, { input })).createVenue.databaseId;
  ids.jazzhuset = await venue({ name: 'Jazzhuset', address: 'Vestergade 1', city: 'København', zip: '1456', country: 'Denmark', phone: '+45 3315 2600', lat: 55.6786, lng: 12.5716 });
  ids.bluenote = await venue({ name: 'Blue Note', address: '131 W 3rd St', city: 'New York', stateProvince: 'NY', country: 'United States', website: 'https://bluenote.example' });
  ids.shibuya = await venue({ name: 'Shibuya Club', city: 'Tokyo', country: 'Japan', description: 'A basement club.' });
  ids.backroom = await venue({ name: 'Back room', city: 'København', status: 'DRAFT' });
  const organizer = async (input: Record<string, unknown>) =>
    (await ok(`mutation($input: OrganizerInput!) { createOrganizer(input: $input) { databaseId } }`, { input })).createOrganizer.databaseId;
  ids.ann = await organizer({ name: 'Ann Organizer', email: 'ann@example.com', phone: '+45 1234' });
  ids.ben = await organizer({ name: 'Ben Booker', website: 'https://ben.example', description: 'Books bands.' });

  const event = async (input: Record<string, unknown>, who: Who = 'alice') =>
    (await ok(`mutation($input: EventInput!) { createEvent(input: $input) { databaseId status } }`, { input }, who)).createEvent;
  ids.jazzNight = (
    await event({
      title: "Jazz night's best",
      description: 'Bebop all night long.',
      excerpt: 'Bebop.',
      startDate: '2026-03-10 20:00:00',
      endDate: '2026-03-10 23:00:00',
      categories: [String(ids.jazz)],
      tags: ['outdoor'],
      venues: [ids.jazzhuset],
      organizers: [ids.ann],
      cost: '$10 - $20',
      featured: true,
    })
  ).databaseId;
  ids.blues = (
    await event({
      title: 'Blues in New York',
      description: 'Delta blues.',
      startDate: '2026-03-14 19:00:00',
      endDate: '2026-03-14 22:30:00',
      timezone: 'America/New_York',
      categories: ['music'],
      venues: [ids.bluenote],
      organizers: [ids.ben],
      cost: '25',
    })
  ).databaseId;
  ids.tokyo = (
    await event({
      title: 'Tokyo rock',
      description: 'Loud guitars.',
      startDate: '2026-03-20 18:00:00',
      endDate: '2026-03-20 21:00:00',
      timezone: 'Asia/Tokyo',
      categories: ['rock'],
      tags: ['outdoor', 'family'],
      venues: [ids.shibuya],
      organizers: [ids.ann, ids.ben],
      cost: '¥3000',
    })
  ).databaseId;
  ids.picnic = (
    await event({ title: 'Family picnic', description: 'Bring food.', startDate: '2026-04-05', endDate: '2026-04-05', allDay: true, tags: ['family'], cost: '0', venues: [ids.jazzhuset] })
  ).databaseId;
  ids.secret = (
    await event({
      title: 'Secret gig',
      description: 'Only for friends.',
      startDate: '2026-03-15 21:00:00',
      endDate: '2026-03-15 23:30:00',
      categories: ['jazz'],
      venues: [ids.jazzhuset],
      cost: '15',
      password: 'letmein',
    })
  ).databaseId;
  ids.past = (await event({ title: 'Past jazz', startDate: '2026-02-01 10:00:00', endDate: '2026-02-01 12:00:00', categories: ['jazz'] })).databaseId;
  const draft = await event({ title: 'Carol draft', description: 'Not yet.', startDate: '2026-03-12 10:00:00', endDate: '2026-03-12 11:00:00', tags: ['outdoor'] }, 'carol');
  expect(draft.status).toBe('DRAFT');
  ids.draft = draft.databaseId;

  // French
  const tr = (what: string, id: number, input: Record<string, unknown>) =>
    ok(`mutation($id: ID!, $input: CalendarTranslationInput!) { ${what}(id: $id, language: FR, input: $input) { __typename } }`, { id: String(id), input });
  await tr('translateEvent', ids.jazzNight, { title: 'Soirée jazz', slug: 'soiree-jazz', description: 'Du bebop toute la nuit.' });
  await tr('translateVenue', ids.jazzhuset, { title: 'La maison du jazz', slug: 'maison-du-jazz' });
  await tr('translateOrganizer', ids.ann, { title: 'Ann Organisatrice' });
  await tr('translateEventCategory', ids.jazz, { title: 'Jazz (fr)' });
  await tr('translateEventTag', ids.outdoor, { title: 'Plein air' });
}, 120_000);

afterAll(async () => {
  await t?.close();
});

// ---------------------------------------------------------------------------------------------------------

const RUNS: Array<[string, Who, Lang]> = [
  ['anonymous', undefined, undefined],
  ['editor', 'alice', undefined],
  ['contributor', 'carol', undefined],
  ['anonymous in French', undefined, 'fr'],
  ['editor in French', 'alice', 'fr'],
];

describe.each(RUNS)('%s', (_name, who, lang) => {
  const L = `$language: CalendarLanguage`;

  describe('GET /events <-> events', () => {
    const LIST = `query($where: EventsWhere, $first: Int, $after: String, ${L}) {
      events(where: $where, first: $first, after: $after, language: $language) { totalCount pageInfo { endCursor } nodes { ${EVENT_FIELDS} } }
    }`;
    const twin = (query: Record<string, string | number>, where: Record<string, unknown> | null, first?: number) =>
      listParity({
        rest: async () => restList(await rest('/events', who, lang, query), 'events', restEvent),
        graphql: async () => gqlList(await graph(LIST, { where, first }, who, lang), 'events', gqlEvent),
      });

    it('the default window (today … +24 months), protected events masked for those who may not edit them', async () => {
      const form = await twin({}, null);
      if (!('items' in form)) throw new Error('an error');
      const shown = form.items.map((e) => e.id);
      // the past event is outside the window; carol's draft is hers (and the editor's) only
      expect(shown).not.toContain(ids.past);
      expect(shown.includes(ids.draft)).toBe(who !== undefined);
      const secret = form.items.find((e) => e.id === ids.secret)!;
      if (who === 'alice') expect(secret).toMatchObject({ categories: ['jazz'], venues: [ids.jazzhuset], featured: false });
      else expect(secret).toMatchObject({ description: '', cost: '', categories: [], venues: [], featured: null });
      expect(secret.title).toBe('Secret gig');
      expect(secret.description === '').toBe(who !== 'alice');
      // three timezones: New York and Tokyo local times with their own UTC instants
      expect(form.items.find((e) => e.id === ids.blues)).toMatchObject({ start: '2026-03-14 19:00:00', utcStart: '2026-03-14 23:00:00', timezoneAbbr: 'EDT' });
      expect(form.items.find((e) => e.id === ids.tokyo)).toMatchObject({ start: '2026-03-20 18:00:00', utcStart: '2026-03-20 09:00:00', timezoneAbbr: 'JST' });
      const jazz = form.items.find((e) => e.id === ids.jazzNight)!;
      expect(jazz).toMatchObject({ utcStart: '2026-03-10 19:00:00', timezoneAbbr: 'CET', venues: [ids.jazzhuset], organizers: [ids.ann] });
      expect(jazz.title).toBe(lang === 'fr' ? 'Soirée jazz' : 'Jazz night&#8217;s best');
      // related values in the asked language: translated where a translation exists, the original elsewhere
      expect(jazz.related).toEqual(
        lang === 'fr'
          ? ['venue La maison du jazz', 'organizer Ann Organisatrice', `category Jazz (fr) (3, parent ${ids.music})`, 'tag Plein air (2)']
          : ['venue Jazzhuset', 'organizer Ann Organizer', `category Jazz (3, parent ${ids.music})`, 'tag Outdoor (2)'],
      );
    });

    it('a category by slug (its children included)', async () => {
      const form = await twin({ categories: 'music' }, { categories: ['music'] });
      if ('items' in form) expect(form.items.map((e) => e.id)).toEqual(expect.arrayContaining([ids.jazzNight, ids.blues, ids.tokyo]));
    });

    it('a venue', async () => {
      const form = await twin({ venue: ids.jazzhuset }, { venues: [ids.jazzhuset] });
      if ('items' in form) expect(form.total).toBe(3);
    });

    it('search', async () => {
      const form = await twin({ search: 'guitars' }, { search: 'guitars' });
      if ('items' in form) expect(form.items.map((e) => e.id)).toEqual([ids.tokyo]);
    });

    it('page 2 (per_page=2&page=2 / first: 2 after the first page)', async () => {
      const form = await listParity({
        rest: async () => restList(await rest('/events', who, lang, { per_page: 2, page: 2 }), 'events', restEvent),
        graphql: async () => {
          const p1 = await graph(LIST, { first: 2 }, who, lang);
          expect(p1.body.errors).toBeUndefined();
          return gqlList(await graph(LIST, { first: 2, after: p1.body.data.events.pageInfo.endCursor }, who, lang), 'events', gqlEvent);
        },
      });
      if ('items' in form) expect(form.items).toHaveLength(2);
    });
  });

  describe('GET /events/{id} and /events/by-slug/{slug} <-> event', () => {
    const ONE = `query($id: ID, $slug: String, $password: String, ${L}) { event(id: $id, slug: $slug, password: $password, language: $language) { ${EVENT_FIELDS} } }`;
    const byId = (key: string, password?: string) =>
      expectParity({
        rest: () => rest(`/events/${ids[key]}`, who, lang, password ? { password } : {}),
        graphql: () => graph(ONE, { id: String(ids[key]), password }, who, lang),
        normalize: { rest: (r) => restOne(r, restEvent), graphql: (g) => gqlOne(g, (d) => d.event, gqlEvent) },
      });

    it('an event with every relation', async () => {
      expect(await byId('jazzNight')).toMatchObject({ id: ids.jazzNight, categories: ['jazz'], tags: ['outdoor'], cost: '$10 – $20', costMin: '10', costMax: '20' });
    });

    it('events in other timezones, a free all-day one', async () => {
      expect(await byId('blues')).toMatchObject({ timezone: 'America/New_York', utcEnd: '2026-03-15 02:30:00' });
      expect(await byId('tokyo')).toMatchObject({ timezone: 'Asia/Tokyo', organizers: [ids.ann, ids.ben], tags: expect.arrayContaining(['family', 'outdoor']) });
      expect(await byId('picnic')).toMatchObject({ allDay: true, cost: 'Free' });
    });

    it('the protected event: refused without its password unless the viewer may edit it; whole with it', async () => {
      const without = await byId('secret');
      if (who === 'alice') expect(without).toMatchObject({ id: ids.secret, description: expect.stringContaining('Only for friends.') });
      else expect(without).toEqual({ error: 'FORBIDDEN', code: 'event-password-protected' });
      expect(await byId('secret', 'letmein')).toMatchObject({ id: ids.secret, categories: ['jazz'], description: expect.stringContaining('Only for friends.') });
    });

    it("carol's draft: hers and the editor's to read", async () => {
      const form = await byId('draft');
      if (who === undefined) expect(form).toMatchObject({ error: expect.stringMatching(/FORBIDDEN|UNAUTHENTICATED/) });
      else expect(form).toMatchObject({ id: ids.draft, status: 'draft' });
    });

    it('an unknown id', async () => {
      const form = await expectParity({
        rest: () => rest('/events/999999', who, lang),
        graphql: () => graph(ONE, { id: '999999' }, who, lang),
        normalize: { rest: (r) => restOne(r, restEvent), graphql: (g) => gqlOne(g, (d) => d.event, gqlEvent) },
      });
      expect(form).toEqual({ error: 'NOT_FOUND', code: 'rest-event-not-found' });
    });

    it.each([['jazz-nights-best'], ['soiree-jazz'], ['tokyo-rock'], ['carol-draft'], ['secret-gig']])('by slug %s', async (slug) => {
      const form = await expectParity({
        rest: () => rest(`/events/by-slug/${slug}`, who, lang),
        graphql: () => graph(ONE, { slug }, who, lang),
        normalize: { rest: (r) => restOne(r, restEvent), graphql: (g) => gqlOne(g, (d) => d.event, gqlEvent) },
      });
      if (slug === 'soiree-jazz' && lang === 'fr') expect(form).toMatchObject({ id: ids.jazzNight, title: 'Soirée jazz' });
      if (slug === 'tokyo-rock') expect(form).toMatchObject({ id: ids.tokyo });
      // reference §3: an unknown slug (here: the French slug read in English) is 400 rest_invalid_param
      if (slug === 'soiree-jazz' && lang !== 'fr') expect(form).toEqual({ error: 'BAD_USER_INPUT', code: 'rest_invalid_param' });
    });
  });

  describe('venues', () => {
    const LIST = `query($first: Int, ${L}) { venues(first: $first, language: $language) { totalCount nodes { ${VENUE_FIELDS} } } }`;
    const ONE = `query($id: ID, $slug: String, ${L}) { venue(id: $id, slug: $slug, language: $language) { ${VENUE_FIELDS} } }`;
    const one = (path: string, vars: Record<string, unknown>) =>
      expectParity({
        rest: () => rest(path, who, lang),
        graphql: () => graph(ONE, vars, who, lang),
        normalize: { rest: (r) => restOne(r, restVenue), graphql: (g) => gqlOne(g, (d) => d.venue, gqlVenue) },
      });

    it('GET /venues <-> venues (drafts for the editor only)', async () => {
      const form = await listParity({
        rest: async () => restList(await rest('/venues', who, lang), 'venues', restVenue),
        graphql: async () => gqlList(await graph(LIST, {}, who, lang), 'venues', gqlVenue),
      });
      if ('items' in form) expect(form.items.some((v) => v.id === ids.backroom)).toBe(who === 'alice');
    });

    it('GET /venues/{id} <-> venue(id:): geocoded, and not', async () => {
      expect(await one(`/venues/${ids.jazzhuset}`, { id: String(ids.jazzhuset) })).toMatchObject({ geo: { lat: 55.6786, lng: 12.5716 }, name: lang === 'fr' ? 'La maison du jazz' : 'Jazzhuset' });
      expect(await one(`/venues/${ids.bluenote}`, { id: String(ids.bluenote) })).toMatchObject({ geo: null, stateProvince: 'NY' });
      expect(await one('/venues/999999', { id: '999999' })).toEqual({ error: 'BAD_USER_INPUT', code: 'rest_invalid_param' });
    });

    it('GET /venues/by-slug/{slug} <-> venue(slug:)', async () => {
      expect(await one('/venues/by-slug/shibuya-club', { slug: 'shibuya-club' })).toMatchObject({ id: ids.shibuya });
      await one('/venues/by-slug/maison-du-jazz', { slug: 'maison-du-jazz' });
    });

    it('a draft venue: the editor reads it, others are refused the same way', async () => {
      const form = await one(`/venues/${ids.backroom}`, { id: String(ids.backroom) });
      if (who === 'alice') expect(form).toMatchObject({ id: ids.backroom, status: 'draft' });
      else expect(form).toMatchObject({ error: expect.any(String) });
    });
  });

  describe('organizers', () => {
    const LIST = `query($first: Int, ${L}) { organizers(first: $first, language: $language) { totalCount nodes { ${ORGANIZER_FIELDS} } } }`;
    const ONE = `query($id: ID, $slug: String, ${L}) { organizer(id: $id, slug: $slug, language: $language) { ${ORGANIZER_FIELDS} } }`;
    const one = (path: string, vars: Record<string, unknown>) =>
      expectParity({
        rest: () => rest(path, who, lang),
        graphql: () => graph(ONE, vars, who, lang),
        normalize: { rest: (r) => restOne(r, restOrganizer), graphql: (g) => gqlOne(g, (d) => d.organizer, gqlOrganizer) },
      });

    it('GET /organizers <-> organizers', async () => {
      const form = await listParity({
        rest: async () => restList(await rest('/organizers', who, lang), 'organizers', restOrganizer),
        graphql: async () => gqlList(await graph(LIST, {}, who, lang), 'organizers', gqlOrganizer),
      });
      if ('items' in form) expect(form.total).toBe(2);
    });

    it('GET /organizers/{id} <-> organizer(id:)', async () => {
      expect(await one(`/organizers/${ids.ann}`, { id: String(ids.ann) })).toMatchObject({ email: 'ann@example.com', name: lang === 'fr' ? 'Ann Organisatrice' : 'Ann Organizer' });
      expect(await one(`/organizers/${ids.ben}`, { id: String(ids.ben) })).toMatchObject({ website: 'https://ben.example' });
      // reference §3: a missing venue/organizer id is 400 rest_invalid_param (the id validator; no 404 path)
      expect(await one('/organizers/999999', { id: '999999' })).toEqual({ error: 'BAD_USER_INPUT', code: 'rest_invalid_param' });
    });

    it('GET /organizers/by-slug/{slug} <-> organizer(slug:)', async () => {
      expect(await one('/organizers/by-slug/ben-booker', { slug: 'ben-booker' })).toMatchObject({ id: ids.ben });
    });
  });

  describe('categories and tags', () => {
    const CATS = `query($first: Int, ${L}) { eventCategories(first: $first, where: { hideEmpty: true }, language: $language) { totalCount nodes { ${CATEGORY_FIELDS} } } }`;
    const TAGS = `query($first: Int, ${L}) { eventTags(first: $first, where: { hideEmpty: true }, language: $language) { totalCount nodes { ${TAG_FIELDS} } } }`;
    const CAT = `query($id: ID!, ${L}) { eventCategory(id: $id, language: $language) { ${CATEGORY_FIELDS} } }`;
    const TAG = `query($id: ID!, ${L}) { eventTag(id: $id, language: $language) { ${TAG_FIELDS} } }`;

    it('GET /categories <-> eventCategories (hide_empty: the unused category is left out)', async () => {
      const form = await listParity({
        rest: async () => restList(await rest('/categories', who, lang), 'categories', restTerm),
        graphql: async () => gqlList(await graph(CATS, {}, who, lang), 'eventCategories', gqlCategory),
      });
      if ('items' in form) {
        expect(form.items.map((c) => c.id)).not.toContain(ids.theatre);
        expect(form.items.find((c) => c.id === ids.jazz)).toMatchObject({ parent: ids.music, name: lang === 'fr' ? 'Jazz (fr)' : 'Jazz' });
      }
    });

    it('GET /categories/{id} <-> eventCategory(id:)', async () => {
      for (const key of ['music', 'jazz', 'theatre']) {
        await expectParity({
          rest: () => rest(`/categories/${ids[key]}`, who, lang),
          graphql: () => graph(CAT, { id: String(ids[key]) }, who, lang),
          normalize: { rest: (r) => restOne(r, restTerm), graphql: (g) => gqlOne(g, (d) => d.eventCategory, gqlCategory) },
        });
      }
    });

    it('GET /tags <-> eventTags', async () => {
      const form = await listParity({
        rest: async () => restList(await rest('/tags', who, lang), 'tags', restTerm),
        graphql: async () => gqlList(await graph(TAGS, {}, who, lang), 'eventTags', gqlTag),
      });
      if ('items' in form) expect(form.items.map((c) => c.id)).not.toContain(ids.unusedTag);
    });

    it('GET /tags/{id} <-> eventTag(id:)', async () => {
      for (const key of ['outdoor', 'family', 'unusedTag']) {
        const form = await expectParity({
          rest: () => rest(`/tags/${ids[key]}`, who, lang),
          graphql: () => graph(TAG, { id: String(ids[key]) }, who, lang),
          normalize: { rest: (r) => restOne(r, restTerm), graphql: (g) => gqlOne(g, (d) => d.eventTag, gqlTag) },
        });
        if (key === 'outdoor') expect(form).toMatchObject({ name: lang === 'fr' ? 'Plein air' : 'Outdoor' });
      }
    });
  });
});
