/**
 * Repository lists read only a few columns when the fields selected need no more (REPOSITORY_FIELD_READS in
 * src/services/identity/field-reads.ts, the narrow column set REPOSITORY_LIST_COLUMNS there). What a client sees must not depend on it: every declared field,
 * alone and together, under aliases and fragments, answers what the same list answers when it reads whole
 * rows (a field outside the declaration, viewerPermission, makes it do so). The partial rows never reach the
 * request's loaders: a later lookup of the same repository in the same request gets all of it.
 */
import { REPOSITORY_FIELD_READS } from '../../src/services/identity/field-reads';
import { seedDemo } from '../../src/seed/demo';
import { gql, startTestApp, TestApp } from '../helpers/app';
import { testContexts } from '../helpers/context';

type Node = Record<string, unknown>;

describe('repository lists read only the columns the selection needs, with the same answer', () => {
  let t: TestApp;
  let alice: string;

  beforeAll(async () => {
    t = await startTestApp();
    const { services } = t.app.deps;
    const demo = await seedDemo(t.db.dataSource, services);
    alice = demo.tokens.find((x) => x.user === 'alice' && x.kind === 'classic')!.token;
    const db = t.db.dataSource.manager;
    await services.identity.createRepository(db, { owner: 'acme', name: 'Docs.Site', private: false, description: 'Docs "site"' });
    await services.identity.createRepository(db, { owner: 'acme', name: 'no-description', private: true });
  });
  afterAll(() => t.close());

  /** The org's and the user's repositories with `fields` on each item, in pages of 2 (cursors read the sort key). */
  async function list(fields: string, owner: 'organization' | 'user', login: string): Promise<Node[]> {
    const out: Node[] = [];
    let after: string | null = null;
    for (;;) {
      const res: { status: number; body: { data?: any; errors?: unknown[] } } = await gql(
        t.url,
        `query($login: String!, $after: String) { owner: ${owner}(login: $login) { repositories(first: 2, after: $after) { pageInfo { hasNextPage endCursor } nodes { ${fields} } } } }`,
        { login, after },
        alice,
      );
      expect(res.body.errors).toBeUndefined();
      const conn = res.body.data.owner.repositories;
      out.push(...conn.nodes);
      if (!conn.pageInfo.hasNextPage) return out;
      after = conn.pageInfo.endCursor;
    }
  }

  const fieldsOf = (name: string) => (name === 'owner' ? 'owner { login __typename }' : name);
  const without = (nodes: Node[], key: string) => nodes.map(({ [key]: _drop, ...rest }) => rest);

  it.each([
    ['organization', 'acme'],
    ['user', 'alice'],
  ] as const)('%s %s: each declared field alone and all together answer what whole rows answer', async (owner, login) => {
    const declared = Object.keys(REPOSITORY_FIELD_READS);
    expect(declared).toEqual(expect.arrayContaining(['id', 'databaseId', 'name', 'description', 'isPrivate', 'createdAt', 'owner', 'nameWithOwner']));
    const all = declared.map(fieldsOf).join(' ');
    const whole = await list(`${all} viewerPermission`, owner, login);
    expect(whole.length).toBeGreaterThanOrEqual(owner === 'organization' ? 4 : 1);
    expect(whole.every((n) => typeof n.viewerPermission === 'string')).toBe(true);
    const wholeRows = without(whole, 'viewerPermission');
    expect(await list(all, owner, login)).toEqual(wholeRows);
    for (const f of declared) {
      const alone = await list(fieldsOf(f), owner, login);
      const key = f;
      expect(alone).toEqual(wholeRows.map((n) => ({ [key]: n[key] })));
    }
    // Values, not only agreement: the demo's descriptions and dates are there.
    if (owner === 'organization') expect(wholeRows.some((n) => n.description === 'Docs "site"')).toBe(true);
    expect(wholeRows.every((n) => typeof n.createdAt === 'string' && !Number.isNaN(Date.parse(n.createdAt as string)))).toBe(true);
  });

  it('aliases, fragments and edges read the columns of the fields behind them', async () => {
    const res = await gql(
      t.url,
      `query { organization(login: "acme") {
         repositories(first: 50) {
           nodes { title: name ...R ... on Repository { secret: isPrivate } }
           edges { cursor node { when: createdAt } }
         } } }
       fragment R on Repository { about: description full: nameWithOwner }`,
      undefined,
      alice,
    );
    expect(res.body.errors).toBeUndefined();
    const whole = await list('name description isPrivate createdAt nameWithOwner', 'organization', 'acme');
    const conn = res.body.data.organization.repositories;
    expect(conn.nodes).toEqual(whole.map((n) => ({ title: n.name, about: n.description, full: n.nameWithOwner, secret: n.isPrivate })));
    expect(conn.edges.map((e: { node: Node }) => e.node.when)).toEqual(whole.map((n) => n.createdAt));
    expect(conn.edges.every((e: { cursor: unknown }) => typeof e.cursor === 'string' && e.cursor.length > 0)).toBe(true);
  });

  it('a narrow list does not leave partial repositories in the request\u2019s loaders', async () => {
    const contexts = testContexts(t.db.dataSource, t.app.deps.services);
    const ctx = await contexts.as(alice);
    const acme = (await contexts.account('acme'))!;
    const page = await ctx.services.identity.listRepositories(ctx, acme, { first: 100 }, { reads: ['name'] });
    const docs = page.items.find((r) => r.name === 'Docs.Site')!;
    expect(docs.description).toBeUndefined(); // partial: only what the caller reads (and the cursor's keys)
    expect(page.cursorOf(docs)).toEqual(expect.any(String));
    const loaded = await ctx.loaders.repositoryById.load(docs.id);
    expect(loaded).not.toBe(docs);
    expect(loaded).toMatchObject({ id: docs.id, name: 'Docs.Site', description: 'Docs "site"', private: false, createdAt: expect.any(Date) });
    // Without `reads`, or reading more than a list of names needs, the items are whole rows and primed.
    for (const include of [{}, { reads: ['name', 'description'] as const }, { reads: ['createdAt'] as const }]) {
      const ctx2 = await contexts.as(alice);
      const whole = await ctx2.services.identity.listRepositories(ctx2, acme, { first: 100 }, { reads: include.reads && [...include.reads] });
      const docs2 = whole.items.find((r) => r.name === 'Docs.Site')!;
      expect(docs2).toMatchObject({ description: 'Docs "site"', createdAt: expect.any(Date), fork: false });
      expect(await ctx2.loaders.repositoryById.load(docs2.id)).toBe(docs2);
    }
  });
});
