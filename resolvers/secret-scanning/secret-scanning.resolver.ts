/**
 * Secret scanning fields of the graph: alert lists on organizations and repositories, one alert, its
 * locations, scan history, node(id:) for alerts, and the mutations. Thin: args -> the same services the
 * REST routes use (access rules live there) -> entities. Related rows (repository, users, first location)
 * go through the request's DataLoaders, so a page of alerts costs a fixed number of statements.
 */
import type { GraphQLResolveInfo } from 'graphql';
import { Arg, Args, createParameterDecorator, Ctx, FieldResolver, ID, Info, Int, Mutation, Resolver, Root } from 'type-graphql';
import { AccountEntity, RepositoryEntity } from '../../entities/identity';
import {
  ScanKind,
  SecretScanningAlertEntity,
  SecretScanningLocationEntity,
  SecretScanningScanEntity,
} from '../../entities/secret-scanning';
import type { RequestContext } from '../../src/context';
import { NotFoundError } from '../../src/errors/app-error';
import { parseFullName } from '../../src/services/identity/identity.service';
import type { AlertFilter, AlertOrder, AlertPage, AlertPaging, AlertUpdate, AlertUpdateField } from '../../src/services/secret-scanning/alert-types';
import type { AlertIncludes } from '../../src/services/secret-scanning/alert-queries';
import { alertIncludesFor } from '../../src/services/secret-scanning/alert-selection';
import type { PlaceholderResult } from '../../src/services/secret-scanning/push.service';
import { itemSelection } from '../common/lookahead';
import { Connection, ConnectionArgs, ConnectionShape, toConnection } from '../common/connection';
import { toGlobalId } from '../common/global-id';
import { registerNodeType } from '../common/node';
import { alertUrls, commitLocationUrls } from '../../src/services/secret-scanning/urls';
import { Organization, Repository, User } from '../identity/identity.type';
import {
  CreatePushProtectionBypassInput,
  CreatePushProtectionBypassPayload,
  SecretScanningAlert,
  SecretScanningAlertFilter,
  SecretScanningAlertOrder,
  SecretScanningAlertReference,
  SecretScanningCommitLocation,
  SecretScanningDiscussionBodyLocation,
  SecretScanningDiscussionCommentLocation,
  SecretScanningDiscussionTitleLocation,
  SecretScanningIssueBodyLocation,
  SecretScanningIssueCommentLocation,
  SecretScanningIssueTitleLocation,
  SecretScanningLocation,
  SecretScanningLocationDetails,
  SecretScanningPullRequestBodyLocation,
  SecretScanningPullRequestCommentLocation,
  SecretScanningPullRequestReviewCommentLocation,
  SecretScanningPullRequestReviewLocation,
  SecretScanningPullRequestTitleLocation,
  SecretScanningScanHistory,
  SecretScanningWikiCommitLocation,
  StartSecretScanInput,
  StartSecretScanPayload,
  SubmitContentInput,
  SubmitContentPayload,
  SubmitPushInput,
  SubmitPushPayload,
  UpdateSecretScanningAlertInput,
  UpdateSecretScanningAlertPayload,
} from './secret-scanning.type';

const SecretScanningAlertConnection = Connection(SecretScanningAlert, 'SecretScanningAlert');
const SecretScanningLocationConnection = Connection(SecretScanningLocation, 'SecretScanningLocation');

/** The arguments exactly as GraphQL coerced them: an input field sent as null is there, an absent one is not. */
const RawArgs = () => createParameterDecorator(({ args }) => args);

// ------------------------------------------------------------------ helpers

interface RepoWhere {
  repo: RepositoryEntity;
  owner: AccountEntity;
}

/** The alert's repository (read with it by its list, else through the request's loaders) and its owner. */
async function repoWhere(ctx: RequestContext, a: SecretScanningAlertEntity): Promise<RepoWhere> {
  const repo = a.repository ?? (await ctx.loaders.repositoryById.load(a.repositoryId));
  if (!repo) throw new NotFoundError();
  const owner = await ctx.loaders.accountById.load(repo.ownerId);
  if (!owner) throw new NotFoundError();
  return { repo, owner };
}

