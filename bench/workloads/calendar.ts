/**
 * Events calendar workloads. `calendar-events` is the calendar page a visitor (anonymous) opens: the first 10
 * events of a 30-day window in one category and its child categories, over ~6,000 seeded events, asked three
 * ways in the same run:
 *
 *  - graphql (the gateway): events(where: { startDate, endDate, categories: [slug] }, first: 10) { totalCount
 *    nodes { databaseId title startDate endDate cost venue { name city } organizers { name } categories { name slug }
 *    tags { name } } }
 *  - rest (the gateway's twin): GET /calendar/events/v1/events?start_date=…&end_date=…&categories=<slug>&per_page=10,
 *    The Events Calendar's full event objects in its list envelope
 *  - baseline: ONE page statement (the category subtree as a recursive CTE, the window, the listing rules, the
 *    total as a scalar subquery) and ONE statement for the page's venues, organizers and terms, serialized
 *    straight into the GraphQL JSON shape.
 *
 * Verification: the GraphQL JSON is identical to the baseline's; the REST events, normalised to what the page
 * shows, are the same events in the same order with the same total; and the ids, order, total, titles, dates,
 * venues, organizers and terms match what the seed implies for that window and category.
 */
import { BaselineDb } from '../lib/baseline';
import type { CalendarSeedResult, SeededEvent } from '../lib/seed-calendar';
import { BaselineRequest, BaselineResponse, BenchEnv, BenchFailure, FetchedResponse, HttpRequestSpec, Workload } from '../lib/types';
import { assertOk, assertSame, firstDifference } from '../lib/verify';

const PAGE_SIZE = 10;
/** A 30-day window (whole days, inclusive) from the bench clock's day (BENCH_CALENDAR_NOW, 2026-06-01). */
const START_DATE = '2026-06-01';
const END_DATE = '2026-06-30';
/** A top-level category with four children (the filter includes them). */
const CATEGORY = 'music';

// ---------------------------------------------------------------------------------------------------------
// The three requests

const EVENTS_QUERY =
  `query CalendarEvents { events(where: { startDate: ${JSON.stringify(START_DATE)}, endDate: ${JSON.stringify(END_DATE)}, ` +
  `categories: [${JSON.stringify(CATEGORY)}] }, first: ${PAGE_SIZE}) { totalCount nodes { databaseId title startDate endDate cost ` +
  `venue { name city } organizers { name } categories { name slug } tags { name } } } }`;

function graphqlRequest(): HttpRequestSpec {
  return {
    method: 'POST',
    path: '/graphql',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify({ query: EVENTS_QUERY }),
  };
}

function restRequest(): HttpRequestSpec {
  const q = new URLSearchParams({ start_date: START_DATE, end_date: END_DATE, categories: CATEGORY, per_page: String(PAGE_SIZE) });
  return { method: 'GET', path: `/calendar/events/v1/events?${q.toString()}`, headers: { accept: 'application/json' } };
}

function baselineRequest(): HttpRequestSpec {
  const q = new URLSearchParams({ start: START_DATE, end: END_DATE, category: CATEGORY, first: String(PAGE_SIZE) });
  return { method: 'GET', path: `/baseline/calendar/events?${q.toString()}`, headers: { accept: 'application/json' } };
}

// ---------------------------------------------------------------------------------------------------------
// The baseline: node:http + driver + two statements

/**
 * The page: the category and its descendants (recursive CTE), the events linked to any of them that an anonymous
 * visitor may list (published, not hidden from listings) starting on/after the first day and ending on/before the
 * last day (site-local wall clocks, as stored; an end bound also bounds the start, since no event ends before it
 * starts), by start then id; the total as a scalar subquery over the same set.
 */
const PAGE_SQL = `WITH RECURSIVE cats(id) AS (
    SELECT t.id FROM calendar_terms t WHERE t.taxonomy = 'category' AND t.slug = ?
    UNION SELECT c.id FROM calendar_terms c JOIN cats d ON c.parent_id = d.id),
  hits AS (
    SELECT e.id AS id, e.start_local AS start_local FROM calendar_events e
     WHERE e.status = 'publish' AND NOT e.hide_from_listings AND e.start_local >= ? AND e.end_local <= ? AND e.start_local <= ?
       AND EXISTS (SELECT 1 FROM calendar_event_terms l WHERE l.event_id = e.id AND l.term_id IN (SELECT id FROM cats)))
SELECT e.id AS id, e.title AS title, e.start_local AS start_local, e.end_local AS end_local, e.cost AS cost,
       e.cost_values AS cost_values, e.currency_symbol AS currency_symbol, e.currency_position AS currency_position,
       (SELECT COUNT(*) FROM hits) AS total
  FROM hits h JOIN calendar_events e ON e.id = h.id
 ORDER BY h.start_local, h.id
 LIMIT ?`;

