/**
 * What venues and organizers share ("linked posts" in The Events Calendar): listing with the archive filters
 * (search, event, has_events, only_with_upcoming, status) and WordPress' default order, single reads by id or
 * slug with WordPress' answers, create/update/trash/restore with status scale-back, unique slugs and per-language
 * content, the find-or-create an event write uses for its venue/organizer, and the §1.5 password masking.
 *
 * Each kind is a `LinkedPostKindSpec` (its entity, link table, codes, writable fields); `LinkedPostService` holds
 * the rules once. Access is decided only by ./access.ts.
 */
import type { EntityManager, ObjectLiteral, SelectQueryBuilder } from 'typeorm';
import {
  CalendarEventEntity,
  CalendarLanguage,
  CalendarOrganizerEntity,
  CalendarPostStatus,
  CalendarTranslationEntity,
  CalendarVenueEntity,
} from '../../../entities/calendar';
import { AccountEntity } from '../../../entities/identity';
import type { Viewer } from '../../auth/viewer';
import { RequestContext, withTransaction } from '../../context';
import { entityColumns } from '../../db/rows';
import { lockedFindOne } from '../../db/transaction';
import { ForbiddenError, GoneError, NotFoundError, ValidationError } from '../../errors/app-error';
import { canDeletePost, canEditPost, editableCondition, effectiveStatus, notAllowed, postVisible, requireCalendar, restoredStatus, visibilityCondition } from './access';
import { lookupKey } from '../common/decode';
import { ListQuery } from '../common/list-query';
import { CALENDAR_CODES, CALENDAR_MESSAGES } from './error-codes';
import { contentLanguage } from './language';
import { allocatePostId, idOf, isPostStatus, postDatesNow, postKind, trashedColumns, uniquePostSlug, untrashedSlug, visibleEventId } from './posts';
import { invalidParameter } from './error-codes';
import { listStatuses } from './event-list';
import { searchTerms } from './search';
import { sanitizeTitle } from './text';
import { translatedRows, saveTranslation } from './translations';

export type LinkedKind = 'venue' | 'organizer';
export type LinkedEntity = CalendarVenueEntity | CalendarOrganizerEntity;

/** List arguments of /venues and /organizers (already decoded by the transport). */
export interface LinkedPostListQuery {
  page: number;
  perPage: number;
  search?: string;
  /** Only those linked to this event (an event the viewer may see; anything else is rest_invalid_param on `event`). */
  event?: number;
  /** true: only those linked to at least one event; false: only those linked to none. */
  hasEvents?: boolean;
  /** Only those linked to an event that has not ended yet. */
  onlyWithUpcoming?: boolean;
  /** Statuses to list (event-list.ts listStatuses: only `publish` unless the viewer edits posts). Absent: every status the viewer may see. */
  status?: string[];
}

export interface LinkedPostList<E> {
  items: E[];
  total: number;
}

/** Fields both kinds write (domain names; the REST layer maps `venue`/`organizer` to `name`). */
export interface LinkedPostCommonInput {
  name?: string;
  description?: string;
  excerpt?: string;
  slug?: string;
  status?: string;
  /** The author's account id (default: the viewer). */
  authorId?: number;
  /** Featured image URL; null or '' removes it. */
  image?: string | null;
}

/** A linked post given when writing an event: an id, `{id}`, or the fields of a new one. */
export type LinkedPostReference<I> = number | string | { id: number | string } | I;

// ---------------------------------------------------------------------------------------------------------------
// Errors in WordPress' shapes
// ---------------------------------------------------------------------------------------------------------------

/** rest_invalid_param on one field of a venue/organizer (error-codes.ts' one helper). */
const invalidParam = (field: string, message?: string) => invalidParameter(field, 'CalendarPost', message);

function missingParam(field: string): ValidationError {
  return new ValidationError(`Missing parameter(s): {{${field}}}`, {
    domainCode: CALENDAR_CODES.MISSING_PARAM,
    namesFields: true,
    fieldErrors: [{ field, code: 'missing', message: 'Missing parameter.' }],
  });
}

