/**
 * Secret scanning alerts: listing (organization and repository, every GitHub filter, page and cursor
 * paging), reading, updating (the spec's rules 1-5), locations, scan history, and recording findings.
 * Access rules live here once; REST routes and GraphQL resolvers only map their inputs.
 */
import { createHash } from 'node:crypto';
import { EntityManager, In, SelectQueryBuilder } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import {
  ALERT_RESOLUTION_FILTERS,
  ALERT_RESOLUTIONS,
  ALERT_STATES,
  ALERT_VALIDITIES,
  AccountEntity,
  AlertResolution,
  AlertState,
  AlertValidity,
  LocationType,
  RepositoryEntity,
  SCAN_KINDS,
  ScanKind,
  SecretScanningAlertCounterEntity,
  SecretScanningAlertEntity,
  SecretScanningLocationEntity,
  SecretScanningScanEntity,
} from '../../../entities';
import { can, RepositoryAction, RepositoryResource } from '../../auth/permissions';
import { RequestContext, withTransaction } from '../../context';
import { InWriteTransaction, lockedFindOne } from '../../db/transaction';
import { ForbiddenError, NotFoundError, quoteInput, ValidationError } from '../../errors/app-error';
import { decodeInt, decodeString, lookupKeys, POSITIVE_INT4 } from '../common/decode';
import { keysetPage, offsetPage, Page, PageArgs } from '../common/pagination';

export const DEFAULT_PER_PAGE = 30;

export interface AlertFilter {
  state?: string | null;
  secretTypes?: string[] | null;
  excludeSecretTypes?: string[] | null;
  providers?: string[] | null;
  excludeProviders?: string[] | null;
  resolutions?: string[] | null;
  /** a login, `*` (any assignee) or `none` (unassigned) */
  assignee?: string | null;
  validities?: string[] | null;
  isPubliclyLeaked?: boolean | null;
  isMultiRepo?: boolean | null;
  isBypassed?: boolean | null;
  /** Only alerts having all these metadata fields (GitHub's included_metadata). */
  includedMetadata?: string[] | null;
  /** Only alerts whose owner_email metadata has this lowercase hex SHA-256. */
  ownerEmailHash?: string | null;
}

/** The metadata fields GitHub can attach to an alert (included_metadata filter values). */
export const INCLUDED_METADATA_VALUES = [
  'owner-email',
  'owner-id',
  'owner-name',
  'secret-id',
  'secret-name',
  'secret-issued-date',
  'secret-expiration-date',
  'organization-name',
  'organization-id',
  'last-used-date',
  'has-organization-access',
] as const;


export interface AlertOrder {
  sort?: string | null; // created | updated
  direction?: string | null; // asc | desc
}

/** Page mode (page/per_page) or cursor mode (first/after/last/before, or per_page with after/before). */
export type AlertPaging = { mode: 'page'; page: number; perPage: number } | ({ mode: 'cursor' } & PageArgs);

export type AlertPage = Page<SecretScanningAlertEntity>;

export interface AlertUpdate {
  state?: unknown;
  resolution?: unknown;
  resolutionComment?: unknown;
  assignee?: unknown;
  validity?: unknown;
  /** Which keys the request actually carried (a key present with null differs from an absent key). */
  present: Set<'state' | 'resolution' | 'resolution_comment' | 'assignee' | 'validity'>;
}

export const MAX_RESOLUTION_COMMENT = 280;
/** The length of the secret_type and provider_slug columns. */
const MAX_SLUG_LENGTH = 100;

export interface Finding {
  secretType: string;
  secretTypeDisplayName: string;
  provider: string | null;
  providerSlug: string | null;
  secret: string;
  isBase64Encoded?: boolean;
  location: {
    type: LocationType;
    path?: string | null;
    startLine?: number | null;
    endLine?: number | null;
    startColumn?: number | null;
    endColumn?: number | null;
    blobSha?: string | null;
    commitSha?: string | null;
    url?: string | null;
  };
  bypass?: { byId: number; at: Date; reason: 'false_positive' | 'used_in_tests' | 'will_fix_later' };
}

export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

function invalid(field: string, message: string, resource = 'SecretScanningAlert'): ValidationError {
  return new ValidationError(message, { fieldErrors: [{ resource, field, code: 'invalid', message }] });
}

