/**
 * GraphQL types of workflow activities and waiting tasks (activities.service.ts). Task tokens are never fields: a
 * token only reaches the worker that takes the task (GetActivityTask) or the callback's own task.
 */
import { IsOptional, MaxLength, MinLength } from 'class-validator';
import { Field, InputType, Int, ObjectType, registerEnumType } from 'type-graphql';
import { WORKFLOW_TASK_KINDS, WORKFLOW_TASK_STATUSES } from '../../entities/workflow';
import type { WorkflowTaskKind, WorkflowTaskStatus } from '../../entities/workflow';
import { enumFrom } from '../common/enum';

export const WorkflowTaskKindEnum = enumFrom(WORKFLOW_TASK_KINDS);
export type WorkflowTaskKindEnum = WorkflowTaskKind;
registerEnumType(WorkflowTaskKindEnum, { name: 'WorkflowTaskKind', description: 'activity: for a worker (GetActivityTask); callback: a .waitForTaskToken task.' });

export const WorkflowTaskStatusEnum = enumFrom(WORKFLOW_TASK_STATUSES);
export type WorkflowTaskStatusEnum = WorkflowTaskStatus;
registerEnumType(WorkflowTaskStatusEnum, { name: 'WorkflowTaskStatus', description: 'SCHEDULED (no worker yet), STARTED (taken or submitted), or how it ended.' });

@ObjectType('WorkflowActivity', { simpleResolvers: true, description: 'A workflow activity (Step Functions activity): work a Task state hands to workers.' })
export class WorkflowActivity {
  @Field(() => Int, { description: 'The numeric id of the row.' }) id: number;
  @Field({ description: 'arn:aws:states:<region>:<account>:activity:<name>' }) arn: string;
  @Field() name: string;
  @Field() createdAt: Date;
}

@ObjectType('WorkflowActivityList', { simpleResolvers: true })
export class WorkflowActivityList {
  @Field(() => [WorkflowActivity]) items: unknown[];
  @Field(() => String, { nullable: true, description: 'Pass as `nextToken` for the next page; null on the last.' }) nextToken: string | null;
}

@ObjectType('WorkflowTask', { simpleResolvers: true, description: 'A task of a job waiting for a worker or a callback answer.' })
export class WorkflowTask {
  @Field(() => WorkflowTaskKindEnum) kind: WorkflowTaskKind;
  @Field(() => WorkflowTaskStatusEnum) status: WorkflowTaskStatus;
  @Field({ description: 'The Task state.' }) stateName: string;
  @Field({ description: 'The activity ARN or the callback resource.' }) resource: string;
  @Field({ description: 'The task input (JSON text).' }) input: string;
  @Field(() => String, { nullable: true }) workerName: string | null;
  @Field() scheduledAt: Date;
  @Field(() => Date, { nullable: true }) startedAt: Date | null;
  @Field(() => Date, { nullable: true, description: 'A heartbeat or an answer must come before this.' }) heartbeatUntil: Date | null;
  @Field(() => Date, { nullable: true, description: 'The task times out at this time.' }) timeoutAt: Date | null;
}

@InputType('CreateWorkflowActivityInput')
export class CreateWorkflowActivityInput {
  @Field({ description: '1-80 characters (AWS name rules); creating an existing name returns it.' }) @MinLength(1) @MaxLength(80) name: string;
}

@InputType('DeleteWorkflowActivityInput')
export class DeleteWorkflowActivityInput {
  @Field() @MinLength(1) @MaxLength(256) arn: string;
}

@InputType('SendTaskSuccessInput')
export class SendTaskSuccessInput {
  @Field() @MinLength(1) @MaxLength(2048) taskToken: string;
  @Field({ description: 'The task output: JSON text of at most 256 KiB.' }) @MaxLength(262_144) output: string;
}

@InputType('SendTaskFailureInput')
export class SendTaskFailureInput {
  @Field() @MinLength(1) @MaxLength(2048) taskToken: string;
  @Field(() => String, { nullable: true }) @IsOptional() @MaxLength(256) error?: string | null;
  @Field(() => String, { nullable: true }) @IsOptional() @MaxLength(32_768) cause?: string | null;
}

@ObjectType('WorkflowActivityPayload', { simpleResolvers: true })
export class WorkflowActivityPayload {
  @Field(() => WorkflowActivity) activity: unknown;
}

@ObjectType('DeleteWorkflowActivityPayload', { simpleResolvers: true })
export class DeleteWorkflowActivityPayload {
  @Field() arn: string;
}

@ObjectType('SendTaskPayload', { simpleResolvers: true })
export class SendTaskPayload {
  @Field({ description: 'true: the task took the answer (its job goes on).' }) accepted: boolean;
}
