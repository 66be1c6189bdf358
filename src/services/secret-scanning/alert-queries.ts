/**
 * Reading secret scanning alerts: organization and repository listings (every GitHub filter, page and cursor
 * paging), one alert, its locations.
 */
import { EntityManager, ObjectLiteral } from 'typeorm';
import { AccountEntity, RepositoryEntity } from '../../../entities/identity';
import {
  ALERT_RESOLUTION_FILTERS,
  ALERT_STATES,
  ALERT_VALIDITIES,
  SecretScanningAlertEntity,
  SecretScanningAlertTotalEntity,
  SecretScanningLocationEntity,
} from '../../../entities/secret-scanning';
import type { RequestContext } from '../../context';
import { NotFoundError, quoteInput, ValidationError } from '../../errors/app-error';
import { decodeInt, lookupKeys, POSITIVE_INT4 } from '../common/decode';
import { within } from '../common/field-reads';
import { ACCOUNT_LIST_COLUMNS, REPOSITORY_LIST_COLUMNS } from '../identity/field-reads';
import { entityColumns } from '../../db/rows';
import { sameRow } from '../../db/same-row';
import type { PeekableLoader } from '../../loaders/loader';
import { ListQuery } from '../common/list-query';
import { keysetPage, offsetPage, Page, PageArgs, PageQueryOptions } from '../common/pagination';
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
import type { IdentityService } from '../identity/identity.service';
import type { SecretScanningAlertAccess } from './alert-access';
import { FIRST_LOCATION_READS } from './alert-selection';

/**
 * What a listing reads in its page statement besides the alerts (joined, then primed into the request's
 * loaders, so whatever later asks for them through the loaders runs no statement): the repository, the
 * users an alert names, the first location, and the total count (a scalar subquery in the same statement).
 * GraphQL asks for what the selection needs (lookahead); REST and in-process callers get everything.
 */
export interface AlertIncludes {
  repository?: boolean;
  users?: ReadonlyArray<AlertUserField>;
  firstLocation?: boolean;
  totalCount?: boolean;
  /**
   * The caller reads only these properties of the alerts (a GraphQL selection of a few fields). When they are
   * among ALERT_LIST_COLUMNS, only those columns are read and the alerts are partial entities (not primed into
   * the request's loaders); otherwise whole rows. One narrow set, as for repository lists
   * (IdentityService.listRepositories): every set is a statement shape of its own.
   */
  reads?: ReadonlyArray<keyof SecretScanningAlertEntity & string>;
  /**
   * What the caller reads of the related rows, when it reads a narrow alert (`reads`): each relation whose
   * properties are among its narrow set (REPOSITORY_LIST_COLUMNS, ACCOUNT_LIST_COLUMNS, FIRST_LOCATION_READS) is
   * read with those columns only and set on the alert's relation property (`repository`, `assignedTo`,
   * `resolvedBy`, `pushProtectionBypassedBy`, `firstLocation`; null when the alert has none), like TypeORM's
   * `find({ relations, select })`, instead of primed into the request's loaders (which hold whole rows only).
   * Otherwise whole related rows, primed. alert-selection.ts `alertIncludesFor` derives this from a selection.
   */
  relatedReads?: {
    repository?: ReadonlyArray<keyof RepositoryEntity & string>;
    users?: ReadonlyArray<keyof AccountEntity & string>;
    firstLocation?: ReadonlyArray<keyof SecretScanningLocationEntity & string>;
  };
}

/**
 * What an alert page reads when its caller needs no more (`AlertIncludes.reads`): every column but the secret,
 * its hash, the comment and the rarely shown flags and provider. Always with the keys the page itself needs:
 * the id and both sort columns (cursors), and the keys of the relations joined in.
 */
export const ALERT_LIST_COLUMNS: ReadonlyArray<keyof SecretScanningAlertEntity & string> = Object.freeze([
  'id',
  'repositoryId',
  'ownerId',
  'number',
  'state',
  'resolution',
  'resolvedAt',
  'resolvedById',
  'secretType',
  'secretTypeDisplayName',
  'validity',
  'pushProtectionBypassedById',
  'assignedToId',
  'firstLocationId',
  'locationsCount',
  'createdAt',
  'updatedAt',
] as const);

/** What a page reads of the first locations it names when its caller needs no more (the commit form's fields). */
const FIRST_LOCATION_COLUMNS: ReadonlyArray<keyof SecretScanningLocationEntity & string> = Object.freeze(['id' as const, ...FIRST_LOCATION_READS]);

