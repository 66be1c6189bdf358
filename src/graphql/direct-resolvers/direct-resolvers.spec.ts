/**
 * Direct resolver calls (src/graphql/direct-resolvers.ts) change nothing a client sees: every collected query
 * document (test/helpers/documents.ts), run by graphql-js as five viewers on the graph with direct calls and on
 * a build that keeps type-graphql's wrappers everywhere, gives the same JSON, errors included (messages, codes,
 * paths), the argument validation of @Args classes included (first over 100, negative, first with last), also
 * when the same arguments object comes again (validated once). Runs on SQLite and on PostgreSQL (DATABASE_URL).
 */
import { execute, GraphQLSchema, parse } from 'graphql';
import { RESOLVERS } from '../../../resolvers';
import { installDirectResolvers, ResolverContainer } from '.';
import { assertTypeGraphqlMetadataShape, TypeGraphqlMetadataError } from './metadata-shape';
import { formatForTest } from '../../../test/helpers/graphql-errors';
import { buildGraphqlSchema, getSchema, VALIDATE } from '../schema';
import { DifferentialFixture, queryCases, seedDifferentialFixture } from '../../../test/helpers/documents';
import { openTestDatabase, TestDatabase } from '../../../test/helpers/db';

const ARGUMENT_ERRORS = [
  'query($login: String!) { organization(login: $login) { repositories(first: 101) { totalCount } } }',
  'query($login: String!) { organization(login: $login) { repositories(first: -1) { totalCount } } }',
  'query($login: String!) { organization(login: $login) { repositories(first: 1, last: 1) { totalCount } } }',
  'query($login: String!) { organization(login: $login) { secretScanningAlerts(last: 101) { totalCount } } }',
  'query($owner: String!, $name: String!) { repository(owner: $owner, name: $name) { secretScanningAlerts(first: 2, last: 2) { totalCount } } }',
  'query($owner: String!, $name: String!) { repository(owner: $owner, name: $name) { secretScanningAlerts(first: 2, after: "nope") { totalCount } } }',
  `query($login: String!) { organization(login: $login) { secretScanningAlerts(first: 2, filter: { secretTypes: ["${'x'.repeat(300)}"] }) { totalCount } } }`,
  'query($login: String!) { organization(login: $login) { secretScanningAlerts(first: 2, filter: { secretTypes: ["a"], excludeSecretTypes: ["b"] }, orderBy: { field: UPDATED }) { totalCount } } }',
  '{ events(where: { geo: { lat: 100, lng: 0, radiusKm: 5 } }) { totalCount } }',
  '{ events(where: { geo: { lat: 55.6, lng: 12.5, radiusKm: 5 }, venues: [0], search: "x" }, first: 3) { totalCount } }',
  '{ events(where: { geo: { lat: 55.6, lng: 12.5, radiusKm: 5 }, startDate: "2026-01-01" }, first: 3) { totalCount nodes { title } } }',
  '{ events(first: 51) { totalCount } }',
  '{ user(login: "no-such-user-here") { login } }',
  '{ node(id: "bm90LW91cnM=") { id } }',
];