/**
 * The repository and its owner when already known (read with the alert, or primed into the request's loaders by
 * the list): no promise. Undefined otherwise (then `repoWhere`).
 */
function repoWhereNow(ctx: RequestContext, a: SecretScanningAlertEntity): RepoWhere | undefined {
  const repo = a.repository ?? ctx.loaders.repositoryById.peek(a.repositoryId);
  const owner = repo ? ctx.loaders.accountById.peek(repo.ownerId) : undefined;
  return repo && owner ? { repo, owner } : undefined;
}

/** `f` of the alert's repository: synchronously when it is known, else after loading it. */
function withRepo<T>(ctx: RequestContext, a: SecretScanningAlertEntity, f: (w: RepoWhere) => T): T | Promise<T> {
  const w = repoWhereNow(ctx, a);
  return w ? f(w) : repoWhere(ctx, a).then(f);
}

/**
 * An account the alert names: the one its list read with it (null: none), else through the loader (the value
 * itself when the loader holds it, else its promise).
 */
function account(ctx: RequestContext, read: AccountEntity | null | undefined, id: number | null): AccountEntity | null | Promise<AccountEntity | null> {
  if (read !== undefined) return read;
  return id == null ? null : ctx.loaders.accountById.with(id, (x) => x);
}

const nameOf = (w: RepoWhere) => ({ owner: w.owner.login, name: w.repo.name });

/** The commit form. A wiki commit has no git blob or commit API URL: it carries the wiki's compare URL. */
function commitDetails(ctx: RequestContext, w: RepoWhere, l: SecretScanningLocationEntity): SecretScanningCommitLocation {
  return new SecretScanningCommitLocation(l, () => commitLocationUrls(ctx.config.publicUrl, nameOf(w), l));
}

function wikiCommitDetails(ctx: RequestContext, w: RepoWhere, l: SecretScanningLocationEntity): SecretScanningWikiCommitLocation {
  return new SecretScanningWikiCommitLocation(l, () => commitLocationUrls(ctx.config.publicUrl, nameOf(w), l));
}

/** The union member for a location: commit forms carry the range and URLs, the others their item URL. */
function locationDetails(ctx: RequestContext, w: RepoWhere, l: SecretScanningLocationEntity): typeof SecretScanningLocationDetails {
  const url = l.url;
  switch (l.type) {
    case 'commit':
      return commitDetails(ctx, w, l);
    case 'wiki_commit':
      return wikiCommitDetails(ctx, w, l);
    case 'issue_title':
      return Object.assign(new SecretScanningIssueTitleLocation(), { issueTitleUrl: url });
    case 'issue_body':
      return Object.assign(new SecretScanningIssueBodyLocation(), { issueBodyUrl: url });
    case 'issue_comment':
      return Object.assign(new SecretScanningIssueCommentLocation(), { issueCommentUrl: url });
    case 'discussion_title':
      return Object.assign(new SecretScanningDiscussionTitleLocation(), { discussionTitleUrl: url });
    case 'discussion_body':
      return Object.assign(new SecretScanningDiscussionBodyLocation(), { discussionBodyUrl: url });
    case 'discussion_comment':
      return Object.assign(new SecretScanningDiscussionCommentLocation(), { discussionCommentUrl: url });
    case 'pull_request_title':
      return Object.assign(new SecretScanningPullRequestTitleLocation(), { pullRequestTitleUrl: url });
    case 'pull_request_body':
      return Object.assign(new SecretScanningPullRequestBodyLocation(), { pullRequestBodyUrl: url });
    case 'pull_request_comment':
      return Object.assign(new SecretScanningPullRequestCommentLocation(), { pullRequestCommentUrl: url });
    case 'pull_request_review':
      return Object.assign(new SecretScanningPullRequestReviewLocation(), { pullRequestReviewUrl: url });
    case 'pull_request_review_comment':
      return Object.assign(new SecretScanningPullRequestReviewCommentLocation(), { pullRequestReviewCommentUrl: url });
  }
  throw new Error(`unknown secret scanning location type ${String(l.type)}`);
}

