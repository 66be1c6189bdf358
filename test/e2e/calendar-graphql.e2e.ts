/**
 * The events calendar in the graph, over HTTP: data written through the calendar mutations (the same services as
 * REST), then `events` with filters (dates, categories by slug and id with children, tags, venue, featured,
 * search, geo), offset cursors, single reads (id, slug, password), masking of protected events in lists, the
 * access rules (anonymous: published only; a contributor's own draft; an editor sees all), a language with
 * fallback, venue/organizer/term reads and writes, and one 401/403/404/410 each.
 */
import { IdentityFixtures } from '../fixtures/identity';
import { CalendarEventsDocument } from '../__generated__/graphql';
import { gql, gqlDoc, startTestApp, TestApp } from '../helpers/app';
import { describeStatements, repeatedStatements, SqlLog } from '../helpers/sql-log';
import { cachedStatementCount } from '../../src/services/common/list-query';

type Who = 'alice' | 'bob' | 'carol' | 'dave' | undefined;

describe('calendar GraphQL', () => {
  let t: TestApp;
  const sql = new SqlLog();
  const tokens: Record<string, string> = {};
  const ids: Record<string, string> = {};
  const dbIds: Record<string, number> = {};

  async function run(query: string, variables: Record<string, unknown> = {}, who?: Who) {
    const r = await gql(t.url, query, variables, who ? tokens[who] : undefined);
    expect(r.status).toBeLessThan(500);
    return r.body;
  }
  async function ok(query: string, variables: Record<string, unknown> = {}, who?: Who) {
    const body = await run(query, variables, who);
    expect(body.errors).toBeUndefined();
    return body.data;
  }
  async function fails(query: string, variables: Record<string, unknown> = {}, who?: Who) {
    const body = await run(query, variables, who);
    expect(body.errors?.length).toBeGreaterThan(0);
    return { data: body.data, error: body.errors![0] };
  }

  const CREATE_EVENT = `mutation($input: EventInput!, $language: CalendarLanguage) {
    createEvent(input: $input, language: $language) { id databaseId title status slug }
  }`;
  const LIST = `query($where: EventsWhere, $first: Int, $after: String, $language: CalendarLanguage) {
    events(where: $where, first: $first, after: $after, language: $language) {
      totalCount
      pageInfo { hasNextPage hasPreviousPage endCursor }
      nodes { databaseId title }
    }
  }`;
  const titles = async (where: Record<string, unknown> = {}, who?: Who, extra: Record<string, unknown> = {}) =>
    ((await ok(LIST, { where, ...extra }, who)).events.nodes as Array<{ title: string }>).map((n) => n.title);

  beforeAll(async () => {
    t = await startTestApp({ logger: sql, env: { CALENDAR_NOW: '2026-03-01T12:00:00Z', CALENDAR_TIMEZONE: 'Europe/Copenhagen' } });
    const f = new IdentityFixtures(t.db.dataSource);
    const roles = { alice: 'editor', bob: 'author', carol: 'contributor', dave: 'subscriber' } as const;
    for (const [login, calendarRole] of Object.entries(roles)) {
      const u = await f.user(login, { calendarRole });
      tokens[login] = await f.classicToken(u, ['repo', 'calendar']);
    }

    const cat = async (name: string, parent?: number) =>
      (await ok(`mutation($input: EventTermInput!) { createEventCategory(input: $input) { id databaseId } }`, { input: { name, parent } }, 'alice'))
        .createEventCategory;
    const music = await cat('Music');
    const jazz = await cat('Jazz', music.databaseId);
    dbIds.music = music.databaseId;
    dbIds.jazzCategory = jazz.databaseId;
    ids.jazzCategory = jazz.id;
    const tag = (await ok(`mutation { createEventTag(input: { name: "Outdoor" }) { id databaseId } }`, {}, 'alice')).createEventTag;
    ids.outdoor = tag.id;

    const venue = (
      await ok(
        `mutation($input: VenueInput!) { createVenue(input: $input) { id databaseId } }`,
        { input: { name: 'Jazzhuset', address: 'Vestergade 1', city: 'København', country: 'Denmark', lat: 55.6786, lng: 12.5716 } },
        'alice',
      )
    ).createVenue;
    ids.venue = venue.id;
    dbIds.venue = venue.databaseId;
    const organizer = (
      await ok(`mutation { createOrganizer(input: { name: "Ann Organizer", email: "ann@example.com", phone: "+45 1234" }) { id databaseId } }`, {}, 'alice')
    ).createOrganizer;
    ids.organizer = organizer.id;
    dbIds.organizer = organizer.databaseId;

    const event = async (key: string, input: Record<string, unknown>, who: Who = 'alice') => {
      const e = (await ok(CREATE_EVENT, { input }, who)).createEvent;
      ids[key] = e.id;
      dbIds[key] = e.databaseId;
      return e;
    };
    await event('jazz', {
      title: 'Jazz night',
      description: 'Bebop all night long.',
      startDate: '2026-03-10 20:00:00',
      endDate: '2026-03-10 23:00:00',
      categories: [String(dbIds.jazzCategory)],
      tags: ['outdoor'],
      venues: [dbIds.venue],
      organizers: [dbIds.organizer],
      cost: '$10 - $20',
      featured: true,
    });
    await event('rock', { title: 'Rock show', description: 'Loud.', startDate: '2026-03-20 19:00:00', endDate: '2026-03-20 22:00:00' });
    await event('secret', {
      title: 'Secret gig',
      description: 'Only for friends.',
      startDate: '2026-03-15 21:00:00',
      endDate: '2026-03-15 23:30:00',
      categories: ['music'],
      password: 'letmein',
    });
    await event('past', { title: 'Past event', startDate: '2026-02-01 10:00:00', endDate: '2026-02-01 12:00:00' });
    const draft = await event('carolDraft', { title: 'Carol draft', startDate: '2026-03-12 10:00:00', endDate: '2026-03-12 11:00:00' }, 'carol');
    // A contributor may not publish: the service scaled the write back to a draft.
    expect(draft.status).toBe('DRAFT');
  }, 60_000);

  afterAll(async () => {
    await t?.close();
  });

  describe('events list', () => {
    it('orderBy: start date descending, title ascending', async () => {
      const desc = await ok(`{ events(orderBy: { field: START_DATE, direction: DESC }) { nodes { title startDate } } }`);
      const starts = desc.events.nodes.map((n: { startDate: string }) => n.startDate);
      expect(starts.length).toBeGreaterThan(1);
      expect(starts).toEqual([...starts].sort().reverse());
      const byTitle = await ok(`{ events(orderBy: { field: TITLE }) { nodes { title } } }`);
      const titles = byTitle.events.nodes.map((n: { title: string }) => n.title);
      expect(titles).toEqual([...titles].sort((a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0)));
    });

    it('anonymous: published upcoming events in start order, relations, protected events masked', async () => {
      const data = await ok(
        `{ events { totalCount nodes {
            title startDate endDate startDateUtc timezoneAbbr featured masked description cost costMin costMax currencySymbol url
            venue { name city geo { lat lng } } organizers { name email } categories { name slug parent { name } } tags { name }
            author { login }
        } } }`,
      );
      const nodes = data.events.nodes;
      expect(nodes.map((n: { title: string }) => n.title)).toEqual(['Jazz night', 'Secret gig', 'Rock show']);
      expect(data.events.totalCount).toBe(3);
      const [jazz, secret] = nodes;
      expect(jazz).toMatchObject({
        startDate: '2026-03-10 20:00:00',
        endDate: '2026-03-10 23:00:00',
        startDateUtc: '2026-03-10T19:00:00.000Z',
        timezoneAbbr: 'CET',
        featured: true,
        masked: false,
        cost: '$10 – $20',
        costMin: '10',
        costMax: '20',
        currencySymbol: '$',
        venue: { name: 'Jazzhuset', city: 'København', geo: { lat: 55.6786, lng: 12.5716 } },
        organizers: [{ name: 'Ann Organizer', email: 'ann@example.com' }],
        categories: [{ name: 'Jazz', slug: 'jazz', parent: { name: 'Music' } }],
        tags: [{ name: 'Outdoor' }],
        author: { login: 'alice' },
      });
      expect(jazz.description).toContain('Bebop all night long.');
      expect(jazz.url).toBe(`${t.config.publicUrl}/calendar/event/jazz-night/`);
      // §1.5: title and dates kept, content and relations gone.
      expect(secret).toMatchObject({ title: 'Secret gig', startDate: '2026-03-15 21:00:00', masked: true, description: '', featured: null, categories: [], venue: null, costMin: null });
    });

    it('filters: categories by slug (children included) and id, tags, venue, organizer, featured, search, geo, dates', async () => {
      expect(await titles({ categories: ['music'] })).toEqual(['Jazz night', 'Secret gig']);
      expect(await titles({ categories: [String(dbIds.jazzCategory)] })).toEqual(['Jazz night']);
      expect(await titles({ tags: ['outdoor'] })).toEqual(['Jazz night']);
      expect(await titles({ venues: [dbIds.venue] })).toEqual(['Jazz night']);
      expect(await titles({ organizers: [dbIds.organizer] })).toEqual(['Jazz night']);
      expect(await titles({ featured: false })).toEqual(['Secret gig', 'Rock show']);
      expect(await titles({ search: 'loud' })).toEqual(['Rock show']);
      expect(await titles({ geo: { lat: 55.68, lng: 12.57, radiusKm: 5 } })).toEqual(['Jazz night']);
      expect(await titles({ geo: { lat: 48.85, lng: 2.35, radiusKm: 5 } })).toEqual([]);
      expect(await titles({ startDate: '2026-01-01' })).toEqual(['Past event', 'Jazz night', 'Secret gig', 'Rock show']);
      expect(await titles({ startDate: '2026-03-11', endDate: '2026-03-16' })).toEqual(['Secret gig']);
      expect(await titles({ startsAfter: '2026-03-15 21:00:00' })).toEqual(['Rock show']);
    });

    it('the committed operation (schema/operations/calendar.graphql) reads a whole event page', async () => {
      const r = await gqlDoc(t.url, CalendarEventsDocument, { where: { featured: true }, first: 5 });
      expect(r.body.errors).toBeUndefined();
      const [e] = r.body.data!.events.nodes;
      expect(e).toMatchObject({ title: 'Jazz night', venue: { name: 'Jazzhuset' }, organizers: [{ name: 'Ann Organizer' }], tags: [{ name: 'Outdoor', count: 1 }] });
      expect(r.body.data!.events.totalCount).toBe(1);
    });

    it('rejects unknown terms and a status anonymous callers may not ask, as BAD_USER_INPUT', async () => {
      const unknown = await fails(LIST, { where: { categories: ['no-such-category'] } });
      expect(unknown.error.extensions).toMatchObject({ code: 'BAD_USER_INPUT', domainCode: 'rest_invalid_param' });
      const status = await fails(LIST, { where: { status: ['DRAFT'] } });
      expect(status.error.extensions?.code).toBe('BAD_USER_INPUT');
    });

    it('pages with opaque cursors (first default 10, at most 50); a bad cursor is BAD_USER_INPUT', async () => {
      const p1 = (await ok(LIST, { first: 2 })).events;
      expect(p1.nodes.map((n: { title: string }) => n.title)).toEqual(['Jazz night', 'Secret gig']);
      expect(p1.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: false });
      expect(p1.totalCount).toBe(3);
      const p2 = (await ok(LIST, { first: 2, after: p1.pageInfo.endCursor })).events;
      expect(p2.nodes.map((n: { title: string }) => n.title)).toEqual(['Rock show']);
      expect(p2.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: true });
      // A cursor in the middle of a page (not aligned with `first`).
      const edges = (await ok(`{ events(first: 3) { edges { cursor node { title } } } }`)).events.edges;
      const mid = (await ok(LIST, { first: 2, after: edges[0].cursor })).events;
      expect(mid.nodes.map((n: { title: string }) => n.title)).toEqual(['Secret gig', 'Rock show']);
      const past = (await ok(LIST, { first: 2, after: edges[2].cursor })).events;
      expect(past.nodes).toEqual([]);
      expect(past.totalCount).toBe(3);

      const bad = await fails(LIST, { after: 'not-a-cursor' });
      expect(bad.error.extensions).toMatchObject({ code: 'BAD_USER_INPUT', domainCode: 'INVALID_CURSOR' });
      const tooMany = await fails(LIST, { first: 51 });
      expect(tooMany.error.extensions?.code).toBe('BAD_USER_INPUT');
    });

    it('access: a contributor sees her own draft, an editor every status, a subscriber published only', async () => {
      expect(await titles({}, 'carol')).toEqual(['Jazz night', 'Carol draft', 'Secret gig', 'Rock show']);
      expect(await titles({ status: ['DRAFT'] }, 'alice')).toEqual(['Carol draft']);
      expect(await titles({}, 'dave')).toEqual(['Jazz night', 'Secret gig', 'Rock show']);
      expect(await titles({}, 'bob')).toEqual(['Jazz night', 'Secret gig', 'Rock show']);
      // An editor may edit the protected event: not masked for her.
      const nodes = (await ok(`{ events { nodes { title masked description } } }`, {}, 'alice')).events.nodes;
      expect(nodes.find((n: { title: string }) => n.title === 'Secret gig')).toMatchObject({ masked: false });
    });
  });

  describe('single reads', () => {
    const ONE = `query($id: ID, $slug: String, $password: String) { event(id: $id, slug: $slug, password: $password) { title description masked categories { name } } }`;

    it('by global id, database id and slug; node(id:) gives the same event', async () => {
      expect((await ok(ONE, { id: ids.rock })).event.title).toBe('Rock show');
      expect((await ok(ONE, { id: String(dbIds.rock) })).event.title).toBe('Rock show');
      expect((await ok(ONE, { slug: 'rock-show' })).event.title).toBe('Rock show');
      const node = await ok(`query($id: ID!) { node(id: $id) { id ... on Event { title } } }`, { id: ids.jazz });
      expect(node.node).toEqual({ id: ids.jazz, title: 'Jazz night' });
    });

    it('a protected event needs its password (403 event-password-protected), then is whole', async () => {
      const denied = await fails(ONE, { id: ids.secret });
      expect(denied.data?.event).toBeNull();
      expect(denied.error.extensions).toMatchObject({ code: 'FORBIDDEN', domainCode: 'event-password-protected' });
      const open = (await ok(ONE, { id: ids.secret, password: 'letmein' })).event;
      expect(open).toMatchObject({ masked: false, categories: [{ name: 'Music' }] });
      expect(open.description).toContain('Only for friends.');
    });

    it("a draft is not accessible to others (403), is to its author; unknown id is 404; another type's id is BAD_USER_INPUT", async () => {
      const other = await fails(ONE, { id: ids.carolDraft });
      expect(other.error.extensions).toMatchObject({ code: 'FORBIDDEN', domainCode: 'event-not-accessible' });
      expect((await ok(ONE, { id: ids.carolDraft }, 'carol')).event.title).toBe('Carol draft');
      const missing = await fails(ONE, { id: '999999' });
      expect(missing.error.extensions).toMatchObject({ code: 'NOT_FOUND', domainCode: 'rest-event-not-found' });
      const wrongType = await fails(ONE, { id: ids.venue });
      expect(wrongType.error.extensions?.code).toBe('BAD_USER_INPUT');
      const both = await fails(ONE, { id: ids.rock, slug: 'rock-show' });
      expect(both.error.extensions).toMatchObject({ code: 'BAD_USER_INPUT', domainCode: 'rest_invalid_param' });
      const neither = await fails(`{ venue { name } }`);
      expect(neither.error.extensions).toMatchObject({ code: 'BAD_USER_INPUT', domainCode: 'rest_invalid_param' });
    });
  });

  describe('languages', () => {
    it('translations are read in the asked language, with fallback to the original; nested values follow', async () => {
      await ok(
        `mutation($id: ID!) { translateEvent(id: $id, language: DA, input: { title: "Jazzaften", slug: "jazzaften" }) { title } }`,
        { id: ids.jazz },
        'alice',
      );
      await ok(`mutation($id: ID!) { translateVenue(id: $id, language: DA, input: { title: "Jazzhuset (da)" }) { name } }`, { id: ids.venue }, 'alice');
      await ok(`mutation($id: ID!) { translateEventCategory(id: $id, language: DA, input: { title: "Jazz (da)" }) { name } }`, { id: ids.jazzCategory }, 'alice');
      const da = (await ok(`{ events(language: DA) { nodes { title venue { name events { nodes { title } } } categories { name } } } }`)).events.nodes;
      // Values reached from a value read in Danish are read in Danish too.
      expect(da[0]).toEqual({ title: 'Jazzaften', venue: { name: 'Jazzhuset (da)', events: { nodes: [{ title: 'Jazzaften' }] } }, categories: [{ name: 'Jazz (da)' }] });
      expect(da.map((n: { title: string }) => n.title)).toEqual(['Jazzaften', 'Secret gig', 'Rock show']);
      // Untranslated: the original.
      const en = (await ok(`{ events { nodes { title venue { name } } } }`)).events.nodes;
      expect(en[0]).toEqual({ title: 'Jazz night', venue: { name: 'Jazzhuset' } });
      // The language's slug finds the event.
      expect((await ok(`{ event(slug: "jazzaften", language: DA) { title } }`)).event.title).toBe('Jazzaften');
    });
  });

  describe('venues, organizers and terms', () => {
    it('lists and single reads with their events', async () => {
      const v = await ok(`query($id: ID!) { venue(id: $id) { name address country showMap events { nodes { title } } } venues { totalCount nodes { name } } }`, {
        id: ids.venue,
      });
      expect(v.venue).toMatchObject({ name: 'Jazzhuset', address: 'Vestergade 1', country: 'Denmark', showMap: true, events: { nodes: [{ title: 'Jazz night' }] } });
      expect(v.venues.nodes.map((n: { name: string }) => n.name)).toContain('Jazzhuset');
      const o = await ok(`query($id: ID!) { organizer(id: $id) { name phone events { totalCount } } }`, { id: ids.organizer });
      expect(o.organizer).toEqual({ name: 'Ann Organizer', phone: '+45 1234', events: { totalCount: 1 } });
      const cats = (await ok(`{ eventCategories { nodes { name count children { name } parent { name } } } }`)).eventCategories.nodes;
      expect(cats).toEqual([
        { name: 'Jazz', count: 1, children: [], parent: { name: 'Music' } },
        { name: 'Music', count: 1, children: [{ name: 'Jazz' }], parent: null },
      ]);
      const tags = (await ok(`{ eventTags { totalCount nodes { name slug count } } }`)).eventTags;
      expect(tags).toEqual({ totalCount: 1, nodes: [{ name: 'Outdoor', slug: 'outdoor', count: 1 }] });
    });

    it('venue and organizer writes: update, trash (second delete 410), restore', async () => {
      const created = (await ok(`mutation { createVenue(input: { name: "Spot", city: "Aarhus" }) { id status } }`, {}, 'bob')).createVenue;
      expect(created.status).toBe('PUBLISH');
      const updated = (await ok(`mutation($id: ID!) { updateVenue(id: $id, input: { city: "Odense", lat: 55.4, lng: 10.38 }) { city geo { lat lng } } }`, { id: created.id }, 'bob'))
        .updateVenue;
      expect(updated).toEqual({ city: 'Odense', geo: { lat: 55.4, lng: 10.38 } });
      expect((await ok(`mutation($id: ID!) { deleteVenue(id: $id) { status } }`, { id: created.id }, 'bob')).deleteVenue.status).toBe('TRASH');
      const gone = await fails(`mutation($id: ID!) { deleteVenue(id: $id) { status } }`, { id: created.id }, 'bob');
      expect(gone.error.extensions).toMatchObject({ code: 'GONE', domainCode: 'venue-is-in-trash' });
      expect((await ok(`mutation($id: ID!) { restoreVenue(id: $id) { status } }`, { id: created.id }, 'bob')).restoreVenue.status).toBe('PUBLISH');

      const org = (await ok(`mutation($id: ID!) { updateOrganizer(id: $id, input: { website: "https://ann.example" }) { website } }`, { id: ids.organizer }, 'alice'))
        .updateOrganizer;
      expect(org.website).toBe('https://ann.example');
    });

    it('term writes: update, delete; only term managers', async () => {
      const tag = (await ok(`mutation { createEventTag(input: { name: "Family" }) { id name slug } }`, {}, 'alice')).createEventTag;
      expect(tag).toMatchObject({ name: 'Family', slug: 'family' });
      const renamed = (await ok(`mutation($id: ID!) { updateEventTag(id: $id, input: { name: "Family fun" }) { name } }`, { id: tag.id }, 'alice')).updateEventTag;
      expect(renamed.name).toBe('Family fun');
      const denied = await fails(`mutation($id: ID!) { deleteEventTag(id: $id) { name } }`, { id: tag.id }, 'dave');
      expect(denied.error.extensions).toMatchObject({ code: 'FORBIDDEN', domainCode: 'rest_forbidden' });
      expect((await ok(`mutation($id: ID!) { deleteEventTag(id: $id) { name } }`, { id: tag.id }, 'alice')).deleteEventTag.name).toBe('Family fun');
      expect((await ok(`query($id: ID!) { node(id: $id) { id } }`, { id: tag.id })).node).toBeNull();
    });
  });

  describe('event writes', () => {
    it('anonymous is 401, a subscriber 403; input validation comes first', async () => {
      const input = { title: 'Nope', startDate: '2026-04-01 10:00:00', endDate: '2026-04-01 11:00:00' };
      const anon = await fails(CREATE_EVENT, { input });
      expect(anon.error.extensions).toMatchObject({ code: 'UNAUTHENTICATED', domainCode: 'rest_forbidden' });
      const dave = await fails(CREATE_EVENT, { input }, 'dave');
      expect(dave.error.extensions).toMatchObject({ code: 'FORBIDDEN', domainCode: 'rest_forbidden' });
      const missing = await fails(CREATE_EVENT, { input: { title: 'No dates' } }, 'alice');
      expect(missing.error.extensions?.code).toBe('BAD_USER_INPUT');
      const bad = await fails(CREATE_EVENT, { input: { ...input, website: 'not a url' } });
      expect(bad.error.extensions?.code).toBe('BAD_USER_INPUT');
    });

    it('update, trash (second delete 410 event-is-in-trash), restore', async () => {
      const e = (await ok(CREATE_EVENT, { input: { title: 'Temp', startDate: '2026-04-02 10:00:00', endDate: '2026-04-02 11:00:00' } }, 'bob')).createEvent;
      expect(e.status).toBe('PUBLISH');
      const upd = (
        await ok(`mutation($id: ID!) { updateEvent(id: $id, input: { title: "Temp 2", cost: "25", tags: ["outdoor"] }) { title cost tags { name } } }`, { id: e.id }, 'bob')
      ).updateEvent;
      expect(upd).toEqual({ title: 'Temp 2', cost: '25', tags: [{ name: 'Outdoor' }] });
      const other = await fails(`mutation($id: ID!) { updateEvent(id: $id, input: { title: "x" }) { title } }`, { id: ids.jazz }, 'carol');
      expect(other.error.extensions).toMatchObject({ code: 'FORBIDDEN', domainCode: 'rest_forbidden' });
      expect((await ok(`mutation($id: ID!) { deleteEvent(id: $id) { status } }`, { id: e.id }, 'bob')).deleteEvent.status).toBe('TRASH');
      const gone = await fails(`mutation($id: ID!) { deleteEvent(id: $id) { status } }`, { id: e.id }, 'bob');
      expect(gone.error.extensions).toMatchObject({ code: 'GONE', domainCode: 'event-is-in-trash' });
      expect(await titles({ search: 'Temp' }, 'alice')).toEqual([]);
      expect((await ok(`mutation($id: ID!) { restoreEvent(id: $id) { status title } }`, { id: e.id }, 'bob')).restoreEvent).toEqual({ status: 'PUBLISH', title: 'Temp 2' });
      expect(await titles({ search: 'Temp' })).toEqual(['Temp 2']);
    });
  });

  describe('statements', () => {
    it('a categories filter of slugs is folded into the page statement; ids, unknown slugs and empty pages take the general way', async () => {
      const run = (where: Record<string, unknown>) =>
        sql.record(() => gql(t.url, `query($where: EventsWhere) { events(where: $where, first: 5) { totalCount nodes { title } } }`, { where }));
      const bySlug = await run({ categories: ['music'] });
      const byId = await run({ categories: [String(dbIds.music)] });
      expect(bySlug.result.body.data.events.totalCount).toBeGreaterThan(0);
      // The slug form: the page statement carries the subtree; no separate category lookup.
      const lookups = (st: typeof bySlug.statements) =>
        st.filter((x) => /^WITH RECURSIVE down\(id\) AS \(SELECT id FROM calendar_terms/.test(x.sql) && !x.sql.includes('hits AS MATERIALIZED')).length;
      expect(bySlug.statements.filter((x) => x.sql.includes('hits AS MATERIALIZED') && x.sql.includes('RECURSIVE down')).length).toBe(1);
      expect(lookups(bySlug.statements)).toBe(0);
      expect(bySlug.statements.length).toBeLessThan(byId.statements.length);
      // Same answers as the general way: the slug and its children, by slug or by id of the same category.
      expect(bySlug.result.body.data).toEqual(byId.result.body.data);
      // An unknown slug is still a 400-style error, a window with no events still an empty page.
      const unknown = await run({ categories: ['music', 'no-such-category'] });
      expect(unknown.result.body.errors?.[0].extensions?.code).toBe('BAD_USER_INPUT');
      const empty = await run({ categories: ['music'], startDate: '2031-01-01', endDate: '2031-01-02' });
      expect(empty.result.body.data.events).toEqual({ totalCount: 0, nodes: [] });
    });

    it('a page of events with every relation costs the same statements for 2 and 8 events, none twice', async () => {
      for (let i = 1; i <= 8; i += 1) {
        const day = String(i).padStart(2, '0');
        const v = (await ok(`mutation($input: VenueInput!) { createVenue(input: $input) { databaseId } }`, { input: { name: `Hall ${i}`, city: 'Aalborg' } }, 'alice')).createVenue;
        await ok(
          CREATE_EVENT,
          {
            input: {
              title: `Bulk ${i}`,
              startDate: `2026-05-${day} 10:00:00`,
              endDate: `2026-05-${day} 12:00:00`,
              venues: [v.databaseId],
              organizers: [dbIds.organizer],
              categories: [String(dbIds.jazzCategory)],
              tags: ['outdoor', `tag-${i}`],
            },
          },
          'alice',
        );
      }
      const page = (first: number) =>
        sql.record(() =>
          gql(
            t.url,
            `query($first: Int) { events(where: { search: "Bulk" }, first: $first) { totalCount nodes {
              title venue { name } organizers { name } categories { name count parent { name } } tags { name count } author { login }
            } } }`,
            { first },
          ),
        );
      const two = await page(2);
      const eight = await page(8);
      expect(two.result.body.errors).toBeUndefined();
      expect(eight.result.body.data.events.nodes).toHaveLength(8);
      expect(eight.result.body.data.events.nodes[7]).toMatchObject({ title: 'Bulk 8', venue: { name: 'Hall 8' }, tags: [{ name: 'Outdoor' }, { name: 'tag-8' }] });
      expect(eight.statements.length).toBe(two.statements.length);
      expect(repeatedStatements(eight.statements)).toEqual([]);
      // The page's links (venues, organizers, terms) come with the page statement: no statement of their own.
      const links = (st: typeof eight.statements) => st.filter((x) => x.sql.includes('FROM calendar_event_venues l JOIN calendar_venues x'));
      expect(links(eight.statements).map((x) => x.sql.includes('hits AS MATERIALIZED'))).toEqual([true]);
      // A page that shows no relation reads no links.
      const titlesOnly = await sql.record(() => gql(t.url, `query { events(where: { search: "Bulk" }, first: 8) { nodes { title } } }`));
      expect(titlesOnly.result.body.data.events.nodes).toHaveLength(8);
      expect(links(titlesOnly.statements)).toEqual([]);
      if (eight.statements.length > 12) throw new Error(`too many statements:\n${describeStatements(eight.statements)}`);
    });

    it('the pages of one filter run one kept statement text, only re-bound (the list is a ListQuery), and every event is on one page', async () => {
      const texts = new Set<string>();
      const before = cachedStatementCount();
      const kept: number[] = [];
      const seen: string[] = [];
      let after: string | null = null;
      for (let page = 0; page < 5; page++) {
        const r = await sql.record(() =>
          gql(t.url, `query($after: String) { events(where: { search: "Bulk", featured: false }, first: 3, after: $after) { pageInfo { hasNextPage endCursor } nodes { title } } }`, { after }),
        );
        kept.push(cachedStatementCount());
        const statements = r.statements.filter((x) => x.sql.includes('hits AS MATERIALIZED'));
        expect(statements).toHaveLength(1);
        texts.add(statements[0].sql);
        const events = r.result.body.data.events;
        seen.push(...events.nodes.map((n: { title: string }) => n.title));
        if (!events.pageInfo.hasNextPage) break;
        after = events.pageInfo.endCursor;
      }
      expect(seen).toEqual(['Bulk 1', 'Bulk 2', 'Bulk 3', 'Bulk 4', 'Bulk 5', 'Bulk 6', 'Bulk 7', 'Bulk 8']);
      expect(texts.size).toBe(1);
      // The first page compiled this filter's statement (a new shape); later pages add none.
      expect(kept[0]).toBeGreaterThan(before);
      expect(new Set(kept).size).toBe(1);
    });
  });
});
