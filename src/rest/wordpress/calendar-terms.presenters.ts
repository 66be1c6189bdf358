/**
 * Calendar terms on the wire (reference §1.4), two shapes:
 *  - A, inside an event: a raw WP_Term `{name, slug, term_group, term_taxonomy_id, taxonomy, description, parent,
 *    count, filter: "raw", id, urls}` (`id` last: WordPress renames term_id);
 *  - B, the `/categories` and `/tags` routes (list, single, create, update, delete): WP REST view context
 *    `{id, count, description, name, slug, taxonomy, parent (categories only), meta: [], url, urls}`.
 * `urls.up` (the parent's self URL) only when the term has a parent. Pure functions of a TermView and the wire context.
 */
import type { CalendarTaxonomy } from '../../../entities/calendar';
import type { TermView } from '../../services/calendar/terms.service';
import type { WireContext } from './calendar-wire';

export type { TermView } from '../../services/calendar/terms.service';

/** WordPress' taxonomy names: The Events Calendar's categories, WordPress' own tags. */
export const WP_TAXONOMY: Record<CalendarTaxonomy, 'tribe_events_cat' | 'post_tag'> = {
  category: 'tribe_events_cat',
  tag: 'post_tag',
};

/** The REST collection of a taxonomy (`categories`, `tags`). */
export const TERM_COLLECTION: Record<CalendarTaxonomy, 'categories' | 'tags'> = {
  category: 'categories',
  tag: 'tags',
};

export type TermUrls = {
  self: string;
  collection: string;
  up?: string;
};

export type TermShapeA = {
  name: string;
  slug: string;
  term_group: number;
  term_taxonomy_id: number;
  taxonomy: string;
  description: string;
  parent: number;
  count: number;
  filter: 'raw';
  id: number;
  urls: TermUrls;
};

export type TermShapeB = {
  id: number;
  count: number;
  description: string;
  name: string;
  slug: string;
  taxonomy: string;
  parent?: number;
  meta: [];
  url: string;
  urls: TermUrls;
};

function trimSlash(url: string): string {
  return url.replace(/\/+$/, '');
}

export function termUrls(view: TermView, wire: WireContext): TermUrls {
  const collection = `${trimSlash(wire.baseUrl)}/${TERM_COLLECTION[view.term.taxonomy]}`;
  const urls: TermUrls = { self: `${collection}/${view.term.id}`, collection };
  if (view.term.parentId) urls.up = `${collection}/${view.term.parentId}`;
  return urls;
}

/** The term's public page: `<site>/calendar/category/<slug>/` or `<site>/calendar/tag/<slug>/`. */
export function termLink(view: TermView, wire: WireContext): string {
  // Slugs are stored as WordPress stores them (non-Latin letters already percent-encoded): encode only what is left.
  return `${trimSlash(wire.siteUrl)}/calendar/${view.term.taxonomy}/${encodeURI(view.term.slug).replace(/%25([0-9a-fA-F]{2})/g, '%$1')}/`;
}

/** Shape A (a term inside an event). */
export function presentTermA(view: TermView, wire: WireContext): TermShapeA {
  const t = view.term;
  return {
    name: t.name,
    slug: t.slug,
    term_group: t.termGroup ?? 0,
    term_taxonomy_id: t.id,
    taxonomy: WP_TAXONOMY[t.taxonomy],
    description: t.description ?? '',
    parent: t.parentId ?? 0,
    count: view.count,
    filter: 'raw',
    id: t.id,
    urls: termUrls(view, wire),
  };
}

/** Shape B (the term routes). */
export function presentTermB(view: TermView, wire: WireContext): TermShapeB {
  const t = view.term;
  return {
    id: t.id,
    count: view.count,
    description: t.description ?? '',
    name: t.name,
    slug: t.slug,
    taxonomy: WP_TAXONOMY[t.taxonomy],
    ...(t.taxonomy === 'category' ? { parent: t.parentId ?? 0 } : {}),
    meta: [],
    url: termLink(view, wire),
    urls: termUrls(view, wire),
  };
}
