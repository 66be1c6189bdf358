/**
 * The compiled executor inside Apollo (src/graphql/exec/gateway.ts) answers exactly as graphql-js does: the same
 * bytes, status and content type for a query over POST and over GET, the first time (document parsed, validated
 * and compiled) and the next (from Apollo's document store), and graphql-js' own answer whenever the result carries
 * errors, for mutations, persisted queries, and operations over the cost limit.
 */
import { IdentityFixtures } from '../fixtures/identity';
import { startTestApp, TestApp } from '../helpers/app';

describe('GraphQL compiled executor inside Apollo', () => {
  let t: TestApp;
  let token: string;

  beforeAll(async () => {
    t = await startTestApp();
    const f = new IdentityFixtures(t.db.dataSource);
    const org = await f.org('fastorg');
    const admin = await f.user('fastadmin', { name: 'Fast Admin' });
    await f.member(org, admin, 'admin');
    for (let i = 0; i < 5; i++) await f.repo(org, { name: `fast${i}`, private: i % 2 === 0, secretScanning: i < 3 });
    token = await f.classicToken(admin, ['repo', 'security_events', 'read:org']);
  });

  afterAll(async () => {
    await t?.close();
  });

  const post = async (body: unknown, headers: Record<string, string> = {}) => {
    const res = await fetch(`${t.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}`, ...headers },
      body: JSON.stringify(body),
    });
    return { status: res.status, type: res.headers.get('content-type'), text: await res.text() };
  };
  const get = async (query: string, variables?: Record<string, unknown>) => {
    const qs = new URLSearchParams({ query, ...(variables ? { variables: JSON.stringify(variables) } : {}) });
    const res = await fetch(`${t.url}/graphql?${qs}`, {
      headers: { authorization: `Bearer ${token}`, 'apollo-require-preflight': 'true' },
    });
    return { status: res.status, type: res.headers.get('content-type'), text: await res.text() };
  };

  const QUERIES: Array<{ query: string; variables?: Record<string, unknown> }> = [
    { query: '{ __typename }' },
    { query: '{ viewer { id login name databaseId } }' },
    {
      query: `query Repos($login: String!, $first: Int) { organization(login: $login) { id viewerRole repositories(first: $first) {
        totalCount pageInfo { hasNextPage endCursor } edges { cursor node { id name nameWithOwner isPrivate owner { __typename login }
        viewerPermission securitySettings { secretScanning pushProtection } } } } } }`,
      variables: { login: 'fastorg', first: 3 },
    },
    { query: 'fragment R on Repository { name isPrivate } query { organization(login: "FASTORG") { repositories(last: 2) { nodes { ...R ... on Repository { id } } } } }' },
  ];

  it('answers a query with the bytes, status and content type Apollo gives it', async () => {
    for (const q of QUERIES) {
      const viaApollo = await get(q.query, q.variables);
      expect(viaApollo.status).toBe(200);
      expect(JSON.parse(viaApollo.text).errors).toBeUndefined();
      for (let i = 0; i < 2; i++) {
        // The first POST prepares the document, the second runs the cached one.
        expect(await post(q)).toEqual(viaApollo);
      }
    }
  });

  it('leaves errors, bad variables, bad tokens and over-limit operations to Apollo', async () => {
    const notFound = await post({ query: '{ organization(login: "nobody-here") { id } }' });
    expect(notFound.status).toBe(200);
    expect(JSON.parse(notFound.text).errors[0].extensions.code).toBe('NOT_FOUND');

    const badVariable = await post({ query: 'query($n: Int) { organization(login: "fastorg") { repositories(first: $n) { totalCount } } }', variables: { n: 'x' } });
    expect(badVariable.status).toBe(400);
    expect(JSON.parse(badVariable.text).errors[0].extensions.code).toBe('BAD_USER_INPUT');

    const badToken = await post({ query: '{ viewer { login } }' }, { authorization: 'Bearer gwc_nope' });
    expect(badToken.status).toBe(401);

    const tooCostly = await post({ query: '{ organization(login: "fastorg") { repositories(first: 100) { nodes { owner { ... on Organization { repositories(first: 100) { nodes { owner { ... on Organization { repositories(first: 100) { totalCount } } } } } } } } } } }' });
    expect(tooCostly.status).toBe(400);
    expect(JSON.parse(tooCostly.text).errors[0].extensions.code).toBe('QUERY_TOO_COMPLEX');

    const invalid = await post({ query: '{ viewer { nope } }' });
    expect(invalid.status).toBe(400);
    expect(JSON.parse(invalid.text).errors[0].extensions.code).toBe('GRAPHQL_VALIDATION_FAILED');
  });

  it('answers through compiled plans what Apollo answers: fragments, aliases, directives, abstract types, node ids, nulls, empty lists', async () => {
    const ids = JSON.parse((await post({ query: '{ organization(login: "fastorg") { id repositories(first: 5) { nodes { id } pageInfo { endCursor } } } viewer { id } }' })).text).data;
    const nodeIds = [ids.organization.id, ids.viewer.id, ...ids.organization.repositories.nodes.map((n: { id: string }) => n.id), 'bm9wZQ=='];
    const queries: Array<{ query: string; variables?: Record<string, unknown> }> = [
      { query: '{ a: viewer { login } b: viewer { id login } viewer { ...U } } fragment U on User { databaseId name }' },
      {
        query: 'query($yes: Boolean!, $no: Boolean!) { viewer { login @include(if: $yes) name @include(if: $no) id @skip(if: $no) ... @skip(if: $yes) { databaseId } } }',
        variables: { yes: true, no: false },
      },
      {
        query: 'query($yes: Boolean!, $no: Boolean!) { viewer { login @include(if: $yes) name @include(if: $no) id @skip(if: $no) ... @skip(if: $yes) { databaseId } } }',
        variables: { yes: false, no: true },
      },
      { query: 'query($ids: [ID!]!) { nodes(ids: $ids) { __typename } }', variables: { ids: nodeIds.slice(0, 4) } },
      { query: 'query($id: ID!) { node(id: $id) { __typename id ... on Organization { login viewerRole } ... on User { login } ... on Repository { nameWithOwner } } }', variables: { id: nodeIds[0] } },
      { query: 'query($id: ID!) { node(id: $id) { __typename id ... on Repository { name owner { __typename ... on Organization { login } } } } }', variables: { id: nodeIds[2] } },
      {
        query: 'query($end: String) { organization(login: "fastorg") { repositories(first: 0) { totalCount nodes { name } } none: repositories(first: 2, after: $end) { nodes { name } } } }',
        variables: { end: ids.organization.repositories.pageInfo.endCursor },
      },
      { query: '{ organization(login: "fastorg") { repositories(first: 5) { nodes { name securitySettings { secretScanning } settings { pushProtection } viewerPermission } } } }' },
    ];
    for (const q of queries) {
      const viaApollo = await get(q.query, q.variables);
      expect({ q: q.query, status: viaApollo.status, errors: JSON.parse(viaApollo.text).errors }).toEqual({ q: q.query, status: 200, errors: undefined });
      for (let i = 0; i < 2; i++) expect(await post(q)).toEqual(viaApollo);
    }
  });

  it('never runs a mutation itself: a mutation answers as before', async () => {
    const r = await post({ query: 'mutation { updateRepositorySecuritySettings(input: { repository: "fastorg/fast0", secretScanning: true }) { repository { name } } }' });
    expect(r.status).toBe(200);
    expect(JSON.parse(r.text)).toEqual({ data: { updateRepositorySecuritySettings: { repository: { name: 'fast0' } } } });
  });
});
