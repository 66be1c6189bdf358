/**
 * The workflow service in the graph (issue 9): definitions and jobs (lists with Relay paging, one by ARN,
 * node(id:)), a job's definition, starter and history, and the writes. Thin: args -> the same workflow services
 * the wire protocol (src/rest/aws/workflow.routes.ts) calls -> entities; access rules (workflow read/write, a job
 * visible to its starter and site admins) live in src/services/workflow/access.ts. A job's definition and
 * starter go through the request's DataLoaders, so a page of jobs costs a fixed number of statements.
 */
import { Arg, Args, Ctx, FieldResolver, Float, ID, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import { AccountEntity } from '../../entities/identity';
import type { AliasRoute } from '../../entities/workflow';
import {
  WorkflowDefinitionAliasEntity,
  WorkflowDefinitionEntity,
  WorkflowDefinitionVersionEntity,
  WorkflowJobEntity,
  WorkflowMapRunEntity,
} from '../../entities/workflow';
import type { RequestContext } from '../../src/context';
import type { JobEvent } from '../../src/services/workflow/jobs.service';
import { mapRunCounts, type MapRunCounts } from '../../src/services/workflow/map-runs';
import type { Tag } from '../../src/services/workflow/tags.service';
import { parseRouting } from '../../src/services/workflow/versions.service';
import { Connection, ConnectionArgs, ConnectionShape, toConnection } from '../common/connection';
import { toGlobalId } from '../common/global-id';
import { opt } from '../common/args';
import { orNull, registerNodeType } from '../common/node';
import { WorkflowActivityResolver, WorkflowJobTasksResolver } from './activities.resolver';
import { WorkflowConnectionResolver } from './connections.resolver';
import { WorkflowTestStateResolver } from './test-state.resolver';
import { User } from '../identity/identity.type';
import {
  CreateWorkflowDefinitionAliasInput,
  CreateWorkflowDefinitionAliasPayload,
  DeleteWorkflowDefinitionAliasInput,
  DeleteWorkflowDefinitionAliasPayload,
  DeleteWorkflowDefinitionVersionInput,
  DeleteWorkflowDefinitionVersionPayload,
  PublishWorkflowDefinitionVersionInput,
  PublishWorkflowDefinitionVersionPayload,
  TagWorkflowDefinitionInput,
  TagWorkflowDefinitionPayload,
  UntagWorkflowDefinitionInput,
  UntagWorkflowDefinitionPayload,
  UpdateWorkflowDefinitionAliasInput,
  UpdateWorkflowDefinitionAliasPayload,
  WorkflowAliasRoute,
  WorkflowDefinitionAlias,
  WorkflowDefinitionVersion,
  WorkflowMapRun,
  WorkflowMapRunCounts,
  WorkflowTag,
  CreateWorkflowDefinitionInput,
  CreateWorkflowDefinitionPayload,
  DeleteWorkflowDefinitionInput,
  DeleteWorkflowDefinitionPayload,
  StartWorkflowJobInput,
  StartWorkflowJobPayload,
  StopWorkflowJobInput,
  StopWorkflowJobPayload,
  UpdateWorkflowDefinitionInput,
  UpdateWorkflowDefinitionPayload,
  WorkflowDefinition,
  WorkflowDefinitionJobFilter,
  WorkflowJob,
  WorkflowJobEvent,
  WorkflowJobFilter,
} from './workflow.type';

const WorkflowDefinitionConnection = Connection(WorkflowDefinition, 'WorkflowDefinition');
const WorkflowJobConnection = Connection(WorkflowJob, 'WorkflowJob');
const WorkflowJobEventConnection = Connection(WorkflowJobEvent, 'WorkflowJobEvent');
const WorkflowDefinitionVersionConnection = Connection(WorkflowDefinitionVersion, 'WorkflowDefinitionVersion');
const WorkflowMapRunConnection = Connection(WorkflowMapRun, 'WorkflowMapRun');

registerNodeType({
  typeName: 'WorkflowDefinition',
  idKind: 'int4',
  isTypeOf: (v) => v instanceof WorkflowDefinitionEntity,
  load: (ctx, id) => orNull(ctx.services.workflowDefinitions.byId(ctx, id)),
});
registerNodeType({
  typeName: 'WorkflowJob',
  idKind: 'int4',
  isTypeOf: (v) => v instanceof WorkflowJobEntity,
  load: (ctx, id) => orNull(ctx.services.workflowJobs.byId(ctx, id)),
});

// ------------------------------------------------------------------ definitions

@Resolver(() => WorkflowDefinition)
export class WorkflowDefinitionResolver {
  @FieldResolver(() => ID)
  id(@Root() d: WorkflowDefinitionEntity): string {
    return toGlobalId('WorkflowDefinition', d.id);
  }

  @FieldResolver(() => Int)
  databaseId(@Root() d: WorkflowDefinitionEntity): number {
    return d.id;
  }

  @FieldResolver(() => WorkflowJobConnection, { description: 'Jobs of this definition the viewer may see, newest first.' })
  async jobs(
    @Root() d: WorkflowDefinitionEntity,
    @Arg('filter', () => WorkflowDefinitionJobFilter, { nullable: true }) filter: WorkflowDefinitionJobFilter | null,
    @Args() args: ConnectionArgs,
    @Ctx() ctx: RequestContext,
  ): Promise<ConnectionShape<WorkflowJobEntity>> {
    return toConnection(await ctx.services.workflowJobs.page(ctx, { definitionId: d.id, status: opt(filter?.status) }, args));
  }

  @FieldResolver(() => WorkflowDefinitionVersionConnection, { description: 'Published versions, newest first.' })
  async versions(@Root() d: WorkflowDefinitionEntity, @Args() args: ConnectionArgs, @Ctx() ctx: RequestContext): Promise<ConnectionShape<WorkflowDefinitionVersionEntity>> {
    return toConnection(await ctx.services.workflowVersions.versionsPage(ctx, d, args));
  }

  @FieldResolver(() => [WorkflowDefinitionAlias], { description: 'Aliases by name (at most 100).' })
  aliases(@Root() d: WorkflowDefinitionEntity, @Ctx() ctx: RequestContext): Promise<WorkflowDefinitionAliasEntity[]> {
    return ctx.services.workflowVersions.aliasesOf(ctx, d);
  }

  @FieldResolver(() => [WorkflowTag], { description: 'Tags by key (at most 50).' })
  tags(@Root() d: WorkflowDefinitionEntity, @Ctx() ctx: RequestContext): Promise<Tag[]> {
    return ctx.services.workflowTags.tagsOf(ctx, d);
  }

  @Query(() => WorkflowDefinitionConnection, { description: 'Workflow definitions by name (needs workflow read access).' })
  async workflowDefinitions(@Args() args: ConnectionArgs, @Ctx() ctx: RequestContext): Promise<ConnectionShape<WorkflowDefinitionEntity>> {
    return toConnection(await ctx.services.workflowDefinitions.page(ctx, args));
  }

  @Query(() => WorkflowDefinition, { nullable: true, description: 'One definition by ARN. Null with NOT_FOUND when there is none.' })
  workflowDefinition(@Arg('arn') arn: string, @Ctx() ctx: RequestContext): Promise<WorkflowDefinitionEntity> {
    return ctx.services.workflowDefinitions.describe(ctx, arn);
  }
}

// ------------------------------------------------------------------ jobs

@Resolver(() => WorkflowJob)
export class WorkflowJobResolver {
  @FieldResolver(() => ID)
  id(@Root() j: WorkflowJobEntity): string {
    return toGlobalId('WorkflowJob', j.id);
  }

  @FieldResolver(() => Int)
  databaseId(@Root() j: WorkflowJobEntity): number {
    return j.id;
  }

  @FieldResolver(() => Date)
  startedAt(@Root() j: WorkflowJobEntity): Date {
    return j.startDate;
  }

  @FieldResolver(() => Date, { nullable: true, description: 'When the job ended; null while it runs.' })
  stoppedAt(@Root() j: WorkflowJobEntity): Date | null {
    return j.stopDate;
  }

  @FieldResolver(() => WorkflowDefinition, { nullable: true, description: 'The definition the job runs (null only if it was deleted meanwhile).' })
  definition(@Root() j: WorkflowJobEntity, @Ctx() ctx: RequestContext): Promise<WorkflowDefinitionEntity | null> {
    return ctx.services.workflowDefinitions.byId(ctx, j.definitionId);
  }

  @FieldResolver(() => User, { nullable: true, description: 'The user who started the job (null when that account was deleted).' })
  startedBy(@Root() j: WorkflowJobEntity, @Ctx() ctx: RequestContext): AccountEntity | null | Promise<AccountEntity | null> {
    return j.startedBy == null ? null : ctx.loaders.accountById.with(j.startedBy, (a) => a);
  }

  @FieldResolver(() => WorkflowJobEventConnection, { description: 'The job history in event order (or reversed).' })
  async history(
    @Root() j: WorkflowJobEntity,
    @Args() args: ConnectionArgs,
    @Arg('reverse', () => Boolean, { nullable: true, description: 'Newest event first.' }) reverse: boolean | null,
    @Ctx() ctx: RequestContext,
  ): Promise<ConnectionShape<JobEvent>> {
    return toConnection(await ctx.services.workflowJobs.historyPage(ctx, j, { ...args, reverse: reverse === true }));
  }

  @FieldResolver(() => WorkflowMapRunConnection, { description: 'The Map Runs the job\'s Distributed Map states started, oldest first (a Retry starts a new one).' })
  async mapRuns(@Root() j: WorkflowJobEntity, @Args() args: ConnectionArgs, @Ctx() ctx: RequestContext): Promise<ConnectionShape<WorkflowMapRunEntity>> {
    return toConnection(await ctx.services.workflowJobs.mapRunsPage(ctx, j, args));
  }

  @FieldResolver(() => WorkflowMapRun, { nullable: true, description: 'The Map Run the job is a child of (null for a job started otherwise).' })
  mapRun(@Root() j: WorkflowJobEntity, @Ctx() ctx: RequestContext): Promise<WorkflowMapRunEntity | null> {
    return ctx.services.workflowJobs.mapRunOf(ctx, j);
  }

  @Query(() => WorkflowJobConnection, { description: 'Workflow jobs the viewer may see (their own; site admins: all), newest first.' })
  async workflowJobs(
    @Arg('filter', () => WorkflowJobFilter, { nullable: true }) filter: WorkflowJobFilter | null,
    @Args() args: ConnectionArgs,
    @Ctx() ctx: RequestContext,
  ): Promise<ConnectionShape<WorkflowJobEntity>> {
    return toConnection(await ctx.services.workflowJobs.page(ctx, { definitionArn: opt(filter?.definition), status: opt(filter?.status) }, args));
  }

  @Query(() => WorkflowJob, { nullable: true, description: 'One job by ARN. Null with NOT_FOUND when missing or not visible.' })
  workflowJob(@Arg('arn') arn: string, @Ctx() ctx: RequestContext): Promise<WorkflowJobEntity> {
    return ctx.services.workflowJobs.describe(ctx, arn);
  }
}

// ------------------------------------------------------------------ versions, aliases, map runs

@Resolver(() => WorkflowDefinitionAlias)
export class WorkflowDefinitionAliasResolver {
  @FieldResolver(() => [WorkflowAliasRoute], { description: 'The versions starts go to, by weight.' })
  routing(@Root() a: WorkflowDefinitionAliasEntity): AliasRoute[] {
    return parseRouting(a.routing);
  }
}

@Resolver(() => WorkflowAliasRoute)
export class WorkflowAliasRouteResolver {
  @FieldResolver(() => String)
  versionArn(@Root() r: AliasRoute): string {
    return r.stateMachineVersionArn;
  }

  @FieldResolver(() => Int)
  weight(@Root() r: AliasRoute): number {
    return r.weight;
  }

  @FieldResolver(() => WorkflowDefinitionVersion, { nullable: true, description: 'The version (an alias\'s versions cannot be deleted, so null only in a race).' })
  version(@Root() r: AliasRoute, @Ctx() ctx: RequestContext): Promise<WorkflowDefinitionVersionEntity | null> {
    return ctx.services.workflowVersions.versionByArn(ctx, r.stateMachineVersionArn);
  }
}

@Resolver(() => WorkflowMapRun)
export class WorkflowMapRunResolver {
  @FieldResolver(() => Date)
  startedAt(@Root() r: WorkflowMapRunEntity): Date {
    return r.startDate;
  }

  @FieldResolver(() => Date, { nullable: true, description: 'When the run ended; null while it runs.' })
  stoppedAt(@Root() r: WorkflowMapRunEntity): Date | null {
    return r.stopDate;
  }

  @FieldResolver(() => Date, { nullable: true, description: 'When the run was last redriven (DescribeMapRun\'s redriveDate); null until then.' })
  redrivenAt(@Root() r: WorkflowMapRunEntity): Date | null {
    return r.redriveDate;
  }

  @FieldResolver(() => Float)
  toleratedFailurePercentage(@Root() r: WorkflowMapRunEntity): number {
    return r.toleratedFailurePercentage ?? 0;
  }

  @FieldResolver(() => Int)
  toleratedFailureCount(@Root() r: WorkflowMapRunEntity): number {
    return r.toleratedFailureCount ?? 0;
  }

  @FieldResolver(() => WorkflowMapRunCounts, { description: 'Items by state (a child of an ItemBatcher carries several).' })
  itemCounts(@Root() r: WorkflowMapRunEntity): MapRunCounts {
    return mapRunCounts(r).itemCounts;
  }

  @FieldResolver(() => WorkflowMapRunCounts, { description: 'Child jobs by state.' })
  executionCounts(@Root() r: WorkflowMapRunEntity): MapRunCounts {
    return mapRunCounts(r).executionCounts;
  }

  @FieldResolver(() => WorkflowJob, { nullable: true, description: 'The job whose Map state started the run.' })
  job(@Root() r: WorkflowMapRunEntity, @Ctx() ctx: RequestContext): Promise<WorkflowJobEntity | null> {
    return ctx.services.workflowJobs.byId(ctx, r.jobId);
  }
}

// ------------------------------------------------------------------ mutations

@Resolver()
export class WorkflowMutationResolver {
  @Mutation(() => CreateWorkflowDefinitionPayload, {
    description: 'Create a workflow definition (idempotent for the same name, definition, role and type; otherwise a used name is a CONFLICT).',
  })
  async createWorkflowDefinition(
    @Arg('input', () => CreateWorkflowDefinitionInput) input: CreateWorkflowDefinitionInput,
    @Ctx() ctx: RequestContext,
  ): Promise<{ definition: WorkflowDefinitionEntity }> {
    const definition = await ctx.services.workflowDefinitions.create(ctx, { name: input.name, definition: input.definition, roleArn: input.roleArn, type: opt(input.type) });
    return { definition };
  }

  @Mutation(() => UpdateWorkflowDefinitionPayload, { description: 'Change the definition text and/or role (a new revisionId); running jobs keep theirs.' })
  async updateWorkflowDefinition(
    @Arg('input', () => UpdateWorkflowDefinitionInput) input: UpdateWorkflowDefinitionInput,
    @Ctx() ctx: RequestContext,
  ): Promise<{ definition: WorkflowDefinitionEntity }> {
    const definition = await ctx.services.workflowDefinitions.update(ctx, { arn: input.arn, definition: opt(input.definition), roleArn: opt(input.roleArn) });
    return { definition };
  }

  @Mutation(() => DeleteWorkflowDefinitionPayload, {
    description: 'Delete a definition: at once (with its ended jobs) when none of its jobs runs, else it is DELETING until they end.',
  })
  async deleteWorkflowDefinition(
    @Arg('input', () => DeleteWorkflowDefinitionInput) input: DeleteWorkflowDefinitionInput,
    @Ctx() ctx: RequestContext,
  ): Promise<{ arn: string; definition: WorkflowDefinitionEntity | null }> {
    return { arn: input.arn, definition: await ctx.services.workflowDefinitions.delete(ctx, input.arn) };
  }

  @Mutation(() => PublishWorkflowDefinitionVersionPayload, {
    description: 'Publish the definition\'s current revision as a version (the same revision again answers its version).',
  })
  async publishWorkflowDefinitionVersion(
    @Arg('input', () => PublishWorkflowDefinitionVersionInput) input: PublishWorkflowDefinitionVersionInput,
    @Ctx() ctx: RequestContext,
  ): Promise<{ version: WorkflowDefinitionVersionEntity }> {
    const version = await ctx.services.workflowVersions.publish(ctx, { stateMachineArn: input.arn, revisionId: opt(input.revisionId), description: opt(input.description) });
    return { version };
  }

  @Mutation(() => DeleteWorkflowDefinitionVersionPayload, { description: 'Delete a version (its running jobs go on); not while an alias routes to it.' })
  async deleteWorkflowDefinitionVersion(
    @Arg('input', () => DeleteWorkflowDefinitionVersionInput) input: DeleteWorkflowDefinitionVersionInput,
    @Ctx() ctx: RequestContext,
  ): Promise<{ arn: string }> {
    await ctx.services.workflowVersions.deleteVersion(ctx, input.arn);
    return { arn: input.arn };
  }

  @Mutation(() => CreateWorkflowDefinitionAliasPayload, { description: 'Create an alias routing starts to one or two versions (idempotent for the same configuration).' })
  async createWorkflowDefinitionAlias(
    @Arg('input', () => CreateWorkflowDefinitionAliasInput) input: CreateWorkflowDefinitionAliasInput,
    @Ctx() ctx: RequestContext,
  ): Promise<{ alias: WorkflowDefinitionAliasEntity }> {
    const alias = await ctx.services.workflowVersions.createAlias(ctx, {
      name: input.name,
      description: opt(input.description),
      routingConfiguration: input.routing.map((r) => ({ stateMachineVersionArn: r.versionArn, weight: r.weight })),
    });
    return { alias };
  }

  @Mutation(() => UpdateWorkflowDefinitionAliasPayload, { description: 'Change an alias\'s description and/or routing.' })
  async updateWorkflowDefinitionAlias(
    @Arg('input', () => UpdateWorkflowDefinitionAliasInput) input: UpdateWorkflowDefinitionAliasInput,
    @Ctx() ctx: RequestContext,
  ): Promise<{ alias: WorkflowDefinitionAliasEntity }> {
    const alias = await ctx.services.workflowVersions.updateAlias(ctx, {
      stateMachineAliasArn: input.arn,
      description: opt(input.description),
      routingConfiguration: input.routing ? input.routing.map((r) => ({ stateMachineVersionArn: r.versionArn, weight: r.weight })) : undefined,
    });
    return { alias };
  }

  @Mutation(() => DeleteWorkflowDefinitionAliasPayload, { description: 'Delete an alias (its versions stay).' })
  async deleteWorkflowDefinitionAlias(
    @Arg('input', () => DeleteWorkflowDefinitionAliasInput) input: DeleteWorkflowDefinitionAliasInput,
    @Ctx() ctx: RequestContext,
  ): Promise<{ arn: string }> {
    await ctx.services.workflowVersions.deleteAlias(ctx, input.arn);
    return { arn: input.arn };
  }

  @Mutation(() => TagWorkflowDefinitionPayload, { description: 'Add tags to a definition or give existing keys new values (at most 50 tags in all).' })
  async tagWorkflowDefinition(@Arg('input', () => TagWorkflowDefinitionInput) input: TagWorkflowDefinitionInput, @Ctx() ctx: RequestContext): Promise<{ definition: WorkflowDefinitionEntity }> {
    await ctx.services.workflowTags.tag(ctx, { resourceArn: input.arn, tags: input.tags.map((t) => ({ key: t.key, value: t.value ?? '' })) });
    return { definition: await ctx.services.workflowDefinitions.describe(ctx, input.arn) };
  }

  @Mutation(() => UntagWorkflowDefinitionPayload, { description: 'Remove tags of a definition by key.' })
  async untagWorkflowDefinition(
    @Arg('input', () => UntagWorkflowDefinitionInput) input: UntagWorkflowDefinitionInput,
    @Ctx() ctx: RequestContext,
  ): Promise<{ definition: WorkflowDefinitionEntity }> {
    await ctx.services.workflowTags.untag(ctx, { resourceArn: input.arn, tagKeys: input.keys });
    return { definition: await ctx.services.workflowDefinitions.describe(ctx, input.arn) };
  }

  @Mutation(() => StartWorkflowJobPayload, { description: 'Start a job of a definition with a JSON input.' })
  async startWorkflowJob(
    @Arg('input', () => StartWorkflowJobInput) input: StartWorkflowJobInput,
    @Ctx() ctx: RequestContext,
  ): Promise<{ job: WorkflowJobEntity; created: boolean }> {
    return ctx.services.workflowJobs.start(ctx, {
      stateMachineArn: input.definitionArn,
      name: opt(input.name),
      input: opt(input.input),
      traceHeader: opt(input.traceHeader),
    });
  }

  @Mutation(() => StopWorkflowJobPayload, { description: 'Stop a running job (ABORTED, with the error and cause given).' })
  async stopWorkflowJob(@Arg('input', () => StopWorkflowJobInput) input: StopWorkflowJobInput, @Ctx() ctx: RequestContext): Promise<{ job: WorkflowJobEntity }> {
    const job = await ctx.services.workflowJobs.stop(ctx, { executionArn: input.arn, error: opt(input.error), cause: opt(input.cause) });
    return { job };
  }
}

export const WORKFLOW_RESOLVERS = [
  WorkflowDefinitionResolver,
  WorkflowJobResolver,
  WorkflowMutationResolver,
  WorkflowDefinitionAliasResolver,
  WorkflowAliasRouteResolver,
  WorkflowMapRunResolver,
  WorkflowJobTasksResolver,
  WorkflowActivityResolver,
  WorkflowConnectionResolver,
  WorkflowTestStateResolver,
] as const;
