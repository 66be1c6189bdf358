/**
 * GraphQL types of the workflow service (issue 9): WorkflowDefinition and WorkflowJob (Node types with opaque
 * global ids), the job history events, the list filter and the mutation inputs/payloads. Inputs are only bounded
 * here (class-validator, the wire protocol's member limits); names, ARNs, definitions and JSON inputs are checked
 * by the workflow services, the same for both transports.
 */
import { ArrayMaxSize, ArrayMinSize, IsOptional, Max, MaxLength, Min, MinLength, ValidateNested } from 'class-validator';
import { GraphQLJSONObject } from 'graphql-scalars';
import { Field, Float, ID, InputType, Int, ObjectType, registerEnumType } from 'type-graphql';
import { WORKFLOW_DEFINITION_STATUSES, WORKFLOW_JOB_STATUSES, WORKFLOW_MAP_RUN_STATUSES } from '../../entities/workflow';
import type { WorkflowDefinitionStatus, WorkflowJobStatus, WorkflowMapRunStatus } from '../../entities/workflow';
import { MAX_TAG_KEY, MAX_TAG_VALUE, MAX_TAGS } from '../../src/services/workflow/tags.service';
import { MAX_DESCRIPTION } from '../../src/services/workflow/versions.service';
import { WORKFLOW_TYPES } from '../../src/services/workflow/definitions.service';
import type { WorkflowType } from '../../src/services/workflow/definitions.service';
import { enumFrom } from '../common/enum';
import { Node } from '../common/node';

/** The wire protocol's limits (src/rest/aws/workflow.routes.ts), so both transports refuse the same sizes. */
const ARN_MAX = 256;
const NAME_MAX = 80;
const DEFINITION_MAX = 1_048_576;
/** StartExecution's input: 256 KiB of UTF-8 at most (the service counts bytes; this bounds characters). */
const INPUT_MAX = 262_144;
const ERROR_MAX = 256;
const CAUSE_MAX = 32_768;

// ------------------------------------------------------------------ enums

export const WorkflowJobStatusEnum = enumFrom(WORKFLOW_JOB_STATUSES);
export type WorkflowJobStatusEnum = WorkflowJobStatus;
registerEnumType(WorkflowJobStatusEnum, { name: 'WorkflowJobStatus', description: 'The status of a workflow job (a Step Functions execution status).' });

export const WorkflowDefinitionStatusEnum = enumFrom(WORKFLOW_DEFINITION_STATUSES);
export type WorkflowDefinitionStatusEnum = WorkflowDefinitionStatus;
registerEnumType(WorkflowDefinitionStatusEnum, {
  name: 'WorkflowDefinitionStatus',
  description: 'ACTIVE, or DELETING: deleted while jobs of it run (no new jobs; it goes when the last one ends).',
});

export const WorkflowTypeEnum = enumFrom(WORKFLOW_TYPES);
export type WorkflowTypeEnum = WorkflowType;
registerEnumType(WorkflowTypeEnum, {
  name: 'WorkflowType',
  description: 'STANDARD: jobs that are stored with their history (up to a year); EXPRESS: executions of at most five minutes that keep no record (started over the Step Functions API: StartExecution, StartSyncExecution).',
});

export const WorkflowMapRunStatusEnum = enumFrom(WORKFLOW_MAP_RUN_STATUSES);
export type WorkflowMapRunStatusEnum = WorkflowMapRunStatus;
registerEnumType(WorkflowMapRunStatusEnum, { name: 'WorkflowMapRunStatus', description: 'The status of a Map Run (a Distributed Map\'s child jobs).' });

// ------------------------------------------------------------------ objects

@ObjectType('WorkflowDefinition', {
  simpleResolvers: true,
  implements: [Node],
  description: 'A workflow definition (a Step Functions state machine): an Amazon States Language document under a unique name, shared by every workflow user.',
})
export class WorkflowDefinition {
  @Field(() => ID) id: string;
  @Field(() => Int, { description: 'The numeric id of the row.' }) databaseId: number;
  @Field({ description: 'arn:aws:states:<region>:<account>:stateMachine:<name> (what the wire protocol calls stateMachineArn).' }) arn: string;
  @Field() name: string;
  @Field(() => WorkflowDefinitionStatusEnum) status: WorkflowDefinitionStatus;
  @Field({ description: 'The Amazon States Language document (JSON text), as it was written.' }) definition: string;
  @Field({ description: 'The IAM role ARN given with the definition.' }) roleArn: string;
  @Field(() => WorkflowTypeEnum) type: WorkflowType;
  @Field() createdAt: Date;
  @Field() updatedAt: Date;
  @Field({ description: 'Changes with every update of the definition or role.' }) revisionId: string;
}

