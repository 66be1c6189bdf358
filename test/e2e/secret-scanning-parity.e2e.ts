/**
 * REST <-> GraphQL parity of secret scanning: for one shared fixture, each GitHub-compatible REST endpoint
 * and its GraphQL twin answer the same data, and the same bad input gets the same error class.
 *
 *   1 GET   /orgs/{org}/secret-scanning/alerts                    organization.secretScanningAlerts
 *   2 GET   /repos/{o}/{r}/secret-scanning/alerts                 repository.secretScanningAlerts
 *   3 GET   /repos/{o}/{r}/secret-scanning/alerts/{n}             repository.secretScanningAlert(number)
 *   4 PATCH /repos/{o}/{r}/secret-scanning/alerts/{n}             updateSecretScanningAlert
 *   5 GET   /repos/{o}/{r}/secret-scanning/alerts/{n}/locations   secretScanningAlert.locations
 *   6 POST  /repos/{o}/{r}/secret-scanning/push-protection-bypasses  createPushProtectionBypass
 *   7 GET   /repos/{o}/{r}/secret-scanning/scan-history           repository.secretScanningScanHistory
 *
 * Each shape has one normaliser per transport into a common form (GitHub's snake_case names, lowercase
 * enum values, timestamps at second precision: GraphQL's DateTimeISO carries milliseconds, GitHub's JSON
 * does not), and the two forms are compared with toEqual.
 *
 * Fixture (organization `parity`):
 *   parity/api    private, scanning + push protection + advanced security: 24 alerts of 6 secret types /
 *                 providers, open and resolved (4 resolutions, comments), 3 validities, 2 assignees, push
 *                 protection bypasses, base64 flags, 1-14 locations (alert 1 has all 13 location types)
 *   parity/web    private: 10 alerts, #1-#3 share their secret with api #2-#4 (multi_repo on both sides)
 *   parity/site   public: 6 alerts (publicly_leaked)
 *   parity/off    secret scanning disabled (1 alert that no list shows)
 *   parity/triage private: alerts created by the update tests (endpoint 4)
 *   parity/dad    private, delegated alert dismissal (the 403 rule of endpoint 4)
 *   parity-wiki/notes  one alert first found in a wiki commit (first_location_detected of that form)
 * Runs on SQLite, and on PostgreSQL when DATABASE_URL is set.
 */
import { DocumentNode, print } from 'graphql';
import { AccountEntity, RepositoryEntity } from '../../entities/identity';
import { parseLinkHeader } from '../../src/rest/github/link';
import type { Finding } from '../../src/services/secret-scanning/alert-types';
import {
  CreatePushProtectionBypassDocument,
  CreatePushProtectionBypassInput,
  OrganizationSecretScanningAlertsParityDocument,
  RepositorySecretScanningAlertsParityDocument,
  SecretScanningAlertFilter,
  SecretScanningAlertLocationsDocument,
  SecretScanningAlertLocationsQuery,
  SecretScanningAlertOrder,
  SecretScanningAlertParityDocument,
  SecretScanningAlertParityFieldsFragment,
  SecretScanningScanHistoryDocument,
  SecretScanningScanHistoryQuery,
  SubmitPushDocument,
  UpdateSecretScanningAlertInput,
  UpdateSecretScanningAlertParityDocument,
} from '../__generated__/graphql';
import { IdentityFixtures } from '../fixtures/identity';
import { SecretScanningFixtures } from '../fixtures/secret-scanning';
import { gql, gqlDoc, startTestApp, TestApp } from '../helpers/app';
import { expectParity } from '../helpers/parity';
import { restClient } from '../helpers/rest-client';
import { commitSha, fakeSecrets, fileOf, randomChars } from '../fixtures/fake-secrets';

type Json = Record<string, any>;
type GqlAlert = SecretScanningAlertParityFieldsFragment;
type GqlUser = { id: string; databaseId: number; login: string } | null;
type GqlLocationConnection = NonNullable<NonNullable<SecretScanningAlertLocationsQuery['repository']>['secretScanningAlert']>['locations'];
type GqlLocation = GqlLocationConnection['edges'][number]['node'];
type GqlScanHistory = NonNullable<NonNullable<SecretScanningScanHistoryQuery['repository']>['secretScanningScanHistory']>;

// ---------------------------------------------------------------------------------------------------------
// Normalisers: one per shape and transport, into GitHub's names and values.

/** GraphQL DateTimeISO (milliseconds) -> GitHub's ISO 8601 without milliseconds. */
const seconds = (s: string | null | undefined): string | null => (s == null ? null : new Date(s).toISOString().replace(/\.\d{3}Z$/, 'Z'));
const lower = (s: string | null | undefined): string | null => (s == null ? null : s.toLowerCase());
const snake = (k: string) => k.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
/** SecretScanningIssueTitleLocation -> issue_title */
const typeOfTypename = (n: string) => snake(n.replace(/^SecretScanning/, '').replace(/Location$/, '')).replace(/^_/, '');

const restUser = (u: Json | null) => (u ? { login: u.login, id: u.id, node_id: u.node_id } : null);
const gqlUser = (u: GqlUser) => (u ? { login: u.login, id: u.databaseId, node_id: u.id } : null);

const restRepository = (r: Json) => ({ id: r.id, node_id: r.node_id, name: r.name, full_name: r.full_name, private: r.private, owner: r.owner.login });
const gqlRepository = (r: GqlAlert['repository']) => ({
  id: r.databaseId,
  node_id: r.id,
  name: r.name,
  full_name: r.nameWithOwner,
  private: r.isPrivate,
  owner: r.owner.login,
});

/**
 * first_location_detected. REST answers the details object of the first location's own type (commit:
 * blob_url; wiki_commit: page_url); GraphQL's type is the commit form only. The common form keeps every
 * field both can carry, and blob_url only when there is one (REST has none for a wiki commit).
 */
function restFirstLocation(d: Json | null) {
  if (!d) return null;
  const { path, start_line, end_line, start_column, end_column, blob_sha, commit_sha, commit_url } = d;
  return { path, start_line, end_line, start_column, end_column, blob_sha, commit_sha, commit_url, ...(d.blob_url != null ? { blob_url: d.blob_url } : {}) };
}
function gqlFirstLocation(d: GqlAlert['firstLocationDetected']) {
  if (!d) return null;
  return {
    path: d.path,
    start_line: d.startLine,
    end_line: d.endLine,
    start_column: d.startColumn,
    end_column: d.endColumn,
    blob_sha: d.blobSha,
    commit_sha: d.commitSha,
    commit_url: d.commitUrl,
    ...(d.blobUrl != null ? { blob_url: d.blobUrl } : {}),
  };
}

