/**
 * Events: single reads (by id, by slug, with WordPress' answers for a missing id, another kind's id, a post the
 * viewer may not see, a trashed one and a password), writes (create with status scale-back, partial update,
 * trash, restore, translate) and the relations a presenter needs (venues, organizers, categories, tags), loaded in
 * batches. The list lives in event-list.ts.
 */
import { EntityManager, In } from 'typeorm';
import {
  CalendarEventEntity,
  CalendarEventOrganizerEntity,
  CalendarEventTermEntity,
  CalendarEventVenueEntity,
  CalendarLanguage,
  CalendarOrganizerEntity,
  CalendarPostStatus,
  CalendarTermEntity,
  CalendarTranslationEntity,
  CalendarVenueEntity,
} from '../../../entities/calendar';
import type { RequestContext } from '../../context';
import { withTransaction } from '../../context';
import { lockedFindOne } from '../../db/transaction';
import { ForbiddenError, GoneError, NotFoundError, ValidationError } from '../../errors/app-error';
import { loadAll } from '../../loaders/loader';
import { INT4_MAX } from '../common/decode';
import { canEditPost, effectiveStatus, notAllowed, postVisible, requireCalendar, restoredStatus } from './access';
import { parseCost } from './cost';
import { invalidParameter } from './error-codes';
import { normalizeEventTimes } from './event-times';
import { parseWhen } from './strtotime';
import { formatYmdHis } from './timezones';
import { CALENDAR_CODES, CALENDAR_MESSAGES } from './error-codes';
import { EventLister, EventListQuery, EventListResult } from './event-list';
import { contentLanguage } from './language';
import { allocatePostId, isPostStatus, postDatesNow, trashedColumns, uniquePostSlug, untrashedSlug } from './posts';
import { recountTerms, termIdsOfEvent } from './term-counts';
import { sanitizeTitle } from './text';
import { applyTranslation, translatedRows, saveTranslation } from './translations';
import type { CalendarOrganizerService } from './organizers.service';
import type { CalendarTermService } from './terms.service';
import type { CalendarVenueService } from './venues.service';

/** What an event write may carry (domain names; every field optional on update). */
export interface EventWrite {
  title?: string;
  startDate?: string;
  endDate?: string;
  author?: number;
  date?: string;
  dateUtc?: string;
  description?: string;
  slug?: string;
  excerpt?: string;
  status?: string;
  timezone?: string;
  allDay?: boolean;
  image?: string | null;
  cost?: string;
  website?: string | null;
  showMap?: boolean;
  showMapLink?: boolean;
  hideFromListings?: boolean;
  sticky?: boolean;
  featured?: boolean;
  /** Ids, slugs or names (missing names are created); [] clears. */
  categories?: Array<number | string>;
  tags?: Array<number | string>;
  /** Venue ids, `{ id }`, or venue fields to create one; [] clears. */
  venue?: Array<number | Record<string, unknown>>;
  organizer?: Array<number | Record<string, unknown>>;
  /** Post password ('' removes it). */
  password?: string;
  postParent?: number | null;
}

/** An event with what presenters and resolvers show next to it (all in the request's language). */
export interface EventRelations {
  venues: CalendarVenueEntity[];
  organizers: CalendarOrganizerEntity[];
  categories: CalendarTermEntity[];
  tags: CalendarTermEntity[];
}

const missing = (fields: string[]) =>
  new ValidationError(`Missing parameter(s): ${fields.map((f) => `{{${f}}}`).join(', ')}`, {
    domainCode: CALENDAR_CODES.MISSING_PARAM,
    namesFields: true,
    fieldErrors: fields.map((f) => ({ resource: 'Event', field: f, code: 'missing', message: `{{${f}}} is a required parameter.` })),
  });

function eventNotFound(id: number): NotFoundError {
  return new NotFoundError(CALENDAR_MESSAGES[CALENDAR_CODES.EVENT_NOT_FOUND].replace('%d', String(id)), { domainCode: CALENDAR_CODES.EVENT_NOT_FOUND });
}