// ---------------------------------------------------------------------------------------------------------------
// Password masking (reference §1.5)
// ---------------------------------------------------------------------------------------------------------------

const MASK_TEXT = new Set(['description', 'excerpt', 'cost', 'website', 'email', 'phone', 'address', 'city', 'country', 'province', 'zip', 'stateprovince']);
const MASK_BOOL = new Set(['all_day', 'show_map', 'show_map_link', 'hide_from_listings', 'sticky', 'featured', 'ticketed', 'is_virtual']);
/** `venue` and `organizer` become [] even when they hold a venue's/organizer's own name (the plugin's bug, kept). */
const MASK_LIST = new Set(['categories', 'tags', 'venue', 'organizer', 'custom_fields']);
const MASK_ZERO = new Set(['geo_lat', 'geo_lng']);

function blankCostDetails(v: unknown): unknown {
  if (!v || typeof v !== 'object' || Array.isArray(v)) return v;
  return Object.fromEntries(Object.entries(v as Record<string, unknown>).map(([k, x]) => [k, Array.isArray(x) ? [] : typeof x === 'string' ? '' : x]));
}

/**
 * A presented (wire) post as The Events Calendar shows a password-protected one to someone who may not read it:
 * text fields "", image false, booleans null, lists (and the venue/organizer field) [], coordinates 0, cost
 * details blanked; id, title, dates and urls are kept. Nested objects (json_ld …) are masked the same way. Keys
 * the object does not have stay absent. Returns a copy.
 */
export function maskProtected<T extends Record<string, unknown>>(view: T): T {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(view)) {
    if (MASK_TEXT.has(key)) out[key] = '';
    else if (key === 'image') out[key] = false;
    else if (MASK_BOOL.has(key)) out[key] = null;
    else if (MASK_LIST.has(key)) out[key] = [];
    else if (MASK_ZERO.has(key)) out[key] = 0;
    else if (key === 'cost_details') out[key] = blankCostDetails(value);
    else if (value && typeof value === 'object' && !Array.isArray(value)) out[key] = maskProtected(value as Record<string, unknown>);
    else out[key] = value;
  }
  return out as T;
}

// ---------------------------------------------------------------------------------------------------------------
// Field checks
// ---------------------------------------------------------------------------------------------------------------

/** Column sizes (entities): longer input is rest_invalid_param, never a database error. */
export const MAX_TEXT = 65_535;

/** A string field a client wrote: a string without U+0000 (PostgreSQL text cannot hold it) that fits its column. */
export function checkString(field: string, v: unknown, max: number): string {
  if (typeof v !== 'string' || v.includes('\u0000')) throw invalidParam(field);
  if (v.length > max) throw invalidParam(field, `Must be at most ${max} characters.`);
  return v;
}

export function checkUrlOrEmpty(field: string, v: unknown, max = 2048): string {
  const s = checkString(field, v, max).trim();
  if (s === '') return '';
  let u: URL;
  try {
    u = new URL(s);
  } catch {
    throw invalidParam(field);
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') throw invalidParam(field);
  return s;
}

export function checkEmailOrEmpty(field: string, v: unknown): string {
  const s = checkString(field, v, 255).trim();
  if (s === '') return '';
  // WordPress' is_email: local@domain with a dot in the domain, no spaces.
  if (!/^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)+$/.test(s)) throw invalidParam(field);
  return s;
}

export function checkBoolean(field: string, v: unknown): boolean {
  if (typeof v !== 'boolean') throw invalidParam(field);
  return v;
}

export function checkNumberInRange(field: string, v: unknown, min: number, max: number): number {
  if (typeof v !== 'number' || !Number.isFinite(v) || v < min || v > max) throw invalidParam(field);
  return v;
}

