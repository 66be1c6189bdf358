/**
 * A realistic identity data set, inserted in bulk: one organization, its members (one admin, a few
 * security managers, the rest members), repositories owned by the organization (a mix of private and
 * public, varied security settings and name spellings), some direct collaborators, and a classic token for
 * the admin. Rows go in through TypeORM's insert query builder in one transaction, in chunks that stay far
 * below SQLite's bind-variable limit; values follow the same rules as IdentityService (lower-cased lookup
 * keys, valid logins and repository names, push protection only with secret scanning).
 * Deterministic: the same options give the same data.
 */
import type { DataSource, EntityManager, ObjectLiteral } from 'typeorm';
import {
  AccountEntity,
  MembershipEntity,
  OrgRole,
  RepositoryCollaboratorEntity,
  RepositoryEntity,
  RepositoryPermission,
} from '../../entities/identity';
import type { Services } from '../../src/services';

export interface SeedOptions {
  users: number;
  repositories: number;
  /** 0..1 */
  privateShare: number;
}

export const DEFAULT_SEED: SeedOptions = { users: 200, repositories: 2000, privateShare: 0.35 };

export interface SeededRepository {
  id: number;
  name: string;
  nameLower: string;
  private: boolean;
}

export interface SeedResult {
  options: SeedOptions;
  orgLogin: string;
  orgId: number;
  adminLogin: string;
  users: number;
  memberships: number;
  repositories: number;
  privateRepositories: number;
  collaborators: number;
  /** The organization's repositories sorted as the API lists them: lower-cased name, then id. */
  repositoriesByName: SeededRepository[];
  adminToken: string;
  ms: number;
}

const ORG_LOGIN = 'bench-org';
const CHUNK = 250;

/** mulberry32: small, fast, deterministic. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const FIRST = ['payments', 'web', 'api', 'infra', 'data', 'auth', 'mobile', 'search', 'billing', 'docs', 'platform', 'ml',
  'notifications', 'gateway', 'analytics', 'checkout', 'identity', 'catalog', 'design', 'ops'];
const SECOND = ['service', 'frontend', 'backend', 'worker', 'sdk', 'cli', 'terraform', 'helm', 'pipeline', 'tools', 'lib',
  'app', 'proxy', 'console', 'jobs', 'schemas', 'site', 'bot', 'exporter', 'operator'];
const SUFFIX = ['', '', '', '', '-v2', '-legacy', '-next', '.github', '_old', '-rs', '-go', '-py', '-js'];
const FIRST_NAMES = ['Ada', 'Grace', 'Linus', 'Margaret', 'Ken', 'Barbara', 'Dennis', 'Frances', 'Guido', 'Radia'];

/** Multi-row INSERTs of CHUNK rows through TypeORM's insert builder (column names and value conversion from the entity). */
export async function insertChunks(db: EntityManager, entity: new () => ObjectLiteral, rows: ObjectLiteral[]): Promise<void> {
  for (let i = 0; i < rows.length; i += CHUNK) {
    await db.createQueryBuilder().insert().into(entity).values(rows.slice(i, i + CHUNK)).updateEntity(false).execute();
  }
}

function repoNames(count: number, rnd: () => number): string[] {
  const names: string[] = [];
  const taken = new Set<string>();
  while (names.length < count) {
    const a = FIRST[Math.floor(rnd() * FIRST.length)];
    const b = SECOND[Math.floor(rnd() * SECOND.length)];
    const s = SUFFIX[Math.floor(rnd() * SUFFIX.length)];
    let name = `${a}-${b}${s}`;
    // Some repositories are spelled with capitals, so the listing order (lower-cased) differs from a naive sort.
    if (rnd() < 0.15) name = name.replace(/(^|-)([a-z])/g, (_m, p: string, c: string) => p + c.toUpperCase());
    let candidate = name;
    for (let n = 2; taken.has(candidate.toLowerCase()); n++) candidate = `${name}-${n}`;
    if (!/^[A-Za-z0-9._-]{1,100}$/.test(candidate) || /\.git$/i.test(candidate)) continue;
    taken.add(candidate.toLowerCase());
    names.push(candidate);
  }
  return names;
}

