/**
 * /calendar/events/v1/categories and /tags: route rows (WordPress' terms controller as The Events Calendar
 * registers it, reference §0, §1.4 shape B, §2 term lists, §4 Terms). Thin: arguments declared once, the term
 * service call, the shape-B presenter. Lists: `{rest_url, total, total_pages, categories|tags, next_rest_url?,
 * previous_rest_url?}` with X-TEC-Total headers, a page past the end is 200 empty; delete is permanent and
 * returns the term; an existing name is 400 `term_exists` with `data.term_id`.
 */
import type { CalendarTaxonomy } from '../../../entities/calendar';
import type { RequestContext } from '../../context';
import { TERM_ORDERBY, TermCreateInput, TermOrderBy, TermExistsError, TermListQuery, TermPatch, TermView } from '../../services/calendar/terms.service';
import type { RestResult, RestRoute } from '../route-table';
import { presentTermB, TERM_COLLECTION } from './calendar-terms.presenters';
import { CALENDAR_REST_BASE, clampPerPage, totalPages, wireContext } from './calendar-wire';
import { translateMessage } from './messages';
import { ArgValues, PATH_ID, wp, WpArgs, wpRoute } from './params';

function listArgs(taxonomy: CalendarTaxonomy) {
  const what = TERM_COLLECTION[taxonomy];
  return {
    page: wp.integer({ description: 'The archive page to return', default: 1, minimum: 1 }),
    per_page: wp.integer({ description: `The number of ${what} to return on each page (at most 50)`, default: 10, minimum: 1, field: 'perPage' }),
    search: wp.string({ description: `Only ${what} whose name or slug contains this string` }),
    exclude: wp.list('integer', { description: `Leave out these ${what} (ids)` }),
    include: wp.list('string', { description: `Only these ${what} (ids or slugs)` }),
    order: wp.enum<'asc' | 'desc'>(['asc', 'desc'], { description: 'Sort ascending or descending', default: 'asc' }),
    orderby: wp.enum<TermOrderBy>(TERM_ORDERBY, { description: 'Sort by this term attribute', default: 'name' }),
    hide_empty: wp.boolean({ description: `Only ${what} used by at least one published event`, default: true, field: 'hideEmpty' }),
    ...(taxonomy === 'category' ? { parent: wp.integer({ description: 'Only direct children of this category (0: top level)', minimum: 0 }) } : {}),
    post: wp.integer({ description: `The ${what} of this event (id)`, minimum: 1 }),
    event: wp.integer({ description: 'Alias of post', minimum: 1 }),
    slug: wp.list('string', { description: `Only ${what} with these slugs` }),
  } satisfies WpArgs;
}

function termFields(taxonomy: CalendarTaxonomy, create: boolean) {
  const what = taxonomy === 'category' ? 'category' : 'tag';
  return {
    name: wp.string({ description: `The ${what} name`, required: create }),
    description: wp.string({ description: `The ${what} description` }),
    slug: wp.string({ description: `The ${what} slug` }),
    ...(taxonomy === 'category' ? { parent: wp.integer({ description: 'The parent category id (0: top level)', minimum: 0 }) } : {}),
  } satisfies WpArgs;
}

type ListValues = ArgValues<ReturnType<typeof listArgs>> & { parent?: number };
type FieldValues = { name?: string; description?: string; slug?: string; parent?: number };

function listQuery(a: ListValues): TermListQuery {
  return {
    page: a.page ?? 1,
    perPage: clampPerPage(a.per_page),
    search: a.search,
    exclude: a.exclude,
    include: a.include?.map((v) => (/^\d+$/.test(v) ? Number(v) : v)),
    order: a.order,
    orderby: a.orderby,
    hideEmpty: a.hide_empty,
    parent: a.parent,
    post: a.post ?? a.event,
    slug: a.slug,
  };
}

function fieldsInput(a: FieldValues): TermPatch {
  const out: TermPatch = {};
  if (a.name !== undefined) out.name = a.name;
  if (a.description !== undefined) out.description = a.description;
  if (a.slug !== undefined) out.slug = a.slug;
  if (a.parent !== undefined) out.parent = a.parent;
  return out;
}

/**
 * The term list envelope (reference §2): `rest_url` is `<base>/<collection>/` without a query, next/previous add
 * `page=`; then the X-TEC-Total headers.
 */
export function termListResult(
  taxonomy: CalendarTaxonomy,
  items: unknown[],
  ctx: RequestContext,
  page: number,
  perPage: number,
  total: number,
): RestResult {
  const key = TERM_COLLECTION[taxonomy];
  const url = `${wireContext(ctx).baseUrl}/${key}/`;
  const pages = totalPages(total, perPage);
  const body: Record<string, unknown> = { rest_url: url, total, total_pages: pages, [key]: items };
  if (page < pages) body.next_rest_url = `${url}?page=${page + 1}`;
  if (page > 1 && pages > 0) body.previous_rest_url = `${url}?page=${Math.min(page - 1, pages)}`;
  return { status: 200, headers: { 'X-TEC-Total': String(total), 'X-TEC-TotalPages': String(pages) }, body };
}