export type AlertUserField = 'assignedTo' | 'resolvedBy' | 'pushProtectionBypassedBy';

const USER_JOINS: Record<AlertUserField, { alias: string; column: string }> = {
  assignedTo: { alias: 'asg', column: 'assigned_to_id' },
  resolvedBy: { alias: 'rsb', column: 'resolved_by_id' },
  pushProtectionBypassedBy: { alias: 'ppb', column: 'push_protection_bypassed_by_id' },
};

/** Everything an answer can refer to (REST's full GitHub shape). */
export const ALL_ALERT_INCLUDES: AlertIncludes = {
  repository: true,
  users: ['assignedTo', 'resolvedBy', 'pushProtectionBypassedBy'],
  firstLocation: true,
};

/** Every value of a list filter must be one of `allowed` (`what` names one value in the message). */
function checkList(field: string, what: string, values: string[] | null | undefined, allowed: readonly string[]): void {
  for (const v of values ?? []) {
    if (!allowed.includes(v)) throw invalid(field, `${quoteInput(v)} is not a valid ${what}; use one of ${allowed.join(', ')}`, CODES.INVALID_FILTER);
  }
}

export class SecretScanningAlertQueryService {
  constructor(
    private readonly identity: IdentityService,
    private readonly alertAccess: SecretScanningAlertAccess,
  ) {}

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