@ObjectType('WorkflowJob', { simpleResolvers: true, implements: [Node], description: 'A job of a workflow definition (a Step Functions execution). Visible to the user who started it and to site admins.' })
export class WorkflowJob {
  @Field(() => ID) id: string;
  @Field(() => Int, { description: 'The numeric id of the row.' }) databaseId: number;
  @Field({ description: 'arn:aws:states:<region>:<account>:execution:<definition name>:<job name> (the executionArn).' }) arn: string;
  @Field({ description: 'Unique among the jobs of its definition.' }) name: string;
  @Field(() => WorkflowJobStatusEnum) status: WorkflowJobStatus;
  @Field({ description: 'The input (JSON text).' }) input: string;
  @Field(() => String, { nullable: true, description: 'The output (JSON text) of a job that succeeded.' }) output: string | null;
  @Field(() => String, { nullable: true, description: 'The error name of a job that failed, timed out or was stopped with one.' }) error: string | null;
  @Field(() => String, { nullable: true, description: 'The cause that came with the error.' }) cause: string | null;
  @Field(() => String, { nullable: true, description: 'The trace header given at start.' }) traceHeader: string | null;
  @Field(() => String, { nullable: true, description: 'The state the job is in (null before its first step and after it ended).' }) currentState: string | null;
}

@ObjectType('WorkflowDefinitionVersion', {
  simpleResolvers: true,
  description: 'A published version of a definition (a state machine version): an immutable snapshot of its text and role. Jobs start from it by its ARN, directly or through an alias.',
})
export class WorkflowDefinitionVersion {
  @Field({ description: '<definition ARN>:<number> (stateMachineVersionArn).' }) arn: string;
  @Field(() => Int, { description: 'Numbered 1, 2, … per definition; a number is never given twice.' }) number: number;
  @Field(() => String, { nullable: true }) description: string | null;
  @Field({ description: 'The definition text of the version.' }) definition: string;
  @Field() roleArn: string;
  @Field({ description: 'The revision of the definition the version snapshots.' }) revisionId: string;
  @Field() createdAt: Date;
}

@ObjectType('WorkflowAliasRoute', { description: 'One entry of an alias\'s routing: a version and the percentage of starts it gets.' })
export class WorkflowAliasRoute {
  @Field({ description: 'The version\'s ARN (stateMachineVersionArn).' }) versionArn: string;
  @Field(() => Int, { description: '0-100; the routes of an alias add up to 100.' }) weight: number;
}

@ObjectType('WorkflowDefinitionAlias', { simpleResolvers: true, description: 'An alias of a definition: a name that routes job starts to one or two of its versions by weight.' })
export class WorkflowDefinitionAlias {
  @Field({ description: '<definition ARN>:<alias name> (stateMachineAliasArn).' }) arn: string;
  @Field() name: string;
  @Field(() => String, { nullable: true }) description: string | null;
  @Field() createdAt: Date;
  @Field() updatedAt: Date;
}

@ObjectType('WorkflowTag', { simpleResolvers: true, description: 'A tag of a workflow resource.' })
export class WorkflowTag {
  @Field() key: string;
  @Field() value: string;
}

@ObjectType('WorkflowMapRunCounts', { simpleResolvers: true, description: 'Items or child jobs of a Map Run by state (DescribeMapRun\'s itemCounts / executionCounts).' })
export class WorkflowMapRunCounts {
  @Field(() => Int, { description: 'Not started yet.' }) pending: number;
  @Field(() => Int) running: number;
  @Field(() => Int) succeeded: number;
  @Field(() => Int) failed: number;
  @Field(() => Int) timedOut: number;
  @Field(() => Int) aborted: number;
  @Field(() => Int) total: number;
  @Field(() => Int, { description: 'Written by a ResultWriter (none here: 0).' }) resultsWritten: number;
  @Field(() => Int) failuresNotRedrivable: number;
  @Field(() => Int) pendingRedrive: number;
}

