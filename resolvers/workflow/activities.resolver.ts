/** Workflow activities and task answers in the graph: thin over activities.service.ts (the wire protocol's rules). */
import { Arg, Ctx, FieldResolver, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import { WorkflowActivityEntity, WorkflowJobEntity, WorkflowTaskEntity } from '../../entities/workflow';
import type { RequestContext } from '../../src/context';
import {
  CreateWorkflowActivityInput,
  DeleteWorkflowActivityInput,
  DeleteWorkflowActivityPayload,
  SendTaskFailureInput,
  SendTaskPayload,
  SendTaskSuccessInput,
  WorkflowActivityList,
  WorkflowActivityPayload,
  WorkflowTask,
} from './activities.type';
import { WorkflowJob } from './workflow.type';

@Resolver(() => WorkflowJob)
export class WorkflowJobTasksResolver {
  @FieldResolver(() => [WorkflowTask], { description: 'Tasks of the job waiting for a worker or a callback answer (at most 1,000).' })
  pendingTasks(@Root() job: WorkflowJobEntity, @Ctx() ctx: RequestContext): Promise<WorkflowTaskEntity[]> {
    return ctx.services.workflowActivities.pendingTasks(ctx, job);
  }
}

@Resolver()
export class WorkflowActivityResolver {
  @Query(() => WorkflowActivityList, { description: 'Workflow activities by name (needs workflow read access).' })
  async workflowActivities(
    @Ctx() ctx: RequestContext,
    @Arg('maxResults', () => Int, { nullable: true }) maxResults?: number | null,
    @Arg('nextToken', () => String, { nullable: true }) nextToken?: string | null,
  ): Promise<{ items: WorkflowActivityEntity[]; nextToken: string | null }> {
    const page = await ctx.services.workflowActivities.list(ctx, { maxResults: maxResults ?? undefined, nextToken: nextToken ?? undefined });
    return { items: page.items, nextToken: page.nextToken ?? null };
  }

  @Mutation(() => WorkflowActivityPayload, { description: 'Create an activity (the existing one when the name is taken).' })
  async createWorkflowActivity(@Arg('input', () => CreateWorkflowActivityInput) input: CreateWorkflowActivityInput, @Ctx() ctx: RequestContext) {
    return { activity: await ctx.services.workflowActivities.create(ctx, { name: input.name }) };
  }

  @Mutation(() => DeleteWorkflowActivityPayload, { description: 'Delete an activity (deleting none succeeds, as in Step Functions).' })
  async deleteWorkflowActivity(@Arg('input', () => DeleteWorkflowActivityInput) input: DeleteWorkflowActivityInput, @Ctx() ctx: RequestContext) {
    await ctx.services.workflowActivities.delete(ctx, input.arn);
    return { arn: input.arn };
  }

  @Mutation(() => SendTaskPayload, { description: 'Complete the task of a task token with its output (SendTaskSuccess).' })
  async sendTaskSuccess(@Arg('input', () => SendTaskSuccessInput) input: SendTaskSuccessInput, @Ctx() ctx: RequestContext) {
    await ctx.services.workflowActivities.sendSuccess(ctx, { taskToken: input.taskToken, output: input.output });
    return { accepted: true };
  }

  @Mutation(() => SendTaskPayload, { description: 'Fail the task of a task token (SendTaskFailure).' })
  async sendTaskFailure(@Arg('input', () => SendTaskFailureInput) input: SendTaskFailureInput, @Ctx() ctx: RequestContext) {
    await ctx.services.workflowActivities.sendFailure(ctx, { taskToken: input.taskToken, error: input.error ?? undefined, cause: input.cause ?? undefined });
    return { accepted: true };
  }
}
