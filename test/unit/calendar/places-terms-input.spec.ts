/**
 * Calendar venues, organizers and terms against hostile input, on SQLite and on PostgreSQL
 * (DATABASE_URL=postgres://… npx jest this file): ids outside int4 and strings with U+0000 or longer than their
 * column never reach SQL — they are answered as WordPress answers an unknown id / a bad field (400
 * rest_invalid_param naming the field), never a database error. Also: the status filter, search of protected
 * posts, the `event`/`post` filters, validation before permission and restore's status scale-back.
 */
import type { CalendarPostStatus } from '../../../entities/calendar';
import type { AccountEntity } from '../../../entities/identity';
import { recountTerms } from '../../../src/services/calendar/term-counts';
import { CalendarEventEntity, CalendarEventTermEntity, CalendarEventVenueEntity, CalendarVenueEntity } from '../../../entities/calendar';
import type { Viewer } from '../../../src/auth/viewer';
import { loadConfig } from '../../../src/config';
import { RequestContext, withTransaction } from '../../../src/context';
import { AppError } from '../../../src/errors/app-error';
import { allocatePostId } from '../../../src/services/calendar/posts';
import { IdentityFixtures } from '../../fixtures/identity';
import { testContexts, TestContexts } from '../../helpers/context';
import { openTestDatabase, TestDatabase } from '../../helpers/db';

async function failure(p: Promise<unknown>): Promise<AppError> {
  try {
    await p;
  } catch (e) {
    if (e instanceof AppError) return e;
    throw e;
  }
  throw new Error('expected an error');
}

/** What a client sees of a refusal: the kind (400 BAD_USER_INPUT, 401, 403), family code, the fields named. */
const answer = (e: AppError) => ({ code: e.code, domainCode: e.domainCode, fields: e.fieldErrors?.map((x) => x.field) });
const invalid = (...fields: string[]) => ({ code: 'BAD_USER_INPUT', domainCode: 'rest_invalid_param', fields });

const BIG = 3_000_000_000;
const NUL = 'a\u0000b';

