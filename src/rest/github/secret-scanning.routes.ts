/**
 * GitHub-compatible secret scanning REST routes (family `github`), one route-table row per operation:
 *   1 GET   /orgs/{org}/secret-scanning/alerts                                  secret-scanning/list-alerts-for-org
 *   2 GET   /repos/{owner}/{repo}/secret-scanning/alerts                        secret-scanning/list-alerts-for-repo
 *   3 GET   /repos/{owner}/{repo}/secret-scanning/alerts/{alert_number}         secret-scanning/get-alert
 *   4 PATCH /repos/{owner}/{repo}/secret-scanning/alerts/{alert_number}         secret-scanning/update-alert
 *   5 GET   /repos/{owner}/{repo}/secret-scanning/alerts/{alert_number}/locations  secret-scanning/list-locations-for-alert
 *   6 POST  /repos/{owner}/{repo}/secret-scanning/push-protection-bypasses      secret-scanning/create-push-protection-bypass
 *   7 GET   /repos/{owner}/{repo}/secret-scanning/scan-history                  secret-scanning/get-scan-history
 * Access rules and business rules live in the secret scanning services (src/services/secret-scanning/) (the
 * same methods GraphQL calls); these rows only map HTTP onto them and shape the answers.
 *
 * Query decisions (GitHub's documented defaults; see ../shared/reference/github-secret-scanning.md §1a):
 * - sort=created, direction=desc (newest first), page=1, per_page=30.
 * - per_page must be an integer from 1 to 100: a larger (or non-numeric) value is answered 422 with an
 *   `errors[]` entry rather than silently clamped, so a client never believes it got 500 rows per page;
 *   the same for page < 1.
 * - Comma lists (secret_type, exclude_secret_types, providers, exclude_providers, resolution, validity,
 *   included_metadata) accept `a,b` and repeated parameters; blanks are ignored. A single-valued
 *   parameter given twice takes its last value.
 * - Booleans accept exactly `true` or `false` (what Octokit sends); anything else is 422.
 *   is_publicly_leaked / is_multi_repo: true filters, false (default) does not. is_bypassed has no default:
 *   true -> only bypassed, false -> only not bypassed.
 * - Enumerations (state, sort, direction, resolution, validity) and the mutually exclusive pairs
 *   (secret_type + exclude_secret_types, providers + exclude_providers) are validated by the service
 *   (422 with errors[]). `page` together with `before`/`after` is 422 too.
 * - assignee: a login, `*` (any assignee) or `none` (unassigned).
 * - Paging: `page`/`per_page` by default; `before`/`after` switch to cursor mode. An EMPTY `after=` or
 *   `before=` asks for an initial cursor: the first page in cursor mode, whose Link header carries
 *   `after=<cursor>` / `before=<cursor>` links. Malformed cursors are 400 (service).
 * - included_metadata / owner_email_hash: this gateway stores no alert metadata (`metadata` is always []),
 *   so a request naming either matches no alert: it is validated, access-checked and answered with [].
 * - hide_secret=true omits `secret` from every alert.
 */
import type { FastifyInstance } from 'fastify';
import type { AccountEntity, RepositoryEntity, ScanKind, SecretScanningAlertEntity, SecretScanningLocationEntity, SecretScanningScanEntity } from '../../../entities';
import type { AppConfig } from '../../config';
import type { RequestContext } from '../../context';
import { NotFoundError, quoteInput, ValidationError } from '../../errors/app-error';
import { INT4_MAX, parseInteger, POSITIVE_INT4 } from '../../services/common/decode';
import type { Page } from '../../services/common/pagination';
import { INCLUDED_METADATA_VALUES } from '../../services/secret-scanning/alert-types';
import type { AlertFilter, AlertOrder, AlertPage, AlertPaging, AlertUpdate } from '../../services/secret-scanning/alert-types';
import type { BypassResult } from '../../services/secret-scanning/push.service';
import { buildOpenApi, registerOpenApiRoute } from '../openapi';
import { ParamSpec, RestRequest, RestResult, RestRoute, route } from '../route-table';
import { API_VERSION } from './family';
import { cursorModeLinks, pageModeLinks, requestTarget } from './link';
import {
  alertEtag,
  etagMatches,
  loadAlertRefs,
  presentAlert,
  presentBypass,
  presentLocation,
  presentScanHistory,
  RepoRef,
  SECRET_SCANNING_SCHEMAS,
} from './secret-scanning.presenters';

