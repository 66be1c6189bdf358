/**
 * Versions and aliases of workflow definitions (Step Functions' PublishStateMachineVersion, …Alias operations).
 * A version is an immutable snapshot of a definition's text and role, numbered per definition; an alias routes
 * job starts to one or two versions by weight. Every write locks the definition's row, so publishing at once
 * gives distinct numbers and an alias never routes to a version being deleted. Reads need workflow.read, writes
 * workflow.write and the definition's ownership (access.ts), as for the definition itself.
 */
import type { EntityManager } from 'typeorm';
import { AliasRoute, WorkflowDefinitionAliasEntity, WorkflowDefinitionEntity, WorkflowDefinitionVersionEntity } from '../../../entities/workflow';
import type { RequestContext } from '../../context';
import { withTransaction } from '../../context';
import { lockedFindOne } from '../../db/transaction';
import { ConflictError, NotFoundError, quoteInput, ValidationError } from '../../errors/app-error';
import { requireDefinitionOwner, requireWorkflowAccess } from './access';
import { ALIAS_NAME, parseQualifiedDefinitionArn } from './arn';
import { ListPage, listSize, stateMachineDoesNotExist } from './lists';
import { WORKFLOW_CODES } from './error-codes';
import { decodePageToken, encodePageToken, type PageTokenKeys } from './page-token';
import { DEFAULT_PAGE_SIZE, encodeCursor, keysetPage, validatePageArgs } from '../common/pagination';
import type { Page, PageArgs } from '../common/pagination';

export const MAX_VERSIONS = 1000;
export const MAX_ALIASES = 100;
export const MAX_DESCRIPTION = 256;

export interface PublishInput {
  stateMachineArn: string;
  revisionId?: string;
  description?: string;
}

export interface AliasInput {
  name: string;
  description?: string;
  routingConfiguration: AliasRoute[];
}

export interface AliasUpdate {
  stateMachineAliasArn: string;
  description?: string;
  routingConfiguration?: AliasRoute[];
}

/** What a job starts from: the text, role and revision to run and the version/alias ARNs it records. */
export interface StartTarget {
  definition: string;
  roleArn: string;
  revisionId: string;
  revisionDate: Date;
  versionArn: string | null;
  aliasArn: string | null;
}

const conflict = (message: string) => new ConflictError(message, { domainCode: WORKFLOW_CODES.CONFLICT });
const resourceNotFound = (arn: string) => new NotFoundError(`Resource not found: ${quoteInput(arn)}`, { domainCode: WORKFLOW_CODES.RESOURCE_NOT_FOUND });
const invalidArn = (arn: string, what: string) =>
  new ValidationError(`Invalid Arn: 'Resource type not valid in this context: ${quoteInput(arn, '')}' (expected ${what})`, { domainCode: WORKFLOW_CODES.INVALID_ARN });

function deleting(arn: string): ConflictError {
  return new ConflictError(`State Machine is being deleted: ${quoteInput(arn)}`, { domainCode: WORKFLOW_CODES.STATE_MACHINE_DELETING });
}

function checkDescription(d: string | undefined, member: string): void {
  if (d !== undefined && d.length > MAX_DESCRIPTION) {
    throw new ValidationError(`1 validation error detected: Value at '${member}' failed to satisfy constraint: Member must have length less than or equal to ${MAX_DESCRIPTION}`);
  }
}

export function versionArnOf(def: Pick<WorkflowDefinitionEntity, 'arn'>, n: number): string {
  return `${def.arn}:${n}`;
}

export function parseRouting(text: string): AliasRoute[] {
  return JSON.parse(text) as AliasRoute[];
}

/**
 * The version a start through an alias runs: `r` in [0, 1) picks along the routes' weights in their order (the
 * first route takes [0, w1/100), the second the rest). Pure, so the choice can be tested with chosen values.
 */
export function pickRoute(routes: readonly AliasRoute[], r: number): AliasRoute {
  let at = r * 100;
  for (const route of routes) {
    if (at < route.weight) return route;
    at -= route.weight;
  }
  // Rounding at the top of the range: the last route with any weight.
  return [...routes].reverse().find((x) => x.weight > 0) ?? routes[routes.length - 1];
}

