/**
 * GraphQL types of ValidateStateMachineDefinition and TestState (issue 23 §3): a playground user checks a definition
 * or tries one state without starting a job. JSON values are JSON text, as on the wire protocol and in WorkflowJob.
 * Inputs are only bounded here (the wire protocol's member limits); the workflow services check the rest.
 */
import { IsOptional, MaxLength, MinLength, Max, Min } from 'class-validator';
import { ArgsType, Field, InputType, Int, ObjectType, registerEnumType } from 'type-graphql';
import { INSPECTION_LEVELS, MOCK_VALIDATION_MODES } from '../../src/services/workflow/test-state.service';
import { enumFrom } from '../common/enum';

const DEFINITION_MAX = 1_048_576;
const DATA_MAX = 262_144;

export const WorkflowDiagnosticSeverityEnum = enumFrom(['ERROR', 'WARNING'] as const);
registerEnumType(WorkflowDiagnosticSeverityEnum, { name: 'WorkflowDiagnosticSeverity', description: 'ERROR makes a definition invalid; WARNING does not.' });
export const WorkflowValidationResultEnum = enumFrom(['OK', 'FAIL'] as const);
registerEnumType(WorkflowValidationResultEnum, { name: 'WorkflowValidationResult', description: 'OK: the definition may be created (it may have warnings); FAIL: it has errors.' });
export const WorkflowInspectionLevelEnum = enumFrom(INSPECTION_LEVELS);
registerEnumType(WorkflowInspectionLevelEnum, {
  name: 'WorkflowInspectionLevel',
  description: "INFO: the outcome; DEBUG: also the data after each processing step; TRACE: also an HTTP task's request and response.",
});
export const WorkflowMockValidationModeEnum = enumFrom(MOCK_VALIDATION_MODES);
registerEnumType(WorkflowMockValidationModeEnum, { name: 'WorkflowMockValidationMode', description: "Step Functions' fieldValidationMode of a mock (the gateway's tasks have no response models: all accept any JSON)." });
export const WorkflowStateTestStatusEnum = enumFrom(['SUCCEEDED', 'FAILED', 'RETRIABLE', 'CAUGHT_ERROR'] as const);
registerEnumType(WorkflowStateTestStatusEnum, {
  name: 'WorkflowStateTestStatus',
  description: 'SUCCEEDED (nextState: where it goes), FAILED (error, cause), RETRIABLE (a Retry would run it again), CAUGHT_ERROR (a Catch took the error: nextState).',
});

@ArgsType()
export class ValidateWorkflowDefinitionArgs {
  @Field({ description: 'The definition (Amazon States Language, JSON text).' })
  @MinLength(1)
  @MaxLength(DEFINITION_MAX)
  definition: string;

  @Field(() => WorkflowDiagnosticSeverityEnum, { nullable: true, description: 'The least severity shown (default ERROR: warnings are left out).' })
  @IsOptional()
  severity?: 'ERROR' | 'WARNING' | null;

  @Field(() => Int, { nullable: true, description: 'At most this many diagnostics (1-100; default 100).' })
  @IsOptional()
  @Min(0)
  @Max(100)
  maxResults?: number | null;
}

@ObjectType('WorkflowDefinitionDiagnostic', { description: "One problem of a definition, in Step Functions' terms." })
export class WorkflowDefinitionDiagnostic {
  @Field(() => WorkflowDiagnosticSeverityEnum) severity: 'ERROR' | 'WARNING';
  @Field({ description: 'e.g. SCHEMA_VALIDATION_FAILED, MISSING_TRANSITION_TARGET, INVALID_JSONATA_EXPRESSION, NO_DOLLAR' }) code: string;
  @Field() message: string;
  @Field(() => String, { nullable: true, description: 'Where in the definition, e.g. /States/A/Parameters.' }) location?: string;
}

@ObjectType('WorkflowDefinitionValidation')
export class WorkflowDefinitionValidation {
  @Field(() => WorkflowValidationResultEnum) result: 'OK' | 'FAIL';
  @Field(() => [WorkflowDefinitionDiagnostic]) diagnostics: WorkflowDefinitionDiagnostic[];
  @Field({ description: 'More diagnostics than maxResults were found.' }) truncated: boolean;
}

@InputType('WorkflowStateMockInput', { description: 'The outcome that replaces a Task call or a Map/Parallel state\'s branches: result, or error and cause.' })
export class WorkflowStateMockInput {
  @Field(() => String, { nullable: true, description: 'The mocked result (JSON text).' })
  @IsOptional()
  @MaxLength(DATA_MAX)
  result?: string | null;

  @Field(() => String, { nullable: true, description: 'A mocked error (instead of result).' })
  @IsOptional()
  @MaxLength(256)
  error?: string | null;

  @Field(() => String, { nullable: true })
  @IsOptional()
  @MaxLength(32_768)
  cause?: string | null;

  @Field(() => WorkflowMockValidationModeEnum, { nullable: true })
  @IsOptional()
  fieldValidationMode?: 'STRICT' | 'PRESENT' | 'NONE' | null;
}

