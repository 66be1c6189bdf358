/**
 * Computes the facts `can()` decides on: the viewer's effective permission on a repository and role in
 * an organization. Uses the request's DataLoaders, so checking a page of repositories costs a few batched
 * queries, not one per row.
 */
import type { AccountEntity, OrgRole, RepositoryEntity, RepositoryPermission } from '../../../entities';
import { Action, can, OrganizationResource, RepositoryResource } from '../../auth/permissions';
import type { RequestContext } from '../../context';
import { ForbiddenError, NotFoundError } from '../../errors/app-error';

const RANK: Record<RepositoryPermission, number> = { read: 1, write: 2, admin: 3 };

function max(a: RepositoryPermission | null, b: RepositoryPermission | null): RepositoryPermission | null {
  if (!a) return b;
  if (!b) return a;
  return RANK[a] >= RANK[b] ? a : b;
}

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
   * Any user's effective permission on a repository (ownership, organization role with its base
   * permission, direct collaboration), and their role in the owning organization.
   */
  async permissionOf(ctx: RequestContext, repo: RepositoryEntity, userId: number): Promise<{ permission: RepositoryPermission | null; orgRole: OrgRole | null }> {
    const owner = await ctx.loaders.accountById.load(repo.ownerId);
    let permission: RepositoryPermission | null = null;
    let orgRole: OrgRole | null = null;
    if (owner?.type === 'User') {
      if (owner.id === userId) permission = 'admin';
    } else if (owner?.type === 'Organization') {
      orgRole = await ctx.loaders.orgRole.load(`${owner.id}:${userId}`);
      if (orgRole === 'admin') permission = 'admin';
      else if (orgRole) permission = 'read'; // organization base permission for members
    }
    permission = max(permission, await ctx.loaders.collaboratorPermission.load(`${repo.id}:${userId}`));
    return { permission, orgRole };
  }

  async organizationFacts(ctx: RequestContext, org: AccountEntity): Promise<OrganizationResource> {
    return { type: 'organization', id: org.id, orgRole: await this.orgRole(ctx, org.id) };
  }

  async canOnRepository(ctx: RequestContext, action: Action, repo: RepositoryEntity): Promise<boolean> {
    return can(ctx.viewer, action, await this.repositoryFacts(ctx, repo));
  }

  /**
   * Enforce an action on a repository. A viewer who may not even see the repository gets NotFound
   * (never a hint that it exists); one who sees it but may not act gets `denied` (default Forbidden).
   */
  async requireOnRepository(
    ctx: RequestContext,
    action: Action,
    repo: RepositoryEntity,
    denied: () => Error = () => new ForbiddenError('Resource not accessible by personal access token'),
  ): Promise<RepositoryResource> {
    const facts = await this.repositoryFacts(ctx, repo);
    if (can(ctx.viewer, action, facts)) return facts;
    // (a security_events token may act on alerts without a scope that reads repository contents)
    if (!can(ctx.viewer, 'repository.read', facts)) throw new NotFoundError();
    throw denied();
  }
}