/** A trashed event, read or written (access.ts: the trash is read-only; restore first). */
function noLongerAvailable(): ForbiddenError {
  return new ForbiddenError(CALENDAR_MESSAGES[CALENDAR_CODES.EVENT_NO_LONGER_AVAILABLE], { domainCode: CALENDAR_CODES.EVENT_NO_LONGER_AVAILABLE });
}

function notAnEvent(): ValidationError {
  return new ValidationError(CALENDAR_MESSAGES[CALENDAR_CODES.INVALID_EVENT_ID], { domainCode: CALENDAR_CODES.INVALID_EVENT_ID });
}

function isHttpUrl(s: string): boolean {
  try {
    const u = new URL(s);
    return u.protocol === 'http:' || u.protocol === 'https:';
  } catch {
    return false;
  }
}

/** Text fields of an event write and the most characters each may hold (the columns' sizes; text columns a sane cap). */
const TEXT_LIMITS: Array<[keyof EventWrite & ('title' | 'description' | 'excerpt' | 'slug' | 'cost' | 'image' | 'website' | 'password' | 'timezone' | 'startDate' | 'endDate' | 'date' | 'dateUtc'), number]> = [
  ['title', 10_000],
  ['description', 1_000_000],
  ['excerpt', 100_000],
  ['slug', 200],
  ['cost', 255],
  ['image', 2048],
  ['website', 2048],
  ['password', 255],
  ['timezone', 64],
  ['startDate', 200],
  ['endDate', 200],
  ['date', 200],
  ['dateUtc', 200],
];

export class CalendarEventService {
  private readonly lister: EventLister;

  /** Event writes link terms, venues and organizers through their services. */
  constructor(
    private readonly deps: {
      terms: CalendarTermService;
      venues: CalendarVenueService;
      organizers: CalendarOrganizerService;
    },
  ) {
    this.lister = new EventLister(deps.terms);
  }

  list(ctx: RequestContext, q: EventListQuery): Promise<EventListResult> {
    return this.lister.list(ctx, q);
  }

  /** The stored event (untranslated), or the WordPress answer for an id that is not one. */
  private async stored(ctx: RequestContext, id: number): Promise<CalendarEventEntity> {
    // Ids are int4 columns: a larger (or non-positive) number names no event.
    if (!Number.isSafeInteger(id) || id < 1 || id > INT4_MAX) throw eventNotFound(id);
    const kind = await ctx.loaders.calendarPostKind.load(id);
    if (kind === null) throw eventNotFound(id);
    if (kind !== 'event') throw notAnEvent();
    const e = await ctx.loaders.calendarEventById.load(id);
    if (!e) throw eventNotFound(id);
    return e;
  }

  /** Single read rules: trash → no longer available; not visible → not accessible; password unless allowed. */
  private readable(ctx: RequestContext, e: CalendarEventEntity, password?: string): void {
    if (e.status === 'trash') throw noLongerAvailable();
    if (!postVisible(ctx.viewer, e)) {
      throw new ForbiddenError(CALENDAR_MESSAGES[CALENDAR_CODES.EVENT_NOT_ACCESSIBLE], { domainCode: CALENDAR_CODES.EVENT_NOT_ACCESSIBLE });
    }
    if (e.password && password !== e.password && !canEditPost(ctx.viewer, e)) {
      throw new ForbiddenError(CALENDAR_MESSAGES[CALENDAR_CODES.EVENT_PASSWORD_PROTECTED], { domainCode: CALENDAR_CODES.EVENT_PASSWORD_PROTECTED });
    }
  }

  /** GET /events/{id}: the event in the request's language. */
  async get(ctx: RequestContext, id: number, password?: string): Promise<CalendarEventEntity> {
    const e = await this.stored(ctx, id);
    this.readable(ctx, e, password);
    return (await translatedRows(ctx, 'event', [e], contentLanguage(ctx)))[0];
  }

