/**
 * The entities of a module list. Each domain's entities are exported by its folder (`entities/<domain>`); which
 * the DataSource registers is what the modules list (src/modules).
 */
import { MODULES } from '../src/modules';
import type { AnyModule } from '../src/modules/module';

// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
export function entitiesOf(modules: readonly AnyModule[]): Function[] {
  return modules.flatMap((m) => m.entities);
}

/** Every entity of every module; ormconfig.ts registers the modules' entities. */
export const ENTITIES = entitiesOf(MODULES);
