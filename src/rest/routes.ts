import { MODULES } from '../modules';
import type { AnyModule } from '../modules/module';
import { withGeneratedRoutes } from './register';
import type { RestRoute } from './route-table';

/** The REST rows of a module list (each module's, family by family), without the rows families derive. */
export function routesOf(modules: readonly AnyModule[]): RestRoute<any, any>[] {
  return modules.flatMap((m) => Object.values(m.routes).flatMap((rows) => [...(rows ?? [])]));
}

/**
 * Every REST route of every module, the rows families derive from them included (WordPress: each namespace's
 * index and /doc), so everything generated from the table (OpenAPI, the fuzz test) covers them too.
 */
export const REST_ROUTES: RestRoute<any, any>[] = withGeneratedRoutes(routesOf(MODULES));
