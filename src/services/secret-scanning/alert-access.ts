/**
 * The access rules of secret scanning alerts, applied through AccessService's one helper: the repository
 * endpoints (2-7 and their GraphQL twins), the organization listing (endpoint 1), and alert visibility
 * for node(id:) lookups.
 */
import type { AccountEntity, RepositoryEntity } from '../../../entities/identity';
import type { SecretScanningAlertEntity } from '../../../entities/secret-scanning';
import type { RepositoryAction, RepositoryResource } from '../../auth/permissions';
import type { RequestContext } from '../../context';
import { ForbiddenError, NotFoundError } from '../../errors/app-error';
import type { AccessService, RepositoryRule } from '../identity/access.service';

/**
 * Endpoints 2-7: missing or invisible -> 404; secret scanning off (a precondition of the domain, checked
 * once the repository is visible) -> 404 saying so; visible but not allowed -> 403.
 */
function alertsRule(ctx: RequestContext): RepositoryRule {
  return {
    precondition: (repo) => (repo.secretScanning ? null : new NotFoundError('Secret scanning is disabled on this repository.')),
    roleDenied: () =>
      ctx.viewer.kind === 'user' && ctx.viewer.credential.type === 'fine_grained'
        ? new ForbiddenError('Resource not accessible by personal access token')
        : new ForbiddenError('You must be an admin of this repository, or an admin or security manager of its organization, to use secret scanning alerts.'),
  };
}

/** The alert rules, over the identity module's access service (given, not looked up per call). */
export class SecretScanningAlertAccess {
  constructor(private readonly access: AccessService) {}

  /** The repository (as loaded; null when none) an alert action is about, if the viewer may take it. */
  requireRepository(
    ctx: RequestContext,
    repo: RepositoryEntity | null | undefined,
    action: RepositoryAction,
  ): Promise<{ repo: RepositoryEntity; facts: RepositoryResource }> {
    return this.access.requireRepository(ctx, repo, action, alertsRule(ctx));
  }

  /** Endpoint 1: unknown or not a member -> 404; member without the role -> 403. */
  async requireOrganization(ctx: RequestContext, org: AccountEntity | null | undefined): Promise<AccountEntity> {
    const allowed = await this.access.requireOrganization(ctx, org, 'organization.secret_scanning.alerts.read', {
      roleDenied: () => new ForbiddenError('You must be an organization owner or security manager to list secret scanning alerts of the organization.'),
    });
    return allowed.org;
  }

  /** Whether the viewer may read this alert (node(id:) lookups; batched through loaders). */
  async canRead(ctx: RequestContext, alert: SecretScanningAlertEntity): Promise<boolean> {
    const repo = await ctx.loaders.repositoryById.load(alert.repositoryId);
    if (!repo) return false;
    try {
      await this.requireRepository(ctx, repo, 'secret_scanning.alerts.read');
      return true;
    } catch (e) {
      if (e instanceof NotFoundError || e instanceof ForbiddenError) return false;
      throw e;
    }
  }
}