/** An alert of any REST variant (repository list, organization list with `repository`, single with `metadata`). */
function restAlert(a: Json) {
  return {
    number: a.number,
    created_at: a.created_at,
    updated_at: a.updated_at,
    url: a.url,
    html_url: a.html_url,
    locations_url: a.locations_url,
    state: a.state,
    resolution: a.resolution,
    resolved_at: a.resolved_at,
    resolved_by: restUser(a.resolved_by),
    resolution_comment: a.resolution_comment,
    secret_type: a.secret_type,
    secret_type_display_name: a.secret_type_display_name,
    provider: a.provider,
    provider_slug: a.provider_slug,
    secret: a.secret,
    push_protection_bypassed: a.push_protection_bypassed,
    push_protection_bypassed_by: restUser(a.push_protection_bypassed_by),
    push_protection_bypassed_at: a.push_protection_bypassed_at,
    validity: a.validity,
    publicly_leaked: a.publicly_leaked,
    multi_repo: a.multi_repo,
    is_base64_encoded: a.is_base64_encoded,
    first_location_detected: restFirstLocation(a.first_location_detected),
    has_more_locations: a.has_more_locations,
    assigned_to: restUser(a.assigned_to),
    ...(a.repository ? { repository: restRepository(a.repository) } : {}),
  };
}

function gqlAlert(a: GqlAlert, opts: { withRepository: boolean }) {
  return {
    number: a.number,
    created_at: seconds(a.createdAt),
    updated_at: seconds(a.updatedAt),
    url: a.url,
    html_url: a.htmlUrl,
    locations_url: a.locationsUrl,
    state: lower(a.state),
    resolution: lower(a.resolution),
    resolved_at: seconds(a.resolvedAt),
    resolved_by: gqlUser(a.resolvedBy),
    resolution_comment: a.resolutionComment,
    secret_type: a.secretType,
    secret_type_display_name: a.secretTypeDisplayName,
    provider: a.provider,
    provider_slug: a.providerSlug,
    secret: a.secret,
    push_protection_bypassed: a.pushProtectionBypassed,
    push_protection_bypassed_by: gqlUser(a.pushProtectionBypassedBy),
    push_protection_bypassed_at: seconds(a.pushProtectionBypassedAt),
    validity: lower(a.validity),
    publicly_leaked: a.publiclyLeaked,
    multi_repo: a.multiRepo,
    is_base64_encoded: a.isBase64Encoded,
    first_location_detected: gqlFirstLocation(a.firstLocationDetected),
    has_more_locations: a.hasMoreLocations,
    assigned_to: gqlUser(a.assignedTo),
    ...(opts.withRepository ? { repository: gqlRepository(a.repository) } : {}),
  };
}

const restLocation = (l: Json) => ({ type: l.type, details: { ...l.details } });
function gqlLocation(l: GqlLocation) {
  const { __typename, ...fields } = l.details as Json;
  return {
    type: lower(l.type),
    // the union member must be the one the type names (commit -> SecretScanningCommitLocation, ...)
    details_type: typeOfTypename(__typename),
    details: Object.fromEntries(Object.entries(fields).map(([k, v]) => [snake(k), v])),
  };
}

const SCAN_LISTS = [
  ['incremental_scans', 'incrementalScans', 'incremental'],
  ['backfill_scans', 'backfillScans', 'backfill'],
  ['pattern_update_scans', 'patternUpdateScans', 'pattern_update'],
  ['custom_pattern_backfill_scans', 'customPatternBackfillScans', 'custom_pattern_backfill'],
  ['generic_secrets_backfill_scans', 'genericSecretsBackfillScans', 'generic_secrets_backfill'],
] as const;

/** REST leaves started_at out of incremental entries and pattern_* out of non-custom ones: absent = null. */
function restScanHistory(h: Json) {
  return Object.fromEntries(
    SCAN_LISTS.map(([rest, , kind]) => [
      rest,
      (h[rest] as Json[]).map((s) => ({
        kind,
        type: s.type,
        status: s.status,
        started_at: 'started_at' in s ? s.started_at : null,
        completed_at: s.completed_at,
        pattern_slug: s.pattern_slug ?? null,
        pattern_scope: s.pattern_scope ?? null,
      })),
    ]),
  );
}
function gqlScanHistory(h: GqlScanHistory) {
  return Object.fromEntries(
    SCAN_LISTS.map(([rest, graph]) => [
      rest,
      h[graph].map((s) => ({
        kind: lower(s.kind),
        type: s.type,
        status: lower(s.status),
        started_at: seconds(s.startedAt),
        completed_at: seconds(s.completedAt),
        pattern_slug: s.patternSlug,
        pattern_scope: s.patternScope,
      })),
    ]),
  );
}

const restBypass = (b: Json) => ({ reason: b.reason, expire_at: b.expire_at, token_type: b.token_type });
const gqlBypass = (b: { reason: string; expireAt: string; tokenType: string }) => ({ reason: lower(b.reason), expire_at: seconds(b.expireAt), token_type: b.tokenType });

/** Error classes: REST status -> the GraphQL extensions.code of the same class. */
function restClass(status: number): string {
  if (status >= 200 && status < 300) return 'OK';
  return ({ 400: 'BAD_USER_INPUT', 422: 'BAD_USER_INPUT', 401: 'UNAUTHENTICATED', 403: 'FORBIDDEN', 404: 'NOT_FOUND' } as Record<number, string>)[status] ?? `HTTP ${status}`;
}
function gqlClass(r: { body: { data?: unknown; errors?: Array<{ extensions?: Record<string, unknown> }> } }, pick: (d: any) => unknown): string {
  const value = r.body.data ? pick(r.body.data) : null;
  if (!r.body.errors?.length) return value == null ? 'OK but null' : 'OK';
  const code = String(r.body.errors[0].extensions?.code);
  return value == null ? code : `${code} (with data)`;
}

/** REST update body -> the same update as GraphQL input (absent stays absent, null stays null). */
function toGraphqlUpdate(repository: string, number: number, body: Record<string, unknown>): UpdateSecretScanningAlertInput {
  const input: Record<string, unknown> = { repository, number };
  const upper = (v: unknown) => (typeof v === 'string' ? v.toUpperCase() : v);
  if ('state' in body) input.state = upper(body.state);
  if ('resolution' in body) input.resolution = upper(body.resolution);
  if ('resolution_comment' in body) input.resolutionComment = body.resolution_comment;
  if ('assignee' in body) input.assignee = body.assignee;
  if ('validity' in body) input.validity = upper(body.validity);
  return input as unknown as UpdateSecretScanningAlertInput;
}

// ---------------------------------------------------------------------------------------------------------

