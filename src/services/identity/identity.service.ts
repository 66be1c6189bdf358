/**
 * Users, organizations, memberships, repositories, collaborators, tokens and access keys.
 * Used by the admin CLI, the demo seed and the GraphQL identity fields; the rules live here once.
 */
import { EntityManager, In } from 'typeorm';
import {
  AccessTokenEntity,
  AccountEntity,
  CALENDAR_ROLES,
  CalendarRole,
  MembershipEntity,
  ORG_ROLES,
  OrgRole,
  REPOSITORY_PERMISSIONS,
  RepositoryCollaboratorEntity,
  RepositoryEntity,
  RepositoryTotalEntity,
  RepositoryPermission,
  ServerSettingEntity,
  TokenKind,
  WorkflowAccessKeyEntity,
} from '../../../entities/identity';
import { SecretBox } from '../../auth/secret-box';
import { generateAccessKeyPair, generateToken, hashToken, randomId, tokenHint } from '../../auth/tokens';
import { RequestContext, withTransaction } from '../../context';
import { InWriteTransaction, lockedFindOne, writeTransaction } from '../../db/transaction';
import { ConflictError, ForbiddenError, NotFoundError, quoteInput, ValidationError } from '../../errors/app-error';
import { entityColumns } from '../../db/rows';
import { lookupKey } from '../common/decode';
import { ItemSelection, propertiesRead, within } from '../common/field-reads';
import { ListQuery } from '../common/list-query';
import { keysetPage, Page, PageArgs } from '../common/pagination';
import { AccessService } from './access.service';
import { REPOSITORY_FIELD_READS, REPOSITORY_LIST_COLUMNS } from './field-reads';

const LOGIN_RE = /^[A-Za-z0-9](?:[A-Za-z0-9]|-(?=[A-Za-z0-9])){0,38}$/;
const REPO_NAME_RE = /^[A-Za-z0-9._-]{1,100}$/;
/** The longest login and repository name (the lengths of accounts.login_lower and repositories.name_lower). */
export const MAX_LOGIN_LENGTH = 39;
export const MAX_REPO_NAME_LENGTH = 100;

export const CLASSIC_SCOPES = [
  'repo',
  'public_repo',
  'security_events',
  'read:org',
  'admin:org',
  'workflow',
  'user',
  'calendar',
] as const;
export const FINE_GRAINED_PERMISSIONS = [
  'secret_scanning_alerts',
  'contents',
  'administration',
  'metadata',
  'calendar',
  'workflow',
  'organization_administration',
] as const;

export interface CreatedToken {
  token: string;
  record: AccessTokenEntity;
}

export interface RepositorySecuritySettings {
  secretScanning: boolean;
  pushProtection: boolean;
  advancedSecurity: boolean;
  delegatedAlertDismissal: boolean;
}

export interface SecuritySettingsInput {
  secretScanning?: boolean | null;
  pushProtection?: boolean | null;
  advancedSecurity?: boolean | null;
  delegatedAlertDismissal?: boolean | null;
}

function validLogin(login: string, what = 'login'): string {
  if (typeof login !== 'string' || !LOGIN_RE.test(login)) {
    throw new ValidationError(
      `${what} ${quoteInput(login, '"')} is invalid: use 1-39 letters, digits or single hyphens, not starting or ending with a hyphen`,
      { fieldErrors: [{ field: what, code: 'invalid' }] },
    );
  }
  return login;
}

function maxLength(value: string | null | undefined, max: number, field: string): void {
  if (value != null && value.length > max) {
    throw new ValidationError(`${field} is too long (at most ${max} characters)`, { fieldErrors: [{ field, code: 'invalid' }] });
  }
}

function validRepoName(name: string): string {
  if (typeof name !== 'string' || !REPO_NAME_RE.test(name) || name === '.' || name === '..' || /\.git$/i.test(name)) {
    throw new ValidationError(
      `repository name ${quoteInput(name, '"')} is invalid: use 1-100 letters, digits, '.', '-' or '_' (no .git suffix)`,
      { fieldErrors: [{ resource: 'Repository', field: 'name', code: 'invalid' }] },
    );
  }
  return name;
}

