/**
 * Computes the facts `can()` decides on: the viewer's effective permission on a repository and role in
 * an organization. Uses the request's DataLoaders, so checking a page of repositories costs a few batched
 * queries, not one per row.
 *
 * It also holds THE visibility rule of a repository (`repositoryVisible`): every way to reach a repository
 * (REST GET /repos/{owner}/{repo}, GraphQL `repository`, `node`, `nodes`, `organization.repositories` /
 * `user.repositories`, and the 404 decisions of the secret scanning services) asks it, and the SQL filter of
 * the repository lists is derived from it (`whereVisible`), not written a second time.
 */
import type { ObjectLiteral } from 'typeorm';
import type { AccountEntity, OrgRole, RepositoryEntity, RepositoryPermission } from '../../../entities/identity';
import { Action, can, denial, OrganizationAction, OrganizationResource, RepositoryAction, RepositoryResource } from '../../auth/permissions';
import type { Viewer } from '../../auth/viewer';
import type { RequestContext } from '../../context';
import { ForbiddenError, NotFoundError } from '../../errors/app-error';

const RANK: Record<RepositoryPermission, number> = { read: 1, write: 2, admin: 3 };

function max(a: RepositoryPermission | null, b: RepositoryPermission | null): RepositoryPermission | null {
  if (!a) return b;
  if (!b) return a;
  return RANK[a] >= RANK[b] ? a : b;
}

/**
 * The one visibility rule: a viewer sees a repository when they may read it, or when secret scanning is on
 * and they may read its secret scanning alerts. The second half is what a classic `security_events` token
 * (no `repo`) of a repository admin, organization owner or security manager adds: every alert it reads
 * already carries the repository object (GitHub's alert payload does too), so showing the repository itself
 * exposes nothing new; a private repository with secret scanning off has no alert to read and stays hidden.
 */
export function repositoryVisible(viewer: Viewer, facts: RepositoryResource, secretScanning: boolean): boolean {
  return can(viewer, 'repository.read', facts) || (secretScanning && can(viewer, 'secret_scanning.alerts.read', facts));
}

/** Markdown-ish list: `a`, `a` or `b`, `a`, `b` or `c`. */
function anyOf(names: string[]): string {
  const q = names.map((n) => `\`${n}\``);
  return q.length <= 1 ? q.join('') : `${q.slice(0, -1).join(', ')} or ${q[q.length - 1]}`;
}

/** Fine-grained token ids bound into the list query (SQLite takes at most 32,766 parameters). */
const MAX_SELECTED_IDS = 10_000;

/** How one domain applies `requireRepository` (see there). */
export interface RepositoryRule {
  /** The error for a missing or invisible repository (default: a plain NotFound). */
  notFound?: () => Error;
  /** A precondition of the domain, checked once the repository is visible, before the permission: its error, or null. */
  precondition?: (repo: RepositoryEntity) => Error | null;
  /** The error when the viewer's role is what is missing (default: "Resource not accessible by personal access token"). */
  roleDenied?: () => Error;
}
/** A repository id no token selects (ids are positive). */
const UNSELECTED_ID = -1;

export class AccessService {
  async orgRole(ctx: RequestContext, organizationId: number): Promise<OrgRole | null> {
    if (ctx.viewer.kind !== 'user') return null;
    return ctx.loaders.orgRole.load(`${organizationId}:${ctx.viewer.user.id}`);
  }

  async repositoryFacts(ctx: RequestContext, repo: RepositoryEntity): Promise<RepositoryResource> {
    const base: RepositoryResource = { type: 'repository', id: repo.id, private: repo.private, permission: null, orgRole: null };
    if (ctx.viewer.kind !== 'user') return base;
    return { ...base, ...(await this.permissionOf(ctx, repo, ctx.viewer.user.id)) };
  }