@ObjectType('WorkflowMapRun', { simpleResolvers: true, description: 'A Map Run: the child jobs a Distributed Map state of a job started. Visible with its job.' })
export class WorkflowMapRun {
  @Field({ description: 'arn:aws:states:<region>:<account>:mapRun:<definition name>/<label>:<id> (mapRunArn).' }) arn: string;
  @Field(() => WorkflowMapRunStatusEnum) status: WorkflowMapRunStatus;
  @Field(() => Int, { description: 'Child jobs run at most at once (0: no limit of its own). UpdateMapRun changes it while the run goes on.' }) maxConcurrency: number;
  @Field(() => Float, { description: 'Failed items tolerated, in percent of all items.' }) toleratedFailurePercentage: number;
  @Field(() => Int, { description: 'Failed items tolerated.' }) toleratedFailureCount: number;
  @Field(() => String, { nullable: true, description: 'The error a failed run ended with.' }) error: string | null;
  @Field(() => String, { nullable: true }) cause: string | null;
  @Field(() => Int, { description: 'Times the run was redriven (by redriving its job); 0 until then.' }) redriveCount: number;
}

@ObjectType('WorkflowJobEvent', { simpleResolvers: true, description: 'One event of a job history (GetExecutionHistory), ids counted from 1 per job.' })
export class WorkflowJobEvent {
  @Field(() => Int) id: number;
  @Field(() => Int, { description: 'The event this one follows (0: none).' }) previousEventId: number;
  @Field({ description: 'The Step Functions event type, e.g. ExecutionStarted, ExecutionAborted.' }) type: string;
  @Field() timestamp: Date;
  @Field(() => GraphQLJSONObject, {
    description: 'The event details as the wire protocol names them, e.g. { executionStartedEventDetails: { input, inputDetails, roleArn } }.',
  })
  details: Record<string, unknown>;
}

// ------------------------------------------------------------------ list filters

@InputType('WorkflowJobFilter', { description: 'Filters of `workflowJobs`; all optional.' })
export class WorkflowJobFilter {
  @Field(() => WorkflowJobStatusEnum, { nullable: true }) @IsOptional() status?: WorkflowJobStatus | null;

  @Field(() => String, { nullable: true, description: 'Only jobs of the definition with this ARN.' })
  @IsOptional()
  @MaxLength(ARN_MAX)
  definition?: string | null;
}

@InputType('WorkflowDefinitionJobFilter', { description: 'Filters of a definition\'s `jobs`.' })
export class WorkflowDefinitionJobFilter {
  @Field(() => WorkflowJobStatusEnum, { nullable: true }) @IsOptional() status?: WorkflowJobStatus | null;
}

// ------------------------------------------------------------------ mutations

@InputType('CreateWorkflowDefinitionInput')
export class CreateWorkflowDefinitionInput {
  @Field({ description: '1-80 characters; no whitespace, brackets, wildcards or special characters (AWS rules).' })
  @MinLength(1)
  @MaxLength(NAME_MAX)
  name: string;

  @Field({ description: 'The Amazon States Language document (JSON text); checked, InvalidDefinition when not valid.' })
  @MinLength(1)
  @MaxLength(DEFINITION_MAX)
  definition: string;

  @Field({ description: 'An IAM role ARN: arn:aws:iam::<account>:role/<name>.' })
  @MinLength(1)
  @MaxLength(ARN_MAX)
  roleArn: string;

  @Field(() => WorkflowTypeEnum, { nullable: true, description: 'STANDARD (the default) or EXPRESS.' }) @IsOptional() type?: WorkflowType | null;
}

@InputType('UpdateWorkflowDefinitionInput', { description: 'At least one of definition and roleArn. Running jobs keep the text they started with.' })
export class UpdateWorkflowDefinitionInput {
  @Field() @MinLength(1) @MaxLength(ARN_MAX) arn: string;
  @Field(() => String, { nullable: true }) @IsOptional() @MinLength(1) @MaxLength(DEFINITION_MAX) definition?: string | null;
  @Field(() => String, { nullable: true }) @IsOptional() @MinLength(1) @MaxLength(ARN_MAX) roleArn?: string | null;
}

@InputType('DeleteWorkflowDefinitionInput')
export class DeleteWorkflowDefinitionInput {
  @Field() @MinLength(1) @MaxLength(ARN_MAX) arn: string;
}

