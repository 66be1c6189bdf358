/**
 * The compiled executor (src/graphql/exec/compiled-query.ts) answers exactly what graphql-js' `execute` answers,
 * byte for byte once serialized, for every query document the project sends (test/helpers/documents.ts: the
 * operations in schema/operations/, the bench's queries, the queries the tests send, and documents for fragments,
 * aliases, directives, variables, nulls, empty lists, abstract types and node ids), as five viewers (org admin,
 * security manager, plain member, fine-grained token, anonymous), each run with a fresh request context. Whenever
 * graphql-js answers with errors, the compiled executor gives up (FALLBACK), so graphql-js answers the request
 * (errors, paths, null bubbling). Runs on SQLite and on PostgreSQL (DATABASE_URL).
 */
import { execute, ExecutionResult, GraphQLSchema, OperationDefinitionNode, parse } from 'graphql';
import { CompiledQuery, FALLBACK } from '../../src/graphql/exec/compiled-query';
import { getSchema } from '../../src/graphql/schema';
import { DifferentialFixture, queryCases, seedDifferentialFixture } from '../helpers/documents';
import { openTestDatabase, TestDatabase } from '../helpers/db';

describe('compiled execution answers what graphql-js answers', () => {
  let db: TestDatabase;
  let schema: GraphQLSchema;
  let fx: DifferentialFixture;

  beforeAll(async () => {
    db = await openTestDatabase();
    schema = await getSchema();
    fx = await seedDifferentialFixture(db.dataSource);
  });
  afterAll(() => db?.drop());

  const ctx = (viewer: string) => fx.context(viewer);

  it('for every collected document, as every viewer', async () => {
    const all = queryCases(schema);
    expect(all.length).toBeGreaterThan(50);
    let compiledAnswers = 0;
    let fallbacks = 0;
    for (const c of all) {
      const compiled = CompiledQuery.compile(schema, c.document, c.operation);
      // Left to graphql-js: introspection, and a `__proto__` response key (the compiled answer objects are plain objects).
      const leftToGraphqlJs = /__schema|__type\b|__proto__/.test(JSON.stringify(c.document));
      if (!compiled) {
        expect(leftToGraphqlJs).toBe(true);
        continue;
      }
      const variables = fx.variablesFor(c);
      for (const viewer of Object.keys(fx.tokens)) {
        const expected = (await execute({
          schema,
          document: c.document,
          operationName: c.operation.name?.value,
          contextValue: await ctx(viewer),
          variableValues: variables,
        })) as ExecutionResult;
        const got = await compiled.run(await ctx(viewer), variables);
        const where = `${c.label} as ${viewer}`;
        if (expected.errors?.length) {
          expect({ where, got }).toEqual({ where, got: FALLBACK });
          fallbacks++;
        } else {
          expect({ where, got: got === FALLBACK ? 'FALLBACK' : JSON.stringify(got) }).toEqual({ where, got: JSON.stringify({ data: expected.data }) });
          compiledAnswers++;
        }
        // The second run of the same compiled document (cached plan) answers the same.
        if (got !== FALLBACK) expect(JSON.stringify(await compiled.run(await ctx(viewer), variables))).toBe(JSON.stringify(got));
      }
    }
    // Both outcomes are exercised, the answered one by far the most.
    expect(compiledAnswers).toBeGreaterThan(150);
    expect(fallbacks).toBeGreaterThan(10);
  });

  it('skip/include follow the variables of each request (one plan per combination)', async () => {
    const document = parse('query($a: Boolean!, $b: Boolean!) { viewer { login @include(if: $a) id @skip(if: $b) } }');
    const compiled = CompiledQuery.compile(schema, document, document.definitions[0] as OperationDefinitionNode)!;
    for (const [a, b] of [[true, true], [false, false], [true, false], [false, true], [true, true]]) {
      const expected = await execute({ schema, document, contextValue: await ctx('admin'), variableValues: { a, b } });
      expect(JSON.stringify(await compiled.run(await ctx('admin'), { a, b }))).toBe(JSON.stringify({ data: expected.data }));
    }
  });

  it('gives up on variables that do not coerce, and on introspection', async () => {
    const document = parse('query($login: String!) { organization(login: $login) { login } }');
    const compiled = CompiledQuery.compile(schema, document, document.definitions[0] as OperationDefinitionNode)!;
    expect(compiled.run(await ctx('admin'), {})).toBe(FALLBACK);
    expect(compiled.run(await ctx('admin'), { login: 5 })).toBe(FALLBACK);
    const introspection = parse('{ __schema { queryType { name } } }');
    expect(CompiledQuery.compile(schema, introspection, introspection.definitions[0] as OperationDefinitionNode)).toBeNull();
  });
});
