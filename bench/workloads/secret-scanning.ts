/**
 * Secret scanning workloads. `secret-scanning-org-alerts` is the security dashboard: the newest 100 alerts
 * of an organization (over 20k seeded) with each alert's repository, assignee and first commit location,
 * asked three ways in the same run:
 *
 *  - graphql (the gateway): organization { secretScanningAlerts(first: 100, orderBy: CREATED DESC) { ... } }
 *  - rest (the gateway's twin): GET /orgs/{org}/secret-scanning/alerts?per_page=100, GitHub's full JSON
 *  - baseline: one token/org/role statement and ONE hand-written page statement (joins for the repository
 *    and its owner, the assignee, the first location; the total as a scalar subquery), serialized straight
 *    into the GraphQL JSON shape.
 *
 * Verification: the GraphQL JSON is identical to the baseline's; the REST alerts, normalised (number,
 * state, type, created_at, repository, assignee, first location path/lines/commit), are the same alerts
 * in the same order; and both match the seed's newest alerts and alert count.
 */
import { createHash } from 'node:crypto';
import { BaselineDb, OrgAccessRow, orgAccess, sqlDate } from '../lib/baseline';
import { NEWEST_KEPT } from '../lib/seed-secret-scanning';
import { BaselineRequest, BaselineResponse, BenchEnv, BenchFailure, FetchedResponse, HttpRequestSpec, Workload } from '../lib/types';
import { assertOk, assertSame, firstDifference } from '../lib/verify';

const PAGE_SIZE = 100;
const JSON_HEADERS = { 'content-type': 'application/json', accept: 'application/json' };

// ---------------------------------------------------------------------------------------------------------
// The three requests

const DASHBOARD_QUERY = (login: string, first: number) =>
  `query OrgSecretScanningDashboard { organization(login: ${JSON.stringify(login)}) { ` +
  `secretScanningAlerts(first: ${first}, orderBy: { field: CREATED, direction: DESC }) { totalCount nodes { ` +
  `number state secretType secretTypeDisplayName createdAt repository { nameWithOwner } assignedTo { login } ` +
  `firstLocationDetected { path startLine endLine commitSha } } } } }`;

function graphqlRequest(env: BenchEnv): HttpRequestSpec {
  return {
    method: 'POST',
    path: '/graphql',
    headers: { ...JSON_HEADERS, authorization: `Bearer ${env.adminToken}` },
    body: JSON.stringify({ query: DASHBOARD_QUERY(env.seed.orgLogin, PAGE_SIZE) }),
  };
}

function restRequest(env: BenchEnv): HttpRequestSpec {
  return {
    method: 'GET',
    path: `/orgs/${encodeURIComponent(env.seed.orgLogin)}/secret-scanning/alerts?sort=created&direction=desc&per_page=${PAGE_SIZE}`,
    headers: { accept: 'application/vnd.github+json', authorization: `Bearer ${env.adminToken}` },
  };
}

function baselineRequest(env: BenchEnv): HttpRequestSpec {
  return {
    method: 'GET',
    path: `/baseline/secret-scanning/org-alerts?org=${encodeURIComponent(env.seed.orgLogin)}&first=${PAGE_SIZE}`,
    headers: { accept: 'application/json', authorization: `Bearer ${env.adminToken}` },
  };
}

// ---------------------------------------------------------------------------------------------------------
// The baseline: node:http + driver + two statements

/**
 * Token -> user, the organization by login and the user's role in it: the whole access check in one statement.
 * SQLite: the token by its index and the rest as scalar subqueries, the organization as one JSON value (SQLite plans
 * the JOIN form as a scan of the bench's one-token access_tokens table; see bench/workloads/identity.ts AUTH_SQL).
 */
