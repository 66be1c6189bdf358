/**
 * Updating a secret scanning alert: state and resolution (the spec's rules 1-5), assignee, validity.
 */
import { AccountEntity, RepositoryEntity } from '../../../entities/identity';
import {
  ALERT_RESOLUTIONS,
  ALERT_STATES,
  AlertResolution,
  AlertState,
  AlertValidity,
  SecretScanningAlertEntity,
} from '../../../entities/secret-scanning';
import type { RepositoryResource } from '../../auth/permissions';
import { RequestContext, withTransaction } from '../../context';
import { lockedFindOne } from '../../db/transaction';
import { ForbiddenError, NotFoundError, quoteInput, ValidationError } from '../../errors/app-error';
import { decodeString } from '../common/decode';
import type { AccessService } from '../identity/access.service';
import type { IdentityService } from '../identity/identity.service';
import type { SecretScanningAlertAccess } from './alert-access';
import type { SecretScanningAlertQueryService } from './alert-queries';
import { AlertFilter, AlertPage, AlertPaging, AlertUpdate, AlertUpdateField, carries, invalid, MAX_RESOLUTION_COMMENT } from './alert-types';

/** Most alerts one bulk update changes. */
export const MAX_BULK_ALERTS = 10_000;
import { SECRET_SCANNING_CODES as CODES } from './error-codes';

export class SecretScanningAlertUpdateService {
  constructor(
    private readonly deps: {
      access: AccessService;
      identity: IdentityService;
      alertAccess: SecretScanningAlertAccess;
      alerts: SecretScanningAlertQueryService;
    },
  ) {}

  /** A reviewer under delegated alert dismissal: an org owner or security manager, or the owner of a user repository. */
  private isReviewer(ctx: RequestContext, repo: RepositoryEntity, facts: RepositoryResource): boolean {
    if (ctx.viewer.kind !== 'user') return false;
    if (facts.orgRole === 'admin' || facts.orgRole === 'security_manager') return true;
    return repo.ownerId === ctx.viewer.user.id;
  }

  /** The update's own rules (shape, values, rule 1), checked before any permission or alert: GitHub's order. */
  checkUpdateShape(input: AlertUpdate): { state: AlertState | undefined; resolution: AlertResolution | null | undefined } {
    // Input shape first (validation before permission, like GitHub): at least one of the three fields.
    const p = { has: (f: AlertUpdateField) => carries(input, f) };
    if (!p.has('state') && !p.has('assignee') && !p.has('validity')) {
      throw new ValidationError('Invalid request: the {{update}} must contain at least one of state, assignee or validity.', {
        domainCode: CODES.UPDATE_EMPTY,
        namesFields: true,
        fieldErrors: [{ resource: 'SecretScanningAlert', field: 'state', code: 'missing_field' }],
      });
    }
    if (p.has('state') && !(ALERT_STATES as readonly unknown[]).includes(input.state)) {
      throw invalid('state', `state must be open or resolved`);
    }
    if (p.has('resolution') && input.resolution !== null && !(ALERT_RESOLUTIONS as readonly unknown[]).includes(input.resolution)) {
      throw invalid('resolution', `resolution must be one of ${ALERT_RESOLUTIONS.join(', ')}`);
    }
    if (p.has('validity') && input.validity !== null && input.validity !== 'active' && input.validity !== 'inactive') {
      throw invalid('validity', 'validity must be active, inactive or null');
    }
    if (p.has('assignee') && input.assignee !== null && (typeof input.assignee !== 'string' || input.assignee === '')) {
      throw invalid('assignee', 'assignee must be a login or null');
    }
    if (p.has('resolutionComment') && input.resolutionComment !== null) {
      if (decodeString(input.resolutionComment, MAX_RESOLUTION_COMMENT) === undefined) {
        throw new ValidationError(`{{resolutionComment}} is invalid: it must be a string of at most ${MAX_RESOLUTION_COMMENT} characters, without NUL characters.`, {
          domainCode: CODES.RESOLUTION_COMMENT_INVALID,
          namesFields: true,
        });
      }
    }
    const state = p.has('state') ? (input.state as AlertState) : undefined;
    const resolution = p.has('resolution') ? (input.resolution as AlertResolution | null) : undefined;
    // Rule 1: resolution required when resolving; a resolution (or comment) needs a matching state.
    if (state === 'resolved' && !resolution) {
      throw new ValidationError('resolution is required when state is resolved', {
        domainCode: CODES.STATE_RESOLUTION_MISMATCH,
        fieldErrors: [{ resource: 'SecretScanningAlert', field: 'resolution', code: 'missing_field' }],
      });
    }
    if (state === 'open' && resolution) throw invalid('resolution', 'State does not match the resolution: an open alert has no resolution', CODES.STATE_RESOLUTION_MISMATCH);
    if (state === undefined && (resolution != null || (p.has('resolutionComment') && input.resolutionComment != null))) {
      throw invalid('state', 'State does not match the resolution or resolution comment: send state with them', CODES.STATE_RESOLUTION_MISMATCH);
    }

    return { state, resolution };
  }