export function parseFullName(fullName: string): { owner: string; name: string } {
  const m = /^([^/\s]+)\/([^/\s]+)$/.exec(fullName ?? '');
  if (!m) throw new ValidationError(`repository must be written owner/name (got ${quoteInput(fullName, '"')})`);
  return { owner: m[1], name: m[2] };
}


export class IdentityService {
  constructor(private readonly access: AccessService) {}

  // ---------- reads (visibility enforced) ----------

  /**
   * The account with this login (case-insensitive), through the request's loader (one statement per
   * request, however many callers ask); null when none, or when `login` cannot be one (decoded before SQL).
   */
  async findAccount(ctx: RequestContext, login: string): Promise<AccountEntity | null> {
    const key = lookupKey(login, MAX_LOGIN_LENGTH);
    if (key === undefined) return null;
    return ctx.loaders.accountByLogin.load(key.toLowerCase());
  }

  async getUser(ctx: RequestContext, login: string): Promise<AccountEntity> {
    const a = await this.findAccount(ctx, login);
    if (!a || a.type !== 'User') throw new NotFoundError(`Could not resolve to a User with the login of ${quoteInput(login)}.`);
    return a;
  }

  async getOrganization(ctx: RequestContext, login: string): Promise<AccountEntity> {
    const a = await this.findAccount(ctx, login);
    if (!a || a.type !== 'Organization') {
      throw new NotFoundError(`Could not resolve to an Organization with the login of ${quoteInput(login)}.`);
    }
    return a;
  }

  /**
   * The repository owner/name (case-insensitive) through the request's loader, whether or not the viewer
   * may see it: services decide that (`AccessService.requireRepository`). Null when none.
   */
  async findRepository(ctx: RequestContext, owner: string, name: string): Promise<RepositoryEntity | null> {
    const ownerKey = lookupKey(owner, MAX_LOGIN_LENGTH);
    const nameKey = lookupKey(name, MAX_REPO_NAME_LENGTH);
    if (ownerKey === undefined || nameKey === undefined) return null;
    return ctx.loaders.repositoryByName.load(`${ownerKey.toLowerCase()}/${nameKey.toLowerCase()}`);
  }

  /**
   * The repository if the viewer may see it (AccessService's one visibility rule, the same for REST
   * GET /repos/{owner}/{repo}, Query.repository, node(id:) and the repository lists); otherwise NotFound,
   * whether or not it exists.
   */
  async getRepository(ctx: RequestContext, owner: string, name: string): Promise<RepositoryEntity> {
    const repo = await this.findRepository(ctx, owner, name);
    await this.access.requireVisibleRepository(ctx, repo, () => new NotFoundError(`Could not resolve to a Repository with the name ${quoteInput(`${owner}/${name}`)}.`));
    return repo!;
  }

  /** A repository by owner/name outside any request (admin CLI, seeding): no loader, no access check. */
  private async findRepositoryUnchecked(db: EntityManager, owner: string, name: string): Promise<RepositoryEntity | null> {
    const ownerKey = lookupKey(owner, MAX_LOGIN_LENGTH);
    const nameKey = lookupKey(name, MAX_REPO_NAME_LENGTH);
    if (ownerKey === undefined || nameKey === undefined) return null;
    const ownerAccount = await db.getRepository(AccountEntity).findOne({ where: { loginLower: ownerKey.toLowerCase() } });
    if (!ownerAccount) return null;
    return db.getRepository(RepositoryEntity).findOne({ where: { ownerId: ownerAccount.id, nameLower: nameKey.toLowerCase() } });
  }

