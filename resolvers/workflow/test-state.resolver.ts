/**
 * validateWorkflowDefinition and testWorkflowState (issue 23 §3): thin queries over the services of
 * ValidateStateMachineDefinition and TestState (definitions.service.ts, test-state.service.ts), same rules and
 * access checks as the wire protocol.
 */
import { Arg, Args, Ctx, Query, Resolver } from 'type-graphql';
import type { RequestContext } from '../../src/context';
import type { DefinitionValidation } from '../../src/services/workflow/definitions.service';
import type { TestStateResult } from '../../src/services/workflow/test-state.service';
import { opt } from '../common/args';
import { TestWorkflowStateInput, ValidateWorkflowDefinitionArgs, WorkflowDefinitionValidation, WorkflowStateTest } from './test-state.type';

@Resolver()
export class WorkflowTestStateResolver {
  @Query(() => WorkflowDefinitionValidation, { description: "Check a definition: Step Functions' diagnostics (needs workflow read access)." })
  validateWorkflowDefinition(@Args() args: ValidateWorkflowDefinitionArgs, @Ctx() ctx: RequestContext): Promise<DefinitionValidation> {
    return ctx.services.workflowDefinitions.validate(ctx, { definition: args.definition, severity: opt(args.severity), maxResults: opt(args.maxResults) });
  }

  @Query(() => WorkflowStateTest, {
    description: "Run one state with an input, variables and an optional mock, as TestState does; nothing is stored (needs workflow write access: the state's task runs as the viewer).",
  })
  testWorkflowState(@Arg('input', () => TestWorkflowStateInput) input: TestWorkflowStateInput, @Ctx() ctx: RequestContext): Promise<TestStateResult> {
    const m = input.mock;
    return ctx.services.workflowTestState.testState(ctx, {
      definition: input.definition,
      stateName: opt(input.stateName),
      input: opt(input.input),
      variables: opt(input.variables),
      inspectionLevel: opt(input.inspectionLevel),
      revealSecrets: opt(input.revealSecrets),
      roleArn: opt(input.roleArn),
      mock: m
        ? {
            result: opt(m.result),
            errorOutput: m.error != null || m.cause != null ? { error: opt(m.error), cause: opt(m.cause) } : undefined,
            fieldValidationMode: opt(m.fieldValidationMode),
          }
        : undefined,
      context: opt(input.context),
      stateConfiguration: input.retrierRetryCount != null ? { retrierRetryCount: input.retrierRetryCount } : undefined,
      signal: ctx.request?.signal,
    });
  }
}