/**
 * Publish the definition's current revision as a version, inside a transaction that holds its row lock. The
 * revision already published as the latest version answers that version (idempotent); `revisionId` other than
 * the current revision (or INITIAL after an update) -> ConflictException.
 */
export async function publishLocked(db: EntityManager, def: WorkflowDefinitionEntity, input: { revisionId?: string; description?: string }): Promise<WorkflowDefinitionVersionEntity> {
  checkDescription(input.description, 'description');
  if (input.revisionId !== undefined) {
    const neverUpdated = def.updatedAt.getTime() === def.createdAt.getTime();
    if (input.revisionId !== def.revisionId && !(input.revisionId === 'INITIAL' && neverUpdated)) {
      throw conflict(`Failed to publish the State Machine version for revision ${quoteInput(input.revisionId)}. The current State Machine revision is ${quoteInput(def.revisionId)}.`);
    }
  }
  const repo = db.getRepository(WorkflowDefinitionVersionEntity);
  const latest = await repo.findOne({ where: { definitionId: def.id }, order: { number: 'DESC' } });
  if (latest && latest.revisionId === def.revisionId) {
    if (input.description !== undefined && input.description !== (latest.description ?? '')) {
      throw conflict(`The current revision was already published as ${quoteInput(latest.arn)} with another description.`);
    }
    return latest;
  }
  if ((await repo.count({ where: { definitionId: def.id } })) >= MAX_VERSIONS) {
    throw new ConflictError(`A state machine can have at most ${MAX_VERSIONS} versions: delete unused versions first.`, {
      domainCode: WORKFLOW_CODES.SERVICE_QUOTA_EXCEEDED,
    });
  }
  const number = def.lastVersion + 1;
  // The row is locked; the condition keeps numbers distinct even if a caller forgot the lock.
  const moved = await db.getRepository(WorkflowDefinitionEntity).update({ id: def.id, lastVersion: def.lastVersion }, { lastVersion: number });
  if (moved.affected === 0) throw conflict('The state machine changed while the version was published; try again.');
  def.lastVersion = number;
  const row = repo.create({
    definitionId: def.id,
    number,
    arn: versionArnOf(def, number),
    definition: def.definition,
    roleArn: def.roleArn,
    loggingConfiguration: def.loggingConfiguration,
    revisionId: def.revisionId,
    description: input.description ?? null,
    createdAt: new Date(),
  });
  await repo.insert(row);
  return row;
}

export class WorkflowVersionService {
  /** Signs and checks nextTokens (the key comes from the identity module's secret box). */
  constructor(private readonly tokenKeys: PageTokenKeys) {}

  /** Picks an alias's route on every start through it; replaceable so tests can choose the outcome. */
  random: () => number = Math.random;

  async publish(ctx: RequestContext, input: PublishInput): Promise<WorkflowDefinitionVersionEntity> {
    requireWorkflowAccess(ctx, 'write');
    checkDescription(input.description, 'description');
    const parsed = this.unqualified(ctx, input.stateMachineArn);
    return withTransaction(ctx, async (tx) => {
      const def = await this.definition(tx.db, parsed, input.stateMachineArn, true);
      requireDefinitionOwner(tx, def, 'update');
      if (def.status === 'DELETING') throw deleting(input.stateMachineArn);
      return publishLocked(tx.db, def, input);
    });
  }

  /** Versions of a definition, newest first. */
  async listVersions(ctx: RequestContext, args: { stateMachineArn: string; maxResults?: number; nextToken?: string }): Promise<ListPage<WorkflowDefinitionVersionEntity>> {
    requireWorkflowAccess(ctx, 'read');
    const size = listSize(args.maxResults);
    const name = this.unqualified(ctx, args.stateMachineArn);
    const key = await this.tokenKeys.of(ctx);
    const before = args.nextToken === undefined ? undefined : decodePageToken(key, args.nextToken, 'ListStateMachineVersions', [name], (p): p is [number] => p.length === 1 && Number.isSafeInteger(p[0]))[0];
    const def = await this.definition(ctx.db, name, args.stateMachineArn);
    const qb = ctx.db.getRepository(WorkflowDefinitionVersionEntity).createQueryBuilder('v').where('v.definition_id = :id', { id: def.id });
    if (before !== undefined) qb.andWhere('v.number < :before', { before });
    const rows = await qb.orderBy('v.number', 'DESC').limit(size + 1).getMany();
    const items = rows.slice(0, size);
    return { items, nextToken: rows.length > size ? encodePageToken(key, 'ListStateMachineVersions', [name], [items[items.length - 1].number]) : undefined };
  }

