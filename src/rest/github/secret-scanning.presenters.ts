/**
 * GitHub REST JSON shapes of secret scanning: alerts (repository list, organization list, single alert
 * with metadata), locations (13 detail variants), push protection bypasses and scan history, plus the
 * OpenAPI component schemas that describe them (SECRET_SCANNING_SCHEMAS).
 *
 * - Fields come in GitHub's order (api.github.com OpenAPI description: `secret-scanning-alert`,
 *   `organization-secret-scanning-alert`, `secret-scanning-alert-with-metadata`).
 * - Timestamps are ISO 8601 UTC without milliseconds (`2020-11-06T18:48:51Z`).
 * - Every URL is built from PUBLIC_URL: url = {public}/repos/{o}/{r}/secret-scanning/alerts/{n},
 *   html_url = {public}/{o}/{r}/security/secret-scanning/{n}, blob_url = {public}/repos/{o}/{r}/git/blobs/{sha}.
 * - `hide_secret=true` omits the `secret` field (the schema's `secret` is optional but not nullable).
 * - Users (resolved_by, push_protection_bypassed_by, assigned_to), first locations and repositories are
 *   loaded in batches through the request's DataLoaders: a page of 100 alerts costs a few queries.
 * - Fields this gateway has no data for are present with GitHub's empty value: the bypass-request and
 *   closure-request fields are null, `metadata` is [].
 */
import type { MemoizedText } from '../text-memo';
import { createHash } from 'node:crypto';
import type { AccountEntity, RepositoryEntity } from '../../../entities/identity';
import type {
  ScanKind,
  SecretScanningAlertEntity,
  SecretScanningLocationEntity,
  SecretScanningScanEntity,
} from '../../../entities/secret-scanning';
import type { BypassResult } from '../../services/secret-scanning/push.service';
import { URL_LOCATION_TYPES } from '../../../entities/secret-scanning';
import { alertUrls, commitLocationUrls, RepoName } from '../../services/secret-scanning/urls';
import { GithubUser, isoSeconds, presentRepository, presentUser } from './presenters';

// ---------------------------------------------------------------------------------------------------------
// References (users, first locations, repositories): loaded by secret-scanning.refs.ts before presenting.

export interface RepoRef {
  repo: RepositoryEntity;
  owner: AccountEntity;
}

export interface AlertRefs {
  users: Map<number, AccountEntity>;
  locations: Map<number, SecretScanningLocationEntity>;
  repos: Map<number, RepoRef>;
}

// ---------------------------------------------------------------------------------------------------------
// Locations.

const repoName = (ref: RepoRef): RepoName => ({ owner: ref.owner.login, name: ref.repo.name });

/** The `details` object of a location (also the bare `first_location_detected` object of an alert). */
export function presentLocationDetails(l: SecretScanningLocationEntity, ref: RepoRef, base: string): Record<string, unknown> {
  // Object literals in GitHub's field order (no spread: this runs for every alert of a page).
  switch (l.type) {
    case 'commit': {
      const u = commitLocationUrls(base, repoName(ref), l);
      return {
        path: l.path,
        start_line: l.startLine,
        end_line: l.endLine,
        start_column: l.startColumn,
        end_column: l.endColumn,
        blob_sha: l.blobSha,
        blob_url: u.blobUrl,
        commit_sha: l.commitSha,
        commit_url: u.commitUrl,
      };
    }
    case 'wiki_commit': {
      // GitHub: page_url is the wiki page, commit_url the wiki's web compare view of the commit.
      const u = commitLocationUrls(base, repoName(ref), l);
      return {
        path: l.path,
        start_line: l.startLine,
        end_line: l.endLine,
        start_column: l.startColumn,
        end_column: l.endColumn,
        blob_sha: l.blobSha,
        page_url: u.pageUrl,
        commit_sha: l.commitSha,
        commit_url: u.commitUrl,
      };
    }
    default:
      // issue_title -> issue_title_url, pull_request_review_comment -> pull_request_review_comment_url, ...
      return { [`${l.type}_url`]: l.url };
  }
}

export function presentLocation(l: SecretScanningLocationEntity, ref: RepoRef, base: string) {
  return { type: l.type, details: presentLocationDetails(l, ref, base) };
}

// ---------------------------------------------------------------------------------------------------------
// Alerts.

export type AlertVariant = 'repository' | 'organization' | 'single';