function positiveInt(v: unknown): number | null {
  const n = typeof v === 'string' && /^\d+$/.test(v.trim()) ? Number(v.trim()) : v;
  return typeof n === 'number' && Number.isSafeInteger(n) && n > 0 ? n : null;
}

// ---------------------------------------------------------------------------------------------------------------
// The kinds
// ---------------------------------------------------------------------------------------------------------------

export interface LinkedPostKindSpec<E extends LinkedEntity, I extends LinkedPostCommonInput> {
  kind: LinkedKind;
  entity: new () => E;
  /** Link table and its column naming this kind. */
  linkTable: string;
  linkColumn: string;
  codes: { archivePageNotFound: string; notAccessible: string; isInTrash: string; couldNotCreate: string };
  /** Columns searched besides title/description/excerpt (WordPress searches the meta too). */
  searchColumns: string[];
  /** Copies the kind's own writable fields of `input` (validated) onto `row`. */
  applyFields(row: E, input: I): void;
  /** De-duplication of linked posts created from an event write: the existing one with the same identity. */
  duplicateWhere(input: I): { sql: string; params: Record<string, unknown> };
  loader(ctx: RequestContext): { load(id: number): Promise<E | null> };
}

const NAME_MAX = MAX_TEXT;
/** The slug columns (posts and translations): varchar(200). */
const SLUG_MAX = 200;

/**
 * The rules of one linked-post kind. Services (`CalendarVenueService`, `CalendarOrganizerService`) extend this with
 * their kind's spec.
 */
export class LinkedPostService<E extends LinkedEntity, I extends LinkedPostCommonInput> {
  constructor(protected readonly spec: LinkedPostKindSpec<E, I>) {}

  // ---------------------------------------------------------------- reads

  async list(ctx: RequestContext, q: LinkedPostListQuery): Promise<LinkedPostList<E>> {
    const page = positiveInt(q.page);
    if (page === null) throw invalidParam('page');
    const perPage = positiveInt(q.perPage);
    if (perPage === null) throw invalidParam('perPage');
    const language = contentLanguage(ctx);
    // The events' rule (event-list.ts): anonymous callers and subscribers may ask only `publish`; those who
    // edit posts any registered status (not `any`); visibility still applies on top.
    const statuses = listStatuses(ctx, q.status);

    const qb = this.listQuery(ctx.db, ctx.viewer, statuses, language);
    if (q.search !== undefined && q.search !== null) {
      if (typeof q.search !== 'string' || q.search.includes('\u0000')) throw invalidParam('search', CALENDAR_MESSAGES['archive-bad-search-string'] ?? 'Invalid parameter.');
      this.applySearch(qb, ctx.viewer, q.search, language !== undefined);
    }
    if (q.event !== undefined && q.event !== null) {
      const eventId = await visibleEventId(ctx, q.event, 'event');
      qb.andWhere(`p.id IN (SELECT l.${this.spec.linkColumn} FROM ${this.spec.linkTable} l WHERE l.event_id = :linkedEvent)`, { linkedEvent: eventId });
    }
    if (q.hasEvents !== undefined && q.hasEvents !== null) {
      const exists = this.linkedEventsExist(ctx, qb, 'he', undefined);
      qb.andWhere(q.hasEvents ? exists : `NOT ${exists}`);
    }
    if (q.onlyWithUpcoming) {
      qb.andWhere(this.linkedEventsExist(ctx, qb, 'up', ctx.config.now()));
    }

    const total = await qb.clone().count();
    const columns = entityColumns(ctx.db, this.spec.entity as new () => LinkedEntity, 'p', 'p_');
    const raw = await qb
      .select(columns.jsonRow, 'p_row')
      .orderBy('p.dateLocal', 'DESC')
      .addOrderBy('p.id', 'DESC')
      .offset((page - 1) * perPage)
      .limit(perPage)
      .getRawMany();
    const rows = raw.map((r) => columns.hydrateJsonArray(r.p_row)!);
    if (rows.length === 0 && (total > 0 || page > 1)) {
      throw new NotFoundError(CALENDAR_MESSAGES[this.spec.codes.archivePageNotFound], { domainCode: this.spec.codes.archivePageNotFound });
    }
    return { items: await translatedRows(ctx, this.spec.kind, rows as E[], language), total };
  }

