/**
 * DataLoaders, created fresh for every request (their cache must never be shared between viewers).
 * Batches stay under SQLite's bind-variable limit (32,766) via maxBatchSize.
 */
import DataLoader from 'dataloader';
import { entityColumns, queryRows } from '../db/rows';
import { createCalendarLoaders } from './calendar';
import { createWorkflowLoaders } from './workflow';
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
 * A DataLoader that can also answer synchronously for a key it already holds (primed, or loaded by an
 * earlier batch): `peek`. Field resolvers use it to return the value itself instead of a promise when the
 * list resolver primed it (lookahead), which spares graphql-js a promise per field and per object
 * (promiseForObject/runMicrotasks showed in the org-repositories profile). `peek` never loads: when it
 * says undefined, `load` it.
 */
export class PeekableLoader<K, V> extends DataLoader<K, V> {
  private readonly known: Map<K, V>;

  constructor(batch: DataLoader.BatchLoadFn<K, V>, options?: DataLoader.Options<K, V>) {
    const known = new Map<K, V>();
    super(async (keys) => {
      const values = await batch(keys);
      for (let i = 0; i < values.length; i++) {
        const v = values[i];
        if (!(v instanceof Error) && !known.has(keys[i])) known.set(keys[i], v);
      }
      return values;
    }, options);
    this.known = known;
  }

  /** The value `load(key)` would resolve to, when already known; undefined otherwise. */
  peek(key: K): V | undefined {
    return this.known.get(key);
  }

  /**
   * `f` of the value `load(key)` resolves to: synchronously when the value is already known (no promise per
   * field on primed list pages), else once it is loaded.
   */
  with<T>(key: K, f: (value: V) => T): T | Promise<T> {
    const known = this.known.get(key);
    return known !== undefined || this.known.has(key) ? f(known as V) : this.load(key).then(f);
  }

  override prime(key: K, value: V | PromiseLike<V> | Error): this {
    // DataLoader keeps the first value of a key: so does peek.
    if (!(value instanceof Error) && !(value && typeof (value as PromiseLike<V>).then === 'function') && !this.known.has(key)) {
      this.known.set(key, value as V);
    }
    return super.prime(key, value);
  }

  override clear(key: K): this {
    this.known.delete(key);
    return super.clear(key);
  }

  override clearAll(): this {
    this.known.clear();
    return super.clearAll();
  }
}

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
export function byIdLoader<T extends { id: number }>(db: EntityManager, entity: new () => T): PeekableLoader<number, T | null> {
  return new PeekableLoader<number, T | null>(
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
 * The request's loaders. `viewerId`: the request's user, if any (looking an account up by login then brings the
 * viewer's role in it along: one statement instead of two, the dashboard's organization and the access check on
 * it). Each group of loaders (identity and secret scanning, calendar, workflow) is made when one of its loaders
 * is first used: a request makes only what it uses (making all of them cost as much as a token check).
 */
export function createLoaders(db: EntityManager, viewerId?: number): Loaders {
  const L = lazyLoadersClass();
  return new L(db, viewerId);
}

const DB = Symbol('db');
const VIEWER = Symbol('viewerId');

/** The groups, each made whole on first use (their loaders refer to each other). */
const GROUPS: Array<(db: EntityManager, viewerId: number | undefined) => Record<string, unknown>> = [
  (db, viewerId) => coreLoaders(db, viewerId),
  (db) => createCalendarLoaders(db),
  (db) => createWorkflowLoaders(db),
];

let LazyLoaders: (new (db: EntityManager, viewerId: number | undefined) => Loaders) | undefined;

/**
 * A class with one getter per loader name on its prototype: the first read of any loader of a group makes the
 * group and sets its loaders as the instance's own (enumerable) properties, which shadow the getters from then
 * on. `clearLoaders` walks the own properties, i.e. exactly the loaders made.
 */
function lazyLoadersClass(): new (db: EntityManager, viewerId: number | undefined) => Loaders {
  if (LazyLoaders) return LazyLoaders;
  class Lazy {
    [DB]: EntityManager;
    [VIEWER]: number | undefined;
    constructor(db: EntityManager, viewerId: number | undefined) {
      this[DB] = db;
      this[VIEWER] = viewerId;
    }
  }
  for (const make of GROUPS) {
    // The factories only build DataLoaders (no database access): their names, once.
    for (const name of Object.keys(make(undefined as unknown as EntityManager, undefined))) {
      Object.defineProperty(Lazy.prototype, name, {
        configurable: true,
        enumerable: false,
        get(this: Lazy) {
          const group = make(this[DB], this[VIEWER]);
          for (const [k, v] of Object.entries(group)) Object.defineProperty(this, k, { value: v, enumerable: true, writable: true, configurable: true });
          return group[name];
        },
      });
    }
  }
  LazyLoaders = Lazy as unknown as new (db: EntityManager, viewerId: number | undefined) => Loaders;
  return LazyLoaders;
}

function coreLoaders(db: EntityManager, viewerId?: number) {
  const accountById = byIdLoader(db, AccountEntity);
  const repositoryById = byIdLoader(db, RepositoryEntity);
  const secretScanningAlertById = byIdLoader(db, SecretScanningAlertEntity);
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
      // SQLite: the account as one json_array value and the role from a scalar subquery: better-sqlite3 is several
      // times slower on the LEFT JOIN form with its 11 result columns (same rows).
      const sqlite = db.connection.options.type !== 'postgres';
      const rows = await queryRows(
        db,
        sqlite
          ? `SELECT ${a.jsonRow} AS a_row, (SELECT m."role" FROM "memberships" m WHERE m."organization_id" = a."id" AND m."user_id" = ?) AS viewer_role` +
              ` FROM "accounts" a WHERE a."login_lower" IN (${logins.map(() => '?').join(', ')})`
          : `SELECT ${a.select}, m."role" AS viewer_role FROM "accounts" a` +
              ` LEFT JOIN "memberships" m ON m."organization_id" = a."id" AND m."user_id" = ?` +
              ` WHERE a."login_lower" IN (${logins.map(() => '?').join(', ')})`,
        [viewerId ?? null, ...logins],
      );
      const map = new Map<string, AccountEntity>();
      for (const row of rows) {
        const account = (sqlite ? a.hydrateJsonArray(row.a_row) : a.hydrate(row))!;
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

export type Loaders = ReturnType<typeof coreLoaders> & ReturnType<typeof createCalendarLoaders> & ReturnType<typeof createWorkflowLoaders>;

/** Forget everything a request's loaders cached (after a write, so later reads see it). */
export function clearLoaders(loaders: Loaders): void {
  for (const loader of Object.values(loaders)) loader.clearAll();
}
