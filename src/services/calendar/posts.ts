/**
 * What events, venues and organizers share as WordPress posts: one id space (calendar_posts), unique slugs per
 * kind, post dates, trash and restore, and finding a post by id or slug with WordPress' answers for a missing id,
 * an id of another kind, a post the viewer may not see, or one in the trash.
 */
import type { EntityManager } from 'typeorm';
import {
  CalendarEventEntity,
  CalendarLanguage,
  CalendarOrganizerEntity,
  CalendarPostColumns,
  CalendarPostEntity,
  CalendarPostKind,
  CalendarPostStatus,
  CalendarTranslationEntity,
  CalendarVenueEntity,
  CALENDAR_POST_STATUSES,
} from '../../../entities/calendar';
import type { RequestContext } from '../../context';
import { decodeInt, parseInteger, POSITIVE_INT4 } from '../common/decode';
import { postVisible } from './access';
import { invalidParameter } from './error-codes';
import { formatYmdHis } from './timezones';
import { uniqueSlug } from './text';
import { lockKey } from '../../db/transaction';

export const POST_ENTITY = {
  event: CalendarEventEntity,
  venue: CalendarVenueEntity,
  organizer: CalendarOrganizerEntity,
} as const;

export type PostEntityOf<K extends CalendarPostKind> = InstanceType<(typeof POST_ENTITY)[K]>;

export const TABLE_OF: Record<CalendarPostKind, string> = {
  event: 'calendar_events',
  venue: 'calendar_venues',
  organizer: 'calendar_organizers',
};

export function isPostStatus(v: unknown): v is CalendarPostStatus {
  return typeof v === 'string' && (CALENDAR_POST_STATUSES as readonly string[]).includes(v);
}

/**
 * An id a client gave (post or term: a JSON number, a decimal string, a GraphQL Int): an integer in 1..2^31-1
 * (the int4 id columns), else null — the caller answers it as "no such id" before anything reaches SQL.
 */
export function idOf(v: unknown): number | null {
  return (typeof v === 'string' ? parseInteger(v, POSITIVE_INT4) : decodeInt(v, POSITIVE_INT4)) ?? null;
}

/** A new id in the shared post id space, for a post of `kind` (inside the write transaction that inserts it). */
export async function allocatePostId(tx: EntityManager, kind: CalendarPostKind): Promise<number> {
  const saved = await tx.getRepository(CalendarPostEntity).save(tx.getRepository(CalendarPostEntity).create({ kind }));
  return saved.id;
}

/** Which kind of post an id names (null: none). */
export function postKind(ctx: RequestContext, id: number): Promise<CalendarPostKind | null> {
  return ctx.loaders.calendarPostKind.load(id);
}

/**
 * The event a list filter names (`event` of /venues and /organizers, `post`/`event` of /categories and /tags): an
 * event the viewer may see. Anything else — not an id, out of range, no post, another kind, or an event the viewer
 * may not see (draft, trash) — is answered alike, 400 rest_invalid_param on `field`, so the answer never tells
 * which hidden events exist. The one rule for every such filter.
 */
export async function visibleEventId(ctx: RequestContext, raw: unknown, field: string): Promise<number> {
  const id = idOf(raw);
  const event = id !== null && (await postKind(ctx, id)) === 'event' ? await ctx.loaders.calendarEventById.load(id) : null;
  if (!event || !postVisible(ctx.viewer, event)) throw invalidParameter(field);
  return event.id;
}

/** Is `slug` taken by another post of this kind (original slug; or, with a language, that language's slug)? */
export async function slugTaken(db: EntityManager, kind: CalendarPostKind, slug: string, exceptId?: number, language?: CalendarLanguage): Promise<boolean> {
  if (language) {
    const t = await db.getRepository(CalendarTranslationEntity).findOne({ where: { kind, language, slug } });
    if (t && t.objectId !== exceptId) return true;
  }
  const row = await db.getRepository(POST_ENTITY[kind] as typeof CalendarEventEntity).findOne({ where: { slug }, select: { id: true } });
  return row !== null && row.id !== exceptId;
}

/**
 * The slug a post of `kind` gets: `base`, or WordPress' `base-2`, `base-3` … (the first free one, in `language` when
 * given). Choosing reads which slugs are taken, so two concurrent writers would pick the same one and one of them
 * would fail on the unique index: on PostgreSQL the choice of every post slug of this kind is serialised until the
 * transaction ends (a transaction-scoped advisory lock; SQLite's write transactions already take turns). Call it
 * inside the write transaction that stores the slug.
 */
export async function uniquePostSlug(db: EntityManager, kind: CalendarPostKind, base: string, exceptId?: number, language?: CalendarLanguage): Promise<string> {
  await lockKey(db, `calendar_slug:${kind}`);
  return uniqueSlug(base, (s) => slugTaken(db, kind, s, exceptId, language));
}

/** The post dates of a write now: site-local wall clock and UTC (WordPress post_date / post_date_gmt). */
export function postDatesNow(ctx: RequestContext): { dateLocal: string; dateUtc: Date; modifiedAt: Date } {
  const now = new Date(Math.floor(ctx.config.now().getTime() / 1000) * 1000);
  return { dateLocal: formatYmdHis(now, ctx.config.calendarTimezone), dateUtc: now, modifiedAt: now };
}

/** WordPress' `__trashed` slug suffix while a post is in the trash (so the slug is free for others). */
export const TRASHED_SUFFIX = '__trashed';

export function trashedSlug(slug: string): string {
  return slug.endsWith(TRASHED_SUFFIX) ? slug : `${slug}${TRASHED_SUFFIX}`;
}

export function untrashedSlug(slug: string): string {
  return slug.endsWith(TRASHED_SUFFIX) ? slug.slice(0, -TRASHED_SUFFIX.length) : slug;
}

/** The columns a post moved to the trash gets (every kind): status trash, the status to restore, the `__trashed` slug. */
export function trashedColumns(post: { status: CalendarPostStatus; slug: string }): { status: 'trash'; statusBeforeTrash: CalendarPostStatus; slug: string } {
  return { status: 'trash', statusBeforeTrash: post.status, slug: trashedSlug(post.slug) };
}

/** Post columns' WordPress wire dates: `date`, `date_utc`, `modified`, `modified_utc`. */
export function postWireDates(post: CalendarPostColumns, siteTz: string): { date: string; date_utc: string; modified: string; modified_utc: string } {
  return {
    date: post.dateLocal,
    date_utc: post.dateUtc ? formatYmdHis(post.dateUtc, 'UTC') : '0000-00-00 00:00:00',
    modified: formatYmdHis(post.modifiedAt, siteTz),
    modified_utc: formatYmdHis(post.modifiedAt, 'UTC'),
  };
}