  /**
   * A definition's versions (one the caller read), newest first, with Relay paging: the graph's `versions`. A first
   * page comes from the request's loader, so the first pages of a list of definitions are one statement; pages after
   * a cursor are read on their own. Cursors are (number, id), the same either way.
   */
  async versionsPage(ctx: RequestContext, def: Pick<WorkflowDefinitionEntity, 'id'>, args: PageArgs): Promise<Page<WorkflowDefinitionVersionEntity>> {
    requireWorkflowAccess(ctx, 'read');
    const { size, backward } = validatePageArgs(args, DEFAULT_PAGE_SIZE);
    if (backward || args.after || args.before) {
      const qb = ctx.db.getRepository(WorkflowDefinitionVersionEntity).createQueryBuilder('v').where('v.definition_id = :id', { id: def.id });
      return keysetPage(qb, args, { property: 'number', direction: 'DESC' }, DEFAULT_PAGE_SIZE);
    }
    const rows = await ctx.loaders.workflowVersionsFirst.load(`${def.id}:${size + 1}`);
    return {
      items: rows.slice(0, size),
      hasNextPage: rows.length > size,
      hasPreviousPage: false,
      cursorOf: (v) => encodeCursor(v.number, v.id),
      totalCount: () => ctx.loaders.workflowVersionCount.load(def.id),
    };
  }

  /** A definition's aliases by name (at most 100): the graph's `aliases`, one statement for a list of definitions. */
  async aliasesOf(ctx: RequestContext, def: Pick<WorkflowDefinitionEntity, 'id'>): Promise<WorkflowDefinitionAliasEntity[]> {
    requireWorkflowAccess(ctx, 'read');
    return ctx.loaders.workflowAliasesOf.load(def.id);
  }

  /** A version by ARN (an alias's route; null once deleted, which an alias's routes prevent). */
  async versionByArn(ctx: RequestContext, arn: string): Promise<WorkflowDefinitionVersionEntity | null> {
    requireWorkflowAccess(ctx, 'read');
    return ctx.loaders.workflowVersionByArn.load(arn);
  }

  /** Delete a version (running jobs of it go on); one an alias routes to -> ConflictException; none -> success. */
  async deleteVersion(ctx: RequestContext, arn: string): Promise<void> {
    requireWorkflowAccess(ctx, 'write');
    const parsed = parseQualifiedDefinitionArn(ctx.config, arn);
    if (parsed && parsed.version === undefined) throw invalidArn(arn, 'a state machine version ARN');
    if (!parsed) return;
    await withTransaction(ctx, async (tx) => {
      const locked = await lockedFindOne(tx.db, WorkflowDefinitionEntity, { name: parsed.name });
      if (!locked) return;
      const version = await tx.db.getRepository(WorkflowDefinitionVersionEntity).findOne({ where: { definitionId: locked.id, number: parsed.version } });
      if (!version) return;
      requireDefinitionOwner(tx, locked, 'update');
      const aliases = await tx.db.getRepository(WorkflowDefinitionAliasEntity).find({ where: { definitionId: locked.id } });
      const using = aliases.filter((a) => parseRouting(a.routing).some((r) => r.stateMachineVersionArn === version.arn));
      if (using.length) {
        throw conflict(`Version ${quoteInput(version.arn)} can not be deleted: alias ${quoteInput(using[0].arn)} routes to it. Update or delete the alias first.`);
      }
      await tx.db.getRepository(WorkflowDefinitionVersionEntity).delete({ id: version.id });
    });
  }

