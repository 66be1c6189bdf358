/**
 * isGraphqlPath (src/graphql/http-errors.ts) picks the GraphQL error style and skips keeping the raw body: the
 * endpoint with or without its trailing slash, with or without a query string, and nothing else.
 */
import { isGraphqlPath } from '../../src/graphql/http-errors';

describe('isGraphqlPath', () => {
  it.each(['/graphql', '/graphql/', '/graphql?query=%7B__typename%7D', '/graphql/?query=x', '/graphql?', '/graphql/?'])('%s is the GraphQL endpoint', (url) => {
    expect(isGraphqlPath(url)).toBe(true);
  });

  it.each(['/graphqlx', '/graphql/x', '/graphql//', '/graphql/x?y', '/graphql#x', '/x/graphql', '/graph', '/', '', '/GRAPHQL'])('%s is not', (url) => {
    expect(isGraphqlPath(url)).toBe(false);
  });
});
