/**
 * The demo events calendar, written through the calendar services as the editor alice (so every write follows the
 * real rules: slugs, cost parsing, timezones, status scale-back) inside ONE transaction: venues in several
 * cities and countries (most geocoded), organizers, a category tree and tags, ~40 events from a few weeks ago to
 * three months ahead in their venues' timezones (some all-day, costs such as "$10 - $20" and "Free", one
 * password-protected, one hidden from listings, drafts by the contributor carol), and Danish, French and German
 * translations of some events and categories.
 *
 * Deterministic relative to the calendar clock (`config.now()`) and the site timezone: the same clock gives the
 * same calendar.
 */
import type { DataSource } from 'typeorm';
import { CalendarLanguage } from '../../entities/calendar';
import { AccountEntity } from '../../entities/identity';
import type { Viewer } from '../auth/viewer';
import { AppConfig, loadConfig } from '../config';
import { contextFor, RequestContext, withTransaction } from '../context';
import { createLogger } from '../observability/logger';
import type { Services } from '../services';
import { formatYmdHis, parseYmdHis } from '../services/calendar/timezones';
import type { CalendarVenueInput } from '../services/calendar/venues.service';

export interface DemoCalendar {
  venues: number;
  organizers: number;
  categories: number;
  tags: number;
  events: number;
  /** The password of the demo's protected event. */
  protectedEventPassword: string;
}

interface VenueSpec extends CalendarVenueInput {
  key: string;
  tz: string;
}

const VENUES: VenueSpec[] = [
  { key: 'bluenote', tz: 'America/New_York', name: 'Blue Note', address: '131 W 3rd St', city: 'New York', state: 'NY', zip: '10012', country: 'United States', phone: '+1 212 475 8592', geoLat: 40.7308, geoLng: -74.0004 },
  { key: 'montmartre', tz: 'Europe/Copenhagen', name: 'Jazzhus Montmartre', address: 'Store Regnegade 19A', city: 'København K', zip: '1110', country: 'Denmark', geoLat: 55.6819, geoLng: 12.581 },
  { key: 'bataclan', tz: 'Europe/Paris', name: 'Le Bataclan', address: '50 Boulevard Voltaire', city: 'Paris', zip: '75011', country: 'France', geoLat: 48.8631, geoLng: 2.3708 },
  { key: 'kulturbrauerei', tz: 'Europe/Berlin', name: 'Kulturbrauerei', address: 'Schönhauser Allee 36', city: 'Berlin', zip: '10435', country: 'Germany', geoLat: 52.5391, geoLng: 13.4125 },
  { key: 'albert', tz: 'Europe/London', name: 'Royal Albert Hall', address: 'Kensington Gore', city: 'London', zip: 'SW7 2AP', country: 'United Kingdom', geoLat: 51.5009, geoLng: -0.1774 },
  { key: 'opera', tz: 'Australia/Sydney', name: 'Sydney Opera House', address: 'Bennelong Point', city: 'Sydney', state: 'NSW', zip: '2000', country: 'Australia', geoLat: -33.8568, geoLng: 151.2153 },
  { key: 'hall', tz: 'America/Chicago', name: 'Springfield Community Hall', address: '12 Elm Street', city: 'Springfield', state: 'IL', zip: '62701', country: 'United States' },
  { key: 'library', tz: 'Europe/Copenhagen', name: 'Aarhus Public Library (Dokk1)', address: 'Hack Kampmanns Plads 2', city: 'Aarhus', zip: '8000', country: 'Denmark', geoLat: 56.1535, geoLng: 10.2142 },
];

const ORGANIZERS = [
  { key: 'jazz', name: 'Jazz Society', email: 'hello@jazz-society.example', website: 'https://jazz-society.example' },
  { key: 'cph', name: 'Copenhagen Culture', email: 'events@cph-culture.example', phone: '+45 33 66 33 66' },
  { key: 'paris', name: 'Paris Live', website: 'https://paris-live.example' },
  { key: 'talks', name: 'Berlin Talks', email: 'team@berlin-talks.example' },
  { key: 'family', name: 'Family Fun Club', phone: '+1 217 555 0100' },
  { key: 'tech', name: 'Open Source Meetup', email: 'organizers@oss-meetup.example', website: 'https://oss-meetup.example' },
];

/** name, parent name, translations (da, fr, de). */
const CATEGORIES: Array<[string, string | null, Partial<Record<CalendarLanguage, string>>]> = [
  ['Music', null, { da: 'Musik', fr: 'Musique', de: 'Musik' }],
  ['Jazz', 'Music', { da: 'Jazz', fr: 'Jazz', de: 'Jazz' }],
  ['Rock', 'Music', { da: 'Rock', fr: 'Rock', de: 'Rock' }],
  ['Classical', 'Music', { da: 'Klassisk', fr: 'Classique', de: 'Klassik' }],
  ['Talks', null, { da: 'Foredrag', fr: 'Conférences', de: 'Vorträge' }],
  ['Family', null, { da: 'Familie', fr: 'Famille', de: 'Familie' }],
  ['Workshops', null, { da: 'Workshops', fr: 'Ateliers', de: 'Workshops' }],
];