  /**
   * What a user gets on every repository of an owner from the owner alone: admin on their own repositories;
   * in an organization, its role (owners: admin; other members: the base permission read).
   */
  private async ownerGrant(ctx: RequestContext, ownerId: number, userId: number): Promise<{ permission: RepositoryPermission | null; orgRole: OrgRole | null }> {
    const owner = await ctx.loaders.accountById.load(ownerId);
    if (owner?.type === 'User') return { permission: owner.id === userId ? 'admin' : null, orgRole: null };
    if (owner?.type !== 'Organization') return { permission: null, orgRole: null };
    const orgRole = await ctx.loaders.orgRole.load(`${owner.id}:${userId}`);
    return { permission: orgRole === 'admin' ? 'admin' : orgRole ? 'read' : null, orgRole };
  }

  /**
   * Any user's effective permission on a repository (ownership, organization role with its base
   * permission, direct collaboration), and their role in the owning organization.
   */
  async permissionOf(ctx: RequestContext, repo: RepositoryEntity, userId: number): Promise<{ permission: RepositoryPermission | null; orgRole: OrgRole | null }> {
    const { permission, orgRole } = await this.ownerGrant(ctx, repo.ownerId, userId);
    return { permission: max(permission, await ctx.loaders.collaboratorPermission.load(`${repo.id}:${userId}`)), orgRole };
  }

  async organizationFacts(ctx: RequestContext, org: AccountEntity): Promise<OrganizationResource> {
    return { type: 'organization', id: org.id, orgRole: await this.orgRole(ctx, org.id) };
  }

  async canOnRepository(ctx: RequestContext, action: Action, repo: RepositoryEntity): Promise<boolean> {
    return can(ctx.viewer, action, await this.repositoryFacts(ctx, repo));
  }

  // ------------------------------------------------------------------ visibility

  async canSeeRepository(ctx: RequestContext, repo: RepositoryEntity): Promise<boolean> {
    return repositoryVisible(ctx.viewer, await this.repositoryFacts(ctx, repo), repo.secretScanning);
  }

  /**
   * The viewer's facts on a repository they may see; NotFound (`notFound`) when it is missing or hidden,
   * never a hint that it exists.
   */
  async requireVisibleRepository(
    ctx: RequestContext,
    repo: RepositoryEntity | null | undefined,
    notFound: () => Error = () => new NotFoundError(),
  ): Promise<RepositoryResource> {
    if (!repo) throw notFound();
    const facts = await this.repositoryFacts(ctx, repo);
    if (!repositoryVisible(ctx.viewer, facts, repo.secretScanning)) throw notFound();
    return facts;
  }

  /**
   * Restrict a query over repositories of `owner` (alias `alias`) to the ones `repositoryVisible` shows the
   * viewer. The filter is derived from the rule itself: within one owner a repository's facts vary only by
   * its visibility, its secret scanning setting, the viewer's direct collaborator permission and (for a
   * fine-grained token) whether the token selects it, so the rule is evaluated on every combination and the
   * combinations it accepts become SQL. A change to `can()` or to the rule changes the lists with it.
   * True when the rule accepts every combination (the viewer sees every repository of the owner).
   */
  async whereVisible(ctx: RequestContext, qb: WhereTarget, alias: string, owner: AccountEntity): Promise<boolean> {
    const v = ctx.viewer;
    const grant = v.kind === 'user' ? await this.ownerGrant(ctx, owner.id, v.user.id) : { permission: null, orgRole: null };
    const collaborations: Array<RepositoryPermission | null> = v.kind === 'user' ? [null, 'read', 'write', 'admin'] : [null];
    const selectedIds = v.kind === 'user' && v.credential.type === 'fine_grained' ? [...v.credential.repositoryIds].slice(0, MAX_SELECTED_IDS) : null;
    const selections: Array<boolean | undefined> = selectedIds === null ? [undefined] : selectedIds.length ? [true, false] : [false];

    // The rule's answer on every combination; the SQL is a function of these answers alone, so it is built
    // once per distinct answer set (and alias) and reused.
    const accepted: boolean[] = [];
    let key = `${alias}|${collaborations.length}|${selections.join(',')}|`;
    for (const isPrivate of [true, false]) {
      for (const secretScanning of [true, false]) {
        for (const selected of selections) {
          const id = selected ? selectedIds![0] : UNSELECTED_ID;
          for (const c of collaborations) {
            const ok = repositoryVisible(v, { type: 'repository', id, private: isPrivate, permission: max(grant.permission, c), orgRole: grant.orgRole }, secretScanning);
            accepted.push(ok);
            key += ok ? '1' : '0';
          }
        }
      }
    }
    let filter = visibleFilters.get(key);
    if (!filter) {
      filter = visibleFilter(accepted, collaborations, selections, alias);
      if (visibleFilters.size >= MAX_VISIBLE_FILTERS) visibleFilters.delete(visibleFilters.keys().next().value!);
      visibleFilters.set(key, filter);
    }
    qb.andWhere(filter.sql, {
      ...filter.params,
      ...(filter.usesIds ? { vis_ids: selectedIds?.length ? selectedIds : [UNSELECTED_ID] } : {}),
      ...(filter.usesUser && v.kind === 'user' ? { vis_uid: v.user.id } : {}),
    });
    return accepted.every(Boolean);
  }

