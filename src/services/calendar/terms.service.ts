/**
 * Calendar terms: event categories (`tribe_events_cat`, a tree) and tags (`post_tag`), as WordPress' REST terms
 * controller behaves for The Events Calendar (reference §2 term lists, §4 Terms):
 *  - lists: search (name or slug), include/exclude, parent, post (the terms of one event), slug, hide_empty (default
 *    on: only terms with a published event; for categories also an empty category whose descendant has one, as
 *    get_terms' hierarchical default keeps it), orderby/order (default name ASC); a page past the end is empty;
 *  - reads and writes in the request's language use that language's translation of name, slug and description;
 *  - writes need `calendar.manage_terms`; names are unique per taxonomy and parent (`term_exists`, carrying the
 *    existing term's id); delete is permanent and moves a category's children to its parent.
 * Access is decided by access.ts only; every write runs in one transaction.
 */
import { MAX_FILTER_VALUES } from './filter-bounds';
import {
  CalendarEventTermEntity,
  CalendarLanguage,
  CalendarTaxonomy,
  CalendarTermEntity,
  CalendarTranslationEntity,
} from '../../../entities/calendar';
import type { RequestContext } from '../../context';
import { withTransaction } from '../../context';
import { entityColumns, queryRows } from '../../db/rows';
import { lockKey, lockedFindOne } from '../../db/transaction';
import { quoteInput, ValidationError } from '../../errors/app-error';
import { loadAll } from '../../loaders/loader';
import { lookupKey } from '../common/decode';
import { ListQuery } from '../common/list-query';
import { requireCalendar } from './access';
import { CALENDAR_CODES } from './error-codes';
import { invalidParameter } from './error-codes';
import { idOf, visibleEventId } from './posts';
import { sanitizeTitle, uniqueSlug } from './text';
import { deleteTranslations, saveTranslation } from './translations';

/** A term as a reader sees it: the (translated) term and its count of published events. */
export interface TermView {
  term: CalendarTermEntity;
  count: number;
}

export const TERM_ORDERBY = ['id', 'include', 'name', 'slug', 'include_slugs', 'term_group', 'description', 'count'] as const;
export type TermOrderBy = (typeof TERM_ORDERBY)[number];

export interface TermListQuery {
  page: number;
  perPage: number;
  search?: string;
  exclude?: number[];
  /** Term ids or slugs; each must name an existing term of the taxonomy. */
  include?: Array<number | string>;
  order?: 'asc' | 'desc';
  orderby?: TermOrderBy;
  /** Default true: only terms with at least one published event. */
  hideEmpty?: boolean;
  /** Categories only: direct children of this category (0 = top level). */
  parent?: number;
  /** The terms of this event. */
  post?: number;
  slug?: string[];
}

export interface TermCreateInput {
  name: string;
  description?: string;
  slug?: string;
  /** Categories only; 0 = top level. */
  parent?: number;
}

export type TermPatch = Partial<TermCreateInput>;

/**
 * WordPress' `term_exists` (400): a term with that name already exists (with this parent). WordPress also answers
 * `data.term_id` = the existing term: the REST layer reads `termId` (or `data.term_id`) from this error.
 */
/**
 * The `categories` values of an event filter as original category slugs to look up in one statement (the usual
 * request): no content language (slugs are the originals'), 1-100 distinct non-empty values of at most 200
 * characters without NUL; undefined when they need the general lookup (ids, names, translated slugs).
 */
export function originalCategorySlugs(ctx: RequestContext, values: readonly string[] | undefined): string[] | undefined {
  if (!values || values.length === 0 || ctx.language) return undefined;
  const slugs = [...new Set(values.map((v) => String(v).trim()))];
  return slugs.length <= 100 && slugs.every((v) => v !== '' && v.length <= 200 && !v.includes('\u0000')) ? slugs : undefined;
}

