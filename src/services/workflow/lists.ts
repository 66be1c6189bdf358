/** Step Functions' list conventions (maxResults, pages) and the state machine "does not exist" error, shared by the workflow services. */
import type { ObjectLiteral } from 'typeorm';
import type { RequestContext } from '../../context';
import { entityColumns } from '../../db/rows';
import { NotFoundError, quoteInput, ValidationError } from '../../errors/app-error';
import { ListQuery } from '../common/list-query';
import { WORKFLOW_CODES } from './error-codes';
import { decodePageToken, encodePageToken } from './page-token';

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

const isNamePosition = (p: unknown[]): p is [string] => p.length === 1 && typeof p[0] === 'string' && p[0].length <= 80;

/**
 * A page of a list in the order of a unique `name` column (ListStateMachines, ListActivities): keyset on the name,
 * whose last value the signed nextToken holds. Read through a ListQuery, as the other domains' lists are (its
 * statement text is built once per shape, then only re-bound); `columns` picks what the page's items carry.
 */
export async function pageByName<T extends ObjectLiteral & { name: string }, K extends keyof T & string>(
  ctx: RequestContext,
  entity: new () => T,
  operation: string,
  key: Buffer,
  args: ListArgs,
  columns?: readonly K[],
): Promise<ListPage<Pick<T, K | 'name'>>> {
  const size = listSize(args.maxResults);
  const read = entityColumns(ctx.db, entity, 'l', 'l_', columns);
  const qb = new ListQuery(ctx.db, entity, 'l').select(read.jsonRow, 'l_row');
  if (args.nextToken !== undefined) {
    const [after] = decodePageToken(key, args.nextToken, operation, null, isNamePosition);
    qb.andWhere('l.name > :after', { after });
  }
  const rows = await qb.orderBy('l.name', 'ASC').limit(size + 1).getRawMany();
  const more = rows.length > size;
  const items = (more ? rows.slice(0, size) : rows).map((r) => read.hydrateJsonArray(r.l_row)!);
  return { items, nextToken: more ? encodePageToken(key, operation, null, [items[items.length - 1].name]) : undefined };
}