const ACCESS_SQL = {
  sqlite: `SELECT t.user_id AS user_id, t.kind AS kind, t.scopes AS scopes, t.expires_at AS expires_at,
       (SELECT 1 FROM accounts u WHERE u.id = t.user_id AND u.type = 'User') AS is_user,
       (SELECT json_array(o.id, o.login, (SELECT m.role FROM memberships m WHERE m.organization_id = o.id AND m.user_id = t.user_id))
          FROM accounts o WHERE o.login_lower = ? AND o.type = 'Organization') AS org
  FROM access_tokens t WHERE t.token_hash = ? AND t.revoked_at IS NULL`,
  postgres: `SELECT u.id AS user_id, 1 AS is_user, t.kind AS kind, t.scopes AS scopes, t.expires_at AS expires_at,
       o.id AS org_id, o.login AS org_login, m.role AS role
  FROM access_tokens t
  JOIN accounts u ON u.id = t.user_id AND u.type = 'User'
  LEFT JOIN accounts o ON o.login_lower = ? AND o.type = 'Organization'
  LEFT JOIN memberships m ON m.organization_id = o.id AND m.user_id = u.id
 WHERE t.token_hash = ? AND t.revoked_at IS NULL`,
};

/**
 * The total: the sum of the kept per-repository alert totals (`secret_scanning_alert_totals`, kept exact by the
 * database's triggers, as the gateway reads it when nothing narrows the list) over the organization's repositories
 * with secret scanning on (~1,200 rows instead of 20k index entries).
 */
const TOTAL_SQL = `SELECT COALESCE(SUM(st.alerts), 0) FROM secret_scanning_alert_totals st
  WHERE st.repository_id IN (SELECT cr.id FROM repositories cr WHERE cr.owner_id = ? AND cr.secret_scanning)`;

/**
 * The page: newest first on (created_at, id) over IDX_ss_alerts_owner_created, only repositories with secret
 * scanning on (as the service), the repository and its owner, the assignee and the first location joined,
 * and the total as an uncorrelated scalar subquery (evaluated once). The total names the same alerts as the
 * page's `a.owner_id = org AND r.secret_scanning` (owner_id copies the repository owner); verification compares
 * the totals, so a broken invariant would stop the bench.
 */
const PAGE_SQL = `SELECT a.number AS number, a.state AS state, a.secret_type AS secret_type,
       a.secret_type_display_name AS secret_type_display_name, a.created_at AS created_at,
       r.name AS repo_name, ro.login AS repo_owner, u.login AS assignee,
       l.id AS location_id, l.path AS path, l.start_line AS start_line, l.end_line AS end_line, l.commit_sha AS commit_sha,
       (${TOTAL_SQL}) AS total
  FROM secret_scanning_alerts a
  JOIN repositories r ON r.id = a.repository_id
  JOIN accounts ro ON ro.id = r.owner_id
  LEFT JOIN accounts u ON u.id = a.assigned_to_id
  LEFT JOIN secret_scanning_locations l ON l.id = a.first_location_id
 WHERE a.owner_id = ? AND r.secret_scanning
 ORDER BY a.created_at DESC, a.id DESC
 LIMIT ?`;

const COUNT_SQL = `SELECT (${TOTAL_SQL}) AS total`;

interface PageRow {
  number: number;
  state: string;
  secret_type: string;
  secret_type_display_name: string;
  created_at: unknown;
  repo_name: string;
  repo_owner: string;
  assignee: string | null;
  location_id: number | null;
  path: string | null;
  start_line: number | null;
  end_line: number | null;
  commit_sha: string | null;
  total: number | string;
}

const ORG_ALERT_SCOPES = ['repo', 'security_events'];

