/**
 * GET /events (and GraphQL `events`, the .ics feed): the plugin's list semantics in one place (reference §3).
 * Filters are decoded and checked here (dates, statuses by who asks, terms/venues/organizers that must exist),
 * then one page statement and one count statement run with the same WHERE.
 *
 * Visibility comes from access.ts (`listVisibility`); events hidden from listings never list, for anyone.
 */
import { CalendarEventEntity, CalendarPostStatus } from '../../../entities/calendar';
import type { RequestContext } from '../../context';
import { entityColumns, queryRows } from '../../db/rows';
import { eventLinksSql, primeEventLinks } from '../../loaders/calendar';
import { isPostgres } from '../../db/transaction';
import { NotFoundError, ValidationError } from '../../errors/app-error';
import { INT4_MAX } from '../common/decode';
import { canEditSomePosts, listVisibility, visibilitySql } from './access';
import { invalidParameter } from './error-codes';
import { eventDateWindow, EventDateWindow } from './list-window';
import { CALENDAR_CODES, CALENDAR_MESSAGES } from './error-codes';
import { contentLanguage } from './language';
import { isPostStatus } from './posts';
import { likePattern, searchTerms } from './search';
import { MAX_FILTER_VALUES } from './filter-bounds';
import { originalCategorySlugs, type CalendarTermService } from './terms.service';
import { translatedRows } from './translations';

export interface EventListQuery {
  page: number;
  perPage: number;
  startDate?: string;
  endDate?: string;
  startsBefore?: string;
  startsAfter?: string;
  endsBefore?: string;
  endsAfter?: string;
  strictDates?: boolean;
  search?: string;
  /** Category ids, slugs or names (any one matches; child categories included). */
  categories?: string[];
  /** Tag ids, slugs or names (any one matches). */
  tags?: string[];
  venue?: number[];
  organizer?: number[];
  featured?: boolean;
  /** Statuses asked for; undefined = the default for the viewer. */
  status?: string[];
  /** Only events whose venue is geocoded. */
  geoloc?: boolean;
  geolocLat?: number;
  geolocLng?: number;
  /** Radius around geolocLat/geolocLng (default 25 km, The Events Calendar Pro's default geofence). */
  radiusKm?: number;
  include?: number[];
  postParent?: number;
  ticketed?: boolean;
  /** GraphQL `orderBy`; REST always lists by start date ascending (or post date with `include`). */
  orderBy?: EventOrder;
  /**
   * Read the page's links (venues, organizers, terms) with it, for the request's loaders (default true): false when
   * the caller shows none of them (a GraphQL selection without relation fields).
   */
  withLinks?: boolean;
}

export const EVENT_ORDER_FIELDS = ['startDate', 'endDate', 'date', 'title'] as const;
export type EventOrderField = (typeof EVENT_ORDER_FIELDS)[number];
export interface EventOrder {
  field: EventOrderField;
  direction: 'asc' | 'desc';
}

const ORDER_COLUMN: Record<EventOrderField, string> = { startDate: 'e.start_local', endDate: 'e.end_local', date: 'e.date_local', title: 'e.title' };

export interface EventListResult {
  items: CalendarEventEntity[];
  total: number;
  /** The date bounds that applied (site-local wall clock), for rest_url. */
  window: EventDateWindow;
  /** The statuses that applied (explicit or the viewer's default). */
  status: string[] | undefined;
}

/** The Events Calendar Pro's default geofence radius (km) when a point is given without a radius. */
export const DEFAULT_GEOFENCE_KM = 25;

const EARTH_KM = 6371.0088;

export function distanceKm(lat1: number, lng1: number, lat2: number, lng2: number): number {
  const rad = Math.PI / 180;
  const dLat = (lat2 - lat1) * rad;
  const dLng = (lng2 - lng1) * rad;
  const a = Math.sin(dLat / 2) ** 2 + Math.cos(lat1 * rad) * Math.cos(lat2 * rad) * Math.sin(dLng / 2) ** 2;
  return 2 * EARTH_KM * Math.asin(Math.min(1, Math.sqrt(a)));
}


/** A value an id column can hold (int4, positive). */
function isPostId(v: unknown): v is number {
  return typeof v === 'number' && Number.isSafeInteger(v) && v >= 1 && v <= INT4_MAX;
}

function placeholders(n: number): string {
  return new Array(n).fill('?').join(', ');
}