  /** Create an alias; the same name, description and routing again returns it, anything else -> ConflictException. */
  async createAlias(ctx: RequestContext, input: AliasInput): Promise<WorkflowDefinitionAliasEntity> {
    requireWorkflowAccess(ctx, 'write');
    checkDescription(input.description, 'description');
    if (!ALIAS_NAME.test(input.name)) {
      throw new ValidationError(`Invalid Name: ${quoteInput(input.name)} (an alias name is 1-80 letters, digits, '_', '-' or '.' with at least one non-digit)`, {
        domainCode: WORKFLOW_CODES.INVALID_NAME,
      });
    }
    const defName = this.routingDefinition(ctx, input.routingConfiguration);
    return withTransaction(ctx, async (tx) => {
      const def = await this.definition(tx.db, defName, input.routingConfiguration[0].stateMachineVersionArn, true);
      requireDefinitionOwner(tx, def, 'update');
      if (def.status === 'DELETING') throw deleting(def.arn);
      const routing = await this.checkRouting(tx.db, def, input.routingConfiguration);
      const repo = tx.db.getRepository(WorkflowDefinitionAliasEntity);
      const existing = await repo.findOne({ where: { definitionId: def.id, name: input.name } });
      if (existing) {
        if (existing.routing === routing && (existing.description ?? undefined) === input.description) return existing;
        throw conflict(`Alias ${quoteInput(existing.arn)} already exists with another configuration.`);
      }
      if ((await repo.count({ where: { definitionId: def.id } })) >= MAX_ALIASES) {
        throw new ConflictError(`A state machine can have at most ${MAX_ALIASES} aliases.`, { domainCode: WORKFLOW_CODES.SERVICE_QUOTA_EXCEEDED });
      }
      const now = new Date();
      const row = repo.create({ definitionId: def.id, name: input.name, arn: `${def.arn}:${input.name}`, description: input.description ?? null, routing, createdAt: now, updatedAt: now });
      await repo.insert(row);
      return row;
    });
  }

  async describeAlias(ctx: RequestContext, arn: string): Promise<WorkflowDefinitionAliasEntity> {
    requireWorkflowAccess(ctx, 'read');
    const parsed = this.aliasArn(ctx, arn);
    const alias = parsed && (await this.findAlias(ctx.db, parsed.name, parsed.alias));
    if (!alias) throw resourceNotFound(arn);
    return alias;
  }

  async updateAlias(ctx: RequestContext, input: AliasUpdate): Promise<WorkflowDefinitionAliasEntity> {
    requireWorkflowAccess(ctx, 'write');
    checkDescription(input.description, 'description');
    if (input.description === undefined && input.routingConfiguration === undefined) {
      throw new ValidationError('Either the description or the routingConfiguration must be specified', { domainCode: WORKFLOW_CODES.INVALID_ROUTING_CONFIGURATION });
    }
    const parsed = this.aliasArn(ctx, input.stateMachineAliasArn);
    if (!parsed) throw resourceNotFound(input.stateMachineAliasArn);
    if (input.routingConfiguration && this.routingDefinition(ctx, input.routingConfiguration) !== parsed.name) {
      throw routingProblem('every version must be of the alias\'s state machine');
    }
    return withTransaction(ctx, async (tx) => {
      const locked = await lockedFindOne(tx.db, WorkflowDefinitionEntity, { name: parsed.name });
      if (!locked) throw resourceNotFound(input.stateMachineAliasArn);
      const alias = await this.findAlias(tx.db, parsed.name, parsed.alias);
      if (!alias) throw resourceNotFound(input.stateMachineAliasArn);
      requireDefinitionOwner(tx, locked, 'update');
      if (locked.status === 'DELETING') throw deleting(locked.arn);
      const routing = input.routingConfiguration ? await this.checkRouting(tx.db, locked, input.routingConfiguration) : alias.routing;
      const description = input.description ?? alias.description;
      if (routing === alias.routing && description === alias.description) return alias;
      const patch = { routing, description, updatedAt: new Date() };
      await tx.db.getRepository(WorkflowDefinitionAliasEntity).update({ id: alias.id }, patch);
      return Object.assign(alias, patch);
    });
  }