  /** The event a slug names (in the request's language first, then the original slug); unknown → 400 on `slug`. */
  /**
   * The event a slug names, for reads and writes by slug. WordPress' slug validator only finds what the viewer may
   * read: an unknown slug, and the slug of an event the viewer may not see (a draft, the trash), are both 400 on
   * `slug` (so writes by slug tell nothing about drafts either).
   */
  async idBySlug(ctx: RequestContext, slug: string): Promise<number> {
    if (typeof slug !== 'string' || slug.length > 200 || slug.includes('\u0000')) throw invalidParameter('slug');
    const language = contentLanguage(ctx);
    let id: number | undefined;
    if (language) {
      const t = await ctx.db.getRepository(CalendarTranslationEntity).findOne({ where: { kind: 'event', language, slug } });
      if (t) id = t.objectId;
    }
    if (id === undefined) {
      const row = await ctx.db.getRepository(CalendarEventEntity).findOne({ where: { slug }, select: { id: true } });
      if (!row) throw invalidParameter('slug');
      id = row.id;
    }
    const e = await ctx.loaders.calendarEventById.load(id);
    if (!e || e.status === 'trash' || !postVisible(ctx.viewer, e)) throw invalidParameter('slug');
    return id;
  }

  async getBySlug(ctx: RequestContext, slug: string, password?: string): Promise<CalendarEventEntity> {
    const id = await this.idBySlug(ctx, slug);
    return this.get(ctx, id, password);
  }

  /** Should lists show this event masked (password-protected and the viewer may not edit it)? */
  masked(ctx: RequestContext, e: CalendarEventEntity): boolean {
    return Boolean(e.password) && !canEditPost(ctx.viewer, e);
  }

  /** Venues, organizers, categories and tags of each event, in the request's language; only what the viewer may see. */
  async relations(ctx: RequestContext, events: readonly CalendarEventEntity[]): Promise<EventRelations[]> {
    const ids = events.map((e) => e.id);
    const l = ctx.loaders;
    // A page read with its links (primeEventLinks) has every link and linked row in its loaders already: they are
    // taken as they are, without a promise per key.
    const links = l.calendarLinksByEvent.peekMany(ids);
    const [venueIds, organizerIds, termIds] = links
      ? [links.map((x) => x.venues), links.map((x) => x.organizers), links.map((x) => x.terms)]
      : await Promise.all([loadAll(l.calendarVenueIdsByEvent, ids), loadAll(l.calendarOrganizerIdsByEvent, ids), loadAll(l.calendarTermIdsByEvent, ids)]);
    const language = contentLanguage(ctx);
    const uniq = (lists: number[][]) => [...new Set(lists.flat())];
    const [vIds, oIds, tIds] = [uniq(venueIds), uniq(organizerIds), uniq(termIds)];
    const [kv, ko, kt] = [l.calendarVenueById.peekMany(vIds), l.calendarOrganizerById.peekMany(oIds), l.calendarTermById.peekMany(tIds)];
    const [venues, organizers, terms] =
      kv && ko && kt
        ? [kv, ko, kt]
        : await Promise.all([loadAll(l.calendarVenueById, vIds), loadAll(l.calendarOrganizerById, oIds), loadAll(l.calendarTermById, tIds)]);
    const visibleVenues = venues.filter((v): v is CalendarVenueEntity => v !== null && postVisible(ctx.viewer, v));
    const visibleOrganizers = organizers.filter((o): o is CalendarOrganizerEntity => o !== null && postVisible(ctx.viewer, o));
    const [tv, to, tt] = await Promise.all([
      translatedRows(ctx, 'venue', visibleVenues, language),
      translatedRows(ctx, 'organizer', visibleOrganizers, language),
      this.deps.terms.translated(ctx, terms.filter((t): t is CalendarTermEntity => t !== null), language),
    ]);
    const venueById = new Map(tv.map((v) => [v.id, v]));
    const organizerById = new Map(to.map((o) => [o.id, o]));
    const termById = new Map(tt.map((t) => [t.id, t]));
    return events.map((_, i) => {
      const ts = termIds[i].map((id) => termById.get(id)).filter((t): t is CalendarTermEntity => t !== undefined);
      ts.sort((a, b) => a.name.localeCompare(b.name) || a.id - b.id);
      return {
        venues: venueIds[i].map((id) => venueById.get(id)).filter((v): v is CalendarVenueEntity => v !== undefined),
        organizers: organizerIds[i].map((id) => organizerById.get(id)).filter((o): o is CalendarOrganizerEntity => o !== undefined),
        categories: ts.filter((t) => t.taxonomy === 'category'),
        tags: ts.filter((t) => t.taxonomy === 'tag'),
      };
    });
  }