function toFilter(f: SecretScanningAlertFilter | null | undefined): AlertFilter {
  if (!f) return {};
  return {
    state: f.state ?? null,
    secretTypes: f.secretTypes ?? null,
    excludeSecretTypes: f.excludeSecretTypes ?? null,
    providers: f.providers ?? null,
    excludeProviders: f.excludeProviders ?? null,
    resolutions: f.resolutions ?? null,
    assignee: f.assignee ?? null,
    validities: f.validities ?? null,
    isPubliclyLeaked: f.isPubliclyLeaked ?? null,
    isMultiRepo: f.isMultiRepo ?? null,
    isBypassed: f.isBypassed ?? null,
  };
}

function toOrder(o: SecretScanningAlertOrder | null | undefined): AlertOrder {
  return { sort: o?.field ?? 'created', direction: o?.direction ?? 'desc' };
}

function cursorPaging(args: ConnectionArgs) {
  return { mode: 'cursor' as const, first: args.first, after: args.after, last: args.last, before: args.before };
}

/** The services' alert lists of an organization and of a repository take the same arguments after their owner. */
type AlertLister = (filter: AlertFilter, order: AlertOrder, paging: AlertPaging, include: AlertIncludes) => Promise<{ page: AlertPage }>;

/** An alert list as a connection: the GraphQL arguments mapped onto the service's, the selection's joins looked ahead. */
async function alertConnection(
  list: AlertLister,
  filter: SecretScanningAlertFilter | null,
  orderBy: SecretScanningAlertOrder | null,
  args: ConnectionArgs,
  info: GraphQLResolveInfo,
): Promise<ConnectionShape<SecretScanningAlertEntity>> {
  // The service joins what the selection needs: on the alerts (narrow rows) or primed into the loaders.
  const { totalCount, selection } = itemSelection(info);
  const { page } = await list(toFilter(filter), toOrder(orderBy), cursorPaging(args), alertIncludesFor(selection, totalCount));
  return toConnection(page);
}


registerNodeType({
  typeName: 'SecretScanningAlert',
  idKind: 'int4',
  isTypeOf: (v) => v instanceof SecretScanningAlertEntity,
  load: async (ctx, id) => {
    const a = await ctx.loaders.secretScanningAlertById.load(id);
    if (!a) return null;
    // Hidden (404) and not allowed (403) alike give null, never data; checks go through the loaders.
    return (await ctx.services.secretScanningAlertAccess.canRead(ctx, a)) ? a : null;
  },
});

// ------------------------------------------------------------------ alert

interface LocationNode {
  type: SecretScanningLocationEntity['type'];
  location: SecretScanningLocationEntity;
  alert: SecretScanningAlertEntity;
}

@Resolver(() => SecretScanningAlert)
export class SecretScanningAlertResolver {
  @FieldResolver(() => ID)
  id(@Root() a: SecretScanningAlertEntity): string {
    return toGlobalId('SecretScanningAlert', a.id);
  }

  @FieldResolver(() => String, { description: 'API URL of the alert.' })
  url(@Root() a: SecretScanningAlertEntity, @Ctx() ctx: RequestContext): string | Promise<string> {
    return withRepo(ctx, a, (w) => alertUrls(ctx.config.publicUrl, nameOf(w), a.number).url);
  }

  @FieldResolver(() => String, { description: 'Web URL of the alert.' })
  htmlUrl(@Root() a: SecretScanningAlertEntity, @Ctx() ctx: RequestContext): string | Promise<string> {
    return withRepo(ctx, a, (w) => alertUrls(ctx.config.publicUrl, nameOf(w), a.number).htmlUrl);
  }

  @FieldResolver(() => String, { description: "API URL of the alert's locations." })
  locationsUrl(@Root() a: SecretScanningAlertEntity, @Ctx() ctx: RequestContext): string | Promise<string> {
    return withRepo(ctx, a, (w) => alertUrls(ctx.config.publicUrl, nameOf(w), a.number).locationsUrl);
  }