  /**
   * Repositories of an owner that the viewer may see (the rule of getRepository, as SQL), by name. One
   * statement: with `totalCount` the total is a scalar subquery of the page statement; the rows are primed
   * into the request's repositoryById loader.
   *
   * `include.selection`: the Repository fields the caller shows (what they read: REPOSITORY_FIELD_READS), or
   * `include.reads`: the properties it reads. When they are among REPOSITORY_LIST_COLUMNS, only those columns are
   * read and the items are partial entities (not primed into loaders); otherwise whole rows.
   */
  async listRepositories(
    ctx: RequestContext,
    owner: AccountEntity,
    args: PageArgs,
    include: { totalCount?: boolean; selection?: ItemSelection; reads?: readonly (keyof RepositoryEntity & string)[] } = {},
  ): Promise<Page<RepositoryEntity>> {
    // A ListQuery: the statement text is built once per shape (visibility case, cursors, count) and re-bound.
    const qb = new ListQuery(ctx.db, RepositoryEntity, 'r').andWhere('r.owner_id = :owner', { owner: owner.id });
    const seesAll = await this.access.whereVisible(ctx, qb, 'r', owner);
    const reads = include.selection ? propertiesRead(include.selection.fields, REPOSITORY_FIELD_READS) : include.reads;
    const partial = within(reads, REPOSITORY_LIST_COLUMNS);
    const columns = entityColumns(ctx.db, RepositoryEntity, 'r', 'r_', partial ? REPOSITORY_LIST_COLUMNS : undefined);
    // Each row as one JSON array value, the page read as one value (list-query.ts `rowsAsJson`).
    qb.select(columns.jsonRow, 'r_row').rowsAsJson();
    return keysetPage(qb, args, { property: 'nameLower', direction: 'ASC' }, undefined, {
      inlineCount: Boolean(include.totalCount),
      // A viewer who sees all of them: the kept number of the owner's repositories (database triggers keep it,
      // entities/identity/repository-total.entity.ts) instead of counting them (2,000 index entries per request).
      countQuery: seesAll
        ? new ListQuery(ctx.db, RepositoryTotalEntity, 'rt').andWhere('rt.owner_id = :owner', { owner: owner.id }).countWith('COALESCE(SUM(rt.repositories), 0)')
        : undefined,
      hydrate: (row) => {
        const repo = columns.hydrateJsonArray(row.r_row)!;
        if (!partial) ctx.loaders.repositoryById.prime(repo.id, repo);
        return repo;
      },
    });
  }

  async viewerPermission(ctx: RequestContext, repo: RepositoryEntity): Promise<RepositoryPermission | null> {
    return (await this.access.repositoryFacts(ctx, repo)).permission;
  }

  /**
   * The security and analysis settings of a repository the viewer sees, for repository admins only (GitHub
   * shows `security_and_analysis` to admins); null for everyone else. REST and GraphQL both answer this.
   */
  async securitySettingsFor(ctx: RequestContext, repo: RepositoryEntity): Promise<RepositorySecuritySettings | null> {
    if (!(await this.access.canOnRepository(ctx, 'repository.admin', repo))) return null;
    return {
      secretScanning: repo.secretScanning,
      pushProtection: repo.pushProtection,
      advancedSecurity: repo.advancedSecurity,
      delegatedAlertDismissal: repo.delegatedAlertDismissal,
    };
  }

  /** Change the security settings of a repository (`getRepository` found it for this viewer), for its admins. */
  async updateRepositorySecuritySettings(ctx: RequestContext, repository: RepositoryEntity | null, input: SecuritySettingsInput): Promise<RepositoryEntity> {
    const { repo } = await this.access.requireRepository(ctx, repository, 'repository.admin', {
      roleDenied: () => new ForbiddenError('You must be an admin of this repository to change its security settings.'),
    });
    // Re-read the row locked: the new settings are computed from the current ones, atomically.
    return withTransaction(ctx, (tx) => this.writeSecuritySettings(tx, repo.id, input));
  }

  private async writeSecuritySettings(ctx: RequestContext, id: number, input: SecuritySettingsInput): Promise<RepositoryEntity> {
    const repo = await lockedFindOne(ctx.db, RepositoryEntity, { id });
    if (!repo) throw new NotFoundError();
    const next = { ...repo };
    if (input.secretScanning != null) next.secretScanning = input.secretScanning;
    if (input.pushProtection != null) next.pushProtection = input.pushProtection;
    if (input.advancedSecurity != null) next.advancedSecurity = input.advancedSecurity;
    if (input.delegatedAlertDismissal != null) next.delegatedAlertDismissal = input.delegatedAlertDismissal;
    if (next.pushProtection && !next.secretScanning) {
      throw new ValidationError('Push protection requires secret scanning to be enabled.', {
        fieldErrors: [{ resource: 'Repository', field: 'pushProtection', code: 'invalid' }],
      });
    }
    await ctx.db.getRepository(RepositoryEntity).update(
      { id: repo.id },
      {
        secretScanning: next.secretScanning,
        pushProtection: next.pushProtection,
        advancedSecurity: next.advancedSecurity,
        delegatedAlertDismissal: next.delegatedAlertDismissal,
      },
    );
    return ctx.db.getRepository(RepositoryEntity).findOneOrFail({ where: { id: repo.id } });
  }

