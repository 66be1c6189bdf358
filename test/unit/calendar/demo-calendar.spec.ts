/**
 * The demo calendar `npm start` seeds: what a visitor of the demo would notice (venues in several countries,
 * a category tree, upcoming and past events in several timezones, all-day ones, costs, the protected and the hidden
 * event, carol's drafts, translations), deterministic for a given clock.
 */
import { CalendarEventEntity, CalendarTermEntity, CalendarTranslationEntity, CalendarVenueEntity } from '../../../entities/calendar';
import { loadConfig } from '../../../src/config';
import { contextFor } from '../../../src/context';
import { createLogger } from '../../../src/observability/logger';
import { createServices } from '../../../src/services';
import { seedDemo } from '../../../src/seed/demo';
import { openTestDatabase, TestDatabase } from '../../helpers/db';

const NOW = '2026-03-10T09:00:00Z';

describe('demo calendar seed', () => {
  let db: TestDatabase;
  const config = loadConfig({ CALENDAR_NOW: NOW, CALENDAR_TIMEZONE: 'Europe/Copenhagen' });
  const services = createServices();

  beforeAll(async () => {
    db = await openTestDatabase();
    const demo = await seedDemo(db.dataSource, services, undefined, config);
    expect(demo.calendar).toMatchObject({ venues: 8, organizers: 6, events: 40 });
  });
  afterAll(() => db.drop());

  const events = () => db.dataSource.getRepository(CalendarEventEntity).find({ order: { id: 'ASC' } });

  it('has geocoded and non-geocoded venues in several countries', async () => {
    const venues = await db.dataSource.getRepository(CalendarVenueEntity).find();
    expect(venues).toHaveLength(8);
    expect(new Set(venues.map((v) => v.country)).size).toBeGreaterThanOrEqual(5);
    expect(venues.filter((v) => v.geoLat !== null).length).toBeGreaterThanOrEqual(5);
    expect(venues.some((v) => v.geoLat === null)).toBe(true);
  });

  it('has a category tree, tags and translated category names', async () => {
    const terms = await db.dataSource.getRepository(CalendarTermEntity).find();
    const byName = new Map(terms.map((t) => [`${t.taxonomy}:${t.name}`, t]));
    expect(byName.get('category:Jazz')!.parentId).toBe(byName.get('category:Music')!.id);
    expect(byName.get('category:Rock')!.parentId).toBe(byName.get('category:Music')!.id);
    expect(byName.get('category:Talks')!.parentId ?? 0).toBe(0);
    expect(terms.filter((t) => t.taxonomy === 'tag')).toHaveLength(10);
    const tr = await db.dataSource.getRepository(CalendarTranslationEntity).find({ where: { kind: 'category', objectId: byName.get('category:Music')!.id } });
    expect(Object.fromEntries(tr.map((t) => [t.language, t.title]))).toEqual({ da: 'Musik', fr: 'Musique', de: 'Musik' });
  });

  it('spreads ~40 events from the past to three months ahead, in several zones, some all-day, with costs', async () => {
    const all = await events();
    expect(all).toHaveLength(40);
    const now = new Date(NOW).getTime();
    expect(all.filter((e) => e.startUtc.getTime() < now).length).toBeGreaterThanOrEqual(5);
    expect(all.filter((e) => e.startUtc.getTime() > now).length).toBeGreaterThanOrEqual(25);
    expect(Math.max(...all.map((e) => e.startUtc.getTime())) - now).toBeLessThanOrEqual(95 * 86_400_000);
    expect(new Set(all.map((e) => e.timezone)).size).toBeGreaterThanOrEqual(5);
    expect(all.filter((e) => e.allDay).length).toBeGreaterThanOrEqual(3);
    expect(all.map((e) => e.cost)).toEqual(expect.arrayContaining(['$10 - $20', 'Free']));
    expect(all.find((e) => e.cost === '$10 - $20')!.costValues).toEqual(['10', '20']);
  });

  it('has one protected event, one hidden from listings and drafts by carol', async () => {
    const all = await events();
    expect(all.filter((e) => e.password)).toHaveLength(1);
    expect(all.filter((e) => e.hideFromListings)).toHaveLength(1);
    const carol = await services.identity.findAccount(contextFor({ dataSource: db.dataSource, services, config, log: createLogger('silent') }, 't'), 'carol');
    const drafts = all.filter((e) => e.status === 'draft');
    expect(drafts.length).toBeGreaterThanOrEqual(2);
    for (const d of drafts) expect(d.authorId).toBe(carol!.id);
  });

  it('lists upcoming published events through the service, translated on request', async () => {
    const deps = { dataSource: db.dataSource, services, config, log: createLogger('silent') };
    const anon = contextFor(deps, 't');
    const list = await services.calendarEvents.list(anon, { page: 1, perPage: 50 });
    expect(list.total).toBeGreaterThanOrEqual(20);
    expect(list.items.every((e) => e.status === 'publish' && !e.hideFromListings)).toBe(true);
    const da = contextFor(deps, 't');
    da.language = 'da';
    const titles = (await services.calendarEvents.list(da, { page: 1, perPage: 50 })).items.map((e) => e.title);
    for (const title of ['Jazzbrunch', 'Byernes fremtid', 'Open source-træf']) expect(titles).toContain(title);
    const fr = contextFor(deps, 't');
    fr.language = 'fr';
    expect((await services.calendarEvents.list(fr, { page: 1, perPage: 50, search: 'boulevard du rock' })).items.map((e) => e.title)).toEqual(['Le boulevard du rock']);
  });

  it('is deterministic for a given clock', async () => {
    const other = await openTestDatabase();
    try {
      await seedDemo(other.dataSource, createServices(), undefined, config);
      const pick = (es: CalendarEventEntity[]) => es.map((e) => [e.title, e.startLocal, e.endLocal, e.timezone, e.cost, e.status]);
      expect(pick(await other.dataSource.getRepository(CalendarEventEntity).find({ order: { id: 'ASC' } }))).toEqual(pick(await events()));
    } finally {
      await other.drop();
    }
  });
});