const COUNT_SQL = `WITH RECURSIVE cats(id) AS (
    SELECT t.id FROM calendar_terms t WHERE t.taxonomy = 'category' AND t.slug = ?
    UNION SELECT c.id FROM calendar_terms c JOIN cats d ON c.parent_id = d.id)
SELECT COUNT(*) AS total FROM calendar_events e
 WHERE e.status = 'publish' AND NOT e.hide_from_listings AND e.start_local >= ? AND e.end_local <= ? AND e.start_local <= ?
   AND EXISTS (SELECT 1 FROM calendar_event_terms l WHERE l.event_id = e.id AND l.term_id IN (SELECT id FROM cats))`;

/** The page's published venues and organizers (in link order) and its terms, in one statement. */
function relationsSql(n: number): string {
  const ids = new Array(n).fill('?').join(', ');
  return `SELECT 'v' AS k, l.event_id AS event_id, l.position AS pos, v.id AS id, v.title AS name, v.city AS city, '' AS slug, '' AS taxonomy
  FROM calendar_event_venues l JOIN calendar_venues v ON v.id = l.venue_id
 WHERE l.event_id IN (${ids}) AND v.status = 'publish'
UNION ALL
SELECT 'o', l.event_id, l.position, o.id, o.title, '', '', ''
  FROM calendar_event_organizers l JOIN calendar_organizers o ON o.id = l.organizer_id
 WHERE l.event_id IN (${ids}) AND o.status = 'publish'
UNION ALL
SELECT 't', l.event_id, 0, t.id, t.name, '', t.slug, t.taxonomy
  FROM calendar_event_terms l JOIN calendar_terms t ON t.id = l.term_id
 WHERE l.event_id IN (${ids})`;
}

interface PageRow {
  id: number;
  title: string;
  start_local: string;
  end_local: string;
  cost: string;
  cost_values: string | null;
  currency_symbol: string;
  currency_position: string;
  total: number | string;
}

interface RelationRow {
  k: 'v' | 'o' | 't';
  event_id: number;
  pos: number;
  id: number;
  name: string;
  city: string;
  slug: string;
  taxonomy: string;
}

/** The cost as the calendar shows it: the text when it holds no number, else `Free` / symbol + value, a range with an en dash. */
function showCost(r: PageRow): string {
  const values = r.cost_values ? (JSON.parse(r.cost_values) as string[]) : [];
  if (values.length === 0) return r.cost;
  const show = (v: string) =>
    Number(v) === 0 ? 'Free' : !r.currency_symbol ? v : r.currency_position === 'suffix' ? `${v}${r.currency_symbol}` : `${r.currency_symbol}${v}`;
  const min = show(values[0]);
  const max = show(values[values.length - 1]);
  return min === max ? min : `${min} – ${max}`;
}

const YMD = /^\d{4}-\d{2}-\d{2}$/;

async function eventsBaseline(req: BaselineRequest, db: BaselineDb): Promise<BaselineResponse> {
  const start = req.url.searchParams.get('start') ?? '';
  const end = req.url.searchParams.get('end') ?? '';
  const category = req.url.searchParams.get('category') ?? '';
  const first = Number(req.url.searchParams.get('first') ?? 10);
  if (!YMD.test(start) || !YMD.test(end) || !category) return { status: 400, json: { message: 'start, end (Y-m-d) and category are required' } };
  if (!Number.isInteger(first) || first < 1 || first > 50) return { status: 400, json: { message: 'first must be 1..50' } };
  const from = `${start} 00:00:00`;
  const to = `${end} 23:59:59`;
  const rows = await db.all<PageRow>('cal_events_page', PAGE_SQL, [category, from, to, to, first]);
  const total = rows.length
    ? Number(rows[0].total)
    : Number((await db.all<{ total: number | string }>('cal_events_count', COUNT_SQL, [category, from, to, to]))[0].total);
  const ids = rows.map((r) => Number(r.id));
  const rel = ids.length ? await db.all<RelationRow>(`cal_events_rel_${ids.length}`, relationsSql(ids.length), [...ids, ...ids, ...ids]) : [];
  const byEvent = new Map<number, RelationRow[]>(ids.map((id) => [id, []]));
  for (const r of rel) byEvent.get(Number(r.event_id))?.push(r);
  const linkOrder = (a: RelationRow, b: RelationRow) => a.pos - b.pos || a.id - b.id;
  const termOrder = (a: RelationRow, b: RelationRow) => a.name.localeCompare(b.name) || a.id - b.id;
  return {
    status: 200,
    json: {
      data: {
        events: {
          totalCount: total,
          nodes: rows.map((r) => {
            const links = byEvent.get(Number(r.id))!;
            const venue = links.filter((l) => l.k === 'v').sort(linkOrder)[0];
            const terms = links.filter((l) => l.k === 't').sort(termOrder);
            return {
              databaseId: Number(r.id),
              title: r.title,
              startDate: r.start_local,
              endDate: r.end_local,
              cost: showCost(r),
              venue: venue ? { name: venue.name, city: venue.city } : null,
              organizers: links
                .filter((l) => l.k === 'o')
                .sort(linkOrder)
                .map((o) => ({ name: o.name })),
              categories: terms.filter((t) => t.taxonomy === 'category').map((t) => ({ name: t.name, slug: t.slug })),
              tags: terms.filter((t) => t.taxonomy === 'tag').map((t) => ({ name: t.name })),
            };
          }),
        },
      },
    },
  };
}

