/**
 * The GraphQL fast path caches validated documents per query text: only texts up to MAX_CACHED_QUERY_CHARS take
 * it, so a client sending many large distinct queries cannot make the cache hold gigabytes (500 x 10 MB);
 * such queries are answered by Apollo as before.
 */
import { FastQueryPath, MAX_CACHED_QUERY_CHARS } from '../../src/graphql/fast-path';
import { getSchema } from '../../src/graphql/schema';
import { Metrics } from '../../src/observability/metrics';
import { ANONYMOUS } from '../../src/auth/viewer';

describe('GraphQL fast path cache bound', () => {
  it('runs small queries and leaves queries above the bound to Apollo', async () => {
    const schema = await getSchema();
    const fast = new FastQueryPath({
      schema,
      validationRules: [],
      introspection: true,
      maxTokens: 10_000,
      checkComplexity: () => undefined,
      metrics: new Metrics(),
    });
    const context = async () => ({ viewer: ANONYMOUS, graphql: {} }) as never;
    const headers = { 'content-type': 'application/json' };
    expect(await fast.tryExecute(headers, { query: '{ __typename }' }, context)).toBe('{"data":{"__typename":"Query"}}\n');
    const padded = `{ __typename }\n# ${'x'.repeat(MAX_CACHED_QUERY_CHARS)}`;
    expect(await fast.tryExecute(headers, { query: padded }, context)).toBeUndefined();
  });
});