/** `secret-scanning-alert` (element of the repository list). */
export const REPOSITORY_ALERT_FIELDS = [
  'number',
  'created_at',
  'updated_at',
  'url',
  'html_url',
  'locations_url',
  'state',
  'resolution',
  'resolved_at',
  'resolved_by',
  'resolution_comment',
  'secret_type',
  'secret_type_display_name',
  'provider',
  'provider_slug',
  'secret',
  'push_protection_bypassed',
  'push_protection_bypassed_by',
  'push_protection_bypassed_at',
  'push_protection_bypass_request_reviewer',
  'push_protection_bypass_request_reviewer_comment',
  'push_protection_bypass_request_comment',
  'push_protection_bypass_request_html_url',
  'validity',
  'publicly_leaked',
  'multi_repo',
  'is_base64_encoded',
  'first_location_detected',
  'has_more_locations',
  'assigned_to',
  'closure_request_comment',
  'closure_request_reviewer_comment',
  'closure_request_reviewer',
] as const;

/** `organization-secret-scanning-alert`: the same fields plus `repository`, in GitHub's (different) order. */
export const ORGANIZATION_ALERT_FIELDS = [
  'number',
  'created_at',
  'updated_at',
  'url',
  'html_url',
  'locations_url',
  'state',
  'resolution',
  'resolved_at',
  'resolved_by',
  'secret_type',
  'secret_type_display_name',
  'provider',
  'provider_slug',
  'secret',
  'repository',
  'push_protection_bypassed',
  'push_protection_bypassed_by',
  'push_protection_bypassed_at',
  'push_protection_bypass_request_reviewer',
  'push_protection_bypass_request_reviewer_comment',
  'push_protection_bypass_request_comment',
  'push_protection_bypass_request_html_url',
  'resolution_comment',
  'validity',
  'publicly_leaked',
  'multi_repo',
  'is_base64_encoded',
  'first_location_detected',
  'has_more_locations',
  'assigned_to',
  'closure_request_comment',
  'closure_request_reviewer_comment',
  'closure_request_reviewer',
] as const;

/** `secret-scanning-alert-with-metadata` (GET and PATCH of one alert). */
export const SINGLE_ALERT_FIELDS = [...REPOSITORY_ALERT_FIELDS, 'metadata'] as const;

const FIELDS_BY_VARIANT: Record<AlertVariant, readonly string[]> = {
  repository: REPOSITORY_ALERT_FIELDS,
  organization: ORGANIZATION_ALERT_FIELDS,
  single: SINGLE_ALERT_FIELDS,
};

type Picker = (values: Record<string, unknown>) => Record<string, unknown>;

/**
 * `(values) => ({ number: values.number, created_at: values.created_at, ... })` for a field list: one object
 * literal in the variant's order (copying key by key into an empty object costs as much as the rest of
 * presenting an alert).
 */
function picker(fields: readonly string[]): Picker {
  const props = fields.map((f) => `${JSON.stringify(f)}: v[${JSON.stringify(f)}]`).join(', ');
  return new Function('v', `return { ${props} };`) as Picker;
}

/** Per variant: [with secret, without secret (hide_secret)]. */
const PICKERS: Record<AlertVariant, [Picker, Picker]> = Object.fromEntries(
  Object.entries(FIELDS_BY_VARIANT).map(([variant, fields]) => [variant, [picker(fields), picker(fields.filter((f) => f !== 'secret'))]]),
) as Record<AlertVariant, [Picker, Picker]>;

/**
 * Users and repositories as one answer presents them: each account and repository (by entity) is presented
 * once, and every alert of the answer that refers to it gets that same object.
 */
export class AnswerPresentations {
  private readonly users = new Map<AccountEntity, GithubUser>();
  private readonly repositories = new Map<RepositoryEntity, ReturnType<typeof presentRepository>>();

  constructor(readonly base: string) {}

  user(u: AccountEntity): GithubUser {
    let p = this.users.get(u);
    if (!p) {
      p = presentUser(u, this.base);
      this.users.set(u, p);
    }
    return p;
  }

  repository(ref: RepoRef): ReturnType<typeof presentRepository> {
    let p = this.repositories.get(ref.repo);
    if (!p) {
      p = presentRepository(ref.repo, ref.owner, this.base, this.user(ref.owner));
      this.repositories.set(ref.repo, p);
    }
    return p;
  }
}

/** One alert of a list answer, as `presentAlert` is given it. */
export interface ListedAlert {
  alert: SecretScanningAlertEntity;
  refs: AlertRefs;
  opts: { base: string; variant: AlertVariant; hideSecret?: boolean; presentations?: AnswerPresentations };
}

