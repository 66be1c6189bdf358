/**
 * Apollo is the only way into GraphQL (issue 21 §1): a plugin registered with the app sees every request, whatever
 * its kind (queries with and without variables, mutations, errors of every stage, introspection, GET, a refused
 * batch, a refused token); a query whose resolver fails runs at most twice (the compiled plan, then graphql-js),
 * counted in SQL statements during a database outage; with GRAPHQL_INTROSPECTION=false, `__schema` and `__type`
 * are refused on every path.
 */
import type { ApolloServerPlugin } from '@apollo/server';
import { createHash } from 'node:crypto';
import type { Logger } from 'typeorm';
import type { GraphqlContext } from '../../src/graphql/apollo';
import { IdentityFixtures } from '../fixtures/identity';
import { startTestApp, TestApp } from '../helpers/app';

interface Seen {
  hook: string;
  method?: string;
  operationName?: string | null;
  operation?: string;
  codes?: unknown[];
}

/** Records what each hook of every request sees. */
function recordingPlugin(seen: Seen[]): ApolloServerPlugin<GraphqlContext> {
  return {
    async invalidRequestWasReceived({ error }) {
      seen.push({ hook: 'invalidRequestWasReceived', codes: [(error as unknown as { extensions: { code?: unknown } }).extensions.code] });
    },
    async contextCreationDidFail({ error }) {
      seen.push({ hook: 'contextCreationDidFail', codes: [(error as unknown as { extensions?: { code?: unknown } }).extensions?.code] });
    },
    async requestDidStart({ request }) {
      seen.push({ hook: 'requestDidStart', method: request.http?.method });
      return {
        async didResolveOperation({ operation, operationName }) {
          seen.push({ hook: 'didResolveOperation', operation: operation?.operation, operationName });
        },
        async didEncounterErrors({ errors }) {
          // Errors as raised (a resolver's error gets its code when formatted): their number.
          seen.push({ hook: 'didEncounterErrors', codes: [errors.length] });
        },
        async willSendResponse({ response }) {
          seen.push({ hook: 'willSendResponse', codes: response.body.kind === 'single' ? (response.body.singleResult.errors ?? []).map((e) => e.extensions?.code) : [] });
        },
      };
    },
  };
}

