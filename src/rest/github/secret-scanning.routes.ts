/**
 * GitHub-compatible secret scanning REST routes (family `github`), one route-table row per operation:
 *   1 GET   /orgs/{org}/secret-scanning/alerts                                  secret-scanning/list-alerts-for-org
 *   2 GET   /repos/{owner}/{repo}/secret-scanning/alerts                        secret-scanning/list-alerts-for-repo
 *   3 GET   /repos/{owner}/{repo}/secret-scanning/alerts/{alert_number}         secret-scanning/get-alert
 *   4 PATCH /repos/{owner}/{repo}/secret-scanning/alerts/{alert_number}         secret-scanning/update-alert
 *   5 GET   /repos/{owner}/{repo}/secret-scanning/alerts/{alert_number}/locations  secret-scanning/list-locations-for-alert
 *   6 POST  /repos/{owner}/{repo}/secret-scanning/push-protection-bypasses      secret-scanning/create-push-protection-bypass
 *   7 GET   /repos/{owner}/{repo}/secret-scanning/scan-history                  secret-scanning/get-scan-history
 * Access rules and business rules live in the secret scanning services (the same methods GraphQL calls);
 * these rows only map HTTP onto them and shape the answers. Parameters are declared once in
 * secret-scanning.params.ts (parsing + OpenAPI); the OpenAPI document is secret-scanning.openapi.ts.
 */
import type { FastifyInstance } from 'fastify';
import type { AccountEntity, RepositoryEntity } from '../../../entities/identity';
import type { ScanKind, SecretScanningAlertEntity, SecretScanningLocationEntity, SecretScanningScanEntity } from '../../../entities/secret-scanning';
import type { RequestContext } from '../../context';
import type { Page } from '../../services/common/pagination';
import type { AlertPage, AlertUpdate } from '../../services/secret-scanning/alert-types';
import type { BypassResult } from '../../services/secret-scanning/push.service';
import { buildFamilyDocument, registerOpenApiRoute } from '../openapi';
import { RestRequest, RestResult, RestRoute, route } from '../route-table';
import { githubFamily } from './family';
import { jsonArrayOfTexts } from '../json-body';
import { memosOf, sameRow, SourceRows } from '../text-memo';
import { cursorModeLinks, lastPageOf, pageModeLinks, requestTarget } from './link';
import * as P from './secret-scanning.params';
import type { AlertListQuery, PageQuery } from './secret-scanning.params';
import { isSecretScanningPath, SECRET_SCANNING_OPENAPI_URL, secretScanningOpenApiDocument } from './secret-scanning.openapi';
import { AlertRefs, alertEtag, AnswerPresentations, etagMatches, LISTED_ALERT_TEXT, presentAlert, presentBypass, presentLocation, presentScanHistory, RepoRef, SECRET_SCANNING_SCHEMAS } from './secret-scanning.presenters';
import { loadAlertRefs, repoRef } from './secret-scanning.refs';

export { isSecretScanningPath, SECRET_SCANNING_OPENAPI_URL, SECRET_SCANNING_SCHEMAS };

// ---------------------------------------------------------------------------------------------------------
// Presenting lists.

type ListVariant = 'repository' | 'organization';

/**
 * A page of alerts with everything the answer needs: the body memoized for the same page (the alert page memo), or the
 * references to present it; the last page's number in page mode.
 */
interface AlertListResult {
  page: AlertPage;
  variant: ListVariant;
  /** The rows outside the page's text the answer is made from: the organization, or the repository and its owner. */
  scope: RepoRef | AccountEntity;
  memoized?: Buffer;
  refs?: AlertRefs;
  lastPage?: number;
}

function listMadeWith(ctx: RequestContext, q: AlertListQuery, variant: ListVariant): { kind: string; madeWith: string } {
  const kind = `${variant}${q.hideSecret ? 1 : 0}`;
  return { kind, madeWith: `${kind}\u0000${ctx.config.publicUrl}` };
}

function scopeRows(scope: RepoRef | AccountEntity): SourceRows {
  return 'repo' in scope ? [scope.repo, scope.owner] : [scope];
}

async function alertListResult(ctx: RequestContext, q: AlertListQuery, page: AlertPage, variant: ListVariant, scope: RepoRef | AccountEntity): Promise<AlertListResult> {
  const lastPage = q.cursorMode ? undefined : lastPageOf(page);
  // Whole list answers by the text their page was read from (`Page.source`) and their scope rows (the app's
  // alert page memo): a dashboard asking for the same page again gets the same bytes without its rows being
  // presented (nor, in page mode, parsed).
  const memoized = memosOf(ctx).alertPages.get(ctx.db, page.source, listMadeWith(ctx, q, variant).madeWith, scopeRows(scope));
  if (memoized) return { page, variant, scope, memoized, lastPage: await lastPage };
  const [refs, last] = await Promise.all([loadAlertRefs(ctx, page.items, 'repo' in scope ? [scope] : []), lastPage]);
  return { page, variant, scope, refs, lastPage: last };
}


