/**
 * Calendar DataLoaders (fresh per request, flat so clearLoaders reaches them): posts and terms by id, which kind an
 * id is, translations, and each event's links in order. Visibility is never decided here: services ask
 * src/services/calendar/access.ts about what these load.
 */
import DataLoader from 'dataloader';
import { EntityManager, In } from 'typeorm';
import {
  CalendarEventEntity,
  CalendarOrganizerEntity,
  CalendarPostEntity,
  CalendarPostKind,
  CalendarTermEntity,
  CalendarTranslationEntity,
  CalendarVenueEntity,
} from '../../entities';
import { entityColumns, jsonArrayAggregate, queryRows } from '../db/rows';
import { MAX_BATCH, PeekableLoader } from './index';

const TABLE = new Map<Function, string>([
  [CalendarEventEntity, 'calendar_events'],
  [CalendarVenueEntity, 'calendar_venues'],
  [CalendarOrganizerEntity, 'calendar_organizers'],
  [CalendarTermEntity, 'calendar_terms'],
]);

const marks = (n: number) => new Array(n).fill('?').join(', ');

/** Rows by id with one hand-written statement and the compiled hydrator (src/db/rows.ts): no query builder. */
function rowsById<T extends { id: number }>(db: EntityManager, entity: new () => T): PeekableLoader<number, T | null> {
  const table = TABLE.get(entity)!;
  return new PeekableLoader<number, T | null>(
    async (ids) => {
      const cols = entityColumns(db, entity, 'x', 'x_');
      const rows = await queryRows(db, `SELECT ${cols.select} FROM ${table} x WHERE x.id IN (${marks(ids.length)})`, [...ids]);
      const map = new Map<number, T>();
      for (const r of rows) {
        const e = cols.hydrate(r)!;
        map.set(e.id, e);
      }
      return ids.map((id) => map.get(id) ?? null);
    },
    { maxBatchSize: MAX_BATCH },
  );
}

/** One event's links: venue, organizer and term ids, in order. */
export interface EventLinks {
  venues: number[];
  organizers: number[];
  terms: number[];
}

/**
 * Every link of a page of events (venues, organizers, terms) in ONE statement: each linked row comes back whole as
 * one JSON array value (better-sqlite3 builds a JS object per row and column, which made wide joined rows the
 * expensive part; PostgreSQL saves two round trips), is hydrated with the compiled converter and primes its
 * by-id loader.
 */
function linksLoader(
  db: EntityManager,
  byId: {
    venue: PeekableLoader<number, CalendarVenueEntity | null>;
    organizer: PeekableLoader<number, CalendarOrganizerEntity | null>;
    term: PeekableLoader<number, CalendarTermEntity | null>;
  },
): DataLoader<number, EventLinks> {
  return new DataLoader<number, EventLinks>(
    async (eventIds) => {
      const pg = db.connection.options.type === 'postgres';
      const v = entityColumns(db, CalendarVenueEntity, 'x', 'x_');
      const o = entityColumns(db, CalendarOrganizerEntity, 'x', 'x_');
      const t = entityColumns(db, CalendarTermEntity, 'x', 'x_');
      // Each link as one JSON array [kind, event id, position, row], all of them read as ONE value (list-query.ts
      // `rowsAsJson`: the drivers' per-row cost was the larger part; SQLite 324 -> 198 us for a 10-event page).
      const link = (kind: string, pos: string, c: { jsonValue: string }) =>
        pg ? `json_build_array('${kind}', l.event_id, ${pos}, ${c.jsonValue})::text` : `json_array('${kind}', l.event_id, ${pos}, ${c.jsonValue})`;
      const m = marks(eventIds.length);
      const [one] = await queryRows<{ links: string | null }>(
        db,
        `SELECT ${jsonArrayAggregate(pg ? 'postgres' : 'sqlite', 'u.x')} AS links FROM (` +
          `SELECT ${link('v', 'l.position', v)} AS x FROM calendar_event_venues l JOIN calendar_venues x ON x.id = l.venue_id WHERE l.event_id IN (${m})` +
          ` UNION ALL SELECT ${link('o', 'l.position', o)} FROM calendar_event_organizers l JOIN calendar_organizers x ON x.id = l.organizer_id WHERE l.event_id IN (${m})` +
          ` UNION ALL SELECT ${link('t', '0', t)} FROM calendar_event_terms l JOIN calendar_terms x ON x.id = l.term_id WHERE l.event_id IN (${m})) u`,
        [...eventIds, ...eventIds, ...eventIds],
      );
      const rows = (one?.links == null ? [] : JSON.parse(one.links)) as Array<[string, number, number, unknown[]]>;
      const by = new Map<number, { venues: Array<[number, number]>; organizers: Array<[number, number]>; terms: Array<[number, number]> }>();
      for (const [k, eventId, pos, values] of rows) {
        let links = by.get(eventId);
        if (!links) by.set(eventId, (links = { venues: [], organizers: [], terms: [] }));
        if (k === 'v') {
          const e = v.hydrateJsonArray(values)!;
          byId.venue.prime(e.id, e);
          links.venues.push([pos, e.id]);
        } else if (k === 'o') {
          const e = o.hydrateJsonArray(values)!;
          byId.organizer.prime(e.id, e);
          links.organizers.push([pos, e.id]);
        } else {
          const e = t.hydrateJsonArray(values)!;
          byId.term.prime(e.id, e);
          links.terms.push([0, e.id]);
        }
      }
      const ordered = (l: Array<[number, number]>) => l.sort((a, b) => a[0] - b[0] || a[1] - b[1]).map((x) => x[1]);
      return eventIds.map((id) => {
        const l = by.get(id);
        return l ? { venues: ordered(l.venues), organizers: ordered(l.organizers), terms: ordered(l.terms) } : { venues: [], organizers: [], terms: [] };
      });
    },
    { maxBatchSize: MAX_BATCH },
  );
}

