/**
 * THE calendar access rules, once: who sees a post (event, venue, organizer), who may write what, and the status a
 * write ends in. Every way to reach a calendar record (REST single and list, GraphQL fields, the .ics feed, workflow
 * tasks) asks these functions; list SQL is derived from `listVisibility`, not written a second time.
 *
 * Rule: a published post is public; a trashed one is visible to nobody (WordPress answers 403
 * `event-no-longer-available`); any other status (draft, pending, future, private) is visible to those who may edit
 * it: its author with edit rights, or an editor (read_private_posts).
 *
 * Rule for the trash (every kind): a trashed post is judged by the status it had before (WordPress'
 * `_wp_trash_meta_status`): one that was published needs edit_published_posts / delete_published_posts, so a
 * contributor can neither edit nor restore its own event after an editor published and trashed it. And the trash is
 * read-only for everybody: a write to a trashed post answers what a read of it answers (events: 403
 * `event-no-longer-available`); only a second delete (410) and restore act on it.
 */
import type { CalendarPostStatus } from '../../../entities/calendar';
import { can, CALENDAR_CAPABILITIES, CalendarAction } from '../../auth/permissions';
import type { Viewer } from '../../auth/viewer';
import { ForbiddenError, UnauthenticatedError } from '../../errors/app-error';
import { CALENDAR_CODES, CALENDAR_MESSAGES } from './error-codes';

export interface PostFacts {
  status: CalendarPostStatus;
  authorId: number | null;
  /** The status before the trash (posts in the trash). */
  statusBeforeTrash?: CalendarPostStatus | null;
}

/** Published, or in the trash after being published: what the *_published_posts capabilities guard. */
function wasPublished(post: PostFacts): boolean {
  return post.status === 'publish' || (post.status === 'trash' && post.statusBeforeTrash === 'publish');
}

function resource(post: PostFacts) {
  // A post without author is nobody's own (0 is never a user id).
  return { type: 'calendar' as const, authorId: post.authorId ?? 0, published: wasPublished(post) };
}

/** May the viewer see this post at all? */
export function postVisible(viewer: Viewer, post: PostFacts): boolean {
  if (post.status === 'publish') return true;
  if (post.status === 'trash') return false;
  return can(viewer, 'calendar.read_private', resource(post));
}

/** May the viewer edit this post (also: read it without its password, see its drafts)? */
export function canEditPost(viewer: Viewer, post: PostFacts): boolean {
  return can(viewer, 'calendar.edit', resource(post));
}

export function canDeletePost(viewer: Viewer, post: PostFacts): boolean {
  return can(viewer, 'calendar.delete', resource(post));
}

/**
 * The SQL side of `postVisible` for lists: which statuses, and whose. `all`: every status but trash;
 * `own`: every status but trash for posts of this author, published for the rest; otherwise published only.
 */
export type ListVisibility = { kind: 'published' } | { kind: 'all' } | { kind: 'own'; authorId: number };

export function listVisibility(viewer: Viewer): ListVisibility {
  // The same decisions as postVisible, asked of someone else's and of the viewer's own unpublished post.
  const someoneElses = can(viewer, 'calendar.read_private', { type: 'calendar', authorId: 0, published: false });
  if (someoneElses) return { kind: 'all' };
  if (viewer.kind === 'user' && can(viewer, 'calendar.read_private', { type: 'calendar', authorId: viewer.user.id, published: false })) {
    return { kind: 'own', authorId: viewer.user.id };
  }
  return { kind: 'published' };
}

/**
 * The SQL form of listVisibility on the given columns (status, author id): the only place it is written. `bind`
 * adds the viewer's id as a parameter and returns its placeholder (`?` for raw SQL, `:name` for a query builder).
 */
export function visibilityCondition(viewer: Viewer, cols: { status: string; authorId: string }, bind: (value: number) => string): string {
  const vis = listVisibility(viewer);
  if (vis.kind === 'published') return `${cols.status} = 'publish'`;
  if (vis.kind === 'all') return `${cols.status} <> 'trash'`;
  return `(${cols.status} = 'publish' OR (${cols.status} <> 'trash' AND ${cols.authorId} = ${bind(vis.authorId)}))`;
}