/** The list's body: memoized for this page, or presented (each alert's text reused when its rows are unchanged) and memoized. */
function alertListBody(ctx: RequestContext, q: AlertListQuery, r: AlertListResult): Buffer {
  if (r.memoized) return r.memoized;
  const { page, variant } = r;
  const refs = r.refs!;
  const base = ctx.config.publicUrl;
  // Each user and repository is presented once for the whole page; an alert whose rows are exactly those of an
  // earlier answer reuses that answer's text (the app's alert text memo).
  const presentations = new AnswerPresentations(base);
  const opts = { base, variant, hideSecret: q.hideSecret, presentations };
  const { madeWith } = listMadeWith(ctx, q, variant);
  const texts = memosOf(ctx).alertTexts;
  const body = texts.jsonArray(
    page.items.map((alert) => texts.textOf(ctx.db, LISTED_ALERT_TEXT, { alert, refs, opts })),
    jsonArrayOfTexts,
  );
  // The answer depends on the page's text and on the scope rows only when every repository's owner is a scope
  // row (an organization's alerts are of its own repositories; a repository's, of it), and when the items built
  // from the text are what the loaders gave the presenter: `page.source`, read now that the items are built, says so.
  // (A memoized answer is given for the text and scope rows alone: `alertListResult` needs no items for it.)
  const rows = scopeRows(r.scope);
  const owners = 'repo' in r.scope ? r.scope.owner : r.scope;
  let keep = true;
  for (const ref of refs.repos.values()) if (ref.owner !== owners && !sameRow(ctx.db, ref.owner, owners)) keep = false;
  if (keep) memosOf(ctx).alertPages.set(page.source, madeWith, rows, body);
  return body;
}

function presentAlertList(ctx: RequestContext, req: RestRequest, q: AlertListQuery, r: AlertListResult): RestResult {
  const { page } = r;
  const base = ctx.config.publicUrl;
  const body = alertListBody(ctx, q, r);
  if (q.cursorMode) {
    const first = page.items[0];
    const last = page.items[page.items.length - 1];
    const link = cursorModeLinks(base, requestTarget(req), {
      perPage: q.perPage,
      nextCursor: page.hasNextPage && last ? page.cursorOf(last) : null,
      prevCursor: page.hasPreviousPage && first ? page.cursorOf(first) : null,
    });
    return { headers: link ? { link } : undefined, body };
  }
  const link = pageModeLinks(base, requestTarget(req), { page: q.page, perPage: q.perPage, hasNextPage: page.hasNextPage, lastPage: r.lastPage });
  return { headers: link ? { link } : undefined, body };
}

const TAGS = ['secret-scanning'];
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
/** A single alert with everything its answer refers to. */
interface AlertResult {
  alert: SecretScanningAlertEntity;
  refs: AlertRefs;
}

const OWNER_REPO = [P.owner, P.repo];