  @FieldResolver(() => User, { nullable: true })
  resolvedBy(@Root() a: SecretScanningAlertEntity, @Ctx() ctx: RequestContext): AccountEntity | null | Promise<AccountEntity | null> {
    return account(ctx, a.resolvedBy, a.resolvedById);
  }

  @FieldResolver(() => User, { nullable: true })
  pushProtectionBypassedBy(@Root() a: SecretScanningAlertEntity, @Ctx() ctx: RequestContext): AccountEntity | null | Promise<AccountEntity | null> {
    return account(ctx, a.pushProtectionBypassedBy, a.pushProtectionBypassedById);
  }

  @FieldResolver(() => User, { nullable: true })
  assignedTo(@Root() a: SecretScanningAlertEntity, @Ctx() ctx: RequestContext): AccountEntity | null | Promise<AccountEntity | null> {
    return account(ctx, a.assignedTo, a.assignedToId);
  }

  @FieldResolver(() => Repository)
  repository(@Root() a: SecretScanningAlertEntity, @Ctx() ctx: RequestContext): RepositoryEntity | Promise<RepositoryEntity> {
    return withRepo(ctx, a, (w) => w.repo);
  }

  @FieldResolver(() => SecretScanningCommitLocation, {
    nullable: true,
    description: 'The first commit location (commit form of the details); null when the secret was only found outside commits.',
  })
  firstLocationDetected(
    @Root() a: SecretScanningAlertEntity,
    @Ctx() ctx: RequestContext,
  ): SecretScanningCommitLocation | null | Promise<SecretScanningCommitLocation | null> {
    if (a.firstLocationId == null) return null;
    const known = a.firstLocation !== undefined ? a.firstLocation : ctx.loaders.locationById.peek(a.firstLocationId);
    const w = known !== undefined ? repoWhereNow(ctx, a) : undefined;
    if (known !== undefined && w) return known ? commitDetails(ctx, w, known) : null;
    const location = known !== undefined ? known : ctx.loaders.locationById.load(a.firstLocationId);
    return Promise.all([location, repoWhere(ctx, a)]).then(([l, where]) => (l ? commitDetails(ctx, where, l) : null));
  }

  @FieldResolver(() => Boolean, { description: 'true when the secret was found in more than one place.' })
  hasMoreLocations(@Root() a: SecretScanningAlertEntity): boolean {
    return a.locationsCount > 1;
  }

  @FieldResolver(() => SecretScanningLocationConnection, { description: 'Every place the secret was found, oldest first.' })
  async locations(
    @Root() a: SecretScanningAlertEntity,
    @Args() args: ConnectionArgs,
    @Ctx() ctx: RequestContext,
  ): Promise<ConnectionShape<LocationNode>> {
    const page = await ctx.services.secretScanningAlerts.locationsOf(ctx.db, a, cursorPaging(args));
    const byNode = new Map<LocationNode, SecretScanningLocationEntity>();
    const items = page.items.map((location) => {
      const node: LocationNode = { type: location.type, location, alert: a };
      byNode.set(node, location);
      return node;
    });
    return toConnection({
      items,
      hasNextPage: page.hasNextPage,
      hasPreviousPage: page.hasPreviousPage,
      cursorOf: (n) => page.cursorOf(byNode.get(n)!),
      totalCount: () => page.totalCount(),
    });
  }
}

@Resolver(() => SecretScanningLocation)
export class SecretScanningLocationResolver {
  @FieldResolver(() => SecretScanningLocationDetails)
  async details(@Root() n: LocationNode, @Ctx() ctx: RequestContext): Promise<typeof SecretScanningLocationDetails> {
    return locationDetails(ctx, await repoWhere(ctx, n.alert), n.location);
  }
}

// ------------------------------------------------------------------ organization and repository fields

