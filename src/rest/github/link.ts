/**
 * GitHub-style `Link` headers for paginated REST lists.
 *
 * Format (what GitHub sends and what `octokit.paginate` parses with `/<([^<>]+)>;\s*rel="next"/`):
 *   <https://host/repos/o/r/secret-scanning/alerts?state=open&per_page=30&page=2>; rel="next", <...&page=9>; rel="last"
 * - Every URL is ABSOLUTE and built from PUBLIC_URL (a path prefix such as `/api/v3` is kept), never from
 *   the Host header: Octokit requests the `next` URL verbatim and only prefixes baseUrl to relative ones.
 * - Every URL carries all query parameters of the request (filters, sort, hide_secret...) plus the
 *   effective `per_page`; only the paging parameters (`page`, `before`, `after`) are replaced.
 * - Page mode: `prev` and `first` are omitted on the first page, `next` and `last` on the last one
 *   (GitHub's documented behaviour). Cursor mode: only `next` (`after=<cursor>`) and `prev`
 *   (`before=<cursor>`); a cursor list cannot compute `first`/`last` pages.
 * - No header at all when everything fits on one page.
 */
import type { RestRequest } from '../route-table';

/** The path and query of a request as the server received it. */
export interface RequestTarget {
  pathname: string;
  search: string;
}

/**
 * The request's own path and query (from the raw request line, so a PUBLIC_URL path prefix that a proxy
 * strips is added back exactly once by `linkUrl`).
 */
export function requestTarget(req: Pick<RestRequest, 'raw'>): RequestTarget {
  const u = new URL(req.raw.url, 'http://localhost');
  return { pathname: u.pathname, search: u.search };
}

export type LinkRel = 'prev' | 'next' | 'last' | 'first';

/** GitHub's documented order of the relations in one header. */
const REL_ORDER: LinkRel[] = ['prev', 'next', 'last', 'first'];

/**
 * The absolute URL of this request's path on PUBLIC_URL with the query changed: each `changes` entry
 * replaces the parameter (a string) or removes it (null/undefined).
 */
export function linkUrl(publicUrl: string, target: RequestTarget, changes: Record<string, string | number | null | undefined>): string {
  const base = publicUrl.replace(/\/+$/, '');
  const params = new URLSearchParams(target.search);
  for (const [k, v] of Object.entries(changes)) {
    if (v === null || v === undefined) params.delete(k);
    else params.set(k, String(v));
  }
  const q = params.toString();
  return `${base}${target.pathname}${q ? `?${q}` : ''}`;
}

/** `<url>; rel="x", ...` in GitHub's order; undefined when there is no link. */
export function formatLinkHeader(links: Partial<Record<LinkRel, string>>): string | undefined {
  const parts = REL_ORDER.filter((rel) => links[rel] !== undefined).map((rel) => `<${links[rel]}>; rel="${rel}"`);
  return parts.length ? parts.join(', ') : undefined;
}

/** Parse a Link header into rel -> URL (for clients and tests). */
export function parseLinkHeader(header: string | null | undefined): Partial<Record<string, string>> {
  const out: Record<string, string> = {};
  if (!header) return out;
  for (const m of header.matchAll(/<([^<>]+)>;\s*rel="([^"]+)"/g)) out[m[2]] = m[1];
  return out;
}

/**
 * Links of a page-mode list (`page` + `per_page`). `lastPage` (the number of the last page) is only needed when
 * there is a next page: load it with `lastPageOf` before presenting.
 */
export function pageModeLinks(
  publicUrl: string,
  target: RequestTarget,
  p: { page: number; perPage: number; hasNextPage: boolean; lastPage?: number },
): string | undefined {
  const url = (page: number) => linkUrl(publicUrl, target, { before: null, after: null, per_page: p.perPage, page });
  const links: Partial<Record<LinkRel, string>> = {};
  if (p.page > 1) {
    links.prev = url(p.page - 1);
    links.first = url(1);
  }
  if (p.hasNextPage) {
    links.next = url(p.page + 1);
    if (p.lastPage !== undefined) links.last = url(Math.max(p.page + 1, p.lastPage));
  }
  return formatLinkHeader(links);
}

/** The last page's number when a Link header will need it (there is a next page), else undefined. */
export async function lastPageOf(page: { hasNextPage: boolean; lastPage?: () => Promise<number> }): Promise<number | undefined> {
  return page.hasNextPage && page.lastPage ? page.lastPage() : undefined;
}

/** Links of a cursor-mode list (`before` / `after` + `per_page`). */
export function cursorModeLinks(
  publicUrl: string,
  target: RequestTarget,
  p: { perPage: number; nextCursor?: string | null; prevCursor?: string | null },
): string | undefined {
  const url = (changes: Record<string, string | null>) => linkUrl(publicUrl, target, { page: null, before: null, after: null, per_page: p.perPage, ...changes });
  const links: Partial<Record<LinkRel, string>> = {};
  if (p.prevCursor) links.prev = url({ before: p.prevCursor });
  if (p.nextCursor) links.next = url({ after: p.nextCursor });
  return formatLinkHeader(links);
}
