/**
 * Everything a client sends is decoded against the type it must have before it reaches SQL (issue 6,
 * items 2, 3 and 11): tampered cursors, global ids, numeric path/query/argument values beyond int4, NUL
 * characters and absurd lengths in logins and names, and messages that would echo huge input.
 * Runs on SQLite, and on PostgreSQL when DATABASE_URL is set (PostgreSQL is the strict one: int4 range,
 * integer syntax, NUL in text).
 */
import type { AccountEntity, RepositoryEntity } from '../../entities/identity';
import { toGlobalId } from '../../resolvers/common/global-id';
import { IdentityFixtures } from '../fixtures/identity';
import { SecretScanningFixtures } from '../fixtures/secret-scanning';
import { gql, startTestApp, TestApp } from '../helpers/app';

/** A cursor as the server encodes it: base64url JSON of [sort value, id]; `raw` is spliced in as JSON text. */
const cursorOf = (raw: string) => Buffer.from(raw, 'utf8').toString('base64url');
const rawGlobalId = (text: string) => Buffer.from(text, 'utf8').toString('base64url');

const DATE = '"2026-01-05T08:00:00.123Z"';
/** [sort value, id] pairs no column of the lists can hold. */
const BAD_CURSORS: Array<[string, string]> = [
  ['id 1e400 (Infinity)', `[${DATE},1e400]`],
  ['id "abc"', `[${DATE},"abc"]`],
  ['id 1.5', `[${DATE},1.5]`],
  ['id 99999999999 (beyond int4)', `[${DATE},99999999999]`],
  ['id -1e400', `[${DATE},-1e400]`],
  ['id null', `[${DATE},null]`],
  ['id true', `[${DATE},true]`],
  ['sort value an object', `[{"a":1},1]`],
  ['sort value an array', `[[1,2],1]`],
  ['sort value Infinity', `[1e400,1]`],
  ['sort value a number', `[12345,1]`],
  ['sort value not a date', `["yesterday",1]`],
  ['sort value a huge string', `["${'9'.repeat(5000)}",1]`],
  ['three elements', `[${DATE},1,2]`],
];

/** A GraphQL error that names argument `arg` (in its message, or as type-graphql's validationErrors field). */
function namesArg(e: any, arg: string): boolean {
  return e?.message?.includes(`\`${arg}\``) || e?.extensions?.validationErrors?.some((v: any) => v.field === arg);
}

