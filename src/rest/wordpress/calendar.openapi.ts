/**
 * The named schemas of the calendar's /doc document (The Events Calendar's component names: ImageSize, CostDetails,
 * Term, Image, DateDetails, Event, Venue, Organizer) and the response declarations the calendar rows use. Unlike
 * the plugin's own document, these describe what the answers really hold (`author` is a string, date details and
 * cost details are objects).
 */
import { CALENDAR_NAMESPACE, registerNamespaceSchemas } from './namespaces';

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const str = (description?: string) => ({ type: 'string', ...(description ? { description } : {}) });
const bool = (description?: string) => ({ type: 'boolean', ...(description ? { description } : {}) });
const int = (description?: string) => ({ type: 'integer', ...(description ? { description } : {}) });

export const CALENDAR_SCHEMAS: Record<string, object> = {
  ImageSize: {
    type: 'object',
    properties: { width: int(), height: int(), 'mime-type': str(), filesize: int(), url: str() },
  },
  CostDetails: {
    type: 'object',
    properties: {
      currency_symbol: str('e.g. $'),
      currency_code: str('ISO 4217 code when known'),
      currency_position: { type: 'string', enum: ['prefix', 'suffix', ''] },
      values: { type: 'array', items: str('a numeric string'), description: 'ascending' },
    },
  },
  Term: {
    type: 'object',
    description: 'A category or tag inside an event (WordPress term object).',
    properties: {
      name: str(),
      slug: str(),
      term_group: int(),
      term_taxonomy_id: int(),
      taxonomy: str('tribe_events_cat or post_tag'),
      description: str(),
      parent: int(),
      count: int('published events using the term'),
      filter: str(),
      id: int(),
      urls: { type: 'object', properties: { self: str(), collection: str(), up: str() } },
    },
  },
  Image: {
    type: 'object',
    properties: { url: str(), id: int(), extension: str(), width: int(), height: int(), filesize: int(), sizes: { type: 'object', additionalProperties: ref('ImageSize') } },
  },
  DateDetails: {
    type: 'object',
    description: 'Zero-padded strings.',
    properties: { year: str(), month: str(), day: str(), hour: str(), minutes: str(), seconds: str() },
  },
  Event: {
    type: 'object',
    properties: {
      id: int(),
      global_id: str(),
      global_id_lineage: { type: 'array', items: str() },
      author: str('the author id, as a string'),
      status: str(),
      date: str(),
      date_utc: str(),
      modified: str(),
      modified_utc: str(),
      url: str(),
      rest_url: str(),
      title: str(),
      description: str(),
      excerpt: str(),
      slug: str(),
      image: { oneOf: [ref('Image'), bool('false when there is none')] },
      all_day: bool(),
      start_date: str('Y-m-d H:i:s in the event timezone'),
      start_date_details: ref('DateDetails'),
      end_date: str(),
      end_date_details: ref('DateDetails'),
      utc_start_date: str(),
      utc_start_date_details: ref('DateDetails'),
      utc_end_date: str(),
      utc_end_date_details: ref('DateDetails'),
      timezone: str(),
      timezone_abbr: str(),
      cost: str(),
      cost_details: ref('CostDetails'),
      website: str(),
      show_map: bool(),
      show_map_link: bool(),
      hide_from_listings: bool(),
      sticky: bool(),
      featured: bool(),
      categories: { type: 'array', items: ref('Term') },
      tags: { type: 'array', items: ref('Term') },
      venue: { description: 'the venue; [] when none; an array when several', oneOf: [ref('Venue'), { type: 'array', items: ref('Venue') }] },
      organizer: { type: 'array', items: ref('Organizer') },
      custom_fields: { oneOf: [{ type: 'object' }, { type: 'array', items: {} }] },
      json_ld: { type: 'object', description: 'schema.org Event (single reads only)' },
    },
  },
  Venue: {
    type: 'object',
    description: 'Empty fields are left out.',
    properties: {
      id: int(),
      author: str(),
      status: str(),
      date: str(),
      date_utc: str(),
      modified: str(),
      modified_utc: str(),
      url: str(),
      venue: str('the name'),
      description: str(),
      excerpt: str(),
      slug: str(),
      image: ref('Image'),
      address: str(),
      city: str(),
      country: str(),
      province: str(),
      state: str(),
      zip: str(),
      phone: str(),
      website: str(),
      stateprovince: str(),
      geo_lat: { type: 'number' },
      geo_lng: { type: 'number' },
      json_ld: { type: 'object' },
      show_map: bool(),
      show_map_link: bool(),
      global_id: str(),
      global_id_lineage: { type: 'array', items: str() },
    },
  },
  Organizer: {
    type: 'object',
    description: 'Empty fields are left out.',
    properties: {
      id: int(),
      author: str(),
      status: str(),
      date: str(),
      date_utc: str(),
      modified: str(),
      modified_utc: str(),
      url: str(),
      organizer: str('the name'),
      description: str(),
      excerpt: str(),
      slug: str(),
      image: ref('Image'),
      phone: str(),
      website: str(),
      email: str(),
      json_ld: { type: 'object' },
      global_id: str(),
      global_id_lineage: { type: 'array', items: str() },
    },
  },
  TermObject: {
    type: 'object',
    description: 'A category or tag as /categories and /tags answer it (WordPress REST view).',
    properties: {
      id: int(),
      count: int(),
      description: str(),
      name: str(),
      slug: str(),
      taxonomy: str(),
      parent: int('categories only'),
      meta: { type: 'array', items: {} },
      url: str(),
      urls: { type: 'object', properties: { self: str(), collection: str(), up: str() } },
    },
  },
};

