/**
 * The parameters of the GitHub-compatible secret scanning routes, each declared ONCE (src/rest/params.ts):
 * the declaration reads the value and documents it in OpenAPI. Plus the two mappings that combine several
 * parameters: the alert list query (filters + paging) and the PATCH body.
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
import { NotFoundError, ValidationError } from '../../errors/app-error';
import { REQUEST_CODES } from '../../errors/codes';
import { parseInteger, POSITIVE_INT4 } from '../../services/common/decode';
import { INCLUDED_METADATA_VALUES } from '../../services/secret-scanning/alert-types';
import type { AlertFilter, AlertOrder, AlertPaging, AlertUpdate } from '../../services/secret-scanning/alert-types';
import { headerParam, pathParam, queryParams } from '../params';
import type { RestRequest } from '../route-table';

export const DEFAULT_PER_PAGE = 30;
export const MAX_PER_PAGE = 100;

const q = queryParams('SecretScanningAlert');

// ---------------------------------------------------------------------------------------------------------
// Path and header parameters.

// The GitHub family's shared ones (API version, org, owner, repo) are declared in ./params.
export { apiVersion, org, owner, repo } from './params';

/** `alert_number`: a positive integer (32-bit, as stored); anything else names no alert -> 404. */
export function parseAlertNumber(raw: string | undefined): number {
  const n = parseInteger(raw, POSITIVE_INT4, { canonical: true });
  if (n === undefined) throw new NotFoundError();
  return n;
}

export const alertNumber = pathParam('alert_number', {
  description: 'The number that identifies an alert in its repository (the `number` field of the alert). Not a positive integer: 404.',
  schema: { type: 'integer', minimum: 1 },
  field: 'number',
  decode: parseAlertNumber,
});

export const ifNoneMatch = headerParam('If-None-Match', { description: 'An ETag of this alert: 304 when it still matches.' });

export const hideSecret = q.bool('hide_secret', { description: 'true: omit the `secret` field of every alert.', default: false });
export const hideSecretOne = q.bool('hide_secret', { description: 'true: omit the `secret` field.', default: false });

// ---------------------------------------------------------------------------------------------------------
// Paging.

export const page = q.int('page', { description: 'The page number of the results (page mode).', min: 1, default: 1 });
export const perPage = q.int('per_page', {
  description: `The number of results per page, at most ${MAX_PER_PAGE} (a larger value is 422). Carried into every Link URL.`,
  min: 1,
  max: MAX_PER_PAGE,
  default: DEFAULT_PER_PAGE,
});

export const PAGE_PARAMS = [page, perPage];

export interface PageQuery {
  page: number;
  perPage: number;
}

export function parsePageQuery(req: Pick<RestRequest, 'params' | 'query' | 'headers'>): PageQuery {
  return { page: page.read(req), perPage: perPage.read(req) };
}

// ---------------------------------------------------------------------------------------------------------
// The filters and paging of endpoints 1 and 2, in GitHub's order.

export const list = {
  state: q.string('state', { description: 'Only alerts in this state.', nonEmpty: true, schema: { type: 'string', enum: ['open', 'resolved'] } }),
  secretType: q.csv('secret_type', {
    description: 'Only these secret types (generic patterns are returned by naming their token types here).',
    itemsDescription: 'Secret type slugs.',
    field: 'secretTypes',
  }),
  excludeSecretTypes: q.csv('exclude_secret_types', {
    description: 'Leave these secret types out; cannot be combined with secret_type (422).',
    itemsDescription: 'Secret type slugs.',
    field: 'excludeSecretTypes',
  }),
  excludeProviders: q.csv('exclude_providers', {
    description: 'Leave these providers out (lowercase slugs with underscores, e.g. amazon_aws); cannot be combined with providers (422).',
    itemsDescription: 'Provider slugs.',
    field: 'excludeProviders',
  }),
  providers: q.csv('providers', {
    description: 'Only these providers; cannot be combined with exclude_providers (422).',
    itemsDescription: 'Provider slugs.',
    field: 'providers',
  }),
  resolution: q.csv('resolution', {
    description: 'Only alerts with one of these resolutions.',
    itemsDescription: 'Resolutions.',
    values: ['false_positive', 'wont_fix', 'revoked', 'pattern_edited', 'pattern_deleted', 'used_in_tests'],
    field: 'resolutions',
  }),
  assignee: q.string('assignee', {
    description: 'A login, `*` for alerts with any assignee, or `none` for unassigned alerts.',
    nonEmpty: true,
    schema: { type: 'string', example: 'octocat' },
  }),
  sort: q.string('sort', {
    description: '`created` (when the alert was created) or `updated` (when it was last updated or resolved).',
    nonEmpty: true,
    schema: { type: 'string', enum: ['created', 'updated'], default: 'created' },
  }),
  direction: q.string('direction', { description: 'The sort direction.', nonEmpty: true, schema: { type: 'string', enum: ['asc', 'desc'], default: 'desc' } }),
  page,
  perPage,
  before: q.string('before', {
    description: 'A cursor from the Link header: only results before it. An empty value asks for an initial cursor. Cannot be combined with page.',
  }),
  after: q.string('after', {
    description: 'A cursor from the Link header: only results after it. An empty value asks for an initial cursor. Cannot be combined with page.',
  }),
  validity: q.csv('validity', {
    description: 'Only alerts with one of these validities.',
    itemsDescription: 'Validities.',
    values: ['active', 'inactive', 'unknown'],
    field: 'validities',
  }),
  isPubliclyLeaked: q.bool('is_publicly_leaked', { description: 'true: only alerts tagged publicly leaked.', default: false, field: 'isPubliclyLeaked' }),
  isMultiRepo: q.bool('is_multi_repo', { description: 'true: only alerts tagged multi-repo.', default: false, field: 'isMultiRepo' }),
  hideSecret,
  isBypassed: q.bool('is_bypassed', {
    description: 'true: only alerts created by a push protection bypass; false: only the others. Absent: no filter.',
    field: 'isBypassed',
  }),
  includedMetadata: q.csv('included_metadata', {
    description: 'Only alerts having ALL these metadata fields. This gateway stores no alert metadata, so the answer is always [].',
    itemsDescription: 'Metadata fields.',
    values: INCLUDED_METADATA_VALUES,
    field: 'includedMetadata',
  }),
  ownerEmailHash: q.string('owner_email_hash', {
    description: 'Only alerts whose owner_email metadata has this lowercase hex SHA-256. No alert carries metadata here: always [].',
    nonEmpty: true,
    schema: { type: 'string', pattern: '^[0-9a-f]{64}$' },
    field: 'ownerEmailHash',
  }),
};

