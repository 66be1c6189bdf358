/** Step Functions' list conventions (maxResults, pages) and the state machine "does not exist" error, shared by the workflow services. */
import { NotFoundError, quoteInput, ValidationError } from '../../errors/app-error';
import { WORKFLOW_CODES } from './error-codes';

export const DEFAULT_LIST_SIZE = 100;
export const MAX_LIST_SIZE = 1000;

export interface ListArgs {
  /** 1..1000; 0 or undefined = 100. */
  maxResults?: number;
  nextToken?: string;
}

export interface ListPage<T> {
  items: T[];
  nextToken?: string;
}

export function stateMachineDoesNotExist(arn: string): NotFoundError {
  return new NotFoundError(`State Machine Does Not Exist: ${quoteInput(arn)}`, { domainCode: WORKFLOW_CODES.STATE_MACHINE_DOES_NOT_EXIST });
}

/** maxResults as Step Functions reads it: 0 or absent = the default; above 1000 is refused. */
export function listSize(maxResults: number | undefined): number {
  if (maxResults === undefined || maxResults === 0) return DEFAULT_LIST_SIZE;
  if (!Number.isInteger(maxResults) || maxResults < 0 || maxResults > MAX_LIST_SIZE) {
    throw new ValidationError(
      `1 validation error detected: Value '${maxResults}' at 'maxResults' failed to satisfy constraint: Member must have value less than or equal to ${MAX_LIST_SIZE}`,
    );
  }
  return maxResults;
}