function checkList(field: string, values: string[] | null | undefined, allowed: readonly string[]): void {
  for (const v of values ?? []) {
    if (!allowed.includes(v)) throw invalid(field, `${quoteInput(v)} is not a valid ${field}; use one of ${allowed.join(', ')}`);
  }
}

function placeKey(f: Finding['location']): string {
  const key =
    f.type === 'commit' || f.type === 'wiki_commit'
      ? [f.type, f.commitSha, f.path, f.startLine, f.startColumn, f.endLine, f.endColumn].join('\u0000')
      : [f.type, f.url].join('\u0000');
  return createHash('sha256').update(key).digest('hex');
}

export class SecretScanningAlertsService {
  // ------------------------------------------------------------------ access

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

  // ------------------------------------------------------------------ listing

  validateFilter(filter: AlertFilter, order: AlertOrder): { sort: 'created' | 'updated'; direction: 'asc' | 'desc' } {
    if (filter.state != null && !(ALERT_STATES as readonly string[]).includes(filter.state)) {
      throw invalid('state', `${quoteInput(filter.state)} is not a valid state; use open or resolved`);
    }
    if (filter.secretTypes?.length && filter.excludeSecretTypes?.length) {
      throw new ValidationError('secret_type and exclude_secret_types cannot be used together', {
        fieldErrors: [{ resource: 'SecretScanningAlert', field: 'exclude_secret_types', code: 'invalid' }],
      });
    }
    if (filter.providers?.length && filter.excludeProviders?.length) {
      throw new ValidationError('providers and exclude_providers cannot be used together', {
        fieldErrors: [{ resource: 'SecretScanningAlert', field: 'exclude_providers', code: 'invalid' }],
      });
    }
    checkList('resolution', filter.resolutions, ALERT_RESOLUTION_FILTERS);
    checkList('validity', filter.validities, ALERT_VALIDITIES);
    for (const m of filter.includedMetadata ?? []) {
      if (!(INCLUDED_METADATA_VALUES as readonly string[]).includes(m)) {
        throw invalid('included_metadata', `${quoteInput(m)} is not a valid included_metadata value; use ${INCLUDED_METADATA_VALUES.join(', ')}`);
      }
    }
    if (filter.ownerEmailHash != null && !/^[0-9a-f]{64}$/.test(filter.ownerEmailHash)) {
      throw invalid('owner_email_hash', 'owner_email_hash must be the lowercase hex SHA-256 of an email address');
    }
    const sort = order.sort ?? 'created';
    const direction = order.direction ?? 'desc';
    if (sort !== 'created' && sort !== 'updated') throw invalid('sort', `${quoteInput(sort)} is not a valid sort; use created or updated`);
    if (direction !== 'asc' && direction !== 'desc') throw invalid('direction', `${quoteInput(direction)} is not a valid direction; use asc or desc`);
    return { sort, direction };
  }

  private async applyFilter(ctx: RequestContext, qb: SelectQueryBuilder<SecretScanningAlertEntity>, filter: AlertFilter): Promise<boolean> {
    const a = qb.alias;
    // This gateway stores no alert metadata: a metadata filter matches no alert.
    if (filter.includedMetadata?.length || filter.ownerEmailHash) return false;
    if (filter.state) qb.andWhere(`${a}.state = :state`, { state: filter.state });
    // Type and provider slugs are free-form: only values the columns can hold reach SQL (no NUL, at most
    // their length). An inclusive list left empty matches nothing; an impossible excluded value excludes nothing.
    const slugs = (values: string[] | null | undefined) => (values?.length ? lookupKeys(values, MAX_SLUG_LENGTH) : undefined);
    const secretTypes = slugs(filter.secretTypes);
    const exSecretTypes = slugs(filter.excludeSecretTypes);
    const providers = slugs(filter.providers);
    const exProviders = slugs(filter.excludeProviders);
    if (secretTypes?.length === 0 || providers?.length === 0) return false;
    if (secretTypes) qb.andWhere(`${a}.secret_type IN (:...secretTypes)`, { secretTypes });
    if (exSecretTypes?.length) qb.andWhere(`${a}.secret_type NOT IN (:...exSecretTypes)`, { exSecretTypes });
    if (providers) qb.andWhere(`${a}.provider_slug IN (:...providers)`, { providers });
    if (exProviders?.length) {
      qb.andWhere(`(${a}.provider_slug IS NULL OR ${a}.provider_slug NOT IN (:...exProviders))`, { exProviders });
    }
    if (filter.resolutions?.length) qb.andWhere(`${a}.resolution IN (:...resolutions)`, { resolutions: filter.resolutions });
    if (filter.validities?.length) qb.andWhere(`${a}.validity IN (:...validities)`, { validities: filter.validities });
    if (filter.isPubliclyLeaked === true) qb.andWhere(`${a}.publicly_leaked = :pl`, { pl: true });
    if (filter.isMultiRepo === true) qb.andWhere(`${a}.multi_repo = :mr`, { mr: true });
    if (filter.isBypassed != null) qb.andWhere(`${a}.push_protection_bypassed = :bp`, { bp: filter.isBypassed });
    if (filter.assignee != null && filter.assignee !== '') {
      if (filter.assignee === '*') qb.andWhere(`${a}.assigned_to_id IS NOT NULL`);
      else if (filter.assignee === 'none') qb.andWhere(`${a}.assigned_to_id IS NULL`);
      else {
        const user = await ctx.services.identity.findAccount(ctx, filter.assignee);
        if (!user) return false; // nobody with that login: no alert can match
        qb.andWhere(`${a}.assigned_to_id = :assignee`, { assignee: user.id });
      }
    }
    return true;
  }

