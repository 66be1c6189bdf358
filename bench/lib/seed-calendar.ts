/**
 * Events calendar data for the calendar workloads, inserted in bulk on top of the identity seed: a category
 * tree (6 top-level categories with 4 children each = 30), 100 tags, 200 venues (half geocoded), 100
 * organizers, and ~6,000 events spread over ±12 months around a fixed clock (BENCH_CALENDAR_NOW, which the
 * bench also gives the gateway as CALENDAR_NOW, so the windows the workloads ask for never move).
 *
 * Every event has 1 venue, 1-2 organizers, 1-3 categories (a "primary" one, mostly a child category, plus
 * others), 1-3 tags and a cost (parsed into cost_values / currency as the service parses it). About 92% are
 * published; the rest are drafts, pending or in the trash (with the `__trashed` slug and status_before_trash
 * as DELETE leaves them), and 1% of the published ones are hidden from listings: none of those may ever list.
 * Events, venues and organizers get their ids from `calendar_posts` (the shared id space), as allocatePostId
 * gives them.
 *
 * Titles and names are plain words (no quotes, dashes or `x` between digits), so WordPress' texturize leaves
 * them as stored and the baseline can serve the stored text. Rows go in through TypeORM's insert builder, one
 * transaction per chunk of events. Deterministic (seeded PRNG, fixed clock).
 */
import { recountAllTerms } from '../../src/services/calendar/term-counts';
import type { DataSource, EntityManager } from 'typeorm';
import {
  CalendarEventEntity,
  CalendarEventOrganizerEntity,
  CalendarEventTermEntity,
  CalendarEventVenueEntity,
  CalendarOrganizerEntity,
  CalendarPostEntity,
  CalendarPostKind,
  CalendarPostStatus,
  CalendarTermEntity,
  CalendarVenueEntity,
} from '../../entities/calendar';
import { AccountEntity } from '../../entities/identity';
import { parseCost } from '../../src/services/calendar/cost';
import { formatYmdHis, fromWallClock } from '../../src/services/calendar/timezones';
import { insertChunks, prng, SeedResult } from './seed';

/** The calendar's clock in the bench (CALENDAR_NOW of the gateway). */
export const BENCH_CALENDAR_NOW = '2026-06-01T10:00:00Z';
/** The calendar site's timezone in the bench (CALENDAR_TIMEZONE of the gateway). */
export const BENCH_CALENDAR_TIMEZONE = 'Europe/Copenhagen';

export interface CalendarSeedOptions {
  events: number;
}

export const DEFAULT_CALENDAR_SEED: CalendarSeedOptions = { events: 6_000 };

export interface SeededTerm {
  id: number;
  taxonomy: 'category' | 'tag';
  name: string;
  slug: string;
  parentId: number | null;
}

export interface SeededVenue {
  id: number;
  name: string;
  city: string;
  geocoded: boolean;
}

export interface SeededOrganizer {
  id: number;
  name: string;
}

/** One event as the workloads check it against the answers. */
export interface SeededEvent {
  id: number;
  title: string;
  status: CalendarPostStatus;
  hideFromListings: boolean;
  startLocal: string;
  endLocal: string;
  venueId: number;
  /** In position order. */
  organizerIds: number[];
  /** Categories and tags. */
  termIds: number[];
}

export interface CalendarSeedResult {
  options: CalendarSeedOptions;
  now: string;
  siteTimezone: string;
  categories: number;
  tags: number;
  venues: number;
  geocodedVenues: number;
  organizers: number;
  events: number;
  published: number;
  /** Published but hidden from listings. */
  hidden: number;
  drafts: number;
  pending: number;
  trashed: number;
  eventTerms: number;
  chunks: number;
  ms: number;
  /** Everything the workloads need to compute what a list must answer. */
  terms: SeededTerm[];
  venueList: SeededVenue[];
  organizerList: SeededOrganizer[];
  eventList: SeededEvent[];
}

/** Events per transaction. */
const EVENT_CHUNK = 1_000;

const CATEGORY_TREE: Array<[string, string[]]> = [
  ['Music', ['Jazz', 'Rock', 'Classical', 'Folk']],
  ['Arts', ['Theatre', 'Dance', 'Exhibitions', 'Film']],
  ['Sports', ['Running', 'Cycling', 'Football', 'Sailing']],
  ['Food and Drink', ['Wine Tasting', 'Street Food', 'Cooking Classes', 'Markets']],
  ['Family', ['Kids Workshops', 'Storytelling', 'Outdoor Play', 'Science Shows']],
  ['Business', ['Networking', 'Conferences', 'Startups', 'Talks']],
];