@InputType('StartWorkflowJobInput')
export class StartWorkflowJobInput {
  @Field({ description: 'The ARN of the definition to run.' }) @MinLength(1) @MaxLength(ARN_MAX) definitionArn: string;

  @Field(() => String, {
    nullable: true,
    description: 'The job name (default: a UUID). The same name with the same input while that job runs returns it; otherwise a used name is a CONFLICT.',
  })
  @IsOptional()
  @MinLength(1)
  @MaxLength(NAME_MAX)
  name?: string | null;

  @Field(() => String, { nullable: true, description: 'The input: JSON text of at most 256 KiB (default "{}").' })
  @IsOptional()
  @MaxLength(INPUT_MAX)
  input?: string | null;

  @Field(() => String, { nullable: true }) @IsOptional() @MaxLength(256) traceHeader?: string | null;
}

@InputType('StopWorkflowJobInput')
export class StopWorkflowJobInput {
  @Field({ description: 'The ARN of the running job.' }) @MinLength(1) @MaxLength(ARN_MAX) arn: string;
  @Field(() => String, { nullable: true }) @IsOptional() @MaxLength(ERROR_MAX) error?: string | null;
  @Field(() => String, { nullable: true }) @IsOptional() @MaxLength(CAUSE_MAX) cause?: string | null;
}

@ObjectType('CreateWorkflowDefinitionPayload', { simpleResolvers: true })
export class CreateWorkflowDefinitionPayload {
  @Field(() => WorkflowDefinition, { description: 'The new definition, or the existing one when it was the same.' }) definition: unknown;
}

@ObjectType('UpdateWorkflowDefinitionPayload', { simpleResolvers: true })
export class UpdateWorkflowDefinitionPayload {
  @Field(() => WorkflowDefinition) definition: unknown;
}

@ObjectType('DeleteWorkflowDefinitionPayload', { simpleResolvers: true })
export class DeleteWorkflowDefinitionPayload {
  @Field({ description: 'The ARN asked for (deleting what does not exist succeeds, as in Step Functions).' }) arn: string;
  @Field(() => WorkflowDefinition, { nullable: true, description: 'The definition when it stays DELETING until its running jobs end; null when it is gone.' })
  definition: unknown;
}

@ObjectType('StartWorkflowJobPayload', { simpleResolvers: true })
export class StartWorkflowJobPayload {
  @Field(() => WorkflowJob) job: unknown;
  @Field({ description: 'false when a running job of that name and input was returned (idempotent start).' }) created: boolean;
}

@ObjectType('StopWorkflowJobPayload', { simpleResolvers: true })
export class StopWorkflowJobPayload {
  @Field(() => WorkflowJob) job: unknown;
}

@InputType('WorkflowAliasRouteInput')
export class WorkflowAliasRouteInput {
  @Field({ description: 'A version ARN of the alias\'s definition.' }) @MinLength(1) @MaxLength(ARN_MAX) versionArn: string;
  @Field(() => Int, { description: '0-100; the weights add up to 100.' }) @Min(0) @Max(100) weight: number;
}

@InputType('WorkflowTagInput')
export class WorkflowTagInput {
  @Field() @MinLength(1) @MaxLength(MAX_TAG_KEY) key: string;
  @Field(() => String, { nullable: true, description: 'Default "".' }) @IsOptional() @MaxLength(MAX_TAG_VALUE) value?: string | null;
}

@InputType('PublishWorkflowDefinitionVersionInput')
export class PublishWorkflowDefinitionVersionInput {
  @Field({ description: 'The definition\'s (unqualified) ARN.' }) @MinLength(1) @MaxLength(ARN_MAX) arn: string;
  @Field(() => String, { nullable: true, description: 'Publish only if this is still the current revision (INITIAL: never updated); else a CONFLICT.' })
  @IsOptional()
  @MaxLength(64)
  revisionId?: string | null;
  @Field(() => String, { nullable: true }) @IsOptional() @MaxLength(MAX_DESCRIPTION) description?: string | null;
}

@InputType('DeleteWorkflowDefinitionVersionInput')
export class DeleteWorkflowDefinitionVersionInput {
  @Field({ description: 'The version ARN (one an alias routes to cannot be deleted: CONFLICT).' }) @MinLength(1) @MaxLength(ARN_MAX) arn: string;
}