export { SECRET_SCANNING_SCHEMAS };

export const DEFAULT_PER_PAGE = 30;
export const MAX_PER_PAGE = 100;


// ---------------------------------------------------------------------------------------------------------
// Query parsing.

type Query = RestRequest['query'];

function queryError(field: string, message: string): ValidationError {
  return new ValidationError(`Invalid request: ${message}`, { fieldErrors: [{ resource: 'SecretScanningAlert', field, code: 'invalid', message }] });
}

/** A single-valued parameter (the last one when repeated); undefined when absent. */
function one(q: Query, name: string): string | undefined {
  const v = q[name];
  if (Array.isArray(v)) return v[v.length - 1];
  return v;
}

/** A single-valued parameter where an empty value means "not given". */
function oneNonEmpty(q: Query, name: string): string | undefined {
  const v = one(q, name)?.trim();
  return v ? v : undefined;
}

/** A comma-separated list (repeated parameters are joined); undefined when it names nothing. */
function list(q: Query, name: string): string[] | undefined {
  const v = q[name];
  if (v === undefined) return undefined;
  const items = (Array.isArray(v) ? v : [v])
    .flatMap((s) => s.split(','))
    .map((s) => s.trim())
    .filter((s) => s !== '');
  return items.length ? [...new Set(items)] : undefined;
}

function bool(q: Query, name: string): boolean | undefined {
  const v = one(q, name);
  if (v === undefined) return undefined;
  if (v === 'true') return true;
  if (v === 'false') return false;
  throw queryError(name, `${quoteInput(v)} is not a valid value for ${name}; use true or false`);
}

/** An integer query parameter within [min, max] (int4 at most: the shared decoder), else 422. */
function int(q: Query, name: string, def: number, min: number, max: number): number {
  const v = one(q, name);
  if (v === undefined) return def;
  const n = parseInteger(v, { min, max });
  if (n === undefined) {
    throw queryError(name, max === INT4_MAX ? `${name} must be a positive integer` : `${name} must be an integer from ${min} to ${max}`);
  }
  return n;
}

export interface PageQuery {
  page: number;
  perPage: number;
}

export function parsePageQuery(q: Query): PageQuery {
  return { page: int(q, 'page', 1, 1, INT4_MAX), perPage: int(q, 'per_page', DEFAULT_PER_PAGE, 1, MAX_PER_PAGE) };
}

export interface AlertListQuery {
  filter: AlertFilter;
  order: AlertOrder;
  paging: AlertPaging;
  perPage: number;
  /** page mode only */
  page: number;
  cursorMode: boolean;
  hideSecret: boolean;
}

/** The filter and paging query parameters of endpoints 1 and 2. */
export function parseAlertListQuery(q: Query): AlertListQuery {
  const filter: AlertFilter = {
    state: oneNonEmpty(q, 'state'),
    secretTypes: list(q, 'secret_type'),
    excludeSecretTypes: list(q, 'exclude_secret_types'),
    providers: list(q, 'providers'),
    excludeProviders: list(q, 'exclude_providers'),
    resolutions: list(q, 'resolution'),
    assignee: oneNonEmpty(q, 'assignee'),
    validities: list(q, 'validity'),
    isPubliclyLeaked: bool(q, 'is_publicly_leaked'),
    isMultiRepo: bool(q, 'is_multi_repo'),
    isBypassed: bool(q, 'is_bypassed'),
    includedMetadata: list(q, 'included_metadata'),
    ownerEmailHash: oneNonEmpty(q, 'owner_email_hash'),
  };
  const order: AlertOrder = { sort: oneNonEmpty(q, 'sort'), direction: oneNonEmpty(q, 'direction') };
  const hideSecret = bool(q, 'hide_secret') ?? false;

  const perPage = int(q, 'per_page', DEFAULT_PER_PAGE, 1, MAX_PER_PAGE);
  const before = one(q, 'before');
  const after = one(q, 'after');
  const cursorMode = before !== undefined || after !== undefined;
  let paging: AlertPaging;
  let page = 1;
  if (cursorMode) {
    if (q.page !== undefined) {
      throw new ValidationError('Invalid request: page cannot be combined with before or after', {
        fieldErrors: [{ resource: 'SecretScanningAlert', field: 'page', code: 'invalid', message: 'page cannot be combined with before or after' }],
      });
    }
    // An empty cursor asks for an initial one: the first page in cursor mode.
    if (after) paging = { mode: 'cursor', first: perPage, after, before: before || null };
    else if (before) paging = { mode: 'cursor', last: perPage, before };
    else paging = { mode: 'cursor', first: perPage };
  } else {
    page = int(q, 'page', 1, 1, INT4_MAX);
    paging = { mode: 'page', page, perPage };
  }
  return { filter, order, paging, perPage, page, cursorMode, hideSecret };
}

