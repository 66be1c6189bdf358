/**
 * The request's loaders (src/loaders/index.ts) are made per group on first use: a request that reads no calendar
 * row makes no calendar loader; what is made is cached for the request, and clearLoaders forgets all of it.
 */
import { AccountEntity } from '../../entities/identity';
import { clearLoaders, createLoaders } from '../../src/loaders';
import { IdentityFixtures } from '../fixtures/identity';
import { openTestDatabase, TestDatabase } from '../helpers/db';

describe('request loaders', () => {
  let db: TestDatabase;
  let user: AccountEntity;
  beforeAll(async () => {
    db = await openTestDatabase();
    user = await new IdentityFixtures(db.dataSource).user('loader-user');
  });
  afterAll(() => db?.drop());

  it('makes a group of loaders on first use, keeps it for the request, and a fresh set per request', async () => {
    const loaders = createLoaders(db.dataSource.manager, user.id);
    expect(Object.keys(loaders)).toEqual([]);
    const byId = loaders.accountById;
    expect(loaders.accountById).toBe(byId);
    // The whole group (its loaders prime each other), and only it.
    expect(Object.keys(loaders)).toContain('accountByLogin');
    expect(Object.keys(loaders).some((k) => k.startsWith('calendar'))).toBe(false);
    expect((await loaders.accountByLogin.load('loader-user'))?.id).toBe(user.id);
    // accountByLogin primed accountById: no second statement needed, same object.
    expect(byId.peek(user.id)).toBe(await loaders.accountById.load(user.id));
    expect(loaders.calendarEventById).toBe(loaders.calendarEventById);
    expect(Object.keys(loaders).some((k) => k.startsWith('calendar'))).toBe(true);
    expect(createLoaders(db.dataSource.manager).accountById).not.toBe(byId);
  });

  it('clearLoaders forgets what the made loaders hold', async () => {
    const loaders = createLoaders(db.dataSource.manager, user.id);
    await loaders.accountById.load(user.id);
    expect(loaders.accountById.peek(user.id)).toBeDefined();
    clearLoaders(loaders);
    expect(loaders.accountById.peek(user.id)).toBeUndefined();
  });
});