const TAGS = ['outdoor', 'indoor', 'free entry', 'kids', 'live music', 'networking', 'beginner friendly', 'evening', 'weekend', 'wheelchair accessible'];

interface EventTemplate {
  title: string;
  description: string;
  venue: string;
  organizer?: string;
  categories: string[];
  tags: string[];
  /** Local start time (HH:MM) and duration in minutes; absent = all day (duration in days). */
  at?: string;
  minutes?: number;
  days?: number;
  costs: string[];
}

const TEMPLATES: EventTemplate[] = [
  { title: 'Late Night Jazz Session', description: 'A trio plays standards until late. Bring your instrument for the open jam after the break.', venue: 'bluenote', organizer: 'jazz', categories: ['Jazz'], tags: ['live music', 'evening'], at: '21:30', minutes: 150, costs: ['$10 - $20', '$15', '$25'] },
  { title: 'Jazz Brunch', description: 'Coffee, pastries and a quartet on Sunday morning.', venue: 'montmartre', organizer: 'cph', categories: ['Jazz'], tags: ['live music', 'weekend'], at: '11:00', minutes: 120, costs: ['150 kr', '120 kr'] },
  { title: 'Rock the Boulevard', description: 'Three local bands, one loud night.', venue: 'bataclan', organizer: 'paris', categories: ['Rock'], tags: ['live music', 'evening'], at: '20:00', minutes: 240, costs: ['€25', '€30 - €45'] },
  { title: 'Chamber Music Evening', description: 'Strings and piano: Schubert, Brahms and a premiere.', venue: 'albert', organizer: 'cph', categories: ['Classical'], tags: ['indoor', 'evening', 'wheelchair accessible'], at: '19:30', minutes: 120, costs: ['£18 - £45'] },
  { title: 'Harbour Symphony', description: 'The orchestra plays the harbour at sunset.', venue: 'opera', categories: ['Classical', 'Family'], tags: ['outdoor', 'weekend'], at: '18:00', minutes: 90, costs: ['Free', '$40'] },
  { title: 'The Future of Cities', description: 'Urban planners and residents on housing, transport and green space.', venue: 'kulturbrauerei', organizer: 'talks', categories: ['Talks'], tags: ['indoor', 'networking'], at: '18:30', minutes: 90, costs: ['Free', '€5'] },
  { title: 'Open Source Meetup', description: 'Lightning talks, then pizza. First-timers welcome.', venue: 'library', organizer: 'tech', categories: ['Talks', 'Workshops'], tags: ['networking', 'beginner friendly', 'free entry'], at: '17:00', minutes: 180, costs: ['Free'] },
  { title: 'Family Fun Fair', description: 'Games, face painting and a bouncy castle all day.', venue: 'hall', organizer: 'family', categories: ['Family'], tags: ['kids', 'outdoor', 'weekend', 'free entry'], days: 1, costs: ['Free'] },
  { title: 'Woodworking for Beginners', description: 'Make a small box in one afternoon; tools provided.', venue: 'hall', organizer: 'family', categories: ['Workshops'], tags: ['beginner friendly', 'indoor'], at: '13:00', minutes: 240, costs: ['$35', '$30 - $35'] },
  { title: 'Reading Marathon', description: 'Volunteers read a whole novel aloud, day and night.', venue: 'library', organizer: 'cph', categories: ['Family', 'Talks'], tags: ['free entry', 'wheelchair accessible'], days: 2, costs: ['Free'] },
];

const TRANSLATIONS: Record<string, Partial<Record<CalendarLanguage, { title: string; description: string }>>> = {
  'Jazz Brunch': {
    da: { title: 'Jazzbrunch', description: 'Kaffe, wienerbrød og en kvartet søndag formiddag.' },
    fr: { title: 'Brunch jazz', description: 'Café, viennoiseries et un quartette le dimanche matin.' },
    de: { title: 'Jazz-Brunch', description: 'Kaffee, Gebäck und ein Quartett am Sonntagmorgen.' },
  },
  'Rock the Boulevard': {
    fr: { title: 'Le boulevard du rock', description: 'Trois groupes locaux, une soirée bruyante.' },
    de: { title: 'Rock am Boulevard', description: 'Drei lokale Bands, eine laute Nacht.' },
  },
  'The Future of Cities': {
    da: { title: 'Byernes fremtid', description: 'Byplanlæggere og beboere om boliger, transport og grønne områder.' },
    de: { title: 'Die Zukunft der Städte', description: 'Stadtplaner und Bewohner über Wohnen, Verkehr und Grünflächen.' },
  },
  'Open Source Meetup': {
    da: { title: 'Open source-træf', description: 'Lyntaler og derefter pizza. Nye ansigter er velkomne.' },
  },
};

export const DEMO_PROTECTED_EVENT_PASSWORD = 'jazz';

/** `YYYY-MM-DD` of `ymd` plus `days`. */
function addDays(ymd: string, days: number): string {
  const w = parseYmdHis(`${ymd} 00:00:00`)!;
  return new Date(Date.UTC(w.year, w.month - 1, w.day + days)).toISOString().slice(0, 10);
}