/** A write's outcome: the term, or the `term_exists` refusal (answered with `data.term_id`, as WordPress does). */
type Written = { view: TermView } | { exists: TermExistsError };

async function catchExists(run: () => Promise<TermView>): Promise<Written> {
  try {
    return { view: await run() };
  } catch (e) {
    if (e instanceof TermExistsError) return { exists: e };
    throw e;
  }
}

function presentWritten(status: number) {
  return (w: Written, ctx: RequestContext): RestResult => {
    if ('exists' in w) {
      // The family's error shape (family.ts wordpressError), plus the existing term's id.
      const message = translateMessage(w.exists.message, ctx.language);
      return { status: 400, body: { code: w.exists.domainCode, message, data: { status: 400, term_id: w.exists.termId } } };
    }
    return { status, body: presentTermB(w.view, wireContext(ctx)) };
  };
}

function rowsOf(taxonomy: CalendarTaxonomy): RestRoute<any, any>[] {
  const collection = TERM_COLLECTION[taxonomy];
  const P = `${CALENDAR_REST_BASE}/${collection}`;
  const Cap = taxonomy === 'category' ? 'Category' : 'Tag';
  const TAGS = [collection];
  const what = taxonomy === 'category' ? 'category' : 'tag';
  const byId = { id: PATH_ID };
  const single = (view: TermView, ctx: RequestContext) => ({ body: presentTermB(view, wireContext(ctx)) });

  const rows: RestRoute<any, any>[] = [
    wpRoute({
      method: 'GET',
      path: P,
      operationId: `calendarList${taxonomy === 'category' ? 'Categories' : 'Tags'}`,
      summary: `List ${collection}`,
      tags: TAGS,
      args: listArgs(taxonomy),
      input: (a) => listQuery(a as ListValues),
      handle: (ctx, q: TermListQuery) => ctx.services.calendarTerms.list(ctx, taxonomy, q),
      present: (r: { items: TermView[]; total: number }, ctx, _req, q: TermListQuery) => {
        const wire = wireContext(ctx);
        return termListResult(taxonomy, r.items.map((v) => presentTermB(v, wire)), ctx, q.page, q.perPage, r.total);
      },
    }),
    wpRoute({
      method: 'POST',
      path: P,
      operationId: `calendarCreate${Cap}`,
      summary: `Create a ${what}`,
      tags: TAGS,
      args: termFields(taxonomy, true),
      input: (a) => fieldsInput(a as FieldValues) as TermCreateInput,
      handle: (ctx, i: TermCreateInput) => catchExists(() => ctx.services.calendarTerms.create(ctx, taxonomy, i)),
      present: presentWritten(201),
    }),
    wpRoute({
      method: 'GET',
      path: `${P}/{id}`,
      operationId: `calendarGet${Cap}`,
      summary: `Get a ${what}`,
      tags: TAGS,
      args: byId,
      input: (a) => a.id!,
      handle: (ctx, id: number) => ctx.services.calendarTerms.get(ctx, taxonomy, id),
      present: single,
    }),
    wpRoute({
      method: 'DELETE',
      path: `${P}/{id}`,
      operationId: `calendarDelete${Cap}`,
      summary: `Delete a ${what} (permanently)`,
      tags: TAGS,
      // WordPress' terms controller needs force=true; The Events Calendar forces it: the term is always deleted.
      args: { ...byId, force: wp.boolean({ description: 'Ignored: terms are always deleted permanently' }) },
      input: (a) => a.id!,
      handle: (ctx, id: number) => ctx.services.calendarTerms.delete(ctx, taxonomy, id),
      present: single,
    }),
  ];
  for (const method of ['POST', 'PUT', 'PATCH'] as const) {
    const suffix = method === 'POST' ? 'Post' : method === 'PUT' ? 'Put' : 'Patch';
    rows.push(
      wpRoute({
        method,
        path: `${P}/{id}`,
        operationId: `calendarUpdate${Cap}${suffix}`,
        summary: `Update a ${what}`,
        tags: TAGS,
        args: { ...byId, ...termFields(taxonomy, false) },
        input: (a) => ({ id: a.id as number, patch: fieldsInput(a as FieldValues) }),
        handle: (ctx, i: { id: number; patch: TermPatch }) => catchExists(() => ctx.services.calendarTerms.update(ctx, taxonomy, i.id, i.patch)),
        present: presentWritten(200),
      }),
    );
  }
  return rows;
}

export const CALENDAR_CATEGORY_ROUTES: RestRoute<any, any>[] = rowsOf('category');
export const CALENDAR_TAG_ROUTES: RestRoute<any, any>[] = rowsOf('tag');
export const CALENDAR_TERM_ROUTES: RestRoute<any, any>[] = [...CALENDAR_CATEGORY_ROUTES, ...CALENDAR_TAG_ROUTES];