function githubShape(body: any, status: number): void {
  expect(body).toEqual(expect.objectContaining({ message: expect.any(String), documentation_url: expect.stringMatching(/^https:\/\/docs\.github\.com\//), status: String(status) }));
}

describe('decoding client input before it reaches SQL', () => {
  let t: TestApp;
  let f: IdentityFixtures;
  let admin: AccountEntity;
  let org: AccountEntity;
  let repo: RepositoryEntity;
  let pub: RepositoryEntity;
  let token: string;
  let alertNumbers: number[];

  const get = (path: string, tok: string | null = token) => fetch(`${t.url}${path}`, { headers: tok ? { authorization: `Bearer ${tok}` } : {} });

  beforeAll(async () => {
    t = await startTestApp();
    f = new IdentityFixtures(t.db.dataSource);
    const ss = new SecretScanningFixtures(t.db.dataSource);
    org = await f.org('deco');
    admin = await f.user('deco-admin');
    await f.member(org, admin, 'admin');
    repo = await f.repo(org, { name: 'api', private: true, secretScanning: true });
    pub = await f.repo(org, { name: 'site', private: false, secretScanning: true });
    await f.repo(org, { name: 'web', private: false });
    await f.repo(org, { name: 'pp', private: true, secretScanning: true, pushProtection: true });
    token = await f.classicToken(admin, ['repo']);
    alertNumbers = (await ss.alerts(repo, 5)).map((a) => a.number);
  }, 60_000);
  afterAll(() => t.close());

  // ------------------------------------------------------------------------------------------ item 2: cursors

  describe('tampered cursors (item 2)', () => {
    it.each(BAD_CURSORS)('REST ?after= with %s is 400 in GitHub shape naming `after`', async (_name, raw) => {
      const res = await get(`/repos/deco/api/secret-scanning/alerts?after=${cursorOf(raw)}`);
      const body = (await res.json()) as any;
      expect(res.status).toBe(400);
      githubShape(body, 400);
      expect(body.message).toMatch(/`after`/);
    });

    it.each(BAD_CURSORS)('REST ?before= with %s is 400 naming `before`', async (_name, raw) => {
      const res = await get(`/orgs/deco/secret-scanning/alerts?before=${cursorOf(raw)}`);
      const body = (await res.json()) as any;
      expect(res.status).toBe(400);
      githubShape(body, 400);
      expect(body.message).toMatch(/`before`/);
    });

    it.each(BAD_CURSORS)('GraphQL secretScanningAlerts(after:) with %s is BAD_USER_INPUT', async (_name, raw) => {
      const r = await gql(t.url, `query($c: String) { repository(owner: "deco", name: "api") { secretScanningAlerts(first: 2, after: $c) { nodes { number } } } }`, { c: cursorOf(raw) }, token);
      expect(r.body.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
      expect(namesArg(r.body.errors?.[0], 'after')).toBe(true);
    });

    // Lists sorted by a string column (repository names) and by the id (locations, members).
    it.each([
      ['name an object', `[{"a":1},1]`],
      ['name a number', `[5,1]`],
      ['id beyond int4', `["api",99999999999]`],
      ['id 1e400', `["api",1e400]`],
      ['name with NUL', `["a\\u0000b",1]`],
    ])('GraphQL organization.repositories(after:) with %s is BAD_USER_INPUT (anonymous too)', async (_name, raw) => {
      for (const tok of [token, undefined]) {
        const r = await gql(t.url, `query($c: String) { organization(login: "deco") { repositories(first: 2, after: $c) { nodes { name } } } }`, { c: cursorOf(raw) }, tok);
        expect(r.body.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
        expect(namesArg(r.body.errors?.[0], 'after')).toBe(true);
      }
    });

    it.each([
      ['id 1e400', `[1,1e400]`],
      ['id "abc"', `["abc","abc"]`],
      ['sort value beyond int4', `[99999999999,1]`],
      ['sort value an object', `[{},1]`],
    ])('GraphQL alert locations(after:) (id-sorted) with %s is BAD_USER_INPUT', async (_name, raw) => {
      const r = await gql(
        t.url,
        `query($c: String, $n: Int!) { repository(owner: "deco", name: "api") { secretScanningAlert(number: $n) { locations(first: 2, after: $c) { totalCount } } } }`,
        { c: cursorOf(raw), n: alertNumbers[0] },
        token,
      );
      expect(r.body.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    });

    it('a genuine cursor still pages forward and back', async () => {
      const p1 = await gql(t.url, `{ repository(owner: "deco", name: "api") { secretScanningAlerts(first: 2) { pageInfo { endCursor } nodes { number } } } }`, {}, token);
      const end = p1.body.data.repository.secretScanningAlerts.pageInfo.endCursor;
      const p2 = await gql(t.url, `query($c: String) { repository(owner: "deco", name: "api") { secretScanningAlerts(first: 2, after: $c) { nodes { number } } } }`, { c: end }, token);
      expect(p2.body.errors).toBeUndefined();
      expect(p2.body.data.repository.secretScanningAlerts.nodes).toHaveLength(2);
      const r = await gql(t.url, `{ organization(login: "deco") { repositories(first: 1) { pageInfo { endCursor } } } }`, {}, token);
      const c = r.body.data.organization.repositories.pageInfo.endCursor;
      const r2 = await gql(t.url, `query($c: String) { organization(login: "deco") { repositories(first: 5, after: $c) { nodes { name } } } }`, { c }, token);
      expect(r2.body.data.organization.repositories.nodes.map((n: any) => n.name)).toEqual(['pp', 'site', 'web']);
    });
  });

  // ------------------------------------------------------------------------------------------ item 3: global ids

  describe('global ids (item 3)', () => {
    const BAD_IDS: Array<[string, string]> = [
      ['User:abc', rawGlobalId('User:abc')],
      ['Repository:-', rawGlobalId('Repository:-')],
      ['User:NaN', rawGlobalId('User:NaN')],
      ['User:1e20', rawGlobalId('User:1e20')],
      ['User:99999999999', rawGlobalId('User:99999999999')],
      ['Organization:0', rawGlobalId('Organization:0')],
      ['Repository:2147483648', rawGlobalId('Repository:2147483648')],
      ['SecretScanningAlert:1e3', rawGlobalId('SecretScanningAlert:1e3')],
      ['User:007', rawGlobalId('User:007')],
      ['not base64', 'not base64!'],
    ];

    it.each(BAD_IDS)('node(id: %s) is null with BAD_USER_INPUT, anonymous and authenticated', async (_name, id) => {
      for (const tok of [undefined, token]) {
        const r = await gql(t.url, `query($id: ID!) { node(id: $id) { id } }`, { id }, tok);
        expect(r.status).toBe(200);
        expect(r.body.data).toEqual({ node: null });
        expect(r.body.errors).toHaveLength(1);
        expect(r.body.errors![0].extensions?.code).toBe('BAD_USER_INPUT');
        expect(r.body.errors![0].path).toEqual(['node']);
      }
    });

    it('nodes(ids:) with bad ids among good ones: null + BAD_USER_INPUT at each bad index, the others resolve', async () => {
      const good = [toGlobalId('User', admin.id), toGlobalId('Repository', pub.id), toGlobalId('Organization', org.id)];
      const ids = [good[0], BAD_IDS[0][1], good[1], BAD_IDS[3][1], BAD_IDS[4][1], good[2], 'not base64!'];
      const r = await gql(t.url, `query($ids: [ID!]!) { nodes(ids: $ids) { id __typename } }`, { ids });
      expect(r.status).toBe(200);
      expect(r.body.data!.nodes).toEqual([
        { id: good[0], __typename: 'User' },
        null,
        { id: good[1], __typename: 'Repository' },
        null,
        null,
        { id: good[2], __typename: 'Organization' },
        null,
      ]);
      const errs = r.body.errors!;
      expect(errs.map((e) => e.path)).toEqual([
        ['nodes', 1],
        ['nodes', 3],
        ['nodes', 4],
        ['nodes', 6],
      ]);
      for (const e of errs) expect(e.extensions?.code).toBe('BAD_USER_INPUT');
    });

    it('a well-formed id of something missing or hidden stays a plain null without an error', async () => {
      const ids = [toGlobalId('User', 2_147_483_647), toGlobalId('Repository', repo.id), toGlobalId('NoSuchType', 1)];
      const r = await gql(t.url, `query($ids: [ID!]!) { nodes(ids: $ids) { id } }`, { ids });
      expect(r.body).toEqual({ data: { nodes: [null, null, null] } });
    });
  });

  // ------------------------------------------------------------------------------------------ numbers and strings

  describe('numbers beyond int4 and strings PostgreSQL cannot hold', () => {
    it.each(['99999999999', '2147483648', '0', '-1', '1.5', 'abc', '1e3', '%00'])('GET …/alerts/%s is 404 (a path segment that names no alert)', async (n) => {
      for (const suffix of ['', '/locations']) {
        const res = await get(`/repos/deco/api/secret-scanning/alerts/${n}${suffix}`);
        expect(res.status).toBe(404);
        githubShape(await res.json(), 404);
      }
    });

    it.each([2_147_483_647, 0, -1, -2_147_483_648])('secretScanningAlert(number: %d) is null with NOT_FOUND', async (n) => {
      const r = await gql(t.url, `query($n: Int!) { repository(owner: "deco", name: "api") { secretScanningAlert(number: $n) { number } } }`, { n }, token);
      expect(r.body.data?.repository).toEqual({ secretScanningAlert: null });
      expect(r.body.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
    });

    it.each(['page=99999999999', 'page=1e3', 'per_page=99999999999', 'page=-1', 'page=1.5'])('?%s is 422 with errors[], never a 500', async (q) => {
      for (const path of ['/repos/deco/api/secret-scanning/alerts', `/repos/deco/api/secret-scanning/alerts/${alertNumbers[0]}/locations`]) {
        const res = await get(`${path}?${q}`);
        expect(res.status).toBe(422);
        const body = (await res.json()) as any;
        githubShape(body, 422);
        expect(body.errors?.[0]?.field).toMatch(/^(page|per_page)$/);
      }
    });

    it('a page far beyond the last one is an empty list', async () => {
      const res = await get('/repos/deco/api/secret-scanning/alerts?page=999999999&per_page=100');
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual([]);
    });

    it.each([
      ['owner with NUL', '/repos/de%00co/api'],
      ['name with NUL', '/repos/deco/a%00pi'],
      ['user with NUL', '/users/deco-%00admin'],
      ['org with NUL', '/orgs/de%00co'],
      // Longer path segments are refused by the HTTP layer (400) before routing.
      ['owner of 100 characters', `/repos/${'o'.repeat(100)}/api`],
      ['alerts of an owner with NUL', '/repos/de%00co/api/secret-scanning/alerts'],
      ['alerts of an org with NUL', '/orgs/de%00co/secret-scanning/alerts'],
      ['scan history of a name with NUL', '/repos/deco/a%00pi/secret-scanning/scan-history'],
    ])('REST: %s is 404', async (_name, path) => {
      const res = await get(path);
      expect(res.status).toBe(404);
      githubShape(await res.json(), 404);
    });

    it.each([
      ['secret_type', 'secret_type=a%00b'],
      ['exclude_secret_types', 'exclude_secret_types=a%00b'],
      ['providers', 'providers=x%00'],
      ['exclude_providers', 'exclude_providers=x%00'],
      ['assignee', 'assignee=deco-%00admin'],
      ['secret_type (long)', `secret_type=${'x'.repeat(3000)}`],
      ['assignee (long)', `assignee=${'x'.repeat(3000)}`],
    ])('REST alert filter %s with NUL or absurd length is never a 500', async (_name, q) => {
      const res = await get(`/repos/deco/api/secret-scanning/alerts?${q}`);
      expect([200, 422]).toContain(res.status);
      const body = (await res.json()) as any;
      // No alert has such a type/provider/assignee: an inclusive filter matches nothing, an exclusive one everything.
      if (res.status === 200) expect(body).toHaveLength(q.startsWith('exclude_') ? alertNumbers.length : 0);
      else githubShape(body, 422);
    });

    it.each([
      ['user(login:)', `query($s: String!) { user(login: $s) { login } }`, 'NOT_FOUND'],
      ['organization(login:)', `query($s: String!) { organization(login: $s) { login } }`, 'NOT_FOUND'],
      ['repository(owner:)', `query($s: String!) { repository(owner: $s, name: "api") { name } }`, 'NOT_FOUND'],
      ['repository(name:)', `query($s: String!) { repository(owner: "deco", name: $s) { name } }`, 'NOT_FOUND'],
    ])('GraphQL %s with a NUL character is NOT_FOUND', async (_name, query, code) => {
      const r = await gql(t.url, query, { s: 'deco\u0000' }, token);
      expect(r.body.errors?.[0]?.extensions?.code).toBe(code);
    });

    it.each([
      ['with NUL', 'ab\u0000cd'],
      ['of 5,000 characters', 'p'.repeat(5000)],
    ])('REST push protection bypass with a placeholder_id %s is 404 Placeholder ID not found', async (_name, placeholderId) => {
      const res = await fetch(`${t.url}/repos/deco/pp/secret-scanning/push-protection-bypasses`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ reason: 'used_in_tests', placeholder_id: placeholderId }),
      });
      expect(res.status).toBe(404);
      githubShape(await res.json(), 404);
    });

    it('REST PATCH with a resolution_comment holding NUL is 400 like any invalid comment, and nothing is stored', async () => {
      const res = await fetch(`${t.url}/repos/deco/api/secret-scanning/alerts/1`, {
        method: 'PATCH',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ state: 'resolved', resolution: 'wont_fix', resolution_comment: 'fixed\u0000later' }),
      });
      expect(res.status).toBe(400);
      githubShape(await res.json(), 400);
      const alert = (await (await get('/repos/deco/api/secret-scanning/alerts/1')).json()) as { state: string };
      expect(alert.state).toBe('open');
    });

    it('GraphQL alert filter with NUL in secretTypes and assignee is never a 500', async () => {
      const r = await gql(
        t.url,
        `query($f: SecretScanningAlertFilter) { repository(owner: "deco", name: "api") { secretScanningAlerts(first: 5, filter: $f) { totalCount } } }`,
        { f: { secretTypes: ['a\u0000b'], assignee: 'x\u0000' } },
        token,
      );
      expect(r.body.errors?.find((e) => e.extensions?.code === 'INTERNAL_SERVER_ERROR')).toBeUndefined();
    });
  });

  // ------------------------------------------------------------------------------------------ lone surrogates

  describe('lone UTF-16 surrogates in GET variables (`"\\ud800"` is valid JSON)', () => {
    /** The same operation over GET (variables as URL-encoded JSON, as Apollo's clients send them) and over POST. */
    const both = async (query: string, variables: Record<string, unknown>) => {
      const qs = new URLSearchParams({ query, variables: JSON.stringify(variables) });
      const res = await fetch(`${t.url}/graphql?${qs}`, { headers: { authorization: `Bearer ${token}`, 'apollo-require-preflight': 'true' } });
      const get = { status: res.status, text: await res.text() };
      const post = await gql(t.url, query, variables, token);
      return { get, post };
    };

    it.each([
      ['node(id:)', `query($s: ID!) { node(id: $s) { id } }`, { s: 'User:1\ud800' }],
      ['nodes(ids:)', `query($s: [ID!]!) { nodes(ids: $s) { id } }`, { s: ['\udc00', 'x\ud800y'] }],
      ['user(login:)', `query($s: String!) { user(login: $s) { login } }`, { s: 'deco\ud800' }],
      [
        'an alert filter (nested input, list)',
        `query($f: SecretScanningAlertFilter) { repository(owner: "deco", name: "api") { secretScanningAlerts(first: 5, filter: $f) { totalCount } } }`,
        { f: { secretTypes: ['a\ud800'], assignee: '\udfffx' } },
      ],
      ['an after cursor', `query($s: String) { repository(owner: "deco", name: "api") { secretScanningAlerts(after: $s) { totalCount } } }`, { s: '\ud800' }],
      ['events(where: { search })', `query($s: String) { events(where: { search: $s }) { totalCount } }`, { s: 'jazz\ud800' }],
    ])('%s: never a 500; answered as over POST, the surrogate read as U+FFFD', async (_name, query, variables) => {
      const { get, post } = await both(query, variables);
      expect(get.status).toBe(post.status);
      expect(get.status).toBeLessThan(500);
      const body = JSON.parse(get.text) as typeof post.body;
      expect(body.errors?.find((e) => e.extensions?.code === 'INTERNAL_SERVER_ERROR')).toBeUndefined();
      expect(body).toEqual(post.body);
      // Anything echoed is well formed: JSON.stringify escapes only lone surrogates, and none is in the text sent.
      expect(get.text).not.toMatch(/\\ud[89a-f][0-9a-f]{2}/i);
    });

    it('node(id:) over GET: null with BAD_USER_INPUT, the id echoed with U+FFFD', async () => {
      const { get } = await both(`query($s: ID!) { node(id: $s) { id } }`, { s: 'x\ud800' });
      const body = JSON.parse(get.text) as { data: unknown; errors: Array<{ message: string; path: unknown[]; extensions: { code: string } }> };
      expect(get.status).toBe(200);
      expect(body.data).toEqual({ node: null });
      expect(body.errors.map((e) => [e.extensions.code, e.path])).toEqual([['BAD_USER_INPUT', ['node']]]);
      expect(body.errors[0].message).toContain('x\ufffd');
    });
  });

  // ------------------------------------------------------------------------------------------ item 11: echoes

  describe('messages never echo input of any length (item 11)', () => {
    const huge = 'a'.repeat(1024 * 1024);

    it.each([
      ['user(login:)', `query($s: String!) { user(login: $s) { login } }`],
      ['organization(login:)', `query($s: String!) { organization(login: $s) { login } }`],
      ['repository(owner:)', `query($s: String!) { repository(owner: $s, name: "api") { name } }`],
      ['updateRepositorySecuritySettings(repository:)', `mutation($s: String!) { updateRepositorySecuritySettings(input: { repository: $s, secretScanning: true }) { repository { name } } }`],
      ['node(id:)', `query($s: ID!) { node(id: $s) { id } }`],
    ])('GraphQL %s with a 1 MB value: an error message of at most 300 characters', async (_name, query) => {
      const r = await gql(t.url, query, { s: huge }, token);
      expect(r.body.errors?.length).toBeGreaterThan(0);
      for (const e of r.body.errors!) {
        expect(e.extensions?.code).not.toBe('INTERNAL_SERVER_ERROR');
        expect(e.message.length).toBeLessThanOrEqual(300);
      }
      expect(JSON.stringify(r.body).length).toBeLessThan(2000);
    });

    it('REST PATCH with a 1 MB assignee: 422 whose message is at most 300 characters', async () => {
      const res = await fetch(`${t.url}/repos/deco/api/secret-scanning/alerts/${alertNumbers[0]}`, {
        method: 'PATCH',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ assignee: huge.slice(0, 200_000) }),
      });
      const body = (await res.json()) as any;
      expect(res.status).toBe(422);
      expect(body.message.length).toBeLessThanOrEqual(300);
      expect(JSON.stringify(body).length).toBeLessThan(2000);
    });
  });
});