describe('direct resolver calls answer what type-graphql wrappers answer', () => {
  let db: TestDatabase;
  let direct: GraphQLSchema;
  let wrapped: GraphQLSchema;
  let fx: DifferentialFixture;

  beforeAll(async () => {
    db = await openTestDatabase();
    direct = await getSchema();
    wrapped = await buildGraphqlSchema({ direct: false });
    fx = await seedDifferentialFixture(db.dataSource);
  });
  afterAll(() => db?.drop());

  it('replaces methods with plain parameters and plain @Args classes, not input objects or lists', async () => {
    const replaced = installDirectResolvers(await buildGraphqlSchema({ direct: false }), RESOLVERS, { container: new ResolverContainer(), validate: VALIDATE });
    expect(replaced).toEqual(
      expect.arrayContaining(['Query.viewer', 'Query.repository', 'Query.node', 'Repository.owner', 'Repository.id', 'Repository.nameWithOwner', 'User.id']),
    );
    // ConnectionArgs / CalendarPageArgs: plain fields, converted and validated as type-graphql does.
    expect(replaced).toEqual(expect.arrayContaining(['Organization.repositories', 'User.repositories', 'Repository.secretScanningAlerts', 'Organization.secretScanningAlerts']));
    // Nested input classes too (events' where with geo).
    expect(replaced).toContain('Query.events');
    // A list argument keeps the wrapper.
    expect(replaced).not.toContain('Query.nodes');
    // Mutations keep type-graphql's wrapper (input classes are validated).
    expect(replaced.some((f) => f.startsWith('Mutation.'))).toBe(false);
    // Without the validation settings buildSchema had, @Args classes keep the wrapper.
    const unknown = installDirectResolvers(await buildGraphqlSchema({ direct: false }), RESOLVERS, { container: new ResolverContainer() });
    expect(unknown).not.toContain('Organization.repositories');
    expect(unknown).toContain('Repository.id');
  });

  it('every collected document, and argument errors, as every viewer', async () => {
    const all = queryCases(direct, ARGUMENT_ERRORS);
    expect(all.length).toBeGreaterThan(50);
    let errors = 0;
    for (const c of all) {
      const variables = fx.variablesFor(c);
      for (const viewer of Object.keys(fx.tokens)) {
        const run = async (schema: GraphQLSchema) =>
          formatForTest(
            await execute({ schema, document: c.document, operationName: c.operation.name?.value, contextValue: await fx.context(viewer), variableValues: variables }),
          );
        const expected = await run(wrapped);
        if (expected.includes('"errors"')) errors++;
        expect({ where: `${c.label} as ${viewer}`, got: await run(direct) }).toEqual({ where: `${c.label} as ${viewer}`, got: expected });
      }
    }
    expect(errors).toBeGreaterThan(40);
  });

  it('ConnectionArgs keep their validation errors', async () => {
    const message = async (i: number) => {
      const res = await execute({ schema: direct, document: parse(ARGUMENT_ERRORS[i]), contextValue: await fx.context('admin'), variableValues: { login: 'difforg' } });
      return `${res.errors?.[0].extensions?.code ?? res.errors?.[0].originalError?.constructor.name}: ${res.errors?.[0].message}`;
    };
    expect(await message(0)).toBe('BAD_USER_INPUT: Argument Validation Error');
    expect(await message(1)).toBe('BAD_USER_INPUT: Argument Validation Error');
    expect(await message(2)).toMatch(/both `first` and `last`/);
    // The same invalid arguments object, again: still refused (only arguments that passed are remembered).
    const resolve = (await getSchema()).getType('Organization') as import('graphql').GraphQLObjectType;
    const field = resolve.getFields().repositories;
    const org = await fx.context('admin').then((ctx) => ctx.services.identity.getOrganization(ctx, 'difforg'));
    const bad = { first: 101 };
    for (let i = 0; i < 2; i++) {
      await expect(Promise.resolve().then(async () => field.resolve!(org, bad, await fx.context('admin'), {} as never))).rejects.toThrow('Argument Validation Error');
    }
  });
});

describe('type-graphql metadata shape check (start-up)', () => {
  const storage = () => JSON.parse(JSON.stringify({ queries: [], mutations: [], fieldResolvers: [], objectTypes: [], argumentTypes: [], inputTypes: [], enums: [], params: [] }));

  it('passes for the installed, pinned type-graphql and its metadata', () => {
    expect(() => assertTypeGraphqlMetadataShape()).not.toThrow();
  });

  it('fails loudly for another version or another metadata shape', () => {
    expect(() => assertTypeGraphqlMetadataShape(storage(), '2.0.0')).toThrow(TypeGraphqlMetadataError);
    const noParams = storage();
    delete noParams.params;
    expect(() => assertTypeGraphqlMetadataShape(noParams, '2.0.0-rc.4')).toThrow(/no "params" list/);
    class R {}
    const oddParam = { ...storage(), queries: [{ target: R, methodName: 'm', schemaName: 'm', params: [{ kind: 'argument', index: 0 }] }] };
    expect(() => assertTypeGraphqlMetadataShape(oddParam, '2.0.0-rc.4')).toThrow(/unknown kind "argument"/);
    const renamed = { ...storage(), queries: [{ target: R, name: 'm', schemaName: 'm' }] };
    expect(() => assertTypeGraphqlMetadataShape(renamed, '2.0.0-rc.4')).toThrow(/methodName/);
  });
});