async function orgAlertsBaseline(req: BaselineRequest, db: BaselineDb): Promise<BaselineResponse> {
  const m = /^(bearer|token)\s+(\S+)$/i.exec((req.headers.authorization ?? '').trim());
  if (!m) return { status: 401, json: { message: 'Requires authentication' } };
  const login = req.url.searchParams.get('org') ?? '';
  const first = Number(req.url.searchParams.get('first') ?? 30);
  if (!Number.isInteger(first) || first < 1 || first > 100) return { status: 400, json: { message: 'first must be 1..100' } };
  const hash = createHash('sha256').update(m[2], 'utf8').digest('hex');
  const [row] = await db.all<OrgAccessRow>('ss_access', ACCESS_SQL[db.dialect], [login.toLowerCase(), hash]);
  const v = row && orgAccess(row);
  if (!v || v.is_user == null || (v.expires_at != null && sqlDate(v.expires_at).getTime() <= Date.now())) return { status: 401, json: { message: 'Bad credentials' } };
  if (v.org_id == null) return { status: 404, json: { message: 'Not Found' } };
  const scopes = v.scopes ? (JSON.parse(v.scopes) as string[]) : [];
  // Classic tokens only (the bench's): org owners and security managers with repo or security_events.
  const allowed = v.kind === 'classic' && (v.role === 'admin' || v.role === 'security_manager') && scopes.some((s) => ORG_ALERT_SCOPES.includes(s));
  if (!allowed) return v.role ? { status: 403, json: { message: 'Forbidden' } } : { status: 404, json: { message: 'Not Found' } };
  const orgId = Number(v.org_id);
  const rows = await db.all<PageRow>('ss_org_alerts_page', PAGE_SQL, [orgId, orgId, first]);
  const total = rows.length ? Number(rows[0].total) : Number((await db.all<{ total: number | string }>('ss_org_alerts_count', COUNT_SQL, [orgId]))[0].total);
  return {
    status: 200,
    json: {
      data: {
        organization: {
          secretScanningAlerts: {
            totalCount: total,
            nodes: rows.map((r) => ({
              number: Number(r.number),
              state: r.state.toUpperCase(),
              secretType: r.secret_type,
              secretTypeDisplayName: r.secret_type_display_name,
              createdAt: sqlDate(r.created_at).toISOString(),
              repository: { nameWithOwner: `${r.repo_owner}/${r.repo_name}` },
              assignedTo: r.assignee == null ? null : { login: r.assignee },
              firstLocationDetected:
                r.location_id == null
                  ? null
                  : { path: r.path, startLine: r.start_line, endLine: r.end_line, commitSha: r.commit_sha },
            })),
          },
        },
      },
    },
  };
}

// ---------------------------------------------------------------------------------------------------------
// Verification: the three shapes, normalised to what the dashboard shows

interface DashboardNode {
  number: number;
  state: string;
  secretType: string;
  secretTypeDisplayName: string;
  createdAt: string;
  repository: { nameWithOwner: string };
  assignedTo: { login: string } | null;
  firstLocationDetected: { path: string | null; startLine: number | null; endLine: number | null; commitSha: string | null } | null;
}

interface DashboardData {
  data: { organization: { secretScanningAlerts: { totalCount: number; nodes: DashboardNode[] } } };
}

/** One alert as the dashboard shows it, whatever the shape it came in. */
interface Row {
  repository: string;
  number: number;
  state: string;
  secretType: string;
  secretTypeDisplayName: string;
  /** ISO 8601 to the second (REST's resolution) */
  createdAt: string;
  assignee: string | null;
  first: { path: string | null; startLine: number | null; endLine: number | null; commitSha: string | null } | null;
}

const toSecond = (iso: string) => new Date(iso).toISOString().replace(/\.\d{3}Z$/, 'Z');

function fromGraphql(n: DashboardNode): Row {
  return {
    repository: n.repository.nameWithOwner,
    number: n.number,
    state: n.state.toLowerCase(),
    secretType: n.secretType,
    secretTypeDisplayName: n.secretTypeDisplayName,
    createdAt: toSecond(n.createdAt),
    assignee: n.assignedTo?.login ?? null,
    first: n.firstLocationDetected
      ? { path: n.firstLocationDetected.path, startLine: n.firstLocationDetected.startLine, endLine: n.firstLocationDetected.endLine, commitSha: n.firstLocationDetected.commitSha }
      : null,
  };
}

interface RestAlert {
  number: number;
  state: string;
  secret_type: string;
  secret_type_display_name: string;
  created_at: string;
  repository?: { full_name?: string };
  assigned_to?: { login?: string } | null;
  first_location_detected?: { path?: string | null; start_line?: number | null; end_line?: number | null; commit_sha?: string | null } | null;
}

function fromRest(a: RestAlert, i: number): Row {
  if (!a || typeof a !== 'object') throw new BenchFailure(`rest: alert [${i}] is not an object`);
  for (const k of ['repository', 'assigned_to', 'first_location_detected'] as const) {
    if (!(k in a)) throw new BenchFailure(`rest: alert [${i}] has no ${k} (GitHub's JSON always carries it, null when empty)`);
  }
  const f = a.first_location_detected;
  return {
    repository: a.repository?.full_name ?? '(missing repository.full_name)',
    number: a.number,
    state: a.state,
    secretType: a.secret_type,
    secretTypeDisplayName: a.secret_type_display_name,
    createdAt: typeof a.created_at === 'string' ? toSecond(a.created_at) : String(a.created_at),
    assignee: a.assigned_to?.login ?? null,
    first: f ? { path: f.path ?? null, startLine: f.start_line ?? null, endLine: f.end_line ?? null, commitSha: f.commit_sha ?? null } : null,
  };
}

