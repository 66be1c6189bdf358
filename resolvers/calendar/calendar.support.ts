/**
 * What the calendar resolvers share: the per-field language (the `language` argument reads and writes in that
 * language, and everything reached from a value read in it stays in it), offset cursors over the services'
 * page/perPage paging, id arguments (global ids or database ids), and the request's memos (relations primed by the
 * list resolvers, events unlocked by their password), which live on its loaders.
 */
import { CalendarVenueEntity } from '../../entities/calendar';
import type { CalendarEventEntity, CalendarLanguage, CalendarOrganizerEntity } from '../../entities/calendar';
import type { RequestContext } from '../../src/context';
import { NotFoundError, quoteInput, ValidationError } from '../../src/errors/app-error';
import { REQUEST_CODES } from '../../src/errors/codes';
import type { EventRelations } from '../../src/services/calendar/events.service';
import { parseInteger, POSITIVE_INT4 } from '../../src/services/common/decode';
import { decodeCursor, encodeCursor } from '../../src/services/common/pagination';
import type { ConnectionShape } from '../common/connection';
import { toConnection } from '../common/connection';
import { fromGlobalId } from '../common/global-id';

// ------------------------------------------------------------------ language

/**
 * The language each value was read in, kept on the value itself under a symbol (absent: the request's). Values are
 * the request's own objects (loaders are per request; translated values are copies), and a symbol property is
 * invisible to JSON and key listing; cheaper than a WeakMap entry per value.
 */
const LANGUAGE = Symbol('calendar.readIn');
type Tagged = { [LANGUAGE]?: CalendarLanguage | null };

/** The context of a field that chose `language` (the request's when it did not). */
export function contextIn(ctx: RequestContext, language: CalendarLanguage | null | undefined): RequestContext {
  return language ? { ...ctx, language } : ctx;
}

/** Remember the language values were read in, so their own fields read related data in it too. */
export function readIn<T extends object>(ctx: RequestContext, values: T): T;
export function readIn<T extends object>(ctx: RequestContext, values: T[]): T[];
export function readIn<T extends object>(ctx: RequestContext, values: T | T[]): T | T[] {
  const language = ctx.language ?? null;
  if (Array.isArray(values)) for (let i = 0; i < values.length; i++) (values[i] as Tagged)[LANGUAGE] = language;
  else (values as Tagged)[LANGUAGE] = language;
  return values;
}

/** The context to resolve `root`'s fields in: the language it was read in. */
export function ctxOf(ctx: RequestContext, root: object): RequestContext {
  const tagged = (root as Tagged)[LANGUAGE];
  if (tagged === undefined) return ctx;
  const language = tagged ?? undefined;
  return language === ctx.language ? ctx : { ...ctx, language };
}

// ------------------------------------------------------------------ memos

// Kept on the request's loaders (ctx.loaders.calendarEventMemos, src/loaders/calendar.ts): they end with the request.

/** Related values keep the language their event was read in (their own fields read further in it). */
function tagRelations(ctx: RequestContext, rel: EventRelations): EventRelations {
  for (const list of [rel.venues, rel.organizers, rel.categories, rel.tags]) readIn(ctx, list as object[]);
  return rel;
}

/**
 * Load the relations of a page of events in one batch, for their fields. Resolves (never rejects) once they are
 * loaded: a list resolver that waits for it lets every relation field of the page answer synchronously; a failure
 * is seen by the fields that ask, as before.
 */
export function primeRelations(ctx: RequestContext, events: CalendarEventEntity[]): Promise<void> {
  if (events.length === 0) return Promise.resolve();
  const memos = ctx.loaders.calendarEventMemos;
  const all = ctx.services.calendarEvents.relations(ctx, events).then((rels) => rels.map((rel) => tagRelations(ctx, rel)));
  all.catch(() => undefined); // masked events never await theirs; the fields that do see the error
  events.forEach((e, i) => {
    const one = all.then((r) => r[i]);
    // Fields may never await it (masked events, @skip): a failure is seen by the fields that do, never unhandled.
    one.catch(() => undefined);
    memos.relations.set(e, one);
  });
  return all.then(
    (rels) => events.forEach((e, i) => memos.relationsKnown.set(e, rels[i])),
    () => undefined,
  );
}

/** `f` of an event's relations: at once when they are loaded (a primed page), else once they are. */
export function withRelations<T>(ctx: RequestContext, e: CalendarEventEntity, f: (r: EventRelations) => T): T | Promise<T> {
  const known = ctx.loaders.calendarEventMemos.relationsKnown.get(e);
  return known !== undefined ? f(known) : relationsOf(ctx, e).then(f);
}

export function relationsOf(ctx: RequestContext, e: CalendarEventEntity): Promise<EventRelations> {
  const memos = ctx.loaders.calendarEventMemos;
  let p = memos.relations.get(e);
  if (!p) {
    const c = ctxOf(ctx, e);
    p = c.services.calendarEvents.relations(c, [e]).then((r) => {
      const rel = tagRelations(c, r[0]);
      memos.relationsKnown.set(e, rel);
      return rel;
    });
    memos.relations.set(e, p);
  }
  return p;
}