  private async page(
    qb: SelectQueryBuilder<SecretScanningAlertEntity>,
    matches: boolean,
    order: { sort: 'created' | 'updated'; direction: 'asc' | 'desc' },
    paging: AlertPaging,
  ): Promise<AlertPage> {
    if (!matches) qb.andWhere('1 = 0');
    const sort = { property: order.sort === 'created' ? 'createdAt' : 'updatedAt', direction: order.direction === 'asc' ? ('ASC' as const) : ('DESC' as const) };
    return paging.mode === 'page'
      ? offsetPage(qb, paging, sort, { resource: 'SecretScanningAlert' })
      : keysetPage(qb, paging, sort, DEFAULT_PER_PAGE);
  }

  async listRepositoryAlerts(
    ctx: RequestContext,
    owner: string,
    name: string,
    filter: AlertFilter,
    order: AlertOrder,
    paging: AlertPaging,
  ): Promise<{ repo: RepositoryEntity; page: AlertPage }> {
    const o = this.validateFilter(filter, order);
    const { repo } = await this.repositoryFor(ctx, owner, name, 'secret_scanning.alerts.read');
    const qb = ctx.db.getRepository(SecretScanningAlertEntity).createQueryBuilder('a').where('a.repository_id = :rid', { rid: repo.id });
    const matches = await this.applyFilter(ctx, qb, filter);
    return { repo, page: await this.page(qb, matches, o, paging) };
  }

  async listOrganizationAlerts(ctx: RequestContext, login: string, filter: AlertFilter, order: AlertOrder, paging: AlertPaging): Promise<{ org: AccountEntity; page: AlertPage }> {
    const o = this.validateFilter(filter, order);
    const org = await this.organizationFor(ctx, login);
    // Alerts of the organization's repositories, minus those with secret scanning off. The NOT IN
    // (uncorrelated subquery) form keeps the (owner_id, created_at|updated_at) indexes usable for the
    // ordered page, and (owner_id, repository_id) covering for the count.
    const qb = ctx.db
      .getRepository(SecretScanningAlertEntity)
      .createQueryBuilder('a')
      .where('a.owner_id = :oid', { oid: org.id })
      .andWhere('a.repository_id NOT IN (SELECT r.id FROM repositories r WHERE r.owner_id = :oid AND r.secret_scanning = :off)', { off: false });
    const v = ctx.viewer;
    if (v.kind === 'user' && v.credential.type === 'fine_grained') {
      const ids = [...v.credential.repositoryIds];
      if (ids.length === 0) qb.andWhere('1 = 0');
      else qb.andWhere('a.repository_id IN (:...fgRepos)', { fgRepos: ids.slice(0, 10_000) });
    }
    const matches = await this.applyFilter(ctx, qb, filter);
    return { org, page: await this.page(qb, matches, o, paging) };
  }

  // ------------------------------------------------------------------ one alert