/** `alert_number`: a positive integer (32-bit, as stored); anything else names no alert -> 404. */
export function parseAlertNumber(raw: string | undefined): number {
  const n = parseInteger(raw, POSITIVE_INT4, { canonical: true });
  if (n === undefined) throw new NotFoundError();
  return n;
}

/** A JSON object body (a missing body counts as `{}`); anything else is GitHub's 400. */
function objectBody(body: unknown): Record<string, unknown> {
  if (body === undefined) return {};
  if (body === null || typeof body !== 'object' || Array.isArray(body)) throw new ValidationError('Body should be a JSON object', { status: 400 });
  return body as Record<string, unknown>;
}

const UPDATE_KEYS = ['state', 'resolution', 'resolution_comment', 'assignee', 'validity'] as const;

/** PATCH body -> AlertUpdate: a key present with null differs from an absent key (`present`). */
export function toAlertUpdate(body: unknown): AlertUpdate {
  const b = objectBody(body);
  return {
    state: b.state,
    resolution: b.resolution,
    resolutionComment: b.resolution_comment,
    assignee: b.assignee,
    validity: b.validity,
    present: new Set(UPDATE_KEYS.filter((k) => Object.hasOwn(b, k))),
  };
}

// ---------------------------------------------------------------------------------------------------------
// Presenting lists.

async function repoRef(ctx: RequestContext, repo: RepositoryEntity): Promise<RepoRef> {
  const owner = await ctx.loaders.accountById.load(repo.ownerId);
  if (!owner) throw new NotFoundError();
  return { repo, owner };
}

async function presentAlertList(
  ctx: RequestContext,
  req: RestRequest,
  q: AlertListQuery,
  page: AlertPage,
  variant: 'repository' | 'organization',
  known: RepoRef[],
): Promise<RestResult> {
  const base = ctx.config.publicUrl;
  const refs = await loadAlertRefs(ctx, page.items, known);
  const body = page.items.map((a) => presentAlert(a, refs, { base, variant, hideSecret: q.hideSecret }));
  let link: string | undefined;
  if (q.cursorMode) {
    const first = page.items[0];
    const last = page.items[page.items.length - 1];
    link = cursorModeLinks(base, requestTarget(req), {
      perPage: q.perPage,
      nextCursor: page.hasNextPage && last ? page.cursorOf(last) : null,
      prevCursor: page.hasPreviousPage && first ? page.cursorOf(first) : null,
    });
  } else {
    link = await pageModeLinks(base, requestTarget(req), { page: q.page, perPage: q.perPage, hasNextPage: page.hasNextPage, lastPage: page.lastPage });
  }
  return { headers: link ? { link } : undefined, body };
}

// ---------------------------------------------------------------------------------------------------------
// OpenAPI descriptions.

const TAGS = ['secret-scanning'];

const API_VERSION_PARAM: ParamSpec = {
  name: 'X-Service-Api-Version',
  in: 'header',
  description: `The API version (X-GitHub-Api-Version is accepted too). Unversioned requests get ${API_VERSION}; any other value is 400.`,
  schema: { type: 'string', enum: [API_VERSION], default: API_VERSION },
};