  // ---------- administration (admin CLI, seeding) ----------

  private async assertLoginFree(db: EntityManager, login: string): Promise<void> {
    const exists = await db.getRepository(AccountEntity).exists({ where: { loginLower: login.toLowerCase() } });
    if (exists) throw new ConflictError(`login "${login}" is already taken`);
  }

  @InWriteTransaction()
  async createUser(
    db: EntityManager,
    input: { login: string; name?: string | null; email?: string | null; calendarRole?: string | null; siteAdmin?: boolean },
  ): Promise<AccountEntity> {
    const login = validLogin(input.login);
    maxLength(input.name, 255, 'name');
    maxLength(input.email, 255, 'email');
    if (input.calendarRole != null && !(CALENDAR_ROLES as readonly string[]).includes(input.calendarRole)) {
      throw new ValidationError(`calendar role must be one of ${CALENDAR_ROLES.join(', ')} (got ${quoteInput(input.calendarRole, '"')})`);
    }
    await this.assertLoginFree(db, login);
    return db.getRepository(AccountEntity).save({
      login,
      loginLower: login.toLowerCase(),
      type: 'User',
      name: input.name ?? null,
      email: input.email ?? null,
      calendarRole: (input.calendarRole as CalendarRole | null) ?? null,
      siteAdmin: input.siteAdmin ?? false,
    });
  }

  @InWriteTransaction()
  async createOrganization(db: EntityManager, input: { login: string; name?: string | null }): Promise<AccountEntity> {
    const login = validLogin(input.login);
    maxLength(input.name, 255, 'name');
    await this.assertLoginFree(db, login);
    return db.getRepository(AccountEntity).save({
      login,
      loginLower: login.toLowerCase(),
      type: 'Organization',
      name: input.name ?? null,
      email: null,
      calendarRole: null,
      siteAdmin: false,
    });
  }

  private async requireAccount(db: EntityManager, login: string, type: 'User' | 'Organization'): Promise<AccountEntity> {
    const key = lookupKey(login, MAX_LOGIN_LENGTH);
    const a = key === undefined ? null : await db.getRepository(AccountEntity).findOne({ where: { loginLower: key.toLowerCase() } });
    if (!a || a.type !== type) throw new NotFoundError(`no ${type === 'User' ? 'user' : 'organization'} with login ${quoteInput(login, '"')}`);
    return a;
  }

  /** Add a member, or change the role of an existing one. */
  @InWriteTransaction()
  async addMember(db: EntityManager, input: { org: string; user: string; role: string }): Promise<MembershipEntity> {
    if (!(ORG_ROLES as readonly string[]).includes(input.role)) {
      throw new ValidationError(`role must be one of ${ORG_ROLES.join(', ')} (got ${quoteInput(input.role, '"')})`);
    }
    const org = await this.requireAccount(db, input.org, 'Organization');
    const user = await this.requireAccount(db, input.user, 'User');
    const repo = db.getRepository(MembershipEntity);
    const existing = await lockedFindOne(db, MembershipEntity, { organizationId: org.id, userId: user.id });
    if (existing) {
      existing.role = input.role as OrgRole;
      return repo.save(existing);
    }
    return repo.save({ organizationId: org.id, userId: user.id, role: input.role as OrgRole });
  }