/** The statuses a listing covers for this viewer: anonymous callers may ask only `publish`; others any registered status but `any`. */
export function listStatuses(ctx: RequestContext, asked: string[] | undefined, field = 'status'): CalendarPostStatus[] | undefined {
  if (asked === undefined || asked.length === 0) return canEditSomePosts(ctx.viewer) ? undefined : ['publish'];
  for (const s of asked) {
    if (!isPostStatus(s)) throw invalidParameter(field);
    if (s !== 'publish' && !canEditSomePosts(ctx.viewer)) throw invalidParameter(field);
  }
  return [...new Set(asked)] as CalendarPostStatus[];
}

export class EventLister {
  constructor(private readonly terms: CalendarTermService) {}

  /**
   * The page and the total of a GET /events query. A `categories` filter of original slugs only (the usual
   * request) is folded into the page statement (the category subtree as a recursive CTE, and how many of the slugs
   * name a category): one statement fewer. When that cannot stand for the general lookup (a value that is not an
   * original category slug, or an empty page, which says nothing about the slugs), or anything fails, the query
   * runs again the general way, which also answers errors in their usual order.
   */
  async list(ctx: RequestContext, q: EventListQuery): Promise<EventListResult> {
    const slugs = originalCategorySlugs(ctx, q.categories);
    if (slugs) {
      try {
        const folded = await this.listOnce(ctx, q, slugs);
        if (folded) return folded;
      } catch {
        // Answered below, in the general order.
      }
    }
    return (await this.listOnce(ctx, q, undefined))!;
  }