// ---------------------------------------------------------------------------------------------------------
// Verification: the three shapes, normalised to what the calendar page shows

/** One event as the page shows it, whatever the shape it came in (also the GraphQL/baseline node). */
interface Row {
  databaseId: number;
  title: string;
  startDate: string;
  endDate: string;
  cost: string;
  venue: { name: string; city: string } | null;
  organizers: Array<{ name: string }>;
  categories: Array<{ name: string; slug: string }>;
  tags: Array<{ name: string }>;
}

interface EventsData {
  data: { events: { totalCount: number; nodes: Row[] } };
}

interface RestEvent {
  id: number;
  title: string;
  start_date: string;
  end_date: string;
  cost: string;
  venue?: { venue?: string; city?: string } | unknown[];
  organizer?: Array<{ organizer?: string }>;
  categories?: Array<{ name?: string; slug?: string }>;
  tags?: Array<{ name?: string }>;
}

interface RestList {
  events?: RestEvent[];
  total?: number;
  total_pages?: number;
}

function fromRest(e: RestEvent, i: number): Row {
  if (!e || typeof e !== 'object') throw new BenchFailure(`rest: event [${i}] is not an object`);
  for (const k of ['venue', 'organizer', 'categories', 'tags'] as const) {
    if (!(k in e)) throw new BenchFailure(`rest: event [${i}] has no ${k}`);
  }
  const v = Array.isArray(e.venue) ? null : (e.venue as { venue?: string; city?: string });
  return {
    databaseId: e.id,
    title: e.title,
    startDate: e.start_date,
    endDate: e.end_date,
    cost: e.cost,
    venue: v ? { name: v.venue ?? '(missing venue.venue)', city: v.city ?? '' } : null,
    organizers: (e.organizer ?? []).map((o) => ({ name: o.organizer ?? '(missing organizer.organizer)' })),
    categories: (e.categories ?? []).map((c) => ({ name: c.name ?? '', slug: c.slug ?? '' })),
    tags: (e.tags ?? []).map((t) => ({ name: t.name ?? '' })),
  };
}

function assertSameRows(label: string, left: Row[], right: Row[]): void {
  if (left.length !== right.length) throw new BenchFailure(`${label}: ${left.length} vs ${right.length} events`);
  for (let i = 0; i < left.length; i++) {
    const d = firstDifference(left[i], right[i], `[${i}]`);
    if (d) throw new BenchFailure(`${label}: event ${i} differs at ${d} (#${left[i].databaseId} vs #${right[i].databaseId})`);
  }
}

