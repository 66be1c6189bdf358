/**
 * Workflow definitions (Step Functions state machines): create (idempotent as AWS documents it), describe,
 * update (running jobs keep the text they started with), delete (DELETING while jobs run, then gone), list.
 * Definitions are shared by every workflow user of the gateway; reads need workflow.read, writes workflow.write;
 * updates and deletes are the creator's or a site admin's (access.ts).
 */
import { randomUUID } from 'node:crypto';
import type { EntityManager } from 'typeorm';
import { WorkflowDefinitionAliasEntity, WorkflowDefinitionEntity, WorkflowDefinitionVersionEntity, WorkflowJobEntity, WorkflowJobEventEntity } from '../../../entities/workflow';
import type { RequestContext } from '../../context';
import { withTransaction } from '../../context';
import { queryRows, sqlFor } from '../../db/rows';
import { isPostgres, lockedFindOne, RowLock } from '../../db/transaction';
import { ConflictError, NotFoundError, quoteInput, ValidationError } from '../../errors/app-error';
import { DEFAULT_PAGE_SIZE, keysetPage, Page, PageArgs } from '../common/pagination';
import { requireDefinitionOwner, requireWorkflowAccess } from './access';
import { type Diagnostic, variableReferences } from './definition-check-language';
import { definitionArn, parseDefinitionArn, parseQualifiedDefinitionArn, requireRoleArn, requireValidName } from './arn';
import { DefinitionCheckPool } from './definition-check-pool';
import type { CheckedDefinition } from './definition-check';
import { expressProblems, requireExpressDefinition } from './definition-check';
import { WORKFLOW_CODES } from './error-codes';
import type { PageTokenKeys } from './page-token';
import { checkLoggingConfiguration, type LoggingConfigurationInput, storedLogging } from './logging-configuration';
import { checkTags, deleteTagsOf, putTags, Tag } from './tags.service';
import { publishLocked } from './versions.service';
import { TextKeyedCache } from './text-cache';

export const WORKFLOW_TYPES = ['STANDARD', 'EXPRESS'] as const;
export type WorkflowType = (typeof WORKFLOW_TYPES)[number];


export interface CreateDefinitionInput {
  name: string;
  definition: string;
  roleArn: string;
  /** STANDARD (the default) or EXPRESS (express.service.ts runs its executions). */
  type?: string;
  /** Publish the new definition as version 1 (its ARN is returned as `version`). */
  publish?: boolean;
  versionDescription?: string;
  /** Tags of a new definition (an idempotent repeat ignores them, as Step Functions does). */
  tags?: Partial<Tag>[];
  /** Step Functions' loggingConfiguration (absent: level OFF). */
  loggingConfiguration?: LoggingConfigurationInput;
}

export interface UpdateDefinitionInput {
  arn: string;
  definition?: string;
  roleArn?: string;
  /** Replaces the logging configuration (members left out take their defaults). */
  loggingConfiguration?: LoggingConfigurationInput;
  /** Publish the revision after the update as a version (idempotent when it was published already). */
  publish?: boolean;
  versionDescription?: string;
}

/** A definition written with `publish`: the version published with it. */
export type WithVersion<T> = T & { version?: WorkflowDefinitionVersionEntity };

function checkPublish(input: { publish?: boolean; versionDescription?: string }): void {
  if (input.versionDescription !== undefined && input.publish !== true) {
    throw new ValidationError('versionDescription can only be set when publish is true');
  }
}

export { DEFAULT_LIST_SIZE, MAX_LIST_SIZE, listSize, stateMachineDoesNotExist } from './lists';
export type { ListArgs, ListPage } from './lists';
import { pageByName, stateMachineDoesNotExist } from './lists';
import type { ListArgs, ListPage } from './lists';

function checkType(type: string | undefined): WorkflowType {
  if (type === undefined || type === 'STANDARD') return 'STANDARD';
  if (type === 'EXPRESS') return 'EXPRESS';
  throw new ValidationError(
    `1 validation error detected: Value ${quoteInput(type)} at 'type' failed to satisfy constraint: Member must satisfy enum value set: [STANDARD, EXPRESS]`,
  );
}