  /** One post by id, in the request's language: 400 on `id` if it is not this kind, 403 if the viewer may not see it. */
  async get(ctx: RequestContext, id: number): Promise<E> {
    const row = await this.load(ctx, id);
    if (!postVisible(ctx.viewer, row)) throw this.notAccessible();
    return (await translatedRows(ctx, this.spec.kind, [row], contentLanguage(ctx)))[0];
  }

  /** One post by slug (the language's slug first, then the original's): an unknown slug is 400 on `slug`. */
  async getBySlug(ctx: RequestContext, slug: string): Promise<E> {
    return this.get(ctx, await this.visibleIdBySlug(ctx, slug));
  }

  /**
   * The post a slug names, for reads and writes by slug. As WordPress' slug validator, it finds only what the viewer
   * may see: an unknown slug and the slug of a draft or trashed post the viewer may not see are both 400 on `slug`
   * (a write by slug tells nothing about drafts).
   */
  async visibleIdBySlug(ctx: RequestContext, slug: string): Promise<number> {
    const id = await this.idBySlug(ctx.db, slug, contentLanguage(ctx));
    if (id === null) throw invalidParam('slug');
    const row = await this.spec.loader(ctx).load(id);
    if (!row || !postVisible(ctx.viewer, row)) throw invalidParam('slug');
    return id;
  }

  /** The id a slug names (in `language`, falling back to the original slugs), or null. */
  async idBySlug(db: EntityManager, asked: string, language: CalendarLanguage | undefined): Promise<number | null> {
    // A slug no stored one can equal (empty, NUL, longer than the column) names nothing: no query.
    const slug = lookupKey(asked, SLUG_MAX);
    if (slug === undefined) return null;
    if (language) {
      const t = await db.getRepository(CalendarTranslationEntity).findOne({ where: { kind: this.spec.kind, language, slug }, select: { objectId: true } });
      if (t) return t.objectId;
    }
    const row = await db.getRepository(this.spec.entity as new () => LinkedEntity).findOne({ where: { slug }, select: { id: true } });
    return row?.id ?? null;
  }

  /** Must the viewer get this post masked (password-protected, and the viewer may not edit it)? */
  mustMask(viewer: Viewer, post: E): boolean {
    return post.password !== null && post.password !== '' && !canEditPost(viewer, post);
  }

  /** The §1.5 masking of a presented post (see maskProtected). */
  masked<T extends Record<string, unknown>>(view: T): T {
    return maskProtected(view);
  }

  // ---------------------------------------------------------------- writes

  async create(ctx: RequestContext, input: I): Promise<E> {
    return withTransaction(ctx, (tx) => this.createIn(tx, input));
  }

  async update(ctx: RequestContext, id: number, patch: I): Promise<E> {
    return withTransaction(ctx, async (tx) => {
      // WordPress' order: the arguments (fields, then the id) are checked before the permission.
      const content = this.checkInput(patch, false);
      const row = await this.lockedLoad(tx, id);
      requireCalendar(tx.viewer, 'calendar.edit', row);
      // The trash is read-only (access.ts): a write answers what a read answers.
      if (row.status === 'trash') throw this.notAccessible();
      const language = contentLanguage(tx);
      const now = postDatesNow(tx);

      if (patch.authorId !== undefined && patch.authorId !== row.authorId) row.authorId = await this.checkAuthor(tx, patch.authorId);
      if (patch.status !== undefined) {
        row.status = effectiveStatus(tx.viewer, patch.status as CalendarPostStatus, row.authorId, row.status);
        if (row.status !== 'draft' && row.status !== 'pending' && row.dateUtc === null) {
          row.dateUtc = now.dateUtc;
          row.dateLocal = now.dateLocal;
        }
      }
      if (patch.image !== undefined) row.image = this.checkImage(patch.image);
      this.spec.applyFields(row, patch);

      if (language === undefined) {
        if (content.title !== undefined) row.title = content.title;
        if (content.description !== undefined) row.description = content.description;
        if (content.excerpt !== undefined) row.excerpt = content.excerpt;
        if (patch.slug !== undefined) row.slug = await this.freeSlug(tx.db, this.slugBase(patch.slug, row.title, row.id), row.id, undefined);
      }
      row.modifiedAt = now.modifiedAt;
      await tx.db.getRepository(this.spec.entity as new () => LinkedEntity).save(row);
      if (language !== undefined) await this.writeTranslation(tx.db, row, language, content, patch.slug);
      return this.reread(tx, row.id, language);
    });
  }