/**
 * The SQL side of `canEditPost`: a condition true for the posts this viewer may edit, on the given columns (status,
 * author id). Derived from the same `can` decisions (asked of the viewer's own and of someone else's post,
 * published and not), never written a second time. `bind` adds the viewer's id as a parameter and returns its
 * placeholder (`?` for raw SQL, `:name` for a query builder).
 */
export function editableCondition(viewer: Viewer, cols: { status: string; authorId: string }, bind: (value: number) => string): string {
  const asks = (authorId: number) => ({
    published: can(viewer, 'calendar.edit', { type: 'calendar', authorId, published: true }),
    unpublished: can(viewer, 'calendar.edit', { type: 'calendar', authorId, published: false }),
  });
  const byStatus = (a: { published: boolean; unpublished: boolean }): string =>
    a.published && a.unpublished ? '1 = 1' : a.published ? `${cols.status} = 'publish'` : a.unpublished ? `${cols.status} <> 'publish'` : '1 = 0';
  const others = byStatus(asks(0));
  if (viewer.kind !== 'user') return `(${others})`;
  const own = byStatus(asks(viewer.user.id));
  if (own === others) return `(${own})`;
  const me = bind(viewer.user.id);
  return `((${cols.authorId} = ${me} AND ${own}) OR ((${cols.authorId} IS NULL OR ${cols.authorId} <> ${me}) AND ${others}))`;
}

/**
 * Does the viewer's role hold WordPress' edit_posts on the calendar (contributor and up)? Decides the list status
 * default and which statuses a list may ask for: a read, so asked as "may see its own unpublished posts" — a token
 * without the calendar write scope lists as its role does.
 */
export function canEditSomePosts(viewer: Viewer): boolean {
  return viewer.kind === 'user' && can(viewer, 'calendar.read_private', { type: 'calendar', authorId: viewer.user.id, published: false });
}

/** rest_forbidden: 401 when nobody is logged in, 403 otherwise. */
export function notAllowed(viewer: Viewer): Error {
  const message = CALENDAR_MESSAGES[CALENDAR_CODES.FORBIDDEN];
  return viewer.kind === 'user'
    ? new ForbiddenError(message, { domainCode: CALENDAR_CODES.FORBIDDEN })
    : new UnauthenticatedError(message, { domainCode: CALENDAR_CODES.FORBIDDEN });
}

/** Throws rest_forbidden unless the viewer may do `action` (on `post`, when given). */
export function requireCalendar(viewer: Viewer, action: CalendarAction, post?: PostFacts): void {
  const res = post ? resource(post) : { type: 'calendar' as const };
  if (!can(viewer, action, res)) throw notAllowed(viewer);
}

/**
 * The status a write by this viewer ends in (WordPress' scale-back): those who may publish get what they asked
 * (default `publish`); others get `pending` for publish/future/private and `draft` when they asked nothing.
 */
export function effectiveStatus(viewer: Viewer, requested: CalendarPostStatus | undefined, authorId: number | null, current?: CalendarPostStatus): CalendarPostStatus {
  const mayPublish = can(viewer, 'calendar.publish', { type: 'calendar', authorId: authorId ?? 0 });
  if (requested === undefined) return current ?? (mayPublish ? 'publish' : 'draft');
  if (mayPublish) return requested;
  if (requested === 'draft' || requested === 'pending') return requested;
  if (requested === 'trash') return requested;
  // publish, future, private: a contributor's (or someone's who may not publish) goes to review.
  return current === 'publish' ? 'publish' : 'pending';
}

/**
 * The status a post leaves the trash with, for every kind (events, venues, organizers): the status it had before,
 * scaled back as a write of that status by this viewer would be (a contributor restoring a post an editor had
 * published gets `pending`, not `publish`); `draft` when the status before is unknown.
 */
export function restoredStatus(viewer: Viewer, post: PostFacts & { statusBeforeTrash: CalendarPostStatus | null }): CalendarPostStatus {
  const before = post.statusBeforeTrash === null || post.statusBeforeTrash === 'trash' ? 'draft' : post.statusBeforeTrash;
  return effectiveStatus(viewer, before, post.authorId);
}

/** Role capabilities, for callers that explain a refusal. */
export const capabilitiesOf = (viewer: Viewer): ReadonlySet<string> =>
  viewer.kind === 'user' && viewer.user.calendarRole ? CALENDAR_CAPABILITIES[viewer.user.calendarRole] : new Set<string>();
