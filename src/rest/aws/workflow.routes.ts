/**
 * The workflow service's wire protocol: Step Functions' operations (AWS JSON 1.0, `X-Amz-Target:
 * AWSStepFunctions.<Operation>`) on `POST /workflow` (the gateway's path, what `new SFNClient({ endpoint:
 * '<gateway>/workflow' })` calls) and on `POST /` (an endpoint without a path). Each row: its members, declared
 * once (src/rest/aws/body.ts: documentation and decoding), the service call, the presenter.
 */
import { AliasRoute, WORKFLOW_JOB_STATUSES, WorkflowDefinitionAliasEntity, WorkflowJobStatus } from '../../../entities/workflow';
import type { WorkflowJobEntity, WorkflowMapRunEntity } from '../../../entities/workflow';
import type { RequestContext } from '../../context';
import { MAX_LIST_SIZE } from '../../services/workflow/definitions.service';
import type { RedriveStatus } from '../../services/workflow/jobs.service';
import { LOG_LEVELS, type LoggingConfigurationInput } from '../../services/workflow/logging-configuration';
import type { Tag } from '../../services/workflow/tags.service';
import { INSPECTION_LEVELS, MOCK_VALIDATION_MODES, type TestStateInput, type TestStateResult } from '../../services/workflow/test-state.service';
import { parseRouting } from '../../services/workflow/versions.service';
import { route, RestRoute } from '../route-table';
import { BodySchema, bodySchema, decodeBody, MemberSchema } from './body';
import { presentDefinition, presentDefinitionForJob, presentExpressResult, presentDefinitionItem, presentEvent, presentJob, presentJobItem, presentMapRun, presentMapRunItem, epochSeconds } from './workflow.presenters';

/** Activities and task tokens (activities.service.ts). */
function ACTIVITY_OPERATIONS(): Op<any, any>[] {
  const tokenMember: MemberSchema = { type: 'string', minLength: 1, maxLength: 2048 };
  type Activities = RequestContext['services']['workflowActivities'];
  return [
    // encryptionConfiguration is accepted and ignored (undeclared members are).
    op<{ name: string; tags: Tag[] }, Awaited<ReturnType<Activities['create']>>>({
      operation: 'CreateActivity',
      summary: 'Create an activity (idempotent by name)',
      body: bodySchema({ name: nameMember, tags: tagsMember }, ['name']),
      handle: (ctx, b) => ctx.services.workflowActivities.create(ctx, { name: b.name!, tags: b.tags }),
      present: (a) => ({ activityArn: a.arn, creationDate: epochSeconds(a.createdAt) }),
    }),
    op<{ activityArn: string }, Awaited<ReturnType<Activities['describe']>>>({
      operation: 'DescribeActivity',
      summary: 'Describe an activity',
      body: bodySchema({ activityArn: arnMember }, ['activityArn']),
      handle: (ctx, b) => ctx.services.workflowActivities.describe(ctx, b.activityArn!),
      present: (a) => ({ activityArn: a.arn, name: a.name, creationDate: epochSeconds(a.createdAt), encryptionConfiguration: { type: 'AWS_OWNED_KEY' } }),
    }),
    op<{ activityArn: string }, void>({
      operation: 'DeleteActivity',
      summary: 'Delete an activity',
      body: bodySchema({ activityArn: arnMember }, ['activityArn']),
      handle: (ctx, b) => ctx.services.workflowActivities.delete(ctx, b.activityArn!),
      present: () => ({}),
    }),
    op<{ maxResults: number; nextToken: string }, Awaited<ReturnType<Activities['list']>>>({
      operation: 'ListActivities',
      summary: 'List activities by name',
      body: bodySchema({ maxResults, nextToken }),
      handle: (ctx, b) => ctx.services.workflowActivities.list(ctx, { maxResults: b.maxResults, nextToken: b.nextToken }),
      present: (p) => ({
        activities: p.items.map((a) => ({ activityArn: a.arn, name: a.name, creationDate: epochSeconds(a.createdAt) })),
        ...(p.nextToken ? { nextToken: p.nextToken } : {}),
      }),
    }),
    op<{ activityArn: string; workerName: string }, Awaited<ReturnType<Activities['getTask']>>>({
      operation: 'GetActivityTask',
      summary: 'Take a scheduled task of an activity (long poll of up to 60 s; an empty answer when none came)',
      body: bodySchema({ activityArn: arnMember, workerName: nameMember }, ['activityArn']),
      handle: (ctx, b) => ctx.services.workflowActivities.getTask(ctx, { activityArn: b.activityArn!, workerName: b.workerName, signal: ctx.request?.signal }),
      present: (t) => (t ? { taskToken: t.taskToken, input: t.input } : {}),
    }),
    op<{ taskToken: string; output: string }, void>({
      operation: 'SendTaskSuccess',
      summary: 'Complete the task of a task token with its output',
      body: bodySchema({ taskToken: tokenMember, output: { type: 'string', maxLength: 262_144 * 4 } }, ['taskToken', 'output']),
      handle: (ctx, b) => ctx.services.workflowActivities.sendSuccess(ctx, { taskToken: b.taskToken!, output: b.output! }),
      present: () => ({}),
    }),
    op<{ taskToken: string; error: string; cause: string }, void>({
      operation: 'SendTaskFailure',
      summary: 'Fail the task of a task token',
      body: bodySchema({ taskToken: tokenMember, error: { type: 'string', maxLength: 256 }, cause: { type: 'string', maxLength: 32_768 } }, ['taskToken']),
      handle: (ctx, b) => ctx.services.workflowActivities.sendFailure(ctx, { taskToken: b.taskToken!, error: b.error, cause: b.cause }),
      present: () => ({}),
    }),
    op<{ taskToken: string }, void>({
      operation: 'SendTaskHeartbeat',
      summary: 'Keep the task of a task token alive (its HeartbeatSeconds start again)',
      body: bodySchema({ taskToken: tokenMember }, ['taskToken']),
      handle: (ctx, b) => ctx.services.workflowActivities.sendHeartbeat(ctx, { taskToken: b.taskToken! }),
      present: () => ({}),
    }),
  ];
}