  /** Trash the post (WordPress ignores `force` for posts): the trashed post; a second delete is 410. */
  async delete(ctx: RequestContext, id: number): Promise<E> {
    return withTransaction(ctx, async (tx) => {
      const row = await this.lockedLoad(tx, id);
      if (!canDeletePost(tx.viewer, row)) throw notAllowed(tx.viewer);
      if (row.status === 'trash') throw new GoneError(CALENDAR_MESSAGES[this.spec.codes.isInTrash], { domainCode: this.spec.codes.isInTrash });
      Object.assign(row, trashedColumns(row));
      row.modifiedAt = postDatesNow(tx).modifiedAt;
      await tx.db.getRepository(this.spec.entity as new () => LinkedEntity).save(row);
      return this.reread(tx, row.id, contentLanguage(tx));
    });
  }

  /** Take the post out of the trash: its status before, its slug without `__trashed` (made unique again). */
  async restore(ctx: RequestContext, id: number): Promise<E> {
    return withTransaction(ctx, async (tx) => {
      const row = await this.lockedLoad(tx, id);
      if (!canDeletePost(tx.viewer, row)) throw notAllowed(tx.viewer);
      if (row.status !== 'trash') throw invalidParam('id', `The ${this.spec.kind} is not in the trash.`);
      // The one restore rule (access.ts): the status before, scaled back for who may not publish it.
      row.status = restoredStatus(tx.viewer, row);
      row.statusBeforeTrash = null;
      row.slug = await this.freeSlug(tx.db, untrashedSlug(row.slug), row.id, undefined);
      row.modifiedAt = postDatesNow(tx).modifiedAt;
      await tx.db.getRepository(this.spec.entity as new () => LinkedEntity).save(row);
      return this.reread(tx, row.id, contentLanguage(tx));
    });
  }

  /**
   * The venue/organizer an event write names (call inside the event's transaction, `tx`): an id or `{id}` must
   * name an existing post of this kind (else 400 invalid-linked-post-id); an object of fields creates one, unless
   * one with the same identity (name; + address for venues) exists and is not trashed, which is returned instead.
   */
  async findOrCreateForEvent(_ctx: RequestContext, tx: RequestContext, value: LinkedPostReference<I>): Promise<E> {
    const idValue = typeof value === 'object' && value !== null && 'id' in value ? (value as { id: unknown }).id : typeof value === 'object' ? undefined : value;
    if (idValue !== undefined) {
      const id = idOf(idValue);
      const row = id === null ? null : await this.spec.loader(tx).load(id);
      if (!row || (await postKind(tx, id!)) !== this.spec.kind) {
        throw new ValidationError(CALENDAR_MESSAGES[CALENDAR_CODES.INVALID_LINKED_POST_ID], { domainCode: CALENDAR_CODES.INVALID_LINKED_POST_ID });
      }
      return (await translatedRows(tx, this.spec.kind, [row], contentLanguage(tx)))[0];
    }
    if (value === null || typeof value !== 'object') {
      throw new ValidationError(CALENDAR_MESSAGES[CALENDAR_CODES.INVALID_LINKED_POST_ID], { domainCode: CALENDAR_CODES.INVALID_LINKED_POST_ID });
    }
    const input = value as I;
    if (typeof input.name !== 'string' || input.name.trim() === '') {
      throw new ValidationError(CALENDAR_MESSAGES[this.spec.codes.couldNotCreate], { domainCode: this.spec.codes.couldNotCreate });
    }
    // The fields are checked before they reach the duplicate query (NUL, lengths: rest_invalid_param).
    this.checkInput(input, true);
    const dup = this.spec.duplicateWhere({ ...input, name: input.name.trim() });
    // Only a post the writer may see is reused (not trashed; another user's draft is not matched, so the answer
    // does not reveal it).
    const dupQuery = tx.db.getRepository(this.spec.entity as new () => LinkedEntity).createQueryBuilder('p').where(dup.sql, dup.params);
    applyVisibility(dupQuery, 'p', tx.viewer, 'dv');
    const existing = await dupQuery.orderBy('p.id', 'ASC').getOne();
    if (existing) return (await translatedRows(tx, this.spec.kind, [existing as E], contentLanguage(tx)))[0];
    return this.createIn(tx, input);
  }