  private async listOnce(ctx: RequestContext, q: EventListQuery, foldedSlugs: string[] | undefined): Promise<EventListResult | undefined> {
    if (q.ticketed === true) {
      throw new ValidationError('Invalid parameter(s): {{ticketed}}', {
        namesFields: true,
        fieldErrors: [{ resource: 'Event', field: 'ticketed', code: 'invalid', message: 'Event Tickets plugin is not activated.' }],
      });
    }
    if ((q.geolocLat === undefined) !== (q.geolocLng === undefined)) {
      throw invalidParameter(q.geolocLat === undefined ? 'geolocLat' : 'geolocLng');
    }
    for (const [field, ids] of [['include', q.include], ['venue', q.venue], ['organizer', q.organizer], ['postParent', q.postParent === undefined ? undefined : [q.postParent]]] as const) {
      if (ids && (ids.length > MAX_FILTER_VALUES || !ids.every(isPostId))) throw invalidParameter(field);
    }
    // Each category/tag value may cost a lookup: a bounded list keeps one request's work bounded.
    for (const [field, values] of [['categories', q.categories], ['tags', q.tags]] as const) {
      if (values && values.length > MAX_FILTER_VALUES) throw invalidParameter(field);
    }
    if (q.search !== undefined && (typeof q.search !== 'string' || q.search.includes('\u0000'))) throw invalidParameter('search');
    const now = ctx.config.now();
    const include = q.include !== undefined && q.include.length > 0;
    const window = eventDateWindow(
      {
        startDate: q.startDate,
        endDate: q.endDate,
        startsBefore: q.startsBefore,
        startsAfter: q.startsAfter,
        endsBefore: q.endsBefore,
        endsAfter: q.endsAfter,
        strictDates: q.strictDates ?? false,
        include,
      },
      { siteTz: ctx.config.calendarTimezone, now },
    );
    const status = listStatuses(ctx, q.status);
    const language = contentLanguage(ctx);
    const where: string[] = [];
    const params: unknown[] = [];
    const pg = isPostgres(ctx.db);
    const FALSE = pg ? 'false' : '0';
    const TRUE = pg ? 'true' : '1';

    // Visibility (access.ts), then the listing rules.
    const vis = listVisibility(ctx.viewer);
    const visible = visibilitySql(ctx.viewer, 'e');
    where.push(visible.sql);
    params.push(...visible.params);
    where.push(`e.hide_from_listings = ${FALSE}`);
    if (status) {
      where.push(`e.status IN (${placeholders(status.length)})`);
      params.push(...status);
    }
    const bound = (sql: string, v: string | undefined) => {
      if (v === undefined) return;
      where.push(sql);
      params.push(v);
    };
    bound('e.start_local >= ?', window.startsOnOrAfter);
    bound('e.end_local <= ?', window.endsOnOrBefore);
    bound('e.start_local < ?', window.startsBefore);
    bound('e.start_local > ?', window.startsAfter);
    bound('e.end_local < ?', window.endsBefore);
    // An event never ends before it starts (writes keep end ≥ start), so an upper bound on the end bounds the start
    // too: said explicitly, the start index scans only the window instead of everything after its start.
    bound('e.start_local <= ?', window.endsOnOrBefore);
    bound('e.start_local < ?', window.endsBefore);
    bound('e.end_local > ?', window.endsAfter);
    if (q.featured !== undefined) where.push(`e.featured = ${q.featured ? TRUE : FALSE}`);
    if (include) {
      where.push(`e.id IN (${placeholders(q.include!.length)})`);
      params.push(...q.include!);
    }
    if (q.postParent !== undefined) {
      if ((await ctx.loaders.calendarPostKind.load(q.postParent)) !== 'event') throw invalidParameter('postParent');
      where.push('e.post_parent_id = ?');
      params.push(q.postParent);
    }
    // Link filters are EXISTS probes of each link table's primary key (event_id, …): the page walks the events of the
    // date window in start order and stops after one page, instead of first collecting every linked event.
    const terms = this.terms;
    if (foldedSlugs) {
      where.push('EXISTS (SELECT 1 FROM calendar_event_terms l WHERE l.event_id = e.id AND l.term_id IN (SELECT id FROM down))');
    } else if (q.categories && q.categories.length) {
      const ids = await terms.categoryFilter(ctx, q.categories, 'categories');
      where.push(`EXISTS (SELECT 1 FROM calendar_event_terms l WHERE l.event_id = e.id AND l.term_id IN (${placeholders(ids.length)}))`);
      params.push(...ids);
    }
    if (q.tags && q.tags.length) {
      const ids = await terms.findByIdOrSlug(ctx, 'tag', q.tags, 'tags');
      where.push(`EXISTS (SELECT 1 FROM calendar_event_terms l WHERE l.event_id = e.id AND l.term_id IN (${placeholders(ids.length)}))`);
      params.push(...ids);
    }
    if (q.venue && q.venue.length) {
      await this.requireKind(ctx, q.venue, 'venue', 'venue');
      where.push(`EXISTS (SELECT 1 FROM calendar_event_venues l WHERE l.event_id = e.id AND l.venue_id IN (${placeholders(q.venue.length)}))`);
      params.push(...q.venue);
    }
    if (q.organizer && q.organizer.length) {
      await this.requireKind(ctx, q.organizer, 'organizer', 'organizer');
      where.push(`EXISTS (SELECT 1 FROM calendar_event_organizers l WHERE l.event_id = e.id AND l.organizer_id IN (${placeholders(q.organizer.length)}))`);
      params.push(...q.organizer);
    }
    if (q.geoloc || q.geolocLat !== undefined) {
      const venues = await this.geocodedVenues(ctx, q);
      if (venues.length === 0) where.push('1 = 0');
      else {
        where.push(`EXISTS (SELECT 1 FROM calendar_event_venues l WHERE l.event_id = e.id AND l.venue_id IN (${placeholders(venues.length)}))`);
        params.push(...venues);
      }
    }
    let from = 'calendar_events e';
    const fromParams: unknown[] = [];
    if (q.search !== undefined && q.search.trim() !== '') {
      const words = searchTerms(q.search);
      const col = (c: string) => (language ? `LOWER(COALESCE(NULLIF(t.${c}, ''), e.${c}))` : `LOWER(e.${c})`);
      if (language) {
        from = `calendar_events e LEFT JOIN calendar_translations t ON t.kind = 'event' AND t.object_id = e.id AND t.language = ?`;
        fromParams.push(language);
      }
      // A password-protected event matches no search of someone who may not edit it (WordPress leaves protected
      // posts out of searches): its text must not be readable by probing.
      if (words.length && vis.kind !== 'all') {
        if (vis.kind === 'own') {
          where.push(`(e.password IS NULL OR e.password = '' OR e.author_id = ?)`);
          params.push(vis.authorId);
        } else where.push(`(e.password IS NULL OR e.password = '')`);
      }
      for (const w of words) {
        const one = `(${col('title')} LIKE ? ESCAPE '\\' OR ${col('excerpt')} LIKE ? ESCAPE '\\' OR ${col('description')} LIKE ? ESCAPE '\\')`;
        where.push(w.exclude ? `NOT ${one}` : one);
        const p = likePattern(w.text);
        params.push(p, p, p);
      }
    }

    const whereSql = where.join(' AND ');
    let orderKey = include ? 'e.date_local' : 'e.start_local';
    let dir = 'ASC';
    if (q.orderBy) {
      dir = q.orderBy.direction === 'desc' ? 'DESC' : 'ASC';
      const column = ORDER_COLUMN[q.orderBy.field];
      if (!column) throw invalidParameter('orderBy');
      orderKey = column;
    }
    const cols = entityColumns(ctx.db, CalendarEventEntity, 'e', 'e_');
    const offset = (q.page - 1) * q.perPage;
    // One statement: the matching events (id and sort key) found once (a materialized CTE), their count, and the
    // page's rows joined back by id, each as one JSON array value (better-sqlite3's per-column cost made 32 result
    // columns the expensive part). A page with no rows needs no total: page 1 is empty (0), a later page is past
    // the end (404).
    // Folded categories: their subtree as `down`, and how many of the slugs name a category (`matched_`).
    const marks = foldedSlugs ? placeholders(foldedSlugs.length) : '';
    const down = foldedSlugs
      ? `RECURSIVE down(id) AS (SELECT id FROM calendar_terms WHERE taxonomy = 'category' AND slug IN (${marks})` +
        ` UNION SELECT c.id FROM calendar_terms c JOIN down d ON c.parent_id = d.id), `
      : '';
    const matched = foldedSlugs ? `, (SELECT COUNT(*) FROM calendar_terms WHERE taxonomy = 'category' AND slug IN (${marks})) AS matched_` : '';
    // The page's links too (one value for the whole page, loaders/calendar.ts `eventLinksSql`): its relations then
    // need no statement of their own (PostgreSQL: one round trip and one socket write per request fewer).
    const links = q.withLinks === false ? '' : `, (${eventLinksSql(ctx.db, 'SELECT pi.id FROM page pi')}) AS links_`;
    const rows = await queryRows(
      ctx.db,
      `WITH ${down}hits AS MATERIALIZED (SELECT e.id AS id, ${orderKey} AS ord FROM ${from} WHERE ${whereSql}), ` +
        `page AS MATERIALIZED (SELECT h.id AS id, h.ord AS ord FROM hits h ORDER BY h.ord ${dir}, h.id ${dir} LIMIT ? OFFSET ?) ` +
        `SELECT ${cols.jsonRow} AS e_row, (SELECT COUNT(*) FROM hits) AS total_${matched}${links} FROM page p JOIN calendar_events e ON e.id = p.id ` +
        `ORDER BY p.ord ${dir}, p.id ${dir}`,
      [...(foldedSlugs ?? []), ...fromParams, ...params, q.perPage, offset, ...(foldedSlugs ?? [])],
    );
    if (foldedSlugs && (rows.length === 0 || Number(rows[0].matched_) !== foldedSlugs.length)) return undefined;
    const total = rows.length ? Number(rows[0].total_) : 0;
    if (rows.length === 0 && q.page > 1) {
      throw new NotFoundError(CALENDAR_MESSAGES[CALENDAR_CODES.EVENT_ARCHIVE_PAGE_NOT_FOUND], { domainCode: CALENDAR_CODES.EVENT_ARCHIVE_PAGE_NOT_FOUND });
    }
    const events = rows.map((r) => cols.hydrateJsonArray(r.e_row)!);
    for (const e of events) ctx.loaders.calendarEventById.prime(e.id, e);
    if (links && rows.length) primeEventLinks(ctx.db, ctx.loaders, events.map((e) => e.id), rows[0].links_ as string | null);
    return { items: await translatedRows(ctx, 'event', events, language), total, window, status };
  }

