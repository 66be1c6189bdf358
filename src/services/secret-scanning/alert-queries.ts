/**
 * Reading secret scanning alerts: organization and repository listings (every GitHub filter, page and cursor
 * paging), one alert, its locations.
 */
import { EntityManager, SelectQueryBuilder } from 'typeorm';
import {
  ALERT_RESOLUTION_FILTERS,
  ALERT_STATES,
  ALERT_VALIDITIES,
  AccountEntity,
  RepositoryEntity,
  SecretScanningAlertEntity,
  SecretScanningLocationEntity,
} from '../../../entities';
import type { RequestContext } from '../../context';
import { NotFoundError, quoteInput, ValidationError } from '../../errors/app-error';
import { decodeInt, lookupKeys, POSITIVE_INT4 } from '../common/decode';
import { keysetPage, offsetPage, Page, PageArgs } from '../common/pagination';
import {
  AlertFilter,
  AlertOrder,
  AlertPage,
  AlertPaging,
  DEFAULT_PER_PAGE,
  INCLUDED_METADATA_VALUES,
  invalid,
  invalidNamed,
  MAX_SLUG_LENGTH,
} from './alert-types';
import { SECRET_SCANNING_CODES as CODES } from './error-codes';
import { requireAlertsRepository, requireOrganizationAlerts } from './alert-access';

/** Every value of a list filter must be one of `allowed` (`what` names one value in the message). */
function checkList(field: string, what: string, values: string[] | null | undefined, allowed: readonly string[]): void {
  for (const v of values ?? []) {
    if (!allowed.includes(v)) throw invalid(field, `${quoteInput(v)} is not a valid ${what}; use one of ${allowed.join(', ')}`, CODES.INVALID_FILTER);
  }
}

export class SecretScanningAlertQueryService {
  // ------------------------------------------------------------------ listing

  validateFilter(filter: AlertFilter, order: AlertOrder): { sort: 'created' | 'updated'; direction: 'asc' | 'desc' } {
    if (filter.state != null && !(ALERT_STATES as readonly string[]).includes(filter.state)) {
      throw invalid('state', `${quoteInput(filter.state)} is not a valid state; use open or resolved`, CODES.INVALID_FILTER);
    }
    if (filter.secretTypes?.length && filter.excludeSecretTypes?.length) {
      throw new ValidationError('{{secretTypes}} and {{excludeSecretTypes}} cannot be used together', {
        domainCode: CODES.INVALID_FILTER,
        namesFields: true,
        fieldErrors: [{ resource: 'SecretScanningAlert', field: 'excludeSecretTypes', code: 'invalid' }],
      });
    }
    if (filter.providers?.length && filter.excludeProviders?.length) {
      throw new ValidationError('{{providers}} and {{excludeProviders}} cannot be used together', {
        domainCode: CODES.INVALID_FILTER,
        namesFields: true,
        fieldErrors: [{ resource: 'SecretScanningAlert', field: 'excludeProviders', code: 'invalid' }],
      });
    }
    checkList('resolutions', 'resolution', filter.resolutions, ALERT_RESOLUTION_FILTERS);
    checkList('validities', 'validity', filter.validities, ALERT_VALIDITIES);
    for (const m of filter.includedMetadata ?? []) {
      if (!(INCLUDED_METADATA_VALUES as readonly string[]).includes(m)) {
        throw invalidNamed('includedMetadata', `{{0}} is not a valid {{includedMetadata}} value; use ${INCLUDED_METADATA_VALUES.join(', ')}`, [quoteInput(m)], CODES.INVALID_FILTER);
      }
    }
    if (filter.ownerEmailHash != null && !/^[0-9a-f]{64}$/.test(filter.ownerEmailHash)) {
      throw invalidNamed('ownerEmailHash', '{{ownerEmailHash}} must be the lowercase hex SHA-256 of an email address', [], CODES.INVALID_FILTER);
    }
    const sort = order.sort ?? 'created';
    const direction = order.direction ?? 'desc';
    if (sort !== 'created' && sort !== 'updated') throw invalid('sort', `${quoteInput(sort)} is not a valid sort; use created or updated`, CODES.INVALID_FILTER);
    if (direction !== 'asc' && direction !== 'desc') throw invalid('direction', `${quoteInput(direction)} is not a valid direction; use asc or desc`, CODES.INVALID_FILTER);
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
    repository: RepositoryEntity | null,
    filter: AlertFilter,
    order: AlertOrder,
    paging: AlertPaging,
  ): Promise<{ repo: RepositoryEntity; page: AlertPage }> {
    const o = this.validateFilter(filter, order);
    const { repo } = await requireAlertsRepository(ctx, repository, 'secret_scanning.alerts.read');
    const qb = ctx.db.getRepository(SecretScanningAlertEntity).createQueryBuilder('a').where('a.repository_id = :rid', { rid: repo.id });
    const matches = await this.applyFilter(ctx, qb, filter);
    return { repo, page: await this.page(qb, matches, o, paging) };
  }

  async listOrganizationAlerts(ctx: RequestContext, organization: AccountEntity | null, filter: AlertFilter, order: AlertOrder, paging: AlertPaging): Promise<{ org: AccountEntity; page: AlertPage }> {
    const o = this.validateFilter(filter, order);
    const org = await requireOrganizationAlerts(ctx, organization);
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

  /** Alert `number` of a repository (as loaded; null when none); batched across a request through the loader. */
  async getAlert(ctx: RequestContext, repository: RepositoryEntity | null, number: number): Promise<{ repo: RepositoryEntity; alert: SecretScanningAlertEntity }> {
    if (decodeInt(number, POSITIVE_INT4) === undefined) throw new NotFoundError();
    const { repo } = await requireAlertsRepository(ctx, repository, 'secret_scanning.alerts.read');
    const alert = await ctx.loaders.secretScanningAlertByNumber.load(`${repo.id}:${number}`);
    if (!alert) throw new NotFoundError();
    return { repo, alert };
  }

  // ------------------------------------------------------------------ locations

  async listLocations(
    ctx: RequestContext,
    repository: RepositoryEntity | null,
    number: number,
    paging: { page: number; perPage: number } | ({ mode: 'cursor' } & PageArgs),
  ): Promise<{ repo: RepositoryEntity; alert: SecretScanningAlertEntity; page: Page<SecretScanningLocationEntity> }> {
    const { repo, alert } = await this.getAlert(ctx, repository, number);
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
}
