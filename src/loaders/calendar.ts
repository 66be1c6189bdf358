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
} from '../../entities/calendar';
import { entityColumns, jsonArrayAggregate, queryRows } from '../db/rows';
import type { EventRelations } from '../services/calendar/events.service';
import { MAX_BATCH, PeekableLoader } from './loader';

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

type LinkedById = {
  venue: PeekableLoader<number, CalendarVenueEntity | null>;
  organizer: PeekableLoader<number, CalendarOrganizerEntity | null>;
  term: PeekableLoader<number, CalendarTermEntity | null>;
};

/**
 * A SELECT of ONE value (column `links`): every link (venue, organizer, term) of the events `ids` names (an SQL list:
 * placeholders, or a subquery; written three times), each as one JSON array [kind, event id, position, row] with the
 * linked row whole (better-sqlite3 builds a JS object per row and column, which made wide joined rows the expensive
 * part; PostgreSQL saves two round trips), all of them read as ONE value (list-query.ts `rowsAsJson`: the drivers'
 * per-row cost was the larger part). NULL when there are none.
 */
export function eventLinksSql(db: EntityManager, ids: string): string {
  const pg = db.connection.options.type === 'postgres';
  const v = entityColumns(db, CalendarVenueEntity, 'x', 'x_');
  const o = entityColumns(db, CalendarOrganizerEntity, 'x', 'x_');
  const t = entityColumns(db, CalendarTermEntity, 'x', 'x_');
  const link = (kind: string, pos: string, c: { jsonValue: string }) =>
    pg ? `json_build_array('${kind}', l.event_id, ${pos}, ${c.jsonValue})::text` : `json_array('${kind}', l.event_id, ${pos}, ${c.jsonValue})`;
  return (
    `SELECT ${jsonArrayAggregate(pg ? 'postgres' : 'sqlite', 'u.x')} AS links FROM (` +
    `SELECT ${link('v', 'l.position', v)} AS x FROM calendar_event_venues l JOIN calendar_venues x ON x.id = l.venue_id WHERE l.event_id IN (${ids})` +
    ` UNION ALL SELECT ${link('o', 'l.position', o)} FROM calendar_event_organizers l JOIN calendar_organizers x ON x.id = l.organizer_id WHERE l.event_id IN (${ids})` +
    ` UNION ALL SELECT ${link('t', '0', t)} FROM calendar_event_terms l JOIN calendar_terms x ON x.id = l.term_id WHERE l.event_id IN (${ids})) u`
  );
}

/**
 * The links of each of `eventIds` (in that order; none for an event without links) from an `eventLinksSql` value;
 * each linked row is hydrated with the compiled converter and primes its by-id loader.
 */
export function readEventLinks(db: EntityManager, value: string | null | undefined, eventIds: readonly number[], byId: LinkedById): EventLinks[] {
  const v = entityColumns(db, CalendarVenueEntity, 'x', 'x_');
  const o = entityColumns(db, CalendarOrganizerEntity, 'x', 'x_');
  const t = entityColumns(db, CalendarTermEntity, 'x', 'x_');
  const rows = (value == null ? [] : JSON.parse(value)) as Array<[string, number, number, unknown[]]>;
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
}

/** Every link of a page of events in ONE statement (`eventLinksSql`); primes the by-id loaders. */
function linksLoader(db: EntityManager, byId: LinkedById): PeekableLoader<number, EventLinks> {
  return new PeekableLoader<number, EventLinks>(
    async (eventIds) => {
      const [one] = await queryRows<{ links: string | null }>(db, eventLinksSql(db, marks(eventIds.length)), [...eventIds, ...eventIds, ...eventIds]);
      return readEventLinks(db, one?.links, eventIds, byId);
    },
    { maxBatchSize: MAX_BATCH },
  );
}

/**
 * Give the request's loaders the links of `eventIds` read with their page (an `eventLinksSql` value in the page
 * statement): the relations of the page then need no statement of their own.
 */
export function primeEventLinks(
  db: EntityManager,
  loaders: Pick<ReturnType<typeof createCalendarLoaders>, 'calendarLinksByEvent' | 'calendarVenueById' | 'calendarOrganizerById' | 'calendarTermById'>,
  eventIds: readonly number[],
  value: string | null | undefined,
): void {
  const links = readEventLinks(db, value, eventIds, { venue: loaders.calendarVenueById, organizer: loaders.calendarOrganizerById, term: loaders.calendarTermById });
  eventIds.forEach((id, i) => loaders.calendarLinksByEvent.prime(id, links[i]));
}

/** One kind of an event's links, through the links loader (so a page's relations stay one statement). */
function linkIds(links: DataLoader<number, EventLinks>, pick: (l: EventLinks) => number[]): DataLoader<number, number[]> {
  return new DataLoader<number, number[]>(async (eventIds) => (await links.loadMany(eventIds)).map((l) => (l instanceof Error ? l : pick(l))), {
    maxBatchSize: MAX_BATCH,
  });
}

/**
 * What the calendar resolvers remember about the request's events (resolvers/calendar/calendar.support.ts): their
 * relations, primed for a page by the list resolvers or loaded once per event, and the events read with their
 * password. It lives with the request's loaders, so it ends with the request; a write forgets the relations read
 * before it, as it does the loaders' rows (an unlock is not a cached read: it stays).
 */
export class CalendarEventMemos {
  /** Relations of events, as they load. */
  readonly relations = new Map<CalendarEventEntity, Promise<EventRelations>>();
  /** The same once loaded: relation fields answer with the value itself (no promise per field and event). */
  readonly relationsKnown = new Map<CalendarEventEntity, EventRelations>();
  /** Events read with their correct password (or by someone who may edit them): shown unmasked. */
  readonly unlocked = new Set<CalendarEventEntity>();

  clearAll(): this {
    this.relations.clear();
    this.relationsKnown.clear();
    return this;
  }
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
    /** event id -> its venue, organizer and term ids (one statement per page, or read with the page; primes the by-id loaders) */
    calendarLinksByEvent,
    /** event id -> its venue ids, in order */
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
    /** the calendar resolvers' memos of this request's events (relations, password unlocks) */
    calendarEventMemos: new CalendarEventMemos(),
  };
}