/**
 * What a listed alert's text is made from (../text-memo.ts `MemoizedText`): the rows `presentAlert` reads (the alert,
 * its repository and the repository's owner, its three users, its first location) and its options (variant,
 * hide_secret, base URL). Equal rows and options give byte-identical texts.
 */
export const LISTED_ALERT_TEXT: MemoizedText<ListedAlert> = {
  slot: ({ alert, opts }) => `${opts.variant}${opts.hideSecret ? 1 : 0}:${alert.id}`,
  madeWith: ({ opts }) => `${opts.variant}${opts.hideSecret ? 1 : 0}\u0000${opts.base}`,
  rows: ({ alert: a, refs }) => {
    const ref = refs.repos.get(a.repositoryId);
    const user = (id: number | null) => (id == null ? null : refs.users.get(id));
    return [
      a,
      ref?.repo,
      ref?.owner,
      user(a.resolvedById),
      user(a.pushProtectionBypassedById),
      user(a.assignedToId),
      a.firstLocationId == null ? null : refs.locations.get(a.firstLocationId),
    ];
  },
  text: ({ alert, refs, opts }) => JSON.stringify(presentAlert(alert, refs, opts)),
};

export function presentAlert(
  a: SecretScanningAlertEntity,
  refs: AlertRefs,
  opts: { base: string; variant: AlertVariant; hideSecret?: boolean; presentations?: AnswerPresentations },
): Record<string, unknown> {
  const { base } = opts;
  const presentations = opts.presentations ?? new AnswerPresentations(base);
  const ref = refs.repos.get(a.repositoryId);
  if (!ref) throw new Error(`presentAlert: repository ${a.repositoryId} of alert ${a.id} was not loaded`);
  const user = (id: number | null) => {
    const u = id == null ? undefined : refs.users.get(id);
    return u ? presentations.user(u) : null;
  };
  const first = a.firstLocationId == null ? undefined : refs.locations.get(a.firstLocationId);
  const urls = alertUrls(base, repoName(ref), a.number);
  const values: Record<string, unknown> = {
    number: a.number,
    created_at: isoSeconds(a.createdAt),
    updated_at: isoSeconds(a.updatedAt),
    url: urls.url,
    html_url: urls.htmlUrl,
    locations_url: urls.locationsUrl,
    state: a.state,
    resolution: a.resolution,
    resolved_at: isoSeconds(a.resolvedAt),
    resolved_by: user(a.resolvedById),
    resolution_comment: a.resolutionComment,
    secret_type: a.secretType,
    secret_type_display_name: a.secretTypeDisplayName,
    provider: a.provider,
    provider_slug: a.providerSlug,
    secret: a.secret,
    repository: opts.variant === 'organization' ? presentations.repository(ref) : undefined,
    push_protection_bypassed: a.pushProtectionBypassed,
    push_protection_bypassed_by: user(a.pushProtectionBypassedById),
    push_protection_bypassed_at: isoSeconds(a.pushProtectionBypassedAt),
    push_protection_bypass_request_reviewer: null,
    push_protection_bypass_request_reviewer_comment: null,
    push_protection_bypass_request_comment: null,
    push_protection_bypass_request_html_url: null,
    validity: a.validity,
    publicly_leaked: a.publiclyLeaked,
    multi_repo: a.multiRepo,
    is_base64_encoded: a.isBase64Encoded,
    first_location_detected: first ? presentLocationDetails(first, ref, base) : null,
    has_more_locations: a.locationsCount > 1,
    assigned_to: user(a.assignedToId),
    closure_request_comment: null,
    closure_request_reviewer_comment: null,
    closure_request_reviewer: null,
    metadata: [],
  };
  return PICKERS[opts.variant][opts.hideSecret ? 1 : 0](values);
}

/**
 * Strong ETag of a single-alert answer: the hash of the exact JSON body and of the hide_secret variant
 * (so the two variants of one alert never share a validator).
 */
export function alertEtag(body: unknown, hideSecret: boolean): string {
  const h = createHash('sha256').update(JSON.stringify(body)).update(`\u0000hide_secret=${hideSecret}`).digest('hex');
  return `"${h}"`;
}