/** Versions and aliases (versions.service.ts). */
function VERSION_OPERATIONS(): Op<any, any>[] {
  type Versions = RequestContext['services']['workflowVersions'];
  const longArn: MemberSchema = { type: 'string', minLength: 1, maxLength: 2000 };
  const description: MemberSchema = { type: 'string', maxLength: 256 };
  const routing: MemberSchema = {
    type: 'array',
    minItems: 1,
    maxItems: 2,
    items: { type: 'object', properties: { stateMachineVersionArn: arnMember, weight: { type: 'integer', minimum: 0, maximum: 100 } }, required: ['stateMachineVersionArn', 'weight'] },
  };
  const alias = (a: WorkflowDefinitionAliasEntity) => ({
    stateMachineAliasArn: a.arn,
    name: a.name,
    ...(a.description !== null ? { description: a.description } : {}),
    routingConfiguration: parseRouting(a.routing),
    creationDate: epochSeconds(a.createdAt),
    updateDate: epochSeconds(a.updatedAt),
  });
  const list = (b: { stateMachineArn?: string; maxResults?: number; nextToken?: string }) => ({ stateMachineArn: b.stateMachineArn!, maxResults: b.maxResults, nextToken: b.nextToken });
  return [
    op<{ stateMachineArn: string; revisionId: string; description: string }, Awaited<ReturnType<Versions['publish']>>>({
      operation: 'PublishStateMachineVersion',
      summary: "Publish a definition's current revision as a numbered version (idempotent per revision)",
      body: bodySchema({ stateMachineArn: arnMember, revisionId: { type: 'string', maxLength: 64 }, description }, ['stateMachineArn']),
      handle: (ctx, b) => ctx.services.workflowVersions.publish(ctx, { stateMachineArn: b.stateMachineArn!, revisionId: b.revisionId, description: b.description }),
      present: (v) => ({ stateMachineVersionArn: v.arn, creationDate: epochSeconds(v.createdAt) }),
    }),
    op<{ stateMachineArn: string; maxResults: number; nextToken: string }, Awaited<ReturnType<Versions['listVersions']>>>({
      operation: 'ListStateMachineVersions',
      summary: 'List the versions of a definition, newest first',
      body: bodySchema({ stateMachineArn: arnMember, maxResults, nextToken }, ['stateMachineArn']),
      handle: (ctx, b) => ctx.services.workflowVersions.listVersions(ctx, list(b)),
      present: (p) => ({ stateMachineVersions: p.items.map((v) => ({ stateMachineVersionArn: v.arn, creationDate: epochSeconds(v.createdAt) })), ...(p.nextToken ? { nextToken: p.nextToken } : {}) }),
    }),
    op<{ stateMachineVersionArn: string }, void>({
      operation: 'DeleteStateMachineVersion',
      summary: 'Delete a version (not while an alias routes to it; its running jobs go on)',
      body: bodySchema({ stateMachineVersionArn: longArn }, ['stateMachineVersionArn']),
      handle: (ctx, b) => ctx.services.workflowVersions.deleteVersion(ctx, b.stateMachineVersionArn!),
      present: () => ({}),
    }),
    op<{ name: string; description: string; routingConfiguration: AliasRoute[] }, Awaited<ReturnType<Versions['createAlias']>>>({
      operation: 'CreateStateMachineAlias',
      summary: 'Create an alias routing job starts to one or two versions by weight (idempotent for the same configuration)',
      body: bodySchema({ name: { type: 'string', minLength: 1, maxLength: 80 }, description, routingConfiguration: routing }, ['name', 'routingConfiguration']),
      handle: (ctx, b) => ctx.services.workflowVersions.createAlias(ctx, { name: b.name!, description: b.description, routingConfiguration: b.routingConfiguration! }),
      present: (a) => ({ stateMachineAliasArn: a.arn, creationDate: epochSeconds(a.createdAt) }),
    }),
    op<{ stateMachineAliasArn: string }, Awaited<ReturnType<Versions['describeAlias']>>>({
      operation: 'DescribeStateMachineAlias',
      summary: 'Describe an alias',
      body: bodySchema({ stateMachineAliasArn: arnMember }, ['stateMachineAliasArn']),
      handle: (ctx, b) => ctx.services.workflowVersions.describeAlias(ctx, b.stateMachineAliasArn!),
      present: alias,
    }),
    op<{ stateMachineAliasArn: string; description: string; routingConfiguration: AliasRoute[] }, Awaited<ReturnType<Versions['updateAlias']>>>({
      operation: 'UpdateStateMachineAlias',
      summary: "Change an alias's description and/or routing",
      body: bodySchema({ stateMachineAliasArn: arnMember, description, routingConfiguration: routing }, ['stateMachineAliasArn']),
      handle: (ctx, b) =>
        ctx.services.workflowVersions.updateAlias(ctx, { stateMachineAliasArn: b.stateMachineAliasArn!, description: b.description, routingConfiguration: b.routingConfiguration }),
      present: (a) => ({ updateDate: epochSeconds(a.updatedAt) }),
    }),
    op<{ stateMachineAliasArn: string }, void>({
      operation: 'DeleteStateMachineAlias',
      summary: 'Delete an alias (its versions stay)',
      body: bodySchema({ stateMachineAliasArn: arnMember }, ['stateMachineAliasArn']),
      handle: (ctx, b) => ctx.services.workflowVersions.deleteAlias(ctx, b.stateMachineAliasArn!),
      present: () => ({}),
    }),
    op<{ stateMachineArn: string; maxResults: number; nextToken: string }, Awaited<ReturnType<Versions['listAliases']>>>({
      operation: 'ListStateMachineAliases',
      summary: 'List the aliases of a definition (of a version ARN: those routing to it)',
      body: bodySchema({ stateMachineArn: arnMember, maxResults, nextToken }, ['stateMachineArn']),
      handle: (ctx, b) => ctx.services.workflowVersions.listAliases(ctx, list(b)),
      present: (p) => ({ stateMachineAliases: p.items.map((a) => ({ stateMachineAliasArn: a.arn, creationDate: epochSeconds(a.createdAt) })), ...(p.nextToken ? { nextToken: p.nextToken } : {}) }),
    }),
  ];
}