  // ---------------------------------------------------------------- internals

  protected async createIn(tx: RequestContext, input: I): Promise<E> {
    // WordPress' order: the fields are checked before the permission (a bad field is 400 even for anonymous callers).
    const content = this.checkInput(input, true);
    requireCalendar(tx.viewer, 'calendar.create');
    const authorId = input.authorId !== undefined ? await this.checkAuthor(tx, input.authorId) : tx.viewer.kind === 'user' ? tx.viewer.user.id : null;
    const status = effectiveStatus(tx.viewer, input.status as CalendarPostStatus | undefined, authorId);
    const image = input.image !== undefined ? this.checkImage(input.image) : null;
    const repo = tx.db.getRepository(this.spec.entity as new () => LinkedEntity);
    const row = repo.create() as E;
    this.spec.applyFields(row, input);
    const id = await allocatePostId(tx.db, this.spec.kind);
    const dates = postDatesNow(tx);
    const language = contentLanguage(tx);
    Object.assign(row, {
      id,
      authorId,
      status,
      statusBeforeTrash: null,
      title: content.title ?? '',
      description: content.description ?? '',
      excerpt: content.excerpt ?? '',
      password: null,
      dateLocal: dates.dateLocal,
      dateUtc: status === 'draft' || status === 'pending' ? null : dates.dateUtc,
      modifiedAt: dates.modifiedAt,
      image,
    });
    row.slug = await this.freeSlug(tx.db, this.slugBase(input.slug, row.title, id), id, undefined);
    await repo.insert(row);
    if (language !== undefined) await this.writeTranslation(tx.db, row, language, content, input.slug);
    return this.reread(tx, id, language);
  }

  private async writeTranslation(
    db: EntityManager,
    row: E,
    language: CalendarLanguage,
    content: { title?: string; description?: string; excerpt?: string },
    slug: string | undefined,
  ): Promise<void> {
    const fields: { title?: string; description?: string; excerpt?: string; slug?: string } = { ...content };
    const base = slug !== undefined ? slug : content.title !== undefined ? content.title : undefined;
    if (base !== undefined) {
      fields.slug = await this.freeSlug(db, this.slugBase(base, content.title ?? row.title, row.id), row.id, language);
    }
    if (Object.values(fields).some((v) => v !== undefined)) await saveTranslation(db, this.spec.kind, row.id, language, fields);
  }

  /** The slug asked for (or the name) as sanitize_title makes it; the id when nothing usable is left. */
  private slugBase(asked: string | undefined, title: string, id: number): string {
    if (asked !== undefined) checkString('slug', asked, SLUG_MAX);
    const fromAsked = asked !== undefined ? sanitizeTitle(asked) : '';
    return fromAsked || sanitizeTitle(title) || String(id);
  }