const OWNER_REPO_PARAMS: ParamSpec[] = [
  { name: 'owner', in: 'path', required: true, description: 'The account owner of the repository (case-insensitive).', schema: { type: 'string' } },
  { name: 'repo', in: 'path', required: true, description: 'The name of the repository without the .git extension (case-insensitive).', schema: { type: 'string' } },
];

const ALERT_NUMBER_PARAM: ParamSpec = {
  name: 'alert_number',
  in: 'path',
  required: true,
  description: 'The number that identifies an alert in its repository (the `number` field of the alert). Not a positive integer: 404.',
  schema: { type: 'integer', minimum: 1 },
};

const PAGE_PARAMS: ParamSpec[] = [
  { name: 'page', in: 'query', description: 'The page number of the results (page mode).', schema: { type: 'integer', minimum: 1, default: 1 } },
  {
    name: 'per_page',
    in: 'query',
    description: `The number of results per page, at most ${MAX_PER_PAGE} (a larger value is 422). Carried into every Link URL.`,
    schema: { type: 'integer', minimum: 1, maximum: MAX_PER_PAGE, default: DEFAULT_PER_PAGE },
  },
];

const csv = (description: string, values?: readonly string[]): Record<string, unknown> => ({
  type: 'string',
  description: values ? `${description} Comma-separated; values: ${values.join(', ')}.` : `${description} Comma-separated.`,
  ...(values ? { example: values.slice(0, 2).join(',') } : {}),
});

/** The filter and paging parameters of endpoints 1 and 2, in GitHub's order. */
const LIST_QUERY_PARAMS: ParamSpec[] = [
  { name: 'state', in: 'query', description: 'Only alerts in this state.', schema: { type: 'string', enum: ['open', 'resolved'] } },
  {
    name: 'secret_type',
    in: 'query',
    description: 'Only these secret types (generic patterns are returned by naming their token types here).',
    schema: csv('Secret type slugs.'),
  },
  { name: 'exclude_secret_types', in: 'query', description: 'Leave these secret types out; cannot be combined with secret_type (422).', schema: csv('Secret type slugs.') },
  {
    name: 'exclude_providers',
    in: 'query',
    description: 'Leave these providers out (lowercase slugs with underscores, e.g. amazon_aws); cannot be combined with providers (422).',
    schema: csv('Provider slugs.'),
  },
  { name: 'providers', in: 'query', description: 'Only these providers; cannot be combined with exclude_providers (422).', schema: csv('Provider slugs.') },
  {
    name: 'resolution',
    in: 'query',
    description: 'Only alerts with one of these resolutions.',
    schema: csv('Resolutions.', ['false_positive', 'wont_fix', 'revoked', 'pattern_edited', 'pattern_deleted', 'used_in_tests']),
  },
  { name: 'assignee', in: 'query', description: 'A login, `*` for alerts with any assignee, or `none` for unassigned alerts.', schema: { type: 'string', example: 'octocat' } },
  {
    name: 'sort',
    in: 'query',
    description: '`created` (when the alert was created) or `updated` (when it was last updated or resolved).',
    schema: { type: 'string', enum: ['created', 'updated'], default: 'created' },
  },
  { name: 'direction', in: 'query', description: 'The sort direction.', schema: { type: 'string', enum: ['asc', 'desc'], default: 'desc' } },
  ...PAGE_PARAMS,
  {
    name: 'before',
    in: 'query',
    description: 'A cursor from the Link header: only results before it. An empty value asks for an initial cursor. Cannot be combined with page.',
    schema: { type: 'string' },
  },
  {
    name: 'after',
    in: 'query',
    description: 'A cursor from the Link header: only results after it. An empty value asks for an initial cursor. Cannot be combined with page.',
    schema: { type: 'string' },
  },
  { name: 'validity', in: 'query', description: 'Only alerts with one of these validities.', schema: csv('Validities.', ['active', 'inactive', 'unknown']) },
  { name: 'is_publicly_leaked', in: 'query', description: 'true: only alerts tagged publicly leaked.', schema: { type: 'boolean', default: false } },
  { name: 'is_multi_repo', in: 'query', description: 'true: only alerts tagged multi-repo.', schema: { type: 'boolean', default: false } },
  { name: 'hide_secret', in: 'query', description: 'true: omit the `secret` field of every alert.', schema: { type: 'boolean', default: false } },
  {
    name: 'is_bypassed',
    in: 'query',
    description: 'true: only alerts created by a push protection bypass; false: only the others. Absent: no filter.',
    schema: { type: 'boolean' },
  },
  {
    name: 'included_metadata',
    in: 'query',
    description: 'Only alerts having ALL these metadata fields. This gateway stores no alert metadata, so the answer is always [].',
    schema: csv('Metadata fields.', INCLUDED_METADATA_VALUES),
  },
  {
    name: 'owner_email_hash',
    in: 'query',
    description: 'Only alerts whose owner_email metadata has this lowercase hex SHA-256. No alert carries metadata here: always [].',
    schema: { type: 'string', pattern: '^[0-9a-f]{64}$' },
  },
];