  async updateAlert(ctx: RequestContext, repository: RepositoryEntity | null, number: number, input: AlertUpdate): Promise<{ repo: RepositoryEntity; alert: SecretScanningAlertEntity }> {
    const { state, resolution } = this.checkUpdateShape(input);
    const { repo, facts } = await this.deps.alertAccess.requireRepository(ctx, repository, 'secret_scanning.alerts.write');
    // Read, rules 2-5 and write are one atomic step: the alert row stays locked (FOR UPDATE on PostgreSQL,
    // the write lock on SQLite) until the transaction ends, so concurrent updates see each other's result.
    return withTransaction(ctx, (tx) => this.applyUpdate(tx, repo, facts, number, input, state, resolution));
  }

  /** updateAlert's read-check-write, inside its transaction (`ctx` is bound to it). */
  private async applyUpdate(
    ctx: RequestContext,
    repo: RepositoryEntity,
    facts: RepositoryResource,
    number: number,
    input: AlertUpdate,
    state: AlertState | undefined,
    resolution: AlertResolution | null | undefined,
  ): Promise<{ repo: RepositoryEntity; alert: SecretScanningAlertEntity }> {
    const p = { has: (f: AlertUpdateField) => carries(input, f) };
    const alerts = ctx.db.getRepository(SecretScanningAlertEntity);
    const alert = await lockedFindOne(ctx.db, SecretScanningAlertEntity, { repositoryId: repo.id, number });
    if (!alert) throw new NotFoundError();
    const now = new Date();
    const changes: Partial<SecretScanningAlertEntity> = {};

    if (state !== undefined) {
      // Rule 3: a request that does not change the resolution -> 400.
      if (state === alert.state && (state === 'open' || resolution === alert.resolution)) {
        throw new ValidationError(
          state === 'open' ? 'The alert is already open: the resolution was not changed.' : `The alert is already resolved as ${alert.resolution}: the resolution was not changed.`,
          { domainCode: CODES.RESOLUTION_UNCHANGED },
        );
      }
      // Rule 2: the resolution comment cannot be updated or deleted once set.
      if (p.has('resolutionComment') && alert.resolutionComment !== null && input.resolutionComment !== alert.resolutionComment) {
        throw new ValidationError('The resolution comment cannot be updated or deleted after it is set.', { domainCode: CODES.RESOLUTION_COMMENT_IMMUTABLE });
      }
      if (state === 'resolved') {
        // Rule 4: delegated alert dismissal.
        if (repo.delegatedAlertDismissal && !this.isReviewer(ctx, repo, facts)) {
          throw new ForbiddenError('Delegated alert dismissal is enabled on this repository: only an organization owner or security manager may close this alert.', {
            domainCode: CODES.DISMISSAL_NEEDS_REVIEWER,
          });
        }
        changes.state = 'resolved';
        changes.resolution = resolution!;
        changes.resolvedAt = now;
        changes.resolvedById = ctx.viewer.kind === 'user' ? ctx.viewer.user.id : null;
      } else {
        changes.state = 'open';
        changes.resolution = null;
        changes.resolvedAt = null;
        changes.resolvedById = null;
      }
      if (p.has('resolutionComment') && typeof input.resolutionComment === 'string' && alert.resolutionComment === null) {
        changes.resolutionComment = input.resolutionComment;
      }
    }

    if (p.has('assignee')) {
      if (input.assignee === null) changes.assignedToId = null;
      else {
        const user = await this.deps.identity.findAccount(ctx, input.assignee as string);
        const ok = user && user.type === 'User' && (await this.hasWriteAccess(ctx, repo, user));
        if (!ok) {
          throw new ValidationError(`The assignee ${quoteInput(input.assignee)} does not have write access to the repository.`, {
            domainCode: CODES.ASSIGNEE_LACKS_WRITE_ACCESS,
            fieldErrors: [{ resource: 'SecretScanningAlert', field: 'assignee', code: 'invalid' }],
          });
        }
        changes.assignedToId = user!.id;
      }
    }
    if (p.has('validity')) changes.validity = (input.validity as AlertValidity | null) ?? 'unknown';

    changes.updatedAt = now;
    await alerts.update({ id: alert.id }, changes);
    return { repo, alert: await alerts.findOneOrFail({ where: { id: alert.id } }) };
  }

