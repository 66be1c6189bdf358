/**
 * What every domain's loaders are made with: a DataLoader that can answer synchronously for what it already
 * holds, batch bounds, and the helpers the request context uses to make and clear a request's loaders.
 * Batches stay under SQLite's bind-variable limit (32,766) via maxBatchSize.
 */
import DataLoader from 'dataloader';
import { EntityManager, In } from 'typeorm';
import type { AnyModule } from '../modules/module';

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

  /** The values `loadMany(keys)` would resolve to, when every one is already known; undefined otherwise. */
  peekMany(keys: readonly K[]): V[] | undefined {
    const values = new Array<V>(keys.length);
    for (let i = 0; i < keys.length; i++) {
      const v = this.known.get(keys[i]);
      if (v === undefined && !this.known.has(keys[i])) return undefined;
      values[i] = v as V;
    }
    return values;
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
export function pairs(keys: readonly string[]): Array<[number, number]> {
  return keys.map((k) => {
    const [a, b] = k.split(':');
    return [Number(a), Number(b)];
  });
}

/** What a request's loaders object is: loaders by name. */
export type LoaderSet = object;

/**
 * Loaders of the same kind as `loaders` (same module list) over another entity manager: a transaction's reads
 * must not see what the request's loaders cached before it.
 */
export function loadersLike<T extends LoaderSet>(loaders: T, db: EntityManager, viewerId: number | undefined): T {
  const Make = (loaders as { constructor: new (db: EntityManager, viewerId: number | undefined) => T }).constructor;
  return new Make(db, viewerId);
}

/** Forget everything a request's loaders cached (after a write, so later reads see it). */
export function clearLoaders(loaders: LoaderSet): void {
  for (const loader of Object.values(loaders) as DataLoader<unknown, unknown>[]) loader.clearAll();
}

/**
 * The loaders of a module list for one request. Each module's loaders are made when one of them is first used:
 * a request makes only what it uses (making them all costs as much as a token check).
 */
export function loadersOf(modules: readonly AnyModule[], db: EntityManager, viewerId: number | undefined): object {
  const L = lazyLoadersClass(modules);
  return new L(db, viewerId);
}

const DB = Symbol('db');
const VIEWER = Symbol('viewerId');

type LoadersClass = new (db: EntityManager, viewerId: number | undefined) => object;
/** One class per module list (a list is made once per app). */
const classes = new WeakMap<readonly AnyModule[], LoadersClass>();

/**
 * A class with one getter per loader name on its prototype: the first read of any loader of a module makes that
 * module's loaders and sets them as the instance's own (enumerable) properties, which shadow the getters from then
 * on. `clearLoaders` walks the own properties, i.e. exactly the loaders made.
 */
function lazyLoadersClass(modules: readonly AnyModule[]): LoadersClass {
  const known = classes.get(modules);
  if (known) return known;
  class Lazy {
    [DB]: EntityManager;
    [VIEWER]: number | undefined;
    constructor(db: EntityManager, viewerId: number | undefined) {
      this[DB] = db;
      this[VIEWER] = viewerId;
    }
  }
  const owner = new Map<string, string>();
  for (const m of modules) {
    const make = m.loaders;
    if (!make) continue;
    // The factories only build DataLoaders (no database access): their names, once.
    for (const name of Object.keys(make(undefined as unknown as EntityManager, undefined))) {
      if (owner.has(name)) throw new Error(`modules: '${m.name}' gives the loader '${name}' '${owner.get(name)}' gives`);
      owner.set(name, m.name);
      Object.defineProperty(Lazy.prototype, name, {
        configurable: true,
        enumerable: false,
        get(this: Lazy) {
          const group = make(this[DB], this[VIEWER]) as Record<string, unknown>;
          for (const [k, v] of Object.entries(group)) Object.defineProperty(this, k, { value: v, enumerable: true, writable: true, configurable: true });
          return group[name];
        },
      });
    }
  }
  classes.set(modules, Lazy);
  return Lazy;
}
