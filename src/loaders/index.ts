/**
 * DataLoaders, created fresh for every request (their cache must never be shared between viewers).
 * Batches stay under SQLite's bind-variable limit (32,766) via maxBatchSize.
 */
import DataLoader from 'dataloader';
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

/**
 * `loader.loadMany(keys)` that fails like `load` does: DataLoader's loadMany resolves failed keys to Error
 * objects instead of rejecting, so a database outage would otherwise look like missing rows (a 404 instead of
 * a 503). Missing rows stay null.
 */
export async function loadAll<K, V>(loader: DataLoader<K, V>, keys: readonly K[]): Promise<V[]> {
  const values = await loader.loadMany(keys);
  for (const v of values) if (v instanceof Error) throw v;
  return values as V[];
}

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

export function createLoaders(db: EntityManager) {
  const accountById = byIdLoader(db, AccountEntity);
  const repositoryById = byIdLoader(db, RepositoryEntity);
  const secretScanningAlertById = byIdLoader(db, SecretScanningAlertEntity);
  /** lowercase login -> account or null (primes accountById) */
  const accountByLogin = new DataLoader<string, AccountEntity | null>(
    async (logins) => {
      const rows = await db.getRepository(AccountEntity).find({ where: { loginLower: In([...logins]) } });
      for (const r of rows) accountById.prime(r.id, r);
      const map = new Map(rows.map((r) => [r.loginLower, r]));
      return logins.map((l) => map.get(l) ?? null);
    },
    { maxBatchSize: MAX_BATCH },
  );
  return {
    accountById,
    accountByLogin,
    repositoryById,
    /**
     * key `${ownerLoginLower}/${nameLower}` -> repository or null, whatever the viewer may see (callers
     * check access); the owner comes through accountByLogin. Primes repositoryById.
     */
    repositoryByName: new DataLoader<string, RepositoryEntity | null>(
      async (keys) => {
        const split = keys.map((k) => {
          const i = k.indexOf('/');
          return { owner: k.slice(0, i), name: k.slice(i + 1) };
        });
        const owners = await loadAll(accountByLogin, [...new Set(split.map((k) => k.owner))]);
        const found = owners.filter((o): o is AccountEntity => o !== null);
        const ownerIds = found.map((o) => o.id);
        const rows = ownerIds.length
          ? await db.getRepository(RepositoryEntity).find({ where: { ownerId: In(ownerIds), nameLower: In([...new Set(split.map((k) => k.name))]) } })
          : [];
        for (const r of rows) repositoryById.prime(r.id, r);
        const loginOf = new Map(found.map((o) => [o.id, o.loginLower]));
        const map = new Map(rows.map((r) => [`${loginOf.get(r.ownerId)}/${r.nameLower}`, r]));
        return keys.map((k) => map.get(k) ?? null);
      },
      { maxBatchSize: MAX_BATCH },
    ),
    /** secret scanning: an alert's first location (first_location_detected) */
    locationById: byIdLoader(db, SecretScanningLocationEntity),
    /** secret scanning: alerts by id (node(id:) / nodes(ids:)); visibility is applied by the service afterwards */
    secretScanningAlertById,
    /** secret scanning: key `${repositoryId}:${number}` -> alert or null (primes secretScanningAlertById) */
    secretScanningAlertByNumber: new DataLoader<string, SecretScanningAlertEntity | null>(
      async (keys) => {
        const ps = pairs(keys);
        const rows = await db.getRepository(SecretScanningAlertEntity).find({
          where: { repositoryId: In([...new Set(ps.map((p) => p[0]))]), number: In([...new Set(ps.map((p) => p[1]))]) },
        });
        for (const r of rows) secretScanningAlertById.prime(r.id, r);
        const map = new Map(rows.map((r) => [`${r.repositoryId}:${r.number}`, r]));
        return keys.map((k) => map.get(k) ?? null);
      },
      { maxBatchSize: MAX_BATCH },
    ),
    /** key `${organizationId}:${userId}` -> role or null */
    orgRole: new DataLoader<string, OrgRole | null>(
      async (keys) => {
        const ps = pairs(keys);
        const rows = await db.getRepository(MembershipEntity).find({
          where: { organizationId: In([...new Set(ps.map((p) => p[0]))]), userId: In([...new Set(ps.map((p) => p[1]))]) },
        });
        const map = new Map(rows.map((r) => [`${r.organizationId}:${r.userId}`, r.role]));
        return keys.map((k) => map.get(k) ?? null);
      },
      { maxBatchSize: MAX_BATCH },
    ),
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

/** Forget everything a request's loaders cached (after a write, so later reads see it). */
export function clearLoaders(loaders: Loaders): void {
  for (const loader of Object.values(loaders)) loader.clearAll();
}
