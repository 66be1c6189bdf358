import 'reflect-metadata';
import { GraphQLSchema, lexicographicSortSchema, printSchema } from 'graphql';
import { buildSchema } from 'type-graphql';
import { RESOLVERS } from '../../resolvers';

let built: Promise<GraphQLSchema> | undefined;

/**
 * The one graph, built once per process from every domain's resolvers (validate: true, no global middleware).
 * Every @ObjectType says `simpleResolvers: true`: this graph uses no middleware and no @Authorized (access
 * rules live in the services), so a plain field is read as a property instead of through type-graphql's
 * per-field middleware wrapper (measured on list queries, bench/README.md). A type that ever needs a
 * middleware or @Authorized on a plain field must drop the flag for that field (`@Field({ simple: false })`).
 */
export function getSchema(): Promise<GraphQLSchema> {
  built ??= buildSchema({
    resolvers: RESOLVERS,
    validate: { forbidUnknownValues: false, skipMissingProperties: false },
    emitSchemaFile: false,
  });
  return built;
}

/** The SDL committed as schema/schema.graphql (sorted so diffs stay readable). */
export async function printSdl(): Promise<string> {
  const header = '# Generated from the resolvers by `npm run schema:emit`. Do not edit; a test fails when it is stale.\n\n';
  return header + printSchema(lexicographicSortSchema(await getSchema())) + '\n';
}