export const MAX_VALIDATION_RESULTS = 100;

export interface ValidateDefinitionInput {
  definition: string;
  type?: string;
  severity?: string;
  maxResults?: number;
}

export interface DefinitionValidation {
  result: 'OK' | 'FAIL';
  diagnostics: Diagnostic[];
  truncated: boolean;
}

/** Step Functions' variableReferences of a stored (checked) definition text; cached by text. */
const REFERENCES = new TextKeyedCache<Record<string, string[]>>(256, 16 * 1_048_576);
export function definitionVariableReferences(text: string): Record<string, string[]> {
  let refs = REFERENCES.get(text);
  if (!refs) {
    refs = variableReferences(JSON.parse(text) as Record<string, unknown>);
    REFERENCES.set(text, refs);
  }
  return refs;
}

/** What a ListStateMachines item says of a definition (never its text: up to 1 MiB each). */
const DEFINITION_LIST_COLUMNS = Object.freeze(['id', 'arn', 'name', 'type', 'createdAt'] as const);
export type DefinitionListItem = Pick<WorkflowDefinitionEntity, (typeof DEFINITION_LIST_COLUMNS)[number]>;

export class WorkflowDefinitionService {
  /** Signs and checks nextTokens (the key comes from the identity module's secret box). */
  constructor(private readonly tokenKeys: PageTokenKeys) {}

  /** Large definitions are checked in a worker thread (asl-validator: ~0.5 s per MiB). */
  private readonly checker = new DefinitionCheckPool();

  async close(): Promise<void> {
    await this.checker.close();
  }

  /** The checks of CreateStateMachine (InvalidDefinition), for definitions that are not stored (TestState). */
  checkText(ctx: Pick<RequestContext, 'config'>, text: string): Promise<CheckedDefinition> {
    return this.checker.check(text, { httpAllow: ctx.config.workflowHttpAllow });
  }

  /**
   * ValidateStateMachineDefinition: the definition's diagnostics (errors, and warnings when `severity` is WARNING),
   * at most `maxResults` (0 or absent = 100) with `truncated`; a definition is never refused by throwing.
   */
  async validate(ctx: RequestContext, input: ValidateDefinitionInput): Promise<DefinitionValidation> {
    requireWorkflowAccess(ctx, 'read');
    const type = checkType(input.type);
    const severity = input.severity ?? 'ERROR';
    if (severity !== 'ERROR' && severity !== 'WARNING') {
      throw new ValidationError(`1 validation error detected: Value ${quoteInput(severity)} at 'severity' failed to satisfy constraint: Member must satisfy enum value set: [ERROR, WARNING]`);
    }
    const max = input.maxResults === undefined || input.maxResults === 0 ? MAX_VALIDATION_RESULTS : input.maxResults;
    if (!Number.isInteger(max) || max < 0 || max > MAX_VALIDATION_RESULTS) {
      throw new ValidationError(
        `1 validation error detected: Value '${input.maxResults}' at 'maxResults' failed to satisfy constraint: Member must have value less than or equal to ${MAX_VALIDATION_RESULTS}`,
      );
    }
    const checked = await this.checker.diagnose(input.definition, { httpAllow: ctx.config.workflowHttpAllow });
    // An EXPRESS definition's own refusals (activities, .sync, .waitForTaskToken, Distributed Map) come first.
    const diagnostics = type === 'EXPRESS' ? [...expressProblems(input.definition), ...checked.diagnostics] : checked.diagnostics;
    const shown = diagnostics.filter((d) => severity === 'WARNING' || d.severity === 'ERROR');
    return {
      result: diagnostics.some((d) => d.severity === 'ERROR') ? 'FAIL' : 'OK',
      diagnostics: shown.slice(0, max),
      truncated: shown.length > max,
    };
  }

