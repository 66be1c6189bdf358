/**
 * The media type our GraphQL plugin sets (src/graphql/media-type.ts) is the one Apollo Server chooses itself:
 * each Accept value goes to a plain ApolloServer (no plugin of ours), and the content-type it answers (or its 406)
 * must be what SingleResultMediaTypes gives, the first time and from its memo.
 */
import { ApolloServer, HeaderMap } from '@apollo/server';
import { SingleResultMediaTypes } from '../../src/graphql/media-type';

const ACCEPTS = [
  undefined,
  '',
  'application/json',
  'application/json; charset=utf-8',
  '*/*',
  'application/*',
  'application/graphql-response+json',
  'application/graphql-response+json, application/json;q=0.9',
  'application/json;q=0.5, application/graphql-response+json',
  'application/json; callbackSpec=1.0',
  'text/html, application/xhtml+xml, application/xml;q=0.9, */*;q=0.8',
  'text/html',
  'application/xml',
  'application/vnd.github.v3.html',
  'APPLICATION/JSON',
  'application/json;q=0',
  'multipart/mixed',
];

describe('SingleResultMediaTypes', () => {
  let apollo: ApolloServer;
  beforeAll(async () => {
    apollo = new ApolloServer({ typeDefs: 'type Query { ok: Boolean }', resolvers: { Query: { ok: () => true } } });
    await apollo.start();
  });
  afterAll(() => apollo.stop());

  async function apolloChoice(accept: string | undefined): Promise<string | undefined> {
    const headers = new HeaderMap([['content-type', 'application/json']]);
    if (accept !== undefined) headers.set('accept', accept);
    const r = await apollo.executeHTTPGraphQLRequest({
      httpGraphQLRequest: { method: 'POST', headers, body: { query: '{ ok }' }, search: '' },
      context: async () => ({}),
    });
    return r.status === 406 ? undefined : r.headers.get('content-type');
  }

  it.each(ACCEPTS.map((a) => [a]))('accept %p: the type Apollo answers, or none where Apollo answers 406', async (accept) => {
    const types = new SingleResultMediaTypes();
    const expected = await apolloChoice(accept);
    expect(types.for(accept)).toBe(expected);
    // From the memo: the same answer.
    expect(types.for(accept)).toBe(expected);
  });

  it('answers 406 cases through Apollo: at least one Accept value above is refused, one is not', async () => {
    const choices = await Promise.all(ACCEPTS.map(apolloChoice));
    expect(choices).toContain(undefined);
    expect(choices).toContain('application/graphql-response+json; charset=utf-8');
  });
});