  @InWriteTransaction()
  async createRepository(
    db: EntityManager,
    input: {
      owner: string;
      name: string;
      private?: boolean;
      description?: string | null;
      secretScanning?: boolean;
      pushProtection?: boolean;
      advancedSecurity?: boolean;
      delegatedAlertDismissal?: boolean;
    },
  ): Promise<RepositoryEntity> {
    const name = validRepoName(input.name);
    maxLength(input.description, 1000, 'description');
    const ownerKey = lookupKey(input.owner, MAX_LOGIN_LENGTH);
    const owner = ownerKey === undefined ? null : await db.getRepository(AccountEntity).findOne({ where: { loginLower: ownerKey.toLowerCase() } });
    if (!owner) throw new NotFoundError(`no user or organization with login ${quoteInput(input.owner, '"')}`);
    const repos = db.getRepository(RepositoryEntity);
    if (await repos.exists({ where: { ownerId: owner.id, nameLower: name.toLowerCase() } })) {
      throw new ConflictError(`repository ${owner.login}/${name} already exists`);
    }
    if (input.pushProtection && input.secretScanning === false) {
      throw new ValidationError('Push protection requires secret scanning to be enabled.');
    }
    return repos.save({
      ownerId: owner.id,
      name,
      nameLower: name.toLowerCase(),
      description: input.description ?? null,
      private: input.private ?? false,
      fork: false,
      // push protection implies secret scanning
      secretScanning: Boolean(input.secretScanning || input.pushProtection),
      pushProtection: input.pushProtection ?? false,
      advancedSecurity: input.advancedSecurity ?? false,
      delegatedAlertDismissal: input.delegatedAlertDismissal ?? false,
    });
  }

  async requireRepository(db: EntityManager, fullName: string): Promise<RepositoryEntity> {
    const { owner, name } = parseFullName(fullName);
    const repo = await this.findRepositoryUnchecked(db, owner, name);
    if (!repo) throw new NotFoundError(`no repository ${quoteInput(fullName, '')}`);
    return repo;
  }

  /** Grant (or change) a user's direct permission on a repository. */
  @InWriteTransaction()
  async grant(db: EntityManager, input: { repo: string; user: string; permission: string }): Promise<RepositoryCollaboratorEntity> {
    if (!(REPOSITORY_PERMISSIONS as readonly string[]).includes(input.permission)) {
      throw new ValidationError(`permission must be one of ${REPOSITORY_PERMISSIONS.join(', ')} (got ${quoteInput(input.permission, '"')})`);
    }
    const repo = await this.requireRepository(db, input.repo);
    const user = await this.requireAccount(db, input.user, 'User');
    const collabs = db.getRepository(RepositoryCollaboratorEntity);
    const existing = await lockedFindOne(db, RepositoryCollaboratorEntity, { repositoryId: repo.id, userId: user.id });
    if (existing) {
      existing.permission = input.permission as RepositoryPermission;
      return collabs.save(existing);
    }
    return collabs.save({ repositoryId: repo.id, userId: user.id, permission: input.permission as RepositoryPermission });
  }

