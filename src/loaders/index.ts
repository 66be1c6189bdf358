/**
 * A request's DataLoaders: every module's (src/modules), created fresh for every request (their cache must never
 * be shared between viewers). How they are made: ./loader.ts.
 */
import type { EntityManager } from 'typeorm';
import { MODULES } from '../modules';
import type { AnyModule, LoadersOfList } from '../modules/module';
import { loadersOf } from './loader';

export { byIdLoader, clearLoaders, loadAll, loadersLike, MAX_BATCH, PeekableLoader } from './loader';

/** Every loader of every module of the app's list, by name (`ctx.loaders`). */
export type Loaders = LoadersOfList<typeof MODULES>;

/** The request's loaders. `viewerId`: the request's user, if any (a module's loaders may prime by it). */
export function createLoaders(db: EntityManager, viewerId?: number, modules: readonly AnyModule[] = MODULES): Loaders {
  return loadersOf(modules, db, viewerId) as Loaders;
}
