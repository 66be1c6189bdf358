/**
 * Identity DataLoaders (fresh per request, flat so clearLoaders reaches them): accounts by id and login,
 * repositories by id and name, organization roles and direct repository permissions. Visibility is never
 * decided here: the identity services decide what a viewer sees of what these load.
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
} from '../../entities/identity';
import { entityColumns, queryRows } from '../db/rows';
import { byIdLoader, loadAll, MAX_BATCH, pairs } from './loader';

/**
 * `viewerId`: the request's user, if any (looking an account up by login then brings the viewer's role in it
 * along: one statement instead of two, the dashboard's organization and the access check on it).
 */
export function createIdentityLoaders(db: EntityManager, viewerId?: number) {
  const accountById = byIdLoader(db, AccountEntity);
  const repositoryById = byIdLoader(db, RepositoryEntity);
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
      // The account as one JSON value (pg otherwise runs a parser per column); on SQLite the role from a scalar
      // subquery: better-sqlite3 is several times slower on the LEFT JOIN form with its 11 result columns (same rows).
      const sqlite = db.connection.options.type !== 'postgres';
      const rows = await queryRows(
        db,
        sqlite
          ? `SELECT ${a.jsonRow} AS a_row, (SELECT m."role" FROM "memberships" m WHERE m."organization_id" = a."id" AND m."user_id" = ?) AS viewer_role` +
              ` FROM "accounts" a WHERE a."login_lower" IN (${logins.map(() => '?').join(', ')})`
          : `SELECT ${a.jsonRow} AS a_row, m."role" AS viewer_role FROM "accounts" a` +
              ` LEFT JOIN "memberships" m ON m."organization_id" = a."id" AND m."user_id" = ?` +
              ` WHERE a."login_lower" IN (${logins.map(() => '?').join(', ')})`,
        [viewerId ?? null, ...logins],
      );
      const map = new Map<string, AccountEntity>();
      for (const row of rows) {
        const account = a.hydrateJsonArray(row.a_row)!;
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