@InputType('CreateWorkflowDefinitionAliasInput')
export class CreateWorkflowDefinitionAliasInput {
  @Field({ description: '1-80 letters, digits, _ - or . with at least one non-digit.' }) @MinLength(1) @MaxLength(NAME_MAX) name: string;
  @Field(() => String, { nullable: true }) @IsOptional() @MaxLength(MAX_DESCRIPTION) description?: string | null;
  @Field(() => [WorkflowAliasRouteInput], { description: 'One or two versions of one definition, weights adding up to 100.' })
  @ArrayMinSize(1)
  @ArrayMaxSize(2)
  @ValidateNested()
  routing: WorkflowAliasRouteInput[];
}

@InputType('UpdateWorkflowDefinitionAliasInput', { description: 'At least one of description and routing.' })
export class UpdateWorkflowDefinitionAliasInput {
  @Field({ description: 'The alias ARN.' }) @MinLength(1) @MaxLength(ARN_MAX) arn: string;
  @Field(() => String, { nullable: true }) @IsOptional() @MaxLength(MAX_DESCRIPTION) description?: string | null;
  @Field(() => [WorkflowAliasRouteInput], { nullable: true })
  @IsOptional()
  @ArrayMinSize(1)
  @ArrayMaxSize(2)
  @ValidateNested()
  routing?: WorkflowAliasRouteInput[] | null;
}

@InputType('DeleteWorkflowDefinitionAliasInput')
export class DeleteWorkflowDefinitionAliasInput {
  @Field({ description: 'The alias ARN (its versions stay).' }) @MinLength(1) @MaxLength(ARN_MAX) arn: string;
}

@InputType('TagWorkflowDefinitionInput')
export class TagWorkflowDefinitionInput {
  @Field({ description: 'The definition\'s (unqualified) ARN.' }) @MinLength(1) @MaxLength(ARN_MAX) arn: string;
  @Field(() => [WorkflowTagInput], { description: `Added, or given the new value; at most ${MAX_TAGS} per definition in all.` })
  @ArrayMaxSize(MAX_TAGS)
  @ValidateNested()
  tags: WorkflowTagInput[];
}

@InputType('UntagWorkflowDefinitionInput')
export class UntagWorkflowDefinitionInput {
  @Field() @MinLength(1) @MaxLength(ARN_MAX) arn: string;
  @Field(() => [String], { description: 'The keys of the tags to remove (absent keys are ignored).' })
  @ArrayMaxSize(MAX_TAGS)
  @MaxLength(MAX_TAG_KEY, { each: true })
  keys: string[];
}

@ObjectType('PublishWorkflowDefinitionVersionPayload', { simpleResolvers: true })
export class PublishWorkflowDefinitionVersionPayload {
  @Field(() => WorkflowDefinitionVersion, { description: 'The new version, or the one that already holds the current revision.' }) version: unknown;
}

@ObjectType('DeleteWorkflowDefinitionVersionPayload', { simpleResolvers: true })
export class DeleteWorkflowDefinitionVersionPayload {
  @Field({ description: 'The ARN asked for (deleting what does not exist succeeds, as in Step Functions).' }) arn: string;
}

@ObjectType('CreateWorkflowDefinitionAliasPayload', { simpleResolvers: true })
export class CreateWorkflowDefinitionAliasPayload {
  @Field(() => WorkflowDefinitionAlias, { description: 'The new alias, or the existing one when it was the same.' }) alias: unknown;
}

@ObjectType('UpdateWorkflowDefinitionAliasPayload', { simpleResolvers: true })
export class UpdateWorkflowDefinitionAliasPayload {
  @Field(() => WorkflowDefinitionAlias) alias: unknown;
}

@ObjectType('DeleteWorkflowDefinitionAliasPayload', { simpleResolvers: true })
export class DeleteWorkflowDefinitionAliasPayload {
  @Field() arn: string;
}

@ObjectType('TagWorkflowDefinitionPayload', { simpleResolvers: true })
export class TagWorkflowDefinitionPayload {
  @Field(() => WorkflowDefinition) definition: unknown;
}

@ObjectType('UntagWorkflowDefinitionPayload', { simpleResolvers: true })
export class UntagWorkflowDefinitionPayload {
  @Field(() => WorkflowDefinition) definition: unknown;
}