/** The declarations of the list parameters, in GitHub's order (for OpenAPI). */
export const LIST_QUERY_PARAMS = Object.values(list);

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
export function parseAlertListQuery(req: Pick<RestRequest, 'params' | 'query' | 'headers'>): AlertListQuery {
  const filter: AlertFilter = {
    state: list.state.read(req),
    secretTypes: list.secretType.read(req),
    excludeSecretTypes: list.excludeSecretTypes.read(req),
    providers: list.providers.read(req),
    excludeProviders: list.excludeProviders.read(req),
    resolutions: list.resolution.read(req),
    assignee: list.assignee.read(req),
    validities: list.validity.read(req),
    isPubliclyLeaked: list.isPubliclyLeaked.read(req),
    isMultiRepo: list.isMultiRepo.read(req),
    isBypassed: list.isBypassed.read(req),
    includedMetadata: list.includedMetadata.read(req),
    ownerEmailHash: list.ownerEmailHash.read(req),
  };
  const order: AlertOrder = { sort: list.sort.read(req), direction: list.direction.read(req) };
  const hide = list.hideSecret.read(req);

  const size = list.perPage.read(req);
  const before = list.before.read(req);
  const after = list.after.read(req);
  const cursorMode = before !== undefined || after !== undefined;
  let paging: AlertPaging;
  let pageNumber = 1;
  if (cursorMode) {
    if (req.query.page !== undefined) {
      throw new ValidationError('Invalid request: page cannot be combined with before or after', {
        fieldErrors: [{ resource: 'SecretScanningAlert', field: 'page', code: 'invalid', message: 'page cannot be combined with before or after' }],
      });
    }
    // An empty cursor asks for an initial one: the first page in cursor mode.
    if (after) paging = { mode: 'cursor', first: size, after, before: before || null };
    else if (before) paging = { mode: 'cursor', last: size, before };
    else paging = { mode: 'cursor', first: size };
  } else {
    pageNumber = list.page.read(req);
    paging = { mode: 'page', page: pageNumber, perPage: size };
  }
  return { filter, order, paging, perPage: size, page: pageNumber, cursorMode, hideSecret: hide };
}

// ---------------------------------------------------------------------------------------------------------
// Bodies.

/** A JSON object body (a missing body counts as `{}`); anything else is GitHub's 400. */
export function objectBody(body: unknown): Record<string, unknown> {
  if (body === undefined) return {};
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw new ValidationError('Body should be a JSON object', { domainCode: REQUEST_CODES.BODY_NOT_OBJECT });
  }
  return body as Record<string, unknown>;
}

/** PATCH body -> AlertUpdate (the domain's names): a key present with null differs from an absent key (`present`). */
export function toAlertUpdate(body: unknown): AlertUpdate {
  const b = objectBody(body);
  const update: AlertUpdate = {};
  if (Object.hasOwn(b, 'state')) update.state = b.state;
  if (Object.hasOwn(b, 'resolution')) update.resolution = b.resolution;
  if (Object.hasOwn(b, 'resolution_comment')) update.resolutionComment = b.resolution_comment;
  if (Object.hasOwn(b, 'assignee')) update.assignee = b.assignee;
  if (Object.hasOwn(b, 'validity')) update.validity = b.validity;
  return update;
}