@InputType('TestWorkflowStateInput')
export class TestWorkflowStateInput {
  @Field({ description: 'One state (JSON text), or with stateName a whole definition.' })
  @MinLength(1)
  @MaxLength(DEFINITION_MAX)
  definition: string;

  @Field(() => String, { nullable: true, description: 'The state of a whole definition to run.' })
  @IsOptional()
  @MinLength(1)
  @MaxLength(80)
  stateName?: string | null;

  @Field(() => String, { nullable: true, description: 'The state input (JSON text; default "{}").' })
  @IsOptional()
  @MaxLength(DATA_MAX)
  input?: string | null;

  @Field(() => String, { nullable: true, description: 'Variables the state reads (a JSON object text: name -> value).' })
  @IsOptional()
  @MaxLength(DATA_MAX)
  variables?: string | null;

  @Field(() => WorkflowInspectionLevelEnum, { nullable: true, description: 'Default INFO.' })
  @IsOptional()
  inspectionLevel?: 'INFO' | 'DEBUG' | 'TRACE' | null;

  @Field(() => Boolean, { nullable: true, description: "TRACE: show the HTTP connection's credential (site admins only)." })
  @IsOptional()
  revealSecrets?: boolean | null;

  @Field(() => String, { nullable: true, description: 'The role ARN the context object shows.' })
  @IsOptional()
  @MaxLength(256)
  roleArn?: string | null;

  @Field(() => WorkflowStateMockInput, { nullable: true, description: 'Task, Map and Parallel states only; activities, callbacks, Map and Parallel need one.' })
  @IsOptional()
  mock?: WorkflowStateMockInput | null;

  @Field(() => String, { nullable: true, description: 'The context object (JSON object text); only with a mock.' })
  @IsOptional()
  @MaxLength(DATA_MAX)
  context?: string | null;

  @Field(() => Int, { nullable: true, description: 'Retries that already ran for the retrier that takes the mocked error.' })
  @IsOptional()
  @Min(0)
  retrierRetryCount?: number | null;
}

@ObjectType('WorkflowStateErrorDetails', { description: 'What handled the state\'s error: a retrier (its index and backoff) or a catcher.' })
export class WorkflowStateErrorDetails {
  @Field(() => Int, { nullable: true }) catchIndex?: number;
  @Field(() => Int, { nullable: true }) retryIndex?: number;
  @Field(() => Int, { nullable: true }) retryBackoffIntervalSeconds?: number;
}

@ObjectType('WorkflowStateHttpRequest')
export class WorkflowStateHttpRequest {
  @Field() protocol: string;
  @Field() method: string;
  @Field() url: string;
  @Field({ description: 'JSON text of the headers sent (the connection\'s credential only with revealSecrets).' }) headers: string;
  @Field() body: string;
}

@ObjectType('WorkflowStateHttpResponse')
export class WorkflowStateHttpResponse {
  @Field() protocol: string;
  @Field() statusCode: string;
  @Field() statusMessage: string;
  @Field() headers: string;
  @Field() body: string;
}

@ObjectType('WorkflowStateInspection', { description: 'The data after each processing step (JSON text), DEBUG and TRACE.' })
export class WorkflowStateInspection {
  @Field(() => String, { nullable: true }) input?: string;
  @Field(() => String, { nullable: true }) afterInputPath?: string;
  @Field(() => String, { nullable: true }) afterParameters?: string;
  @Field(() => String, { nullable: true }) afterArguments?: string;
  @Field(() => String, { nullable: true }) result?: string;
  @Field(() => String, { nullable: true }) afterResultSelector?: string;
  @Field(() => String, { nullable: true }) afterResultPath?: string;
  @Field(() => String, { nullable: true, description: 'The variables after the state (given and assigned).' }) variables?: string;
  @Field(() => String, { nullable: true }) afterItemsPath?: string;
  @Field(() => String, { nullable: true }) afterItemSelector?: string;
  @Field(() => Int, { nullable: true }) maxConcurrency?: number;
  @Field(() => WorkflowStateErrorDetails, { nullable: true }) errorDetails?: WorkflowStateErrorDetails;
  @Field(() => WorkflowStateHttpRequest, { nullable: true }) request?: WorkflowStateHttpRequest;
  @Field(() => WorkflowStateHttpResponse, { nullable: true }) response?: WorkflowStateHttpResponse;
}

@ObjectType('WorkflowStateTest', { description: 'One state run by TestState: its outcome (nothing is stored).' })
export class WorkflowStateTest {
  @Field(() => WorkflowStateTestStatusEnum) status: 'SUCCEEDED' | 'FAILED' | 'RETRIABLE' | 'CAUGHT_ERROR';
  @Field(() => String, { nullable: true, description: 'The state output (JSON text).' }) output?: string;
  @Field(() => String, { nullable: true }) error?: string;
  @Field(() => String, { nullable: true }) cause?: string;
  @Field(() => String, { nullable: true, description: 'The state it moves to.' }) nextState?: string;
  @Field(() => WorkflowStateInspection, { nullable: true }) inspectionData?: WorkflowStateInspection;
}
