/**
 * The module contract: everything one domain adds to the gateway, in one object. The server, the service
 * registry, the request loaders, the resolver list, the entity list, the migrations and the REST table are
 * made by iterating a module list (src/modules/index.ts) and name no domain. Adding a domain = writing its
 * module (docs/architecture.md, "Adding a domain").
 */
import type { EntityManager } from 'typeorm';
import type { AppDeps } from '../context';
import type { Metrics } from '../observability/metrics';
import type { FamilyName, OpenApiDocumentSpec } from '../rest/family';
import type { RestRoute } from '../rest/route-table';

// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
type Class = Function;

/** What every module's service factory may read besides the services it requires. */
export interface ServicesOptions {
  /** Worker threads of the secret detector (default: available parallelism - 1, at least 1). */
  detectorThreads?: number;
}

/** A running part of a module (a job runner, a rescan runner): stopped when the app closes. */
export interface ModuleRunning {
  close(): Promise<void> | void;
}

/** Per-request observations a module makes for its metrics (called once per HTTP answer). */
export interface ModuleMetrics {
  request?(req: { method: string; url: string; headers: Record<string, string | string[] | undefined> }, status: number, seconds: number): void;
}

export interface DomainModule<Name extends string = string, S extends object = object, L extends object = object, Needs extends object = object> {
  /** The domain stem (`secret-scanning`), as in its folders. */
  readonly name: Name;
  /** Modules whose services this module's services are given (they must come earlier in the list). */
  readonly requires?: readonly string[];
  /** TypeORM entities (the DataSource registers every module's). */
  readonly entities: readonly Class[];
  /** Migrations per dialect; TypeORM runs every module's in timestamp order. */
  readonly migrations: { readonly sqlite: readonly Class[]; readonly postgres: readonly Class[] };
  /**
   * The domain's services (stateless, one set per app), made once: `needs` holds the services of the modules
   * named in `requires` (and of every earlier module), so a service gets what it uses passed in.
   */
  services(needs: Needs, options: ServicesOptions): S;
  /** The request's DataLoaders of this domain (made on first use in a request, flat so they can be cleared). */
  loaders?(db: EntityManager, viewerId: number | undefined): L;
  /**
   * type-graphql resolver classes: the schema is built from every module's. A function, called when the schema is
   * built, so that processes serving no GraphQL (the admin CLI, workflow workers) never load it: the module file
   * requires them inside it.
   */
  resolvers(): readonly Class[];
  /** REST route rows, per family. */
  readonly routes: { readonly [F in FamilyName]?: readonly RestRoute<any, any>[] };
  /** OpenAPI documents the module serves, each over rows of one family. */
  readonly openapi?: readonly (OpenApiDocumentSpec & { family: FamilyName })[];
  /**
   * Start what runs in the background (runners, pollers), after the services exist and before the server
   * listens; what it returns is closed when the app closes (modules close in reverse order). What only this
   * needs (a queue client) is best required inside it, for the same reason as `resolvers`.
   */
  start?(services: S, deps: AppDeps): ModuleRunning | void | Promise<ModuleRunning | void>;
  /** Release what the services hold (worker threads), after every module's running parts stopped. */
  close?(services: S): Promise<void> | void;
  /** Register the module's metrics on the app's registry. */
  metrics?(metrics: Metrics, services: S, deps: AppDeps): ModuleMetrics | void;
}

/** Any module, whatever its service and loader types. */
export type AnyModule = DomainModule<string, object, object, any>;

/** A module, with its service and loader types kept (so the registry and the loaders can be typed from the list). */
export function defineModule<const Name extends string, S extends object, L extends object = object, Needs extends object = object>(
  m: DomainModule<Name, S, L, Needs>,
): DomainModule<Name, S, L, Needs> {
  return m;
}

type UnionToIntersection<U> = (U extends unknown ? (x: U) => void : never) extends (x: infer I) => void ? I : never;

/** The services of one module. */
export type ServicesOf<M> = M extends DomainModule<string, infer S, object, any> ? S : never;
/** The loaders of one module. */
export type LoadersOf<M> = M extends DomainModule<string, object, infer L, any> ? (object extends L ? unknown : L) : never;
/** Every service of a list of modules, as one record. */
export type ServicesOfList<Ms extends readonly AnyModule[]> = UnionToIntersection<ServicesOf<Ms[number]>>;
/** Every loader of a list of modules, as one record. */
export type LoadersOfList<Ms extends readonly AnyModule[]> = UnionToIntersection<LoadersOf<Ms[number]>>;

/**
 * The list checked: unique names, a module's `requires` come before it, no two modules give the same service
 * or loader name (one would silently replace the other).
 */
export function checkModules(modules: readonly AnyModule[]): void {
  const seen = new Set<string>();
  for (const m of modules) {
    if (seen.has(m.name)) throw new Error(`modules: '${m.name}' is listed twice`);
    for (const r of m.requires ?? []) {
      if (!seen.has(r)) throw new Error(`modules: '${m.name}' requires '${r}', which must come earlier in the list`);
    }
    seen.add(m.name);
  }
}

/** Each module's `close` (threads its services hold), in reverse order; a failure is logged, the others still close. */
export async function closeModules(modules: readonly AnyModule[], services: object, log: { error(obj: object, msg: string): void }): Promise<void> {
  for (const m of [...modules].reverse()) {
    await Promise.resolve(m.close?.(services)).catch((err) => log.error({ err, module: m.name }, 'closing a module failed'));
  }
}

/** Which module list made a service registry (createServices notes it; a context's loaders come from the same list). */
const listOfServices = new WeakMap<object, readonly AnyModule[]>();

export function noteModulesOf(services: object, modules: readonly AnyModule[]): void {
  listOfServices.set(services, modules);
}

/** The module list `services` was made from (by createServices). */
export function modulesOf(services: object): readonly AnyModule[] {
  const modules = listOfServices.get(services);
  if (!modules) throw new Error('modules: these services were not made by createServices');
  return modules;
}