  /**
   * Update every alert a filter matches (the workflow task secret-scanning.bulkUpdateAlerts): the alerts of a
   * repository (`repo` given) or of an organization, listed with the same filter and access rules as the list
   * endpoints, then each updated by `updateAlert` (the same rules 1-5, permissions and locking as PATCH), one
   * transaction each. The matches are collected first (at most MAX_BULK_ALERTS), so an update that takes an alert
   * out of the filter does not move the rest. Running it again with the same arguments converges: alerts already
   * in the asked state match no more or change nothing. An alert the viewer may not change is reported, not fatal.
   */
  async bulkUpdate(
    ctx: RequestContext,
    target: { owner: string; repo?: string },
    filter: AlertFilter,
    update: AlertUpdate,
    signal?: AbortSignal,
  ): Promise<{ matched: number; updated: number; failed: Array<{ repository: string; number: number; message: string }> }> {
    if (typeof target?.owner !== 'string' || (target.repo !== undefined && typeof target.repo !== 'string')) throw invalid('owner', 'owner (and repo, when given) must be strings');
    // A wrong update is wrong for every alert: refused once, before anything changes.
    this.checkUpdateShape(update);
    const matches: Array<{ repository: RepositoryEntity | null; number: number }> = [];
    let after: string | null = null;
    for (;;) {
      signal?.throwIfAborted();
      const paging: AlertPaging = { mode: 'cursor', first: 100, after };
      const { alerts, identity } = this.deps;
      const page: AlertPage = target.repo !== undefined
        ? (await alerts.listRepositoryAlerts(ctx, await identity.findRepository(ctx, target.owner, target.repo), filter, { sort: 'created', direction: 'asc' }, paging)).page
        : (await alerts.listOrganizationAlerts(ctx, await identity.findAccount(ctx, target.owner), filter, { sort: 'created', direction: 'asc' }, paging)).page;
      for (const a of page.items) matches.push({ repository: await ctx.loaders.repositoryById.load(a.repositoryId), number: a.number });
      if (matches.length > MAX_BULK_ALERTS) throw invalid('filter', `The filter matches more than ${MAX_BULK_ALERTS} alerts; narrow it.`);
      if (!page.hasNextPage || page.items.length === 0) break;
      after = page.cursorOf(page.items[page.items.length - 1]);
    }
    const failed: Array<{ repository: string; number: number; message: string }> = [];
    let updated = 0;
    for (const m of matches) {
      signal?.throwIfAborted();
      try {
        await this.updateAlert(ctx, m.repository, m.number, update);
        updated++;
      } catch (e) {
        if (!(e instanceof ValidationError || e instanceof ForbiddenError || e instanceof NotFoundError)) throw e;
        // What refuses one alert (its state, e.g. already resolved with another resolution) is reported; the rest go on.
        failed.push({ repository: `${target.owner}/${m.repository?.name ?? target.repo ?? ''}`, number: m.number, message: e.message });
      }
    }
    return { matched: matches.length, updated, failed };
  }

  /** Write access for the assignee rule (the same effective permission `can()` uses for the viewer). */
  private async hasWriteAccess(ctx: RequestContext, repo: RepositoryEntity, user: AccountEntity): Promise<boolean> {
    const { permission } = await this.deps.access.permissionOf(ctx, repo, user.id);
    return permission === 'write' || permission === 'admin';
  }
}