/** RFC 9110 If-None-Match for GET: weak comparison, `*` matches any current representation. */
export function etagMatches(ifNoneMatch: string | string[] | undefined, etag: string): boolean {
  if (ifNoneMatch === undefined) return false;
  const raw = Array.isArray(ifNoneMatch) ? ifNoneMatch.join(',') : ifNoneMatch;
  const opaque = (t: string) => t.trim().replace(/^W\//, '');
  return raw.split(',').some((t) => t.trim() === '*' || opaque(t) === opaque(etag));
}

// ---------------------------------------------------------------------------------------------------------
// Bypass and scan history.

export function presentBypass(r: BypassResult) {
  return { reason: r.reason, expire_at: isoSeconds(r.expireAt), token_type: r.tokenType };
}

function presentScan(s: SecretScanningScanEntity, withStart: boolean): Record<string, unknown> {
  return {
    type: s.type,
    status: s.status,
    ...(withStart ? { started_at: isoSeconds(s.startedAt) } : {}),
    completed_at: isoSeconds(s.completedAt),
  };
}

export function presentScanHistory(scans: Record<ScanKind, SecretScanningScanEntity[]>) {
  return {
    incremental_scans: scans.incremental.map((s) => presentScan(s, false)),
    backfill_scans: scans.backfill.map((s) => presentScan(s, true)),
    pattern_update_scans: scans.pattern_update.map((s) => presentScan(s, true)),
    custom_pattern_backfill_scans: scans.custom_pattern_backfill.map((s) => ({
      ...presentScan(s, true),
      pattern_slug: s.patternSlug,
      pattern_scope: s.patternScope,
    })),
    generic_secrets_backfill_scans: scans.generic_secrets_backfill.map((s) => presentScan(s, true)),
  };
}

// ---------------------------------------------------------------------------------------------------------
// OpenAPI component schemas (referenced by the route rows as #/components/schemas/<name>).

type Schema = Record<string, unknown>;
const ref = (name: string): Schema => ({ $ref: `#/components/schemas/${name}` });
const str: Schema = { type: 'string' };
const nullableStr: Schema = { type: 'string', nullable: true };
const uri: Schema = { type: 'string', format: 'uri' };
const dateTime: Schema = { type: 'string', format: 'date-time', description: 'ISO 8601 UTC, without milliseconds.', example: '2020-11-06T18:48:51Z' };
const nullableDateTime: Schema = { ...dateTime, nullable: true };
const lineNumber: Schema = { type: 'number' };

const USER_URL_FIELDS = [
  'followers_url',
  'following_url',
  'gists_url',
  'starred_url',
  'subscriptions_url',
  'organizations_url',
  'repos_url',
  'events_url',
  'received_events_url',
];

const SIMPLE_USER: Schema = {
  title: 'Simple User',
  type: 'object',
  properties: {
    login: { type: 'string', example: 'octocat' },
    id: { type: 'integer', format: 'int64' },
    node_id: str,
    avatar_url: uri,
    gravatar_id: nullableStr,
    url: uri,
    html_url: uri,
    ...Object.fromEntries(USER_URL_FIELDS.map((f) => [f, str])),
    type: { type: 'string', example: 'User' },
    site_admin: { type: 'boolean' },
  },
  required: ['login', 'id', 'node_id', 'avatar_url', 'gravatar_id', 'url', 'html_url', ...USER_URL_FIELDS, 'type', 'site_admin'],
};

const REPOSITORY_URL_FIELDS = [
  'archive_url',
  'assignees_url',
  'blobs_url',
  'branches_url',
  'collaborators_url',
  'comments_url',
  'commits_url',
  'compare_url',
  'contents_url',
  'contributors_url',
  'deployments_url',
  'downloads_url',
  'events_url',
  'forks_url',
  'git_commits_url',
  'git_refs_url',
  'git_tags_url',
  'hooks_url',
  'issue_comment_url',
  'issue_events_url',
  'issues_url',
  'keys_url',
  'labels_url',
  'languages_url',
  'merges_url',
  'milestones_url',
  'notifications_url',
  'pulls_url',
  'releases_url',
  'stargazers_url',
  'statuses_url',
  'subscribers_url',
  'subscription_url',
  'tags_url',
  'teams_url',
  'trees_url',
];

const SIMPLE_REPOSITORY: Schema = {
  title: 'Simple Repository',
  type: 'object',
  properties: {
    id: { type: 'integer', format: 'int64' },
    node_id: str,
    name: str,
    full_name: { type: 'string', example: 'octocat/Hello-World' },
    owner: ref('simple-user'),
    private: { type: 'boolean' },
    html_url: uri,
    description: nullableStr,
    fork: { type: 'boolean' },
    url: uri,
    ...Object.fromEntries(REPOSITORY_URL_FIELDS.map((f) => [f, str])),
  },
  required: ['id', 'node_id', 'name', 'full_name', 'owner', 'private', 'html_url', 'description', 'fork', 'url', ...REPOSITORY_URL_FIELDS],
};

const COMMIT_LIKE = {
  path: { type: 'string', description: 'The file path in the repository.', example: '/example/secrets.txt' },
  start_line: { ...lineNumber, description: 'Line of the first character of the secret.' },
  end_line: { ...lineNumber, description: 'Line of the last character of the secret.' },
  start_column: { ...lineNumber, description: 'Column of the first character (the file read as 8-bit ASCII).' },
  end_column: { ...lineNumber, description: 'Column of the last character (the file read as 8-bit ASCII).' },
  blob_sha: { type: 'string', description: 'SHA-1 of the blob.' },
};

export const LOCATION_DETAIL_SCHEMAS: Record<string, Schema> = {
  'secret-scanning-location-commit': {
    description: 'A secret in a commit of the repository.',
    type: 'object',
    properties: { ...COMMIT_LIKE, blob_url: uri, commit_sha: str, commit_url: uri },
    required: ['path', 'start_line', 'end_line', 'start_column', 'end_column', 'blob_sha', 'blob_url', 'commit_sha', 'commit_url'],
  },
  'secret-scanning-location-wiki-commit': {
    description: 'A secret in a commit of the repository wiki.',
    type: 'object',
    properties: { ...COMMIT_LIKE, page_url: uri, commit_sha: str, commit_url: uri },
    required: ['path', 'start_line', 'end_line', 'start_column', 'end_column', 'blob_sha', 'page_url', 'commit_sha', 'commit_url'],
  },
};
for (const t of URL_LOCATION_TYPES) {
  LOCATION_DETAIL_SCHEMAS[`secret-scanning-location-${t.replace(/_/g, '-')}`] = {
    description: `A secret in a ${t.replace(/_/g, ' ')}.`,
    type: 'object',
    properties: { [`${t}_url`]: { ...uri, description: `The URL of the ${t.replace(/_/g, ' ')} where the secret was detected.` } },
    required: [`${t}_url`],
  };
}
const LOCATION_DETAIL_REFS = Object.keys(LOCATION_DETAIL_SCHEMAS).map(ref);

const ALERT_PROPERTIES: Record<string, Schema> = {
  number: { type: 'integer', description: 'The alert number, unique within its repository.', readOnly: true },
  created_at: dateTime,
  updated_at: nullableDateTime,
  url: { ...uri, description: 'The REST API URL of the alert.' },
  html_url: { ...uri, description: 'The web URL of the alert.' },
  locations_url: { ...uri, description: 'The REST API URL of the alert locations.' },
  state: ref('secret-scanning-alert-state'),
  resolution: ref('secret-scanning-alert-resolution'),
  resolved_at: nullableDateTime,
  resolved_by: ref('nullable-simple-user'),
  resolution_comment: { type: 'string', nullable: true, description: 'The comment given when the alert was resolved.' },
  secret_type: { type: 'string', description: 'The secret type slug.', example: 'mailchimp_api_key' },
  secret_type_display_name: { type: 'string', example: 'Mailchimp API Key' },
  provider: nullableStr,
  provider_slug: { type: 'string', nullable: true, description: 'The value to use in the providers / exclude_providers filters.' },
  secret: { type: 'string', description: 'The secret that was detected (absent with hide_secret=true).' },
  repository: ref('simple-repository'),
  push_protection_bypassed: { type: 'boolean', nullable: true },
  push_protection_bypassed_by: ref('nullable-simple-user'),
  push_protection_bypassed_at: nullableDateTime,
  push_protection_bypass_request_reviewer: ref('nullable-simple-user'),
  push_protection_bypass_request_reviewer_comment: nullableStr,
  push_protection_bypass_request_comment: nullableStr,
  push_protection_bypass_request_html_url: { ...uri, nullable: true },
  validity: { type: 'string', enum: ['active', 'inactive', 'unknown'] },
  publicly_leaked: { type: 'boolean', nullable: true },
  multi_repo: { type: 'boolean', nullable: true },
  is_base64_encoded: { type: 'boolean', nullable: true },
  first_location_detected: ref('nullable-secret-scanning-first-detected-location'),
  has_more_locations: { type: 'boolean', description: 'Whether the secret was found in more than one place.' },
  assigned_to: ref('nullable-simple-user'),
  closure_request_comment: nullableStr,
  closure_request_reviewer_comment: nullableStr,
  closure_request_reviewer: ref('nullable-simple-user'),
  metadata: {
    type: 'array',
    readOnly: true,
    items: { type: 'object', properties: { key: str, value: str }, required: ['key', 'value'] },
  },
};

function alertSchema(title: string, fields: readonly string[]): Schema {
  return {
    title,
    type: 'object',
    properties: Object.fromEntries(fields.map((f) => [f, ALERT_PROPERTIES[f]])),
    // Every field is always sent, except `secret` with hide_secret=true.
    required: fields.filter((f) => f !== 'secret'),
  };
}

const SCAN: Schema = {
  type: 'object',
  properties: {
    type: { type: 'string', description: 'What was scanned: git, issue, discussion...', example: 'git' },
    status: { type: 'string', description: 'completed, in_progress or failed.', example: 'completed' },
    started_at: { ...nullableDateTime, description: 'Absent in incremental scans.' },
    completed_at: { ...nullableDateTime, description: 'null while the scan runs.' },
  },
  required: ['type', 'status', 'completed_at'],
};

/** Named component schemas of the secret scanning operations (opts.schemas of buildOpenApi). */
export const SECRET_SCANNING_SCHEMAS: Record<string, Schema> = {
  'simple-user': SIMPLE_USER,
  'nullable-simple-user': { ...SIMPLE_USER, nullable: true },
  'simple-repository': SIMPLE_REPOSITORY,
  'secret-scanning-alert-state': { type: 'string', enum: ['open', 'resolved'], description: 'open or resolved.' },
  'secret-scanning-alert-resolution': {
    type: 'string',
    nullable: true,
    enum: ['false_positive', 'wont_fix', 'revoked', 'used_in_tests', null],
    description: 'Required when state is resolved; null while the alert is open.',
  },
  'secret-scanning-push-protection-bypass-reason': { type: 'string', enum: ['false_positive', 'used_in_tests', 'will_fix_later'] },
  ...LOCATION_DETAIL_SCHEMAS,
  'nullable-secret-scanning-first-detected-location': {
    description: 'Details of the first place the secret was found (a bare details object, without `type`).',
    oneOf: LOCATION_DETAIL_REFS,
    nullable: true,
  },
  'secret-scanning-location': {
    type: 'object',
    properties: {
      type: { type: 'string', enum: ['commit', 'wiki_commit', ...URL_LOCATION_TYPES], description: 'Which details variant this location has.' },
      details: { oneOf: LOCATION_DETAIL_REFS },
    },
    required: ['type', 'details'],
  },
  'secret-scanning-alert': alertSchema('Secret scanning alert', REPOSITORY_ALERT_FIELDS),
  'organization-secret-scanning-alert': alertSchema('Secret scanning alert of an organization list', ORGANIZATION_ALERT_FIELDS),
  'secret-scanning-alert-with-metadata': alertSchema('Secret scanning alert with metadata', SINGLE_ALERT_FIELDS),
  'secret-scanning-push-protection-bypass': {
    type: 'object',
    properties: {
      reason: ref('secret-scanning-push-protection-bypass-reason'),
      expire_at: { ...nullableDateTime, description: 'Until when the secret may be pushed.' },
      token_type: { type: 'string', description: 'The secret type slug of the bypassed secret.' },
    },
    required: ['reason', 'expire_at', 'token_type'],
  },
  'secret-scanning-scan': SCAN,
  'secret-scanning-scan-history': {
    type: 'object',
    properties: {
      incremental_scans: { type: 'array', items: ref('secret-scanning-scan') },
      backfill_scans: { type: 'array', items: ref('secret-scanning-scan') },
      pattern_update_scans: { type: 'array', items: ref('secret-scanning-scan') },
      custom_pattern_backfill_scans: {
        type: 'array',
        items: {
          allOf: [
            ref('secret-scanning-scan'),
            {
              type: 'object',
              properties: {
                pattern_slug: { type: 'string', nullable: true, description: 'The slug of the custom pattern.' },
                pattern_scope: { type: 'string', nullable: true, description: 'repository, organization or enterprise.' },
              },
            },
          ],
        },
      },
      generic_secrets_backfill_scans: { type: 'array', items: ref('secret-scanning-scan') },
    },
    required: ['incremental_scans', 'backfill_scans', 'pattern_update_scans', 'custom_pattern_backfill_scans', 'generic_secrets_backfill_scans'],
  },
};