describe('secret scanning: REST and GraphQL answer the same', () => {
  let t: TestApp;
  let f: IdentityFixtures;
  let ss: SecretScanningFixtures;
  const users: Record<string, AccountEntity> = {};
  const tokens: Record<string, string> = {};
  const repos: Record<string, RepositoryEntity> = {};
  const alertNumbers: Record<string, number[]> = {};

  beforeAll(async () => {
    t = await startTestApp();
    f = new IdentityFixtures(t.db.dataSource);
    ss = new SecretScanningFixtures(t.db.dataSource);
    const org = await f.org('parity');
    for (const who of ['admin', 'sec', 'writer', 'reader', 'dev', 'repoadmin', 'stranger']) users[who] = await f.user(`parity-${who}`);
    await f.member(org, users.admin, 'admin');
    await f.member(org, users.sec, 'security_manager');
    await f.member(org, users.writer, 'member');
    const mk = (name: string, o: Record<string, boolean>) => f.services.identity.createRepository(t.db.dataSource.manager, { owner: 'parity', name, ...o });
    repos.api = await mk('api', { private: true, secretScanning: true, pushProtection: true, advancedSecurity: true });
    repos.web = await mk('web', { private: true, secretScanning: true });
    repos.site = await mk('site', { private: false, secretScanning: true });
    repos.off = await mk('off', { private: true, secretScanning: false });
    repos.triage = await mk('triage', { private: true, secretScanning: true });
    repos.dad = await mk('dad', { private: true, secretScanning: true, delegatedAlertDismissal: true });
    for (const r of ['api', 'triage']) {
      await f.grant(repos[r], org, users.writer, 'write');
      await f.grant(repos[r], org, users.dev, 'write');
      await f.grant(repos[r], org, users.reader, 'read');
    }
    await f.grant(repos.dad, org, users.repoadmin, 'admin');
    for (const who of Object.keys(users)) tokens[who] = await f.classicToken(users[who], ['repo']);

    const api = await ss.alerts(repos.api, 24, {
      assignees: [users.writer, users.admin],
      resolver: users.admin,
      bypasser: users.dev,
      allLocationTypesAt: 0,
      start: new Date('2026-01-05T08:00:00Z'),
    });
    const shared = api.slice(1, 4).map((a) => ({ secretType: a.secretType, providerSlug: a.providerSlug, secret: a.secret, line: `KEY=${a.secret}`, column: 5 }));
    const web = await ss.alerts(repos.web, 10, { secrets: shared, assignees: [users.admin], resolver: users.sec, start: new Date('2026-01-04T08:00:30Z') });
    const site = await ss.alerts(repos.site, 6, { bypasser: users.writer, start: new Date('2026-01-03T08:00:45Z') });
    await ss.alerts(repos.off, 1);
    await ss.alerts(repos.dad, 1, { start: new Date('2026-01-02T00:00:00Z') });
    alertNumbers.api = api.map((a) => a.number);
    alertNumbers.web = web.map((a) => a.number);
    alertNumbers.site = site.map((a) => a.number);
    await ss.scanHistory(repos.api);
  }, 120_000);
  afterAll(() => t.close());

  // ------------------------------------------------------------------------------------------------ transports

  function rest(method: string, path: string, token: string | null = tokens.admin, body?: unknown): Promise<{ status: number; body: any; link: string | null }> {
    return restClient(t.url, token).request(method, path, body);
  }

  /** Every page of a REST list (per_page=25, following rel="next": the 41 alerts take two pages). */
  async function restAll(path: string, query: Record<string, string> = {}, token = tokens.admin): Promise<Json[]> {
    const qs = new URLSearchParams({ ...query, per_page: '25' }).toString();
    let url: string | undefined = `${path}?${qs}`;
    const out: Json[] = [];
    while (url) {
      const r = await rest('GET', url, token);
      expect(r.status).toBe(200);
      out.push(...r.body);
      const next = parseLinkHeader(r.link).next;
      url = next ? next.slice(t.url.length) : undefined;
    }
    return out;
  }

  /** Every page of a GraphQL alert connection (first: 25, following endCursor). */
  async function gqlAllAlerts(
    where: { org: string } | { owner: string; name: string },
    vars: { filter?: SecretScanningAlertFilter; orderBy?: SecretScanningAlertOrder } = {},
    token = tokens.admin,
  ): Promise<{ nodes: GqlAlert[]; totalCount: number }> {
    const nodes: GqlAlert[] = [];
    let after: string | null = null;
    let totalCount = -1;
    for (;;) {
      const r: Awaited<ReturnType<typeof gqlDoc>> =
        'org' in where
          ? await gqlDoc(t.url, OrganizationSecretScanningAlertsParityDocument, { login: where.org, ...vars, first: 25, after }, token)
          : await gqlDoc(t.url, RepositorySecretScanningAlertsParityDocument, { ...where, ...vars, first: 25, after }, token);
      expect(r.body.errors).toBeUndefined();
      const data = r.body.data as any;
      const conn = 'org' in where ? data.organization.secretScanningAlerts : data.repository.secretScanningAlerts;
      nodes.push(...conn.nodes);
      totalCount = conn.totalCount;
      if (!conn.pageInfo.hasNextPage) break;
      after = conn.pageInfo.endCursor;
    }
    return { nodes, totalCount };
  }

  async function gqlAllLocations(owner: string, name: string, number: number, pageSize = 100, token = tokens.admin): Promise<GqlLocation[]> {
    const out: GqlLocation[] = [];
    let after: string | null = null;
    for (;;) {
      const r = await gqlDoc(t.url, SecretScanningAlertLocationsDocument, { owner, name, number, first: pageSize, after: after as string | null }, token);
      expect(r.body.errors).toBeUndefined();
      const conn: GqlLocationConnection = r.body.data!.repository!.secretScanningAlert!.locations;
      out.push(...conn.edges.map((e) => e.node));
      if (!conn.pageInfo.hasNextPage) break;
      after = conn.pageInfo.endCursor;
    }
    return out;
  }

  async function restLocations(owner: string, name: string, number: number, perPage = 100): Promise<Json[]> {
    const out: Json[] = [];
    for (let page = 1; ; page++) {
      const r = await rest('GET', `/repos/${owner}/${name}/secret-scanning/alerts/${number}/locations?per_page=${perPage}&page=${page}`);
      expect(r.status).toBe(200);
      out.push(...r.body);
      if (!parseLinkHeader(r.link).next) return out;
    }
  }

  async function gqlOne(owner: string, name: string, number: number, token = tokens.admin) {
    const r = await gqlDoc(t.url, SecretScanningAlertParityDocument, { owner, name, number }, token);
    expect(r.body.errors).toBeUndefined();
    return gqlAlert(r.body.data!.repository!.secretScanningAlert!, { withRepository: false });
  }
  async function restOne(owner: string, name: string, number: number, token = tokens.admin) {
    const r = await rest('GET', `/repos/${owner}/${name}/secret-scanning/alerts/${number}`, token);
    expect(r.status).toBe(200);
    expect(r.body.metadata).toEqual([]); // the only field of the single variant GraphQL has no twin for
    return restAlert(r.body);
  }

  /** A new open alert in `repo` (one commit location), recorded the way a push records it. */
  async function freshAlert(repo: RepositoryEntity, location?: Finding['location']): Promise<number> {
    const fake = fakeSecrets.githubPat();
    const finding: Finding = {
      secretType: fake.secretType,
      secretTypeDisplayName: 'GitHub Personal Access Token',
      provider: 'GitHub',
      providerSlug: fake.providerSlug,
      secret: fake.secret,
      location: location ?? {
        type: 'commit',
        path: 'config/app.env',
        startLine: 2,
        endLine: 2,
        startColumn: fake.column,
        endColumn: fake.column + fake.secret.length - 1,
        blobSha: randomChars(40, '0123456789abcdef'),
        commitSha: commitSha(),
      },
    };
    const { alert } = await t.db.dataSource.transaction((m) => f.services.secretScanningFindings.recordFinding(m, repo, finding, new Date('2026-01-06T00:00:00.456Z')));
    return alert.number;
  }

  // ------------------------------------------------------------------------------------------------ 1 and 2

  /** [name, REST query, GraphQL filter, GraphQL orderBy, the lists (organization, parity/api) where the row expects no alert] */
  const LIST_CASES: Array<[string, Record<string, string>, SecretScanningAlertFilter | undefined, SecretScanningAlertOrder | undefined, Array<'org' | 'api'>?]> = [
    ['no filter (newest first)', {}, undefined, undefined],
    ['state=open', { state: 'open' }, { state: 'OPEN' }, undefined],
    ['state=resolved', { state: 'resolved' }, { state: 'RESOLVED' }, undefined],
    ['secret_type', { secret_type: 'github_personal_access_token,slack_api_token' }, { secretTypes: ['github_personal_access_token', 'slack_api_token'] }, undefined],
    ['exclude_secret_types', { exclude_secret_types: 'github_personal_access_token' }, { excludeSecretTypes: ['github_personal_access_token'] }, undefined],
    ['providers', { providers: 'amazon_aws,stripe' }, { providers: ['amazon_aws', 'stripe'] }, undefined],
    ['exclude_providers', { exclude_providers: 'github,amazon_aws' }, { excludeProviders: ['github', 'amazon_aws'] }, undefined],
    ['resolution', { resolution: 'wont_fix,revoked' }, { resolutions: ['WONT_FIX', 'REVOKED'] }, undefined],
    ['validity', { validity: 'active,inactive' }, { validities: ['ACTIVE', 'INACTIVE'] }, undefined],
    ['assignee login (case-insensitive)', { assignee: 'PARITY-Writer' }, { assignee: 'PARITY-Writer' }, undefined],
    ['assignee=*', { assignee: '*' }, { assignee: '*' }, undefined],
    ['assignee=none', { assignee: 'none' }, { assignee: 'none' }, undefined],
    ['is_bypassed=true', { is_bypassed: 'true' }, { isBypassed: true }, undefined],
    ['is_bypassed=false', { is_bypassed: 'false' }, { isBypassed: false }, undefined],
    ['is_multi_repo=true', { is_multi_repo: 'true' }, { isMultiRepo: true }, undefined],
    // parity/api is private and shares no secret with parity/site: none of its alerts is publicly leaked
    ['is_publicly_leaked=true', { is_publicly_leaked: 'true' }, { isPubliclyLeaked: true }, undefined, ['api']],
    ['sort=updated&direction=asc', { sort: 'updated', direction: 'asc' }, undefined, { field: 'UPDATED', direction: 'ASC' }],
    ['sort=updated (desc)', { sort: 'updated' }, undefined, { field: 'UPDATED', direction: 'DESC' }],
    ['sort=created&direction=asc', { sort: 'created', direction: 'asc' }, undefined, { field: 'CREATED', direction: 'ASC' }],
    [
      'state=open & providers=github & sort=updated&direction=asc',
      { state: 'open', providers: 'github', sort: 'updated', direction: 'asc' },
      { state: 'OPEN', providers: ['github'] },
      { field: 'UPDATED', direction: 'ASC' },
    ],
    [
      'assignee=parity-admin & state=resolved & validity=unknown,active',
      { assignee: 'parity-admin', state: 'resolved', validity: 'unknown,active' },
      { assignee: 'parity-admin', state: 'RESOLVED', validities: ['UNKNOWN', 'ACTIVE'] },
      undefined,
      ['org', 'api'], // no resolved alert assigned to parity-admin has validity unknown or active
    ],
    ['assignee unknown login (nothing matches)', { assignee: 'nobody-at-all' }, { assignee: 'nobody-at-all' }, undefined, ['org', 'api']],
  ];

  describe('1 GET /orgs/{org}/secret-scanning/alerts <-> organization.secretScanningAlerts', () => {
    // (a rest parameter: Jest reads a callback with more parameters than the row has as taking `done`)
    it.each(LIST_CASES)('%s: same alerts, same order, same fields', async (...[, query, filter, orderBy, emptyIn]) => {
      let totalCount = -1;
      const restList = await expectParity({
        rest: () => restAll('/orgs/parity/secret-scanning/alerts', query),
        graphql: () => gqlAllAlerts({ org: 'parity' }, { filter, orderBy }),
        normalize: {
          rest: (list) => list.map(restAlert),
          graphql: (conn) => ((totalCount = conn.totalCount), conn.nodes.map((n) => gqlAlert(n, { withRepository: true }))),
        },
        expect: emptyIn?.includes('org') ? 'empty' : 'non-empty',
      });
      expect(totalCount).toBe(restList.length);
    });

    it('the unfiltered list covers every repository with secret scanning, the multi_repo and publicly_leaked tags', async () => {
      const all = (await restAll('/orgs/parity/secret-scanning/alerts')).map(restAlert);
      expect(new Set(all.map((a) => a.repository!.full_name))).toEqual(new Set(['parity/api', 'parity/web', 'parity/site', 'parity/dad']));
      expect(all.filter((a) => a.multi_repo).map((a) => `${a.repository!.name}#${a.number}`).sort()).toEqual(['api#2', 'api#3', 'api#4', 'web#1', 'web#2', 'web#3']);
      expect(all.filter((a) => a.publicly_leaked).every((a) => a.repository!.name === 'site')).toBe(true);
      expect(all.filter((a) => a.push_protection_bypassed).length).toBeGreaterThan(1);
      expect(new Set(all.map((a) => a.resolution))).toEqual(new Set([null, 'false_positive', 'wont_fix', 'revoked', 'used_in_tests']));
      expect(new Set(all.map((a) => a.validity))).toEqual(new Set(['unknown', 'active', 'inactive']));
    });
  });

  describe('2 GET /repos/{owner}/{repo}/secret-scanning/alerts <-> repository.secretScanningAlerts', () => {
    it.each(LIST_CASES)('parity/api, %s: same alerts, same order, same fields', async (...[, query, filter, orderBy, emptyIn]) => {
      let totalCount = -1;
      const restList = await expectParity({
        rest: () => restAll('/repos/parity/api/secret-scanning/alerts', query),
        graphql: () => gqlAllAlerts({ owner: 'parity', name: 'api' }, { filter, orderBy }),
        normalize: {
          rest: (list) => list.map(restAlert),
          graphql: (conn) => ((totalCount = conn.totalCount), conn.nodes.map((n) => gqlAlert(n, { withRepository: false }))),
        },
        expect: emptyIn?.includes('api') ? 'empty' : 'non-empty',
      });
      expect(totalCount).toBe(restList.length);
    });

    it.each(['web', 'site'])('parity/%s, newest first and sort=updated&direction=asc', async (name) => {
      for (const [query, orderBy] of [
        [{}, undefined],
        [{ sort: 'updated', direction: 'asc' }, { field: 'UPDATED', direction: 'ASC' }],
      ] as const) {
        const restList = (await restAll(`/repos/parity/${name}/secret-scanning/alerts`, query)).map(restAlert);
        expect(restList).toHaveLength(alertNumbers[name].length);
        const { nodes } = await gqlAllAlerts({ owner: 'parity', name }, { orderBy: orderBy as SecretScanningAlertOrder | undefined });
        expect(nodes.map((n) => gqlAlert(n, { withRepository: false }))).toEqual(restList);
      }
    });

    it('pages line up: REST page n of 7 holds GraphQL page n of first: 7', async () => {
      const restPages: number[][] = [];
      for (let page = 1; page <= 4; page++) {
        const r = await rest('GET', `/repos/parity/api/secret-scanning/alerts?per_page=7&page=${page}&sort=updated`);
        restPages.push(r.body.map((a: Json) => a.number));
      }
      const gqlPages: number[][] = [];
      let after: string | null = null;
      for (let page = 1; page <= 4; page++) {
        const r = await gqlDoc(t.url, RepositorySecretScanningAlertsParityDocument, { owner: 'parity', name: 'api', first: 7, after: after as string | null, orderBy: { field: 'UPDATED' } }, tokens.admin);
        const conn: { nodes: GqlAlert[]; pageInfo: { endCursor: string | null } } = r.body.data!.repository!.secretScanningAlerts;
        gqlPages.push(conn.nodes.map((n) => n.number));
        after = conn.pageInfo.endCursor;
      }
      expect(gqlPages).toEqual(restPages);
      expect(restPages.map((p) => p.length)).toEqual([7, 7, 7, 3]);
    });
  });

  // ------------------------------------------------------------------------------------------------ 3

  describe('3 GET .../alerts/{alert_number} <-> repository.secretScanningAlert(number)', () => {
    it.each(['api', 'web', 'site'])('every alert of parity/%s has the same fields', async (name) => {
      expect(alertNumbers[name].length).toBeGreaterThan(0);
      for (const n of alertNumbers[name]) {
        await expectParity({ rest: () => restOne('parity', name, n), graphql: () => gqlOne('parity', name, n), normalize: { rest: (r) => r, graphql: (g) => g } });
      }
    });

    // REST lets a security_events token without `repo` read alerts (alerts service checkRepository); GraphQL's
    // Query.repository (identity service getRepository: repository.read only) answers NOT_FOUND before the
    // alert is reached. The authorization matrix's GraphQL twins show the same for endpoints 2, 3, 5 and 7.
    it('as seen by a security manager (classic security_events token): the same alert', async () => {
      const sec = await f.classicToken(users.sec, ['security_events']);
      const [r, g] = await Promise.all([rest('GET', '/repos/parity/api/secret-scanning/alerts/1', sec), gqlDoc(t.url, SecretScanningAlertParityDocument, { owner: 'parity', name: 'api', number: 1 }, sec)]);
      expect(r.status).toBe(200);
      // GraphQL must answer the alert REST answers (not NOT_FOUND at `repository`)
      expect(g.body.errors).toBeUndefined();
      expect(gqlAlert(g.body.data!.repository!.secretScanningAlert!, { withRepository: false })).toEqual(restAlert(r.body));
    });

    // REST presents a wiki first location in its own form (page_url, wiki _compare commit_url); GraphQL's
    // firstLocationDetected always builds the commit form, with git blob / commit API URLs a wiki commit has not.
    it('an alert first found in a wiki commit: first_location_detected agrees (commit_url, no git blob URL)', async () => {
      const org = await f.org('parity-wiki');
      await f.member(org, users.admin, 'admin');
      const notes = await f.repo(org, { name: 'notes', private: true, secretScanning: true });
      const sha = commitSha();
      const number = await freshAlert(notes, { type: 'wiki_commit', path: 'Setup.md', startLine: 4, endLine: 4, startColumn: 7, endColumn: 46, blobSha: 'b'.repeat(40), commitSha: sha });
      const r = await restOne('parity-wiki', 'notes', number);
      expect(r.first_location_detected).toEqual({
        path: 'Setup.md',
        start_line: 4,
        end_line: 4,
        start_column: 7,
        end_column: 46,
        blob_sha: 'b'.repeat(40),
        commit_sha: sha,
        commit_url: `${t.url}/parity-wiki/notes/wiki/_compare/${sha}`,
      });
      expect(await gqlOne('parity-wiki', 'notes', number)).toEqual(r);
    });

    it('an alert found only outside commits: first_location_detected is null on both sides', async () => {
      const number = await freshAlert(repos.triage, { type: 'issue_comment', url: 'https://gw.example.test/repos/parity/triage/issues/comments/7' });
      const r = await restOne('parity', 'triage', number);
      expect(r).toMatchObject({ first_location_detected: null, has_more_locations: false });
      expect(await gqlOne('parity', 'triage', number)).toEqual(r);
    });

    it('URLs come from PUBLIC_URL (path prefix included) on both sides', async () => {
      const saved = t.app.config.publicUrl;
      t.app.config.publicUrl = 'https://gw.example.test/api/v3';
      try {
        const [r, g] = await Promise.all([restOne('parity', 'api', 1), gqlOne('parity', 'api', 1)]);
        expect(r.url).toBe('https://gw.example.test/api/v3/repos/parity/api/secret-scanning/alerts/1');
        expect(g).toEqual(r);
      } finally {
        t.app.config.publicUrl = saved;
      }
    });
  });

  // ------------------------------------------------------------------------------------------------ 5

  describe('5 GET .../alerts/{alert_number}/locations <-> secretScanningAlert.locations', () => {
    const ALL_TYPES = [
      'commit', 'wiki_commit', 'issue_title', 'issue_body', 'issue_comment', 'discussion_title', 'discussion_body', 'discussion_comment',
      'pull_request_title', 'pull_request_body', 'pull_request_comment', 'pull_request_review', 'pull_request_review_comment',
    ]; // prettier-ignore
    /** The wiki page URL is compared on its own (below), so that this test shows every other field. */
    const withoutPageUrl = (ls: Array<{ type: string | null; details: Json }>) =>
      ls.map((l) => (l.type === 'wiki_commit' ? { ...l, details: { ...l.details, page_url: '(compared separately)' } } : l));

    it('alert 1: all 13 location types, type and every details field, in the same order', async () => {
      const restList = (await restLocations('parity', 'api', 1)).map(restLocation);
      const gqlList = (await gqlAllLocations('parity', 'api', 1)).map(gqlLocation);
      expect(new Set(restList.map((l) => l.type))).toEqual(new Set(ALL_TYPES));
      expect(restList).toHaveLength(14);
      for (const l of gqlList) expect(l.details_type).toBe(l.type);
      expect(withoutPageUrl(gqlList.map(({ type, details }) => ({ type, details })))).toEqual(withoutPageUrl(restList));
    });

    // GitHub's example: https://github.com/octocat/Hello-World/wiki/Home/302c0b7e... (page at the commit). GraphQL
    // builds that; the REST presenter leaves the commit out ({html}/wiki/Home).
    it("wiki_commit page_url: the same on both sides, GitHub's page-at-commit URL ({html}/wiki/{page}/{commit_sha})", async () => {
      const restWiki = (await restLocations('parity', 'api', 1)).find((l) => l.type === 'wiki_commit')!;
      const gqlWiki = (await gqlAllLocations('parity', 'api', 1)).map(gqlLocation).find((l) => l.type === 'wiki_commit')!;
      const sha = restWiki.details.commit_sha;
      expect({ rest: restWiki.details.page_url, graphql: gqlWiki.details.page_url }).toEqual({
        rest: `${t.url}/parity/api/wiki/Home/${sha}`,
        graphql: `${t.url}/parity/api/wiki/Home/${sha}`,
      });
    });

    it.each([2, 7, 13])('alert %i: the same locations', async (n) => {
      await expectParity({
        rest: () => restLocations('parity', 'api', n),
        graphql: () => gqlAllLocations('parity', 'api', n),
        normalize: { rest: (ls) => ls.map(restLocation), graphql: (ls) => ls.map(gqlLocation).map(({ type, details }) => ({ type, details })) },
      });
    });

    it('pages line up: per_page=5 pages and first: 5 pages give the same order', async () => {
      const restTypes = (await restLocations('parity', 'api', 1, 5)).map((l) => l.type);
      const gqlTypes = (await gqlAllLocations('parity', 'api', 1, 5)).map((l) => lower(l.type));
      expect(restTypes).toHaveLength(14);
      expect(gqlTypes).toEqual(restTypes);
    });
  });

  // ------------------------------------------------------------------------------------------------ 7

  describe('7 GET .../scan-history <-> repository.secretScanningScanHistory', () => {
    it('the same latest scans per kind and type, in the same order', async () => {
      const r = await rest('GET', '/repos/parity/api/secret-scanning/scan-history');
      expect(r.status).toBe(200);
      const g = await gqlDoc(t.url, SecretScanningScanHistoryDocument, { owner: 'parity', name: 'api' }, tokens.admin);
      expect(g.body.errors).toBeUndefined();
      const restForm = restScanHistory(r.body);
      expect(Object.values(restForm).every((l) => (l as unknown[]).length > 0)).toBe(true);
      expect(gqlScanHistory(g.body.data!.repository!.secretScanningScanHistory!)).toEqual(restForm);
    });
  });

  // ------------------------------------------------------------------------------------------------ 4

  describe('4 PATCH .../alerts/{alert_number} <-> updateSecretScanningAlert', () => {
    /** Fields an update may change, with the update's own timestamps reduced to "set just now" / null. */
    const triage = (a: ReturnType<typeof restAlert>) => {
      const recent = (s: string | null) => (s === null ? null : Math.abs(Date.parse(s) - Date.now()) < 120_000 ? 'just now' : s);
      return {
        state: a.state,
        resolution: a.resolution,
        resolution_comment: a.resolution_comment,
        resolved_by: a.resolved_by,
        resolved_at: recent(a.resolved_at),
        updated_at: recent(a.updated_at),
        assigned_to: a.assigned_to,
        validity: a.validity,
        secret_type: a.secret_type,
        provider_slug: a.provider_slug,
        multi_repo: a.multi_repo,
        publicly_leaked: a.publicly_leaked,
        push_protection_bypassed: a.push_protection_bypassed,
        has_more_locations: a.has_more_locations,
      };
    };

    it('the same sequence of updates, one alert through REST and its twin through GraphQL, gives the same alerts', async () => {
      const viaRest = await freshAlert(repos.triage);
      const viaGraphql = await freshAlert(repos.triage);
      const steps: Array<Record<string, unknown>> = [
        { state: 'resolved', resolution: 'false_positive', resolution_comment: 'Test data only' },
        { assignee: 'parity-writer', validity: 'inactive' },
        { validity: 'active' },
        { assignee: null, validity: null },
        { state: 'open' },
        { state: 'resolved', resolution: 'wont_fix', resolution_comment: 'Test data only', assignee: 'PARITY-DEV' },
        { state: 'open', validity: 'inactive', assignee: null },
      ];
      for (const body of steps) {
        const r = await rest('PATCH', `/repos/parity/triage/secret-scanning/alerts/${viaRest}`, tokens.admin, body);
        expect({ body, status: r.status }).toEqual({ body, status: 200 });
        const g = await gqlDoc(t.url, UpdateSecretScanningAlertParityDocument, { input: toGraphqlUpdate('parity/triage', viaGraphql, body) }, tokens.admin);
        expect({ body, errors: g.body.errors }).toEqual({ body, errors: undefined });
        const restResult = restAlert(r.body);
        const gqlResult = gqlAlert(g.body.data!.updateSecretScanningAlert.alert, { withRepository: false });
        // the two alerts went through the same changes
        expect({ body, alert: triage(gqlResult) }).toEqual({ body, alert: triage(restResult) });
        // and each transport reads back exactly what the other one's update answered
        expect(await gqlOne('parity', 'triage', viaRest)).toEqual(restResult);
        expect(await restOne('parity', 'triage', viaGraphql)).toEqual(gqlResult);
      }
    });

    describe('the same bad input gets the same error class (400/422 BAD_USER_INPUT, 403 FORBIDDEN, 404 NOT_FOUND)', () => {
      let n: number;
      beforeAll(async () => {
        // an open alert whose resolution comment is set (resolved with it, then reopened)
        n = await freshAlert(repos.triage);
        expect((await rest('PATCH', `/repos/parity/triage/secret-scanning/alerts/${n}`, tokens.admin, { state: 'resolved', resolution: 'revoked', resolution_comment: 'first' })).status).toBe(200);
        expect((await rest('PATCH', `/repos/parity/triage/secret-scanning/alerts/${n}`, tokens.admin, { state: 'open' })).status).toBe(200);
      });

      // An invalid enum value in the variables (DISMISSED, FIXED, UNKNOWN) must be BAD_USER_INPUT like any
      // other bad input; graphql-query-complexity's own variable coercion (src/graphql/apollo.ts) throws it
      // from didResolveOperation without a code, which Apollo answers 500 INTERNAL_SERVER_ERROR.
      /** [name, REST body, who, repository, alert (null: the open alert above)] */
      const CASES: Array<[string, Record<string, unknown>, string, string, number | null]> = [
        ['no state, assignee or validity', {}, 'admin', 'triage', null],
        ['only a resolution comment', { resolution_comment: 'hm' }, 'admin', 'triage', null],
        ['resolved without resolution', { state: 'resolved' }, 'admin', 'triage', null],
        ['open with a resolution', { state: 'open', resolution: 'revoked' }, 'admin', 'triage', null],
        ['a resolution without state', { resolution: 'revoked', validity: 'active' }, 'admin', 'triage', null],
        ['an unknown state', { state: 'dismissed' }, 'admin', 'triage', null],
        ['state null', { state: null }, 'admin', 'triage', null],
        ['an unknown resolution', { state: 'resolved', resolution: 'fixed' }, 'admin', 'triage', null],
        ['validity unknown (cannot be set)', { validity: 'unknown' }, 'admin', 'triage', null],
        ['an assignee without write access', { assignee: 'parity-reader' }, 'admin', 'triage', null],
        ['an assignee who does not exist', { assignee: 'nobody-at-all' }, 'admin', 'triage', null],
        ['an empty assignee', { assignee: '' }, 'admin', 'triage', null],
        ['a resolution comment over 280 characters (REST 400)', { state: 'resolved', resolution: 'revoked', resolution_comment: 'x'.repeat(281) }, 'admin', 'triage', null],
        ['reopening an open alert (REST 400)', { state: 'open' }, 'admin', 'triage', null],
        ['changing a set resolution comment (REST 400)', { state: 'resolved', resolution: 'revoked', resolution_comment: 'second' }, 'admin', 'triage', null],
        ['a reader (REST 403)', { validity: 'active' }, 'reader', 'triage', null],
        ['a repository admin closing under delegated dismissal (REST 403)', { state: 'resolved', resolution: 'revoked' }, 'repoadmin', 'dad', 1],
        ['a stranger (REST 404)', { validity: 'active' }, 'stranger', 'triage', null],
        ['a missing alert (REST 404)', { validity: 'active' }, 'admin', 'triage', 9999],
        ['secret scanning off (REST 404)', { validity: 'active' }, 'admin', 'off', 1],
        ['an unknown repository (REST 404)', { validity: 'active' }, 'admin', 'nope', 1],
      ];

      it.each(CASES)('%s', async (_name, body, who, repo, number) => {
        const num = number ?? n;
        const r = await rest('PATCH', `/repos/parity/${repo}/secret-scanning/alerts/${num}`, tokens[who], body);
        expect(r.status).not.toBe(200);
        const g = await gqlDoc(t.url, UpdateSecretScanningAlertParityDocument, { input: toGraphqlUpdate(`parity/${repo}`, num, body) }, tokens[who]);
        expect({ rest: r.status, class: gqlClass(g, (d) => d.updateSecretScanningAlert) }).toEqual({ rest: r.status, class: restClass(r.status) });
      });
    });
  });

  // ------------------------------------------------------------------------------------------------ 6

  describe('6 POST .../push-protection-bypasses <-> createPushProtectionBypass', () => {
    /** A real blocked push by parity-dev through the submitPush mutation -> its placeholder. */
    async function blockedPush(): Promise<{ placeholderId: string; secretType: string }> {
      const fake = fakeSecrets.githubPat();
      const r = await gqlDoc(
        t.url,
        SubmitPushDocument,
        { input: { repository: 'parity/api', ref: 'refs/heads/main', commits: [{ sha: commitSha(), files: [{ path: 'scripts/release.sh', content: fileOf(['#!/bin/sh', fake.line, 'echo done']) }] }] } },
        tokens.dev,
      );
      expect(r.body.errors).toBeUndefined();
      expect(r.body.data!.submitPush.blocked).toBe(true);
      return r.body.data!.submitPush.placeholders[0];
    }
    const bypassRest = (placeholder_id: string, reason: string, token = tokens.dev) =>
      rest('POST', '/repos/parity/api/secret-scanning/push-protection-bypasses', token, { reason, placeholder_id });
    const bypassGql = (input: Partial<CreatePushProtectionBypassInput>, token = tokens.dev) =>
      gqlDoc(t.url, CreatePushProtectionBypassDocument, { input: { repository: 'parity/api', ...input } as CreatePushProtectionBypassInput }, token);

    it('REST first, then GraphQL on the same placeholder: the same reason, expire_at and token_type', async () => {
      const p = await blockedPush();
      const r = await bypassRest(p.placeholderId, 'will_fix_later');
      expect(r.status).toBe(200);
      const g = await bypassGql({ placeholderId: p.placeholderId, reason: 'WILL_FIX_LATER' });
      expect(g.body.errors).toBeUndefined();
      expect(gqlBypass(g.body.data!.createPushProtectionBypass)).toEqual(restBypass(r.body));
      expect(restBypass(r.body)).toMatchObject({ reason: 'will_fix_later', token_type: p.secretType });
    });

    it('GraphQL first, then REST on the same placeholder (another reason): the same answer', async () => {
      const p = await blockedPush();
      const g = await bypassGql({ placeholderId: p.placeholderId, reason: 'USED_IN_TESTS' });
      expect(g.body.errors).toBeUndefined();
      const r = await bypassRest(p.placeholderId, 'used_in_tests');
      expect(r.status).toBe(200);
      expect(restBypass(r.body)).toEqual(gqlBypass(g.body.data!.createPushProtectionBypass));
      // a later call with another reason changes the reason on both sides alike, not the window
      const r2 = await bypassRest(p.placeholderId, 'false_positive');
      const g2 = await bypassGql({ placeholderId: p.placeholderId, reason: 'FALSE_POSITIVE' });
      expect(gqlBypass(g2.body.data!.createPushProtectionBypass)).toEqual(restBypass(r2.body));
      expect(restBypass(r2.body)).toEqual({ ...restBypass(r.body), reason: 'false_positive' });
    });

    it('two placeholders bypassed one through each transport: the same reason and token type, the same window length', async () => {
      const [p1, p2] = [await blockedPush(), await blockedPush()];
      const r = await bypassRest(p1.placeholderId, 'will_fix_later');
      const g = await bypassGql({ placeholderId: p2.placeholderId, reason: 'WILL_FIX_LATER' });
      const a = restBypass(r.body);
      const b = gqlBypass(g.body.data!.createPushProtectionBypass);
      expect({ ...b, expire_at: null }).toEqual({ ...a, expire_at: null });
      expect(Math.abs(Date.parse(b.expire_at!) - Date.parse(a.expire_at))).toBeLessThan(10_000);
    });

    describe('the same bad input gets the same error class', () => {
      let placeholderId: string;
      beforeAll(async () => {
        placeholderId = (await blockedPush()).placeholderId;
      });
      const id = (v: string | null) => v ?? placeholderId;
      /** [name, REST body, GraphQL input (placeholder null: parity-dev's blocked push), who, repository] */
      const CASES: Array<[string, Record<string, unknown>, Record<string, unknown>, string, string]> = [
        ['missing reason (REST 422)', { placeholder_id: null }, { placeholderId: null }, 'dev', 'api'],
        ['an unknown reason (REST 422)', { reason: 'because', placeholder_id: null }, { reason: 'BECAUSE', placeholderId: null }, 'dev', 'api'],
        ['an empty placeholder id (REST 422)', { reason: 'will_fix_later', placeholder_id: '' }, { reason: 'WILL_FIX_LATER', placeholderId: '' }, 'dev', 'api'],
        ['an unknown placeholder (REST 404)', { reason: 'will_fix_later', placeholder_id: 'no-such-placeholder' }, { reason: 'WILL_FIX_LATER', placeholderId: 'no-such-placeholder' }, 'dev', 'api'],
        ["someone else's placeholder (REST 403)", { reason: 'will_fix_later', placeholder_id: null }, { reason: 'WILL_FIX_LATER', placeholderId: null }, 'writer', 'api'],
        ['a reader, who may not push (REST 403)', { reason: 'will_fix_later', placeholder_id: null }, { reason: 'WILL_FIX_LATER', placeholderId: null }, 'reader', 'api'],
        ['no push protection on the repository (REST 404)', { reason: 'will_fix_later', placeholder_id: null }, { reason: 'WILL_FIX_LATER', placeholderId: null }, 'admin', 'web'],
        ['a stranger (REST 404)', { reason: 'will_fix_later', placeholder_id: null }, { reason: 'WILL_FIX_LATER', placeholderId: null }, 'stranger', 'api'],
      ];

      it.each(CASES)('%s', async (_name, body, input, who, repo) => {
        const restBody = { ...body, ...('placeholder_id' in body ? { placeholder_id: id(body.placeholder_id as string | null) } : {}) };
        const gqlInput = { repository: `parity/${repo}`, ...input, ...('placeholderId' in input ? { placeholderId: id(input.placeholderId as string | null) } : {}) };
        const r = await rest('POST', `/repos/parity/${repo}/secret-scanning/push-protection-bypasses`, tokens[who], restBody);
        expect(r.status).not.toBe(200);
        const g = await gqlDoc(t.url, CreatePushProtectionBypassDocument, { input: gqlInput as CreatePushProtectionBypassInput }, tokens[who]);
        expect({ rest: r.status, class: gqlClass(g, (d) => d.createPushProtectionBypass) }).toEqual({ rest: r.status, class: restClass(r.status) });
      });
    });
  });

  // ------------------------------------------------------------------------------------------------ errors of 1, 2, 3, 5, 7

  describe('reads: the same bad input gets the same error class', () => {
    type Twin = { query: DocumentNode; vars: Record<string, unknown>; pick: (d: any) => unknown };
    const org = (vars: Record<string, unknown>): Twin => ({ query: OrganizationSecretScanningAlertsParityDocument, vars: { login: 'parity', ...vars }, pick: (d: any) => d.organization });
    const repoList = (name: string, vars: Record<string, unknown>): Twin => ({
      query: RepositorySecretScanningAlertsParityDocument,
      vars: { owner: 'parity', name, ...vars },
      pick: (d: any) => d.repository,
    });
    const one = (name: string, number: number): Twin => ({ query: SecretScanningAlertParityDocument, vars: { owner: 'parity', name, number }, pick: (d: any) => d.repository?.secretScanningAlert });
    const locations = (vars: Record<string, unknown>): Twin => ({
      query: SecretScanningAlertLocationsDocument,
      vars: { owner: 'parity', name: 'api', number: 1, ...vars },
      pick: (d: any) => d.repository?.secretScanningAlert,
    });
    const history = (name: string): Twin => ({ query: SecretScanningScanHistoryDocument, vars: { owner: 'parity', name }, pick: (d: any) => d.repository?.secretScanningScanHistory });

    const CASES: Array<[string, string, Twin, string?]> = [
      ['1: secret_type with exclude_secret_types', '/orgs/parity/secret-scanning/alerts?secret_type=a&exclude_secret_types=b', org({ filter: { secretTypes: ['a'], excludeSecretTypes: ['b'] } })],
      ['1: providers with exclude_providers', '/orgs/parity/secret-scanning/alerts?providers=a&exclude_providers=b', org({ filter: { providers: ['a'], excludeProviders: ['b'] } })],
      ['1: per_page=101 / first: 101', '/orgs/parity/secret-scanning/alerts?per_page=101', org({ first: 101 })],
      ['1: a tampered cursor (REST 400)', '/orgs/parity/secret-scanning/alerts?after=not-a-cursor', org({ after: 'not-a-cursor', first: 10 })],
      ['1: an unknown organization', '/orgs/no-such-org/secret-scanning/alerts', { ...org({}), vars: { login: 'no-such-org' } }],
      ['1: a member without a role (REST 403)', '/orgs/parity/secret-scanning/alerts', org({}), 'writer'],
      ['1: not a member (REST 404)', '/orgs/parity/secret-scanning/alerts', org({}), 'stranger'],
      ['2: secret_type with exclude_secret_types', '/repos/parity/api/secret-scanning/alerts?secret_type=a&exclude_secret_types=b', repoList('api', { filter: { secretTypes: ['a'], excludeSecretTypes: ['b'] } })],
      ['2: per_page=101 / first: 101', '/repos/parity/api/secret-scanning/alerts?per_page=101', repoList('api', { first: 101 })],
      ['2: a tampered cursor (REST 400)', '/repos/parity/api/secret-scanning/alerts?after=not-a-cursor', repoList('api', { after: 'not-a-cursor', first: 10 })],
      ['2: secret scanning off', '/repos/parity/off/secret-scanning/alerts', repoList('off', {})],
      ['2: an unknown repository', '/repos/parity/nope/secret-scanning/alerts', repoList('nope', {})],
      ['2: a writer (REST 403)', '/repos/parity/api/secret-scanning/alerts', repoList('api', {}), 'writer'],
      ['2: a stranger (REST 404)', '/repos/parity/api/secret-scanning/alerts', repoList('api', {}), 'stranger'],
      ['3: a missing alert', '/repos/parity/api/secret-scanning/alerts/9999', one('api', 9999)],
      ['3: alert 0', '/repos/parity/api/secret-scanning/alerts/0', one('api', 0)],
      ['3: a reader (REST 403)', '/repos/parity/api/secret-scanning/alerts/1', one('api', 1), 'reader'],
      ['5: per_page=101 / first: 101', '/repos/parity/api/secret-scanning/alerts/1/locations?per_page=101', locations({ first: 101 })],
      ['5: a missing alert', '/repos/parity/api/secret-scanning/alerts/9999/locations', locations({ number: 9999 })],
      ['5: a writer (REST 403)', '/repos/parity/api/secret-scanning/alerts/1/locations', locations({}), 'writer'],
      ['7: no advanced security', '/repos/parity/web/secret-scanning/scan-history', history('web')],
      ['7: a writer (REST 403)', '/repos/parity/api/secret-scanning/scan-history', history('api'), 'writer'],
    ];

    it.each(CASES)('%s', async (_name, path, g, who = 'admin') => {
      const r = await rest('GET', path, tokens[who]);
      expect(r.status).not.toBe(200);
      const res = await gql(t.url, print(g.query), g.vars, tokens[who]);
      expect({ rest: r.status, class: gqlClass(res, g.pick) }).toEqual({ rest: r.status, class: restClass(r.status) });
    });
  });
});
