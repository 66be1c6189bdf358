import 'reflect-metadata';
import { GraphQLSchema, lexicographicSortSchema, printSchema } from 'graphql';
import { buildSchema } from 'type-graphql';
import { RESOLVERS } from '../../resolvers';

let built: Promise<GraphQLSchema> | undefined;

/** The one graph, built once per process from every domain's resolvers (validate: true, no global middleware). */
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