  // ------------------------------------------------------------------ denials

  /**
   * The Forbidden for an action `can()` denies on a resource the viewer sees. When the viewer's role would
   * allow it, the message names what the credential lacks (the classic scopes, the fine-grained permission);
   * only when the role is what is missing does it say so (`roleDenied`).
   */
  private forbidden(
    ctx: RequestContext,
    action: RepositoryAction | OrganizationAction,
    resource: RepositoryResource | OrganizationResource,
    roleDenied: () => Error,
  ): Error {
    const d = denial(ctx.viewer, action, resource);
    switch (d?.by) {
      case 'scope':
        return new ForbiddenError(`Resource not accessible by personal access token: the token lacks the ${anyOf(d.anyOf)} scope.`);
      case 'permission':
        return new ForbiddenError(
          `Resource not accessible by personal access token: the token lacks the \`${d.permission}\` permission (${d.access === 'read' ? 'read' : 'write'}).`,
        );
      case 'repository':
        return new ForbiddenError('Resource not accessible by personal access token: the token does not select this repository.');
      case 'credential':
        return new ForbiddenError('Resource not accessible with this credential.');
      default:
        return roleDenied();
    }
  }

  /**
   * THE access check of a repository action, for every service: the repository (as loaded, null when the
   * lookup found none) must be visible to the viewer, else NotFound (`rule.notFound`), never a hint that it
   * exists; then the domain's precondition (e.g. "secret scanning is on"), whose error it throws; then
   * `can()`: a viewer who sees it but may not act gets Forbidden, naming what the credential lacks, or
   * `rule.roleDenied` when the role is what is missing. Returns the facts `can()` decided on.
   */
  async requireRepository(
    ctx: RequestContext,
    repo: RepositoryEntity | null | undefined,
    action: RepositoryAction,
    rule: RepositoryRule = {},
  ): Promise<{ repo: RepositoryEntity; facts: RepositoryResource }> {
    const facts = await this.requireVisibleRepository(ctx, repo, rule.notFound);
    const unavailable = rule.precondition?.(repo!);
    if (unavailable) throw unavailable;
    if (!can(ctx.viewer, action, facts)) throw this.forbidden(ctx, action, facts, rule.roleDenied ?? (() => new ForbiddenError('Resource not accessible by personal access token')));
    return { repo: repo!, facts };
  }

  /**
   * The access check of an organization action (organizations are public, what they hold is not): a
   * missing account or one that is no organization -> NotFound; allowed -> the facts; a non-member ->
   * NotFound (an outsider learns nothing); a member without the role or credential -> Forbidden, as in
   * `requireRepository`.
   */
  async requireOrganization(
    ctx: RequestContext,
    org: AccountEntity | null | undefined,
    action: OrganizationAction,
    rule: { roleDenied?: () => Error } = {},
  ): Promise<{ org: AccountEntity; facts: OrganizationResource }> {
    if (!org || org.type !== 'Organization') throw new NotFoundError();
    const facts = await this.organizationFacts(ctx, org);
    if (can(ctx.viewer, action, facts)) return { org, facts };
    if (!facts.orgRole) throw new NotFoundError();
    throw this.forbidden(ctx, action, facts, rule.roleDenied ?? (() => new ForbiddenError('Resource not accessible by personal access token')));
  }
}