const TAG_WORDS = ['Outdoor', 'Indoor', 'Summer', 'Winter', 'Spring', 'Autumn', 'Evening', 'Morning', 'Weekend', 'Harbour',
  'Garden', 'Rooftop', 'Acoustic', 'Live', 'Local', 'Nordic', 'Vintage', 'Modern', 'Beginners', 'Advanced',
  'Community', 'Charity', 'Student', 'Seniors', 'Accessible'];
const TAG_QUALIFIERS = ['', 'Series', 'Special', 'Club'];

const CITIES: Array<{ city: string; country: string; zip: string; lat: number; lng: number }> = [
  { city: 'Copenhagen', country: 'Denmark', zip: '1050', lat: 55.6761, lng: 12.5683 },
  { city: 'Aarhus', country: 'Denmark', zip: '8000', lat: 56.1629, lng: 10.2039 },
  { city: 'Odense', country: 'Denmark', zip: '5000', lat: 55.4038, lng: 10.4024 },
  { city: 'Aalborg', country: 'Denmark', zip: '9000', lat: 57.048, lng: 9.9187 },
  { city: 'Malmo', country: 'Sweden', zip: '21120', lat: 55.605, lng: 13.0038 },
  { city: 'Hamburg', country: 'Germany', zip: '20095', lat: 53.5511, lng: 9.9937 },
  { city: 'Berlin', country: 'Germany', zip: '10115', lat: 52.52, lng: 13.405 },
  { city: 'Paris', country: 'France', zip: '75001', lat: 48.8566, lng: 2.3522 },
  { city: 'Lyon', country: 'France', zip: '69001', lat: 45.764, lng: 4.8357 },
  { city: 'London', country: 'United Kingdom', zip: 'EC1A 1BB', lat: 51.5072, lng: -0.1276 },
];
const VENUE_ADJ = ['Old', 'New', 'Grand', 'Little', 'North', 'South', 'Royal', 'Blue', 'Green', 'Harbour', 'Park', 'River',
  'Market', 'Castle', 'Garden', 'Station', 'Bridge', 'Tower', 'Mill', 'Lake'];
const VENUE_NOUN = ['Hall', 'Theatre', 'Arena', 'Pavilion', 'Gallery', 'Warehouse', 'Church', 'Square', 'Club', 'Studio'];
const STREETS = ['Main Street', 'Harbour Road', 'Market Square', 'Park Lane', 'Station Road', 'Church Street', 'Mill Road', 'King Street'];

const ORG_FIRST = ['Nordic', 'City', 'Harbour', 'Riverside', 'Northern', 'Open', 'Green', 'Bright', 'Blue', 'Golden'];
const ORG_SECOND = ['Arts Society', 'Music Collective', 'Sports Club', 'Food Guild', 'Events Agency', 'Youth Forum',
  'Business Network', 'Theatre Company', 'Festival Office', 'Friends Association'];

const TITLE_OPENERS = ['Late Night', 'Sunday', 'Open Air', 'Summer', 'Winter', 'Spring', 'Autumn', 'Grand', 'Weekly',
  'Monthly', 'Annual', 'Evening', 'Midday', 'Harbour', 'Garden', 'City'];
const TITLE_CLOSERS = ['Session', 'Festival', 'Meetup', 'Gala', 'Showcase', 'Evening', 'Day', 'Weekend', 'Night',
  'Gathering', 'Premiere', 'Tour'];

const COSTS = ['', 'Free', '$15', '$10 - $25', '€20', '€12.50', '150 DKK', '25', 'Free - $30', 'Donation'];

const pick = <T>(rnd: () => number, xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)];

function slugOf(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');
}

const pad = (n: number, w = 2) => String(n).padStart(w, '0');

/** Inserts `count` calendar_posts rows of `kind` and returns their ids (ascending). */
async function allocatePosts(db: EntityManager, kind: CalendarPostKind, count: number): Promise<number[]> {
  const before = await db.getRepository(CalendarPostEntity).createQueryBuilder('p').select('MAX(p.id)', 'max').getRawOne<{ max: number | string | null }>();
  const from = Number(before?.max ?? 0);
  await insertChunks(db, CalendarPostEntity, Array.from({ length: count }, () => ({ kind })));
  const rows = await db
    .getRepository(CalendarPostEntity)
    .createQueryBuilder('p')
    .select(['p.id'])
    .where('p.id > :from AND p.kind = :kind', { from, kind })
    .orderBy('p.id', 'ASC')
    .getMany();
  if (rows.length !== count) throw new Error(`seed-calendar: allocated ${rows.length} ${kind} ids, expected ${count}`);
  return rows.map((r) => r.id);
}

