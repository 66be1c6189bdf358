/**
 * Who may do what with secret scanning alerts: the access rules of the repository endpoints (2-7) and of the
 * organization listing (endpoint 1), and alert visibility for node(id:) lookups.
 */
import type { AccountEntity, RepositoryEntity, SecretScanningAlertEntity } from '../../../entities';
import { can, RepositoryAction, RepositoryResource } from '../../auth/permissions';
import type { RequestContext } from '../../context';
import { ForbiddenError, NotFoundError } from '../../errors/app-error';

export class SecretScanningAlertAccessService {

  /**
   * The repository an alert action is about, with the access rules of endpoints 2-7:
   * missing, invisible or secret scanning off -> 404; visible but not allowed -> 403.
   */
  async repositoryFor(ctx: RequestContext, owner: string, name: string, action: RepositoryAction): Promise<{ repo: RepositoryEntity; facts: RepositoryResource }> {
    const repo = await ctx.services.identity.findRepositoryUnchecked(ctx.db, owner, name);
    if (!repo) throw new NotFoundError();
    return { repo, facts: await this.checkRepository(ctx, repo, action) };
  }

  /** The access rules of endpoints 2-7 for a repository already loaded (uses the request's loaders). */
  async checkRepository(ctx: RequestContext, repo: RepositoryEntity, action: RepositoryAction): Promise<RepositoryResource> {
    const facts = await ctx.services.access.requireVisibleRepository(ctx, repo);
    if (!repo.secretScanning) throw new NotFoundError('Secret scanning is disabled on this repository.');
    if (!can(ctx.viewer, action, facts)) {
      throw ctx.services.access.forbidden(ctx, action, facts, () =>
        ctx.viewer.kind === 'user' && ctx.viewer.credential.type === 'fine_grained'
          ? new ForbiddenError('Resource not accessible by personal access token')
          : new ForbiddenError('You must be an admin of this repository, or an admin or security manager of its organization, to use secret scanning alerts.'),
      );
    }
    return facts;
  }

  /** Whether the viewer may read this alert (node(id:) lookups; batched through loaders). */
  async canReadAlert(ctx: RequestContext, alert: SecretScanningAlertEntity): Promise<boolean> {
    const repo = await ctx.loaders.repositoryById.load(alert.repositoryId);
    if (!repo) return false;
    try {
      await this.checkRepository(ctx, repo, 'secret_scanning.alerts.read');
      return true;
    } catch (e) {
      if (e instanceof NotFoundError || e instanceof ForbiddenError) return false;
      throw e;
    }
  }

  /** Organization of endpoint 1: unknown or not a member -> 404; member without the role -> 403. */
  async organizationFor(ctx: RequestContext, login: string): Promise<AccountEntity> {
    const org = await ctx.services.identity.findAccount(ctx, login);
    if (!org || org.type !== 'Organization') throw new NotFoundError();
    const facts = await ctx.services.access.organizationFacts(ctx, org);
    if (can(ctx.viewer, 'organization.secret_scanning.alerts.read', facts)) return org;
    if (!facts.orgRole) throw new NotFoundError();
    throw ctx.services.access.forbidden(
      ctx,
      'organization.secret_scanning.alerts.read',
      facts,
      () => new ForbiddenError('You must be an organization owner or security manager to list secret scanning alerts of the organization.'),
    );
  }
}