registerNamespaceSchemas(CALENDAR_NAMESPACE.namespace, CALENDAR_SCHEMAS);

/** A post list envelope schema (`events`, `venues`, `organizers`). */
export function postListSchema(key: 'events' | 'venues' | 'organizers', item: 'Event' | 'Venue' | 'Organizer'): Record<string, unknown> {
  return {
    type: 'object',
    properties: {
      [key]: { type: 'array', items: ref(item) },
      rest_url: str(),
      next_rest_url: str(),
      previous_rest_url: str(),
      total: int(),
      total_pages: int(),
    },
  };
}

/** A term list envelope schema (`categories`, `tags`). */
export function termListSchema(key: 'categories' | 'tags'): Record<string, unknown> {
  return {
    type: 'object',
    properties: { rest_url: str(), total: int(), total_pages: int(), [key]: { type: 'array', items: ref('TermObject') }, next_rest_url: str(), previous_rest_url: str() },
  };
}

export const schemaRef = ref;

const ITEM: Record<string, string> = { events: 'Event', venues: 'Venue', organizers: 'Organizer', categories: 'TermObject', tags: 'TermObject' };

/**
 * The calendar rows with their success answers documented (list envelopes, the object, 201 on create), derived
 * from each row's collection and method so no row states it by hand. Rows that already declare responses keep them.
 */
export function withCalendarResponses<R extends { path: string; method: string; responses?: Record<string, { description: string; schema?: Record<string, unknown> }> }>(rows: R[]): R[] {
  for (const r of rows) {
    if (r.responses) continue;
    const m = /^\/calendar\/events\/v1\/(events|venues|organizers|categories|tags)(\/.*)?$/.exec(r.path);
    if (!m) continue;
    const [, collection, rest] = m;
    const item = ITEM[collection];
    if (!rest && r.method === 'GET') {
      const schema =
        collection === 'categories' || collection === 'tags'
          ? termListSchema(collection)
          : postListSchema(collection as 'events' | 'venues' | 'organizers', item as 'Event' | 'Venue' | 'Organizer');
      r.responses = { '200': { description: `A page of ${collection} (headers X-TEC-Total, X-TEC-TotalPages)`, schema } };
    } else if (!rest && r.method === 'POST') {
      r.responses = { '201': { description: 'Created', schema: ref(item) } };
    } else if (r.method === 'DELETE') {
      r.responses = { '200': { description: collection === 'categories' || collection === 'tags' ? 'Deleted (the term as it was)' : 'Moved to the trash', schema: ref(item) } };
    } else {
      r.responses = { '200': { description: 'Success', schema: ref(item) } };
    }
  }
  return rows;
}