const arrayOf = (name: string) => ({ type: 'array', items: { $ref: `#/components/schemas/${name}` } });
const schemaRef = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const LINK_NOTE = 'The Link header (rel next/prev, plus first/last in page mode) carries absolute URLs with every filter and per_page.';
const UNAVAILABLE = { description: 'Service unavailable' };

// ---------------------------------------------------------------------------------------------------------
// The rows.

interface ListOrgInput {
  org: string;
  q: AlertListQuery;
}
interface ListRepoInput {
  owner: string;
  repo: string;
  q: AlertListQuery;
}
interface AlertInput {
  owner: string;
  repo: string;
  number: number;
}

export const githubSecretScanningRoutes: RestRoute<any, any>[] = [
  // 1
  route<ListOrgInput, { q: AlertListQuery; org: AccountEntity; page: AlertPage }>({
    family: 'github',
    method: 'GET',
    path: '/orgs/{org}/secret-scanning/alerts',
    operationId: 'secret-scanning/list-alerts-for-org',
    summary: 'List secret scanning alerts for an organization',
    tags: TAGS,
    parameters: [
      { name: 'org', in: 'path', required: true, description: 'The organization name (case-insensitive).', schema: { type: 'string' } },
      ...LIST_QUERY_PARAMS,
      API_VERSION_PARAM,
    ],
    responses: {
      '200': { description: `Alerts of the organization's repositories with secret scanning enabled, newest first. ${LINK_NOTE}`, schema: arrayOf('organization-secret-scanning-alert') },
      '403': { description: 'The viewer is a member but not an owner or security manager, or the token lacks the scope' },
      '404': { description: 'Resource not found' },
      '422': { description: 'Validation failed (bad filter value, mutually exclusive filters, per_page over 100)' },
      '503': UNAVAILABLE,
    },
    input: (req) => ({ org: req.params.org, q: parseAlertListQuery(req.query) }),
    handle: async (ctx, i) => {
      const { org, page } = await ctx.services.secretScanningAlerts.listOrganizationAlerts(ctx, await ctx.services.identity.findAccount(ctx, i.org), i.q.filter, i.q.order, i.q.paging);
      return { q: i.q, org, page };
    },
    present: (r, ctx, req) => presentAlertList(ctx, req, r.q, r.page, 'organization', []),
  }),

  // 2
  route<ListRepoInput, { q: AlertListQuery; repo: RepositoryEntity; page: AlertPage }>({
    family: 'github',
    method: 'GET',
    path: '/repos/{owner}/{repo}/secret-scanning/alerts',
    operationId: 'secret-scanning/list-alerts-for-repo',
    summary: 'List secret scanning alerts for a repository',
    tags: TAGS,
    parameters: [...OWNER_REPO_PARAMS, ...LIST_QUERY_PARAMS, API_VERSION_PARAM],
    responses: {
      '200': { description: `Alerts of the repository, newest first. ${LINK_NOTE}`, schema: arrayOf('secret-scanning-alert') },
      '403': { description: 'The viewer may see the repository but is not an admin (or the token lacks the permission)' },
      '404': { description: 'Repository not found or not visible, or secret scanning is disabled for it' },
      '422': { description: 'Validation failed (bad filter value, mutually exclusive filters, per_page over 100)' },
      '503': UNAVAILABLE,
    },
    input: (req) => ({ owner: req.params.owner, repo: req.params.repo, q: parseAlertListQuery(req.query) }),
    handle: async (ctx, i) => {
      const { repo, page } = await ctx.services.secretScanningAlerts.listRepositoryAlerts(ctx, await ctx.services.identity.findRepository(ctx, i.owner, i.repo), i.q.filter, i.q.order, i.q.paging);
      return { q: i.q, repo, page };
    },
    present: async (r, ctx, req) => presentAlertList(ctx, req, r.q, r.page, 'repository', [await repoRef(ctx, r.repo)]),
  }),

  // 3
  route<AlertInput & { hideSecret: boolean }, { hideSecret: boolean; repo: RepositoryEntity; alert: SecretScanningAlertEntity }>({
    family: 'github',
    method: 'GET',
    path: '/repos/{owner}/{repo}/secret-scanning/alerts/{alert_number}',
    operationId: 'secret-scanning/get-alert',
    summary: 'Get a secret scanning alert',
    tags: TAGS,
    parameters: [
      ...OWNER_REPO_PARAMS,
      ALERT_NUMBER_PARAM,
      { name: 'hide_secret', in: 'query', description: 'true: omit the `secret` field.', schema: { type: 'boolean', default: false } },
      { name: 'If-None-Match', in: 'header', description: 'An ETag of this alert: 304 when it still matches.', schema: { type: 'string' } },
      API_VERSION_PARAM,
    ],
    responses: {
      '200': { description: 'The alert, with a strong ETag (which differs between hide_secret variants)', schema: schemaRef('secret-scanning-alert-with-metadata') },
      '304': { description: 'Not modified: If-None-Match matched the ETag (no body)' },
      '403': { description: 'The viewer may see the repository but is not an admin (or the token lacks the permission)' },
      '404': { description: 'Repository not visible, secret scanning disabled, or the alert is not found' },
      '503': UNAVAILABLE,
    },
    input: (req) => ({
      owner: req.params.owner,
      repo: req.params.repo,
      number: parseAlertNumber(req.params.alert_number),
      hideSecret: bool(req.query, 'hide_secret') ?? false,
    }),
    handle: async (ctx, i) => ({ hideSecret: i.hideSecret, ...(await ctx.services.secretScanningAlerts.getAlert(ctx, await ctx.services.identity.findRepository(ctx, i.owner, i.repo), i.number)) }),
    present: async (r, ctx, req) => {
      const refs = await loadAlertRefs(ctx, [r.alert], [await repoRef(ctx, r.repo)]);
      const body = presentAlert(r.alert, refs, { base: ctx.config.publicUrl, variant: 'single', hideSecret: r.hideSecret });
      const etag = alertEtag(body, r.hideSecret);
      const headers = { etag, 'cache-control': 'private, max-age=0, must-revalidate', vary: 'Accept, Authorization' };
      if (etagMatches(req.headers['if-none-match'], etag)) return { status: 304, headers };
      return { headers, body };
    },
  }),

  // 4
  route<AlertInput & { update: AlertUpdate }, { repo: RepositoryEntity; alert: SecretScanningAlertEntity }>({
    family: 'github',
    method: 'PATCH',
    path: '/repos/{owner}/{repo}/secret-scanning/alerts/{alert_number}',
    operationId: 'secret-scanning/update-alert',
    summary: 'Update a secret scanning alert',
    tags: TAGS,
    parameters: [...OWNER_REPO_PARAMS, ALERT_NUMBER_PARAM, API_VERSION_PARAM],
    requestBody: {
      type: 'object',
      description: 'At least one of state, assignee or validity. A key sent as null differs from an absent key.',
      properties: {
        state: { $ref: '#/components/schemas/secret-scanning-alert-state' },
        resolution: { $ref: '#/components/schemas/secret-scanning-alert-resolution' },
        resolution_comment: {
          type: 'string',
          nullable: true,
          maxLength: 280,
          description: 'A comment when closing or reopening the alert; cannot be updated or deleted once set.',
        },
        assignee: { type: 'string', nullable: true, description: 'The login of a user with write access to the repository; null unassigns.' },
        validity: { type: 'string', nullable: true, enum: ['active', 'inactive', null], description: 'Sets the validity; null clears the override.' },
      },
      anyOf: [{ required: ['state'] }, { required: ['assignee'] }, { required: ['validity'] }],
    },
    responses: {
      '200': { description: 'The updated alert', schema: schemaRef('secret-scanning-alert-with-metadata') },
      '400': { description: 'Resolution comment invalid, or the resolution was not changed; or the body is not a JSON object' },
      '403': { description: 'Delegated alert dismissal is enabled and the user is not a valid reviewer, or the viewer lacks permission' },
      '404': { description: 'Repository not visible, secret scanning disabled, or the alert is not found' },
      '422': { description: 'State does not match the resolution or resolution comment; assignee lacks write access; invalid validity' },
      '503': UNAVAILABLE,
    },
    input: (req) => ({ owner: req.params.owner, repo: req.params.repo, number: parseAlertNumber(req.params.alert_number), update: toAlertUpdate(req.body) }),
    handle: async (ctx, i) => ctx.services.secretScanningAlertUpdates.updateAlert(ctx, await ctx.services.identity.findRepository(ctx, i.owner, i.repo), i.number, i.update),
    present: async (r, ctx) => {
      const refs = await loadAlertRefs(ctx, [r.alert], [await repoRef(ctx, r.repo)]);
      return { body: presentAlert(r.alert, refs, { base: ctx.config.publicUrl, variant: 'single' }) };
    },
  }),

  // 5
  route<AlertInput & PageQuery, { q: PageQuery; repo: RepositoryEntity; page: Page<SecretScanningLocationEntity> }>({
    family: 'github',
    method: 'GET',
    path: '/repos/{owner}/{repo}/secret-scanning/alerts/{alert_number}/locations',
    operationId: 'secret-scanning/list-locations-for-alert',
    summary: 'List locations for a secret scanning alert',
    tags: TAGS,
    parameters: [...OWNER_REPO_PARAMS, ALERT_NUMBER_PARAM, ...PAGE_PARAMS, API_VERSION_PARAM],
    responses: {
      '200': { description: `The places the secret was found, oldest first. ${LINK_NOTE}`, schema: arrayOf('secret-scanning-location') },
      '403': { description: 'The viewer may see the repository but is not an admin (or the token lacks the permission)' },
      '404': { description: 'Repository not visible, secret scanning disabled, or the alert is not found' },
      '422': { description: 'page or per_page out of range' },
      '503': UNAVAILABLE,
    },
    input: (req) => ({ owner: req.params.owner, repo: req.params.repo, number: parseAlertNumber(req.params.alert_number), ...parsePageQuery(req.query) }),
    handle: async (ctx, i) => {
      const { repo, page } = await ctx.services.secretScanningAlerts.listLocations(ctx, await ctx.services.identity.findRepository(ctx, i.owner, i.repo), i.number, { page: i.page, perPage: i.perPage });
      return { q: { page: i.page, perPage: i.perPage }, repo, page };
    },
    present: async (r, ctx, req) => {
      const ref = await repoRef(ctx, r.repo);
      const base = ctx.config.publicUrl;
      const link = await pageModeLinks(base, requestTarget(req), { page: r.q.page, perPage: r.q.perPage, hasNextPage: r.page.hasNextPage, lastPage: r.page.lastPage });
      return { headers: link ? { link } : undefined, body: r.page.items.map((l) => presentLocation(l, ref, base)) };
    },
  }),

  // 6
  route<{ owner: string; repo: string; reason: unknown; placeholderId: unknown }, BypassResult>({
    family: 'github',
    method: 'POST',
    path: '/repos/{owner}/{repo}/secret-scanning/push-protection-bypasses',
    operationId: 'secret-scanning/create-push-protection-bypass',
    summary: 'Create a push protection bypass',
    tags: TAGS,
    parameters: [...OWNER_REPO_PARAMS, API_VERSION_PARAM],
    requestBody: {
      type: 'object',
      properties: {
        reason: { $ref: '#/components/schemas/secret-scanning-push-protection-bypass-reason' },
        placeholder_id: { type: 'string', description: 'The ID of the push protection bypass placeholder, returned by a blocked push.' },
      },
      required: ['reason', 'placeholder_id'],
    },
    responses: {
      '200': { description: 'The bypass (200, as on GitHub, not 201)', schema: schemaRef('secret-scanning-push-protection-bypass') },
      '403': { description: 'User does not have enough permissions (only the author of the pushed secret may bypass)' },
      '404': { description: 'Placeholder ID not found, or push protection is disabled on the repository' },
      '422': { description: 'Input missing or incorrect' },
      '503': UNAVAILABLE,
    },
    input: (req) => {
      const b = objectBody(req.body);
      return { owner: req.params.owner, repo: req.params.repo, reason: b.reason, placeholderId: b.placeholder_id };
    },
    handle: async (ctx, i) => ctx.services.secretScanningPush.createBypass(ctx, await ctx.services.identity.findRepository(ctx, i.owner, i.repo), { reason: i.reason, placeholderId: i.placeholderId }),
    present: (r) => ({ status: 200, body: presentBypass(r) }),
  }),

  // 7
  route<{ owner: string; repo: string }, { scans: Record<ScanKind, SecretScanningScanEntity[]> }>({
    family: 'github',
    method: 'GET',
    path: '/repos/{owner}/{repo}/secret-scanning/scan-history',
    operationId: 'secret-scanning/get-scan-history',
    summary: 'Get secret scanning scan history for a repository',
    tags: TAGS,
    parameters: [...OWNER_REPO_PARAMS, API_VERSION_PARAM],
    responses: {
      '200': { description: 'The latest scan of each kind and type', schema: schemaRef('secret-scanning-scan-history') },
      '403': { description: 'The viewer may see the repository but is not an admin (or the token lacks the permission)' },
      '404': { description: 'Repository not visible, or it lacks advanced security or secret scanning' },
      '503': UNAVAILABLE,
    },
    input: (req) => ({ owner: req.params.owner, repo: req.params.repo }),
    handle: async (ctx, i) => ctx.services.secretScanningScans.scanHistory(ctx, await ctx.services.identity.findRepository(ctx, i.owner, i.repo)),
    present: (r) => ({ body: presentScanHistory(r.scans) }),
  }),
];