/** `YYYY-MM-DD HH:MM:SS` of a local date and time plus `minutes`. */
function addMinutes(ymd: string, hhmm: string, minutes: number): string {
  const w = parseYmdHis(`${ymd} ${hhmm}:00`)!;
  return formatYmdHis(new Date(Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute + minutes)), 'UTC');
}

export async function seedCalendarDemo(dataSource: DataSource, services: Services, config: AppConfig = loadConfig({})): Promise<DemoCalendar> {
  const deps = { dataSource, services, config, log: createLogger('silent') };
  const users = dataSource.getRepository(AccountEntity);
  const viewer = async (login: string): Promise<Viewer> => ({ kind: 'user', user: await users.findOneOrFail({ where: { loginLower: login } }), credential: { type: 'internal' } });
  const alice = contextFor(deps, 'seed-calendar', await viewer('alice'));
  const carol = await users.findOneOrFail({ where: { loginLower: 'carol' } });
  const bob = await users.findOneOrFail({ where: { loginLower: 'bob' } });
  const now = config.now();

  return withTransaction(alice, async (tx: RequestContext) => {
    const s = tx.services;
    const venueIds = new Map<string, number>();
    const venueTz = new Map<string, string>();
    for (const { key, tz, ...input } of VENUES) {
      venueIds.set(key, (await s.calendarVenues.create(tx, { ...input, status: 'publish' })).id);
      venueTz.set(key, tz);
    }
    const organizerIds = new Map<string, number>();
    for (const { key, ...input } of ORGANIZERS) organizerIds.set(key, (await s.calendarOrganizers.create(tx, { ...input, status: 'publish' })).id);

    const categoryIds = new Map<string, number>();
    for (const [name, parent] of CATEGORIES) {
      const created = await s.calendarTerms.create(tx, 'category', { name, ...(parent ? { parent: categoryIds.get(parent)! } : {}) });
      categoryIds.set(name, created.term.id);
    }
    for (const [name, , names] of CATEGORIES) {
      for (const [language, translated] of Object.entries(names) as Array<[CalendarLanguage, string]>) {
        if (translated !== name) await s.calendarTerms.update({ ...tx, language }, 'category', categoryIds.get(name)!, { name: translated });
      }
    }
    const tagIds = new Map<string, number>();
    for (const name of TAGS) tagIds.set(name, (await s.calendarTerms.create(tx, 'tag', { name })).term.id);

    // 40 events: the templates in turn, every ~2.7 days from 3 weeks ago to 3 months ahead.
    const translated = new Set<string>();
    let events = 0;
    const COUNT = 40;
    for (let i = 0; i < COUNT; i++) {
      const t = TEMPLATES[i % TEMPLATES.length];
      const round = Math.floor(i / TEMPLATES.length);
      const tz = venueTz.get(t.venue)!;
      const day = addDays(formatYmdHis(now, tz).slice(0, 10), -21 + Math.round((i * 111) / COUNT));
      const [startDate, endDate] =
        t.at !== undefined ? [`${day} ${t.at}:00`, addMinutes(day, t.at, t.minutes ?? 60)] : [`${day} 00:00:00`, `${addDays(day, (t.days ?? 1) - 1)} 23:59:59`];
      const draft = i % 13 === 5;
      const created = await s.calendarEvents.create(tx, {
        title: round === 0 ? t.title : `${t.title} #${round + 1}`,
        description: `<p>${t.description}</p>`,
        excerpt: t.description.split('.')[0] + '.',
        startDate,
        endDate,
        timezone: tz,
        allDay: t.at === undefined,
        cost: t.costs[i % t.costs.length],
        status: draft ? 'draft' : 'publish',
        author: draft ? carol.id : i % 4 === 1 ? bob.id : undefined,
        venue: [venueIds.get(t.venue)!],
        organizer: t.organizer ? [organizerIds.get(t.organizer)!] : [],
        categories: t.categories.map((c) => categoryIds.get(c)!),
        tags: t.tags.map((g) => tagIds.get(g)!),
        featured: i % 9 === 2,
        // One members-only evening (password) and one private rehearsal never listed.
        ...(i === 10 ? { password: DEMO_PROTECTED_EVENT_PASSWORD, title: 'Members-only Jazz Evening' } : {}),
        ...(i === 16 ? { hideFromListings: true, title: 'Closed Rehearsal' } : {}),
      });
      events++;
      const texts = TRANSLATIONS[t.title];
      // Translated: the first upcoming, listed, published occurrence (round 0 lies partly in the past).
      if (texts && round >= 1 && !translated.has(t.title) && !draft && i !== 10 && i !== 16) {
        translated.add(t.title);
        for (const [language, content] of Object.entries(texts) as Array<[CalendarLanguage, { title: string; description: string }]>) {
          await s.calendarEvents.translate(tx, created.id, language, { title: content.title, description: `<p>${content.description}</p>` });
        }
      }
    }
    return { venues: VENUES.length, organizers: ORGANIZERS.length, categories: CATEGORIES.length, tags: TAGS.length, events, protectedEventPassword: DEMO_PROTECTED_EVENT_PASSWORD };
  });
}