  private freeSlug(db: EntityManager, base: string, id: number, language: CalendarLanguage | undefined): Promise<string> {
    return uniquePostSlug(db, this.spec.kind, base, id, language);
  }

  /**
   * Every field a write gives, checked without the database (types, NUL, column lengths, URLs, status): the
   * shared content (returned) and the kind's own fields (applied to a scratch row). Runs before any permission
   * check, as WordPress validates arguments first.
   */
  private checkInput(input: I, creating: boolean): { title?: string; description?: string; excerpt?: string } {
    if (creating && (input.name === undefined || input.name === null)) throw missingParam('name');
    const content = this.checkContent(input, creating);
    if (input.slug !== undefined) checkString('slug', input.slug, SLUG_MAX);
    if (input.status !== undefined && (!isPostStatus(input.status) || input.status === 'trash')) throw invalidParam('status');
    if (input.image !== undefined) this.checkImage(input.image);
    this.spec.applyFields(new this.spec.entity(), input);
    return content;
  }

  private checkContent(input: I, creating: boolean): { title?: string; description?: string; excerpt?: string } {
    const out: { title?: string; description?: string; excerpt?: string } = {};
    if (input.name !== undefined) {
      const name = checkString('name', input.name, NAME_MAX).trim();
      if (name === '') throw creating ? new ValidationError(CALENDAR_MESSAGES[this.spec.codes.couldNotCreate], { domainCode: this.spec.codes.couldNotCreate }) : invalidParam('name');
      out.title = name;
    }
    if (input.description !== undefined) out.description = checkString('description', input.description, MAX_TEXT);
    if (input.excerpt !== undefined) out.excerpt = checkString('excerpt', input.excerpt, MAX_TEXT);
    return out;
  }

  private checkImage(v: unknown): string | null {
    if (v === null) return null;
    const url = checkUrlOrEmpty('image', v);
    return url === '' ? null : url;
  }

  /** An author must be an existing user; naming someone else needs edit_others_posts. */
  private async checkAuthor(tx: RequestContext, authorId: unknown): Promise<number> {
    const id = idOf(authorId);
    const account = id === null ? null : await tx.loaders.accountById.load(id);
    if (!account || (account as AccountEntity).type !== 'User') throw invalidParam('authorId');
    if (tx.viewer.kind !== 'user' || tx.viewer.user.id !== id) requireCalendar(tx.viewer, 'calendar.edit', { status: 'draft', authorId: id });
    return id!;
  }

  /** A ListQuery (its statement text built once per shape, then re-bound), as the other lists of the gateway. */
  private listQuery(db: EntityManager, viewer: Viewer, statuses: CalendarPostStatus[] | undefined, language: CalendarLanguage | undefined): ListQuery<LinkedEntity> {
    const qb = new ListQuery(db, this.spec.entity as new () => LinkedEntity, 'p');
    applyVisibility(qb, 'p', viewer, 'pv');
    if (statuses) qb.andWhere('p.status IN (:...pStatuses)', { pStatuses: statuses });
    if (language !== undefined) {
      qb.leftJoin(CalendarTranslationEntity, 't', 't.kind = :tKind AND t.objectId = p.id AND t.language = :tLanguage', { tKind: this.spec.kind, tLanguage: language });
    }
    return qb;
  }

  /**
   * WordPress' search: space-separated terms (or a "quoted phrase") all must match; `-term` must not. A term
   * matches the title, description or excerpt in the request's language, or one of the kind's meta columns.
   */
  private applySearch(qb: Conditions, viewer: Viewer, search: string, translated: boolean): void {
    const terms = searchTerms(search);
    if (terms.length === 0) return;
    // A password-protected post is searched only for those who may read it unmasked (mustMask's rule, in SQL):
    // WordPress leaves protected posts out of searches for logged-out visitors, so its text cannot be probed.
    const editable = editableCondition(viewer, { status: 'p.status', authorId: 'p.authorId' }, (me) => {
      qb.setParameters({ searchViewer: me });
      return ':searchViewer';
    });
    qb.andWhere(`(p.password IS NULL OR p.password = '' OR ${editable})`);
    const text = (col: string) => (translated ? `COALESCE(NULLIF(t.${col}, ''), p.${col})` : `p.${col}`);
    const columns = [text('title'), text('description'), text('excerpt'), ...this.spec.searchColumns.map((c) => `p.${c}`)];
    terms.forEach((term, i) => {
      const param = `s${i}`;
      const anyMatch = `(${columns.map((c) => `LOWER(${c}) LIKE :${param} ESCAPE '\\'`).join(' OR ')})`;
      qb.andWhere(term.exclude ? `NOT ${anyMatch}` : anyMatch, { [param]: `%${escapeLike(term.text.toLowerCase())}%` });
    });
  }