  // ---- writes ----

  /** Field checks shared by create and update (before any permission check, as WordPress orders them). */
  private validate(input: EventWrite): void {
    // Every text reaches a column: no NUL (PostgreSQL refuses it), within the column's size.
    for (const [field, max] of TEXT_LIMITS) {
      const v = input[field];
      if (v === undefined || v === null) continue;
      if (typeof v !== 'string' || v.length > max || v.includes('\u0000')) throw invalidParameter(field);
    }
    // The trash is reached by deleting (it keeps the status to restore and frees the slug), never by a status.
    if (input.status !== undefined && (!isPostStatus(input.status) || input.status === 'trash')) throw invalidParameter('status');
    if (input.website !== undefined && input.website !== null && input.website !== '' && !isHttpUrl(input.website)) throw invalidParameter('website');
    if (input.image !== undefined && input.image !== null && input.image !== '' && !isHttpUrl(input.image)) throw invalidParameter('image');
    if (input.title !== undefined && typeof input.title !== 'string') throw invalidParameter('title');
    if (input.slug !== undefined && input.slug !== '' && sanitizeTitle(input.slug) === '') throw invalidParameter('slug');
  }

  async create(ctx: RequestContext, input: EventWrite): Promise<CalendarEventEntity> {
    const absent = (['title', 'startDate', 'endDate'] as const).filter((f) => input[f] === undefined || input[f] === null);
    if (absent.length) throw missing(absent);
    this.validate(input);
    const siteTz = ctx.config.calendarTimezone;
    const times = normalizeEventTimes({ start: input.startDate!, end: input.endDate!, timezone: input.timezone, allDay: input.allDay }, { siteTz, now: ctx.config.now() });
    const postDate = this.postDate(ctx, input);
    requireCalendar(ctx.viewer, 'calendar.create');
    const viewerId = ctx.viewer.kind === 'user' ? ctx.viewer.user.id : null;
    const authorId = input.author ?? viewerId;
    if (input.author !== undefined && input.author !== viewerId) await this.requireOtherAuthor(ctx, input.author);
    const language = contentLanguage(ctx);
    const id = await withTransaction(ctx, async (tx) => {
      const id = await allocatePostId(tx.db, 'event');
      const dates = postDatesNow(tx);
      const status = effectiveStatus(tx.viewer, input.status as CalendarPostStatus | undefined, authorId);
      const base = sanitizeTitle(input.slug || input.title!) || String(id);
      const slug = await uniquePostSlug(tx.db, 'event', base, id, language);
      const cost = parseCost(input.cost ?? '');
      const e = tx.db.getRepository(CalendarEventEntity).create({
        id,
        authorId,
        status,
        statusBeforeTrash: null,
        title: input.title!,
        description: input.description ?? '',
        excerpt: input.excerpt ?? '',
        slug,
        password: input.password ? input.password : null,
        dateLocal: postDate?.local ?? dates.dateLocal,
        dateUtc: postDate ? postDate.utc : status === 'draft' || status === 'pending' ? null : dates.dateUtc,
        modifiedAt: dates.modifiedAt,
        image: input.image || null,
        startLocal: times.startLocal,
        endLocal: times.endLocal,
        startUtc: times.startUtc,
        endUtc: times.endUtc,
        timezone: times.timezone,
        allDay: input.allDay ?? false,
        cost: input.cost ?? '',
        costValues: cost.values.length ? cost.values : null,
        currencySymbol: cost.currencySymbol,
        currencyCode: cost.currencyCode,
        currencyPosition: cost.currencyPosition,
        website: input.website || null,
        showMap: input.showMap ?? true,
        showMapLink: input.showMapLink ?? true,
        hideFromListings: input.hideFromListings ?? false,
        sticky: input.sticky ?? false,
        featured: input.featured ?? false,
        postParentId: input.postParent ?? null,
        originIds: null,
      });
      await tx.db.getRepository(CalendarEventEntity).insert(e);
      await this.writeLinks(tx, id, input);
      await recountTerms(tx.db, await termIdsOfEvent(tx.db, id));
      if (language) await saveTranslation(tx.db, 'event', id, language, { title: input.title, description: input.description, excerpt: input.excerpt, slug });
      return id;
    });
    return this.afterWrite(ctx, id);
  }

