/**
 * What the compiled executor does besides answering like graphql-js (compiled-query.spec compares answers):
 * synchronous resolvers give a synchronous answer (no promise), graphql-js' key order is kept whatever settles
 * first, and on an error it gives up only once every branch it started has settled, so nothing of it still runs
 * when graphql-js executes the request again.
 */
import { GraphQLInterfaceType, GraphQLList, GraphQLNonNull, GraphQLObjectType, GraphQLSchema, GraphQLString, OperationDefinitionNode, parse } from 'graphql';
import { CompiledQuery, FALLBACK } from '../../src/graphql/exec/compiled-query';

const tick = (ms: number) => new Promise((r) => setTimeout(r, ms));

function toy(events: string[]) {
  const Item = new GraphQLObjectType({
    name: 'Item',
    fields: { name: { type: GraphQLString }, must: { type: new GraphQLNonNull(GraphQLString) } },
  });
  return new GraphQLSchema({
    query: new GraphQLObjectType({
      name: 'Query',
      fields: {
        now: { type: GraphQLString, resolve: () => 'sync' },
        later: { type: GraphQLString, resolve: async () => (await tick(20), 'async') },
        soon: { type: GraphQLString, resolve: async () => 'soon' },
        slow: { type: GraphQLString, resolve: async () => (await tick(30), events.push('slow settled'), 'slow') },
        fails: { type: GraphQLString, resolve: async () => Promise.reject(new Error('no')) },
        throws: { type: GraphQLString, resolve: () => { throw new Error('no'); } },
        items: { type: new GraphQLList(Item), resolve: () => [{ name: 'a', must: 'x' }, { name: 'b', must: null }] },
        okItems: { type: new GraphQLList(Item), resolve: () => [{ name: 'a', must: 'x' }, new Error('item')] },
      },
    }),
  });
}

function compile(schema: GraphQLSchema, text: string): CompiledQuery {
  const document = parse(text);
  return CompiledQuery.compile(schema, document, document.definitions[0] as OperationDefinitionNode)!;
}

describe('compiled executor behaviour', () => {
  it('answers synchronously when every resolver does', () => {
    const r = compile(toy([]), '{ now a: now __typename }').run({}, {});
    expect(r).toEqual({ data: { now: 'sync', a: 'sync', __typename: 'Query' } });
    expect(r).not.toBeInstanceOf(Promise);
  });

  it("keeps graphql-js' key order when later fields settle first", async () => {
    const r = await compile(toy([]), '{ later now soon }').run({}, {});
    expect(JSON.stringify(r)).toBe('{"data":{"later":"async","now":"sync","soon":"soon"}}');
  });

  it('gives up on thrown errors, rejections, a null in a non-null field and Error list items', async () => {
    const schema = toy([]);
    expect(compile(schema, '{ now throws }').run({}, {})).toBe(FALLBACK);
    expect(await compile(schema, '{ fails }').run({}, {})).toBe(FALLBACK);
    expect(compile(schema, '{ items { name must } }').run({}, {})).toBe(FALLBACK);
    expect(compile(schema, '{ items { name } }').run({}, {})).toEqual({ data: { items: [{ name: 'a' }, { name: 'b' }] } });
    expect(compile(schema, '{ okItems { name } }').run({}, {})).toBe(FALLBACK);
  });

  it('gives up only after every started branch settled', async () => {
    const events: string[] = [];
    const r = await compile(toy(events), '{ slow fails }').run({}, {});
    events.push('gave up');
    expect(r).toBe(FALLBACK);
    expect(events).toEqual(['slow settled', 'gave up']);
    const sync = await compile(toy(events), '{ slow throws }').run({}, {});
    events.push('gave up again');
    expect(sync).toBe(FALLBACK);
    expect(events.slice(2)).toEqual(['slow settled', 'gave up again']);
  });

  it("answers each value of an abstract type as its resolved type, and gives up on a name the schema does not allow, however often it ran before", () => {
    const Owner = new GraphQLInterfaceType({ name: 'Owner', fields: { login: { type: GraphQLString } }, resolveType: (v: { kind: unknown }) => v.kind as string });
    const User = new GraphQLObjectType({ name: 'User', interfaces: [Owner], fields: { login: { type: GraphQLString }, name: { type: GraphQLString } } });
    const Org = new GraphQLObjectType({ name: 'Org', interfaces: [Owner], fields: { login: { type: GraphQLString }, seats: { type: GraphQLString } } });
    const Other = new GraphQLObjectType({ name: 'Other', fields: { login: { type: GraphQLString } } });
    let owners: Array<{ kind: unknown; login: string; name?: string; seats?: string }> = [];
    const schema = new GraphQLSchema({
      types: [User, Org, Other],
      query: new GraphQLObjectType({ name: 'Query', fields: { owners: { type: new GraphQLList(Owner), resolve: () => owners } } }),
    });
    const q = compile(schema, '{ owners { __typename login ... on User { name } ... on Org { seats } } }');
    owners = [
      { kind: 'User', login: 'u1', name: 'U' },
      { kind: 'Org', login: 'o1', seats: '5' },
      { kind: 'User', login: 'u2', name: 'V' },
    ];
    const expected = {
      data: {
        owners: [
          { __typename: 'User', login: 'u1', name: 'U' },
          { __typename: 'Org', login: 'o1', seats: '5' },
          { __typename: 'User', login: 'u2', name: 'V' },
        ],
      },
    };
    expect(q.run({}, {})).toEqual(expected);
    expect(q.run({}, {})).toEqual(expected);
    // A type that is not an Owner, an unknown name and a non-string: graphql-js must answer (its error), every time.
    for (const kind of ['Other', 'Nobody', 7]) {
      owners = [{ kind: 'User', login: 'u1', name: 'U' }, { kind, login: 'x' }];
      expect(q.run({}, {})).toBe(FALLBACK);
      expect(q.run({}, {})).toBe(FALLBACK);
    }
    owners = [{ kind: 'Org', login: 'o2', seats: '1' }];
    expect(q.run({}, {})).toEqual({ data: { owners: [{ __typename: 'Org', login: 'o2', seats: '1' }] } });
  });
});