/** Mark an event read with its password (or by someone who may edit it): shown whole for the rest of the request. */
export function unlock(ctx: RequestContext, e: CalendarEventEntity): CalendarEventEntity {
  ctx.loaders.calendarEventMemos.unlocked.add(e);
  return e;
}

/** Shown masked (§1.5): password-protected, not read with the password, and the viewer may not edit it. */
export function eventMasked(ctx: RequestContext, e: CalendarEventEntity): boolean {
  return !ctx.loaders.calendarEventMemos.unlocked.has(e) && ctx.services.calendarEvents.masked(ctx, e);
}

// ------------------------------------------------------------------ ids

function invalidId(value: string): ValidationError {
  return new ValidationError(`Could not resolve to a node with the global id of ${quoteInput(value)}`, { domainCode: REQUEST_CODES.INVALID_GLOBAL_ID });
}

/** A database id from an id argument: the type's global id or the database id itself (digits). */
export function databaseIdOf(typeName: string, value: string): number {
  const direct = /^[0-9]+$/.test(value) ? parseInteger(value, POSITIVE_INT4, { canonical: true }) : undefined;
  if (direct !== undefined) return direct;
  const parsed = fromGlobalId(value);
  if (!parsed || parsed.typeName !== typeName) throw invalidId(value);
  const id = parseInteger(parsed.id, POSITIVE_INT4, { canonical: true });
  if (id === undefined) throw invalidId(value);
  return id;
}

// ------------------------------------------------------------------ offset cursors

export const DEFAULT_FIRST = 10;
/** Offsets past this are no cursor this server wrote (lists are capped far below). */
const MAX_OFFSET = 10_000_000;

function invalidCursor(): ValidationError {
  return new ValidationError('`after` is not a valid cursor', { domainCode: REQUEST_CODES.INVALID_CURSOR });
}

export function offsetCursor(offset: number): string {
  return encodeCursor('offset', offset);
}

export function decodeOffsetCursor(cursor: string): number {
  let pair: [unknown, unknown];
  try {
    pair = decodeCursor(cursor, 'after');
  } catch {
    throw invalidCursor();
  }
  const [kind, n] = pair;
  if (kind !== 'offset' || typeof n !== 'number' || !Number.isSafeInteger(n) || n < 0 || n > MAX_OFFSET) throw invalidCursor();
  return n;
}

/**
 * The smallest page size ≥ `first` whose one page holds all of [offset, offset + first): the services page by
 * page/perPage, a cursor may point anywhere.
 */
export function pageFor(offset: number, first: number): { page: number; perPage: number; skip: number } {
  let perPage = first;
  while ((offset % perPage) + first > perPage) perPage += 1;
  const page = Math.floor(offset / perPage) + 1;
  return { page, perPage, skip: offset - (page - 1) * perPage };
}

export type PageFetch<T> = (page: number, perPage: number) => Promise<{ items: T[]; total: number }>;

/**
 * A connection over a page/perPage service list. `first` (default 10, at most 50 by the args' validation) items
 * after the cursor's offset; a page past the end (the services' archive 404) is an empty page.
 */
export async function offsetConnection<T extends object>(args: { first?: number | null; after?: string | null }, fetch: PageFetch<T>): Promise<ConnectionShape<T>> {
  const first = args.first ?? DEFAULT_FIRST;
  const offset = args.after ? decodeOffsetCursor(args.after) + 1 : 0;
  let items: T[] = [];
  let total: number | undefined;
  if (first > 0) {
    const { page, perPage, skip } = pageFor(offset, first);
    try {
      const r = await fetch(page, perPage);
      total = r.total;
      items = r.items.slice(skip, skip + first);
    } catch (e) {
      if (!(e instanceof NotFoundError && page > 1)) throw e;
    }
  }
  if (total === undefined) total = (await fetch(1, 1)).total;
  const index = new Map<T, number>(items.map((item, i) => [item, offset + i]));
  const known = total;
  return toConnection({
    items,
    hasNextPage: offset + items.length < known,
    hasPreviousPage: offset > 0,
    cursorOf: (item) => offsetCursor(index.get(item)!),
    totalCount: () => Promise.resolve(known),
  });
}

// ------------------------------------------------------------------ venues and organizers

type Linked = CalendarVenueEntity | CalendarOrganizerEntity;

/** true when the viewer may not read the venue's or organizer's details (its services' rule). */
export function linkedMasked(ctx: RequestContext, p: Linked): boolean {
  return p instanceof CalendarVenueEntity ? ctx.services.calendarVenues.mustMask(ctx.viewer, p) : ctx.services.calendarOrganizers.mustMask(ctx.viewer, p);
}

export function linkedText(ctx: RequestContext, p: Linked, value: string): string {
  return linkedMasked(ctx, p) ? '' : value;
}