/** One kind of an event's links, through the links loader (so a page's relations stay one statement). */
function linkIds(links: DataLoader<number, EventLinks>, pick: (l: EventLinks) => number[]): DataLoader<number, number[]> {
  return new DataLoader<number, number[]>(async (eventIds) => (await links.loadMany(eventIds)).map((l) => (l instanceof Error ? l : pick(l))), {
    maxBatchSize: MAX_BATCH,
  });
}

export function createCalendarLoaders(db: EntityManager) {
  const calendarEventById = rowsById(db, CalendarEventEntity);
  const calendarVenueById = rowsById(db, CalendarVenueEntity);
  const calendarOrganizerById = rowsById(db, CalendarOrganizerEntity);
  const calendarTermById = rowsById(db, CalendarTermEntity);
  const calendarLinksByEvent = linksLoader(db, { venue: calendarVenueById, organizer: calendarOrganizerById, term: calendarTermById });
  return {
    calendarEventById,
    calendarVenueById,
    calendarOrganizerById,
    calendarTermById,
    /** post id -> its kind (event, venue, organizer) or null when no post has that id */
    calendarPostKind: new DataLoader<number, CalendarPostKind | null>(
      async (ids) => {
        const rows = await db.getRepository(CalendarPostEntity).find({ where: { id: In([...ids]) } });
        const map = new Map(rows.map((r) => [r.id, r.kind]));
        return ids.map((id) => map.get(id) ?? null);
      },
      { maxBatchSize: MAX_BATCH },
    ),
    /** key `${kind}:${language}:${objectId}` -> that translation or null */
    calendarTranslation: new DataLoader<string, CalendarTranslationEntity | null>(
      async (keys) => {
        const parsed = keys.map((k) => k.split(':'));
        const groups = new Map<string, number[]>();
        for (const [kind, lang, id] of parsed) groups.set(`${kind}:${lang}`, [...(groups.get(`${kind}:${lang}`) ?? []), Number(id)]);
        const found = new Map<string, CalendarTranslationEntity>();
        for (const [group, ids] of groups) {
          const [kind, language] = group.split(':');
          const rows = await db.getRepository(CalendarTranslationEntity).find({ where: { kind: kind as never, language: language as never, objectId: In(ids) } });
          for (const r of rows) found.set(`${r.kind}:${r.language}:${r.objectId}`, r);
        }
        return keys.map((k) => found.get(k) ?? null);
      },
      { maxBatchSize: MAX_BATCH },
    ),
    /** event id -> its venue ids, in order */
    /** event id -> its venue, organizer and term ids (one statement per page; primes the by-id loaders) */
    calendarLinksByEvent,
    calendarVenueIdsByEvent: linkIds(calendarLinksByEvent, (l) => l.venues),
    /** event id -> its organizer ids, in order */
    calendarOrganizerIdsByEvent: linkIds(calendarLinksByEvent, (l) => l.organizers),
    /** event id -> its term ids (categories and tags) */
    calendarTermIdsByEvent: linkIds(calendarLinksByEvent, (l) => l.terms),
    /** category id -> the ids of its direct child categories, by name then id (GraphQL EventCategory.children) */
    calendarTermChildIds: new DataLoader<number, number[]>(
      async (parentIds) => {
        const rows = await db.getRepository(CalendarTermEntity).find({
          where: { parentId: In([...parentIds]) },
          select: { id: true, parentId: true, name: true },
          order: { name: 'ASC', id: 'ASC' },
        });
        const by = new Map<number, number[]>();
        for (const r of rows) by.set(r.parentId!, [...(by.get(r.parentId!) ?? []), r.id]);
        return parentIds.map((id) => by.get(id) ?? []);
      },
      { maxBatchSize: MAX_BATCH },
    ),
  };
}
