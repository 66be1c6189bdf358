/** HTTP task connections in the graph (site admins only): thin over connections.service.ts. */
import { Arg, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import type { RequestContext } from '../../src/context';
import { CreateWorkflowConnectionInput, DeleteWorkflowConnectionInput, WorkflowConnection, WorkflowConnectionPayload } from './connections.type';

@Resolver()
export class WorkflowConnectionResolver {
  @Query(() => [WorkflowConnection], { description: 'Connections of workflow HTTP tasks, by name (site admins only; secrets are never shown).' })
  workflowConnections(@Ctx() ctx: RequestContext) {
    return ctx.services.workflowConnections.list(ctx);
  }

  @Mutation(() => WorkflowConnectionPayload, { description: 'Create a connection for HTTP tasks (site admins only); its secret is stored encrypted.' })
  async createWorkflowConnection(@Arg('input', () => CreateWorkflowConnectionInput) input: CreateWorkflowConnectionInput, @Ctx() ctx: RequestContext) {
    return { connection: await ctx.services.workflowConnections.create(ctx, input) };
  }

  @Mutation(() => WorkflowConnectionPayload, { description: 'Delete a connection (site admins only); HTTP tasks naming it fail from then on.' })
  async deleteWorkflowConnection(@Arg('input', () => DeleteWorkflowConnectionInput) input: DeleteWorkflowConnectionInput, @Ctx() ctx: RequestContext) {
    return { connection: await ctx.services.workflowConnections.delete(ctx, input.connection) };
  }
}
