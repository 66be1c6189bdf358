/**
 * Venue and organizer JSON (reference §1.2, §1.3): field order, string author, dropped empty values, show_map after
 * the filter, global ids, json_ld on single reads only, rendered title/description.
 */
import { CalendarOrganizerEntity, CalendarVenueEntity } from '../../../entities/calendar';
import { presentOrganizer, presentVenue, WireContext } from '../../../src/rest/wordpress/calendar-venues.presenters';
import { maskProtected } from '../../../src/services/calendar/linked-posts';

const wire: WireContext = { baseUrl: 'https://cal.example/sub/calendar/events/v1', siteUrl: 'https://cal.example/sub', siteTz: 'America/New_York' };

function venue(over: Partial<CalendarVenueEntity> = {}): CalendarVenueEntity {
  return Object.assign(new CalendarVenueEntity(), {
    id: 42,
    authorId: 3,
    status: 'publish',
    statusBeforeTrash: null,
    title: "Joe's Bar",
    description: 'Line one\n\nLine two',
    excerpt: '',
    slug: 'joes-bar',
    password: null,
    dateLocal: '2025-01-02 10:00:00',
    dateUtc: new Date('2025-01-02T15:00:00Z'),
    modifiedAt: new Date('2025-01-03T15:00:00Z'),
    image: null,
    address: '1 Main St',
    city: 'New York',
    country: 'United States',
    province: '',
    state: 'NY',
    stateprovince: '',
    zip: '10001',
    phone: '',
    website: '',
    showMap: false,
    showMapLink: true,
    geoLat: null,
    geoLng: null,
    ...over,
  });
}

function organizer(over: Partial<CalendarOrganizerEntity> = {}): CalendarOrganizerEntity {
  return Object.assign(new CalendarOrganizerEntity(), {
    id: 43,
    authorId: null,
    status: 'draft',
    statusBeforeTrash: null,
    title: 'The Org',
    description: '',
    excerpt: 'Short',
    slug: 'the-org',
    password: null,
    dateLocal: '2025-01-02 10:00:00',
    dateUtc: null,
    modifiedAt: new Date('2025-01-03T15:00:00Z'),
    image: 'https://img.example/a/logo.PNG?x=1',
    phone: '555',
    website: '',
    email: 'org@x.example',
    ...over,
  });
}

describe('presentVenue', () => {
  it('has the plugin’s field order, drops empty values, then show_map, show_map_link, global ids', () => {
    const out = presentVenue(venue(), wire);
    expect(Object.keys(out)).toEqual([
      'id', 'author', 'status', 'date', 'date_utc', 'modified', 'modified_utc', 'url', 'venue', 'description', 'slug',
      'address', 'city', 'country', 'state', 'zip', 'show_map', 'show_map_link', 'global_id', 'global_id_lineage',
    ]);
    expect(out).toMatchObject({
      id: 42,
      author: '3',
      date: '2025-01-02 10:00:00',
      date_utc: '2025-01-02 15:00:00',
      modified: '2025-01-03 10:00:00',
      modified_utc: '2025-01-03 15:00:00',
      url: 'https://cal.example/sub/calendar/venue/joes-bar/',
      venue: 'Joe&#8217;s Bar',
      description: '<p>Line one</p>\n<p>Line two</p>',
      show_map: false,
      show_map_link: true,
      global_id: 'cal.example/sub?id=42',
      global_id_lineage: ['cal.example/sub?id=42'],
    });
    expect(out).not.toHaveProperty('json_ld');
  });

  it('author "0" and image false are dropped; coordinates appear only when geocoded; json_ld on single reads', () => {
    const plain = presentVenue(venue({ authorId: null }), wire);
    expect(plain).not.toHaveProperty('author');
    expect(plain).not.toHaveProperty('image');
    expect(plain).not.toHaveProperty('geo_lat');
    const geo = presentVenue(venue({ geoLat: 40.75, geoLng: -73.99, image: 'https://img.example/hall.jpg', phone: '555-1' }), wire, { single: true });
    const keys = Object.keys(geo);
    expect(keys.slice(keys.indexOf('phone'))).toEqual([
      'phone', 'geo_lat', 'geo_lng', 'json_ld', 'show_map', 'show_map_link', 'global_id', 'global_id_lineage',
    ]);
    expect(geo).toMatchObject({ geo_lat: 40.75, geo_lng: -73.99, image: { url: 'https://img.example/hall.jpg', extension: 'jpg' } });
    expect(geo.json_ld).toEqual({
      '@context': 'http://schema.org',
      '@type': 'Place',
      name: 'Joe&#8217;s Bar',
      description: 'Line one Line two',
      image: 'https://img.example/hall.jpg',
      url: 'https://cal.example/sub/calendar/venue/joes-bar/',
      address: { streetAddress: '1 Main St', addressLocality: 'New York', addressRegion: 'NY', postalCode: '10001', addressCountry: 'United States' },
      telephone: '555-1',
      sameAs: '',
      geo: { '@type': 'GeoCoordinates', latitude: 40.75, longitude: -73.99 },
    });
    // not for drafts or protected venues, and never in lists
    expect(presentVenue(venue({ status: 'draft' }), wire, { single: true })).not.toHaveProperty('json_ld');
    expect(presentVenue(venue({ password: 'pw' }), wire, { single: true })).not.toHaveProperty('json_ld');
  });

  it('masked (a protected venue): the name becomes [], text "", booleans null, ids/urls kept', () => {
    const out = maskProtected(presentVenue(venue({ password: 'pw', geoLat: 1, geoLng: 2 }), wire));
    expect(out).toMatchObject({ id: 42, venue: [], description: '', address: '', city: '', zip: '', show_map: null, show_map_link: null, geo_lat: 0, geo_lng: 0, state: 'NY', slug: 'joes-bar' });
    expect(out.url).toBe('https://cal.example/sub/calendar/venue/joes-bar/');
  });
});

describe('presentOrganizer', () => {
  it('order, array_filter over everything, draft date_utc zeros, image object, json_ld Person', () => {
    const out = presentOrganizer(organizer(), wire, { single: false });
    expect(Object.keys(out)).toEqual([
      'id', 'status', 'date', 'date_utc', 'modified', 'modified_utc', 'url', 'organizer', 'excerpt', 'slug', 'image', 'phone', 'email', 'global_id', 'global_id_lineage',
    ]);
    expect(out).toMatchObject({
      date_utc: '0000-00-00 00:00:00',
      url: 'https://cal.example/sub/calendar/organizer/the-org/',
      organizer: 'The Org',
      excerpt: '<p>Short</p>',
      image: { url: 'https://img.example/a/logo.PNG?x=1', extension: 'png' },
      global_id: 'cal.example/sub?id=43',
    });
    const single = presentOrganizer(organizer({ status: 'publish', website: 'https://org.example' }), wire, { single: true });
    expect(Object.keys(single).slice(-4)).toEqual(['email', 'json_ld', 'global_id', 'global_id_lineage']);
    expect(single.json_ld).toMatchObject({ '@type': 'Person', name: 'The Org', description: 'Short', telephone: '555', sameAs: 'https://org.example' });
  });

  it('json_ld name and description escape as esc_js does', () => {
    const single = presentOrganizer(organizer({ status: 'publish', title: 'A "B" & C', excerpt: "It's <b>bold</b>\nnext" }), wire, { single: true });
    expect(single.json_ld).toMatchObject({ name: 'A &#8220;B&#8221; &#038; C', description: "It\\'s bold next" });
  });
});