@Resolver(() => Organization)
export class OrganizationSecretScanningResolver {
  @FieldResolver(() => SecretScanningAlertConnection, {
    description: "Secret scanning alerts of the organization's repositories (organization owners and security managers), newest first by default.",
  })
  secretScanningAlerts(
    @Root() o: AccountEntity,
    @Arg('filter', () => SecretScanningAlertFilter, { nullable: true }) filter: SecretScanningAlertFilter | null,
    @Arg('orderBy', () => SecretScanningAlertOrder, { nullable: true }) orderBy: SecretScanningAlertOrder | null,
    @Args() args: ConnectionArgs,
    @Ctx() ctx: RequestContext,
    @Info() info: GraphQLResolveInfo,
  ): Promise<ConnectionShape<SecretScanningAlertEntity>> {
    return alertConnection((...q) => ctx.services.secretScanningAlerts.listOrganizationAlerts(ctx, o, ...q), filter, orderBy, args, info);
  }
}

@Resolver(() => Repository)
export class RepositorySecretScanningResolver {
  @FieldResolver(() => SecretScanningAlertConnection, {
    description: 'Secret scanning alerts of the repository (repository admins, organization owners and security managers), newest first by default.',
  })
  secretScanningAlerts(
    @Root() r: RepositoryEntity,
    @Arg('filter', () => SecretScanningAlertFilter, { nullable: true }) filter: SecretScanningAlertFilter | null,
    @Arg('orderBy', () => SecretScanningAlertOrder, { nullable: true }) orderBy: SecretScanningAlertOrder | null,
    @Args() args: ConnectionArgs,
    @Ctx() ctx: RequestContext,
    @Info() info: GraphQLResolveInfo,
  ): Promise<ConnectionShape<SecretScanningAlertEntity>> {
    return alertConnection((...q) => ctx.services.secretScanningAlerts.listRepositoryAlerts(ctx, r, ...q), filter, orderBy, args, info);
  }

  @FieldResolver(() => SecretScanningAlert, { nullable: true, description: 'One alert by number. Null with NOT_FOUND when missing or not visible.' })
  async secretScanningAlert(
    @Root() r: RepositoryEntity,
    @Arg('number', () => Int) number: number,
    @Ctx() ctx: RequestContext,
  ): Promise<SecretScanningAlertEntity> {
    return (await ctx.services.secretScanningAlerts.getAlert(ctx, r, number)).alert;
  }

  @FieldResolver(() => SecretScanningScanHistory, {
    nullable: true,
    description: 'The latest scans by kind and type. Null with NOT_FOUND without advanced security or secret scanning.',
  })
  async secretScanningScanHistory(@Root() r: RepositoryEntity, @Ctx() ctx: RequestContext): Promise<Record<string, SecretScanningScanEntity[]>> {
    const { scans } = await ctx.services.secretScanningScans.scanHistory(ctx, r);
    const s = scans as Record<ScanKind, SecretScanningScanEntity[]>;
    return {
      incrementalScans: s.incremental,
      backfillScans: s.backfill,
      patternUpdateScans: s.pattern_update,
      customPatternBackfillScans: s.custom_pattern_backfill,
      genericSecretsBackfillScans: s.generic_secrets_backfill,
    };
  }
}

// ------------------------------------------------------------------ mutations

interface AlertReference {
  number: number;
  created: boolean;
  repository: RepositoryEntity;
}

@Resolver(() => SecretScanningAlertReference)
export class SecretScanningAlertReferenceResolver {
  @FieldResolver(() => SecretScanningAlert, { nullable: true, description: 'The alert; null with an error when the viewer may not read alerts.' })
  async alert(@Root() ref: AlertReference, @Ctx() ctx: RequestContext): Promise<SecretScanningAlertEntity> {
    return (await ctx.services.secretScanningAlerts.getAlert(ctx, ref.repository, ref.number)).alert;
  }
}

/** The GraphQL input fields that are update fields (the service's own names). */
const UPDATE_FIELDS: AlertUpdateField[] = ['state', 'resolution', 'resolutionComment', 'assignee', 'validity'];