/** What the seed implies for the window and category: the listable events in order, and how many there are. */
export function expectedFromSeed(seed: CalendarSeedResult, category: string, start: string, end: string): { total: number; page: Array<Omit<Row, 'cost'>> } {
  const root = seed.terms.find((t) => t.taxonomy === 'category' && t.slug === category);
  if (!root) throw new BenchFailure(`the seed has no category ${category}`);
  const subtree = new Set([root.id]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const t of seed.terms) {
      if (t.taxonomy === 'category' && t.parentId !== null && subtree.has(t.parentId) && !subtree.has(t.id)) {
        subtree.add(t.id);
        grew = true;
      }
    }
  }
  const from = `${start} 00:00:00`;
  const to = `${end} 23:59:59`;
  const hits = seed.eventList
    .filter((e) => e.status === 'publish' && !e.hideFromListings && e.startLocal >= from && e.endLocal <= to && e.termIds.some((id) => subtree.has(id)))
    .sort((a, b) => (a.startLocal < b.startLocal ? -1 : a.startLocal > b.startLocal ? 1 : a.id - b.id));
  const terms = new Map(seed.terms.map((t) => [t.id, t]));
  const venues = new Map(seed.venueList.map((v) => [v.id, v]));
  const organizers = new Map(seed.organizerList.map((o) => [o.id, o]));
  const row = (e: SeededEvent): Omit<Row, 'cost'> => {
    const ts = e.termIds.map((id) => terms.get(id)!).sort((a, b) => a.name.localeCompare(b.name) || a.id - b.id);
    const v = venues.get(e.venueId)!;
    return {
      databaseId: e.id,
      title: e.title,
      startDate: e.startLocal,
      endDate: e.endLocal,
      venue: { name: v.name, city: v.city },
      organizers: e.organizerIds.map((id) => ({ name: organizers.get(id)!.name })),
      categories: ts.filter((t) => t.taxonomy === 'category').map((t) => ({ name: t.name, slug: t.slug })),
      tags: ts.filter((t) => t.taxonomy === 'tag').map((t) => ({ name: t.name })),
    };
  };
  return { total: hits.length, page: hits.slice(0, PAGE_SIZE).map(row) };
}

function verifyEvents(gateway: FetchedResponse, baseline: FetchedResponse, env: BenchEnv, twin?: FetchedResponse): string {
  const seed = env.calendar;
  if (!seed) throw new BenchFailure('calendar-events: the calendar data was not seeded');
  if (!twin) throw new BenchFailure('calendar-events: the REST twin was not fetched');
  assertOk('graphql', gateway);
  assertOk('baseline', baseline);

  // 1. GraphQL and the baseline: the same JSON.
  assertSame('calendar-events', gateway.json, baseline.json);
  const conn = (gateway.json as EventsData).data?.events;
  if (!conn || !Array.isArray(conn.nodes)) throw new BenchFailure(`graphql: no event connection in ${gateway.text.slice(0, 300)}`);
  const rows = conn.nodes;

  // 2. They match the seed: the listable events of the window and category subtree, by start, with their links.
  const expected = expectedFromSeed(seed, CATEGORY, START_DATE, END_DATE);
  if (conn.totalCount !== expected.total) throw new BenchFailure(`graphql: totalCount ${conn.totalCount}, the seed implies ${expected.total}`);
  if (expected.total < PAGE_SIZE) throw new BenchFailure(`the seed has only ${expected.total} events in the window and category (fewer than a page)`);
  const withoutCost = rows.map(({ cost: _cost, ...rest }) => rest);
  for (let i = 0; i < Math.max(withoutCost.length, expected.page.length); i++) {
    const d = firstDifference(withoutCost[i], expected.page[i], `[${i}]`);
    if (d) throw new BenchFailure(`graphql vs seed: event ${i} differs at ${d}`);
  }

  // 3. REST: the same events in the same order with the same total, once normalised.
  assertOk('rest', twin);
  const list = twin.json as RestList;
  if (!list || !Array.isArray(list.events)) throw new BenchFailure(`rest: expected {events: [...]}, got ${twin.text.slice(0, 300)}`);
  if (list.total !== conn.totalCount) throw new BenchFailure(`rest: total ${String(list.total)}, graphql totalCount ${conn.totalCount}`);
  assertSameRows('rest vs graphql/baseline', list.events.map(fromRest), rows);

  const venues = new Set(rows.map((r) => r.venue?.name)).size;
  return (
    `${rows.length} of ${conn.totalCount} events of ${CATEGORY} and its subcategories in ${START_DATE}..${END_DATE} (of ${seed.events}), ` +
    `${venues} venues: graphql JSON = baseline JSON; rest (TEC shape, ${Math.round(twin.text.length / 1024)} KB) has the same events, order, ` +
    `total, costs, venues, organizers and terms; all match the seed`
  );
}

const events: Workload = {
  name: 'calendar-events',
  description:
    `Calendar page: an anonymous visitor lists the first ${PAGE_SIZE} events of a 30-day window in one category (children included) ` +
    `with totalCount, cost, venue, organizers, categories and tags (GraphQL events, and its REST twin GET /calendar/events/v1/events)`,
  needs: ['calendar'],
  gatewayLabel: 'graphql',
  gateway: graphqlRequest,
  twin: { label: 'rest', request: restRequest },
  baseline: { request: baselineRequest, handler: eventsBaseline },
  verify: verifyEvents,
};

export const CALENDAR_WORKLOADS: Workload[] = [events];
