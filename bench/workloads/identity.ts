/**
 * Identity workloads: the GraphQL floor (`{ __typename }`), an authenticated `viewer`, and one page of an
 * organization's repositories, each against a hand-written baseline that returns the same JSON.
 */
import { createHash } from 'node:crypto';
import { BaselineDb, OrgAccessRow, orgAccess } from '../lib/baseline';
import { BaselineRequest, BaselineResponse, BenchEnv, BenchFailure, FetchedResponse, HttpRequestSpec, Workload } from '../lib/types';
import { assertOk, assertSame } from '../lib/verify';

const JSON_HEADERS = { 'content-type': 'application/json', accept: 'application/json' };

function graphqlRequest(query: string, token?: string): HttpRequestSpec {
  return {
    method: 'POST',
    path: '/graphql',
    headers: { ...JSON_HEADERS, ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify({ query }),
  };
}

/** Same encoding as resolvers/common/global-id.ts, written out so the baseline does not import the graph. */
function globalId(type: string, id: number): string {
  return Buffer.from(`${type}:${id}`, 'utf8').toString('base64url');
}

function unauthorized(): BaselineResponse {
  return { status: 401, json: { message: 'Bad credentials' } };
}

function toTime(v: unknown): number {
  if (v instanceof Date) return v.getTime();
  const s = String(v);
  // SQLite datetime text is UTC without a zone.
  return new Date(/[zZ]|[+-]\d\d:?\d\d$/.test(s) ? s : `${s.replace(' ', 'T')}Z`).getTime();
}

interface BaselineViewer {
  id: number;
  login: string;
  scopes: string[];
}

/**
 * SQLite plans the JOIN forms below as a scan of access_tokens on the bench database (one token, ANALYZEd) instead of
 * a search of its token_hash index: 36 us for the token->user JOIN against 7 us with the user as a scalar subquery,
 * 70 us against 10 us for the organization access check (bench/README.md, session 26). On SQLite the baselines read
 * the token by its index and the rest as scalar subqueries, the cheapest forms measured; PostgreSQL keeps the JOINs.
 */
const AUTH_SQL = {
  sqlite: `SELECT t.user_id AS id, (SELECT u.login FROM accounts u WHERE u.id = t.user_id AND u.type = 'User') AS login,
       t.scopes AS scopes, t.expires_at AS expires_at
  FROM access_tokens t WHERE t.token_hash = ? AND t.revoked_at IS NULL`,
  postgres: `SELECT u.id AS id, u.login AS login, t.scopes AS scopes, t.expires_at AS expires_at
       FROM access_tokens t JOIN accounts u ON u.id = t.user_id
      WHERE t.token_hash = ? AND t.revoked_at IS NULL AND u.type = 'User'`,
};

/** Bearer/token header -> the token's user, with one statement (the token and its user). */
async function authenticate(req: BaselineRequest, db: BaselineDb): Promise<BaselineViewer | null> {
  const header = req.headers.authorization ?? '';
  const m = /^(bearer|token)\s+(\S+)$/i.exec(header.trim());
  if (!m) return null;
  const hash = createHash('sha256').update(m[2], 'utf8').digest('hex');
  const [row] = await db.all<{ id: number; login: string | null; scopes: string | null; expires_at: unknown }>('auth', AUTH_SQL[db.dialect], [hash]);
  // No row, or (SQLite's form) a token whose user is gone or not a User: no credential.
  if (!row || row.login == null) return null;
  if (row.expires_at != null && toTime(row.expires_at) <= Date.now()) return null;
  return { id: Number(row.id), login: row.login, scopes: row.scopes ? (JSON.parse(row.scopes) as string[]) : [] };
}

// ---------------------------------------------------------------------------------------------------------
// { __typename }: HTTP + GraphQL envelope, no resolver, no database.

const typename: Workload = {
  name: 'typename',
  description: 'POST { __typename } anonymously: the cost of the HTTP + GraphQL pipeline with no resolver and no database',
  gateway: () => graphqlRequest('{ __typename }'),
  baseline: {
    request: () => ({ method: 'POST', path: '/baseline/typename', headers: JSON_HEADERS, body: JSON.stringify({ query: '{ __typename }' }) }),
    handler: (req) => {
      const body = JSON.parse(req.body) as { query?: unknown };
      if (typeof body.query !== 'string') return { status: 400, json: { message: 'query is required' } };
      return { status: 200, json: { data: { __typename: 'Query' } } };
    },
  },
  verify(gateway, baseline) {
    assertOk('gateway', gateway);
    assertOk('baseline', baseline);
    assertSame('typename', gateway.json, baseline.json);
    assertSame('typename', gateway.json, { data: { __typename: 'Query' } });
    return '{"data":{"__typename":"Query"}} from both';
  },
};

// ---------------------------------------------------------------------------------------------------------
// { viewer { login } }: the per-request cost of authenticating a token.

const viewer: Workload = {
  name: 'viewer',
  description: 'POST { viewer { id login } } with a classic token: the pipeline plus token authentication',
  gateway: (env) => graphqlRequest('query Viewer { viewer { id login } }', env.adminToken),
  baseline: {
    request: (env) => ({ method: 'GET', path: '/baseline/viewer', headers: { accept: 'application/json', authorization: `Bearer ${env.adminToken}` } }),
    handler: async (req, db) => {
      const v = await authenticate(req, db);
      if (!v) return unauthorized();
      return { status: 200, json: { data: { viewer: { id: globalId('User', v.id), login: v.login } } } };
    },
  },
  verify(gateway, baseline, env) {
    assertOk('gateway', gateway);
    assertOk('baseline', baseline);
    assertSame('viewer', gateway.json, baseline.json);
    const login = (gateway.json as { data: { viewer: { login: string } } }).data.viewer.login;
    if (login !== env.seed.adminLogin) throw new BenchFailure(`viewer: expected ${env.seed.adminLogin}, got ${login}`);
    return `viewer ${login} from both`;
  },
};

// ---------------------------------------------------------------------------------------------------------
// One page of an organization's repositories, with totalCount and the owner of each row.

const PAGE_SIZE = 100;

const ORG_REPOS_QUERY = (login: string) =>
  `query OrgRepos { organization(login: ${JSON.stringify(login)}) { repositories(first: ${PAGE_SIZE}) { totalCount nodes { id databaseId name nameWithOwner isPrivate owner { login } } } } }`;

type Visibility = 'all' | 'public' | 'public-or-collaborator';

/** Same visibility rule as IdentityService.listRepositories for classic tokens. */
function visibilityFilter(v: Visibility): string {
  if (v === 'all') return '';
  if (v === 'public') return ' AND NOT r."private"';
  return ' AND (NOT r."private" OR EXISTS (SELECT 1 FROM repository_collaborators c WHERE c.repository_id = r.id AND c.user_id = ?))';
}

/**
 * Token -> user, the organization by login and the user's membership in it: the access check in one statement
 * (the gateway needs the same three facts). SQLite: scalar subqueries, the organization as one JSON value (see
 * AUTH_SQL for why).
 */
const ORG_ACCESS_SQL = {
  sqlite: `SELECT t.user_id AS user_id, t.scopes AS scopes, t.expires_at AS expires_at,
       (SELECT 1 FROM accounts u WHERE u.id = t.user_id AND u.type = 'User') AS is_user,
       (SELECT json_array(o.id, o.login, (SELECT m.role FROM memberships m WHERE m.organization_id = o.id AND m.user_id = t.user_id))
          FROM accounts o WHERE o.login_lower = ? AND o.type = 'Organization') AS org
  FROM access_tokens t WHERE t.token_hash = ? AND t.revoked_at IS NULL`,
  postgres: `SELECT u.id AS user_id, 1 AS is_user, t.scopes AS scopes, t.expires_at AS expires_at,
       o.id AS org_id, o.login AS org_login, m.role AS role
  FROM access_tokens t
  JOIN accounts u ON u.id = t.user_id AND u.type = 'User'
  LEFT JOIN accounts o ON o.login_lower = ? AND o.type = 'Organization'
  LEFT JOIN memberships m ON m.organization_id = o.id AND m.user_id = u.id
 WHERE t.token_hash = ? AND t.revoked_at IS NULL`,
};

/**
 * The page, with its total in the same statement: a viewer who sees every repository of the owner reads the kept
 * number (repository_totals, kept by the database's triggers, as the gateway reads it); others count what they see.
 * The total is an uncorrelated scalar subquery (evaluated once); an empty page asks for the total alone.
 */
function orgReposTotalSql(v: Visibility): string {
  return v === 'all'
    ? 'SELECT COALESCE(SUM(rt.repositories), 0) FROM repository_totals rt WHERE rt.owner_id = ?'
    : `SELECT COUNT(*) FROM repositories r WHERE r.owner_id = ?${visibilityFilter(v)}`;
}

function orgReposPageSql(v: Visibility): string {
  return `SELECT r.id AS id, r.name AS name, r."private" AS "private", (${orgReposTotalSql(v)}) AS total FROM repositories r
      WHERE r.owner_id = ?${visibilityFilter(v)} ORDER BY r.name_lower ASC, r.id ASC LIMIT ?`;
}

async function orgReposBaseline(req: BaselineRequest, db: BaselineDb): Promise<BaselineResponse> {
  const m = /^(bearer|token)\s+(\S+)$/i.exec((req.headers.authorization ?? '').trim());
  if (!m) return unauthorized();
  const login = req.url.searchParams.get('login') ?? '';
  const first = Number(req.url.searchParams.get('first') ?? 30);
  if (!Number.isInteger(first) || first < 0 || first > 100) return { status: 400, json: { message: 'first must be 0..100' } };
  const hash = createHash('sha256').update(m[2], 'utf8').digest('hex');
  const [row] = await db.all<OrgAccessRow>('org_access', ORG_ACCESS_SQL[db.dialect], [login.toLowerCase(), hash]);
  const a = row && orgAccess(row);
  if (!a || a.is_user == null || (a.expires_at != null && toTime(a.expires_at) <= Date.now())) return unauthorized();
  if (a.org_id == null) return { status: 404, json: { message: `Could not resolve to an Organization with the login of '${login}'.` } };
  const orgId = Number(a.org_id);
  const userId = Number(a.user_id);
  const scopes = a.scopes ? (JSON.parse(a.scopes) as string[]) : [];
  const hasRepoScope = scopes.includes('repo');
  const visibility: Visibility = !hasRepoScope ? 'public' : a.role ? 'all' : 'public-or-collaborator';
  const extra = visibility === 'public-or-collaborator' ? [userId] : [];
  const rows = await db.all<{ id: number; name: string; private: boolean | number; total: number | string }>(
    `org_repos_page_${visibility}`,
    orgReposPageSql(visibility),
    [orgId, ...extra, orgId, ...extra, first],
  );
  let total: number;
  if (rows.length) total = Number(rows[0].total);
  else {
    const [c] = await db.all<{ n: number | string }>(`org_repos_count_${visibility}`, `SELECT (${orgReposTotalSql(visibility)}) AS n`, [orgId, ...extra]);
    total = Number(c.n);
  }
  const owner = { login: a.org_login! };
  return {
    status: 200,
    json: {
      data: {
        organization: {
          repositories: {
            totalCount: total,
            nodes: rows.map((r) => ({
              id: globalId('Repository', Number(r.id)),
              databaseId: Number(r.id),
              name: r.name,
              nameWithOwner: `${owner.login}/${r.name}`,
              isPrivate: Boolean(r.private),
              owner,
            })),
          },
        },
      },
    },
  };
}

/**
 * The same page in PostGraphile's schema shape (bench/lib/postgraphile.ts): the organization by its unique
 * `login_lower`, its repositories through the `owner_id` foreign key in `name_lower` order, `totalCount`, and per
 * repository the fields the gateway's nodes carry (PostGraphile has no `nameWithOwner`: the owner's login instead).
 */
const PGL_ORG_REPOS_QUERY = (login: string) =>
  `query OrgRepos { accountByLoginLower(loginLower: ${JSON.stringify(login.toLowerCase())}) { ` +
  `repositoriesByOwnerId(first: ${PAGE_SIZE}, orderBy: [NAME_LOWER_ASC, ROW_ID_ASC]) { totalCount nodes { id rowId name private accountByOwnerId { login } } } } }`;

interface PglOrgReposData {
  data?: {
    accountByLoginLower: {
      repositoriesByOwnerId: { totalCount: number; nodes: Array<{ id: string; rowId: number; name: string; private: boolean; accountByOwnerId: { login: string } }> };
    } | null;
  };
}

function verifyPglOrgRepos(peer: FetchedResponse, gateway: FetchedResponse): string {
  assertOk('postgraphile', peer);
  const conn = (peer.json as PglOrgReposData).data?.accountByLoginLower?.repositoriesByOwnerId;
  if (!conn) throw new BenchFailure(`postgraphile: no repository connection in ${peer.text.slice(0, 300)}`);
  const ours = (gateway.json as OrgReposData).data.organization.repositories;
  const theirs = {
    totalCount: conn.totalCount,
    nodes: conn.nodes.map((n) => ({ databaseId: n.rowId, name: n.name, nameWithOwner: `${n.accountByOwnerId.login}/${n.name}`, isPrivate: n.private, owner: { login: n.accountByOwnerId.login } })),
  };
  const mine = {
    totalCount: ours.totalCount,
    nodes: ours.nodes.map((n) => ({ databaseId: n.databaseId, name: n.name, nameWithOwner: n.nameWithOwner, isPrivate: n.isPrivate, owner: n.owner })),
  };
  assertSame('org-repositories (postgraphile vs gateway)', theirs, mine);
  return `${conn.nodes.length} of ${conn.totalCount} repositories, the gateway's rows in the gateway's order`;
}

interface OrgReposData {
  data: {
    organization: {
      repositories: { totalCount: number; nodes: Array<{ databaseId: number; name: string; nameWithOwner: string; isPrivate: boolean; owner: { login: string } }> };
    };
  };
}

const orgRepositories: Workload = {
  name: 'org-repositories',
  description: `An org admin lists ${PAGE_SIZE} of the organization's repositories (by name) with totalCount, nameWithOwner and owner`,
  gateway: (env) => graphqlRequest(ORG_REPOS_QUERY(env.seed.orgLogin), env.adminToken),
  baseline: {
    request: (env) => ({
      method: 'GET',
      path: `/baseline/org-repositories?login=${encodeURIComponent(env.seed.orgLogin)}&first=${PAGE_SIZE}`,
      headers: { accept: 'application/json', authorization: `Bearer ${env.adminToken}` },
    }),
    handler: orgReposBaseline,
  },
  postgraphile: {
    request: (env, withToken) => graphqlRequest(PGL_ORG_REPOS_QUERY(env.seed.orgLogin), withToken ? env.adminToken : undefined),
    verify: verifyPglOrgRepos,
  },
  verify(gateway: FetchedResponse, baseline: FetchedResponse, env: BenchEnv) {
    assertOk('gateway', gateway);
    assertOk('baseline', baseline);
    assertSame('org-repositories', gateway.json, baseline.json);
    const conn = (gateway.json as OrgReposData).data.organization.repositories;
    const seed = env.seed;
    // The admin sees every repository of the organization.
    if (conn.totalCount !== seed.repositories) {
      throw new BenchFailure(`org-repositories: totalCount ${conn.totalCount}, seeded ${seed.repositories}`);
    }
    const expectedLength = Math.min(PAGE_SIZE, seed.repositories);
    if (conn.nodes.length !== expectedLength) throw new BenchFailure(`org-repositories: ${conn.nodes.length} nodes, expected ${expectedLength}`);
    const seeded = new Map(seed.repositoriesByName.map((r) => [r.id, r]));
    for (const n of conn.nodes) {
      const s = seeded.get(n.databaseId);
      if (!s || s.name !== n.name || s.private !== n.isPrivate) {
        throw new BenchFailure(`org-repositories: node ${JSON.stringify(n)} does not match the seeded repository ${JSON.stringify(s)}`);
      }
    }
    let order = 'database collation order';
    if (env.dialect === 'sqlite') {
      // SQLite compares with BINARY collation, i.e. the JavaScript string order of the lower-cased names.
      const expected = seed.repositoriesByName.slice(0, expectedLength).map((r) => r.name);
      assertSame('org-repositories (seed order)', conn.nodes.map((n) => n.name), expected);
      order = 'seed order';
    }
    const priv = conn.nodes.filter((n) => n.isPrivate).length;
    return `${conn.nodes.length} of ${conn.totalCount} rows (${priv} private), identical JSON, ${order}`;
  },
};

export const IDENTITY_WORKLOADS: Workload[] = [typename, viewer, orgRepositories];