export const githubSecretScanningRoutes: RestRoute<any, any>[] = [
  // 1
  route<ListOrgInput, AlertListResult>({
    family: 'github',
    method: 'GET',
    path: '/orgs/{org}/secret-scanning/alerts',
    operationId: 'secret-scanning/list-alerts-for-org',
    summary: 'List secret scanning alerts for an organization',
    tags: TAGS,
    parameters: [P.org, ...P.LIST_QUERY_PARAMS, P.apiVersion],
    responses: {
      '200': { description: `Alerts of the organization's repositories with secret scanning enabled, newest first. ${LINK_NOTE}`, schema: arrayOf('organization-secret-scanning-alert') },
      '403': { description: 'The viewer is a member but not an owner or security manager, or the token lacks the scope' },
      '404': { description: 'Resource not found' },
      '422': { description: 'Validation failed (bad filter value, mutually exclusive filters, per_page over 100)' },
      '503': UNAVAILABLE,
    },
    input: (req) => ({ org: P.org.read(req), q: P.parseAlertListQuery(req) }),
    handle: async (ctx, i) => {
      const { org, page } = await ctx.services.secretScanningAlerts.listOrganizationAlerts(ctx, await ctx.services.identity.findAccount(ctx, i.org), i.q.filter, i.q.order, i.q.paging);
      return alertListResult(ctx, i.q, page, 'organization', org);
    },
    present: (r, ctx, req, i) => presentAlertList(ctx, req, i.q, r),
  }),

  // 2
  route<ListRepoInput, AlertListResult>({
    family: 'github',
    method: 'GET',
    path: '/repos/{owner}/{repo}/secret-scanning/alerts',
    operationId: 'secret-scanning/list-alerts-for-repo',
    summary: 'List secret scanning alerts for a repository',
    tags: TAGS,
    parameters: [...OWNER_REPO, ...P.LIST_QUERY_PARAMS, P.apiVersion],
    responses: {
      '200': { description: `Alerts of the repository, newest first. ${LINK_NOTE}`, schema: arrayOf('secret-scanning-alert') },
      '403': { description: 'The viewer may see the repository but is not an admin (or the token lacks the permission)' },
      '404': { description: 'Repository not found or not visible, or secret scanning is disabled for it' },
      '422': { description: 'Validation failed (bad filter value, mutually exclusive filters, per_page over 100)' },
      '503': UNAVAILABLE,
    },
    input: (req) => ({ owner: P.owner.read(req), repo: P.repo.read(req), q: P.parseAlertListQuery(req) }),
    handle: async (ctx, i) => {
      const { repo, page } = await ctx.services.secretScanningAlerts.listRepositoryAlerts(ctx, await ctx.services.identity.findRepository(ctx, i.owner, i.repo), i.q.filter, i.q.order, i.q.paging);
      return alertListResult(ctx, i.q, page, 'repository', await repoRef(ctx, repo));
    },
    present: (r, ctx, req, i) => presentAlertList(ctx, req, i.q, r),
  }),

  // 3
  route<AlertInput & { hideSecret: boolean }, AlertResult>({
    family: 'github',
    method: 'GET',
    path: '/repos/{owner}/{repo}/secret-scanning/alerts/{alert_number}',
    operationId: 'secret-scanning/get-alert',
    summary: 'Get a secret scanning alert',
    tags: TAGS,
    parameters: [...OWNER_REPO, P.alertNumber, P.hideSecretOne, P.ifNoneMatch, P.apiVersion],
    responses: {
      '200': { description: 'The alert, with a strong ETag (which differs between hide_secret variants)', schema: schemaRef('secret-scanning-alert-with-metadata') },
      '304': { description: 'Not modified: If-None-Match matched the ETag (no body)' },
      '403': { description: 'The viewer may see the repository but is not an admin (or the token lacks the permission)' },
      '404': { description: 'Repository not visible, secret scanning disabled, or the alert is not found' },
      '503': UNAVAILABLE,
    },
    input: (req) => ({ owner: P.owner.read(req), repo: P.repo.read(req), number: P.alertNumber.read(req), hideSecret: P.hideSecretOne.read(req) }),
    handle: async (ctx, i) => {
      const { repo, alert } = await ctx.services.secretScanningAlerts.getAlert(ctx, await ctx.services.identity.findRepository(ctx, i.owner, i.repo), i.number);
      return { alert, refs: await loadAlertRefs(ctx, [alert], [await repoRef(ctx, repo)]) };
    },
    present: (r, ctx, req, i) => {
      const body = presentAlert(r.alert, r.refs, { base: ctx.config.publicUrl, variant: 'single', hideSecret: i.hideSecret });
      const etag = alertEtag(body, i.hideSecret);
      const headers = { etag, 'cache-control': 'private, max-age=0, must-revalidate', vary: 'Accept, Authorization' };
      if (etagMatches(P.ifNoneMatch.read(req), etag)) return { status: 304, headers };
      return { headers, body };
    },
  }),

  // 4
  route<AlertInput & { update: AlertUpdate }, AlertResult>({
    family: 'github',
    method: 'PATCH',
    path: '/repos/{owner}/{repo}/secret-scanning/alerts/{alert_number}',
    operationId: 'secret-scanning/update-alert',
    summary: 'Update a secret scanning alert',
    tags: TAGS,
    parameters: [...OWNER_REPO, P.alertNumber, P.apiVersion],
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
    // The service's "update" is this row's JSON body.
    names: { update: 'body' },
    responses: {
      '200': { description: 'The updated alert', schema: schemaRef('secret-scanning-alert-with-metadata') },
      '400': { description: 'Resolution comment invalid, or the resolution was not changed; or the body is not a JSON object' },
      '403': { description: 'Delegated alert dismissal is enabled and the user is not a valid reviewer, or the viewer lacks permission' },
      '404': { description: 'Repository not visible, secret scanning disabled, or the alert is not found' },
      '422': { description: 'State does not match the resolution or resolution comment; assignee lacks write access; invalid validity' },
      '503': UNAVAILABLE,
    },
    input: (req) => ({ owner: P.owner.read(req), repo: P.repo.read(req), number: P.alertNumber.read(req), update: P.toAlertUpdate(req.body) }),
    handle: async (ctx, i) => {
      const { repo, alert } = await ctx.services.secretScanningAlertUpdates.updateAlert(ctx, await ctx.services.identity.findRepository(ctx, i.owner, i.repo), i.number, i.update);
      return { alert, refs: await loadAlertRefs(ctx, [alert], [await repoRef(ctx, repo)]) };
    },
    present: (r, ctx) => ({ body: presentAlert(r.alert, r.refs, { base: ctx.config.publicUrl, variant: 'single' }) }),
  }),

  // 5
  route<AlertInput & PageQuery, { ref: RepoRef; page: Page<SecretScanningLocationEntity>; lastPage?: number }>({
    family: 'github',
    method: 'GET',
    path: '/repos/{owner}/{repo}/secret-scanning/alerts/{alert_number}/locations',
    operationId: 'secret-scanning/list-locations-for-alert',
    summary: 'List locations for a secret scanning alert',
    tags: TAGS,
    parameters: [...OWNER_REPO, P.alertNumber, ...P.PAGE_PARAMS, P.apiVersion],
    responses: {
      '200': { description: `The places the secret was found, oldest first. ${LINK_NOTE}`, schema: arrayOf('secret-scanning-location') },
      '403': { description: 'The viewer may see the repository but is not an admin (or the token lacks the permission)' },
      '404': { description: 'Repository not visible, secret scanning disabled, or the alert is not found' },
      '422': { description: 'page or per_page out of range' },
      '503': UNAVAILABLE,
    },
    input: (req) => ({ owner: P.owner.read(req), repo: P.repo.read(req), number: P.alertNumber.read(req), ...P.parsePageQuery(req) }),
    handle: async (ctx, i) => {
      const { repo, page } = await ctx.services.secretScanningAlerts.listLocations(ctx, await ctx.services.identity.findRepository(ctx, i.owner, i.repo), i.number, { page: i.page, perPage: i.perPage });
      return { ref: await repoRef(ctx, repo), page, lastPage: await lastPageOf(page) };
    },
    present: (r, ctx, req, i) => {
      const base = ctx.config.publicUrl;
      const link = pageModeLinks(base, requestTarget(req), { page: i.page, perPage: i.perPage, hasNextPage: r.page.hasNextPage, lastPage: r.lastPage });
      return { headers: link ? { link } : undefined, body: r.page.items.map((l) => presentLocation(l, r.ref, base)) };
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
    parameters: [...OWNER_REPO, P.apiVersion],
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
      const b = P.objectBody(req.body);
      return { owner: P.owner.read(req), repo: P.repo.read(req), reason: b.reason, placeholderId: b.placeholder_id };
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
    parameters: [...OWNER_REPO, P.apiVersion],
    responses: {
      '200': { description: 'The latest scan of each kind and type', schema: schemaRef('secret-scanning-scan-history') },
      '403': { description: 'The viewer may see the repository but is not an admin (or the token lacks the permission)' },
      '404': { description: 'Repository not visible, or it lacks advanced security or secret scanning' },
      '503': UNAVAILABLE,
    },
    input: (req) => ({ owner: P.owner.read(req), repo: P.repo.read(req) }),
    handle: async (ctx, i) => ctx.services.secretScanningScans.scanHistory(ctx, await ctx.services.identity.findRepository(ctx, i.owner, i.repo)),
    present: (r) => ({ body: presentScanHistory(r.scans) }),
  }),
];

// ---------------------------------------------------------------------------------------------------------
// OpenAPI document.

/** The OpenAPI 3.0.3 document of the secret scanning operations among `routes`. */
export function buildSecretScanningOpenApi(routes: RestRoute<any, any>[], serverUrl: string) {
  return buildFamilyDocument(routes, githubFamily, secretScanningOpenApiDocument, serverUrl);
}

/** Serve only GET /openapi/secret-scanning.json (the server serves every family's documents itself). */
export function registerSecretScanningOpenApi(app: FastifyInstance, config: { publicUrl: string }, routes: RestRoute<any, any>[] = githubSecretScanningRoutes): void {
  registerOpenApiRoute(app, SECRET_SCANNING_OPENAPI_URL, () => buildSecretScanningOpenApi(routes, config.publicUrl));
}