  /** Create a definition; the same name, definition, role, type and logging configuration again returns the existing one. */
  async create(ctx: RequestContext, input: CreateDefinitionInput): Promise<WithVersion<WorkflowDefinitionEntity>> {
    const userId = requireWorkflowAccess(ctx, 'write');
    const name = requireValidName(input.name);
    checkPublish(input);
    const type = checkType(input.type);
    // Express refusals first: a `.sync` resource would otherwise read as an unknown task of the gateway.
    if (type === 'EXPRESS') requireExpressDefinition(input.definition);
    const checked = await this.checker.check(input.definition, { httpAllow: ctx.config.workflowHttpAllow });
    const roleArn = requireRoleArn(input.roleArn);
    const tags = checkTags(input.tags ?? []);
    const logging = storedLogging(checkLoggingConfiguration(input.loggingConfiguration ?? {}));
    const arn = definitionArn(ctx.config, name);
    return withTransaction(ctx, async (tx) => {
      const existing = await lockedFindOne(tx.db, WorkflowDefinitionEntity, { name });
      if (existing) {
        // Step Functions: a name whose machine is still being deleted (jobs running) is StateMachineDeleting.
        if (existing.status === 'DELETING') {
          throw new ConflictError(`State Machine is being deleted: ${quoteInput(arn)}`, { domainCode: WORKFLOW_CODES.STATE_MACHINE_DELETING });
        }
        const same =
          existing.definition === checked.text && existing.roleArn === roleArn && existing.type === type && existing.loggingConfiguration === logging && existing.status === 'ACTIVE';
        if (same) return input.publish ? Object.assign(existing, { version: await publishLocked(tx.db, existing, { description: input.versionDescription }) }) : existing;
        throw new ConflictError(`State Machine Already Exists: ${quoteInput(arn)}`, { domainCode: WORKFLOW_CODES.STATE_MACHINE_ALREADY_EXISTS });
      }
      const now = new Date();
      const row = tx.db.getRepository(WorkflowDefinitionEntity).create({
        arn,
        name,
        definition: checked.text,
        roleArn,
        type,
        loggingConfiguration: logging,
        status: 'ACTIVE',
        createdBy: userId,
        createdAt: now,
        updatedAt: now,
        revisionId: randomUUID(),
        lastVersion: 0,
      });
      await tx.db.getRepository(WorkflowDefinitionEntity).insert(row);
      await putTags(tx.db, arn, tags);
      return input.publish ? Object.assign(row, { version: await publishLocked(tx.db, row, { description: input.versionDescription }) }) : row;
    });
  }

  /** The definition an ARN names (ACTIVE or DELETING), or StateMachineDoesNotExist. */
  async describe(ctx: RequestContext, arn: string): Promise<WorkflowDefinitionEntity & { description?: string | null }> {
    requireWorkflowAccess(ctx, 'read');
    const parsed = parseQualifiedDefinitionArn(ctx.config, arn);
    if (parsed?.alias !== undefined) {
      throw new ValidationError(`Invalid Arn: 'Resource type not valid in this context: ${quoteInput(arn, '')}' (an alias ARN; DescribeStateMachineAlias describes aliases)`, {
        domainCode: WORKFLOW_CODES.INVALID_ARN,
      });
    }
    if (parsed?.version !== undefined) {
      // A version reads as the definition it snapshots: its own ARN, text, role, revision, creation and description.
      const def = await this.find(ctx.db, ctx, definitionArn(ctx.config, parsed.name));
      const v = await ctx.db.getRepository(WorkflowDefinitionVersionEntity).findOne({ where: { definitionId: def.id, number: parsed.version } });
      if (!v) throw stateMachineDoesNotExist(arn);
      return {
        ...def,
        arn: v.arn,
        definition: v.definition,
        roleArn: v.roleArn,
        loggingConfiguration: v.loggingConfiguration,
        createdAt: v.createdAt,
        revisionId: v.revisionId,
        description: v.description,
      };
    }
    return this.find(ctx.db, ctx, arn);
  }