  async update(ctx: RequestContext, id: number, input: EventWrite, password?: string): Promise<CalendarEventEntity> {
    this.validate(input);
    const current = await this.stored(ctx, id);
    if (!canEditPost(ctx.viewer, current)) throw notAllowed(ctx.viewer);
    if (input.author !== undefined && input.author !== (ctx.viewer.kind === 'user' ? ctx.viewer.user.id : null)) await this.requireOtherAuthor(ctx, input.author);
    void password; // editors read protected events without the password; the route may still send it
    const language = contentLanguage(ctx);
    const siteTz = ctx.config.calendarTimezone;
    const postDate = this.postDate(ctx, input);
    await withTransaction(ctx, async (tx) => {
      const e = await lockedFindOne(tx.db, CalendarEventEntity, { id });
      if (!e) throw eventNotFound(id);
      if (!canEditPost(tx.viewer, e)) throw notAllowed(tx.viewer);
      if (e.status === 'trash') throw noLongerAvailable();
      const patch: Partial<CalendarEventEntity> = {};
      if (input.startDate !== undefined || input.endDate !== undefined || input.timezone !== undefined || input.allDay !== undefined) {
        const times = normalizeEventTimes(
          {
            start: input.startDate ?? e.startLocal,
            end: input.endDate ?? e.endLocal,
            timezone: input.timezone ?? e.timezone,
            allDay: input.allDay ?? e.allDay,
          },
          { siteTz, now: ctx.config.now() },
        );
        Object.assign(patch, { startLocal: times.startLocal, endLocal: times.endLocal, startUtc: times.startUtc, endUtc: times.endUtc, timezone: times.timezone });
        if (input.allDay !== undefined) patch.allDay = input.allDay;
      }
      if (input.status !== undefined) patch.status = effectiveStatus(tx.viewer, input.status as CalendarPostStatus, e.authorId, e.status);
      if (input.author !== undefined) patch.authorId = input.author;
      if (postDate) {
        patch.dateLocal = postDate.local;
        patch.dateUtc = postDate.utc;
      }
      if (input.image !== undefined) patch.image = input.image || null;
      if (input.cost !== undefined) {
        const c = parseCost(input.cost);
        Object.assign(patch, { cost: input.cost, costValues: c.values.length ? c.values : null, currencySymbol: c.currencySymbol, currencyCode: c.currencyCode, currencyPosition: c.currencyPosition });
      }
      if (input.website !== undefined) patch.website = input.website || null;
      for (const k of ['showMap', 'showMapLink', 'hideFromListings', 'sticky', 'featured'] as const) if (input[k] !== undefined) patch[k] = input[k];
      if (input.password !== undefined) patch.password = input.password || null;
      if (input.postParent !== undefined) patch.postParentId = input.postParent;
      let slug: string | undefined;
      if (input.slug !== undefined && input.slug !== '') {
        slug = await uniquePostSlug(tx.db, 'event', sanitizeTitle(input.slug), id, language);
      }
      if (language) {
        await saveTranslation(tx.db, 'event', id, language, { title: input.title, description: input.description, excerpt: input.excerpt, slug });
      } else {
        if (input.title !== undefined) patch.title = input.title;
        if (input.description !== undefined) patch.description = input.description;
        if (input.excerpt !== undefined) patch.excerpt = input.excerpt;
        if (slug !== undefined) patch.slug = slug;
      }
      patch.modifiedAt = postDatesNow(tx).modifiedAt;
      await tx.db.getRepository(CalendarEventEntity).update({ id }, patch);
      const before = await termIdsOfEvent(tx.db, id);
      await this.writeLinks(tx, id, input);
      await recountTerms(tx.db, [...before, ...(await termIdsOfEvent(tx.db, id))]);
    });
    return this.afterWrite(ctx, id);
  }