async function post(url: string, body: unknown, headers: Record<string, string> = {}): Promise<{ status: number; body: any }> {
  const r = await fetch(`${url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  return { status: r.status, body: await r.json() };
}

async function get(url: string, params: Record<string, string>, headers: Record<string, string> = {}): Promise<{ status: number; body: any }> {
  const r = await fetch(`${url}/graphql?${new URLSearchParams(params)}`, { headers: { 'apollo-require-preflight': 'true', ...headers } });
  return { status: r.status, body: await r.json() };
}

describe('every GraphQL request passes every plugin', () => {
  let t: TestApp;
  let token: string;
  const seen: Seen[] = [];

  beforeAll(async () => {
    t = await startTestApp({ graphqlPlugins: [recordingPlugin(seen)] });
    const f = new IdentityFixtures(t.db.dataSource);
    const org = await f.org('pipe-org');
    const admin = await f.user('pipe-admin');
    await f.member(org, admin, 'admin');
    await f.repo(org, { name: 'r1', private: true, secretScanning: true });
    token = await f.classicToken(admin, ['repo', 'read:org', 'security_events']);
  });
  afterAll(() => t?.close());

  /** What the plugin saw during `request` (the log is cleared first). */
  async function sees<T>(request: () => Promise<T>): Promise<{ result: T; hooks: Seen[] }> {
    seen.length = 0;
    const result = await request();
    return { result, hooks: [...seen] };
  }
  const auth = () => ({ authorization: `Bearer ${token}` });

  it('queries with and without variables, twice each (the second from the document store), over POST and GET', async () => {
    const cases: Array<[string, () => Promise<{ status: number; body: any }>]> = [
      ['no variables', () => post(t.url, { query: '{ viewer { login } }' }, auth())],
      ['variables', () => post(t.url, { query: 'query Org($l: String!) { organization(login: $l) { login } }', variables: { l: 'pipe-org' }, operationName: 'Org' }, auth())],
      ['GET', () => get(t.url, { query: '{ viewer { login } }' }, auth())],
      ['typename', () => post(t.url, { query: '{ __typename }' })],
    ];
    for (const [name, request] of cases) {
      for (let i = 0; i < 2; i++) {
        const { result, hooks } = await sees(request);
        expect([name, result.status, result.body.errors]).toEqual([name, 200, undefined]);
        expect(hooks.map((h) => h.hook)).toEqual(['requestDidStart', 'didResolveOperation', 'willSendResponse']);
        expect(hooks[0].method).toBe(name === 'GET' ? 'GET' : 'POST');
        expect(hooks[1].operation).toBe('query');
      }
    }
  });

  it('a mutation', async () => {
    const { result, hooks } = await sees(() =>
      post(t.url, { query: 'mutation($i: UpdateSecretScanningAlertInput!) { updateSecretScanningAlert(input: $i) { alert { number } } }', variables: { i: { repository: 'pipe-org/r1', number: 99, state: 'OPEN' } } }, auth()),
    );
    expect(result.body.errors[0].extensions.code).toBe('NOT_FOUND');
    expect(hooks.map((h) => [h.hook, h.operation ?? h.codes ?? h.method])).toEqual([
      ['requestDidStart', 'POST'],
      ['didResolveOperation', 'mutation'],
      ['didEncounterErrors', [1]],
      ['willSendResponse', ['NOT_FOUND']],
    ]);
  });

  it('errors of every stage: parse, validation, variables, cost, resolver', async () => {
    const cases: Array<[unknown, string]> = [
      [{ query: '{ viewer { ' }, 'GRAPHQL_PARSE_FAILED'],
      [{ query: '{ viewer { nope } }' }, 'GRAPHQL_VALIDATION_FAILED'],
      [{ query: 'query($n: Int) { organization(login: "pipe-org") { repositories(first: $n) { totalCount } } }', variables: { n: 'x' } }, 'BAD_USER_INPUT'],
      [
        { query: '{ organization(login: "pipe-org") { repositories(first: 100) { nodes { owner { ... on Organization { repositories(first: 100) { nodes { owner { ... on Organization { repositories(first: 100) { totalCount } } } } } } } } } } }' },
        'QUERY_TOO_COMPLEX',
      ],
      [{ query: '{ organization(login: "nobody-at-all") { login } }' }, 'NOT_FOUND'],
    ];
    for (const [body, code] of cases) {
      for (let i = 0; i < 2; i++) {
        const { result, hooks } = await sees(() => post(t.url, body, auth()));
        expect(result.body.errors[0].extensions.code).toBe(code);
        expect(hooks[0].hook).toBe('requestDidStart');
        expect(hooks.find((h) => h.hook === 'didEncounterErrors')?.codes).toEqual([1]);
        expect(hooks[hooks.length - 1]).toEqual({ hook: 'willSendResponse', codes: [code] });
      }
    }
  });

  it('introspection', async () => {
    const { result, hooks } = await sees(() => post(t.url, { query: '{ __schema { queryType { name } } }' }));
    expect(result.body).toEqual({ data: { __schema: { queryType: { name: 'Query' } } } });
    expect(hooks.map((h) => h.hook)).toEqual(['requestDidStart', 'didResolveOperation', 'willSendResponse']);
  });

  it('a batch is refused, and the plugins hear of it', async () => {
    const { result, hooks } = await sees(() => post(t.url, [{ query: '{ __typename }' }, { query: '{ __typename }' }]));
    expect(result.status).toBe(400);
    expect(hooks).toEqual([{ hook: 'invalidRequestWasReceived', codes: ['BAD_REQUEST'] }]);
  });

  it('a bad token is refused, and the plugins hear of it', async () => {
    const { result, hooks } = await sees(() => post(t.url, { query: '{ viewer { login } }' }, { authorization: 'Bearer gwc_not_a_token' }));
    expect(result.status).toBe(401);
    expect(hooks).toEqual([{ hook: 'contextCreationDidFail', codes: ['UNAUTHENTICATED'] }]);
  });
});

/** Counts statements; while `outage` is set, every statement fails as a lost database connection does. */
class OutageLogger implements Logger {
  outage = false;
  statements: string[] = [];
  logQuery(query: string): void {
    if (!this.outage) return;
    this.statements.push(query);
    throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
  }
  logQueryError(): void {}
  logQuerySlow(): void {}
  logSchemaBuild(): void {}
  logMigration(): void {}
  log(): void {}
}

describe('a failing query runs at most twice', () => {
  let t: TestApp;
  const logger = new OutageLogger();

  beforeAll(async () => {
    t = await startTestApp({ logger });
    const f = new IdentityFixtures(t.db.dataSource);
    await f.org('outage-org');
  });
  afterAll(() => t?.close());

  it('a resolver failing during a database outage: its statement is tried once by the compiled plan, once by graphql-js', async () => {
    const query = '{ organization(login: "outage-org") { login } }';
    // Up, once: the document is parsed, validated and compiled; one statement answers it.
    expect((await post(t.url, { query })).body).toEqual({ data: { organization: { login: 'outage-org' } } });
    for (let i = 0; i < 2; i++) {
      logger.statements = [];
      logger.outage = true;
      let r: { status: number; body: any };
      try {
        r = await post(t.url, { query });
      } finally {
        logger.outage = false;
      }
      expect(r.body.data).toEqual({ organization: null });
      expect(r.body.errors).toHaveLength(1);
      expect(logger.statements).toHaveLength(2);
      expect(logger.statements[1]).toBe(logger.statements[0]);
    }
    // The answer while the database was up came from the compiled plan; each failure ran it, then graphql-js.
    const metrics = await (await fetch(`${t.url}/metrics`)).text();
    expect(metrics).toMatch(/graphql_executions_total\{executor="compiled"\} 1\n/);
    expect(metrics).toMatch(/graphql_executions_total\{executor="graphql-js"\} 2\n/);
  });
});

describe('GRAPHQL_INTROSPECTION=false refuses __schema and __type on every path', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({ env: { GRAPHQL_INTROSPECTION: 'false' } });
  });
  afterAll(() => t?.close());

  const documents: Array<{ query: string; operationName?: string; variables?: Record<string, unknown> }> = [
    { query: '{ __schema { queryType { name } } }' },
    { query: '{ __type(name: "Query") { name } }' },
    { query: 'query($n: String!) { __type(name: $n) { name } }', variables: { n: 'Query' } },
    { query: '{ s: __schema { types { name } } }' },
    { query: 'fragment F on Query { __schema { queryType { name } } } { ...F }' },
    { query: '{ ... on Query { __type(name: "User") { fields { name } } } }' },
    { query: 'query A { __typename } query B { __schema { queryType { name } } }', operationName: 'B' },
    { query: 'query A { __typename } query B { __schema { queryType { name } } }', operationName: 'A' },
  ];

  it('over POST and GET, each twice (the second time the document store has seen the text)', async () => {
    for (const d of documents) {
      for (let i = 0; i < 2; i++) {
        const viaPost = await post(t.url, d);
        const params: Record<string, string> = { query: d.query };
        if (d.operationName) params.operationName = d.operationName;
        if (d.variables) params.variables = JSON.stringify(d.variables);
        const viaGet = await get(t.url, params);
        for (const r of [viaPost, viaGet]) {
          expect([d.query, r.status, r.body.data, r.body.errors?.[0]?.extensions?.code]).toEqual([d.query, 400, undefined, 'GRAPHQL_VALIDATION_FAILED']);
          expect(r.body.errors[0].message).toMatch(/introspection/i);
        }
      }
    }
  });

  it('as an automatic persisted query (registered with its hash)', async () => {
    const query = '{ __schema { queryType { name } } }';
    const sha256Hash = createHash('sha256').update(query).digest('hex');
    const register = await post(t.url, { query, extensions: { persistedQuery: { version: 1, sha256Hash } } });
    expect([register.status, register.body.errors?.[0]?.extensions?.code]).toEqual([400, 'GRAPHQL_VALIDATION_FAILED']);
    const byHash = await post(t.url, { extensions: { persistedQuery: { version: 1, sha256Hash } } });
    expect(byHash.body.data).toBeUndefined();
    expect(byHash.body.errors[0].extensions.code).toBe('PERSISTED_QUERY_NOT_FOUND');
  });

  it('__typename still answers', async () => {
    expect((await post(t.url, { query: '{ __typename }' })).body).toEqual({ data: { __typename: 'Query' } });
  });
});