function assertSameRows(label: string, left: Row[], right: Row[]): void {
  if (left.length !== right.length) throw new BenchFailure(`${label}: ${left.length} vs ${right.length} alerts`);
  for (let i = 0; i < left.length; i++) {
    const d = firstDifference(left[i], right[i], `[${i}]`);
    if (d) throw new BenchFailure(`${label}: alert ${i} differs at ${d} (${left[i].repository}#${left[i].number} vs ${right[i].repository}#${right[i].number})`);
  }
}

function verifyOrgAlerts(gateway: FetchedResponse, baseline: FetchedResponse, env: BenchEnv, twin?: FetchedResponse): string {
  const seed = env.secretScanning;
  if (!seed) throw new BenchFailure('secret-scanning-org-alerts: the secret scanning data was not seeded');
  if (!twin) throw new BenchFailure('secret-scanning-org-alerts: the REST twin was not fetched');
  assertOk('graphql', gateway);
  assertOk('baseline', baseline);

  // 1. GraphQL and the baseline: the same JSON.
  assertSame('secret-scanning-org-alerts', gateway.json, baseline.json);
  const conn = (gateway.json as DashboardData).data?.organization?.secretScanningAlerts;
  if (!conn || !Array.isArray(conn.nodes)) throw new BenchFailure(`graphql: no alert connection in ${gateway.text.slice(0, 300)}`);
  const rows = conn.nodes.map(fromGraphql);

  // 2. They match the seed: every alert counted, the newest ones first, with their joins.
  if (conn.totalCount !== seed.visibleToOrgList) throw new BenchFailure(`graphql: totalCount ${conn.totalCount}, seeded ${seed.visibleToOrgList}`);
  const expectedLength = Math.min(PAGE_SIZE, seed.alerts);
  if (rows.length !== expectedLength) throw new BenchFailure(`graphql: ${rows.length} alerts, expected ${expectedLength}`);
  if (expectedLength > NEWEST_KEPT) throw new BenchFailure(`the seed keeps only the ${NEWEST_KEPT} newest alerts to check against`);
  const org = env.seed.orgLogin;
  const expected: Row[] = seed.newest.slice(0, expectedLength).map((a) => ({
    repository: `${org}/${a.repositoryName}`,
    number: a.number,
    state: a.state,
    secretType: a.secretType,
    secretTypeDisplayName: a.secretTypeDisplayName,
    createdAt: toSecond(a.createdAt.toISOString()),
    assignee: a.assigneeLogin,
    first: { path: a.firstLocation.path, startLine: a.firstLocation.startLine, endLine: a.firstLocation.endLine, commitSha: a.firstLocation.commitSha },
  }));
  assertSameRows('graphql vs seed', rows, expected);

  // 3. REST: the same alerts in the same order, once normalised.
  assertOk('rest', twin);
  if (!Array.isArray(twin.json)) throw new BenchFailure(`rest: expected a JSON array, got ${twin.text.slice(0, 300)}`);
  const restRows = (twin.json as RestAlert[]).map(fromRest);
  assertSameRows('rest vs graphql/baseline', restRows, rows);

  const assigned = rows.filter((r) => r.assignee).length;
  const resolved = rows.filter((r) => r.state === 'resolved').length;
  const repos = new Set(rows.map((r) => r.repository)).size;
  return (
    `${rows.length} of ${conn.totalCount} alerts newest first (${repos} repositories, ${assigned} assigned, ${resolved} resolved): ` +
    `graphql JSON = baseline JSON; rest (GitHub shape, ${Math.round(twin.text.length / 1024)} KB) has the same alerts, order, ` +
    `repositories, assignees and first locations; all match the seed`
  );
}

// ---------------------------------------------------------------------------------------------------------
// PostGraphile (BENCH_POSTGRAPHILE=1): the same page in its schema shape