  /** EXISTS (a linked event the viewer may see [that has not ended by `now`]). */
  private linkedEventsExist(ctx: RequestContext, qb: Conditions, prefix: string, now: Date | undefined): string {
    const conds = [
      `l.${this.spec.linkColumn} = p.id`,
      visibilityCondition(ctx.viewer, { status: 'e.status', authorId: 'e.author_id' }, (v) => {
        qb.setParameters({ [`${prefix}Author`]: v });
        return `:${prefix}Author`;
      }),
    ];
    if (now) {
      const meta = ctx.db.connection.getMetadata(CalendarEventEntity);
      const col = meta.findColumnWithPropertyName('endUtc')!;
      conds.push(`e.end_utc >= :${prefix}Now`);
      qb.setParameters({ [`${prefix}Now`]: ctx.db.connection.driver.preparePersistentValue(now, col) });
    }
    return `EXISTS (SELECT 1 FROM ${this.spec.linkTable} l JOIN calendar_events e ON e.id = l.event_id WHERE ${conds.join(' AND ')})`;
  }

  /** The post of this kind with that id (no access check): 400 on `id` when there is none. */
  private async load(ctx: RequestContext, id: number): Promise<E> {
    const n = idOf(id);
    if (n === null || (await postKind(ctx, n)) !== this.spec.kind) throw invalidParam('id');
    const row = await this.spec.loader(ctx).load(n);
    if (!row) throw invalidParam('id');
    return row;
  }

  private async lockedLoad(tx: RequestContext, id: number): Promise<E> {
    const n = idOf(id);
    if (n === null || (await postKind(tx, n)) !== this.spec.kind) throw invalidParam('id');
    const row = await lockedFindOne(tx.db, this.spec.entity as new () => LinkedEntity, { id: n });
    if (!row) throw invalidParam('id');
    return row as E;
  }

  private async reread(tx: RequestContext, id: number, language: CalendarLanguage | undefined): Promise<E> {
    const row = (await tx.db.getRepository(this.spec.entity as new () => LinkedEntity).findOneByOrFail({ id })) as E;
    tx.loaders.calendarTranslation.clearAll();
    return (await translatedRows(tx, this.spec.kind, [row], language))[0];
  }

  private notAccessible(): ForbiddenError {
    return new ForbiddenError(CALENDAR_MESSAGES[this.spec.codes.notAccessible], { domainCode: this.spec.codes.notAccessible });
  }
}

/** The visibility rule (access.ts) on a post alias of a query builder. */
/** What the list conditions are added to: a query builder or a ListQuery. */
type Conditions = Pick<SelectQueryBuilder<ObjectLiteral> | ListQuery<ObjectLiteral>, 'andWhere' | 'setParameters'>;

export function applyVisibility(qb: Conditions, alias: string, viewer: Viewer, prefix: string): void {
  qb.andWhere(
    visibilityCondition(viewer, { status: `${alias}.status`, authorId: `${alias}.authorId` }, (v) => {
      qb.setParameters({ [`${prefix}Author`]: v });
      return `:${prefix}Author`;
    }),
  );
}

export function escapeLike(s: string): string {
  return s.replace(/[\\%_]/g, (c) => `\\${c}`);
}

