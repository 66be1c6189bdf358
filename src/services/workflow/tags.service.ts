/**
 * Tags of workflow resources (Step Functions' TagResource, UntagResource, ListTagsForResource and the `tags` of
 * CreateStateMachine / CreateActivity): state machines and activities only, at most 50 per resource, keys of
 * 1-128 and values of 0-256 letters, digits, whitespace and `_ . : / = + - @`, the `aws:` prefix reserved.
 * Writes lock the resource's row, so concurrent tagging never passes 50. Tagging a state machine is its owner's
 * (as updating it); tagging an activity needs workflow.write (as deleting it).
 */
import type { EntityManager } from 'typeorm';
import { WorkflowActivityEntity, WorkflowDefinitionEntity, WorkflowTagEntity } from '../../../entities/workflow';
import type { RequestContext } from '../../context';
import { withTransaction } from '../../context';
import { lockedFindOne } from '../../db/transaction';
import { NotFoundError, quoteInput, ValidationError } from '../../errors/app-error';
import { requireDefinitionOwner, requireWorkflowAccess } from './access';
import { parseActivityArn, parseQualifiedDefinitionArn } from './arn';
import { WORKFLOW_CODES } from './error-codes';

export const MAX_TAGS = 50;
export const MAX_TAG_KEY = 128;
export const MAX_TAG_VALUE = 256;

export interface Tag {
  key: string;
  value: string;
}

const TAG_TEXT = /^[\p{L}\p{Z}\p{N}_.:/=+\-@]*$/u;

/** The tags as given, checked (not yet against the resource's count); the last value of a repeated key wins. */
export function checkTags(tags: readonly Partial<Tag>[]): Tag[] {
  const byKey = new Map<string, string>();
  for (const [i, t] of tags.entries()) {
    const key = t.key;
    const value = t.value ?? '';
    const at = `tags.${i + 1}.member`;
    if (typeof key !== 'string' || key.length < 1 || key.length > MAX_TAG_KEY) {
      throw new ValidationError(`1 validation error detected: Value at '${at}.key' failed to satisfy constraint: Member must have length between 1 and ${MAX_TAG_KEY}`);
    }
    if (value.length > MAX_TAG_VALUE) {
      throw new ValidationError(`1 validation error detected: Value at '${at}.value' failed to satisfy constraint: Member must have length less than or equal to ${MAX_TAG_VALUE}`);
    }
    if (!TAG_TEXT.test(key) || !TAG_TEXT.test(value)) {
      throw new ValidationError(`Invalid tag ${quoteInput(key)}: keys and values may contain letters, digits, whitespace and _ . : / = + - @ only`);
    }
    if (key.toLowerCase().startsWith('aws:')) throw new ValidationError(`Invalid tag key ${quoteInput(key)}: the aws: prefix is reserved`);
    byKey.set(key, value);
  }
  return [...byKey].map(([key, value]) => ({ key, value }));
}

function tooMany(arn: string): ValidationError {
  return new ValidationError(`Too many tags: a resource can have at most ${MAX_TAGS} tags (${quoteInput(arn)})`, { domainCode: WORKFLOW_CODES.TOO_MANY_TAGS });
}

/**
 * Inside a transaction that holds the resource's row lock: set these tags (new keys added, existing ones get
 * the new value); more than 50 in all -> TooManyTags.
 */
export async function putTags(db: EntityManager, resourceArn: string, tags: Tag[]): Promise<void> {
  if (!tags.length) return;
  const repo = db.getRepository(WorkflowTagEntity);
  const existing = await repo.find({ where: { resourceArn } });
  const have = new Map(existing.map((t) => [t.key, t]));
  const added = tags.filter((t) => !have.has(t.key));
  if (existing.length + added.length > MAX_TAGS) throw tooMany(resourceArn);
  for (const t of tags) {
    const row = have.get(t.key);
    if (row && row.value !== t.value) await repo.update({ id: row.id }, { value: t.value });
  }
  if (added.length) await repo.insert(added.map((t) => repo.create({ resourceArn, key: t.key, value: t.value })));
}