  /** Every id must name a post of `kind` (else 400 on `field`). */
  private async requireKind(ctx: RequestContext, ids: number[], kind: 'venue' | 'organizer', field: string): Promise<void> {
    const kinds = await ctx.loaders.calendarPostKind.loadMany(ids);
    for (const k of kinds) {
      if (k instanceof Error) throw k;
      if (k !== kind) throw invalidParameter(field);
    }
  }

  /** Ids of geocoded venues (within the radius of the point, when one is given). */
  private async geocodedVenues(ctx: RequestContext, q: EventListQuery): Promise<number[]> {
    // Only venues the viewer may see place events (a draft venue's coordinates are not public).
    const vis = visibilitySql(ctx.viewer, 'v');
    const rows = await queryRows<{ id: number; lat: number; lng: number }>(
      ctx.db,
      `SELECT v.id AS id, v.geo_lat AS lat, v.geo_lng AS lng FROM calendar_venues v WHERE v.geo_lat IS NOT NULL AND v.geo_lng IS NOT NULL AND ${vis.sql}`,
      vis.params,
    );
    if (q.geolocLat === undefined || q.geolocLng === undefined) return rows.map((r) => Number(r.id));
    const radius = q.radiusKm ?? DEFAULT_GEOFENCE_KM;
    return rows.filter((r) => distanceKm(q.geolocLat!, q.geolocLng!, Number(r.lat), Number(r.lng)) <= radius).map((r) => Number(r.id));
  }
}
