/**
 * The one graph: Node ids, connections, validation, operation limits, REST/GraphQL parity.
 */
import {
  NodeByIdDocument,
  NodesByIdsDocument,
  OrganizationRepositoriesDocument,
  RepositoryByNameDocument,
  UpdateRepositorySecuritySettingsDocument,
  ViewerDocument,
} from '../__generated__/graphql';
import { IdentityFixtures } from '../fixtures/identity';
import { gql, gqlDoc, startTestApp, TestApp } from '../helpers/app';
import { LIMITS } from '../../src/graphql/apollo';

describe('the one graph', () => {
  let t: TestApp;
  let f: IdentityFixtures;
  let adminToken: string;
  let memberToken: string;
  let outsiderToken: string;
  const names = Array.from({ length: 12 }, (_, i) => `repo-${String(i).padStart(2, '0')}`);

  beforeAll(async () => {
    t = await startTestApp();
    f = new IdentityFixtures(t.db.dataSource);
    const org = await f.org('graphorg');
    const admin = await f.user('graphadmin');
    const member = await f.user('graphmember');
    await f.member(org, admin, 'admin');
    await f.member(org, member, 'member');
    for (const [i, name] of names.entries()) await f.repo(org, { name, private: i % 3 === 0, secretScanning: true });
    adminToken = await f.classicToken(admin, ['repo', 'security_events']);
    memberToken = await f.classicToken(member, ['repo']);
    outsiderToken = await f.classicToken(await f.user('graphoutsider'), ['repo']);
  });
  afterAll(() => t.close());

  it('node(id:) round-trips every node type and hides what the viewer may not see', async () => {
    const v = await gqlDoc(t.url, ViewerDocument, undefined, adminToken);
    const userId = v.body.data!.viewer!.id;
    const n = await gqlDoc(t.url, NodeByIdDocument, { id: userId }, adminToken);
    expect(n.body.data!.node).toEqual({ __typename: 'User', id: userId, login: 'graphadmin' });

    const repo = await gqlDoc(t.url, RepositoryByNameDocument, { owner: 'graphorg', name: 'repo-00' }, adminToken);
    const repoId = repo.body.data!.repository!.id;
    const orgId = repo.body.data!.repository!.owner.id;
    expect((await gqlDoc(t.url, NodeByIdDocument, { id: repoId }, adminToken)).body.data!.node).toEqual({
      __typename: 'Repository',
      id: repoId,
      nameWithOwner: 'graphorg/repo-00',
    });
    expect((await gqlDoc(t.url, NodeByIdDocument, { id: orgId }, adminToken)).body.data!.node).toMatchObject({ __typename: 'Organization', login: 'graphorg' });
    // repo-00 is private: an outsider gets null, not the repository
    expect((await gqlDoc(t.url, NodeByIdDocument, { id: repoId }, outsiderToken)).body.data!.node).toBeNull();

    const many = await gqlDoc(t.url, NodesByIdsDocument, { ids: [userId, repoId, orgId] }, adminToken);
    expect(many.body.data!.nodes.map((x) => x?.__typename)).toEqual(['User', 'Repository', 'Organization']);
  });

  it('node(id:) rejects a malformed id with BAD_USER_INPUT', async () => {
    const r = await gqlDoc(t.url, NodeByIdDocument, { id: 'not-an-id!' }, adminToken);
    expect(r.body.errors?.[0].extensions?.code).toBe('BAD_USER_INPUT');
  });

  it('connections page forward and backward with cursors and totalCount, only over visible items', async () => {
    const seen: string[] = [];
    let after: string | null | undefined;
    for (;;) {
      const r = await gqlDoc(t.url, OrganizationRepositoriesDocument, { login: 'graphorg', first: 5, after }, adminToken);
      const conn = r.body.data!.organization!.repositories;
      expect(conn.totalCount).toBe(12);
      seen.push(...conn.edges.map((e) => e.node.name));
      if (!conn.pageInfo.hasNextPage) break;
      after = conn.pageInfo.endCursor;
    }
    expect(seen).toEqual(names);

    const last = await gqlDoc(t.url, OrganizationRepositoriesDocument, { login: 'graphorg', last: 5 }, adminToken);
    const lc = last.body.data!.organization!.repositories;
    expect(lc.edges.map((e) => e.node.name)).toEqual(names.slice(7));
    expect(lc.pageInfo.hasPreviousPage).toBe(true);
    const before = await gqlDoc(t.url, OrganizationRepositoriesDocument, { login: 'graphorg', last: 5, before: lc.pageInfo.startCursor }, adminToken);
    expect(before.body.data!.organization!.repositories.edges.map((e) => e.node.name)).toEqual(names.slice(2, 7));

    // An outsider sees only the public repositories (8 of 12)
    const pub = await gqlDoc(t.url, OrganizationRepositoriesDocument, { login: 'graphorg', first: 100 }, outsiderToken);
    expect(pub.body.data!.organization!.repositories.totalCount).toBe(8);
    expect(pub.body.data!.organization!.repositories.edges.every((e) => !e.node.isPrivate)).toBe(true);
  });

  it('validates arguments: first over 100, first with last, a tampered cursor', async () => {
    const big = await gqlDoc(t.url, OrganizationRepositoriesDocument, { login: 'graphorg', first: 101 }, adminToken);
    expect(big.body.errors?.[0].extensions?.code).toBe('BAD_USER_INPUT');
    const both = await gqlDoc(t.url, OrganizationRepositoriesDocument, { login: 'graphorg', first: 1, last: 1 }, adminToken);
    expect(both.body.errors?.[0].message).toMatch(/both `first` and `last`/);
    const bad = await gqlDoc(t.url, OrganizationRepositoriesDocument, { login: 'graphorg', first: 1, after: 'bm9wZQ' }, adminToken);
    expect(bad.body.errors?.[0]).toMatchObject({ message: '`after` is not a valid cursor', extensions: { code: 'BAD_USER_INPUT' } });
  });

  it('updateRepositorySecuritySettings: admins only; members get FORBIDDEN; input is validated', async () => {
    const input = { repository: 'graphorg/repo-01', pushProtection: true, advancedSecurity: true };
    const denied = await gqlDoc(t.url, UpdateRepositorySecuritySettingsDocument, { input }, memberToken);
    expect(denied.body.errors?.[0].extensions?.code).toBe('FORBIDDEN');
    const ok = await gqlDoc(t.url, UpdateRepositorySecuritySettingsDocument, { input }, adminToken);
    expect(ok.body.data!.updateRepositorySecuritySettings.repository.securitySettings).toEqual({
      secretScanning: true,
      pushProtection: true,
      advancedSecurity: true,
      delegatedAlertDismissal: false,
    });
    const alias = await gql(t.url, '{ repository(owner: "graphorg", name: "repo-01") { settings { pushProtection advancedSecurity } } }', undefined, adminToken);
    expect(alias.body.data).toEqual({ repository: { settings: { pushProtection: true, advancedSecurity: true } } });
    const bad = await gqlDoc(t.url, UpdateRepositorySecuritySettingsDocument, { input: { repository: 'no-slash' } }, adminToken);
    expect(bad.body.errors?.[0].extensions?.code).toBe('BAD_USER_INPUT');
    const hidden = await gqlDoc(t.url, UpdateRepositorySecuritySettingsDocument, { input: { repository: 'graphorg/repo-00', secretScanning: false } }, outsiderToken);
    expect(hidden.body.errors?.[0].extensions?.code).toBe('NOT_FOUND');
  });

  it('parity: GET /user and viewer describe the same user', async () => {
    const rest = (await (await fetch(`${t.url}/user`, { headers: { authorization: `token ${adminToken}` } })).json()) as any;
    const g = (await gqlDoc(t.url, ViewerDocument, undefined, adminToken)).body.data!.viewer!;
    expect(rest).toMatchObject({ login: g.login, id: g.databaseId, node_id: g.id, name: g.name, type: 'User', url: `${t.url}/users/${g.login}` });
    const anon = await fetch(`${t.url}/user`);
    expect(anon.status).toBe(401);
    expect(((await anon.json()) as any).message).toBe('Requires authentication');
    expect((await gqlDoc(t.url, ViewerDocument)).body.data!.viewer).toBeNull();
  });

  it('parity: GET /repos/{owner}/{repo} and repository(owner:, name:) describe the same repository', async () => {
    const rest = await ((await fetch(`${t.url}/repos/GraphOrg/REPO-01`, { headers: { authorization: `Bearer ${adminToken}` } })).json()) as any;
    const g = (await gqlDoc(t.url, RepositoryByNameDocument, { owner: 'GraphOrg', name: 'REPO-01' }, adminToken)).body.data!.repository!;
    expect(rest.id).toBe(g.databaseId);
    expect(rest.node_id).toBe(g.id);
    expect(rest.full_name).toBe(g.nameWithOwner);
    expect(rest.private).toBe(g.isPrivate);
    expect(rest.description).toBe(g.description);
    expect(rest.owner).toMatchObject({ login: g.owner.login, node_id: g.owner.id, type: 'Organization' });
    expect(rest.created_at).toBe(g.createdAt.replace(/\.\d{3}Z$/, 'Z'));
    expect(rest.url).toBe(`${t.url}/repos/graphorg/repo-01`);
    expect(rest.security_and_analysis).toEqual({
      advanced_security: { status: g.securitySettings!.advancedSecurity ? 'enabled' : 'disabled' },
      secret_scanning: { status: g.securitySettings!.secretScanning ? 'enabled' : 'disabled' },
      secret_scanning_push_protection: { status: g.securitySettings!.pushProtection ? 'enabled' : 'disabled' },
      secret_scanning_delegated_alert_dismissal: { status: g.securitySettings!.delegatedAlertDismissal ? 'enabled' : 'disabled' },
    });
  });
});