describe('calendar places and terms: input, search, filters and restore', () => {
  let db: TestDatabase;
  let f: IdentityFixtures;
  let contexts: TestContexts;
  const users: Record<string, AccountEntity> = {};
  const as = (login?: string): RequestContext => {
    if (!login) return contexts.forViewer({ kind: 'anonymous' });
    const viewer: Viewer = { kind: 'user', user: users[login], credential: { type: 'internal' } };
    return contexts.forViewer(viewer);
  };
  const venues = () => f.services.calendarVenues;
  const organizers = () => f.services.calendarOrganizers;
  const terms = () => f.services.calendarTerms;
  let venueId: number;
  let categoryId: number;
  let publicEvent: number;

  async function event(status: CalendarPostStatus, authorId: number | null, venueIds: number[], termIds: number[] = []): Promise<number> {
    return withTransaction(as('alice'), async (tx) => {
      const id = await allocatePostId(tx.db, 'event');
      await tx.db.getRepository(CalendarEventEntity).insert({
        id,
        authorId,
        status,
        title: `Event ${id}`,
        slug: `event-${id}`,
        dateLocal: '2025-01-01 00:00:00',
        dateUtc: new Date('2025-01-01T00:00:00Z'),
        modifiedAt: new Date('2025-01-01T00:00:00Z'),
        startLocal: '2025-07-01 10:00:00',
        endLocal: '2025-07-01 12:00:00',
        startUtc: new Date('2025-07-01T08:00:00Z'),
        endUtc: new Date('2025-07-01T10:00:00Z'),
      });
      for (const [i, venueId] of venueIds.entries()) await tx.db.getRepository(CalendarEventVenueEntity).insert({ eventId: id, venueId, position: i });
      for (const termId of termIds) await tx.db.getRepository(CalendarEventTermEntity).insert({ eventId: id, termId });
      // A raw insert bypasses the event service, which keeps term counts: count as it would.
      await recountTerms(tx.db, termIds);
      return id;
    });
  }

  beforeAll(async () => {
    db = await openTestDatabase();
    f = new IdentityFixtures(db.dataSource);
    const config = loadConfig({ PUBLIC_URL: 'https://cal.example', CALENDAR_TIMEZONE: 'Europe/Copenhagen' });
    config.now = () => new Date('2025-06-01T12:00:00Z');
    contexts = testContexts(db.dataSource, f.services, config);
    users.alice = await f.user('h-alice', { calendarRole: 'editor' });
    users.bob = await f.user('h-bob', { calendarRole: 'author' });
    users.carol = await f.user('h-carol', { calendarRole: 'contributor' });
    users.dave = await f.user('h-dave', { calendarRole: 'subscriber' });
    venueId = (await venues().create(as('alice'), { name: 'Big Hall', address: 'Main St 1' })).id;
    categoryId = (await terms().create(as('alice'), 'category', { name: 'Music' })).term.id;
    publicEvent = await event('publish', users.alice.id, [venueId], [categoryId]);
  });
  afterAll(() => db?.drop());

  describe('ids outside 1..2^31-1 are unknown ids (400 on the field), never a database error', () => {
    it('venues and organizers: path ids, the event filter, author, a linked id in an event write', async () => {
      expect(answer(await failure(venues().get(as(), BIG)))).toEqual(invalid('id'));
      expect(answer(await failure(organizers().get(as(), BIG)))).toEqual(invalid('id'));
      expect(answer(await failure(venues().update(as('alice'), BIG, { name: 'x' })))).toEqual(invalid('id'));
      expect(answer(await failure(venues().delete(as('alice'), BIG)))).toEqual(invalid('id'));
      expect(answer(await failure(venues().list(as(), { page: 1, perPage: 10, event: BIG })))).toEqual(invalid('event'));
      expect(answer(await failure(organizers().list(as(), { page: 1, perPage: 10, event: BIG })))).toEqual(invalid('event'));
      expect(answer(await failure(venues().create(as('alice'), { name: 'X', authorId: BIG })))).toEqual(invalid('authorId'));
      const linked = await failure(withTransaction(as('alice'), (tx) => venues().findOrCreateForEvent(tx, tx, String(BIG))));
      expect(linked.domainCode).toBe('invalid-linked-post-id');
      // The ids in range still work.
      expect((await venues().get(as(), venueId)).title).toBe('Big Hall');
    });

    it('terms: id, include (number or numeric string), exclude, parent, post, the event filter values', async () => {
      expect(answer(await failure(terms().get(as(), 'category', BIG)))).toEqual(invalid('id'));
      expect(answer(await failure(terms().update(as('alice'), 'category', BIG, { name: 'x' })))).toEqual(invalid('id'));
      expect(answer(await failure(terms().delete(as('alice'), 'category', BIG)))).toEqual(invalid('id'));
      const list = (over: Record<string, unknown>) => terms().list(as(), 'category', { page: 1, perPage: 10, hideEmpty: false, ...over });
      expect(answer(await failure(list({ include: [BIG] })))).toEqual(invalid('include'));
      expect(answer(await failure(list({ include: [String(BIG)] })))).toEqual(invalid('include'));
      expect(answer(await failure(list({ include: ['99999999999999999'] })))).toEqual(invalid('include'));
      expect(answer(await failure(list({ exclude: [BIG] })))).toEqual(invalid('exclude'));
      expect(answer(await failure(list({ parent: BIG })))).toEqual(invalid('parent'));
      expect(answer(await failure(list({ post: BIG })))).toEqual(invalid('post'));
      expect(answer(await failure(terms().create(as('alice'), 'category', { name: 'Child', parent: BIG })))).toEqual(invalid('parent'));
      expect(answer(await failure(terms().findByIdOrSlug(as(), 'category', [String(BIG)])))).toEqual(invalid('categories'));
      expect((await list({ exclude: [categoryId] })).items.map((v) => v.term.id)).not.toContain(categoryId);
      expect(await terms().findByIdOrSlug(as(), 'category', [String(categoryId)])).toEqual([categoryId]);
    });
  });

  describe('strings with U+0000 or longer than their column are refused (400 naming the field)', () => {
    it('venues and organizers: search, slug lookups, every written field', async () => {
      expect(answer(await failure(venues().list(as(), { page: 1, perPage: 10, search: NUL })))).toEqual(invalid('search'));
      expect(answer(await failure(organizers().list(as(), { page: 1, perPage: 10, search: NUL })))).toEqual(invalid('search'));
      expect(answer(await failure(venues().getBySlug(as(), NUL)))).toEqual(invalid('slug'));
      expect(answer(await failure(venues().getBySlug(as(), 'x'.repeat(201))))).toEqual(invalid('slug'));
      expect(await venues().idBySlug(db.dataSource.manager, NUL, 'fr')).toBeNull();
      for (const [field, input] of [
        ['name', { name: NUL }],
        ['description', { name: 'V', description: NUL }],
        ['excerpt', { name: 'V', excerpt: NUL }],
        ['slug', { name: 'V', slug: NUL }],
        ['address', { name: 'V', address: NUL }],
        ['address', { name: 'V', address: 'x'.repeat(256) }],
        ['zip', { name: 'V', zip: 'x'.repeat(65) }],
        ['website', { name: 'V', website: `https://a.example/${'x'.repeat(2048)}` }],
        ['image', { name: 'V', image: `https://a.example/${NUL}` }],
      ] as const) {
        expect([field, answer(await failure(venues().create(as('alice'), input)))]).toEqual([field, invalid(field)]);
      }
      expect(answer(await failure(organizers().create(as('alice'), { name: 'O', phone: NUL })))).toEqual(invalid('phone'));
      expect(answer(await failure(organizers().create(as('alice'), { name: 'O', email: 'x'.repeat(250) + '@a.example' })))).toEqual(invalid('email'));
      expect(answer(await failure(venues().update(as('alice'), venueId, { city: NUL })))).toEqual(invalid('city'));
    });

    it('a nested venue object in an event write is checked before the duplicate lookup', async () => {
      const e = await failure(withTransaction(as('alice'), (tx) => venues().findOrCreateForEvent(tx, tx, { name: 'Big Hall', address: NUL })));
      expect(answer(e)).toEqual(invalid('address'));
      const name = await failure(withTransaction(as('alice'), (tx) => venues().findOrCreateForEvent(tx, tx, { name: NUL })));
      expect(answer(name)).toEqual(invalid('name'));
    });

    it('terms: search, slug filter, include slugs, event filter values, name/description/slug writes', async () => {
      const list = (over: Record<string, unknown>) => terms().list(as(), 'tag', { page: 1, perPage: 10, hideEmpty: false, ...over });
      expect(answer(await failure(list({ search: NUL })))).toEqual(invalid('search'));
      expect(answer(await failure(list({ slug: ['ok', NUL] })))).toEqual(invalid('slug'));
      expect(answer(await failure(list({ slug: ['x'.repeat(201)] })))).toEqual(invalid('slug'));
      expect(answer(await failure(list({ include: [NUL] })))).toEqual(invalid('include'));
      expect(answer(await failure(terms().findByIdOrSlug(as(), 'tag', [NUL])))).toEqual(invalid('tags'));
      expect(answer(await failure(terms().findByIdOrSlug(as('alice'), 'tag', ['x'.repeat(300)])))).toEqual(invalid('tags'));
      const fr = Object.assign(as(), { language: 'fr' as const });
      expect(answer(await failure(terms().findByIdOrSlug(fr, 'category', [NUL])))).toEqual(invalid('categories'));
      expect(answer(await failure(terms().create(as('alice'), 'tag', { name: NUL })))).toEqual(invalid('name'));
      expect(answer(await failure(terms().create(as('alice'), 'tag', { name: 'T', description: NUL })))).toEqual(invalid('description'));
      expect(answer(await failure(terms().create(as('alice'), 'tag', { name: 'T', slug: NUL })))).toEqual(invalid('slug'));
      expect(answer(await failure(terms().create(as('alice'), 'tag', { name: 'T', slug: 'x'.repeat(201) })))).toEqual(invalid('slug'));
      expect(answer(await failure(terms().update(as('alice'), 'category', categoryId, { description: NUL })))).toEqual(invalid('description'));
      // Nothing was written by the refused calls.
      expect((await list({})).items.map((v) => v.term.name)).toEqual([]);
    });
  });

  describe('restore (F7): one trash/restore status rule for every kind', () => {
    it('a contributor may neither edit nor restore what an editor had published and trashed (issue 20.6); an editor gets it back published', async () => {
      for (const svc of [venues(), organizers()] as const) {
        const id = (await svc.create(as('carol'), { name: `Carol's place ${svc === venues() ? 'v' : 'o'}` })).id;
        expect((await svc.update(as('alice'), id, { status: 'publish' })).status).toBe('publish');
        expect((await svc.delete(as('alice'), id)).status).toBe('trash');
        // Trashed, the post is judged by the status it had (published): carol lacks edit/delete_published_posts.
        expect(answer(await failure(svc.update(as('carol'), id, { description: 'Carol unreviewed text' }))).code).toBe('FORBIDDEN');
        expect(answer(await failure(svc.restore(as('carol'), id))).code).toBe('FORBIDDEN');
        expect((await svc.restore(as('alice'), id)).status).toBe('publish');
        expect((await svc.get(as(), id)).description).not.toBe('Carol unreviewed text');
      }
      // A contributor's own trashed draft comes back as a draft.
      const draft = (await venues().create(as('carol'), { name: 'Carol draft hall' })).id;
      await venues().delete(as('carol'), draft);
      expect((await venues().restore(as('carol'), draft)).status).toBe('draft');
      const mine = (await venues().create(as('alice'), { name: 'Editor hall' })).id;
      await venues().delete(as('alice'), mine);
      expect((await venues().restore(as('alice'), mine)).status).toBe('publish');
    });
  });

  describe('search of password-protected venues/organizers (F8)', () => {
    it('matches them only for viewers who may edit them (who see them unmasked); lists without search keep them', async () => {
      const protect = async (id: number) => db.dataSource.getRepository(CalendarVenueEntity).update({ id }, { password: 's3cret' });
      const lounge = (await venues().create(as('alice'), { name: 'Members lounge', description: 'door code 4711' })).id;
      const bobs = (await venues().create(as('bob'), { name: 'Bob cellar', description: 'door code 4711' })).id;
      const open = (await venues().create(as('alice'), { name: 'Open yard', description: 'door code 4711' })).id;
      await protect(lounge);
      await protect(bobs);
      const found = async (login: string | undefined, search: string) =>
        (await venues().list(as(login), { page: 1, perPage: 50, search })).items.map((v) => v.id).sort((a, b) => a - b);
      expect(await found(undefined, '4711')).toEqual([open]);
      expect(await found(undefined, 'code 47')).toEqual([open]);
      expect(await found(undefined, 'Members')).toEqual([]);
      const excluding = await found(undefined, '-nothing');
      expect(excluding).toEqual(expect.arrayContaining([venueId, open]));
      expect(excluding).not.toContain(lounge);
      expect(await found('dave', '4711')).toEqual([open]);
      expect(await found('carol', '4711')).toEqual([open]);
      // An author edits (so searches) his own protected venue, not the editor's.
      expect(await found('bob', '4711')).toEqual([bobs, open]);
      expect(await found('alice', '4711')).toEqual([lounge, bobs, open]);
      // Without a search the protected venues are listed (masked by the presenter).
      const all = (await venues().list(as(), { page: 1, perPage: 50 })).items.map((v) => v.id);
      expect(all).toEqual(expect.arrayContaining([lounge, bobs, open]));
    });
  });

  describe('the event filter (F9): one rule for an event the viewer may not see', () => {
    it('venues/organizers ?event=<draft> and terms ?post=<draft> answer as for an id that is not an event', async () => {
      const bobsVenue = (await venues().create(as('bob'), { name: 'Bob studio' })).id;
      const draftEvent = await event('draft', users.bob.id, [bobsVenue], [categoryId]);
      for (const who of [undefined, 'dave', 'carol'] as const) {
        expect(answer(await failure(venues().list(as(who), { page: 1, perPage: 10, event: draftEvent })))).toEqual(invalid('event'));
        expect(answer(await failure(organizers().list(as(who), { page: 1, perPage: 10, event: draftEvent })))).toEqual(invalid('event'));
        expect(answer(await failure(terms().list(as(who), 'category', { page: 1, perPage: 10, post: draftEvent })))).toEqual(invalid('post'));
        // Exactly the answer for a venue id (not an event).
        expect(answer(await failure(venues().list(as(who), { page: 1, perPage: 10, event: bobsVenue })))).toEqual(invalid('event'));
      }
      // Those who may see the event get its links.
      for (const who of ['bob', 'alice']) {
        expect((await venues().list(as(who), { page: 1, perPage: 10, event: draftEvent })).items.map((v) => v.id)).toEqual([bobsVenue]);
      }
      expect((await venues().list(as(), { page: 1, perPage: 10, event: publicEvent })).items.map((v) => v.id)).toEqual([venueId]);
    });

    it('a nested venue object is de-duplicated only against venues the writer may see', async () => {
      const secret = (await venues().create(as('bob'), { name: 'Secret Room', address: 'Back St 9', status: 'draft' })).id;
      const byCarol = await withTransaction(as('carol'), (tx) => venues().findOrCreateForEvent(tx, tx, { name: 'Secret Room', address: 'Back St 9' }));
      expect(byCarol.id).not.toBe(secret);
      expect(byCarol.authorId).toBe(users.carol.id);
      const byBob = await withTransaction(as('bob'), (tx) => venues().findOrCreateForEvent(tx, tx, { name: 'secret room', address: 'back st 9' }));
      expect(byBob.id).toBe(secret);
    });
  });

  describe('validation before permission (WordPress order)', () => {
    it('venue/organizer create and update: a bad field or id is 400 even for anonymous callers and subscribers; then 401/403', async () => {
      for (const who of [undefined, 'dave'] as const) {
        expect(answer(await failure(venues().create(as(who), { name: 'x', website: 'nope' })))).toEqual(invalid('website'));
        expect(answer(await failure(organizers().create(as(who), { name: 'x', email: 'nope' })))).toEqual(invalid('email'));
        expect(answer(await failure(venues().create(as(who), { name: 'x', status: 'bogus' })))).toEqual(invalid('status'));
        expect(answer(await failure(venues().update(as(who), venueId, { website: 'nope' })))).toEqual(invalid('website'));
        expect(answer(await failure(venues().update(as(who), venueId, { geoLat: 91 })))).toEqual(invalid('geoLat'));
        expect(answer(await failure(venues().update(as(who), 987654, { name: 'x' })))).toEqual(invalid('id'));
      }
      expect(answer(await failure(venues().create(as(), { name: 'x' })))).toMatchObject({ code: 'UNAUTHENTICATED', domainCode: 'rest_forbidden' });
      expect(answer(await failure(venues().create(as('dave'), { name: 'x' })))).toMatchObject({ code: 'FORBIDDEN', domainCode: 'rest_forbidden' });
      expect(answer(await failure(venues().update(as(), venueId, { website: 'https://ok.example' })))).toMatchObject({ code: 'UNAUTHENTICATED' });
    });

    it('term update/delete: an unknown id or a bad field is 400 for anonymous callers; then 401/403', async () => {
      for (const who of [undefined, 'dave'] as const) {
        expect(answer(await failure(terms().delete(as(who), 'category', 987654)))).toEqual(invalid('id'));
        expect(answer(await failure(terms().update(as(who), 'category', 987654, { name: 'x' })))).toEqual(invalid('id'));
        expect(answer(await failure(terms().update(as(who), 'category', categoryId, { slug: NUL })))).toEqual(invalid('slug'));
        expect(answer(await failure(terms().update(as(who), 'category', categoryId, { parent: BIG })))).toEqual(invalid('parent'));
      }
      expect(answer(await failure(terms().delete(as(), 'category', categoryId)))).toMatchObject({ code: 'UNAUTHENTICATED', domainCode: 'rest_forbidden' });
      expect(answer(await failure(terms().update(as('dave'), 'category', categoryId, { name: 'y' })))).toMatchObject({ code: 'FORBIDDEN', domainCode: 'rest_forbidden' });
      expect((await terms().get(as(), 'category', categoryId)).term.name).toBe('Music');
    });
  });

  describe('status filter of venue/organizer lists: the events rule', () => {
    it('anonymous callers and subscribers may ask only publish; contributors and up any registered status but not any', async () => {
      const list = (who: string | undefined, status: string[]) => venues().list(as(who), { page: 1, perPage: 50, status });
      for (const who of [undefined, 'dave'] as const) {
        expect(answer(await failure(list(who, ['draft'])))).toEqual(invalid('status'));
        expect(answer(await failure(organizers().list(as(who), { page: 1, perPage: 50, status: ['pending'] })))).toEqual(invalid('status'));
        expect((await list(who, ['publish'])).items.every((v) => v.status === 'publish')).toBe(true);
      }
      expect(answer(await failure(list('alice', ['any'])))).toEqual(invalid('status'));
      const carolDraft = (await venues().create(as('carol'), { name: 'Carol draft hall' })).id;
      const carols = (await list('carol', ['draft'])).items;
      expect(carols.map((v) => v.id)).toContain(carolDraft);
      expect(carols.every((v) => v.status === 'draft' && v.authorId === users.carol.id)).toBe(true);
      expect((await list('alice', ['draft', 'pending'])).items.map((v) => v.id)).toContain(carolDraft);
    });
  });

});
