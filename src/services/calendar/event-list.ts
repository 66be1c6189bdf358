/**
 * GET /events (and GraphQL `events`, the .ics feed): the plugin's list semantics in one place (reference §3).
 * Filters are decoded and checked here (dates, statuses by who asks, terms/venues/organizers that must exist),
 * then one statement (a ListQuery read with `readHits`) answers the page and its total.
 *
 * Visibility comes from access.ts (`listVisibility`); events hidden from listings never list, for anyone.
 */
import { CalendarEventEntity, CalendarPostStatus, CalendarTranslationEntity, CalendarVenueEntity } from '../../../entities/calendar';
import type { RequestContext } from '../../context';
import { entityColumns } from '../../db/rows';
import { eventLinksSql, primeEventLinks } from '../../loaders/calendar';
import { isPostgres } from '../../db/transaction';
import { NotFoundError, ValidationError } from '../../errors/app-error';
import { INT4_MAX } from '../common/decode';
import { ListQuery } from '../common/list-query';
import { canEditSomePosts, listVisibility, visibilityCondition } from './access';
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
    const pg = isPostgres(ctx.db);
    const FALSE = pg ? 'false' : '0';
    const TRUE = pg ? 'true' : '1';
    // A ListQuery: its statement text is built once per filter shape and then only re-bound.
    const list = new ListQuery(ctx.db, CalendarEventEntity, 'e');

    // Visibility (access.ts), then the listing rules.
    const vis = listVisibility(ctx.viewer);
    list.andWhere(
      visibilityCondition(ctx.viewer, { status: 'e.status', authorId: 'e.author_id' }, (v) => {
        list.setParameters({ visibleAuthor: v });
        return ':visibleAuthor';
      }),
    );
    list.andWhere(`e.hide_from_listings = ${FALSE}`);
    if (status) list.andWhere('e.status IN (:...statuses)', { statuses: status });
    const bound = (condition: string, name: string, v: string | undefined) => {
      if (v !== undefined) list.andWhere(condition, { [name]: v });
    };
    bound('e.start_local >= :startsOnOrAfter', 'startsOnOrAfter', window.startsOnOrAfter);
    bound('e.end_local <= :endsOnOrBefore', 'endsOnOrBefore', window.endsOnOrBefore);
    bound('e.start_local < :startsBefore', 'startsBefore', window.startsBefore);
    bound('e.start_local > :startsAfter', 'startsAfter', window.startsAfter);
    bound('e.end_local < :endsBefore', 'endsBefore', window.endsBefore);
    // An event never ends before it starts (writes keep end ≥ start), so an upper bound on the end bounds the start
    // too: said explicitly, the start index scans only the window instead of everything after its start.
    bound('e.start_local <= :endsOnOrBefore', 'endsOnOrBefore', window.endsOnOrBefore);
    bound('e.start_local < :endsBefore', 'endsBefore', window.endsBefore);
    bound('e.end_local > :endsAfter', 'endsAfter', window.endsAfter);
    if (q.featured !== undefined) list.andWhere(`e.featured = ${q.featured ? TRUE : FALSE}`);
    if (include) list.andWhere('e.id IN (:...include)', { include: q.include });
    if (q.postParent !== undefined) {
      if ((await ctx.loaders.calendarPostKind.load(q.postParent)) !== 'event') throw invalidParameter('postParent');
      list.andWhere('e.post_parent_id = :postParent', { postParent: q.postParent });
    }
    // Link filters are EXISTS probes of each link table's primary key (event_id, …): the page walks the events of the
    // date window in start order and stops after one page, instead of first collecting every linked event.
    const terms = this.terms;
    if (foldedSlugs) {
      list.with(
        'down(id)',
        `SELECT id FROM calendar_terms WHERE taxonomy = 'category' AND slug IN (:...categorySlugs) UNION SELECT c.id FROM calendar_terms c JOIN down d ON c.parent_id = d.id`,
        { categorySlugs: foldedSlugs },
        { recursive: true },
      );
      list.andWhere('EXISTS (SELECT 1 FROM calendar_event_terms l WHERE l.event_id = e.id AND l.term_id IN (SELECT id FROM down))');
    } else if (q.categories && q.categories.length) {
      const ids = await terms.categoryFilter(ctx, q.categories, 'categories');
      list.andWhere('EXISTS (SELECT 1 FROM calendar_event_terms l WHERE l.event_id = e.id AND l.term_id IN (:...categoryIds))', { categoryIds: ids });
    }
    if (q.tags && q.tags.length) {
      const ids = await terms.findByIdOrSlug(ctx, 'tag', q.tags, 'tags');
      list.andWhere('EXISTS (SELECT 1 FROM calendar_event_terms l WHERE l.event_id = e.id AND l.term_id IN (:...tagIds))', { tagIds: ids });
    }
    if (q.venue && q.venue.length) {
      await this.requireKind(ctx, q.venue, 'venue', 'venue');
      list.andWhere('EXISTS (SELECT 1 FROM calendar_event_venues l WHERE l.event_id = e.id AND l.venue_id IN (:...venueIds))', { venueIds: q.venue });
    }
    if (q.organizer && q.organizer.length) {
      await this.requireKind(ctx, q.organizer, 'organizer', 'organizer');
      list.andWhere('EXISTS (SELECT 1 FROM calendar_event_organizers l WHERE l.event_id = e.id AND l.organizer_id IN (:...organizerIds))', { organizerIds: q.organizer });
    }
    if (q.geoloc || q.geolocLat !== undefined) {
      const venues = await this.geocodedVenues(ctx, q);
      if (venues.length === 0) list.andWhere('1 = 0');
      else list.andWhere('EXISTS (SELECT 1 FROM calendar_event_venues l WHERE l.event_id = e.id AND l.venue_id IN (:...placedVenueIds))', { placedVenueIds: venues });
    }
    if (q.search !== undefined && q.search.trim() !== '') {
      const words = searchTerms(q.search);
      const col = (c: string) => (language ? `LOWER(COALESCE(NULLIF(t.${c}, ''), e.${c}))` : `LOWER(e.${c})`);
      if (language) list.leftJoin(CalendarTranslationEntity, 't', `t.kind = 'event' AND t.object_id = e.id AND t.language = :searchLanguage`, { searchLanguage: language });
      // A password-protected event matches no search of someone who may not edit it (WordPress leaves protected
      // posts out of searches): its text must not be readable by probing.
      if (words.length && vis.kind !== 'all') {
        if (vis.kind === 'own') list.andWhere(`(e.password IS NULL OR e.password = '' OR e.author_id = :searchAuthor)`, { searchAuthor: vis.authorId });
        else list.andWhere(`(e.password IS NULL OR e.password = '')`);
      }
      words.forEach((w, i) => {
        const p = `:word${i}`;
        const one = `(${col('title')} LIKE ${p} ESCAPE '\\' OR ${col('excerpt')} LIKE ${p} ESCAPE '\\' OR ${col('description')} LIKE ${p} ESCAPE '\\')`;
        list.andWhere(w.exclude ? `NOT ${one}` : one, { [`word${i}`]: likePattern(w.text) });
      });
    }

    let orderKey = include ? 'e.date_local' : 'e.start_local';
    let dir: 'ASC' | 'DESC' = 'ASC';
    if (q.orderBy) {
      dir = q.orderBy.direction === 'desc' ? 'DESC' : 'ASC';
      const column = ORDER_COLUMN[q.orderBy.field];
      if (!column) throw invalidParameter('orderBy');
      orderKey = column;
    }
    const cols = entityColumns(ctx.db, CalendarEventEntity, 'e', 'e_');
    // One statement (ListQuery.readHits): the matching events found once, their count, and the page's rows joined
    // back by id, each as one JSON array value (better-sqlite3's per-column cost made 32 result columns the
    // expensive part). A page with no rows needs no total: page 1 is empty (0), a later page is past the end (404).
    list.select(cols.jsonRow, 'e_row');
    // Folded categories: how many of the slugs name a category (`matched_`).
    if (foldedSlugs) list.addSelect(`(SELECT COUNT(*) FROM calendar_terms WHERE taxonomy = 'category' AND slug IN (:...categorySlugs))`, 'matched_');
    // The page's links too (one value for the whole page, loaders/calendar.ts `eventLinksSql`): its relations then
    // need no statement of their own (PostgreSQL: one round trip and one socket write per request fewer).
    const links = q.withLinks !== false;
    if (links) list.addSelect(`(${eventLinksSql(ctx.db, 'SELECT pi.id FROM page pi')})`, 'links_');
    const rows = await list
      .orderBy(orderKey, dir)
      .addOrderBy('e.id', dir)
      .limit(q.perPage)
      .offset((q.page - 1) * q.perPage)
      .readHits('total_');
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
    const venues = new ListQuery(ctx.db, CalendarVenueEntity, 'v')
      .select('v.id', 'id')
      .addSelect('v.geo_lat', 'lat')
      .addSelect('v.geo_lng', 'lng')
      .andWhere('v.geo_lat IS NOT NULL AND v.geo_lng IS NOT NULL');
    venues.andWhere(
      visibilityCondition(ctx.viewer, { status: 'v.status', authorId: 'v.author_id' }, (v) => {
        venues.setParameters({ venueAuthor: v });
        return ':venueAuthor';
      }),
    );
    const rows = (await venues.getRawMany()) as Array<{ id: number; lat: number; lng: number }>;
    if (q.geolocLat === undefined || q.geolocLng === undefined) return rows.map((r) => Number(r.id));
    const radius = q.radiusKm ?? DEFAULT_GEOFENCE_KM;
    return rows.filter((r) => distanceKm(q.geolocLat!, q.geolocLng!, Number(r.lat), Number(r.lng)) <= radius).map((r) => Number(r.id));
  }
}