export async function seedIdentity(dataSource: DataSource, services: Services, options: SeedOptions = DEFAULT_SEED): Promise<SeedResult> {
  const started = Date.now();
  const rnd = prng(20_240_601);
  return dataSource.transaction(async (db) => {
    // The organization through the service (one row; it checks the login rules).
    const org = await services.identity.createOrganization(db, { login: ORG_LOGIN, name: 'Bench Organization' });

    // ---- users ----
    const width = String(options.users).length;
    const userRows = Array.from({ length: options.users }, (_, i) => {
      const login = i === 0 ? 'bench-admin' : `bench-user-${String(i).padStart(width, '0')}`;
      const first = FIRST_NAMES[i % FIRST_NAMES.length];
      return {
        login,
        loginLower: login.toLowerCase(),
        type: 'User' as const,
        name: `${first} ${String(i).padStart(width, '0')}`,
        email: rnd() < 0.7 ? `${login}@example.com` : null,
        calendarRole: null,
        siteAdmin: false,
      };
    });
    await insertChunks(db, AccountEntity, userRows);
    const userIds = (
      await db
        .getRepository(AccountEntity)
        .createQueryBuilder('a')
        .select(['a.id', 'a.login'])
        .where("a.type = 'User'")
        .orderBy('a.id', 'ASC')
        .getMany()
    ).map((a) => a.id);
    if (userIds.length !== options.users) throw new Error(`seed: expected ${options.users} users, found ${userIds.length}`);

    // ---- memberships: 1 admin, ~2% security managers, the rest members ----
    const managers = Math.max(1, Math.round(options.users * 0.02));
    const membershipRows = userIds.map((userId, i) => ({
      organizationId: org.id,
      userId,
      role: (i === 0 ? 'admin' : i <= managers ? 'security_manager' : 'member') as OrgRole,
    }));
    await insertChunks(db, MembershipEntity, membershipRows);

    // ---- repositories ----
    const names = repoNames(options.repositories, rnd);
    const repoRows = names.map((name) => {
      const isPrivate = rnd() < options.privateShare;
      const secretScanning = rnd() < 0.6;
      const pushProtection = secretScanning && rnd() < 0.5;
      return {
        ownerId: org.id,
        name,
        nameLower: name.toLowerCase(),
        description: rnd() < 0.6 ? `The ${name} repository of ${ORG_LOGIN}` : null,
        private: isPrivate,
        fork: rnd() < 0.05,
        secretScanning,
        pushProtection,
        advancedSecurity: isPrivate ? rnd() < 0.5 : secretScanning,
        delegatedAlertDismissal: pushProtection && rnd() < 0.3,
      };
    });
    await insertChunks(db, RepositoryEntity, repoRows);
    const repos = await db
      .getRepository(RepositoryEntity)
      .createQueryBuilder('r')
      .select(['r.id', 'r.name', 'r.nameLower', 'r.private'])
      .where('r.owner_id = :o', { o: org.id })
      .getMany();
    if (repos.length !== options.repositories) throw new Error(`seed: expected ${options.repositories} repositories, found ${repos.length}`);

    // ---- direct collaborators on ~10% of the repositories (1-3 non-admin users each) ----
    const perms: RepositoryPermission[] = ['read', 'write', 'admin'];
    const collabRows: Array<{ repositoryId: number; userId: number; permission: RepositoryPermission }> = [];
    for (const r of repos) {
      if (rnd() >= 0.1 || userIds.length < 2) continue;
      const chosen = new Set<number>();
      const n = 1 + Math.floor(rnd() * 3);
      for (let k = 0; k < n; k++) chosen.add(userIds[1 + Math.floor(rnd() * (userIds.length - 1))]);
      for (const userId of chosen) collabRows.push({ repositoryId: r.id, userId, permission: perms[Math.floor(rnd() * perms.length)] });
    }
    await insertChunks(db, RepositoryCollaboratorEntity, collabRows);

    // ---- the admin's token, through the service (hashing, hint, validation) ----
    const { token } = await services.identity.createToken(db, {
      user: 'bench-admin',
      kind: 'classic',
      scopes: ['repo', 'read:org'],
      note: 'bench',
    });

    const repositoriesByName = repos
      .map((r) => ({ id: r.id, name: r.name, nameLower: r.nameLower, private: Boolean(r.private) }))
      .sort((a, b) => (a.nameLower < b.nameLower ? -1 : a.nameLower > b.nameLower ? 1 : a.id - b.id));
    return {
      options,
      orgLogin: org.login,
      orgId: org.id,
      adminLogin: 'bench-admin',
      users: userIds.length,
      memberships: membershipRows.length,
      repositories: repos.length,
      privateRepositories: repositoriesByName.filter((r) => r.private).length,
      collaborators: collabRows.length,
      repositoriesByName,
      adminToken: token,
      ms: Date.now() - started,
    };
  });
}