  async getAlert(ctx: RequestContext, owner: string, name: string, number: number): Promise<{ repo: RepositoryEntity; alert: SecretScanningAlertEntity }> {
    if (decodeInt(number, POSITIVE_INT4) === undefined) throw new NotFoundError();
    const { repo } = await this.repositoryFor(ctx, owner, name, 'secret_scanning.alerts.read');
    const alert = await ctx.db.getRepository(SecretScanningAlertEntity).findOne({ where: { repositoryId: repo.id, number } });
    if (!alert) throw new NotFoundError();
    return { repo, alert };
  }

  /** A reviewer under delegated alert dismissal: an org owner or security manager, or the owner of a user repository. */
  private isReviewer(ctx: RequestContext, repo: RepositoryEntity, facts: RepositoryResource): boolean {
    if (ctx.viewer.kind !== 'user') return false;
    if (facts.orgRole === 'admin' || facts.orgRole === 'security_manager') return true;
    return repo.ownerId === ctx.viewer.user.id;
  }

  async updateAlert(ctx: RequestContext, owner: string, name: string, number: number, input: AlertUpdate): Promise<{ repo: RepositoryEntity; alert: SecretScanningAlertEntity }> {
    // Input shape first (validation before permission, like GitHub): at least one of the three fields.
    const p = input.present;
    if (!p.has('state') && !p.has('assignee') && !p.has('validity')) {
      throw new ValidationError('Invalid request: the body must contain at least one of state, assignee or validity.', {
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
    if (p.has('resolution_comment') && input.resolutionComment !== null) {
      if (decodeString(input.resolutionComment, MAX_RESOLUTION_COMMENT) === undefined) {
        throw new ValidationError(`resolution_comment is invalid: it must be a string of at most ${MAX_RESOLUTION_COMMENT} characters, without NUL characters.`, { status: 400 });
      }
    }
    const state = p.has('state') ? (input.state as AlertState) : undefined;
    const resolution = p.has('resolution') ? (input.resolution as AlertResolution | null) : undefined;
    // Rule 1: resolution required when resolving; a resolution (or comment) needs a matching state.
    if (state === 'resolved' && !resolution) {
      throw new ValidationError('resolution is required when state is resolved', {
        fieldErrors: [{ resource: 'SecretScanningAlert', field: 'resolution', code: 'missing_field' }],
      });
    }
    if (state === 'open' && resolution) throw invalid('resolution', 'State does not match the resolution: an open alert has no resolution');
    if (state === undefined && (resolution != null || (p.has('resolution_comment') && input.resolutionComment != null))) {
      throw invalid('state', 'State does not match the resolution or resolution comment: send state with them');
    }

    const { repo, facts } = await this.repositoryFor(ctx, owner, name, 'secret_scanning.alerts.write');
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
    const p = input.present;
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
          { status: 400 },
        );
      }
      // Rule 2: the resolution comment cannot be updated or deleted once set.
      if (p.has('resolution_comment') && alert.resolutionComment !== null && input.resolutionComment !== alert.resolutionComment) {
        throw new ValidationError('resolution_comment cannot be updated or deleted after it is set.', { status: 400 });
      }
      if (state === 'resolved') {
        // Rule 4: delegated alert dismissal.
        if (repo.delegatedAlertDismissal && !this.isReviewer(ctx, repo, facts)) {
          throw new ForbiddenError('Delegated alert dismissal is enabled on this repository: only an organization owner or security manager may close this alert.');
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
      if (p.has('resolution_comment') && typeof input.resolutionComment === 'string' && alert.resolutionComment === null) {
        changes.resolutionComment = input.resolutionComment;
      }
    }

    if (p.has('assignee')) {
      if (input.assignee === null) changes.assignedToId = null;
      else {
        const user = await ctx.services.identity.findAccount(ctx, input.assignee as string);
        const ok = user && user.type === 'User' && (await this.hasWriteAccess(ctx, repo, user));
        if (!ok) {
          throw new ValidationError(`The assignee ${quoteInput(input.assignee)} does not have write access to the repository.`, {
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

  /** Write access for the assignee rule (the same effective permission `can()` uses for the viewer). */
  private async hasWriteAccess(ctx: RequestContext, repo: RepositoryEntity, user: AccountEntity): Promise<boolean> {
    const { permission } = await ctx.services.access.permissionOf(ctx, repo, user.id);
    return permission === 'write' || permission === 'admin';
  }

  // ------------------------------------------------------------------ locations

  async listLocations(
    ctx: RequestContext,
    owner: string,
    name: string,
    number: number,
    paging: { page: number; perPage: number } | ({ mode: 'cursor' } & PageArgs),
  ): Promise<{ repo: RepositoryEntity; alert: SecretScanningAlertEntity; page: Page<SecretScanningLocationEntity> }> {
    const { repo, alert } = await this.getAlert(ctx, owner, name, number);
    return { repo, alert, page: await this.locationsOf(ctx.db, alert, paging) };
  }

  async locationsOf(
    db: EntityManager,
    alert: SecretScanningAlertEntity,
    paging: { page: number; perPage: number } | ({ mode: 'cursor' } & PageArgs),
  ): Promise<Page<SecretScanningLocationEntity>> {
    const qb = db.getRepository(SecretScanningLocationEntity).createQueryBuilder('l').where('l.alert_id = :aid', { aid: alert.id });
    const sort = { property: 'id', direction: 'ASC' as const };
    if ('mode' in paging) return keysetPage(qb, paging, sort);
    // The alert keeps its locations count: no COUNT query.
    return offsetPage(qb, paging, sort, { resource: 'SecretScanningLocation', totalCount: () => Promise.resolve(alert.locationsCount) });
  }

  // ------------------------------------------------------------------ scan history

  async scanHistory(ctx: RequestContext, owner: string, name: string): Promise<{ repo: RepositoryEntity; scans: Record<ScanKind, SecretScanningScanEntity[]> }> {
    const { repo } = await this.repositoryFor(ctx, owner, name, 'secret_scanning.scan_history.read');
    if (!repo.advancedSecurity) throw new NotFoundError('Advanced security is not enabled on this repository.');
    const rows = await ctx.db
      .getRepository(SecretScanningScanEntity)
      .createQueryBuilder('s')
      .where('s.repository_id = :rid', { rid: repo.id })
      .andWhere(
        `s.id IN (SELECT MAX(s2.id) FROM secret_scanning_scans s2 WHERE s2.repository_id = :rid GROUP BY s2.kind, s2.type, COALESCE(s2.pattern_slug, ''))`,
      )
      .orderBy('s.id', 'DESC')
      .getMany();
    const scans = Object.fromEntries(SCAN_KINDS.map((k) => [k, [] as SecretScanningScanEntity[]])) as Record<ScanKind, SecretScanningScanEntity[]>;
    for (const r of rows) scans[r.kind].push(r);
    return { repo, scans };
  }

  // ------------------------------------------------------------------ recording findings

  /**
   * Record one finding in a repository: a new open alert (numbered per repository), or a new location of
   * the existing alert for the same secret. Derives multi_repo and publicly_leaked from real data.
   * Must run inside a transaction (`db` is its manager). Returns the alert and whether it is new.
   */
  async recordFinding(db: EntityManager, repo: RepositoryEntity, f: Finding, now = new Date()): Promise<{ alert: SecretScanningAlertEntity; created: boolean; newLocation: boolean }> {
    const alerts = db.getRepository(SecretScanningAlertEntity);
    const locations = db.getRepository(SecretScanningLocationEntity);
    const secretHash = hashSecret(f.secret);
    let alert = await alerts.findOne({ where: { repositoryId: repo.id, secretHash } });
    let created = false;
    if (!alert) {
      const number = await this.nextNumber(db, repo.id);
      // The same secret in another repository of the same owner -> multi_repo on every such alert.
      const siblings = await alerts.find({ where: { ownerId: repo.ownerId, secretHash }, select: { id: true, repositoryId: true } });
      const others = siblings.filter((s) => s.repositoryId !== repo.id);
      const publiclyLeaked = !repo.private || (await this.foundInPublicRepository(db, secretHash));
      const resolvedByBypass = f.bypass && f.bypass.reason !== 'will_fix_later';
      alert = await alerts.save(
        alerts.create({
          repositoryId: repo.id,
          ownerId: repo.ownerId,
          number,
          state: resolvedByBypass ? 'resolved' : 'open',
          resolution: resolvedByBypass ? (f.bypass!.reason as AlertResolution) : null,
          resolvedAt: resolvedByBypass ? now : null,
          resolvedById: resolvedByBypass ? f.bypass!.byId : null,
          resolutionComment: null,
          secretType: f.secretType,
          secretTypeDisplayName: f.secretTypeDisplayName,
          provider: f.provider,
          providerSlug: f.providerSlug,
          secret: f.secret,
          secretHash,
          validity: 'unknown',
          publiclyLeaked,
          multiRepo: others.length > 0,
          isBase64Encoded: f.isBase64Encoded ?? false,
          pushProtectionBypassed: Boolean(f.bypass),
          pushProtectionBypassedById: f.bypass?.byId ?? null,
          pushProtectionBypassedAt: f.bypass?.at ?? null,
          assignedToId: null,
          firstLocationId: null,
          locationsCount: 0,
          createdAt: now,
          updatedAt: now,
        }),
      );
      created = true;
      if (others.length) await alerts.update({ id: In(others.map((o) => o.id)), multiRepo: false }, { multiRepo: true, updatedAt: now });
      if (!repo.private) {
        // Found in a public repository: every alert for this secret is publicly leaked.
        await alerts.update({ secretHash, publiclyLeaked: false }, { publiclyLeaked: true, updatedAt: now });
      }
    }
    const key = placeKey(f.location);
    const existing = await locations.findOne({ where: { alertId: alert.id, placeKey: key } });
    if (existing) return { alert, created, newLocation: false };
    const loc = await locations.save(
      locations.create({
        alertId: alert.id,
        type: f.location.type,
        placeKey: key,
        path: f.location.path ?? null,
        startLine: f.location.startLine ?? null,
        endLine: f.location.endLine ?? null,
        startColumn: f.location.startColumn ?? null,
        endColumn: f.location.endColumn ?? null,
        blobSha: f.location.blobSha ?? null,
        commitSha: f.location.commitSha ?? null,
        url: f.location.url ?? null,
      }),
    );
    // Computed in SQL from the row's current values, not from the (possibly stale) alert read above:
    // concurrent findings of the same alert each count.
    const set: QueryDeepPartialEntity<SecretScanningAlertEntity> = { locationsCount: () => 'locations_count + 1' };
    // first_location_detected is the first commit-form location.
    const commitForm = f.location.type === 'commit' || f.location.type === 'wiki_commit';
    if (commitForm) set.firstLocationId = () => 'COALESCE(first_location_id, :firstLocationId)';
    if (!created) set.updatedAt = now;
    await alerts.createQueryBuilder().update().set(set).where('id = :id', { id: alert.id }).setParameter('firstLocationId', loc.id).execute();
    // The returned entity reflects this finding (callers use its id and number; the row has the counts).
    alert.locationsCount += 1;
    if (commitForm && alert.firstLocationId === null) alert.firstLocationId = loc.id;
    if (!created) alert.updatedAt = now;
    return { alert, created, newLocation: true };
  }

  private async foundInPublicRepository(db: EntityManager, secretHash: string): Promise<boolean> {
    const row = await db
      .getRepository(SecretScanningAlertEntity)
      .createQueryBuilder('a')
      .innerJoin(RepositoryEntity, 'r', 'r.id = a.repository_id')
      .where('a.secret_hash = :h', { h: secretHash })
      .andWhere('r.private = :f', { f: false })
      .select('a.id')
      .limit(1)
      .getRawOne();
    return Boolean(row);
  }

  /** Next alert number of a repository, never reused (row-locked counter; SQLite serialises writers). */
  async nextNumber(db: EntityManager, repositoryId: number): Promise<number> {
    const counters = db.getRepository(SecretScanningAlertCounterEntity);
    await counters.createQueryBuilder().insert().values({ repositoryId, lastNumber: 0 }).orIgnore().execute();
    await counters
      .createQueryBuilder()
      .update()
      .set({ lastNumber: () => 'last_number + 1' })
      .where('repository_id = :id', { id: repositoryId })
      .execute();
    const row = await counters.findOneOrFail({ where: { repositoryId } });
    return row.lastNumber;
  }

  /** Record a scan run. */
  @InWriteTransaction()
  async recordScan(db: EntityManager, scan: Partial<SecretScanningScanEntity> & { repositoryId: number; kind: ScanKind; type: string }): Promise<SecretScanningScanEntity> {
    const repo = db.getRepository(SecretScanningScanEntity);
    return repo.save(
      repo.create({
        status: 'completed',
        startedAt: null,
        completedAt: null,
        patternSlug: null,
        patternScope: null,
        alertsFound: 0,
        ...scan,
      }),
    );
  }
}