  /** Delete an alias (its versions stay). */
  async deleteAlias(ctx: RequestContext, arn: string): Promise<void> {
    requireWorkflowAccess(ctx, 'write');
    const parsed = this.aliasArn(ctx, arn);
    if (!parsed) throw resourceNotFound(arn);
    await withTransaction(ctx, async (tx) => {
      const locked = await lockedFindOne(tx.db, WorkflowDefinitionEntity, { name: parsed.name });
      if (!locked) throw resourceNotFound(arn);
      const alias = await this.findAlias(tx.db, parsed.name, parsed.alias);
      if (!alias) throw resourceNotFound(arn);
      requireDefinitionOwner(tx, locked, 'delete');
      await tx.db.getRepository(WorkflowDefinitionAliasEntity).delete({ id: alias.id });
    });
  }

  /** Aliases of a definition by name; given a version ARN, those that route to it. */
  async listAliases(ctx: RequestContext, args: { stateMachineArn: string; maxResults?: number; nextToken?: string }): Promise<ListPage<WorkflowDefinitionAliasEntity>> {
    requireWorkflowAccess(ctx, 'read');
    const size = listSize(args.maxResults);
    const parsed = parseQualifiedDefinitionArn(ctx.config, args.stateMachineArn);
    if (parsed?.alias !== undefined) throw invalidArn(args.stateMachineArn, 'a state machine or version ARN');
    if (!parsed) throw stateMachineDoesNotExist(args.stateMachineArn);
    const key = await this.tokenKeys.of(ctx);
    const after =
      args.nextToken === undefined
        ? undefined
        : decodePageToken(key, args.nextToken, 'ListStateMachineAliases', [args.stateMachineArn], (p): p is [string] => p.length === 1 && typeof p[0] === 'string')[0];
    const def = await this.definition(ctx.db, parsed.name, args.stateMachineArn);
    if (def.status === 'DELETING') throw deleting(args.stateMachineArn);
    let versionArn: string | undefined;
    if (parsed.version !== undefined) {
      versionArn = versionArnOf(def, parsed.version);
      if (!(await ctx.db.getRepository(WorkflowDefinitionVersionEntity).exists({ where: { definitionId: def.id, number: parsed.version } }))) throw resourceNotFound(args.stateMachineArn);
    }
    // At most 100 per definition: filtered and paged here.
    const all = await ctx.db.getRepository(WorkflowDefinitionAliasEntity).find({ where: { definitionId: def.id }, order: { name: 'ASC' } });
    const matching = all.filter((a) => (after === undefined || a.name > after) && (versionArn === undefined || parseRouting(a.routing).some((r) => r.stateMachineVersionArn === versionArn)));
    const items = matching.slice(0, size);
    return { items, nextToken: matching.length > size ? encodePageToken(key, 'ListStateMachineAliases', [args.stateMachineArn], [items[items.length - 1].name]) : undefined };
  }

  /**
   * DescribeStateMachine of a version ARN: the version as a definition row (its ARN, text, role, revision and
   * creation); StateMachineDoesNotExist when it was deleted.
   */
  async describeVersion(ctx: RequestContext, arn: string, name: string, number: number): Promise<{ def: WorkflowDefinitionEntity; version: WorkflowDefinitionVersionEntity }> {
    const def = await this.definition(ctx.db, name, arn);
    const version = await ctx.db.getRepository(WorkflowDefinitionVersionEntity).findOne({ where: { definitionId: def.id, number } });
    if (!version) throw stateMachineDoesNotExist(arn);
    return { def, version };
  }

  /**
   * What a start of `arn` runs, inside the start's transaction (`def` read there): the definition's current
   * revision, a version, or the version an alias's routing picks (`random`).
   */
  async startTarget(db: EntityManager, def: WorkflowDefinitionEntity, arn: string, qualifier: { version?: number; alias?: string }): Promise<StartTarget> {
    if (qualifier.version === undefined && qualifier.alias === undefined) {
      return { definition: def.definition, roleArn: def.roleArn, revisionId: def.revisionId, revisionDate: def.updatedAt, versionArn: null, aliasArn: null };
    }
    let number = qualifier.version;
    let aliasArn: string | null = null;
    if (qualifier.alias !== undefined) {
      const alias = await db.getRepository(WorkflowDefinitionAliasEntity).findOne({ where: { definitionId: def.id, name: qualifier.alias } });
      if (!alias) throw stateMachineDoesNotExist(arn);
      aliasArn = alias.arn;
      const route = pickRoute(parseRouting(alias.routing), this.random());
      number = Number(route.stateMachineVersionArn.slice(route.stateMachineVersionArn.lastIndexOf(':') + 1));
    }
    const version = await db.getRepository(WorkflowDefinitionVersionEntity).findOne({ where: { definitionId: def.id, number } });
    if (!version) throw stateMachineDoesNotExist(arn);
    return { definition: version.definition, roleArn: version.roleArn, revisionId: version.revisionId, revisionDate: version.createdAt, versionArn: version.arn, aliasArn };
  }