  /** DELETE: to the trash (200 with the trashed event); already there → 410. */
  async trash(ctx: RequestContext, id: number): Promise<CalendarEventEntity> {
    const current = await this.stored(ctx, id);
    requireCalendar(ctx.viewer, 'calendar.delete', current);
    await withTransaction(ctx, async (tx) => {
      const e = await lockedFindOne(tx.db, CalendarEventEntity, { id });
      if (!e) throw eventNotFound(id);
      requireCalendar(tx.viewer, 'calendar.delete', e);
      if (e.status === 'trash') throw new GoneError(CALENDAR_MESSAGES[CALENDAR_CODES.EVENT_IS_IN_TRASH], { domainCode: CALENDAR_CODES.EVENT_IS_IN_TRASH });
      await tx.db.getRepository(CalendarEventEntity).update({ id }, { ...trashedColumns(e), modifiedAt: postDatesNow(tx).modifiedAt });
      await recountTerms(tx.db, await termIdsOfEvent(tx.db, id));
    });
    ctx.loaders.calendarEventById.clear(id);
    const e = (await ctx.loaders.calendarEventById.load(id))!;
    return (await translatedRows(ctx, 'event', [e], contentLanguage(ctx)))[0];
  }

  /** Out of the trash, to the status it had (GraphQL restoreEvent). */
  async restore(ctx: RequestContext, id: number): Promise<CalendarEventEntity> {
    const current = await this.stored(ctx, id);
    requireCalendar(ctx.viewer, 'calendar.delete', current);
    await withTransaction(ctx, async (tx) => {
      const e = await lockedFindOne(tx.db, CalendarEventEntity, { id });
      if (!e) throw eventNotFound(id);
      requireCalendar(tx.viewer, 'calendar.delete', e);
      if (e.status !== 'trash') return;
      const slug = await uniquePostSlug(tx.db, 'event', untrashedSlug(e.slug), id);
      const status = restoredStatus(tx.viewer, e);
      await tx.db.getRepository(CalendarEventEntity).update({ id }, { status, statusBeforeTrash: null, slug, modifiedAt: postDatesNow(tx).modifiedAt });
      await recountTerms(tx.db, await termIdsOfEvent(tx.db, id));
    });
    return this.afterWrite(ctx, id);
  }

  /** Store the event's content in one language (GraphQL translateEvent). */
  async translate(ctx: RequestContext, id: number, language: CalendarLanguage, content: { title?: string; description?: string; excerpt?: string; slug?: string }): Promise<CalendarEventEntity> {
    return this.update({ ...ctx, language }, id, content);
  }

  /** The event as the writer sees it after a write (fresh from the database). */
  private async afterWrite(ctx: RequestContext, id: number): Promise<CalendarEventEntity> {
    ctx.loaders.calendarEventById.clear(id);
    const e = await ctx.loaders.calendarEventById.load(id);
    if (!e) throw eventNotFound(id);
    const language = contentLanguage(ctx);
    if (!language) return e;
    const t = await ctx.loaders.calendarTranslation.load(`event:${language}:${id}`);
    return applyTranslation(e, t);
  }

  private postDate(ctx: RequestContext, input: EventWrite): { local: string; utc: Date } | undefined {
    const siteTz = ctx.config.calendarTimezone;
    const now = ctx.config.now();
    if (input.dateUtc !== undefined && input.dateUtc !== '') {
      const at = parseWhen(input.dateUtc, { tz: 'UTC', now });
      if (!at) throw invalidParameter('dateUtc');
      return { local: formatYmdHis(at, siteTz), utc: at };
    }
    if (input.date !== undefined && input.date !== '') {
      const at = parseWhen(input.date, { tz: siteTz, now });
      if (!at) throw invalidParameter('date');
      return { local: formatYmdHis(at, siteTz), utc: at };
    }
    return undefined;
  }