@Resolver()
export class SecretScanningMutationResolver {
  @Mutation(() => UpdateSecretScanningAlertPayload, {
    description: 'Resolve or reopen, assign or unassign, or set the validity of a secret scanning alert (the REST PATCH rules).',
  })
  async updateSecretScanningAlert(
    @Arg('input', () => UpdateSecretScanningAlertInput) input: UpdateSecretScanningAlertInput,
    @RawArgs() raw: Record<string, unknown>,
    @Ctx() ctx: RequestContext,
  ): Promise<{ alert: SecretScanningAlertEntity }> {
    const { owner, name } = parseFullName(input.repository);
    const given = (raw.input ?? {}) as Record<string, unknown>;
    // An input field sent as null is part of the update (null unassigns); an absent one is not.
    const update: AlertUpdate = {};
    for (const field of UPDATE_FIELDS) {
      if (Object.prototype.hasOwnProperty.call(given, field)) update[field] = given[field] ?? null;
    }
    const repository = await ctx.services.identity.findRepository(ctx, owner, name);
    const { alert } = await ctx.services.secretScanningAlertUpdates.updateAlert(ctx, repository, input.number, update);
    return { alert };
  }

  @Mutation(() => CreatePushProtectionBypassPayload, {
    description: 'Bypass push protection for a secret a push was blocked on (the original pusher).',
  })
  async createPushProtectionBypass(
    @Arg('input', () => CreatePushProtectionBypassInput) input: CreatePushProtectionBypassInput,
    @Ctx() ctx: RequestContext,
  ): Promise<CreatePushProtectionBypassPayload> {
    const { owner, name } = parseFullName(input.repository);
    const repository = await ctx.services.identity.findRepository(ctx, owner, name);
    const r = await ctx.services.secretScanningPush.createBypass(ctx, repository, { reason: input.reason, placeholderId: input.placeholderId });
    return { reason: r.reason as CreatePushProtectionBypassPayload['reason'], expireAt: r.expireAt, tokenType: r.tokenType };
  }

  @Mutation(() => SubmitPushPayload, { description: 'Scan a push; with push protection on, a new secret blocks it and returns placeholders.' })
  async submitPush(
    @Arg('input', () => SubmitPushInput) input: SubmitPushInput,
    @Ctx() ctx: RequestContext,
  ): Promise<{ blocked: boolean; placeholders: PlaceholderResult[]; alerts: AlertReference[] | null }> {
    const r = await ctx.services.secretScanningPush.submitPush(ctx, {
      repository: input.repository,
      ref: input.ref,
      commits: input.commits.map((c) => ({ sha: c.sha, files: c.files.map((f) => ({ path: f.path, content: f.content })) })),
    });
    return {
      blocked: r.blocked,
      placeholders: r.placeholders,
      alerts: r.alerts?.map((a) => ({ number: a.number, created: a.created, repository: r.repository })) ?? null,
    };
  }

  @Mutation(() => SubmitContentPayload, { description: 'Scan issue, discussion or pull request content of a repository.' })
  async submitContent(@Arg('input', () => SubmitContentInput) input: SubmitContentInput, @Ctx() ctx: RequestContext): Promise<{ alerts: AlertReference[] | null }> {
    const r = await ctx.services.secretScanningPush.submitContent(ctx, {
      repository: input.repository,
      locationType: input.locationType,
      url: input.url,
      content: input.content,
    });
    return { alerts: r.alerts?.map((a) => ({ number: a.number, created: a.created, repository: r.repository })) ?? null };
  }

  @Mutation(() => StartSecretScanPayload, { description: 'Start a backfill, pattern update, custom pattern or generic secrets scan of a repository.' })
  async startSecretScan(@Arg('input', () => StartSecretScanInput) input: StartSecretScanInput, @Ctx() ctx: RequestContext): Promise<{ scan: SecretScanningScanEntity }> {
    const r = await ctx.services.secretScanningPush.startScan(ctx, { repository: input.repository, kind: input.kind });
    return { scan: r.scan };
  }
}

export const SECRET_SCANNING_RESOLVERS = [
  SecretScanningAlertResolver,
  SecretScanningLocationResolver,
  OrganizationSecretScanningResolver,
  RepositorySecretScanningResolver,
  SecretScanningAlertReferenceResolver,
  SecretScanningMutationResolver,
] as const;