  /** The definition an ARN names, without an access check (callers checked). */
  async find(db: EntityManager, ctx: RequestContext, arn: string, opts: { lock?: RowLock } = {}): Promise<WorkflowDefinitionEntity> {
    const name = parseDefinitionArn(ctx.config, arn);
    if (name === null) throw stateMachineDoesNotExist(arn);
    const row = opts.lock ? await lockedFindOne(db, WorkflowDefinitionEntity, { name }, opts.lock) : await db.getRepository(WorkflowDefinitionEntity).findOne({ where: { name } });
    if (!row) throw stateMachineDoesNotExist(arn);
    return row;
  }

  /** Change the definition text, role and/or logging configuration; running jobs keep the text they started with. */
  async update(ctx: RequestContext, input: UpdateDefinitionInput): Promise<WithVersion<WorkflowDefinitionEntity>> {
    requireWorkflowAccess(ctx, 'write');
    checkPublish(input);
    if (input.definition === undefined && input.roleArn === undefined && input.loggingConfiguration === undefined) {
      throw new ValidationError('Either the definition, the roleArn or the loggingConfiguration must be specified');
    }
    const logging = input.loggingConfiguration === undefined ? undefined : storedLogging(checkLoggingConfiguration(input.loggingConfiguration));
    const checked = input.definition === undefined ? undefined : await this.checker.check(input.definition, { httpAllow: ctx.config.workflowHttpAllow });
    const roleArn = input.roleArn === undefined ? undefined : requireRoleArn(input.roleArn);
    parseDefinitionArn(ctx.config, input.arn);
    return withTransaction(ctx, async (tx) => {
      // FOR NO KEY UPDATE: updates (and deletes) of the definition wait for each other, starts need not wait for
      // them (a start takes the text committed when it reads it, as if it came first).
      const row = await this.find(tx.db, tx, input.arn, { lock: 'no-key-update' });
      requireDefinitionOwner(tx, row, 'update');
      if (row.status === 'DELETING') {
        throw new ConflictError(`State Machine is being deleted: ${quoteInput(input.arn)}`, { domainCode: WORKFLOW_CODES.STATE_MACHINE_DELETING });
      }
      // A machine's type never changes: an EXPRESS machine's new text must be one Express runs.
      if (checked !== undefined && row.type === 'EXPRESS') requireExpressDefinition(checked.text);
      const changed =
        (checked !== undefined && checked.text !== row.definition) ||
        (roleArn !== undefined && roleArn !== row.roleArn) ||
        (logging !== undefined && logging !== row.loggingConfiguration);
      if (changed) {
        const patch = {
          ...(checked ? { definition: checked.text } : {}),
          ...(roleArn ? { roleArn } : {}),
          ...(logging !== undefined ? { loggingConfiguration: logging } : {}),
          updatedAt: new Date(),
          revisionId: randomUUID(),
        };
        await tx.db.getRepository(WorkflowDefinitionEntity).update({ id: row.id }, patch);
        Object.assign(row, patch);
      }
      return input.publish ? Object.assign(row, { version: await publishLocked(tx.db, row, { description: input.versionDescription }) }) : row;
    });
  }

  /**
   * Delete a definition: at once when none of its jobs runs (its closed jobs and their history go with it),
   * else it becomes DELETING (no new jobs) and goes when its last job ends (`finishDeletion`). Deleting a
   * definition that does not exist succeeds, as in Step Functions. Returns the definition when it stays
   * (DELETING), null when it is gone.
   */
  async delete(ctx: RequestContext, arn: string): Promise<WorkflowDefinitionEntity | null> {
    requireWorkflowAccess(ctx, 'write');
    const name = parseDefinitionArn(ctx.config, arn);
    if (name === null) return null;
    return withTransaction(ctx, async (tx) => {
      const row = await lockedFindOne(tx.db, WorkflowDefinitionEntity, { name });
      if (!row) return null;
      requireDefinitionOwner(tx, row, 'delete');
      if (await finishDeletion(tx.db, row.id, { force: true })) return null;
      if (row.status !== 'DELETING') {
        const patch = { status: 'DELETING' as const, updatedAt: new Date() };
        await tx.db.getRepository(WorkflowDefinitionEntity).update({ id: row.id }, patch);
        Object.assign(row, patch);
      }
      return row;
    });
  }