  @InWriteTransaction()
  async createToken(
    db: EntityManager,
    input: {
      user: string;
      kind: string;
      scopes?: string[];
      repos?: string[];
      permissions?: Record<string, string>;
      note?: string | null;
      expiresAt?: Date | null;
    },
  ): Promise<CreatedToken> {
    if (input.kind !== 'classic' && input.kind !== 'fine_grained') {
      throw new ValidationError(`token kind must be classic or fine_grained (got ${quoteInput(input.kind, '"')})`);
    }
    const kind = input.kind as TokenKind;
    let scopes: string[] | null = null;
    let permissions: Record<string, 'read' | 'write'> | null = null;
    let repositoryIds: number[] | null = null;
    if (kind === 'classic') {
      scopes = [...new Set(input.scopes ?? [])];
      const bad = scopes.filter((s) => !(CLASSIC_SCOPES as readonly string[]).includes(s));
      if (bad.length) throw new ValidationError(`unknown scope(s) ${quoteInput(bad.join(', '), '')}; known: ${CLASSIC_SCOPES.join(', ')}`);
      if (input.repos?.length || (input.permissions && Object.keys(input.permissions).length)) {
        throw new ValidationError('classic tokens take --scopes, not --repo or --permissions');
      }
    } else {
      if (!input.repos?.length) throw new ValidationError('a fine_grained token needs at least one --repo owner/name');
      if (input.scopes?.length) throw new ValidationError('fine_grained tokens take --permissions, not --scopes');
      permissions = {};
      for (const [k, v] of Object.entries(input.permissions ?? {})) {
        if (!(FINE_GRAINED_PERMISSIONS as readonly string[]).includes(k)) {
          throw new ValidationError(`unknown permission ${quoteInput(k, '"')}; known: ${FINE_GRAINED_PERMISSIONS.join(', ')}`);
        }
        if (v !== 'read' && v !== 'write') throw new ValidationError(`permission ${k} must be read or write (got ${quoteInput(v, '"')})`);
        permissions[k] = v;
      }
    }
    if (input.expiresAt != null && (Number.isNaN(input.expiresAt.getTime()) || input.expiresAt.getTime() <= Date.now())) {
      throw new ValidationError('expiresAt must be a date in the future');
    }
    maxLength(input.note, 255, 'note');
    const user = await this.requireAccount(db, input.user, 'User');
    if (kind === 'fine_grained') {
      const ids = new Set<number>();
      for (const full of input.repos ?? []) ids.add((await this.requireRepository(db, full)).id);
      repositoryIds = [...ids];
    }
    const token = generateToken(kind);
    const record = await db.getRepository(AccessTokenEntity).save({
      userId: user.id,
      kind,
      tokenHash: hashToken(token),
      tokenHint: tokenHint(token),
      note: input.note ?? null,
      scopes,
      permissions,
      repositoryIds,
      expiresAt: input.expiresAt ?? null,
      revokedAt: null,
    });
    return { token, record };
  }

  async secretBox(db: EntityManager, configuredKey?: string): Promise<SecretBox> {
    if (configuredKey) return new SecretBox(configuredKey);
    const settings = db.getRepository(ServerSettingEntity);
    let row = await settings.findOne({ where: { key: 'secret_box_key' } });
    if (!row) {
      // ON CONFLICT DO NOTHING: another instance may create it first (and a failed insert would abort
      // an enclosing PostgreSQL transaction).
      await writeTransaction(db, (m) =>
        m.getRepository(ServerSettingEntity).createQueryBuilder().insert().values({ key: 'secret_box_key', value: randomId(32) }).orIgnore().execute(),
      );
      row = await settings.findOneOrFail({ where: { key: 'secret_box_key' } });
    }
    return new SecretBox(row.value);
  }

  @InWriteTransaction()
  async createAccessKey(
    db: EntityManager,
    input: { user: string },
    configuredKey?: string,
  ): Promise<{ accessKeyId: string; secretAccessKey: string; record: WorkflowAccessKeyEntity }> {
    const user = await this.requireAccount(db, input.user, 'User');
    const box = await this.secretBox(db, configuredKey);
    const pair = generateAccessKeyPair();
    const record = await db.getRepository(WorkflowAccessKeyEntity).save({
      accessKeyId: pair.accessKeyId,
      userId: user.id,
      secretCiphertext: box.seal(pair.secretAccessKey),
      status: 'Active',
    });
    return { ...pair, record };
  }

  /** The secret of an active access key (for signature verification), or null. */
  async accessKeySecret(
    db: EntityManager,
    accessKeyId: string,
    configuredKey?: string,
  ): Promise<{ secret: string; user: AccountEntity } | null> {
    const row = await db.getRepository(WorkflowAccessKeyEntity).findOne({ where: { accessKeyId, status: 'Active' } });
    if (!row) return null;
    const user = await db.getRepository(AccountEntity).findOne({ where: { id: row.userId } });
    if (!user) return null;
    const box = await this.secretBox(db, configuredKey);
    try {
      return { secret: box.open(row.secretCiphertext), user };
    } catch {
      // Sealed under another server key (GATEWAY_SECRET_KEY changed) or damaged: the key cannot sign anything
      // here, so it is answered as an unknown key (UnrecognizedClientException), never as a server error.
      return null;
    }
  }

  async accountsByIds(db: EntityManager, ids: readonly number[]): Promise<AccountEntity[]> {
    return db.getRepository(AccountEntity).find({ where: { id: In([...ids]) } });
  }
}
