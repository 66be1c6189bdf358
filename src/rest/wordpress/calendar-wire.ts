/**
 * What every calendar presenter needs to know about where it answers: the REST base (`<PUBLIC_URL>/calendar/events/v1`),
 * the site URL (permalinks, global ids), the site timezone and the request language. Presenters are pure functions of
 * what services return plus this.
 */
import type { RequestContext } from '../../context';
import type { Language } from '../../i18n';

export const CALENDAR_REST_BASE = '/calendar/events/v1';

export interface WireContext {
  /** `<PUBLIC_URL>/calendar/events/v1` (no trailing slash). */
  baseUrl: string;
  /** PUBLIC_URL (no trailing slash). */
  siteUrl: string;
  siteTz: string;
  language?: Language;
}

export function wireContext(ctx: RequestContext): WireContext {
  const siteUrl = ctx.config.publicUrl.replace(/\/+$/, '');
  return { baseUrl: `${siteUrl}${CALENDAR_REST_BASE}`, siteUrl, siteTz: ctx.config.calendarTimezone, language: ctx.language };
}

/** The Events Calendar's global id: the site's host and path, no scheme, `?id=<id>` (e.g. `example.com?id=123`). */
export function globalId(wire: WireContext, id: number): string {
  let prefix = GLOBAL_ID_PREFIX.get(wire.siteUrl);
  if (prefix === undefined) {
    const u = new URL(wire.siteUrl);
    prefix = `${u.host}${u.pathname.replace(/\/+$/, '')}?id=`;
    if (GLOBAL_ID_PREFIX.size > 16) GLOBAL_ID_PREFIX.clear();
    GLOBAL_ID_PREFIX.set(wire.siteUrl, prefix);
  }
  return `${prefix}${id}`;
}

/** Site URL -> its global id prefix (parsing a URL per object was a visible share of a list's CPU). */
const GLOBAL_ID_PREFIX = new Map<string, string>();

/** A post's permalink: `<site>/calendar/<kind>/<slug>/`. */
export function permalink(wire: WireContext, kind: 'event' | 'venue' | 'organizer', slug: string): string {
  return `${wire.siteUrl}/calendar/${kind}/${slug}/`; // slugs are sanitized (percent-encoded where not ASCII)
}

/** WordPress' post_author on the wire: a string, "0" for none. */
export function authorString(authorId: number | null): string {
  return String(authorId ?? 0);
}

/** The featured image object (no media library: the URL and its extension), or false. */
export function imageObject(url: string | null): false | Record<string, unknown> {
  if (!url) return false;
  let ext = '';
  try {
    const m = /\.([A-Za-z0-9]{1,5})$/.exec(new URL(url).pathname);
    if (m) ext = m[1].toLowerCase();
  } catch {
    /* stored URLs are checked on write */
  }
  return ext ? { url, extension: ext } : { url };
}

/** `ceil(total/per_page)`, 0 when there is nothing. */
export function totalPages(total: number, perPage: number): number {
  return total === 0 ? 0 : Math.ceil(total / perPage);
}

/** per_page as the plugin applies it: the declared default, silently clamped to 50. */
export const MAX_PER_PAGE = 50;
export function clampPerPage(perPage: number | undefined, fallback = 10): number {
  return Math.min(perPage ?? fallback, MAX_PER_PAGE);
}

/**
 * The list envelope of events, venues and organizers (reference §2): `{<key>: items, rest_url, next_rest_url?,
 * previous_rest_url?, total, total_pages}` and the X-TEC-Total / X-TEC-TotalPages headers. `args` are the
 * effective query arguments after `page` (in the plugin's order; values not URL-encoded, as the plugin leaves them).
 */
export function postListResult(
  key: 'events' | 'venues' | 'organizers',
  items: unknown[],
  wire: WireContext,
  page: number,
  perPage: number,
  total: number,
  args: Array<[string, string]>,
): { status: number; headers: Record<string, string>; body: Record<string, unknown> } {
  const pages = totalPages(total, perPage);
  const rest = [['per_page', String(perPage)], ...args].map(([k, v]) => `${k}=${v}`).join('&');
  const base = `${wire.baseUrl}/${key}/`;
  const body: Record<string, unknown> = { [key]: items, rest_url: `${base}?page=${page}&${rest}` };
  if (page < pages) body.next_rest_url = `${base}?${rest}&page=${page + 1}`;
  if (page > 1) body.previous_rest_url = page === 2 ? `${base}?${rest}` : `${base}?${rest}&page=${page - 1}`;
  body.total = total;
  body.total_pages = pages;
  return { status: 200, headers: { 'X-TEC-Total': String(total), 'X-TEC-TotalPages': String(pages) }, body };
}
