/**
 * How the AWS JSON family answers the workflow domain's codes: the Step Functions error of the same meaning
 * (`__type`), 400 as Step Functions answers them (ConflictException 409 and ServiceQuotaExceededException 402 as
 * its model documents). Request signing codes answer as every AWS JSON service does.
 */
import { WORKFLOW_CODES } from '../../services/workflow/error-codes';

export const WORKFLOW_AWS_ERRORS: Record<string, [string, number]> = {
  [WORKFLOW_CODES.INVALID_ARN]: ['InvalidArn', 400],
  [WORKFLOW_CODES.INVALID_NAME]: ['InvalidName', 400],
  [WORKFLOW_CODES.INVALID_DEFINITION]: ['InvalidDefinition', 400],
  [WORKFLOW_CODES.INVALID_LOGGING_CONFIGURATION]: ['InvalidLoggingConfiguration', 400],
  [WORKFLOW_CODES.INVALID_EXECUTION_INPUT]: ['InvalidExecutionInput', 400],
  [WORKFLOW_CODES.INVALID_TOKEN]: ['InvalidToken', 400],
  [WORKFLOW_CODES.STATE_MACHINE_ALREADY_EXISTS]: ['StateMachineAlreadyExists', 400],
  [WORKFLOW_CODES.STATE_MACHINE_DOES_NOT_EXIST]: ['StateMachineDoesNotExist', 400],
  [WORKFLOW_CODES.STATE_MACHINE_DELETING]: ['StateMachineDeleting', 400],
  [WORKFLOW_CODES.STATE_MACHINE_TYPE_NOT_SUPPORTED]: ['StateMachineTypeNotSupported', 400],
  [WORKFLOW_CODES.EXECUTION_ALREADY_EXISTS]: ['ExecutionAlreadyExists', 400],
  [WORKFLOW_CODES.EXECUTION_DOES_NOT_EXIST]: ['ExecutionDoesNotExist', 400],
  [WORKFLOW_CODES.EXECUTION_NOT_RUNNING]: ['ValidationException', 400],
  [WORKFLOW_CODES.ACTIVITY_DOES_NOT_EXIST]: ['ActivityDoesNotExist', 400],
  [WORKFLOW_CODES.ACTIVITY_LIMIT_EXCEEDED]: ['ActivityLimitExceeded', 400],
  [WORKFLOW_CODES.ACTIVITY_WORKER_LIMIT_EXCEEDED]: ['ActivityWorkerLimitExceeded', 400],
  [WORKFLOW_CODES.INVALID_TASK_TOKEN]: ['InvalidToken', 400],
  [WORKFLOW_CODES.TASK_DOES_NOT_EXIST]: ['TaskDoesNotExist', 400],
  [WORKFLOW_CODES.TASK_TIMED_OUT]: ['TaskTimedOut', 400],
  [WORKFLOW_CODES.INVALID_OUTPUT]: ['InvalidOutput', 400],
  [WORKFLOW_CODES.EXECUTION_NOT_REDRIVABLE]: ['ExecutionNotRedrivable', 400],
  [WORKFLOW_CODES.EXECUTION_LIMIT_EXCEEDED]: ['ExecutionLimitExceeded', 400],
  [WORKFLOW_CODES.MAP_RUN_NOT_FOUND]: ['ResourceNotFound', 400],
  // The two the model documents with their own status.
  [WORKFLOW_CODES.CONFLICT]: ['ConflictException', 409],
  [WORKFLOW_CODES.SERVICE_QUOTA_EXCEEDED]: ['ServiceQuotaExceededException', 402],
  [WORKFLOW_CODES.RESOURCE_NOT_FOUND]: ['ResourceNotFound', 400],
  [WORKFLOW_CODES.TOO_MANY_TAGS]: ['TooManyTags', 400],
  [WORKFLOW_CODES.INVALID_ROUTING_CONFIGURATION]: ['ValidationException', 400],
  [WORKFLOW_CODES.MISSING_AUTHENTICATION_TOKEN]: ['MissingAuthenticationTokenException', 400],
  [WORKFLOW_CODES.INCOMPLETE_SIGNATURE]: ['IncompleteSignatureException', 400],
  [WORKFLOW_CODES.INVALID_SIGNATURE]: ['InvalidSignatureException', 400],
  [WORKFLOW_CODES.UNRECOGNIZED_CLIENT]: ['UnrecognizedClientException', 400],
};
