import type { NonEmptyArray } from 'type-graphql';
import { MODULES } from '../src/modules';
import type { AnyModule } from '../src/modules/module';
import { NodeResolver } from './common/node.resolver';

/** The resolvers of a module list (and the Relay `node` fields they share): the schema is built from exactly these. */
// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
export function resolversOf(modules: readonly AnyModule[]): NonEmptyArray<Function> {
  return [NodeResolver, ...modules.flatMap((m) => m.resolvers())];
}

/** Every resolver of every module. */
// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
export const RESOLVERS: NonEmptyArray<Function> = resolversOf(MODULES);