/**
 * The organization by its unique `login_lower`, its alerts through the `owner_id` foreign key, newest first, with
 * `totalCount` (PostGraphile counts the organization's alerts), the repository and its owner, the assignee and the
 * first location through foreign keys (the last two declared by smart tags). PostGraphile cannot say "only
 * repositories with secret scanning on" without a filter plugin; every seeded alert is on such a repository, and
 * verification compares the rows and the total with the gateway's, so a difference would stop the bench.
 */
const PGL_DASHBOARD_QUERY = (login: string, first: number) =>
  `query OrgSecretScanningDashboard { accountByLoginLower(loginLower: ${JSON.stringify(login.toLowerCase())}) { ` +
  `secretScanningAlertsByOwnerId(first: ${first}, orderBy: [CREATED_AT_DESC, ROW_ID_DESC]) { totalCount nodes { ` +
  `number state secretType secretTypeDisplayName createdAt repositoryByRepositoryId { name accountByOwnerId { login } } ` +
  `accountByAssignedToId { login } secretScanningLocationByFirstLocationId { path startLine endLine commitSha } } } } }`;

function postgraphileRequest(env: BenchEnv, withToken: boolean): HttpRequestSpec {
  return {
    method: 'POST',
    path: '/graphql',
    headers: { ...JSON_HEADERS, ...(withToken ? { authorization: `Bearer ${env.adminToken}` } : {}) },
    body: JSON.stringify({ query: PGL_DASHBOARD_QUERY(env.seed.orgLogin, PAGE_SIZE) }),
  };
}

interface PglAlert {
  number: number;
  state: string;
  secretType: string;
  secretTypeDisplayName: string;
  /** PostgreSQL `timestamp` (UTC, no zone) as PostGraphile writes it */
  createdAt: string;
  repositoryByRepositoryId: { name: string; accountByOwnerId: { login: string } };
  accountByAssignedToId: { login: string } | null;
  secretScanningLocationByFirstLocationId: { path: string | null; startLine: number | null; endLine: number | null; commitSha: string | null } | null;
}

function verifyPglOrgAlerts(peer: FetchedResponse, gateway: FetchedResponse): string {
  assertOk('postgraphile', peer);
  const conn = (peer.json as { data?: { accountByLoginLower?: { secretScanningAlertsByOwnerId?: { totalCount: number; nodes: PglAlert[] } } } }).data
    ?.accountByLoginLower?.secretScanningAlertsByOwnerId;
  if (!conn || !Array.isArray(conn.nodes)) throw new BenchFailure(`postgraphile: no alert connection in ${peer.text.slice(0, 300)}`);
  const ours = (gateway.json as DashboardData).data.organization.secretScanningAlerts;
  if (conn.totalCount !== ours.totalCount) throw new BenchFailure(`postgraphile: totalCount ${conn.totalCount}, gateway ${ours.totalCount}`);
  const rows = conn.nodes.map(
    (n): Row => ({
      repository: `${n.repositoryByRepositoryId.accountByOwnerId.login}/${n.repositoryByRepositoryId.name}`,
      number: n.number,
      state: n.state,
      secretType: n.secretType,
      secretTypeDisplayName: n.secretTypeDisplayName,
      createdAt: toSecond(/[zZ]|[+-]\d\d:?\d\d$/.test(n.createdAt) ? n.createdAt : `${n.createdAt}Z`),
      assignee: n.accountByAssignedToId?.login ?? null,
      first: n.secretScanningLocationByFirstLocationId,
    }),
  );
  assertSameRows('postgraphile vs gateway', rows, ours.nodes.map(fromGraphql));
  return `${rows.length} of ${conn.totalCount} alerts, the gateway's alerts in the gateway's order`;
}

const orgAlerts: Workload = {
  name: 'secret-scanning-org-alerts',
  description:
    `Security dashboard: an org admin lists the ${PAGE_SIZE} newest secret scanning alerts of the organization with totalCount, ` +
    `repository, assignee and first commit location (GraphQL, and its REST twin GET /orgs/{org}/secret-scanning/alerts)`,
  needs: ['secretScanning'],
  gatewayLabel: 'graphql',
  gateway: graphqlRequest,
  twin: { label: 'rest', request: restRequest },
  baseline: { request: baselineRequest, handler: orgAlertsBaseline },
  postgraphile: { request: postgraphileRequest, verify: verifyPglOrgAlerts },
  verify: verifyOrgAlerts,
};

export const SECRET_SCANNING_WORKLOADS: Workload[] = [orgAlerts];