export class TermExistsError extends ValidationError {
  readonly data: { term_id: number };
  constructor(
    readonly termId: number,
    taxonomy: CalendarTaxonomy,
  ) {
    super(
      taxonomy === 'category'
        ? 'A term with the name provided already exists with this parent.'
        : 'A term with the name provided already exists in this taxonomy.',
      { domainCode: CALENDAR_CODES.TERM_EXISTS },
    );
    this.data = { term_id: termId };
  }
}

/** rest_invalid_param on one field of a term (error-codes.ts' one helper). */
const invalidParam = (field: string, message?: string) => invalidParameter(field, 'Term', message);

/** The count of published events linked to term `t` (WordPress' term_taxonomy.count), stored on the term (term-counts.ts). */
const COUNT_SQL = 't.count';

/** Category ids with a published event, and every ancestor of those (kept by hide_empty on a tree). */
const USED_CATEGORIES_SQL =
  `WITH RECURSIVE used(id) AS (` +
  ` SELECT id FROM calendar_terms WHERE taxonomy = 'category' AND count > 0` +
  ` UNION SELECT c.parent_id FROM calendar_terms c JOIN used u ON c.id = u.id WHERE c.parent_id IS NOT NULL` +
  `) SELECT id FROM used`;

/** `%`, `_` and `\` taken literally in a LIKE pattern (with ESCAPE '\'). */
function likeEscape(s: string): string {
  return s.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** A term id as a client wrote it (number or canonical decimal string): an int4 id, else null (no such term). */
function asId(v: number | string): number | null {
  if (typeof v === 'number') return idOf(v);
  return /^[1-9][0-9]*$/.test(v) ? idOf(v) : null;
}

/** The term columns: name and slug varchar(200), description text. */
const NAME_MAX = 200;
const SLUG_MAX = 200;
const DESCRIPTION_MAX = 65_535;

/** A string a client gave for `field`: no U+0000 (PostgreSQL text cannot hold it) and at most `max` characters. */
function checkText(field: string, v: unknown, max: number): string {
  if (typeof v !== 'string' || v.includes('\u0000')) throw invalidParam(field);
  if (v.length > max) throw invalidParam(field, `Must be at most ${max} characters.`);
  return v;
}

/** Ids a list filter names (`exclude`): each an int4 id, else rest_invalid_param on `field`. */
function checkIds(field: string, values: readonly unknown[]): number[] {
  return values.map((v) => {
    const id = idOf(v);
    if (id === null) throw invalidParam(field);
    return id;
  });
}

export class CalendarTermService {
  // ------------------------------------------------------------------------------------------------------------
  // Reads
  // ------------------------------------------------------------------------------------------------------------

  async list(ctx: RequestContext, taxonomy: CalendarTaxonomy, q: TermListQuery): Promise<{ items: TermView[]; total: number }> {
    const lang = ctx.language;
    const name = lang ? `COALESCE(NULLIF(tr.title, ''), t.name)` : 't.name';
    const slug = lang ? `COALESCE(NULLIF(tr.slug, ''), t.slug)` : 't.slug';
    const description = lang ? `COALESCE(NULLIF(tr.description, ''), t.description)` : 't.description';

    if (q.search !== undefined) checkText('search', q.search, DESCRIPTION_MAX);
    if (q.slug?.length) q.slug.forEach((v) => checkText('slug', v, SLUG_MAX));
    // Bounded lists keep one request's work (and bind values) bounded, as the event list does.
    for (const [field, values] of [['include', q.include], ['exclude', q.exclude], ['slug', q.slug]] as const) {
      if (values && values.length > MAX_FILTER_VALUES) throw invalidParam(field);
    }
    // A ListQuery: its statement texts (count and page) are built once per filter shape and then only re-bound.
    const list = new ListQuery(ctx.db, CalendarTermEntity, 't');
    if (lang) list.leftJoin(CalendarTranslationEntity, 'tr', 'tr.kind = t.taxonomy AND tr.language = :language AND tr.object_id = t.id', { language: lang });
    list.andWhere('t.taxonomy = :taxonomy', { taxonomy });
    if (q.search !== undefined && q.search !== '') {
      list.andWhere(`(LOWER(${name}) LIKE :search ESCAPE '\\' OR LOWER(${slug}) LIKE :search ESCAPE '\\')`, { search: `%${likeEscape(q.search.toLowerCase())}%` });
    }
    if (q.exclude?.length) list.andWhere('t.id NOT IN (:...exclude)', { exclude: checkIds('exclude', q.exclude) });
    let includeIds: number[] | undefined;
    if (q.include?.length) {
      includeIds = await this.resolveInclude(ctx, taxonomy, q.include);
      list.andWhere('t.id IN (:...include)', { include: includeIds });
    }
    if (q.parent !== undefined && taxonomy === 'category') {
      if (q.parent === 0) list.andWhere('t.parent_id IS NULL');
      else list.andWhere('t.parent_id = :parent', { parent: checkIds('parent', [q.parent])[0] });
    }
    if (q.post !== undefined) {
      const post = await visibleEventId(ctx, q.post, 'post');
      list.andWhere('t.id IN (SELECT et.term_id FROM calendar_event_terms et WHERE et.event_id = :post)', { post });
    }
    if (q.slug?.length) list.andWhere(`${slug} IN (:...slugs)`, { slugs: q.slug });
    if (q.hideEmpty !== false) list.andWhere(taxonomy === 'category' ? `t.id IN (${USED_CATEGORIES_SQL})` : `${COUNT_SQL} > 0`);

    const total = await list.clone().count();
    const perPage = q.perPage;
    const offset = (q.page - 1) * perPage;
    if (total === 0 || offset >= total) return { items: [], total };

    const dir = q.order === 'desc' ? 'DESC' : 'ASC';
    let key: string;
    switch (q.orderby ?? 'name') {
      case 'id':
        key = 't.id';
        break;
      case 'slug':
        key = slug;
        break;
      case 'term_group':
        key = 't.term_group';
        break;
      case 'description':
        key = `LOWER(${description})`;
        break;
      case 'count':
        key = COUNT_SQL;
        break;
      case 'include':
        // The position of each id in `include` (the positions are the shape's; the ids are bound).
        key = includeIds?.length ? `CASE t.id ${includeIds.map((_, i) => `WHEN :include${i} THEN ${i}`).join(' ')} END` : `LOWER(${name})`;
        includeIds?.forEach((id, i) => list.setParameters({ [`include${i}`]: id }));
        break;
      case 'include_slugs':
        key = q.slug?.length ? `CASE ${slug} ${q.slug.map((_, i) => `WHEN :slug${i} THEN ${i}`).join(' ')} END` : `LOWER(${name})`;
        q.slug?.forEach((s, i) => list.setParameters({ [`slug${i}`]: s }));
        break;
      default:
        key = `LOWER(${name})`;
    }
    // The page's terms whole (entityColumns), primed for the request's loaders: no second statement by id.
    const cols = entityColumns(ctx.db, CalendarTermEntity, 't', 't_');
    list.select(cols.jsonRow, 't_row').orderBy(key, dir);
    // Ties in id order (a query builder keeps one direction per sort text: ordered by id, the id's own is it).
    if (key !== 't.id') list.addOrderBy('t.id', 'ASC');
    const rows = await list.limit(perPage).offset(offset).getRawMany();
    const terms = rows.map((r) => cols.hydrateJsonArray(r.t_row)!);
    for (const t of terms) ctx.loaders.calendarTermById.prime(t.id, t);
    return { items: await this.views(ctx, terms), total };
  }

  /** One term; a missing id or a term of the other taxonomy is WordPress' 400 rest_invalid_param on `id`. */
  async get(ctx: RequestContext, taxonomy: CalendarTaxonomy, id: number): Promise<TermView> {
    const term = await this.find(ctx, taxonomy, id);
    return (await this.views(ctx, [term]))[0];
  }

  /** Views (translated copies + counts) of loaded terms, in order. */
  async views(ctx: RequestContext, terms: readonly CalendarTermEntity[]): Promise<TermView[]> {
    const translated = await this.translated(ctx, terms, ctx.language);
    return translated.map((term) => ({ term, count: term.count }));
  }

  /** Terms as read in `language`: copies with the translation's name (its `title`), slug and description. */
  async translated(ctx: RequestContext, terms: readonly CalendarTermEntity[], language: CalendarLanguage | undefined): Promise<CalendarTermEntity[]> {
    if (!language || terms.length === 0) return [...terms];
    const found = await loadAll(ctx.loaders.calendarTranslation, terms.map((t) => `${t.taxonomy}:${language}:${t.id}`));
    return terms.map((t, i) => {
      const tr = found[i];
      if (!tr) return t;
      const copy = Object.assign(Object.create(Object.getPrototypeOf(t)), t) as CalendarTermEntity;
      if (tr.title) copy.name = tr.title;
      if (tr.slug) copy.slug = tr.slug;
      if (tr.description) copy.description = tr.description;
      return copy;
    });
  }

  /**
   * The event list's `categories` / `tags` filter: each value is a slug (looked up first, in the request's language
   * or the original), a term id, or a term name. Unknown → rest_invalid_param on `field`. Ids in the values' order.
   */
  async findByIdOrSlug(ctx: RequestContext, taxonomy: CalendarTaxonomy, values: readonly string[], field: string = taxonomy === 'category' ? 'categories' : 'tags'): Promise<number[]> {
    const out: number[] = [];
    for (const raw of values) {
      const v = String(raw).trim();
      const id =
        (await this.idBy(ctx, taxonomy, 'slug', v)) ??
        (await this.idByNumber(ctx, taxonomy, v)) ??
        (await this.idBy(ctx, taxonomy, 'name', v));
      if (id === null) throw invalidParam(field);
      if (!out.includes(id)) out.push(id);
    }
    return out;
  }

  /**
   * The event list's `categories` filter: the named categories (as findByIdOrSlug finds them) and all their
   * descendants. When every value is an original slug (the usual request) that is ONE statement; otherwise the
   * general lookup, then the descendants.
   */
  async categoryFilter(ctx: RequestContext, values: readonly string[], field = 'categories'): Promise<number[]> {
    const slugs = originalCategorySlugs(ctx, values);
    if (slugs) {
      const marks = slugs.map(() => '?').join(', ');
      const rows = await queryRows<{ id: number | string; matched: number | string }>(
        ctx.db,
        `WITH RECURSIVE down(id) AS (SELECT id FROM calendar_terms WHERE taxonomy = 'category' AND slug IN (${marks})` +
          ` UNION SELECT c.id FROM calendar_terms c JOIN down d ON c.parent_id = d.id)` +
          ` SELECT id, (SELECT COUNT(*) FROM calendar_terms WHERE taxonomy = 'category' AND slug IN (${marks})) AS matched FROM down ORDER BY id`,
        [...slugs, ...slugs],
      );
      if (rows.length > 0 && Number(rows[0].matched) === slugs.length) return rows.map((r) => Number(r.id));
    }
    return this.withDescendants(ctx, await this.findByIdOrSlug(ctx, 'category', values, field));
  }

  /** Those categories and all their descendants (the event filter includes child categories). */
  async withDescendants(ctx: RequestContext, categoryIds: readonly number[]): Promise<number[]> {
    if (categoryIds.length === 0) return [];
    const rows = await queryRows<{ id: number | string }>(
      ctx.db,
      `WITH RECURSIVE down(id) AS (SELECT id FROM calendar_terms WHERE taxonomy = 'category' AND id IN (${categoryIds.map(() => '?').join(', ')})` +
        ` UNION SELECT c.id FROM calendar_terms c JOIN down d ON c.parent_id = d.id) SELECT id FROM down ORDER BY id`,
      [...categoryIds],
    );
    return rows.map((r) => Number(r.id));
  }

  // ------------------------------------------------------------------------------------------------------------
  // Writes
  // ------------------------------------------------------------------------------------------------------------

  async create(ctx: RequestContext, taxonomy: CalendarTaxonomy, input: TermCreateInput): Promise<TermView> {
    requireCalendar(ctx.viewer, 'calendar.manage_terms');
    const lang = ctx.language;
    const name = this.cleanName(input.name);
    this.checkFields(input);
    // Two writers creating one name at once: names are checked by reading, so writers of a taxonomy take its lock
    // first (PostgreSQL; SQLite's write lock already serializes them) and the second sees the winner's row.
    const id = await withTransaction(ctx, async (tx) => {
      await lockKey(tx.db, `calendar_terms:${taxonomy}`);
      const parentId = await this.checkParent(tx, taxonomy, input.parent, undefined);
      const existing = await this.sameName(tx, taxonomy, name, parentId, undefined, lang);
      if (existing !== null) throw new TermExistsError(existing, taxonomy);
      const wanted = input.slug !== undefined && input.slug !== '' ? sanitizeTitle(input.slug) : sanitizeTitle(name);
      const slug = await this.uniqueSlug(tx, taxonomy, wanted || 'term', undefined, lang);
      const repo = tx.db.getRepository(CalendarTermEntity);
      const saved = await repo.save(repo.create({ taxonomy, name, slug, description: input.description ?? '', parentId, termGroup: 0 }));
      if (lang) await saveTranslation(tx.db, taxonomy, saved.id, lang, { title: name, slug, description: input.description ?? '' });
      return saved.id;
    });
    return this.get(ctx, taxonomy, id);
  }

  /**
   * The terms an event write names (inside its transaction): numbers must be terms of the taxonomy; other values
   * find a term by slug, then by name (case-insensitively, as WordPress' term_exists), and unknown names are created
   * as top-level terms, their names cleaned as `create` cleans them. Writers take the taxonomy's lock first (as
   * `create` does), so two writes naming one new term make one term. `invalid` is the caller's error for a bad value.
   */
  async termIdsForEventWrite(tx: RequestContext, taxonomy: CalendarTaxonomy, values: ReadonlyArray<unknown>, invalid: () => Error): Promise<number[]> {
    const repo = tx.db.getRepository(CalendarTermEntity);
    const out: number[] = [];
    let locked = false;
    for (const raw of values) {
      if ((typeof raw !== 'string' && typeof raw !== 'number') || (typeof raw === 'string' && (raw.length > NAME_MAX || raw.includes('\u0000')))) throw invalid();
      const s = String(raw).trim();
      if (s === '') continue;
      if (/^\d+$/.test(s)) {
        const n = idOf(Number(s));
        const t = n !== null ? await repo.findOne({ where: { id: n, taxonomy } }) : null;
        if (!t) throw invalid();
        out.push(t.id);
        continue;
      }
      if (!locked) {
        await lockKey(tx.db, `calendar_terms:${taxonomy}`);
        locked = true;
      }
      const bySlug = await repo.findOne({ where: { taxonomy, slug: sanitizeTitle(s) } });
      let id: number | null = bySlug ? bySlug.id : null;
      let name: string | undefined;
      if (id === null) {
        try {
          name = this.cleanName(s);
        } catch {
          throw invalid();
        }
        const rows = await queryRows<{ id: number | string }>(tx.db, 'SELECT id FROM calendar_terms WHERE taxonomy = ? AND LOWER(name) = ? ORDER BY id LIMIT 1', [taxonomy, name.toLowerCase()]);
        id = rows.length ? Number(rows[0].id) : null;
      }
      if (id === null) {
        const slug = await this.uniqueSlug(tx, taxonomy, sanitizeTitle(name!) || 'term', undefined, undefined);
        id = (await repo.save(repo.create({ taxonomy, name: name!, slug, description: '', parentId: null, termGroup: 0 }))).id;
      }
      if (!out.includes(id)) out.push(id);
    }
    return out;
  }

  /** Update; in a language the name, slug and description go into that language's translation. */
  async update(ctx: RequestContext, taxonomy: CalendarTaxonomy, id: number, patch: TermPatch): Promise<TermView> {
    const lang = ctx.language;
    // WordPress' order: the arguments (fields, the id) are checked before the permission.
    this.checkFields(patch);
    await withTransaction(ctx, async (tx) => {
      if (patch.name !== undefined || patch.parent !== undefined || patch.slug !== undefined) await lockKey(tx.db, `calendar_terms:${taxonomy}`);
      const term = await this.find(tx, taxonomy, id, true);
      requireCalendar(tx.viewer, 'calendar.manage_terms');
      const current = (await this.translated(tx, [term], lang))[0];
      const parentId = patch.parent !== undefined ? await this.checkParent(tx, taxonomy, patch.parent, id) : term.parentId;
      const name = patch.name !== undefined ? this.cleanName(patch.name) : current.name;
      if (patch.name !== undefined || parentId !== term.parentId) {
        const existing = await this.sameName(tx, taxonomy, name, parentId, id, lang);
        if (existing !== null) throw new TermExistsError(existing, taxonomy);
      }
      let slug: string | undefined;
      if (patch.slug !== undefined) {
        const wanted = patch.slug === '' ? sanitizeTitle(name) : sanitizeTitle(patch.slug);
        if (patch.slug !== '' && wanted !== current.slug && (await this.slugTaken(tx, taxonomy, wanted, id, lang))) {
          throw new ValidationError('The slug “{{0}}” is already in use by another term.', {
            domainCode: 'duplicate_term_slug',
            namesFields: true,
            values: [quoteInput(wanted, '')],
            fieldErrors: [{ resource: 'Term', field: 'slug', code: 'already_exists' }],
          });
        }
        slug = wanted === current.slug ? wanted : await this.uniqueSlug(tx, taxonomy, wanted || 'term', id, lang);
      }
      const repo = tx.db.getRepository(CalendarTermEntity);
      if (lang) {
        const content: { title?: string; slug?: string; description?: string } = {};
        if (patch.name !== undefined) content.title = name;
        if (slug !== undefined && slug !== current.slug) content.slug = slug;
        if (patch.description !== undefined) content.description = patch.description;
        if (Object.keys(content).length) await saveTranslation(tx.db, taxonomy, id, lang, content);
        if (parentId !== term.parentId) await repo.update({ id }, { parentId });
      } else {
        await repo.update(
          { id },
          {
            name,
            parentId,
            ...(slug !== undefined ? { slug } : {}),
            ...(patch.description !== undefined ? { description: patch.description } : {}),
          },
        );
      }
    });
    return this.get(ctx, taxonomy, id);
  }

  /** Permanent delete: links and translations go, a category's children move up to its parent. Returns the term as it was. */
  async delete(ctx: RequestContext, taxonomy: CalendarTaxonomy, id: number): Promise<TermView> {
    return withTransaction(ctx, async (tx) => {
      // WordPress' order: an unknown id is 400 before the permission is asked.
      const term = await this.find(tx, taxonomy, id, true);
      requireCalendar(tx.viewer, 'calendar.manage_terms');
      const view = (await this.views(tx, [term]))[0];
      const repo = tx.db.getRepository(CalendarTermEntity);
      if (taxonomy === 'category') await repo.update({ parentId: id }, { parentId: term.parentId });
      await tx.db.getRepository(CalendarEventTermEntity).delete({ termId: id });
      await deleteTranslations(tx.db, taxonomy, id);
      await repo.delete({ id });
      return view;
    });
  }

  // ------------------------------------------------------------------------------------------------------------
  // Helpers
  // ------------------------------------------------------------------------------------------------------------

  /** The term (untranslated); missing or of the other taxonomy → rest_invalid_param on `id`. */
  private async find(ctx: RequestContext, taxonomy: CalendarTaxonomy, id: number, fresh = false): Promise<CalendarTermEntity> {
    // Inside a write: read the row itself, locked on PostgreSQL (FOR UPDATE), not a cached copy.
    if (idOf(id) === null) throw invalidParam('id');
    const term = fresh ? await lockedFindOne(ctx.db, CalendarTermEntity, { id }) : await ctx.loaders.calendarTermById.load(id);
    if (!term || term.taxonomy !== taxonomy) throw invalidParam('id');
    return term;
  }

  /** The description and slug a write gives: no U+0000, and each fits its column (else rest_invalid_param on it). */
  private checkFields(input: TermPatch): void {
    if (input.name !== undefined && (typeof input.name !== 'string' || input.name.includes('\u0000'))) throw invalidParam('name');
    if (input.parent !== undefined && input.parent !== 0 && idOf(input.parent) === null) throw invalidParam('parent', 'Parent term does not exist.');
    if (input.description !== undefined) checkText('description', input.description, DESCRIPTION_MAX);
    if (input.slug !== undefined) checkText('slug', input.slug, SLUG_MAX);
  }

  /** WordPress' sanitize_text_field on a term name: tags stripped, whitespace runs to one space, trimmed. */
  private cleanName(name: string): string {
    if (typeof name !== 'string' || name.includes('\u0000')) throw invalidParam('name');
    const clean = name
      .replace(/<[^>]*>/g, '')
      .replace(/\s+/g, ' ')
      .trim();
    if (clean === '') {
      throw new ValidationError('A name is required for this term.', {
        domainCode: 'empty_term_name',
        fieldErrors: [{ resource: 'Term', field: 'name', code: 'missing_field', message: 'A name is required for this term.' }],
      });
    }
    if (clean.length > NAME_MAX) throw invalidParam('name', `The name must be at most ${NAME_MAX} characters.`);
    return clean;
  }

  /** A category's parent id (null = top level) after checking it: an existing category, not the term or below it. */
  private async checkParent(ctx: RequestContext, taxonomy: CalendarTaxonomy, parent: number | undefined, selfId: number | undefined): Promise<number | null> {
    if (parent === undefined || parent === 0) return null;
    if (taxonomy !== 'category') throw invalidParam('parent', 'Tags have no parent.');
    if (idOf(parent) === null) throw invalidParam('parent', 'Parent term does not exist.');
    const p = await ctx.db.getRepository(CalendarTermEntity).findOne({ where: { id: parent } });
    if (!p || p.taxonomy !== 'category') throw invalidParam('parent', 'Parent term does not exist.');
    if (selfId !== undefined && (await this.withDescendants(ctx, [selfId])).includes(parent)) {
      throw invalidParam('parent', 'A category cannot be its own parent or ancestor.');
    }
    return parent;
  }

  /** The id of another term with this name (case-insensitive) under the same parent (original or in `lang`), or null. */
  private async sameName(ctx: RequestContext, taxonomy: CalendarTaxonomy, name: string, parentId: number | null, exceptId: number | undefined, lang: CalendarLanguage | undefined): Promise<number | null> {
    const params: unknown[] = [];
    let join = '';
    let cond = 'LOWER(t.name) = ?';
    if (lang) {
      join = ` LEFT JOIN calendar_translations tr ON tr.kind = t.taxonomy AND tr.language = ? AND tr.object_id = t.id`;
      params.push(lang);
      cond = `(LOWER(t.name) = ? OR LOWER(COALESCE(NULLIF(tr.title, ''), t.name)) = ?)`;
    }
    params.push(taxonomy);
    const lower = name.toLowerCase();
    params.push(lower);
    if (lang) params.push(lower);
    let sql = `SELECT t.id AS id FROM calendar_terms t${join} WHERE t.taxonomy = ? AND ${cond}`;
    if (parentId === null) sql += ' AND t.parent_id IS NULL';
    else {
      sql += ' AND t.parent_id = ?';
      params.push(parentId);
    }
    if (exceptId !== undefined) {
      sql += ' AND t.id <> ?';
      params.push(exceptId);
    }
    const rows = await queryRows<{ id: number | string }>(ctx.db, `${sql} ORDER BY t.id LIMIT 1`, params);
    return rows.length ? Number(rows[0].id) : null;
  }

  /**
   * Is `slug` taken for a term of this taxonomy (other than `exceptId`)? The original slugs of the taxonomy always
   * count; in a language also that taxonomy's translated slugs in it (translations are kept per taxonomy).
   */
  private async slugTaken(ctx: RequestContext, taxonomy: CalendarTaxonomy, slug: string, exceptId: number | undefined, lang: CalendarLanguage | undefined): Promise<boolean> {
    const base = await ctx.db.getRepository(CalendarTermEntity).findOne({ where: { taxonomy, slug }, select: { id: true } });
    if (base && base.id !== exceptId) return true;
    if (lang) {
      const t = await ctx.db.getRepository(CalendarTranslationEntity).findOne({ where: { kind: taxonomy, language: lang, slug } });
      if (t && t.objectId !== exceptId) return true;
    }
    return false;
  }

  /** `slug`, or `slug-2`, `slug-3`, … (the first free one). */
  private async uniqueSlug(ctx: RequestContext, taxonomy: CalendarTaxonomy, slug: string, exceptId: number | undefined, lang: CalendarLanguage | undefined): Promise<string> {
    // Concurrent writers of this taxonomy choose one after the other (see posts.ts uniquePostSlug).
    await lockKey(ctx.db, `calendar_terms:${taxonomy}`);
    return uniqueSlug(slug, (candidate) => this.slugTaken(ctx, taxonomy, candidate, exceptId, lang));
  }

  /** include: ids or slugs, each an existing term of the taxonomy (else rest_invalid_param on `include`). */
  private async resolveInclude(ctx: RequestContext, taxonomy: CalendarTaxonomy, values: ReadonlyArray<number | string>): Promise<number[]> {
    const out: number[] = [];
    for (const v of values) {
      const id = asId(v) !== null ? await this.idByNumber(ctx, taxonomy, String(asId(v))) : await this.idBy(ctx, taxonomy, 'slug', String(v));
      if (id === null) throw invalidParam('include');
      if (!out.includes(id)) out.push(id);
    }
    return out;
  }

  private async idByNumber(ctx: RequestContext, taxonomy: CalendarTaxonomy, v: string): Promise<number | null> {
    const id = asId(v);
    if (id === null) return null;
    const term = await ctx.loaders.calendarTermById.load(id);
    return term && term.taxonomy === taxonomy ? term.id : null;
  }

  /** A term by its slug or name, in the request's language (translation) or as written originally. */
  private async idBy(ctx: RequestContext, taxonomy: CalendarTaxonomy, column: 'slug' | 'name', asked: string): Promise<number | null> {
    // A value no stored slug or name can equal (empty, NUL, longer than the column) names nothing: no query.
    const value = lookupKey(asked, column === 'slug' ? SLUG_MAX : NAME_MAX);
    if (value === undefined) return null;
    const lang = ctx.language;
    const trColumn = column === 'slug' ? 'slug' : 'title';
    const match = '= ?';
    const lhs = (c: string) => (column === 'name' ? `LOWER(${c})` : c);
    const v = column === 'name' ? value.toLowerCase() : value;
    const params: unknown[] = [];
    let sql: string;
    if (lang) {
      sql =
        `SELECT t.id AS id FROM calendar_terms t LEFT JOIN calendar_translations tr ON tr.kind = t.taxonomy AND tr.language = ? AND tr.object_id = t.id` +
        ` WHERE t.taxonomy = ? AND (${lhs(`tr.${trColumn}`)} ${match} OR ${lhs(`t.${column}`)} ${match})` +
        ` ORDER BY CASE WHEN ${lhs(`tr.${trColumn}`)} ${match} THEN 0 ELSE 1 END, t.id LIMIT 1`;
      params.push(lang, taxonomy, v, v, v);
    } else {
      sql = `SELECT t.id AS id FROM calendar_terms t WHERE t.taxonomy = ? AND ${lhs(`t.${column}`)} ${match} ORDER BY t.id LIMIT 1`;
      params.push(taxonomy, v);
    }
    const rows = await queryRows<{ id: number | string }>(ctx.db, sql, params);
    return rows.length ? Number(rows[0].id) : null;
  }
}