describe('operation limits (graphql-armor, graphql-query-complexity, Apollo)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('refuses a query deeper than the limit', async () => {
    let sel = 'login';
    for (let i = 0; i < LIMITS.maxDepth; i++) sel = `repositories(first: 1) { nodes { owner { ... on Organization { ${sel} } } } }`;
    const r = await gql(t.url, `{ organization(login: "x") { ${sel} } }`);
    expect(r.status).toBe(400);
    expect(r.body.errors?.[0].message).toMatch(/depth limit/i);
  });

  it('refuses too many aliases', async () => {
    const fields = Array.from({ length: LIMITS.maxAliases + 1 }, (_, i) => `a${i}: viewer { login }`).join(' ');
    const r = await gql(t.url, `{ ${fields} }`);
    expect(r.status).toBe(400);
    expect(r.body.errors?.[0].message).toMatch(/aliases/i);
  });

  it('refuses a query whose list sizes make it too costly, and says why', async () => {
    const r = await gql(
      t.url,
      `{ organization(login: "x") { repositories(first: 100) { nodes { owner { ... on Organization { repositories(first: 100) { nodes { name nameWithOwner isPrivate } } } } } } } }`,
    );
    expect(r.status).toBe(400);
    expect(r.body.errors?.[0]).toMatchObject({ extensions: { code: 'QUERY_TOO_COMPLEX' } });
    expect(r.body.errors?.[0].message).toMatch(/Query cost \d+ exceeds the maximum of 25000/);
  });

  it('accepts a dashboard-sized query under the cost limit', async () => {
    const r = await gql(t.url, `{ organization(login: "x") { repositories(first: 100) { totalCount nodes { name owner { login } } } } }`);
    expect(r.body.errors?.[0].extensions?.code).toBe('NOT_FOUND'); // the org does not exist; the query itself was accepted
  });

  it('refuses batched operations', async () => {
    const res = await fetch(`${t.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify([{ query: '{ __typename }' }, { query: '{ __typename }' }]),
    });
    expect(res.status).toBe(400);
    expect(await res.text()).toMatch(/batching/i);
  });

  it('refuses a huge document (token limit)', async () => {
    const r = await gql(t.url, `{ ${'__typename '.repeat(LIMITS.maxTokens + 10)} }`);
    expect(r.status).toBe(400);
    expect(r.body.errors?.[0].message).toMatch(new RegExp(`${LIMITS.maxTokens} tokens`));
  });

  it('supports GET queries with the CSRF-prevention header, refuses them without', async () => {
    const q = encodeURIComponent('{ __typename }');
    const blocked = await fetch(`${t.url}/graphql?query=${q}`);
    expect(blocked.status).toBe(400);
    const ok = await fetch(`${t.url}/graphql?query=${q}`, { headers: { 'apollo-require-preflight': 'true' } });
    expect(ok.status).toBe(200);
    expect((await ok.json()) as any).toEqual({ data: { __typename: 'Query' } });
  });

  it('allows introspection (the playground needs it)', async () => {
    const r = await gql(t.url, '{ __schema { queryType { name } } }');
    expect(r.body.data).toEqual({ __schema: { queryType: { name: 'Query' } } });
  });
});