  private unqualified(ctx: RequestContext, arn: string): string {
    const parsed = parseQualifiedDefinitionArn(ctx.config, arn);
    if (parsed && (parsed.version !== undefined || parsed.alias !== undefined)) throw invalidArn(arn, 'an unqualified state machine ARN');
    if (!parsed) throw stateMachineDoesNotExist(arn);
    return parsed.name;
  }

  private aliasArn(ctx: RequestContext, arn: string): { name: string; alias: string } | null {
    const parsed = parseQualifiedDefinitionArn(ctx.config, arn);
    if (parsed && parsed.alias === undefined) throw invalidArn(arn, 'a state machine alias ARN');
    return parsed ? { name: parsed.name, alias: parsed.alias! } : null;
  }

  private async definition(db: EntityManager, name: string, arn: string, lock = false): Promise<WorkflowDefinitionEntity> {
    const def = lock ? await lockedFindOne(db, WorkflowDefinitionEntity, { name }) : await db.getRepository(WorkflowDefinitionEntity).findOne({ where: { name } });
    if (!def) throw stateMachineDoesNotExist(arn);
    return def;
  }

  private async findAlias(db: EntityManager, defName: string, alias: string): Promise<WorkflowDefinitionAliasEntity | null> {
    return db
      .getRepository(WorkflowDefinitionAliasEntity)
      .createQueryBuilder('a')
      .innerJoin(WorkflowDefinitionEntity, 'd', 'd.id = a.definition_id')
      .where('d.name = :defName AND a.name = :alias', { defName, alias })
      .getOne();
  }

  /** The definition name the routing's versions share (checked: 1-2 routes, version ARNs of one definition, weights). */
  private routingDefinition(ctx: RequestContext, routes: AliasRoute[]): string {
    if (!Array.isArray(routes) || routes.length < 1 || routes.length > 2) throw routingProblem('it must have one or two entries');
    let name: string | undefined;
    let sum = 0;
    for (const r of routes) {
      const parsed = parseQualifiedDefinitionArn(ctx.config, r.stateMachineVersionArn);
      if (parsed && parsed.version === undefined) throw invalidArn(r.stateMachineVersionArn, 'a state machine version ARN');
      if (!parsed) throw resourceNotFound(r.stateMachineVersionArn);
      if (name !== undefined && parsed.name !== name) throw routingProblem('every version must be of the same state machine');
      name = parsed.name;
      if (!Number.isInteger(r.weight) || r.weight < 0 || r.weight > 100) throw routingProblem('weights are integers from 0 to 100');
      sum += r.weight;
    }
    if (routes.length === 2 && routes[0].stateMachineVersionArn === routes[1].stateMachineVersionArn) throw routingProblem('a version can appear only once');
    if (sum !== 100) throw routingProblem('the weights must add up to 100');
    return name!;
  }

  /** The routing as stored (JSON), each version checked to exist. */
  private async checkRouting(db: EntityManager, def: WorkflowDefinitionEntity, routes: AliasRoute[]): Promise<string> {
    for (const r of routes) {
      const exists = await db.getRepository(WorkflowDefinitionVersionEntity).exists({ where: { definitionId: def.id, arn: r.stateMachineVersionArn } });
      if (!exists) throw resourceNotFound(r.stateMachineVersionArn);
    }
    return JSON.stringify(routes.map((r) => ({ stateMachineVersionArn: r.stateMachineVersionArn, weight: r.weight })));
  }
}

function routingProblem(why: string): ValidationError {
  return new ValidationError(`Invalid routingConfiguration: ${why}`, { domainCode: WORKFLOW_CODES.INVALID_ROUTING_CONFIGURATION });
}