export const WORKFLOW_TARGET_PREFIX = 'AWSStepFunctions';
export const WORKFLOW_PATHS = ['/workflow', '/'] as const;

const arnMember: MemberSchema = { type: 'string', minLength: 1, maxLength: 256 };
const nameMember: MemberSchema = { type: 'string', minLength: 1, maxLength: 80 };
const maxResults: MemberSchema = { type: 'integer', minimum: 0, maximum: MAX_LIST_SIZE, description: '0 or absent = 100' };
const nextToken: MemberSchema = { type: 'string', minLength: 1, maxLength: 1024 };
const longArnMember: MemberSchema = { type: 'string', minLength: 1, maxLength: 2000 };
const tagKey: MemberSchema = { type: 'string', minLength: 1, maxLength: 128 };
const tagsMember: MemberSchema = { type: 'array', items: { type: 'object', properties: { key: tagKey, value: { type: 'string', maxLength: 256 } } } };
const publishMembers: Record<string, MemberSchema> = { publish: { type: 'boolean' }, versionDescription: { type: 'string', maxLength: 256 } };
const loggingMember: MemberSchema = {
  type: 'object',
  properties: {
    level: { type: 'string', enum: LOG_LEVELS },
    includeExecutionData: { type: 'boolean' },
    destinations: {
      type: 'array',
      // More than one is InvalidLoggingConfiguration (the service's rule); past a few is no request worth reading.
      maxItems: 16,
      items: { type: 'object', properties: { cloudWatchLogsLogGroup: { type: 'object', properties: { logGroupArn: { type: 'string', minLength: 1, maxLength: 256 } } } } },
    },
  },
};