  /** Writing as another author needs edit_others_posts, and the author must be a user. */
  private async requireOtherAuthor(ctx: RequestContext, authorId: number): Promise<void> {
    const user = await ctx.loaders.accountById.load(authorId);
    if (!user || user.type !== 'User') throw invalidParameter('author');
    if (!canEditPost(ctx.viewer, { status: 'draft', authorId })) throw notAllowed(ctx.viewer);
  }

  /** Replace the links the input names (categories, tags, venue, organizer); absent lists are left as they are. */
  private async writeLinks(tx: RequestContext, eventId: number, input: EventWrite): Promise<void> {
    const db = tx.db;
    if (input.categories !== undefined || input.tags !== undefined) {
      const keep = input.categories === undefined ? 'category' : input.tags === undefined ? 'tag' : null;
      const termIds: number[] = [];
      if (input.categories !== undefined) termIds.push(...(await this.deps.terms.termIdsForEventWrite(tx, 'category', input.categories, () => invalidParameter('categories'))));
      if (input.tags !== undefined) termIds.push(...(await this.deps.terms.termIdsForEventWrite(tx, 'tag', input.tags, () => invalidParameter('tags'))));
      const existing = await db.getRepository(CalendarEventTermEntity).find({ where: { eventId } });
      const kept: number[] = [];
      if (keep) {
        const terms = existing.length ? await db.getRepository(CalendarTermEntity).findBy({ id: In(existing.map((l) => l.termId)) }) : [];
        kept.push(...terms.filter((t) => t.taxonomy === keep).map((t) => t.id));
      }
      await db.getRepository(CalendarEventTermEntity).delete({ eventId });
      const all = [...new Set([...kept, ...termIds])];
      if (all.length) await db.getRepository(CalendarEventTermEntity).insert(all.map((termId) => ({ eventId, termId })));
    }
    if (input.venue !== undefined) {
      const ids = await this.linkedPosts(tx, 'venue', input.venue);
      await db.getRepository(CalendarEventVenueEntity).delete({ eventId });
      if (ids.length) await db.getRepository(CalendarEventVenueEntity).insert(ids.map((venueId, position) => ({ eventId, venueId, position })));
    }
    if (input.organizer !== undefined) {
      const ids = await this.linkedPosts(tx, 'organizer', input.organizer);
      await db.getRepository(CalendarEventOrganizerEntity).delete({ eventId });
      if (ids.length) await db.getRepository(CalendarEventOrganizerEntity).insert(ids.map((organizerId, position) => ({ eventId, organizerId, position })));
    }
  }

  /** Venue/organizer references of a write: ids or `{ id }` must name one; objects with fields find or create one. */
  private async linkedPosts(tx: RequestContext, kind: 'venue' | 'organizer', values: Array<number | Record<string, unknown>>): Promise<number[]> {
    const out: number[] = [];
    for (const v of values) {
      let id: number | undefined;
      if (typeof v === 'number') id = v;
      else if (v && typeof v === 'object' && 'id' in v) {
        const raw = (v as { id: unknown }).id;
        id = typeof raw === 'number' ? raw : typeof raw === 'string' && /^\d+$/.test(raw) ? Number(raw) : -1;
      }
      if (id !== undefined) {
        const k = Number.isSafeInteger(id) && id > 0 && id <= INT4_MAX ? await tx.loaders.calendarPostKind.load(id) : null;
        if (k !== kind) throw new ValidationError(CALENDAR_MESSAGES[CALENDAR_CODES.INVALID_LINKED_POST_ID], { domainCode: CALENDAR_CODES.INVALID_LINKED_POST_ID });
        out.push(id);
        continue;
      }
      const service = kind === 'venue' ? this.deps.venues : this.deps.organizers;
      out.push((await service.findOrCreateForEvent(tx, tx, v as never)).id);
    }
    return [...new Set(out)];
  }
}