  private async applyFilter(ctx: RequestContext, qb: ListQuery<SecretScanningAlertEntity>, filter: AlertFilter): Promise<boolean> {
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
        const user = await this.identity.findAccount(ctx, filter.assignee);
        if (!user) return false; // nobody with that login: no alert can match
        qb.andWhere(`${a}.assigned_to_id = :assignee`, { assignee: user.id });
      }
    }
    return true;
  }

  private async page(
    ctx: RequestContext,
    qb: ListQuery<SecretScanningAlertEntity>,
    matches: boolean,
    order: { sort: 'created' | 'updated'; direction: 'asc' | 'desc' },
    paging: AlertPaging,
    include: AlertIncludes,
    countQuery?: ListQuery<any>,
  ): Promise<AlertPage> {
    if (!matches) {
      qb.andWhere('1 = 0');
      countQuery?.andWhere('1 = 0');
    }
    const sort = { property: order.sort === 'created' ? 'createdAt' : 'updatedAt', direction: order.direction === 'asc' ? ('ASC' as const) : ('DESC' as const) };
    const opts = this.joinIncludes(ctx, qb, include, countQuery);
    return paging.mode === 'page'
      ? offsetPage(qb, paging, sort, { resource: 'SecretScanningAlert', ...opts })
      : keysetPage(qb, paging, sort, DEFAULT_PER_PAGE, opts);
  }

  /**
   * One page statement with the included to-one relations (each alert names at most one of each); rows
   * hydrated from their raw columns and the related rows primed into the request's loaders. Each row (the
   * alert's and each relation's) is read as one JSON array value (json_array; PostgreSQL json_build_array as
   * text), the relations through scalar subqueries by primary key. SQLite: better-sqlite3 builds a result object
   * per row with one key per column, and on the dashboard page (100 rows, 63 columns over four tables) that was
   * the larger cost. PostgreSQL: with LEFT JOINs the planner spent more on join orders for the REST page (six
   * relations) than the statement's run, and the driver parsed 63 typed columns per row.
   */
  private joinIncludes(
    ctx: RequestContext,
    qb: ListQuery<SecretScanningAlertEntity>,
    include: AlertIncludes,
    countQuery: ListQuery<any> | undefined,
  ): PageQueryOptions<SecretScanningAlertEntity> {
    // The count never needs the relations: take it before they are added.
    const count = countQuery ?? qb.clone();
    const a = qb.alias;
    const sqlite = ctx.db.connection.options.type !== 'postgres';
    const partial = within(include.reads, ALERT_LIST_COLUMNS);
    const alerts = entityColumns(ctx.db, SecretScanningAlertEntity, a, `${a}_`, partial ? ALERT_LIST_COLUMNS : undefined);
    // The alert row, like each related row, as one JSON array value (PostgreSQL: as text): one value per row to
    // convert instead of 27 columns parsed one by one by the driver (dates through postgres-date).
    // The page read as one value (list-query.ts `rowsAsJson`).
    qb.select(alerts.jsonRow, `${a}_row`).rowsAsJson();
    const hydrators: Array<(row: Record<string, unknown>, alert: SecretScanningAlertEntity) => void> = [];
    const loaders = ctx.loaders;
    // Whether every related row the items lead to through the loaders is the page's own: a loader keeps the first
    // row of a key, and one loaded earlier in this request with other values (changed in between) would be what the
    // answer shows. The page then gives no `source` (no answer made from it is kept). Items are built when a
    // caller first reads them, before it loads anything for them; a load of the same key still in flight then
    // (another field of the same GraphQL request) is not seen here, but GraphQL answers are never kept.
    let consistent = true;
    const primeOwn = <T extends { id: number }>(loader: PeekableLoader<number, T | null>, row: T) => {
      const held = loader.peek(row.id);
      if (held !== undefined && held !== row && !sameRow(ctx.db, held, row)) consistent = false;
      loader.prime(row.id, row);
    };
    // A related row read narrow goes on the (partial) alert; a whole one into the request's loaders.
    const related = partial ? include.relatedReads : undefined;
    const narrow = <P extends string>(reads: ReadonlyArray<P> | undefined, set: ReadonlyArray<P>) => (within(reads, set) ? set : undefined);
    const relate = <T extends ObjectLiteral>(
      entity: new () => T,
      alias: string,
      foreignKey: string,
      columns: ReadonlyArray<keyof T & string> | undefined,
      use: (alert: SecretScanningAlertEntity, e: T | null) => void,
    ) => {
      const cols = entityColumns(ctx.db, entity, alias, `${alias}_`, columns);
      const table = ctx.db.connection.getMetadata(entity).tableName;
      // Each related row as one JSON array value from a scalar subquery by primary key, on both databases.
      // PostgreSQL: as text (the converter wants the text), and no LEFT JOINs: with six of them the planner spent
      // long on join orders at every execution (the prepared statement kept custom plans: LIMIT/OFFSET are bound),
      // more than the statement's whole run; subqueries by primary key are planned on their own, cheaply.
      const value = cols.jsonRow;
      // One relation per line (logs read better; test/e2e/resolve-once.e2e.ts matches organization lookups line by line).
      // PostgreSQL: CASE, so no subplan runs for an alert without that relation (most alerts have no resolver,
      // bypasser or assignee; it runs one per row otherwise). SQLite's lookup of a
      // NULL key costs nothing.
      const sub = `(SELECT ${value} FROM "${table}" ${alias} WHERE ${alias}.id = ${a}.${foreignKey})`;
      qb.addSelect(`\n${sqlite ? sub : `CASE WHEN ${a}.${foreignKey} IS NULL THEN NULL ELSE ${sub} END`}`, `${alias}_row`);
      hydrators.push((row, alert) => use(alert, cols.hydrateJsonArray(row[`${alias}_row`])));
    };
    const repositoryColumns = narrow(related?.repository, REPOSITORY_LIST_COLUMNS);
    const userColumns = narrow(related?.users, ACCOUNT_LIST_COLUMNS);
    const locationColumns = narrow(related?.firstLocation, FIRST_LOCATION_COLUMNS);
    if (include.repository) {
      relate(RepositoryEntity, 'jr', 'repository_id', repositoryColumns, (alert, r) => {
        if (repositoryColumns) alert.repository = r ?? undefined;
        else if (r) primeOwn(loaders.repositoryById, r);
      });
    }
    for (const field of new Set(include.users ?? [])) {
      const { alias, column } = USER_JOINS[field];
      relate(AccountEntity, alias, column, userColumns, (alert, u) => {
        if (userColumns) alert[field] = u;
        else if (u) primeOwn(loaders.accountById, u);
      });
    }
    if (include.firstLocation) {
      relate(SecretScanningLocationEntity, 'jl', 'first_location_id', locationColumns, (alert, l) => {
        if (locationColumns) alert.firstLocation = l;
        else if (l) primeOwn(loaders.locationById, l);
      });
    }
    return {
      countQuery: count,
      inlineCount: Boolean(include.totalCount),
      hydrate: (row) => {
        const alert = alerts.hydrateJsonArray(row[`${a}_row`])!;
        for (const h of hydrators) h(row, alert);
        // A partial alert is the page's only: whatever loads an alert by id gets the whole row.
        if (!partial) primeOwn(loaders.secretScanningAlertById, alert);
        return alert;
      },
      consistent: () => consistent,
    };
  }

  async listRepositoryAlerts(
    ctx: RequestContext,
    repository: RepositoryEntity | null,
    filter: AlertFilter,
    order: AlertOrder,
    paging: AlertPaging,
    include: AlertIncludes = { ...ALL_ALERT_INCLUDES, repository: false, totalCount: paging.mode === 'page' },
  ): Promise<{ repo: RepositoryEntity; page: AlertPage }> {
    const o = this.validateFilter(filter, order);
    const { repo } = await this.alertAccess.requireRepository(ctx, repository, 'secret_scanning.alerts.read');
    const qb = new ListQuery(ctx.db, SecretScanningAlertEntity, 'a').andWhere('a.repository_id = :rid', { rid: repo.id });
    const matches = await this.applyFilter(ctx, qb, filter);
    // Every alert of the page is of this repository: the loaders know it already.
    ctx.loaders.repositoryById.prime(repo.id, repo);
    return { repo, page: await this.page(ctx, qb, matches, o, paging, { ...include, repository: false }) };
  }

  async listOrganizationAlerts(
    ctx: RequestContext,
    organization: AccountEntity | null,
    filter: AlertFilter,
    order: AlertOrder,
    paging: AlertPaging,
    include: AlertIncludes = { ...ALL_ALERT_INCLUDES, totalCount: paging.mode === 'page' },
  ): Promise<{ org: AccountEntity; page: AlertPage }> {
    const o = this.validateFilter(filter, order);
    const org = await this.alertAccess.requireOrganization(ctx, organization);
    // Alerts of the organization's repositories with secret scanning on, said two ways over the same filters.
    // The page: `owner_id = org` and an EXISTS probe of the alert's repository by primary key, so the
    // (owner_id, created_at|updated_at) indexes give the order (cheaper than NOT IN the repositories with it off).
    // The count: repository_id IN (those with it on), read from the (repository_id, ...) indexes (with
    // `owner_id = org` added SQLite chose the slower (owner_id, repository_id)). Both name the same alerts: an alert's owner_id copies
    // its repository's owner (set at creation; repositories never change owner).
    const scope = new ListQuery(ctx.db, SecretScanningAlertEntity, 'a');
    const v = ctx.viewer;
    if (v.kind === 'user' && v.credential.type === 'fine_grained') {
      const ids = [...v.credential.repositoryIds];
      if (ids.length === 0) scope.andWhere('1 = 0');
      else scope.andWhere('a.repository_id IN (:...fgRepos)', { fgRepos: ids.slice(0, 10_000) });
    }
    const matches = await this.applyFilter(ctx, scope, filter);
    let count: ListQuery<any>;
    if (scope.conditions === 0) {
      // Nothing narrows the alerts: the total is the sum of the kept per-repository totals (database triggers keep
      // them, entities/secret-scanning/secret-scanning-total.entity.ts) over the same repositories, ~1,200 rows
      // instead of 20k alerts (on PostgreSQL that count was most of the dashboard statement).
      count = new ListQuery(ctx.db, SecretScanningAlertTotalEntity, 'st')
        .andWhere('st.repository_id IN (SELECT sr.id FROM repositories sr WHERE sr.owner_id = :oid AND sr.secret_scanning = :on)', { oid: org.id, on: true })
        .countWith('COALESCE(SUM(st.alerts), 0)');
    } else {
      count = scope.clone();
      // PostgreSQL counts with `owner_id = org` as well: an index-only scan of (owner_id, repository_id); without it
      // the planner hashes all the alerts.
      if (ctx.db.connection.options.type === 'postgres') count.andWhere('a.owner_id = :oid', { oid: org.id });
      count.andWhere('a.repository_id IN (SELECT sr.id FROM repositories sr WHERE sr.owner_id = :oid AND sr.secret_scanning = :on)', { oid: org.id, on: true });
    }
    const qb = scope
      .andWhere('a.owner_id = :oid', { oid: org.id })
      .andWhere('EXISTS (SELECT 1 FROM repositories r WHERE r.id = a.repository_id AND r.secret_scanning = :on)', { on: true });
    // The repositories' owner is the organization.
    ctx.loaders.accountById.prime(org.id, org);
    return { org, page: await this.page(ctx, qb, matches, o, paging, include, count) };
  }

  // ------------------------------------------------------------------ one alert

  /** Alert `number` of a repository (as loaded; null when none); batched across a request through the loader. */
  async getAlert(ctx: RequestContext, repository: RepositoryEntity | null, number: number): Promise<{ repo: RepositoryEntity; alert: SecretScanningAlertEntity }> {
    if (decodeInt(number, POSITIVE_INT4) === undefined) throw new NotFoundError();
    const { repo } = await this.alertAccess.requireRepository(ctx, repository, 'secret_scanning.alerts.read');
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