// ---------------------------------------------------------------------------------------------------------
// OpenAPI document.

export const SECRET_SCANNING_OPENAPI_URL = '/openapi/secret-scanning.json';

export function isSecretScanningPath(path: string): boolean {
  return /^\/(orgs\/\{org\}|repos\/\{owner\}\/\{repo\})\/secret-scanning(\/|$)/.test(path);
}

/** The OpenAPI 3.0.3 document of the secret scanning operations among `routes`. */
export function buildSecretScanningOpenApi(routes: RestRoute<any, any>[], serverUrl: string) {
  return buildOpenApi(routes, {
    title: 'Secret scanning REST API (GitHub-compatible)',
    version: API_VERSION,
    description: 'Secret scanning alerts, locations, push protection bypasses and scan history, in the shapes of the GitHub REST API.',
    serverUrl,
    family: 'github',
    pathFilter: (p) => isSecretScanningPath(p),
    schemas: SECRET_SCANNING_SCHEMAS,
  });
}

/**
 * Serve GET /openapi/secret-scanning.json. The document is built on first request, so `config.publicUrl`
 * (which may learn its port only at listen time) is read then.
 */
export function registerSecretScanningOpenApi(
  app: FastifyInstance,
  config: Pick<AppConfig, 'publicUrl'>,
  routes: RestRoute<any, any>[] = githubSecretScanningRoutes,
): void {
  registerOpenApiRoute(app, SECRET_SCANNING_OPENAPI_URL, () => buildSecretScanningOpenApi(routes, config.publicUrl));
}