  /** A definition by database id (the graph: node(id:), a job's definition), null when there is none. */
  async byId(ctx: RequestContext, id: number): Promise<WorkflowDefinitionEntity | null> {
    requireWorkflowAccess(ctx, 'read');
    return ctx.loaders.workflowDefinitionById.load(id);
  }

  /** Definitions by name with Relay paging (the graph's connection; keyset on the unique name, then id). */
  async page(ctx: RequestContext, args: PageArgs): Promise<Page<WorkflowDefinitionEntity>> {
    requireWorkflowAccess(ctx, 'read');
    const qb = ctx.db.getRepository(WorkflowDefinitionEntity).createQueryBuilder('d');
    const page = await keysetPage(qb, args, { property: 'name', direction: 'ASC' }, DEFAULT_PAGE_SIZE);
    for (const d of page.items) ctx.loaders.workflowDefinitionById.prime(d.id, d);
    return page;
  }

  /** Definitions by name, `maxResults` at a time (keyset on the unique name). */
  /** ListStateMachines: by name, `maxResults` at a time (keyset on the unique name); items carry what the list answers. */
  async list(ctx: RequestContext, args: ListArgs): Promise<ListPage<DefinitionListItem>> {
    requireWorkflowAccess(ctx, 'read');
    const key = await this.tokenKeys.of(ctx);
    return pageByName(ctx, WorkflowDefinitionEntity, 'ListStateMachines', key, args, DEFINITION_LIST_COLUMNS);
  }
}

/**
 * Inside a write transaction: remove a definition with its jobs and their history when none of its jobs runs
 * (and it is DELETING, unless `force`). True when it was removed. The job runner calls this when a job of a
 * DELETING definition ends; StopExecution does too.
 */
export async function finishDeletion(db: EntityManager, definitionId: number, opts: { force?: boolean; status?: string | null } = {}): Promise<boolean> {
  if (!opts.force) {
    // The runner read the status with the job's last write (`status`: null when the definition is gone); else one
    // fixed statement.
    const status = opts.status !== undefined ? opts.status : ((await queryRows<{ status: string }>(db, 'SELECT status FROM workflow_definitions WHERE id = ?', [definitionId]))[0]?.status ?? null);
    if (status !== 'DELETING') return false;
    // Jobs ending at once must not each see the other still RUNNING (READ COMMITTED): the last one to take the
    // definition's row lock sees every other's end, and removes it.
    if (isPostgres(db)) await queryRows(db, 'SELECT id FROM workflow_definitions WHERE id = ? FOR UPDATE', [definitionId]);
  }
  const running = await db.getRepository(WorkflowJobEntity).exists({ where: { definitionId, status: 'RUNNING' } });
  if (running) return false;
  await db.query(sqlFor(db, 'DELETE FROM workflow_tasks WHERE job_id IN (SELECT id FROM workflow_jobs WHERE definition_id = ?)'), [definitionId]);
  await db
    .createQueryBuilder()
    .delete()
    .from(WorkflowJobEventEntity)
    .where('job_id IN (SELECT id FROM workflow_jobs WHERE definition_id = :definitionId)', { definitionId })
    .execute();
  await db.getRepository(WorkflowJobEntity).delete({ definitionId });
  await db.getRepository(WorkflowDefinitionAliasEntity).delete({ definitionId });
  await db.getRepository(WorkflowDefinitionVersionEntity).delete({ definitionId });
  const def = await db.getRepository(WorkflowDefinitionEntity).findOne({ where: { id: definitionId }, select: { id: true, arn: true } });
  if (def) await deleteTagsOf(db, def.arn);
  await db.getRepository(WorkflowDefinitionEntity).delete({ id: definitionId });
  return true;
}