interface Op<B extends Record<string, unknown>, O> {
  operation: string;
  summary: string;
  body: BodySchema;
  handle(ctx: RequestContext, body: Partial<B>): Promise<O>;
  present(result: O, ctx: RequestContext, body: Partial<B>): unknown;
}

function op<B extends Record<string, unknown>, O>(o: Op<B, O>): Op<any, any> {
  return o as Op<any, any>;
}

const OPERATIONS: Op<any, any>[] = [
  op<{ name: string; definition: string; roleArn: string; type: string; publish: boolean; versionDescription: string; tags: Tag[]; loggingConfiguration: LoggingConfigurationInput }, Awaited<ReturnType<RequestContext['services']['workflowDefinitions']['create']>>>({
    operation: 'CreateStateMachine',
    summary: 'Create a workflow definition (idempotent for the same name, definition, role and type)',
    body: bodySchema(
      {
        name: nameMember,
        definition: { type: 'string', minLength: 1, maxLength: 1_048_576 },
        roleArn: arnMember,
        type: { type: 'string', enum: ['STANDARD', 'EXPRESS'] },
        ...publishMembers,
        tags: tagsMember,
        loggingConfiguration: loggingMember,
      },
      ['name', 'definition', 'roleArn'],
    ),
    handle: (ctx, b) =>
      ctx.services.workflowDefinitions.create(ctx, {
        name: b.name!,
        definition: b.definition!,
        roleArn: b.roleArn!,
        type: b.type,
        publish: b.publish,
        versionDescription: b.versionDescription,
        tags: b.tags,
        loggingConfiguration: b.loggingConfiguration,
      }),
    present: (d) => ({ stateMachineArn: d.arn, creationDate: epochSeconds(d.createdAt), ...(d.version ? { stateMachineVersionArn: d.version.arn } : {}) }),
  }),
  op<{ stateMachineArn: string }, Awaited<ReturnType<RequestContext['services']['workflowDefinitions']['describe']>>>({
    operation: 'DescribeStateMachine',
    summary: 'Describe a workflow definition',
    body: bodySchema({ stateMachineArn: arnMember }, ['stateMachineArn']),
    handle: (ctx, b) => ctx.services.workflowDefinitions.describe(ctx, b.stateMachineArn!),
    present: (d) => presentDefinition(d),
  }),
  op<
    { stateMachineArn: string; definition: string; roleArn: string; loggingConfiguration: LoggingConfigurationInput; publish: boolean; versionDescription: string },
    Awaited<ReturnType<RequestContext['services']['workflowDefinitions']['update']>>
  >({
    operation: 'UpdateStateMachine',
    summary: 'Change a workflow definition, its role and/or its logging configuration (running jobs keep their snapshot); publish: also as a version',
    body: bodySchema(
      { stateMachineArn: arnMember, definition: { type: 'string', minLength: 1, maxLength: 1_048_576 }, roleArn: arnMember, loggingConfiguration: loggingMember, ...publishMembers },
      ['stateMachineArn'],
    ),
    handle: (ctx, b) =>
      ctx.services.workflowDefinitions.update(ctx, {
        arn: b.stateMachineArn!,
        definition: b.definition,
        roleArn: b.roleArn,
        loggingConfiguration: b.loggingConfiguration,
        publish: b.publish,
        versionDescription: b.versionDescription,
      }),
    present: (d) => ({ updateDate: epochSeconds(d.updatedAt), revisionId: d.revisionId, ...(d.version ? { stateMachineVersionArn: d.version.arn } : {}) }),
  }),
  op<{ stateMachineArn: string }, void>({
    operation: 'DeleteStateMachine',
    summary: 'Delete a workflow definition (DELETING while its jobs run)',
    body: bodySchema({ stateMachineArn: arnMember }, ['stateMachineArn']),
    handle: async (ctx, b) => {
      await ctx.services.workflowDefinitions.delete(ctx, b.stateMachineArn!);
    },
    present: () => ({}),
  }),
  op<{ maxResults: number; nextToken: string }, Awaited<ReturnType<RequestContext['services']['workflowDefinitions']['list']>>>({
    operation: 'ListStateMachines',
    summary: 'List workflow definitions by name',
    body: bodySchema({ maxResults, nextToken }),
    handle: (ctx, b) => ctx.services.workflowDefinitions.list(ctx, { maxResults: b.maxResults, nextToken: b.nextToken }),
    present: (p) => ({ stateMachines: p.items.map(presentDefinitionItem), ...(p.nextToken ? { nextToken: p.nextToken } : {}) }),
  }),
  op<{ stateMachineArn: string; name: string; input: string; traceHeader: string }, Awaited<ReturnType<RequestContext['services']['workflowJobs']['startExecution']>>>({
    operation: 'StartExecution',
    summary: 'Start a job (idempotent by name while it runs with the same input)',
    body: bodySchema(
      { stateMachineArn: arnMember, name: nameMember, input: { type: 'string', maxLength: 262_144 * 4 }, traceHeader: { type: 'string', maxLength: 256 } },
      ['stateMachineArn'],
    ),
    handle: (ctx, b) => ctx.services.workflowJobs.startExecution(ctx, { stateMachineArn: b.stateMachineArn!, name: b.name, input: b.input, traceHeader: b.traceHeader }),
    present: (r) => ({ executionArn: r.executionArn, startDate: epochSeconds(r.startDate) }),
  }),
  op<{ stateMachineArn: string; name: string; input: string; traceHeader: string; includedData: string }, Awaited<ReturnType<RequestContext['services']['workflowExpress']['startSync']>>>({
    operation: 'StartSyncExecution',
    summary: 'Run an execution of an EXPRESS state machine to its end and answer its result (HTTP 200 also when it fails)',
    body: bodySchema(
      {
        stateMachineArn: arnMember,
        name: nameMember,
        input: { type: 'string', maxLength: 262_144 * 4 },
        traceHeader: { type: 'string', maxLength: 256 },
        includedData: { type: 'string', enum: ['ALL_DATA', 'METADATA_ONLY'] },
      },
      ['stateMachineArn'],
    ),
    handle: (ctx, b) =>
      ctx.services.workflowExpress.startSync(ctx, { stateMachineArn: b.stateMachineArn!, name: b.name, input: b.input, traceHeader: b.traceHeader, includedData: b.includedData }),
    present: presentExpressResult,
  }),
  op<{ executionArn: string }, Awaited<ReturnType<RequestContext['services']['workflowJobs']['definitionFor']>>>({
    operation: 'DescribeStateMachineForExecution',
    summary: 'The definition a job runs (its snapshot at start: the version it was started from, or the revision then)',
    body: bodySchema({ executionArn: arnMember, includedData: { type: 'string', enum: ['ALL_DATA', 'METADATA_ONLY'] } }, ['executionArn']),
    handle: (ctx, b) => ctx.services.workflowJobs.definitionFor(ctx, b.executionArn!),
    present: presentDefinitionForJob,
  }),
  op<{ executionArn: string; includedData: string }, { job: WorkflowJobEntity; mapRun: WorkflowMapRunEntity | null; redrive: RedriveStatus }>({
    operation: 'DescribeExecution',
    summary: 'Describe a job',
    body: bodySchema({ executionArn: arnMember, includedData: { type: 'string', enum: ['ALL_DATA', 'METADATA_ONLY'] } }, ['executionArn']),
    handle: async (ctx, b) => {
      const job = await ctx.services.workflowJobs.describe(ctx, b.executionArn!);
      // A Map Run's child names its run, and is redriven by it.
      const mapRun = await ctx.services.workflowJobs.mapRunOf(ctx, job);
      return { job, mapRun, redrive: await ctx.services.workflowJobs.redriveStatus(ctx, job, mapRun) };
    },
    present: ({ job, mapRun, redrive }, ctx, b) =>
      presentJob(job, ctx.services.workflowJobs.definitionArnOf(ctx, job), b.includedData !== 'METADATA_ONLY', redrive, mapRun?.arn),
  }),
  op<{ stateMachineArn: string; mapRunArn: string; statusFilter: string; redriveFilter: string; maxResults: number; nextToken: string }, Awaited<ReturnType<RequestContext['services']['workflowJobs']['list']>>>({
    operation: 'ListExecutions',
    summary: "List the jobs of a definition, newest first, or a Map Run's child executions (mapRunArn) in item order",
    body: {
      ...bodySchema({
        stateMachineArn: arnMember,
        mapRunArn: longArnMember,
        statusFilter: { type: 'string', enum: [...WORKFLOW_JOB_STATUSES, 'PENDING_REDRIVE'] },
        redriveFilter: { type: 'string', enum: ['REDRIVEN', 'NOT_REDRIVEN'] },
        maxResults,
        nextToken: { type: 'string', minLength: 1, maxLength: 3096 },
      }),
      anyOf: [{ required: ['stateMachineArn'] }, { required: ['mapRunArn'] }],
    },
    handle: (ctx, b) =>
      ctx.services.workflowJobs.list(ctx, {
        stateMachineArn: b.stateMachineArn,
        mapRunArn: b.mapRunArn,
        // PENDING_REDRIVE is a status no job of ours has: an empty list, like any status filter without matches.
        statusFilter: b.statusFilter as WorkflowJobStatus | undefined,
        redriveFilter: b.redriveFilter as 'REDRIVEN' | 'NOT_REDRIVEN' | undefined,
        maxResults: b.maxResults,
        nextToken: b.nextToken,
      }),
    present: (p, ctx, b) => ({
      executions: p.items.map((j) => presentJobItem(j, ctx.services.workflowJobs.definitionArnOf(ctx, j), b.mapRunArn)),
      ...(p.nextToken ? { nextToken: p.nextToken } : {}),
    }),
  }),
  op<{ executionArn: string; error: string; cause: string }, Awaited<ReturnType<RequestContext['services']['workflowJobs']['stop']>>>({
    operation: 'StopExecution',
    summary: 'Stop a running job (ABORTED)',
    body: bodySchema({ executionArn: arnMember, error: { type: 'string', maxLength: 256 }, cause: { type: 'string', maxLength: 32_768 } }, ['executionArn']),
    handle: (ctx, b) => ctx.services.workflowJobs.stop(ctx, { executionArn: b.executionArn!, error: b.error, cause: b.cause }),
    present: (job) => ({ stopDate: epochSeconds(job.stopDate!) }),
  }),
  op<{ definition: string; type: string; severity: string; maxResults: number }, Awaited<ReturnType<RequestContext['services']['workflowDefinitions']['validate']>>>({
    operation: 'ValidateStateMachineDefinition',
    summary: "Check a definition: Step Functions' diagnostics (severity, code, message, location) and OK or FAIL",
    body: bodySchema(
      {
        definition: { type: 'string', minLength: 1, maxLength: 1_048_576 },
        type: { type: 'string', enum: ['STANDARD', 'EXPRESS'] },
        severity: { type: 'string', enum: ['ERROR', 'WARNING'] },
        maxResults: { type: 'integer', minimum: 0, maximum: 100, description: '0 or absent = 100' },
      },
      ['definition'],
    ),
    handle: (ctx, b) => ctx.services.workflowDefinitions.validate(ctx, { definition: b.definition!, type: b.type, severity: b.severity, maxResults: b.maxResults }),
    present: (v) => v,
  }),
  op<TestStateInput & Record<string, unknown>, TestStateResult>({
    operation: 'TestState',
    summary: 'Run one state (alone, or of a whole definition by stateName) with an input, variables and an optional mocked result; nothing is stored',
    body: bodySchema(
      {
        definition: { type: 'string', minLength: 1, maxLength: 1_048_576 },
        roleArn: { type: 'string', minLength: 1, maxLength: 256 },
        input: { type: 'string', maxLength: 262_144 },
        inspectionLevel: { type: 'string', enum: INSPECTION_LEVELS },
        revealSecrets: { type: 'boolean' },
        variables: { type: 'string', maxLength: 262_144 },
        stateName: { type: 'string', minLength: 1, maxLength: 80 },
        mock: {
          type: 'object',
          properties: {
            result: { type: 'string', maxLength: 262_144 },
            errorOutput: { type: 'object', properties: { error: { type: 'string', maxLength: 256 }, cause: { type: 'string', maxLength: 32_768 } } },
            fieldValidationMode: { type: 'string', enum: MOCK_VALIDATION_MODES },
          },
        },
        context: { type: 'string', maxLength: 262_144 },
        stateConfiguration: {
          type: 'object',
          properties: {
            retrierRetryCount: { type: 'integer', minimum: 0, maximum: 2_147_483_647 },
            errorCausedByState: { type: 'string', minLength: 1, maxLength: 80 },
            mapIterationFailureCount: { type: 'integer', minimum: 0, maximum: 2_147_483_647 },
            mapItemReaderData: { type: 'string', maxLength: 262_144 },
          },
        },
      },
      ['definition'],
    ),
    handle: (ctx, b) => ctx.services.workflowTestState.testState(ctx, { ...(b as TestStateInput), signal: ctx.request?.signal }),
    present: (r) => r,
  }),
  op<{ executionArn: string; maxResults: number; reverseOrder: boolean; nextToken: string; includeExecutionData: boolean }, Awaited<ReturnType<RequestContext['services']['workflowJobs']['history']>>>({
    operation: 'GetExecutionHistory',
    summary: "A job's history events",
    body: bodySchema(
      { executionArn: arnMember, maxResults, reverseOrder: { type: 'boolean' }, nextToken, includeExecutionData: { type: 'boolean' } },
      ['executionArn'],
    ),
    handle: (ctx, b) =>
      ctx.services.workflowJobs.history(ctx, {
        executionArn: b.executionArn!,
        maxResults: b.maxResults,
        reverseOrder: b.reverseOrder,
        nextToken: b.nextToken,
        includeExecutionData: b.includeExecutionData,
      }),
    present: (p) => ({ events: p.items.map(presentEvent), ...(p.nextToken ? { nextToken: p.nextToken } : {}) }),
  }),
  op<{ executionArn: string; clientToken: string }, Awaited<ReturnType<RequestContext['services']['workflowJobs']['redrive']>>>({
    operation: 'RedriveExecution',
    summary: 'Resume a FAILED, TIMED_OUT or ABORTED job from the states that did not succeed',
    body: bodySchema({ executionArn: arnMember, clientToken: { type: 'string', minLength: 1, maxLength: 64 } }, ['executionArn']),
    handle: (ctx, b) => ctx.services.workflowJobs.redrive(ctx, { executionArn: b.executionArn!, clientToken: b.clientToken }),
    present: (job) => ({ redriveDate: epochSeconds(job.redriveDate!) }),
  }),
  ...ACTIVITY_OPERATIONS(),
  ...MAP_RUN_OPERATIONS(),
  ...VERSION_OPERATIONS(),
  op<{ resourceArn: string; tags: Tag[] }, void>({
    operation: 'TagResource',
    summary: 'Add or change tags of a state machine or activity (at most 50)',
    body: bodySchema({ resourceArn: arnMember, tags: tagsMember }, ['resourceArn', 'tags']),
    handle: (ctx, b) => ctx.services.workflowTags.tag(ctx, { resourceArn: b.resourceArn!, tags: b.tags! }),
    present: () => ({}),
  }),
  op<{ resourceArn: string; tagKeys: string[] }, void>({
    operation: 'UntagResource',
    summary: 'Remove tags of a state machine or activity by key',
    body: bodySchema({ resourceArn: arnMember, tagKeys: { type: 'array', items: tagKey } }, ['resourceArn', 'tagKeys']),
    handle: (ctx, b) => ctx.services.workflowTags.untag(ctx, { resourceArn: b.resourceArn!, tagKeys: b.tagKeys! }),
    present: () => ({}),
  }),
  op<{ resourceArn: string }, Tag[]>({
    operation: 'ListTagsForResource',
    summary: 'The tags of a state machine or activity',
    body: bodySchema({ resourceArn: arnMember }, ['resourceArn']),
    handle: (ctx, b) => ctx.services.workflowTags.list(ctx, b.resourceArn!),
    present: (tags) => ({ tags }),
  }),
];