/** Where `whereVisible` adds its filter (a query builder or a ListQuery). */
export interface WhereTarget {
  andWhere(where: string, parameters?: ObjectLiteral): unknown;
}

/** The SQL of `whereVisible` per distinct set of the rule's answers (few: one per kind of viewer and owner). */
interface VisibleFilter {
  sql: string;
  params: Record<string, unknown>;
  usesIds: boolean;
  usesUser: boolean;
}
const MAX_VISIBLE_FILTERS = 1024;
const visibleFilters = new Map<string, VisibleFilter>();

/**
 * The filter for the combinations the rule accepted (`accepted`, in `whereVisible`'s loop order): accepted
 * combinations merged (`mergeCases`), each an AND of the dimensions it fixes, all ORed.
 */
function visibleFilter(
  accepted: boolean[],
  collaborations: Array<RepositoryPermission | null>,
  selections: Array<boolean | undefined>,
  alias: string,
): VisibleFilter {
  let cases: VisibleCase[] = [];
  let at = 0;
  for (const isPrivate of [true, false]) {
    for (const secretScanning of [true, false]) {
      for (const selected of selections) {
        const collaborator = collaborations.filter(() => accepted[at++]);
        if (!collaborator.length) continue;
        cases.push({ isPrivate, secretScanning, selected, collaborator: collaborator.length === collaborations.length ? undefined : collaborator });
      }
    }
  }
  cases = mergeCases(cases);
  const col = (property: string) => `${alias}.${property}`;
  const params: Record<string, unknown> = {};
  let usesIds = false;
  let usesUser = false;
  const ors = cases.map((c, i) => {
    const parts: string[] = [];
    if (c.isPrivate !== undefined) {
      parts.push(`${col('private')} = :vis_p${i}`);
      params[`vis_p${i}`] = c.isPrivate;
    }
    if (c.secretScanning !== undefined) {
      parts.push(`${col('secretScanning')} = :vis_s${i}`);
      params[`vis_s${i}`] = c.secretScanning;
    }
    if (c.selected !== undefined) {
      parts.push(`${col('id')} ${c.selected ? 'IN' : 'NOT IN'} (:...vis_ids)`);
      usesIds = true;
    }
    if (c.collaborator) {
      parts.push(
        `COALESCE((SELECT vc.permission FROM repository_collaborators vc WHERE vc.repository_id = ${col('id')} AND vc.user_id = :vis_uid), 'none') IN (:...vis_c${i})`,
      );
      params[`vis_c${i}`] = c.collaborator.map((p) => p ?? 'none');
      usesUser = true;
    }
    return parts.length ? `(${parts.join(' AND ')})` : '1 = 1';
  });
  return { sql: cases.length ? `(${ors.join(' OR ')})` : '1 = 0', params, usesIds, usesUser };
}

/** One accepted combination of `whereVisible` (undefined: any value). */
interface VisibleCase {
  isPrivate?: boolean;
  secretScanning?: boolean;
  selected?: boolean;
  /** direct collaborator permissions (null: none) accepted; undefined: any */
  collaborator?: Array<RepositoryPermission | null>;
}

/** Merge combinations that differ in one boolean only (`(a AND x) OR (a AND NOT x)` -> `a`), for shorter SQL. */
function mergeCases(cases: VisibleCase[]): VisibleCase[] {
  let out = cases;
  for (const dim of ['secretScanning', 'selected', 'isPrivate'] as const) {
    const groups = new Map<string, VisibleCase[]>();
    for (const c of out) {
      const key = JSON.stringify({ ...c, [dim]: 'any' });
      groups.set(key, [...(groups.get(key) ?? []), c]);
    }
    out = [...groups.values()].flatMap((g) =>
      g.length === 2 && g.some((c) => c[dim] === true) && g.some((c) => c[dim] === false) ? [{ ...g[0], [dim]: undefined }] : g,
    );
  }
  return out;
}