/** Distinct items of `xs`, `n` of them at most, chosen with `rnd`. */
function distinct<T>(rnd: () => number, xs: readonly T[], n: number): T[] {
  const out: T[] = [];
  for (let guard = 0; out.length < n && guard < n * 10; guard++) {
    const x = pick(rnd, xs);
    if (!out.includes(x)) out.push(x);
  }
  return out;
}

export async function seedCalendar(
  dataSource: DataSource,
  identity: SeedResult,
  options: CalendarSeedOptions = DEFAULT_CALENDAR_SEED,
): Promise<CalendarSeedResult> {
  const started = Date.now();
  const rnd = prng(20_260_601);
  const now = new Date(BENCH_CALENDAR_NOW);
  const site = BENCH_CALENDAR_TIMEZONE;
  let chunks = 0;

  const admin = await dataSource.getRepository(AccountEntity).findOne({ where: { loginLower: identity.adminLogin.toLowerCase() }, select: { id: true } });
  const authorId = admin?.id ?? null;

  /** Post columns for a post published `daysAgo` days before the clock. */
  const postDates = (daysAgo: number) => {
    const at = new Date(now.getTime() - Math.round(daysAgo * 86_400) * 1000);
    return { dateLocal: formatYmdHis(at, site), dateUtc: at, modifiedAt: at };
  };

  // ---- terms, venues, organizers: one transaction ----
  const setup = await dataSource.transaction(async (db) => {
    chunks++;
    const termRepo = db.getRepository(CalendarTermEntity);
    await insertChunks(
      db,
      CalendarTermEntity,
      CATEGORY_TREE.map(([name]) => ({ taxonomy: 'category', name, slug: slugOf(name), description: `${name} events`, parentId: null, termGroup: 0 })),
    );
    const tops = await termRepo.find({ where: { taxonomy: 'category' } });
    const topId = new Map(tops.map((t) => [t.name, t.id]));
    await insertChunks(
      db,
      CalendarTermEntity,
      CATEGORY_TREE.flatMap(([parent, children]) =>
        children.map((name) => ({ taxonomy: 'category', name, slug: slugOf(name), description: '', parentId: topId.get(parent)!, termGroup: 0 })),
      ),
    );
    const tagNames = TAG_QUALIFIERS.flatMap((q) => TAG_WORDS.map((w) => (q ? `${w} ${q}` : w)));
    await insertChunks(
      db,
      CalendarTermEntity,
      tagNames.map((name) => ({ taxonomy: 'tag', name, slug: slugOf(name), description: '', parentId: null, termGroup: 0 })),
    );
    const terms: SeededTerm[] = (await termRepo.find({ order: { id: 'ASC' } })).map((t) => ({
      id: t.id,
      taxonomy: t.taxonomy,
      name: t.name,
      slug: t.slug,
      parentId: t.parentId,
    }));

    // venues: 200 distinct names, half geocoded (near their city)
    const venueNames: string[] = [];
    for (const a of VENUE_ADJ) for (const n of VENUE_NOUN) venueNames.push(`${a} ${n}`);
    const venueIds = await allocatePosts(db, 'venue', venueNames.length);
    const venueList: SeededVenue[] = [];
    const venueRows = venueIds.map((id, i) => {
      const c = CITIES[Math.floor(rnd() * CITIES.length)];
      const geocoded = i % 2 === 0;
      const name = venueNames[i];
      venueList.push({ id, name, city: c.city, geocoded });
      return {
        id,
        authorId,
        status: 'publish' as const,
        title: name,
        description: `${name} in ${c.city}.`,
        excerpt: '',
        slug: slugOf(name),
        password: null,
        ...postDates(400 + i),
        image: null,
        address: `${1 + Math.floor(rnd() * 120)} ${pick(rnd, STREETS)}`,
        city: c.city,
        country: c.country,
        province: '',
        state: '',
        stateprovince: '',
        zip: c.zip,
        phone: rnd() < 0.5 ? `+45 ${pad(Math.floor(rnd() * 100))} ${pad(Math.floor(rnd() * 100))} ${pad(Math.floor(rnd() * 100))} ${pad(Math.floor(rnd() * 100))}` : '',
        website: rnd() < 0.4 ? `https://${slugOf(name)}.example.com` : '',
        showMap: true,
        showMapLink: true,
        geoLat: geocoded ? Number((c.lat + (rnd() - 0.5) * 0.1).toFixed(6)) : null,
        geoLng: geocoded ? Number((c.lng + (rnd() - 0.5) * 0.1).toFixed(6)) : null,
      };
    });
    await insertChunks(db, CalendarVenueEntity, venueRows);

    // organizers: 100 distinct names
    const organizerNames: string[] = [];
    for (const a of ORG_FIRST) for (const b of ORG_SECOND) organizerNames.push(`${a} ${b}`);
    const organizerIds = await allocatePosts(db, 'organizer', organizerNames.length);
    const organizerList: SeededOrganizer[] = organizerIds.map((id, i) => ({ id, name: organizerNames[i] }));
    await insertChunks(
      db,
      CalendarOrganizerEntity,
      organizerList.map((o, i) => ({
        id: o.id,
        authorId,
        status: 'publish' as const,
        title: o.name,
        description: '',
        excerpt: '',
        slug: slugOf(o.name),
        password: null,
        ...postDates(300 + i),
        image: null,
        phone: rnd() < 0.5 ? `+45 ${pad(Math.floor(rnd() * 100))} ${pad(Math.floor(rnd() * 100))} ${pad(Math.floor(rnd() * 100))} ${pad(Math.floor(rnd() * 100))}` : '',
        website: rnd() < 0.6 ? `https://${slugOf(o.name)}.example.org` : '',
        email: rnd() < 0.7 ? `hello@${slugOf(o.name)}.example.org` : '',
      })),
    );
    return { terms, venueList, organizerList };
  });

  const { terms, venueList, organizerList } = setup;
  const topCategories = terms.filter((t) => t.taxonomy === 'category' && t.parentId === null);
  const childCategories = terms.filter((t) => t.taxonomy === 'category' && t.parentId !== null);
  const categories = [...topCategories, ...childCategories];
  const tags = terms.filter((t) => t.taxonomy === 'tag');

  // ---- events, one transaction per chunk ----
  const eventList: SeededEvent[] = [];
  const counts = { published: 0, hidden: 0, drafts: 0, pending: 0, trashed: 0, eventTerms: 0 };
  const usedSlugs = new Set<string>();
  const dayMs = 86_400_000;
  const todayUtcMidnight = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  for (let done = 0; done < options.events; done += EVENT_CHUNK) {
    const n = Math.min(EVENT_CHUNK, options.events - done);
    await dataSource.transaction(async (db) => {
      chunks++;
      const ids = await allocatePosts(db, 'event', n);
      const eventRows: Array<Partial<CalendarEventEntity>> = [];
      const venueLinks: Array<Partial<CalendarEventVenueEntity>> = [];
      const organizerLinks: Array<Partial<CalendarEventOrganizerEntity>> = [];
      const termLinks: Array<Partial<CalendarEventTermEntity>> = [];
      for (const id of ids) {
        // When: a day in [-365, +365] around the clock, starting 09:00-21:30 local; 5% all-day, 5% multi-day.
        const day = new Date(todayUtcMidnight + Math.floor(rnd() * 731 - 365) * dayMs);
        const ymd = `${day.getUTCFullYear()}-${pad(day.getUTCMonth() + 1)}-${pad(day.getUTCDate())}`;
        const tz = rnd() < 0.9 ? '' : 'Europe/London';
        const zone = tz || site;
        const shape = rnd();
        let startLocal: string;
        let endLocal: string;
        let allDay = false;
        if (shape < 0.05) {
          allDay = true;
          startLocal = `${ymd} 00:00:00`;
          endLocal = `${ymd} 23:59:59`;
        } else {
          const startMin = 9 * 60 + Math.floor(rnd() * 26) * 30;
          const lengthMin = shape < 0.1 ? (1 + Math.floor(rnd() * 3)) * 24 * 60 : (1 + Math.floor(rnd() * 8)) * 30;
          const s = new Date(day.getTime() + startMin * 60_000);
          const e = new Date(s.getTime() + lengthMin * 60_000);
          startLocal = formatYmdHis(s, 'UTC');
          endLocal = formatYmdHis(e, 'UTC');
        }
        const startUtc = fromWallClock(startLocal, zone);
        const endUtc = fromWallClock(endLocal, zone);

        // What: a primary category (a child 80% of the time), the title from it, 0-2 more categories, 1-3 tags.
        const primary = rnd() < 0.8 ? pick(rnd, childCategories) : pick(rnd, topCategories);
        const cats = [primary, ...distinct(rnd, categories, Math.floor(rnd() * 3)).filter((c) => c !== primary)].slice(0, 3);
        const eventTags = distinct(rnd, tags, 1 + Math.floor(rnd() * 3));
        const base = `${pick(rnd, TITLE_OPENERS)} ${primary.name} ${pick(rnd, TITLE_CLOSERS)}`;
        let slug = slugOf(base);
        for (let k = 2; usedSlugs.has(slug); k++) slug = `${slugOf(base)}-${k}`;
        usedSlugs.add(slug);

        // Status: 92% published (1% of those hidden from listings), the rest drafts, pending or trash.
        const r = rnd();
        const status: CalendarPostStatus = r < 0.92 ? 'publish' : r < 0.96 ? 'draft' : r < 0.98 ? 'pending' : 'trash';
        const hideFromListings = status === 'publish' && rnd() < 0.01;
        if (status === 'publish') counts.published++;
        if (hideFromListings) counts.hidden++;
        if (status === 'draft') counts.drafts++;
        if (status === 'pending') counts.pending++;
        if (status === 'trash') counts.trashed++;

        const cost = pick(rnd, COSTS);
        const parsed = parseCost(cost);
        const venue = pick(rnd, venueList);
        const organizers = distinct(rnd, organizerList, 1 + Math.floor(rnd() * 2));
        const published = postDates(10 + Math.floor(rnd() * 200));
        eventRows.push({
          id,
          authorId,
          status,
          statusBeforeTrash: status === 'trash' ? 'publish' : null,
          title: base,
          description: `Join us for ${base} at ${venue.name}, ${venue.city}.`,
          excerpt: rnd() < 0.3 ? `${base} at ${venue.name}.` : '',
          slug: status === 'trash' ? `${slug}__trashed` : slug,
          password: null,
          dateLocal: published.dateLocal,
          dateUtc: status === 'draft' || status === 'pending' ? null : published.dateUtc,
          modifiedAt: published.modifiedAt,
          image: rnd() < 0.3 ? `https://images.example.com/events/${id}.jpg` : null,
          startLocal,
          endLocal,
          startUtc,
          endUtc,
          timezone: tz,
          allDay,
          cost: parsed.text,
          costValues: parsed.values,
          currencySymbol: parsed.currencySymbol,
          currencyCode: parsed.currencyCode,
          currencyPosition: parsed.currencyPosition,
          website: rnd() < 0.2 ? `https://tickets.example.com/${slug}` : null,
          showMap: true,
          showMapLink: true,
          hideFromListings,
          sticky: false,
          featured: rnd() < 0.05,
          postParentId: null,
          originIds: null,
        });
        venueLinks.push({ eventId: id, venueId: venue.id, position: 0 });
        organizers.forEach((o, position) => organizerLinks.push({ eventId: id, organizerId: o.id, position }));
        for (const t of [...cats, ...eventTags]) termLinks.push({ eventId: id, termId: t.id });
        counts.eventTerms += cats.length + eventTags.length;
        eventList.push({
          id,
          title: base,
          status,
          hideFromListings,
          startLocal,
          endLocal,
          venueId: venue.id,
          organizerIds: organizers.map((o) => o.id),
          termIds: [...cats, ...eventTags].map((t) => t.id),
        });
      }
      await insertChunks(db, CalendarEventEntity, eventRows);
      await insertChunks(db, CalendarEventVenueEntity, venueLinks);
      await insertChunks(db, CalendarEventOrganizerEntity, organizerLinks);
      await insertChunks(db, CalendarEventTermEntity, termLinks);
    });
  }

  // The services keep term counts on every write; this bulk load bypasses them, so count once now.
  await recountAllTerms(dataSource.manager);

  // ---- check what was written ----
  const [{ n: storedEvents }] = await dataSource.query(`SELECT COUNT(*) AS n FROM calendar_events`);
  const [{ n: storedTerms }] = await dataSource.query(`SELECT COUNT(*) AS n FROM calendar_event_terms`);
  if (Number(storedEvents) !== options.events) throw new Error(`seed-calendar: ${storedEvents} events stored, expected ${options.events}`);
  if (Number(storedTerms) !== counts.eventTerms) throw new Error(`seed-calendar: ${storedTerms} event terms stored, expected ${counts.eventTerms}`);

  return {
    options,
    now: BENCH_CALENDAR_NOW,
    siteTimezone: site,
    categories: categories.length,
    tags: tags.length,
    venues: venueList.length,
    geocodedVenues: venueList.filter((v) => v.geocoded).length,
    organizers: organizerList.length,
    events: eventList.length,
    ...counts,
    chunks,
    ms: Date.now() - started,
    terms,
    venueList,
    organizerList,
    eventList,
  };
}