/** Inside the transaction that deletes a resource: its tags go with it. */
export async function deleteTagsOf(db: EntityManager, resourceArn: string): Promise<void> {
  await db.getRepository(WorkflowTagEntity).delete({ resourceArn });
}

export class WorkflowTagService {
  async tag(ctx: RequestContext, input: { resourceArn: string; tags: Partial<Tag>[] }): Promise<void> {
    requireWorkflowAccess(ctx, 'write');
    const tags = checkTags(input.tags);
    if (tags.length > MAX_TAGS) throw tooMany(input.resourceArn);
    await withTransaction(ctx, async (tx) => {
      const arn = await this.resource(tx, tx.db, input.resourceArn);
      await putTags(tx.db, arn, tags);
    });
  }

  async untag(ctx: RequestContext, input: { resourceArn: string; tagKeys: string[] }): Promise<void> {
    requireWorkflowAccess(ctx, 'write');
    for (const [i, k] of input.tagKeys.entries()) {
      if (typeof k !== 'string' || k.length < 1 || k.length > MAX_TAG_KEY) {
        throw new ValidationError(`1 validation error detected: Value at 'tagKeys.${i + 1}.member' failed to satisfy constraint: Member must have length between 1 and ${MAX_TAG_KEY}`);
      }
    }
    await withTransaction(ctx, async (tx) => {
      const arn = await this.resource(tx, tx.db, input.resourceArn);
      if (input.tagKeys.length) {
        await tx.db.createQueryBuilder().delete().from(WorkflowTagEntity).where('resource_arn = :arn AND key IN (:...keys)', { arn, keys: [...new Set(input.tagKeys)] }).execute();
      }
    });
  }

  /** The resource's tags by key. */
  async list(ctx: RequestContext, resourceArn: string): Promise<Tag[]> {
    requireWorkflowAccess(ctx, 'read');
    const arn = await this.resource(ctx, ctx.db, resourceArn, false);
    const rows = await ctx.db.getRepository(WorkflowTagEntity).find({ where: { resourceArn: arn }, order: { key: 'ASC' } });
    return rows.map((r) => ({ key: r.key, value: r.value }));
  }

  /**
   * The tags of a definition the caller read (the graph's `tags`): one statement for a list of definitions. An
   * activity's through its ARN too.
   */
  async tagsOf(ctx: RequestContext, resource: { arn: string }): Promise<Tag[]> {
    requireWorkflowAccess(ctx, 'read');
    const rows = await ctx.loaders.workflowTagsOf.load(resource.arn);
    return rows.map((r) => ({ key: r.key, value: r.value }));
  }

  /** The tagged resource's ARN (a state machine or an activity), locked for a write; ResourceNotFound, InvalidArn. */
  private async resource(ctx: RequestContext, db: EntityManager, arn: string, write = true): Promise<string> {
    const notFound = () => new NotFoundError(`Resource not found: ${quoteInput(arn)}`, { domainCode: WORKFLOW_CODES.RESOURCE_NOT_FOUND });
    const kind = arn.split(':')[5];
    if (kind === 'activity') {
      const name = parseActivityArn(ctx.config, arn);
      const row = name === null ? null : write ? await lockedFindOne(db, WorkflowActivityEntity, { name }) : await db.getRepository(WorkflowActivityEntity).findOne({ where: { name } });
      if (!row) throw notFound();
      return row.arn;
    }
    const parsed = kind === 'stateMachine' ? parseQualifiedDefinitionArn(ctx.config, arn) : parseActivityArn(ctx.config, arn); // the latter throws InvalidArn
    if (parsed === null) throw notFound();
    if (typeof parsed === 'string' || parsed.version !== undefined || parsed.alias !== undefined) {
      throw new ValidationError(`Invalid Arn: 'Resource type not valid in this context: ${quoteInput(arn, '')}' (tags are on state machines and activities)`, {
        domainCode: WORKFLOW_CODES.INVALID_ARN,
      });
    }
    const def = write ? await lockedFindOne(db, WorkflowDefinitionEntity, { name: parsed.name }) : await db.getRepository(WorkflowDefinitionEntity).findOne({ where: { name: parsed.name } });
    if (!def) throw notFound();
    if (write) requireDefinitionOwner(ctx, def, 'update');
    return def.arn;
  }
}
