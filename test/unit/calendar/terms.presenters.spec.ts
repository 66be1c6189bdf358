/**
 * Term JSON shapes (reference §1.4): shape A inside events, shape B on the term routes; field order, types, urls.
 */
import { CalendarTermEntity } from '../../../entities/calendar';
import type { WireContext } from '../../../src/rest/wordpress/calendar-wire';
import { presentTermA, presentTermB } from '../../../src/rest/wordpress/calendar-terms.presenters';
import type { TermView } from '../../../src/services/calendar/terms.service';

const wire: WireContext = { baseUrl: 'https://gw.example/calendar/events/v1', siteUrl: 'https://gw.example', siteTz: 'Europe/Copenhagen' };

function view(over: Partial<CalendarTermEntity>, count = 3): TermView {
  const term = Object.assign(new CalendarTermEntity(), { id: 12, taxonomy: 'category', name: 'Jazz & Blues', slug: 'jazz-blues', description: 'Live', parentId: 5, termGroup: 0, ...over });
  return { term, count };
}

describe('term presenters', () => {
  it('shape A (a raw WP_Term inside an event): fields in order, id last, ints as numbers, filter raw', () => {
    const a = presentTermA(view({}), wire);
    expect(Object.keys(a)).toEqual(['name', 'slug', 'term_group', 'term_taxonomy_id', 'taxonomy', 'description', 'parent', 'count', 'filter', 'id', 'urls']);
    expect(a).toEqual({
      name: 'Jazz & Blues',
      slug: 'jazz-blues',
      term_group: 0,
      term_taxonomy_id: 12,
      taxonomy: 'tribe_events_cat',
      description: 'Live',
      parent: 5,
      count: 3,
      filter: 'raw',
      id: 12,
      urls: {
        self: 'https://gw.example/calendar/events/v1/categories/12',
        collection: 'https://gw.example/calendar/events/v1/categories',
        up: 'https://gw.example/calendar/events/v1/categories/5',
      },
    });
    expect(Object.keys(a.urls)).toEqual(['self', 'collection', 'up']);
  });

  it('shape A of a tag: post_tag, parent 0 and no `up` url', () => {
    const a = presentTermA(view({ id: 40, taxonomy: 'tag', name: 'Outdoor', slug: 'outdoor', description: '', parentId: null }, 0), wire);
    expect(a.taxonomy).toBe('post_tag');
    expect(a.parent).toBe(0);
    expect(a.count).toBe(0);
    expect(a.urls).toEqual({ self: 'https://gw.example/calendar/events/v1/tags/40', collection: 'https://gw.example/calendar/events/v1/tags' });
    expect('up' in a.urls).toBe(false);
  });

  it('shape B of a category: id first, parent present, meta [], url = the term link', () => {
    const b = presentTermB(view({}), wire);
    expect(Object.keys(b)).toEqual(['id', 'count', 'description', 'name', 'slug', 'taxonomy', 'parent', 'meta', 'url', 'urls']);
    expect(b).toEqual({
      id: 12,
      count: 3,
      description: 'Live',
      name: 'Jazz & Blues',
      slug: 'jazz-blues',
      taxonomy: 'tribe_events_cat',
      parent: 5,
      meta: [],
      url: 'https://gw.example/calendar/category/jazz-blues/',
      urls: {
        self: 'https://gw.example/calendar/events/v1/categories/12',
        collection: 'https://gw.example/calendar/events/v1/categories',
        up: 'https://gw.example/calendar/events/v1/categories/5',
      },
    });
  });

  it('shape B of a top-level category has parent 0 and no up; of a tag, no parent key at all', () => {
    const top = presentTermB(view({ parentId: null }), wire);
    expect(top.parent).toBe(0);
    expect(Object.keys(top.urls)).toEqual(['self', 'collection']);
    const tag = presentTermB(view({ id: 40, taxonomy: 'tag', name: 'Outdoor', slug: 'outdoor', parentId: null }), wire);
    expect(Object.keys(tag)).toEqual(['id', 'count', 'description', 'name', 'slug', 'taxonomy', 'meta', 'url', 'urls']);
    expect(tag.taxonomy).toBe('post_tag');
    expect(tag.url).toBe('https://gw.example/calendar/tag/outdoor/');
    expect(tag.urls.self).toBe('https://gw.example/calendar/events/v1/tags/40');
  });

  it('a WordPress slug with percent-encoded letters is linked as it is, not encoded twice', () => {
    const b = presentTermB(view({ slug: '%e9%9f%b3%e6%a5%bd' }), wire);
    expect(b.url).toBe('https://gw.example/calendar/category/%e9%9f%b3%e6%a5%bd/');
  });

  it('a trailing slash on the configured URLs does not double up', () => {
    const b = presentTermB(view({}), { ...wire, baseUrl: `${wire.baseUrl}/`, siteUrl: `${wire.siteUrl}/` });
    expect(b.url).toBe('https://gw.example/calendar/category/jazz-blues/');
    expect(b.urls.self).toBe('https://gw.example/calendar/events/v1/categories/12');
  });
});
