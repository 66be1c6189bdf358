/**
 * Domain codes of workflow errors (the `domainCode` of the AppErrors the workflow services throw). The AWS
 * family answers each with the Step Functions error of the same meaning (src/rest/aws/workflow.errors.ts);
 * GraphQL shows the category plus this code.
 */
export const WORKFLOW_CODES = {
  INVALID_ARN: 'INVALID_ARN',
  INVALID_NAME: 'INVALID_NAME',
  INVALID_DEFINITION: 'INVALID_DEFINITION',
  /** A loggingConfiguration Step Functions refuses (no destination for a level other than OFF, a malformed log group ARN). */
  INVALID_LOGGING_CONFIGURATION: 'INVALID_LOGGING_CONFIGURATION',
  INVALID_EXECUTION_INPUT: 'INVALID_EXECUTION_INPUT',
  /** A paging token this server did not issue for this operation and filter, or one older than 24 hours. */
  INVALID_TOKEN: 'INVALID_TOKEN',
  STATE_MACHINE_ALREADY_EXISTS: 'STATE_MACHINE_ALREADY_EXISTS',
  STATE_MACHINE_DOES_NOT_EXIST: 'STATE_MACHINE_DOES_NOT_EXIST',
  /** The definition is being deleted (jobs still run): no new jobs. */
  STATE_MACHINE_DELETING: 'STATE_MACHINE_DELETING',
  /** An operation the state machine's type has not: StartSyncExecution of a STANDARD one, ListExecutions or a job start over GraphQL of an EXPRESS one. */
  STATE_MACHINE_TYPE_NOT_SUPPORTED: 'STATE_MACHINE_TYPE_NOT_SUPPORTED',
  EXECUTION_ALREADY_EXISTS: 'EXECUTION_ALREADY_EXISTS',
  EXECUTION_DOES_NOT_EXIST: 'EXECUTION_DOES_NOT_EXIST',
  /** StopExecution of a job that has already ended. */
  EXECUTION_NOT_RUNNING: 'EXECUTION_NOT_RUNNING',
  ACTIVITY_DOES_NOT_EXIST: 'ACTIVITY_DOES_NOT_EXIST',
  ACTIVITY_LIMIT_EXCEEDED: 'ACTIVITY_LIMIT_EXCEEDED',
  /** Too many GetActivityTask polls waiting (per activity, or per credential). */
  ACTIVITY_WORKER_LIMIT_EXCEEDED: 'ACTIVITY_WORKER_LIMIT_EXCEEDED',
  /** A task token this gateway did not issue (malformed). */
  INVALID_TASK_TOKEN: 'INVALID_TASK_TOKEN',
  /** A well-formed task token that names no task. */
  TASK_DOES_NOT_EXIST: 'TASK_DOES_NOT_EXIST',
  /** The task of the token has ended (completed, timed out, stopped) or its deadline has passed. */
  TASK_TIMED_OUT: 'TASK_TIMED_OUT',
  INVALID_OUTPUT: 'INVALID_OUTPUT',
  EXECUTION_NOT_REDRIVABLE: 'EXECUTION_NOT_REDRIVABLE',
  EXECUTION_LIMIT_EXCEEDED: 'EXECUTION_LIMIT_EXCEEDED',
  /** A Map Run (or another resource named by ARN) that does not exist here. */
  MAP_RUN_NOT_FOUND: 'MAP_RUN_NOT_FOUND',
  /** HTTP task connections (EventBridge-shaped). */
  CONNECTION_DOES_NOT_EXIST: 'CONNECTION_DOES_NOT_EXIST',
  CONNECTION_ALREADY_EXISTS: 'CONNECTION_ALREADY_EXISTS',
  CONNECTION_INVALID_STATE: 'CONNECTION_INVALID_STATE',
  /** A write that conflicts with the resource's state (a stale revisionId, a version an alias routes to, an alias of that name with another configuration). */
  CONFLICT: 'CONFLICT',
  /** More versions (1000) or aliases (100) per definition than Step Functions allows. */
  SERVICE_QUOTA_EXCEEDED: 'SERVICE_QUOTA_EXCEEDED',
  /** A version or alias (or a tagged resource) that does not exist. */
  RESOURCE_NOT_FOUND: 'RESOURCE_NOT_FOUND',
  TOO_MANY_TAGS: 'TOO_MANY_TAGS',
  /** An alias's routing that is not one or two versions of one definition with weights adding up to 100. */
  INVALID_ROUTING_CONFIGURATION: 'INVALID_ROUTING_CONFIGURATION',
  /** Request signing (SigV4): no Authorization, a malformed one, a wrong signature, a stale date, a foreign scope. */
  MISSING_AUTHENTICATION_TOKEN: 'MISSING_AUTHENTICATION_TOKEN',
  INCOMPLETE_SIGNATURE: 'INCOMPLETE_SIGNATURE',
  INVALID_SIGNATURE: 'INVALID_SIGNATURE',
  UNRECOGNIZED_CLIENT: 'UNRECOGNIZED_CLIENT',
} as const;

export type WorkflowCode = (typeof WORKFLOW_CODES)[keyof typeof WORKFLOW_CODES];
