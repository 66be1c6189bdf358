/**
 * Term counts (published events per term) are stored and kept by the event writes: create, link changes, status
 * changes, trash and restore. What WordPress clients read as `count` in every term shape.
 */
import { CalendarTermEntity } from '../../../entities/calendar';
import { loadConfig } from '../../../src/config';
import type { RequestContext } from '../../../src/context';
import { IdentityFixtures } from '../../fixtures/identity';
import { testContexts, TestContexts } from '../../helpers/context';
import { openTestDatabase, TestDatabase } from '../../helpers/db';

describe('calendar term counts', () => {
  let db: TestDatabase;
  let f: IdentityFixtures;
  let contexts: TestContexts;
  let editor: RequestContext;
  let jazz: number;
  let rock: number;
  let outdoor: number;

  const count = async (id: number) => (await db.dataSource.getRepository(CalendarTermEntity).findOneByOrFail({ id })).count;
  const counts = async () => [await count(jazz), await count(rock), await count(outdoor)];

  beforeAll(async () => {
    db = await openTestDatabase();
    f = new IdentityFixtures(db.dataSource);
    contexts = testContexts(db.dataSource, f.services, loadConfig({ CALENDAR_NOW: '2026-01-01T12:00:00Z' }));
    const alice = await f.user('tc-alice', { calendarRole: 'editor' });
    editor = await contexts.as(await f.classicToken(alice, ['calendar']));
    jazz = (await f.services.calendarTerms.create(editor, 'category', { name: 'Jazz' })).term.id;
    rock = (await f.services.calendarTerms.create(editor, 'category', { name: 'Rock' })).term.id;
    outdoor = (await f.services.calendarTerms.create(editor, 'tag', { name: 'Outdoor' })).term.id;
  });

  afterAll(async () => {
    await db?.drop();
  });

  it('follow creates, link changes, status changes, trash and restore', async () => {
    const events = f.services.calendarEvents;
    const fresh = async () => contexts.as(await f.classicToken((await contexts.account('tc-alice'))!, ['calendar']));
    const a = await events.create(await fresh(), { title: 'A', startDate: '2026-02-01', endDate: '2026-02-01', categories: [jazz], tags: [outdoor] });
    const b = await events.create(await fresh(), { title: 'B', startDate: '2026-02-02', endDate: '2026-02-02', categories: [jazz, rock], status: 'draft' });
    expect(await counts()).toEqual([1, 0, 1]); // the draft does not count

    await events.update(await fresh(), b.id, { status: 'publish' });
    expect(await counts()).toEqual([2, 1, 1]);

    await events.update(await fresh(), a.id, { categories: [rock], tags: [] });
    expect(await counts()).toEqual([1, 2, 0]);

    await events.trash(await fresh(), b.id);
    expect(await counts()).toEqual([0, 1, 0]);

    await events.restore(await fresh(), b.id);
    expect(await counts()).toEqual([1, 2, 0]);

    const view = await f.services.calendarTerms.get(await fresh(), 'category', rock);
    expect(view.count).toBe(2);
  });
});
