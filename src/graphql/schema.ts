import 'reflect-metadata';
import { GraphQLSchema, isAbstractType, lexicographicSortSchema, printSchema } from 'graphql';
import { buildSchema, getMetadataStorage } from 'type-graphql';
import { RESOLVERS, resolversOf } from '../../resolvers';
import type { AnyModule } from '../modules/module';
import { installDirectResolvers, ResolverContainer } from './direct-resolvers';

let built: Promise<GraphQLSchema> | undefined;
/** Graphs of other module lists (tests that add a module), one per list. */
const builtFor = new WeakMap<readonly AnyModule[], Promise<GraphQLSchema>>();

/** class-validator options for arguments and inputs (buildSchema's `validate`, also used by direct calls). */
export const VALIDATE = { forbidUnknownValues: false, skipMissingProperties: false };

/**
 * The one graph, built once per process from every module's resolvers (or those of the module list given) (validate: true, no global middleware).
 * Every @ObjectType says `simpleResolvers: true`: this graph uses no middleware and no @Authorized (access
 * rules live in the services), so a plain field is read as a property instead of through type-graphql's
 * per-field middleware wrapper (measured on list queries, bench/README.md). A type that ever needs a
 * middleware or @Authorized on a plain field must drop the flag for that field (`@Field({ simple: false })`).
 */
export function getSchema(modules?: readonly AnyModule[]): Promise<GraphQLSchema> {
  if (!modules) {
    built ??= buildGraphqlSchema();
    return built;
  }
  let schema = builtFor.get(modules);
  if (!schema) builtFor.set(modules, (schema = buildGraphqlSchema({ modules })));
  return schema;
}

/**
 * A new build of the graph (getSchema's is the one to use). `direct: false` keeps type-graphql's resolver
 * wrappers everywhere (tests compare the answers of both).
 */
export async function buildGraphqlSchema(opts: { direct?: boolean; modules?: readonly AnyModule[] } = {}): Promise<GraphQLSchema> {
  const container = new ResolverContainer();
  const resolvers = opts.modules ? resolversOf(opts.modules) : RESOLVERS;
  const schema = syncResolveTypes(
    await buildSchema({
      resolvers,
      validate: VALIDATE,
      emitSchemaFile: false,
      container,
    }),
  );
  // Resolver methods that need none of type-graphql's per-call work are called directly (./direct-resolvers.ts).
  if (opts.direct !== false) installDirectResolvers(schema, resolvers, { container, validate: VALIDATE });
  return schema;
}

type ResolveTypeFn = (...args: unknown[]) => unknown;

/**
 * type-graphql wraps every interface's and union's `resolveType` in an async function, so graphql-js
 * gets a promise for each abstract value (e.g. every repository's `owner` in a list) even though ours all
 * answer synchronously. Put back the same mapping (a type name, or a class -> its type name among the
 * possible types, else undefined, as type-graphql does) without the promise when the answer is not one.
 */
function syncResolveTypes(schema: GraphQLSchema): GraphQLSchema {
  const storage = getMetadataStorage();
  const userFns = new Map<string, ResolveTypeFn>();
  for (const i of storage.interfaceTypes) if (i.resolveType) userFns.set(i.name, i.resolveType as ResolveTypeFn);
  for (const u of storage.unions) if (u.resolveType) userFns.set(u.name, u.resolveType as ResolveTypeFn);
  const nameOfClass = new Map<unknown, string>(storage.objectTypes.map((o) => [o.target, o.name]));
  for (const type of Object.values(schema.getTypeMap())) {
    const user = isAbstractType(type) ? userFns.get(type.name) : undefined;
    if (!user || !isAbstractType(type) || !type.resolveType) continue;
    const possible = new Set(schema.getPossibleTypes(type).map((t) => t.name));
    const toName = (r: unknown): string | undefined => {
      if (!r || typeof r === 'string') return (r ?? undefined) as string | undefined;
      const name = nameOfClass.get(r);
      return name !== undefined && possible.has(name) ? name : undefined;
    };
    type.resolveType = (...args: Parameters<NonNullable<typeof type.resolveType>>) => {
      const r = user(...args);
      return r && typeof (r as PromiseLike<unknown>).then === 'function' ? Promise.resolve(r).then(toName) : toName(r);
    };
  }
  return schema;
}

/** The SDL committed as schema/schema.graphql (sorted so diffs stay readable). */
export async function printSdl(): Promise<string> {
  const header = '# Generated from the resolvers by `npm run schema:emit`. Do not edit; a test fails when it is stale.\n\n';
  return header + printSchema(lexicographicSortSchema(await getSchema())) + '\n';
}