/** Distributed Map runs (jobs.service.ts, map-runs.ts). */
function MAP_RUN_OPERATIONS(): Op<any, any>[] {
  type Jobs = RequestContext['services']['workflowJobs'];
  return [
    op<{ executionArn: string; maxResults: number; nextToken: string }, Awaited<ReturnType<Jobs['listMapRuns']>>>({
      operation: 'ListMapRuns',
      summary: 'List the Map Runs a job started (its Distributed Map states), oldest first',
      body: bodySchema({ executionArn: arnMember, maxResults, nextToken }, ['executionArn']),
      handle: (ctx, b) => ctx.services.workflowJobs.listMapRuns(ctx, { executionArn: b.executionArn!, maxResults: b.maxResults, nextToken: b.nextToken }),
      present: (p, _ctx, b) => ({ mapRuns: p.items.map((r) => presentMapRunItem(r, b.executionArn!)), ...(p.nextToken ? { nextToken: p.nextToken } : {}) }),
    }),
    op<{ mapRunArn: string }, Awaited<ReturnType<Jobs['describeMapRun']>>>({
      operation: 'DescribeMapRun',
      summary: "A Map Run's status, limits and its items' and child executions' counts",
      body: bodySchema({ mapRunArn: longArnMember }, ['mapRunArn']),
      handle: (ctx, b) => ctx.services.workflowJobs.describeMapRun(ctx, b.mapRunArn!),
      present: (r) => presentMapRun(r.run, r.executionArn),
    }),
    op<{ mapRunArn: string; maxConcurrency: number; toleratedFailurePercentage: number; toleratedFailureCount: number }, void>({
      operation: 'UpdateMapRun',
      summary: "Change a running Map Run's MaxConcurrency and tolerated failures (they apply to the running run)",
      body: bodySchema(
        {
          mapRunArn: longArnMember,
          maxConcurrency: { type: 'integer', minimum: 0, maximum: 2_147_483_647 },
          toleratedFailurePercentage: { type: 'number', minimum: 0, maximum: 100 },
          toleratedFailureCount: { type: 'integer', minimum: 0, maximum: 2_147_483_647 },
        },
        ['mapRunArn'],
      ),
      handle: (ctx, b) => ctx.services.workflowJobs.updateMapRun(ctx, { mapRunArn: b.mapRunArn!, maxConcurrency: b.maxConcurrency, toleratedFailurePercentage: b.toleratedFailurePercentage, toleratedFailureCount: b.toleratedFailureCount }),
      present: () => ({}),
    }),
  ];
}

function rowsAt(path: string): RestRoute<any, any>[] {
  return OPERATIONS.map((o) =>
    route<Record<string, unknown>, unknown>({
      family: 'aws',
      method: 'POST',
      path,
      operation: `${WORKFLOW_TARGET_PREFIX}.${o.operation}`,
      operationId: path === '/' ? `${o.operation}AtRoot` : o.operation,
      summary: o.summary,
      tags: ['workflow'],
      requestBody: o.body as unknown as Record<string, unknown>,
      input: (req) => decodeBody(req.body, o.body),
      handle: (ctx, body) => o.handle(ctx, body),
      present: (result, ctx, _req, body) => ({ body: o.present(result, ctx, body) }),
    }),
  );
}

export const WORKFLOW_ROUTES: RestRoute<any, any>[] = WORKFLOW_PATHS.flatMap(rowsAt);
