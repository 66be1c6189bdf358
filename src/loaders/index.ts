/**
 * DataLoaders, created fresh for every request (their cache must never be shared between viewers).
 * Batches stay under SQLite's bind-variable limit (32,766) via maxBatchSize.
 */
import DataLoader from 'dataloader';
import { entityColumns, queryRows } from '../db/rows';
import { EntityManager, In } from 'typeorm';
import {
  AccountEntity,
  MembershipEntity,
  OrgRole,
  RepositoryCollaboratorEntity,
  RepositoryEntity,
  RepositoryPermission,
  SecretScanningAlertEntity,
  SecretScanningLocationEntity,
} from '../../entities';

export const MAX_BATCH = 1000;

/** Loader of rows by a numeric column; results in key order, null where missing. */
export function byIdLoader<T extends { id: number }>(
  db: EntityManager,
  entity: new () => T,
): DataLoader<number, T | null> {
  return new DataLoader<number, T | null>(
    async (ids) => {
      const rows = await db.getRepository(entity).find({ where: { id: In([...ids]) } as never });
      const map = new Map(rows.map((r) => [r.id, r]));
      return ids.map((id) => map.get(id) ?? null);
    },
    { maxBatchSize: MAX_BATCH },
  );
}

/** Keys "a:b" -> pairs. */
function pairs(keys: readonly string[]): Array<[number, number]> {
  return keys.map((k) => {
    const [a, b] = k.split(':');
    return [Number(a), Number(b)];
  });
}

/**
 * `viewerId`: the request's user, if any. Looking an account up by login then brings the viewer's role in
 * it along (one statement instead of two: the dashboard's organization and the access check on it).
 */
export function createLoaders(db: EntityManager, viewerId?: number) {
  const accountById = byIdLoader(db, AccountEntity);
  const orgRole = new DataLoader<string, OrgRole | null>(
    async (keys) => {
      const ps = pairs(keys);
      const rows = await db.getRepository(MembershipEntity).find({
        where: { organizationId: In([...new Set(ps.map((p) => p[0]))]), userId: In([...new Set(ps.map((p) => p[1]))]) },
      });
      const map = new Map(rows.map((r) => [`${r.organizationId}:${r.userId}`, r.role]));
      return keys.map((k) => map.get(k) ?? null);
    },
    { maxBatchSize: MAX_BATCH },
  );
  /** lowercase login -> account or null; primes accountById, and orgRole for the viewer. */
  const accountByLogin = new DataLoader<string, AccountEntity | null>(
    async (logins) => {
      const a = entityColumns(db, AccountEntity, 'a', 'a_');
      const rows = await queryRows(
        db,
        `SELECT ${a.select}, m.role AS viewer_role FROM accounts a` +
          ` LEFT JOIN memberships m ON m.organization_id = a.id AND m.user_id = ?` +
          ` WHERE a.login_lower IN (${logins.map(() => '?').join(', ')})`,
        [viewerId ?? null, ...logins],
      );
      const map = new Map<string, AccountEntity>();
      for (const row of rows) {
        const account = a.hydrate(row)!;
        map.set(account.loginLower, account);
        accountById.prime(account.id, account);
        if (viewerId !== undefined) orgRole.prime(`${account.id}:${viewerId}`, (row.viewer_role as OrgRole | null) ?? null);
      }
      return logins.map((l) => map.get(l) ?? null);
    },
    { maxBatchSize: MAX_BATCH },
  );
  return {
    accountById,
    accountByLogin,
    repositoryById: byIdLoader(db, RepositoryEntity),
    /** secret scanning: an alert's first location (first_location_detected) */
    locationById: byIdLoader(db, SecretScanningLocationEntity),
    /** secret scanning: alerts by id (node(id:) / nodes(ids:)); visibility is applied by the service afterwards */
    secretScanningAlertById: byIdLoader(db, SecretScanningAlertEntity),
    /** key `${organizationId}:${userId}` -> role or null */
    orgRole,
    /** key `${repositoryId}:${userId}` -> direct permission or null */
    collaboratorPermission: new DataLoader<string, RepositoryPermission | null>(
      async (keys) => {
        const ps = pairs(keys);
        const rows = await db.getRepository(RepositoryCollaboratorEntity).find({
          where: { repositoryId: In([...new Set(ps.map((p) => p[0]))]), userId: In([...new Set(ps.map((p) => p[1]))]) },
        });
        const map = new Map(rows.map((r) => [`${r.repositoryId}:${r.userId}`, r.permission]));
        return keys.map((k) => map.get(k) ?? null);
      },
      { maxBatchSize: MAX_BATCH },
    ),
  };
}

export type Loaders = ReturnType<typeof createLoaders>;
