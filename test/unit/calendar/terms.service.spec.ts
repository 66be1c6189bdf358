/**
 * Calendar terms (categories and tags) on a real database: WordPress' term list semantics (hide_empty, include,
 * exclude, search, parent, post, slug, order), translations, writes and who may make them.
 */
import type { CalendarLanguage, CalendarPostStatus } from '../../../entities/calendar';
import { CalendarEventEntity, CalendarEventTermEntity, CalendarTermEntity, CalendarTranslationEntity, CalendarVenueEntity } from '../../../entities/calendar';
import { loadConfig } from '../../../src/config';
import type { RequestContext } from '../../../src/context';
import { AppError, ForbiddenError, UnauthenticatedError, ValidationError } from '../../../src/errors/app-error';
import { allocatePostId } from '../../../src/services/calendar/posts';
import { recountTerms } from '../../../src/services/calendar/term-counts';
import { CalendarTermService, TermExistsError, TermListQuery } from '../../../src/services/calendar/terms.service';
import { cachedStatementCount } from '../../../src/services/common/list-query';
import { IdentityFixtures } from '../../fixtures/identity';
import { testContexts, TestContexts } from '../../helpers/context';
import { openTestDatabase, TestDatabase } from '../../helpers/db';

describe('calendar terms service', () => {
  let db: TestDatabase;
  let f: IdentityFixtures;
  let contexts: TestContexts;
  const tokens: Record<string, string> = {};
  const svc = () => f.services.calendarTerms as CalendarTermService;

  const as = async (who?: 'alice' | 'bob' | 'carol' | 'dave', language?: CalendarLanguage): Promise<RequestContext> => {
    const ctx = await contexts.as(who ? tokens[who] : undefined);
    if (language) ctx.language = language;
    return ctx;
  };
  const anon = () => as();

  async function event(status: CalendarPostStatus, termIds: number[], authorId: number | null = null): Promise<number> {
    return db.dataSource.transaction(async (m) => {
      const id = await allocatePostId(m, 'event');
      const now = new Date('2026-01-01T10:00:00Z');
      await m.getRepository(CalendarEventEntity).insert({
        id,
        authorId,
        status,
        title: `Event ${id}`,
        slug: `event-${id}`,
        dateLocal: '2026-01-01 10:00:00',
        dateUtc: now,
        modifiedAt: now,
        startLocal: '2026-06-01 10:00:00',
        endLocal: '2026-06-01 12:00:00',
        startUtc: new Date('2026-06-01T10:00:00Z'),
        endUtc: new Date('2026-06-01T12:00:00Z'),
      });
      for (const termId of termIds) await m.getRepository(CalendarEventTermEntity).insert({ eventId: id, termId });
      // A raw insert bypasses the event service, which keeps term counts: count as it would.
      await recountTerms(m, termIds);
      return id;
    });
  }

  const q = (over: Partial<TermListQuery> = {}): TermListQuery => ({ page: 1, perPage: 10, hideEmpty: false, ...over });
  const names = async (ctx: RequestContext, taxonomy: 'category' | 'tag', over: Partial<TermListQuery> = {}) =>
    (await svc().list(ctx, taxonomy, q(over))).items.map((v) => v.term.name);

  async function fails(p: Promise<unknown>): Promise<AppError> {
    try {
      await p;
    } catch (e) {
      return e as AppError;
    }
    throw new Error('expected a failure');
  }
  const fieldOf = (e: AppError) => e.fieldErrors?.map((x) => x.field);

  // Fixture tree: Music > Jazz > Bebop, Music > Rock, Sports (empty); tags: outdoor, family, free.
  let music: number, jazz: number, bebop: number, rock: number, sports: number;
  let outdoor: number, family: number, free: number;
  let published: number, draft: number;

  beforeAll(async () => {
    db = await openTestDatabase();
    f = new IdentityFixtures(db.dataSource);
    contexts = testContexts(db.dataSource, f.services, loadConfig({ PUBLIC_URL: 'https://gw.example' }));
    const alice = await f.user('alice', { calendarRole: 'editor' });
    const bob = await f.user('bob', { calendarRole: 'author' });
    const carol = await f.user('carol', { calendarRole: 'contributor' });
    const dave = await f.user('dave', { calendarRole: 'subscriber' });
    for (const [k, u] of Object.entries({ alice, bob, carol, dave })) tokens[k] = await f.classicToken(u, ['repo', 'calendar']);

    const ed = await as('alice');
    music = (await svc().create(ed, 'category', { name: 'Music', description: 'All music' })).term.id;
    jazz = (await svc().create(ed, 'category', { name: 'Jazz', parent: music })).term.id;
    bebop = (await svc().create(ed, 'category', { name: 'Bebop', parent: jazz })).term.id;
    rock = (await svc().create(ed, 'category', { name: 'Rock', parent: music })).term.id;
    sports = (await svc().create(ed, 'category', { name: 'Sports' })).term.id;
    outdoor = (await svc().create(ed, 'tag', { name: 'Outdoor' })).term.id;
    family = (await svc().create(ed, 'tag', { name: 'Family fun' })).term.id;
    free = (await svc().create(ed, 'tag', { name: 'Free entry' })).term.id;
    published = await event('publish', [bebop, rock, outdoor, family]);
    await event('publish', [rock, outdoor]);
    draft = await event('draft', [sports, free], carol.id);
  });

  afterAll(async () => {
    await db?.drop();
  });

  describe('list', () => {
    it('defaults to name ASC, and hide_empty (the default) keeps only terms with a published event', async () => {
      const ctx = await anon();
      expect(await names(ctx, 'category')).toEqual(['Bebop', 'Jazz', 'Music', 'Rock', 'Sports']);
      const dflt = await svc().list(ctx, 'tag', { page: 1, perPage: 10 });
      expect(dflt.items.map((v) => v.term.name)).toEqual(['Family fun', 'Outdoor']);
      expect(dflt.total).toBe(2);
      expect(dflt.items.map((v) => v.count)).toEqual([1, 2]);
    });

    it('hide_empty on categories keeps an empty parent whose descendant has events (WordPress hierarchy)', async () => {
      const ctx = await anon();
      // Jazz and Music have no event of their own; Bebop and Rock do; Sports only has a draft.
      expect(await names(ctx, 'category', { hideEmpty: true })).toEqual(['Bebop', 'Jazz', 'Music', 'Rock']);
      const counts = (await svc().list(ctx, 'category', q({ hideEmpty: true }))).items.map((v) => [v.term.name, v.count]);
      expect(counts).toEqual([['Bebop', 1], ['Jazz', 0], ['Music', 0], ['Rock', 2]]);
    });

    it('pages, with a page past the end empty (not an error) and total unchanged', async () => {
      const ctx = await anon();
      const p1 = await svc().list(ctx, 'category', q({ perPage: 2 }));
      const p3 = await svc().list(ctx, 'category', q({ perPage: 2, page: 3 }));
      const p9 = await svc().list(ctx, 'category', q({ perPage: 2, page: 9 }));
      expect(p1.items.map((v) => v.term.name)).toEqual(['Bebop', 'Jazz']);
      expect(p3.items.map((v) => v.term.name)).toEqual(['Sports']);
      expect(p9).toEqual({ items: [], total: 5 });
      expect(p1.total).toBe(5);
    });

    it('search matches name or slug, case-insensitively, with LIKE wildcards taken literally', async () => {
      const ctx = await anon();
      expect(await names(ctx, 'category', { search: 'ROCK' })).toEqual(['Rock']);
      expect(await names(ctx, 'tag', { search: 'family-f' })).toEqual(['Family fun']);
      expect(await names(ctx, 'tag', { search: 'r' })).toEqual(['Free entry', 'Outdoor']);
      expect(await names(ctx, 'tag', { search: '%' })).toEqual([]);
      expect(await names(ctx, 'tag', { search: '_' })).toEqual([]);
    });

    it('include (ids or slugs) and exclude; include of an unknown term or a term of the other taxonomy is invalid', async () => {
      const ctx = await anon();
      expect(await names(ctx, 'category', { include: [rock, 'jazz'] })).toEqual(['Jazz', 'Rock']);
      expect(await names(ctx, 'category', { include: [rock, 'jazz'], orderby: 'include' })).toEqual(['Rock', 'Jazz']);
      expect(await names(ctx, 'category', { exclude: [music, bebop] })).toEqual(['Jazz', 'Rock', 'Sports']);
      const e1 = await fails(svc().list(ctx, 'category', q({ include: [999999] })));
      expect(e1).toBeInstanceOf(ValidationError);
      expect(e1.domainCode).toBe('rest_invalid_param');
      expect(fieldOf(e1)).toEqual(['include']);
      expect(fieldOf(await fails(svc().list(ctx, 'category', q({ include: [outdoor] }))))).toEqual(['include']);
      expect(fieldOf(await fails(svc().list(ctx, 'tag', q({ include: ['no-such-tag'] }))))).toEqual(['include']);
    });

    it('order and orderby', async () => {
      const ctx = await anon();
      expect(await names(ctx, 'category', { order: 'desc' })).toEqual(['Sports', 'Rock', 'Music', 'Jazz', 'Bebop']);
      expect(await names(ctx, 'category', { orderby: 'id' })).toEqual(['Music', 'Jazz', 'Bebop', 'Rock', 'Sports']);
      expect(await names(ctx, 'category', { orderby: 'id', order: 'desc' })).toEqual(['Sports', 'Rock', 'Bebop', 'Jazz', 'Music']);
      expect(await names(ctx, 'tag', { orderby: 'count', order: 'desc' })).toEqual(['Outdoor', 'Family fun', 'Free entry']);
      expect(await names(ctx, 'category', { orderby: 'description', order: 'desc' })).toEqual(['Music', 'Jazz', 'Bebop', 'Rock', 'Sports']);
      expect(await names(ctx, 'tag', { slug: ['outdoor', 'free-entry'], orderby: 'include_slugs' })).toEqual(['Outdoor', 'Free entry']);
    });

    it('pages of one filter re-bind one statement each for the total and the page (the list is a ListQuery); every term is on one page', async () => {
      const ctx = await anon();
      const seen: string[] = [];
      const shapes: number[] = [];
      const before = cachedStatementCount();
      for (const page of [1, 2, 3]) {
        seen.push(...(await svc().list(ctx, 'category', q({ page, perPage: 2, search: 'o', orderby: 'id', order: 'desc' }))).items.map((v) => v.term.name));
        shapes.push(cachedStatementCount());
      }
      expect(seen).toEqual(['Sports', 'Rock', 'Bebop']);
      expect(shapes[0]).toBeGreaterThan(before);
      expect(new Set(shapes).size).toBe(1);
      // Ordered by include: other ids of the same count bind the same text and keep their own order.
      expect(await names(ctx, 'category', { include: [sports, jazz], orderby: 'include' })).toEqual(['Sports', 'Jazz']);
      const after = cachedStatementCount();
      expect(await names(ctx, 'category', { include: [bebop, music], orderby: 'include' })).toEqual(['Bebop', 'Music']);
      expect(cachedStatementCount()).toBe(after);
    });

    it('parent (direct children; 0 = top level), post (the terms of one event) and slug', async () => {
      const ctx = await anon();
      expect(await names(ctx, 'category', { parent: music })).toEqual(['Jazz', 'Rock']);
      expect(await names(ctx, 'category', { parent: 0 })).toEqual(['Music', 'Sports']);
      expect(await names(ctx, 'category', { post: published })).toEqual(['Bebop', 'Rock']);
      expect(await names(ctx, 'tag', { post: published })).toEqual(['Family fun', 'Outdoor']);
      expect(await names(ctx, 'tag', { slug: ['outdoor', 'nope'] })).toEqual(['Outdoor']);
    });

    it('post: not an event, or an event the viewer may not see → rest_invalid_param on post', async () => {
      const venue = await db.dataSource.transaction(async (m) => {
        const id = await allocatePostId(m, 'venue');
        const now = new Date('2026-01-01T10:00:00Z');
        await m.getRepository(CalendarVenueEntity).insert({ id, status: 'publish', title: 'Hall', slug: `hall-${id}`, dateLocal: '2026-01-01 10:00:00', dateUtc: now, modifiedAt: now });
        return id;
      });
      const e = await fails(svc().list(await anon(), 'tag', q({ post: venue })));
      expect(e).toBeInstanceOf(ValidationError);
      expect(fieldOf(e)).toEqual(['post']);
      expect(fieldOf(await fails(svc().list(await anon(), 'tag', q({ post: 987654 }))))).toEqual(['post']);
      // An event the viewer may not see is answered as an id that is no event (one rule, posts.ts visibleEventId).
      for (const who of [undefined, 'dave', 'bob'] as const) {
        const hidden = await fails(svc().list(await as(who), 'tag', q({ post: draft })));
        expect(hidden).toBeInstanceOf(ValidationError);
        expect(hidden.domainCode).toBe('rest_invalid_param');
        expect(fieldOf(hidden)).toEqual(['post']);
      }
      // Its author (a contributor) sees it.
      expect(await names(await as('carol'), 'tag', { post: draft })).toEqual(['Free entry']);
      // The editor sees the draft's terms (empty ones shown with hide_empty off).
      expect(await names(await as('alice'), 'tag', { post: draft })).toEqual(['Free entry']);
    });
  });

  describe('get', () => {
    it('returns the term with its count; a missing id or a term of the other taxonomy → rest_invalid_param on id', async () => {
      const v = await svc().get(await anon(), 'tag', outdoor);
      expect(v.term).toMatchObject({ id: outdoor, name: 'Outdoor', slug: 'outdoor', taxonomy: 'tag', parentId: null });
      expect(v.count).toBe(2);
      for (const [tax, id] of [['tag', 424242], ['tag', rock], ['category', outdoor]] as const) {
        const e = await fails(svc().get(await anon(), tax, id));
        expect(e).toBeInstanceOf(ValidationError);
        expect(e.domainCode).toBe('rest_invalid_param');
        expect(fieldOf(e)).toEqual(['id']);
      }
    });
  });

  describe('writes and access', () => {
    it('editor may manage terms; author and subscriber get 403, anonymous 401 (rest_forbidden)', async () => {
      for (const who of ['bob', 'carol', 'dave'] as const) {
        const e = await fails(svc().create(await as(who), 'tag', { name: `by ${who}` }));
        expect(e).toBeInstanceOf(ForbiddenError);
        expect(e.domainCode).toBe('rest_forbidden');
        expect(e.message).toBe('Sorry, you are not allowed to do that.');
      }
      const a = await fails(svc().create(await anon(), 'tag', { name: 'anon' }));
      expect(a).toBeInstanceOf(UnauthenticatedError);
      expect(await fails(svc().update(await as('bob'), 'tag', outdoor, { name: 'x' }))).toBeInstanceOf(ForbiddenError);
      expect(await fails(svc().delete(await anon(), 'tag', outdoor))).toBeInstanceOf(UnauthenticatedError);
      expect((await svc().get(await anon(), 'tag', outdoor)).term.name).toBe('Outdoor');
      expect(await db.dataSource.getRepository(CalendarTermEntity).count({ where: { name: 'anon' } })).toBe(0);
    });

    it('create: slug from the name (accents removed, unique), parent kept, description stored', async () => {
      const ed = await as('alice');
      const v = await svc().create(ed, 'category', { name: '  Café Concerts ', parent: music, description: 'Small stages' });
      expect(v.term).toMatchObject({ name: 'Café Concerts', slug: 'cafe-concerts', parentId: music, description: 'Small stages', taxonomy: 'category' });
      expect(v.count).toBe(0);
      const tag = await svc().create(ed, 'tag', { name: 'Cafe Concerts' });
      expect(tag.term.slug).toBe('cafe-concerts'); // slugs are per taxonomy
      const explicit = await svc().create(ed, 'tag', { name: 'Something else', slug: 'Cafe Concerts' });
      expect(explicit.term.slug).toBe('cafe-concerts-2');
      for (const [tax, id] of [['category', v.term.id], ['tag', tag.term.id], ['tag', explicit.term.id]] as const) await svc().delete(ed, tax, id);
    });

    it('create: an existing name under the same parent → term_exists with the existing id; elsewhere in the tree it is fine', async () => {
      const ed = await as('alice');
      const e = await fails(svc().create(ed, 'category', { name: 'jazz', parent: music }));
      expect(e).toBeInstanceOf(TermExistsError);
      expect(e).toBeInstanceOf(ValidationError);
      expect(e.domainCode).toBe('term_exists');
      expect(e.message).toBe('A term with the name provided already exists with this parent.');
      expect((e as TermExistsError).termId).toBe(jazz);
      expect((e as TermExistsError).data).toEqual({ term_id: jazz });
      const tagDup = (await fails(svc().create(ed, 'tag', { name: 'Outdoor' }))) as TermExistsError;
      expect(tagDup.termId).toBe(outdoor);
      const other = await svc().create(ed, 'category', { name: 'Jazz', parent: sports });
      expect(other.term.slug).toBe('jazz-2');
      await svc().delete(ed, 'category', other.term.id);
    });

    it('two editors creating the same name at once: one term, the other gets term_exists with its id', async () => {
      const ctxs = await Promise.all([1, 2, 3, 4].map(() => as('alice')));
      const results = await Promise.allSettled(ctxs.map((c) => svc().create(c, 'tag', { name: 'Simultaneous' })));
      const won = results.filter((r) => r.status === 'fulfilled') as Array<PromiseFulfilledResult<{ term: CalendarTermEntity }>>;
      const lost = results.filter((r) => r.status === 'rejected') as PromiseRejectedResult[];
      expect(won).toHaveLength(1);
      expect(lost).toHaveLength(3);
      for (const l of lost) {
        expect(l.reason).toBeInstanceOf(TermExistsError);
        expect((l.reason as TermExistsError).termId).toBe(won[0].value.term.id);
      }
      await svc().delete(await as('alice'), 'tag', won[0].value.term.id);
    });

    it('names are cleaned like WordPress (tags stripped, whitespace collapsed)', async () => {
      const v = await svc().create(await as('alice'), 'tag', { name: ' <b>Late</b>\n  night ' });
      expect(v.term).toMatchObject({ name: 'Late night', slug: 'late-night' });
      await svc().delete(await as('alice'), 'tag', v.term.id);
    });

    it('create: a parent that is missing or a tag is invalid; tags have no parent; an empty name is refused', async () => {
      const ed = await as('alice');
      expect(fieldOf(await fails(svc().create(ed, 'category', { name: 'X', parent: 777777 })))).toEqual(['parent']);
      expect(fieldOf(await fails(svc().create(ed, 'category', { name: 'X', parent: outdoor })))).toEqual(['parent']);
      expect(fieldOf(await fails(svc().create(ed, 'tag', { name: 'X', parent: music })))).toEqual(['parent']);
      const empty = await fails(svc().create(ed, 'tag', { name: '   ' }));
      expect(empty).toBeInstanceOf(ValidationError);
      expect(fieldOf(empty)).toEqual(['name']);
      expect(await db.dataSource.getRepository(CalendarTermEntity).count({ where: { name: 'X' } })).toBe(0);
    });

    it('update: name, description, slug and parent; a taken slug is refused; no parent loops', async () => {
      const ed = await as('alice');
      const t = await svc().create(ed, 'category', { name: 'Theatre' });
      const u = await svc().update(ed, 'category', t.term.id, { name: 'Theater', description: 'Plays', parent: music });
      expect(u.term).toMatchObject({ name: 'Theater', slug: 'theatre', description: 'Plays', parentId: music });
      expect((await svc().update(ed, 'category', t.term.id, { slug: 'stage plays' })).term.slug).toBe('stage-plays');
      const taken = await fails(svc().update(ed, 'category', t.term.id, { slug: 'rock' }));
      expect(taken.domainCode).toBe('duplicate_term_slug');
      expect(taken.message).toBe('The slug “rock” is already in use by another term.');
      expect(fieldOf(await fails(svc().update(ed, 'category', music, { parent: bebop })))).toEqual(['parent']);
      expect(fieldOf(await fails(svc().update(ed, 'category', music, { parent: music })))).toEqual(['parent']);
      expect((await fails(svc().update(ed, 'category', t.term.id, { name: 'Rock' }))).domainCode).toBe('term_exists');
      expect(fieldOf(await fails(svc().update(ed, 'tag', t.term.id, { name: 'Y' })))).toEqual(['id']);
      expect((await svc().update(ed, 'category', t.term.id, { parent: 0 })).term.parentId).toBeNull();
      await svc().delete(ed, 'category', t.term.id);
    });

    it('delete is permanent: returns the term as it was, removes links and translations, children move to the parent', async () => {
      const ed = await as('alice');
      const mid = await svc().create(ed, 'category', { name: 'Mid', parent: sports });
      const leaf = await svc().create(ed, 'category', { name: 'Leaf', parent: mid.term.id });
      await svc().update(await as('alice', 'fr'), 'category', mid.term.id, { name: 'Milieu' });
      const ev = await event('publish', [mid.term.id]);
      const gone = await svc().delete(ed, 'category', mid.term.id);
      expect(gone.term).toMatchObject({ id: mid.term.id, name: 'Mid', parentId: sports });
      expect(gone.count).toBe(1);
      expect(fieldOf(await fails(svc().get(await anon(), 'category', mid.term.id)))).toEqual(['id']);
      expect((await svc().get(await anon(), 'category', leaf.term.id)).term.parentId).toBe(sports);
      expect(await db.dataSource.getRepository(CalendarEventTermEntity).count({ where: { eventId: ev } })).toBe(0);
      expect(await db.dataSource.getRepository(CalendarTranslationEntity).count({ where: { kind: 'category', objectId: mid.term.id } })).toBe(0);
      expect(fieldOf(await fails(svc().delete(ed, 'category', mid.term.id)))).toEqual(['id']);
      await svc().delete(ed, 'category', leaf.term.id);
    });
  });

  describe('translations', () => {
    it('a write in a language stores a translation; reads in that language use it, others keep the original', async () => {
      const fr = await as('alice', 'fr');
      await svc().update(fr, 'tag', outdoor, { name: 'Plein air', description: 'Dehors' });
      const inFr = await svc().get(await as(undefined, 'fr'), 'tag', outdoor);
      expect(inFr.term).toMatchObject({ name: 'Plein air', slug: 'outdoor', description: 'Dehors' });
      expect((await svc().get(await anon(), 'tag', outdoor)).term.name).toBe('Outdoor');
      expect((await svc().get(await as(undefined, 'de'), 'tag', outdoor)).term.name).toBe('Outdoor');
      await svc().update(fr, 'tag', outdoor, { slug: 'plein-air' });
      expect((await svc().get(await as(undefined, 'fr'), 'tag', outdoor)).term.slug).toBe('plein-air');
      expect((await svc().get(await anon(), 'tag', outdoor)).term.slug).toBe('outdoor');
    });

    it('lists in a language sort, search and filter by slug on the translated values', async () => {
      const fr = await as(undefined, 'fr');
      expect(await names(fr, 'tag', { hideEmpty: true })).toEqual(['Family fun', 'Plein air']);
      expect(await names(fr, 'tag', { search: 'plein' })).toEqual(['Plein air']);
      expect(await names(await anon(), 'tag', { search: 'plein' })).toEqual([]);
      expect(await names(fr, 'tag', { slug: ['plein-air'] })).toEqual(['Plein air']);
      expect(await names(fr, 'tag', { include: ['plein-air'] })).toEqual(['Plein air']);
    });

    it('a category and a tag may share a translated slug (translations are kept per taxonomy)', async () => {
      const fr = await as('alice', 'fr');
      const c = await svc().create(fr, 'category', { name: 'Musique ancienne' });
      const t = await svc().create(fr, 'tag', { name: 'Musique ancienne' });
      expect(c.term.slug).toBe('musique-ancienne');
      expect(t.term.slug).toBe('musique-ancienne');
    });

    it('create in a language: the term exists in the original too, and its content is that language\'s translation', async () => {
      const de = await as('alice', 'de');
      const v = await svc().create(de, 'tag', { name: 'Kinder', description: 'Für Kinder' });
      expect(v.term).toMatchObject({ name: 'Kinder', slug: 'kinder', description: 'Für Kinder' });
      const tr = await db.dataSource.getRepository(CalendarTranslationEntity).findOneByOrFail({ kind: 'tag', objectId: v.term.id, language: 'de' });
      expect(tr).toMatchObject({ title: 'Kinder', slug: 'kinder', description: 'Für Kinder' });
      expect((await svc().get(await anon(), 'tag', v.term.id)).term.name).toBe('Kinder');
      // A name taken in German (a translation) is a term_exists in German.
      expect((await fails(svc().create(de, 'tag', { name: 'kinder' }))).domainCode).toBe('term_exists');
    });
  });

  describe('event filter helpers', () => {
    it('findByIdOrSlug: slug first, then id, then name; unknown → rest_invalid_param on the field', async () => {
      const ctx = await anon();
      expect(await svc().findByIdOrSlug(ctx, 'category', ['rock', String(jazz), 'Bebop'])).toEqual([rock, jazz, bebop]);
      expect(await svc().findByIdOrSlug(ctx, 'tag', ['family-fun', 'family-fun'])).toEqual([family]);
      const e = await fails(svc().findByIdOrSlug(ctx, 'category', ['rock', 'nope']));
      expect(e.domainCode).toBe('rest_invalid_param');
      expect(fieldOf(e)).toEqual(['categories']);
      expect(fieldOf(await fails(svc().findByIdOrSlug(ctx, 'tag', [String(rock)])))).toEqual(['tags']);
      // A slug that looks like another term's id is read as the slug.
      const numeric = await svc().create(await as('alice'), 'tag', { name: 'Numbered', slug: String(free) });
      expect(await svc().findByIdOrSlug(ctx, 'tag', [String(free)])).toEqual([numeric.term.id]);
      await svc().delete(await as('alice'), 'tag', numeric.term.id);
      // In a language, the translated slug works too.
      expect(await svc().findByIdOrSlug(await as(undefined, 'fr'), 'tag', ['plein-air'])).toEqual([outdoor]);
    });

    it('withDescendants: the categories and everything below them', async () => {
      const ctx = await anon();
      expect((await svc().withDescendants(ctx, [music])).sort((a, b) => a - b)).toEqual([music, jazz, bebop, rock].sort((a, b) => a - b));
      expect(await svc().withDescendants(ctx, [bebop])).toEqual([bebop]);
      expect(await svc().withDescendants(ctx, [outdoor])).toEqual([]);
      expect(await svc().withDescendants(ctx, [])).toEqual([]);
    });
  });
});
