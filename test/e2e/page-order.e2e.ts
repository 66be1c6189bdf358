/**
 * Pages read as one value (list-query.ts `rowsAsJson`) keep their order by an ORDER BY inside the aggregate
 * (`group_concat(... ORDER BY ...)`, `string_agg(... ORDER BY ...)`), not by the order a subquery happens to yield:
 * repositories stored in the reverse of their name order (and with names that sort differently from their ids)
 * come back in name order, forwards and backwards, and the page statement says so.
 */
import { IdentityFixtures } from '../fixtures/identity';
import { gql, startTestApp, TestApp } from '../helpers/app';
import { SqlLog } from '../helpers/sql-log';

describe('a page read as one value keeps its sort order', () => {
  let t: TestApp;
  let token: string;
  const log = new SqlLog();
  // Stored (id order) in reverse name order; names with mixed case sort by name_lower, not by their bytes.
  const names = ['zeta', 'Yak', 'x-ray', 'Walrus', 'vole', 'Urchin', 'tapir', 'Seal', 'rhea', 'Quail', 'puma', 'Otter'];
  const sorted = [...names].sort((a, b) => (a.toLowerCase() < b.toLowerCase() ? -1 : 1));

  beforeAll(async () => {
    t = await startTestApp({ logger: log });
    const f = new IdentityFixtures(t.db.dataSource);
    const org = await f.org('order-org');
    const admin = await f.user('order-admin');
    await f.member(org, admin, 'admin');
    for (const name of names) await f.repo(org, { name });
    token = await f.classicToken(admin, ['repo', 'read:org']);
  });
  afterAll(() => t?.close());

  it('forwards and backwards, over several pages', async () => {
    const seen: string[] = [];
    let after: string | null = null;
    for (;;) {
      const { result: r, statements } = await log.record(() =>
        gql(t.url, 'query($a: String) { organization(login: "order-org") { repositories(first: 5, after: $a) { nodes { name } pageInfo { hasNextPage endCursor } } } }', { a: after }, token),
      );
      const page = (r as any).body.data.organization.repositories;
      seen.push(...page.nodes.map((n: { name: string }) => n.name));
      const grouped = statements.map((s) => s.sql).filter((s) => /group_concat|string_agg/.test(s));
      expect(grouped).toHaveLength(1);
      expect(grouped[0]).toMatch(/(group_concat|string_agg)\([^]*ORDER BY p\."__o0" ASC, p\."__o1" ASC\)/);
      if (!page.pageInfo.hasNextPage) break;
      after = page.pageInfo.endCursor;
    }
    expect(seen).toEqual(sorted);
    const last: any = await gql(t.url, '{ organization(login: "order-org") { repositories(last: 4) { nodes { name } } } }', undefined, token);
    expect(last.body.data.organization.repositories.nodes.map((n: { name: string }) => n.name)).toEqual(sorted.slice(-4));
  });
});
