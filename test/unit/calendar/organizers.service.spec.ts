/**
 * Calendar organizers on a real database: the organizer's own fields and codes on top of the shared linked-post
 * rules (venues.service.spec.ts covers those in depth).
 */
import type { AccountEntity } from '../../../entities/identity';
import { CalendarEventEntity, CalendarEventOrganizerEntity } from '../../../entities/calendar';
import type { Viewer } from '../../../src/auth/viewer';
import { loadConfig } from '../../../src/config';
import { RequestContext, withTransaction } from '../../../src/context';
import { AppError, ForbiddenError, GoneError, NotFoundError } from '../../../src/errors/app-error';
import type { CalendarOrganizerInput } from '../../../src/services/calendar/organizers.service';
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

describe('calendar organizers service', () => {
  let db: TestDatabase;
  let f: IdentityFixtures;
  let contexts: TestContexts;
  let clock = new Date('2025-03-01T08:00:00Z');
  const users: Record<string, AccountEntity> = {};
  const as = (login?: string): RequestContext => {
    if (!login) return contexts.forViewer({ kind: 'anonymous' });
    const viewer: Viewer = { kind: 'user', user: users[login], credential: { type: 'internal' } };
    return contexts.forViewer(viewer);
  };
  const svc = () => f.services.calendarOrganizers;
  const create = (login: string, input: CalendarOrganizerInput) => {
    clock = new Date(clock.getTime() + 60_000);
    return svc().create(as(login), input);
  };

  beforeAll(async () => {
    db = await openTestDatabase();
    f = new IdentityFixtures(db.dataSource);
    const config = loadConfig({ PUBLIC_URL: 'https://cal.example' });
    config.now = () => clock;
    contexts = testContexts(db.dataSource, f.services, config);
    users.alice = await f.user('o-alice', { calendarRole: 'editor' });
    users.bob = await f.user('o-bob', { calendarRole: 'author' });
    users.carol = await f.user('o-carol', { calendarRole: 'contributor' });
  });
  afterAll(() => db.drop());

  it('creates with phone, website, email; checks the email and the website; names the slug after the organizer', async () => {
    const o = await create('bob', { name: 'Jazz Club Org', phone: ' +45 1234 ', website: 'https://jazz.example', email: 'info@jazz.example' });
    expect(o).toMatchObject({ title: 'Jazz Club Org', slug: 'jazz-club-org', phone: '+45 1234', email: 'info@jazz.example', status: 'publish', authorId: users.bob.id });
    for (const [input, field] of [
      [{ name: 'E', email: 'not-an-email' }, 'email'],
      [{ name: 'E', website: 'ftp://x.example' }, 'website'],
      [{ name: 'E', phone: 5 as unknown as string }, 'phone'],
    ] as Array<[CalendarOrganizerInput, string]>) {
      expect(await failure(create('alice', input))).toMatchObject({ domainCode: 'rest_invalid_param', fieldErrors: [{ field }] });
    }
    expect(await failure(create('alice', { name: ' ' }))).toMatchObject({ domainCode: 'could-not-create-organizer' });
    expect((await svc().update(as('bob'), o.id, { email: '' })).email).toBe('');
  });

  it('reads: organizer codes for drafts (403), pages past the end (404), trash (410)', async () => {
    const draft = await create('carol', { name: 'Carol Org' });
    expect(draft.status).toBe('draft');
    expect(await failure(svc().get(as(), draft.id))).toMatchObject({ domainCode: 'organizer-not-accessible', message: 'The requested organizer is not accessible' });
    expect(await failure(svc().get(as('bob'), draft.id))).toBeInstanceOf(ForbiddenError);
    expect((await svc().get(as('carol'), draft.id)).title).toBe('Carol Org');

    const total = (await svc().list(as(), { page: 1, perPage: 50 })).total;
    const past = await failure(svc().list(as(), { page: 2, perPage: 50 }));
    expect(past).toBeInstanceOf(NotFoundError);
    expect(past).toMatchObject({ domainCode: 'organizer-archive-page-not-found', message: 'The requested organizer archive page does not exist' });
    expect(total).toBeGreaterThan(0);

    const t = await create('alice', { name: 'Short Lived' });
    await svc().delete(as('alice'), t.id);
    const gone = await failure(svc().delete(as('alice'), t.id));
    expect(gone).toBeInstanceOf(GoneError);
    expect(gone).toMatchObject({ domainCode: 'organizer-is-in-trash', message: 'The organizer is already trashed' });
    const venue = await f.services.calendarVenues.create(as('alice'), { name: 'Not An Organizer' });
    expect(await failure(svc().get(as(), venue.id))).toMatchObject({ domainCode: 'rest_invalid_param', fieldErrors: [{ field: 'id' }] });
  });

  it('lists newest first, filters by event and search over email/phone', async () => {
    const a = await create('alice', { name: 'List Org A', email: 'a@list.example' });
    const b = await create('alice', { name: 'List Org B', phone: '555-0100' });
    const eventId = await withTransaction(as('alice'), async (tx) => {
      const id = await allocatePostId(tx.db, 'event');
      const when = new Date('2025-04-01T10:00:00Z');
      await tx.db.getRepository(CalendarEventEntity).insert({
        id, authorId: null, status: 'publish', title: 'E', slug: `e-${id}`, dateLocal: '2025-01-01 00:00:00', dateUtc: when, modifiedAt: when,
        startLocal: '2025-04-01 10:00:00', endLocal: '2025-04-01 11:00:00', startUtc: when, endUtc: new Date(when.getTime() + 3_600_000),
      });
      await tx.db.getRepository(CalendarEventOrganizerEntity).insert([{ eventId: id, organizerId: a.id, position: 1 }, { eventId: id, organizerId: b.id, position: 0 }]);
      return id;
    });
    const titles = async (q: object) => (await svc().list(as(), { page: 1, perPage: 10, ...q })).items.map((o) => o.title);
    expect(await titles({ event: eventId })).toEqual(['List Org B', 'List Org A']);
    expect(await titles({ search: 'list.example' })).toEqual(['List Org A']);
    expect(await titles({ search: '555-0100' })).toEqual(['List Org B']);
    expect(await titles({ onlyWithUpcoming: true })).toEqual(['List Org B', 'List Org A']);
    clock = new Date('2025-05-01T00:00:00Z');
    expect(await titles({ onlyWithUpcoming: true })).toEqual([]);
  });

  it('findOrCreateForEvent de-duplicates organizers by name only', async () => {
    const o = await create('alice', { name: 'Dedup Org', email: 'one@x.example' });
    const run = (value: unknown) => withTransaction(as('alice'), (tx) => svc().findOrCreateForEvent(tx, tx, value as CalendarOrganizerInput));
    expect((await run({ name: 'DEDUP ORG', email: 'two@x.example' })).id).toBe(o.id);
    expect((await run({ id: o.id })).id).toBe(o.id);
    const venue = await f.services.calendarVenues.create(as('alice'), { name: 'Venue Not Organizer' });
    expect(await failure(run(venue.id))).toMatchObject({ domainCode: 'invalid-linked-post-id' });
  });
});
