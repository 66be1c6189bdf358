/**
 * Workflow jobs (Step Functions executions): start (idempotent by name), describe, list, stop, history.
 * A job is visible to the user who started it and to site admins (access.ts). Jobs are run by the job runner,
 * which plugs in through `onStarted`; this service never runs them: a job stays RUNNING with a NULL checkpoint
 * until a runner takes it.
 */
import { randomUUID } from 'node:crypto';
import type { EntityManager } from 'typeorm';
import { WORKFLOW_JOB_STATUSES, WorkflowDefinitionEntity, WorkflowJobEntity, WorkflowJobEventEntity, WorkflowJobStatus, WorkflowMapRunEntity } from '../../../entities/workflow';
import type { RequestContext } from '../../context';
import { withTransaction } from '../../context';
import { entityColumns, queryRows } from '../../db/rows';
import { isPostgres, lockedFindOne } from '../../db/transaction';
import { ConflictError, NotFoundError, quoteInput, UnavailableError, ValidationError } from '../../errors/app-error';
import { DEFAULT_PAGE_SIZE, encodeCursor, keysetPage, Page, PageArgs, validatePageArgs } from '../common/pagination';
import { jobVisibilityFilter, jobVisible, requireWorkflowAccess } from './access';
import { closeOpenTasks } from './activities.service';
import { Checkpoint, decodeCheckpoint, redrivable, redriveCheckpoint } from './engine';
import { definitionArn, jobArn, parseDefinitionArn, parseJobArn, parseQualifiedDefinitionArn, requireValidName } from './arn';
import { definitionVariableReferences, finishDeletion, ListArgs, ListPage, listSize, stateMachineDoesNotExist } from './definitions.service';
import { WORKFLOW_CODES } from './error-codes';
import { abortRunsOfJob, checkMapRunUpdate, childEnded, findMapRun, type MapRunHooks, type MapRunUpdate } from './map-runs';
import { describeStartedCredential } from './job-credential';
import { definitionTimeoutSeconds, insertJobEvent, insertJobRow, lastJobEventId, redrivenJobPatch } from './job-rows';
import { decodePageToken, encodePageToken, type PageTokenKeys } from './page-token';
import type { WorkflowExpressService } from './express.service';
import type { WorkflowVersionService } from './versions.service';

/** Step Functions' limit on an execution's input: 256 KiB of UTF-8. */
export const MAX_INPUT_BYTES = 256 * 1024;
/** Job data deeper than this cannot be handled (serializing checkpoints recurses): InvalidExecutionInput. */
export const MAX_INPUT_NESTING = 256;
export const MAX_TRACE_HEADER = 256;
export const MAX_ERROR_CHARS = 256;
export const MAX_CAUSE_CHARS = 32_768;

export interface StartJobInput {
  stateMachineArn: string;
  name?: string;
  /** JSON text; absent = "{}". */
  input?: string;
  traceHeader?: string;
}

export interface ListJobsArgs extends ListArgs {
  /** One of the two: a definition's jobs (Map Run children left out), or a Map Run's children. */
  stateMachineArn?: string;
  mapRunArn?: string;
  statusFilter?: WorkflowJobStatus;
  /** REDRIVEN: jobs redriven at least once; NOT_REDRIVEN: the others. */
  redriveFilter?: 'REDRIVEN' | 'NOT_REDRIVEN';
}

/** Filters of the graph's job connections; every one optional (none: every job the viewer may see). */
export interface JobPageFilter {
  /** Jobs of the definition this ARN names (InvalidArn when malformed, StateMachineDoesNotExist when unknown). */
  definitionArn?: string;
  /** Jobs of the definition with this id (a definition's own `jobs` field). */
  definitionId?: number;
  status?: WorkflowJobStatus;
}

export interface StopJobInput {
  executionArn: string;
  error?: string;
  cause?: string;
}

export interface HistoryArgs extends ListArgs {
  executionArn: string;
  reverseOrder?: boolean;
  /** false drops input and output from the events' details (default true). */
  includeExecutionData?: boolean;
}

/** A history event as stored, with its details parsed. */
export interface JobEvent {
  id: number;
  previousEventId: number;
  type: string;
  timestamp: Date;
  details: Record<string, unknown>;
}

export interface JobHooks {
  /** Called after a job was committed (not for an idempotent repeat). Errors are logged, never thrown. */
  onStarted?(jobId: number, job: WorkflowJobEntity): void | Promise<void>;
  /**
   * An in-process runner that will run started jobs itself (the embedded runner): new jobs are written already
   * leased to it, so it need not claim them (one write less per job). Undefined: the job is written unleased.
   */
  leaseOnStart?(): { owner: string; ms: number } | undefined;
  /** Called after a stop was committed (a runner of this process aborts the job's running step at once). */
  onStopped?(jobId: number): void;
  /** A job waiting for its Map Run's children has news (one ended): it is due now. */
  onNews?(jobId: number): void;
}

/** A job start of an EXPRESS definition outside the Step Functions API (GraphQL): Express executions are not jobs. */
function expressNotJobs(arn: string): ValidationError {
  return new ValidationError(
    `State machine ${quoteInput(arn)} is of type EXPRESS: its executions keep no record a job could show; start them with StartExecution or StartSyncExecution (the Step Functions API)`,
    { domainCode: WORKFLOW_CODES.STATE_MACHINE_TYPE_NOT_SUPPORTED },
  );
}

export function executionDoesNotExist(arn: string): NotFoundError {
  return new NotFoundError(`Execution Does Not Exist: ${quoteInput(arn)}`, { domainCode: WORKFLOW_CODES.EXECUTION_DOES_NOT_EXIST });
}

function invalidInput(detail: string): ValidationError {
  return new ValidationError(`Invalid State Machine Execution Input: '${detail}'`, { domainCode: WORKFLOW_CODES.INVALID_EXECUTION_INPUT });
}

/** The job input as stored: valid JSON of at most 256 KiB (UTF-8), or InvalidExecutionInput. */
export function checkJobInput(input: string | undefined): string {
  if (input === undefined) return '{}';
  if (Buffer.byteLength(input, 'utf8') > MAX_INPUT_BYTES) throw invalidInput(`The input is larger than ${MAX_INPUT_BYTES} bytes`);
  if (nestingDepth(input) > MAX_INPUT_NESTING) throw invalidInput(`The input nests arrays and objects more than ${MAX_INPUT_NESTING} levels deep`);
  try {
    JSON.parse(input);
  } catch (e) {
    throw invalidInput(quoteInput((e as Error).message, '').slice(0, 200));
  }
  return input;
}

/** Deepest array/object nesting of a JSON text (strings skipped), without parsing it. */
function nestingDepth(text: string): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92) i++; // backslash: skip the escaped character
      else if (c === 34) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 91 || c === 123) {
      if (++depth > deepest) deepest = depth;
    } else if (c === 93 || c === 125) depth--;
  }
  return deepest;
}

export function lengthCheck(field: string, value: string | undefined, max: number): void {
  if (value !== undefined && value.length > max) {
    throw new ValidationError(`1 validation error detected: Value at '${field}' failed to satisfy constraint: Member must have length less than or equal to ${max}`);
  }
  // Stored as text: PostgreSQL cannot hold U+0000 (every transport reaches this check).
  if (value !== undefined && value.includes('\u0000')) {
    throw new ValidationError(`1 validation error detected: Value at '${field}' failed to satisfy constraint: Member must not contain the NUL character`);
  }
}

/** Job counts of this instance (the /metrics counter workflow_jobs_total). */
export interface JobStats {
  started: number;
  succeeded: number;
  failed: number;
  timed_out: number;
  aborted: number;
  redriven: number;
}

export class WorkflowJobService {
  private hooks: JobHooks;
  readonly stats: JobStats = { started: 0, succeeded: 0, failed: 0, timed_out: 0, aborted: 0, redriven: 0 };

  /** Starts resolve versions and aliases and hand EXPRESS machines' executions to the Express service. */
  constructor(
    private readonly deps: {
      tokenKeys: PageTokenKeys;
      versions: WorkflowVersionService;
      express: WorkflowExpressService;
    },
    hooks: JobHooks = {},
  ) {
    this.hooks = hooks;
  }

  /** The runner plugs in here (replaces the previous hook). */
  setHooks(hooks: JobHooks): void {
    this.hooks = hooks;
  }

  /**
   * Start a job of a definition. The same name with the same input while that job runs returns it (Step
   * Functions' idempotency); another input, or a job of that name that has ended -> ExecutionAlreadyExists.
   * The job and its first history event (ExecutionStarted) are written in one transaction.
   */
  async start(ctx: RequestContext, input: StartJobInput): Promise<{ job: WorkflowJobEntity; created: boolean }> {
    const started = await this.startAny(ctx, input, false);
    if ('express' in started) throw new Error('unreachable: an Express start was not refused');
    return started;
  }

  /**
   * StartExecution: a job of a STANDARD definition (`start`), or an asynchronous Express execution of an EXPRESS one
   * (express.service.ts runs it; nothing is stored). The execution's ARN and start date.
   */
  async startExecution(ctx: RequestContext, input: StartJobInput): Promise<{ executionArn: string; startDate: Date }> {
    const started = await this.startAny(ctx, input, true);
    if ('express' in started) return started.express;
    return { executionArn: started.job.arn, startDate: started.job.startDate };
  }

  private async startAny(
    ctx: RequestContext,
    input: StartJobInput,
    express: boolean,
  ): Promise<{ job: WorkflowJobEntity; created: boolean } | { express: { executionArn: string; startDate: Date } }> {
    const userId = requireWorkflowAccess(ctx, 'write');
    const qualified = parseQualifiedDefinitionArn(ctx.config, input.stateMachineArn);
    if (qualified === null) throw stateMachineDoesNotExist(input.stateMachineArn);
    const names = qualified.name;
    const given = input.name === undefined ? undefined : requireValidName(input.name);
    const text = checkJobInput(input.input);
    lengthCheck('traceHeader', input.traceHeader, MAX_TRACE_HEADER);
    const result = await withTransaction(ctx, async (tx) => {
      // FOR KEY SHARE on PostgreSQL: only a delete (FOR UPDATE) waits for a start, or a start for it; starts wait
      // neither for each other nor for UpdateStateMachine (FOR NO KEY UPDATE), so a burst of both does not queue on
      // the row (queued, they ran past the lock timeout under load and answered 503).
      const { def, openJobs } = await definitionToStart(tx.db, names);
      if (!def) throw stateMachineDoesNotExist(input.stateMachineArn);
      if (def.status === 'DELETING') {
        throw new ConflictError(`State Machine is being deleted: ${quoteInput(input.stateMachineArn)}`, { domainCode: WORKFLOW_CODES.STATE_MACHINE_DELETING });
      }
      if (def.type === 'EXPRESS') {
        // Express executions are not jobs (no row, no history): only the Step Functions API starts them.
        if (!express) throw expressNotJobs(input.stateMachineArn);
        return { expressOf: { def, target: await this.deps.versions.startTarget(tx.db, def, input.stateMachineArn, qualified) } };
      }
      // A name the caller gave may be taken (the same start again, or another job). A generated one is a random UUID
      // drawn per attempt, so no job can have it: no lookup. Should the unique index still refuse it, writeTransaction
      // runs this once more and draws another.
      const name = given ?? randomUUID();
      const arn = jobArn(ctx.config, def.name, name);
      // A version or alias ARN runs that version (an alias picks one of its two by weight).
      const target = await this.deps.versions.startTarget(tx.db, def, input.stateMachineArn, qualified);
      const existing = given === undefined ? null : await lockedFindOne(tx.db, WorkflowJobEntity, { definitionId: def.id, name });
      if (existing) {
        const visible = jobVisible(ctx.viewer, existing);
        if (existing.status === 'RUNNING' && existing.input === text && visible) return { job: existing, created: false };
        // Names are one namespace per definition (ARNs are unique) but jobs are their starter's: another user's job
        // is named only as taken, never shown (its ARN, status or input).
        if (!visible) {
          throw new ConflictError(`Execution Already Exists: the name ${quoteInput(name)} is taken for this state machine`, {
            domainCode: WORKFLOW_CODES.EXECUTION_ALREADY_EXISTS,
          });
        }
        throw new ConflictError(`Execution Already Exists: ${quoteInput(arn)}`, { domainCode: WORKFLOW_CODES.EXECUTION_ALREADY_EXISTS });
      }
      requireOpenJobSlotOf(openJobs, ctx.config.workflowMaxOpenJobs);
      const now = new Date();
      const lease = this.hooks.leaseOnStart?.();
      // Stored definitions were checked (asl-validator) when written: only the job timeout is read here.
      const timeoutSeconds = definitionTimeoutSeconds(target.definition);
      const repo = tx.db.getRepository(WorkflowJobEntity);
      const job = repo.create({
        arn,
        definitionId: def.id,
        name,
        status: 'RUNNING',
        input: text,
        output: null,
        error: null,
        cause: null,
        startDate: now,
        stopDate: null,
        startedBy: userId,
        startedCredential: describeStartedCredential(ctx.viewer),
        roleArn: target.roleArn,
        definitionText: target.definition,
        versionArn: target.versionArn,
        aliasArn: target.aliasArn,
        revisionId: target.revisionId,
        revisionDate: target.revisionDate,
        traceHeader: input.traceHeader ?? null,
        currentState: null,
        checkpoint: null,
        version: 1,
        leaseOwner: lease?.owner ?? null,
        leaseUntil: lease ? new Date(now.getTime() + lease.ms) : null,
        // Due at once: the runner's due-jobs query takes it (or, when leased to a runner, once the lease ends).
        wakeAt: now,
        deadline: timeoutSeconds ? new Date(now.getTime() + timeoutSeconds * 1000) : null,
      });
      // Fixed statement texts (TypeORM's insert inlines the key values and re-selects: a new statement per job).
      job.id = await insertJobRow(tx.db, job, lease?.ms);
      await insertJobEvent(tx.db, {
        jobId: job.id,
        eventId: 1,
        previousEventId: 0,
        type: 'ExecutionStarted',
        timestamp: now,
        details: JSON.stringify({
          executionStartedEventDetails: {
            input: text,
            inputDetails: { truncated: false },
            roleArn: target.roleArn,
            ...(target.aliasArn ? { stateMachineAliasArn: target.aliasArn } : {}),
            ...(target.versionArn ? { stateMachineVersionArn: target.versionArn } : {}),
          },
        }),
      });
      return { job, created: true };
      // Only through tx.db (the definition, its version or alias, a job of the same name, the new rows).
    }, { managerOnly: true });
    if ('expressOf' in result && result.expressOf) {
      const { def, target } = result.expressOf;
      return { express: await this.deps.express.startAsync(ctx, { def, target, stateMachineArn: input.stateMachineArn, name: given, input: text, traceHeader: input.traceHeader }) };
    }
    if (result.created) this.stats.started++;
    if (result.created && this.hooks.onStarted) {
      try {
        await this.hooks.onStarted(result.job.id, result.job);
      } catch (e) {
        ctx.log.error({ err: e, jobId: result.job.id }, 'workflow: onStarted hook failed');
      }
    }
    return result;
  }

  /** A job the viewer may see, or ExecutionDoesNotExist. */
  async describe(ctx: RequestContext, arn: string): Promise<WorkflowJobEntity> {
    requireWorkflowAccess(ctx, 'read');
    return this.findVisible(ctx, arn);
  }

  private async findVisible(ctx: RequestContext, arn: string, lock = false): Promise<WorkflowJobEntity> {
    if (parseJobArn(ctx.config, arn) === null) throw executionDoesNotExist(arn);
    const job = lock ? await lockedFindOne(ctx.db, WorkflowJobEntity, { arn }) : await ctx.db.getRepository(WorkflowJobEntity).findOne({ where: { arn } });
    if (!job || !jobVisible(ctx.viewer, job)) throw executionDoesNotExist(arn);
    return job;
  }

  /** A job by database id (the graph's node(id:)): null when missing or not visible to the viewer. */
  async byId(ctx: RequestContext, id: number): Promise<WorkflowJobEntity | null> {
    requireWorkflowAccess(ctx, 'read');
    const job = await ctx.loaders.workflowJobById.load(id);
    return job && jobVisible(ctx.viewer, job) ? job : null;
  }

  /**
   * Jobs the viewer may see (the rule of `jobVisibilityFilter`, as SQL), newest first (start date, then id), with
   * Relay paging: the graph's connections, over all definitions or one. The page primes the jobs loader.
   */
  async page(ctx: RequestContext, filter: JobPageFilter, args: PageArgs): Promise<Page<WorkflowJobEntity>> {
    requireWorkflowAccess(ctx, 'read');
    if (filter.status !== undefined && !(WORKFLOW_JOB_STATUSES as readonly string[]).includes(filter.status)) {
      throw new ValidationError(`Invalid status filter: ${quoteInput(String(filter.status))}`);
    }
    const qb = ctx.db.getRepository(WorkflowJobEntity).createQueryBuilder('j');
    if (filter.definitionArn !== undefined) {
      const name = parseDefinitionName(ctx, filter.definitionArn);
      const def = await ctx.db.getRepository(WorkflowDefinitionEntity).findOne({ where: { name }, select: { id: true } });
      if (!def) throw stateMachineDoesNotExist(filter.definitionArn);
      qb.andWhere('j.definition_id = :def', { def: def.id });
    }
    if (filter.definitionId !== undefined) qb.andWhere('j.definition_id = :defId', { defId: filter.definitionId });
    if (filter.status !== undefined) qb.andWhere('j.status = :status', { status: filter.status });
    const visibility = jobVisibilityFilter(ctx.viewer);
    if (visibility) qb.andWhere('j.started_by = :startedBy', { startedBy: visibility.startedBy });
    const page = await keysetPage(qb, args, { property: 'startDate', direction: 'DESC' }, DEFAULT_PAGE_SIZE);
    for (const j of page.items) ctx.loaders.workflowJobById.prime(j.id, j);
    return page;
  }

  /**
   * The history of a job (one the caller read through this service) with Relay paging, in event order or
   * reversed: the graph's `history` connection. Details carry the execution data (input and output).
   */
  async historyPage(ctx: RequestContext, job: WorkflowJobEntity, args: PageArgs & { reverse?: boolean }): Promise<Page<JobEvent>> {
    requireWorkflowAccess(ctx, 'read');
    if (!jobVisible(ctx.viewer, job)) throw executionDoesNotExist(job.arn);
    // The page's events without their details first: their sizes decide how many fit the byte budget
    // (WORKFLOW_HISTORY_PAGE_BYTES, at least one); only those are loaded. A page cut short says there is more.
    const qb = ctx.db
      .getRepository(WorkflowJobEventEntity)
      .createQueryBuilder('e')
      .select(['e.jobId', 'e.eventId', 'e.previousEventId', 'e.type', 'e.timestamp'])
      .where('e.job_id = :id', { id: job.id });
    // Keyset on (event_id, job_id): the job is fixed, so the event id alone orders the page.
    const page = await keysetPage(qb, args, { property: 'eventId', direction: args.reverse ? 'DESC' : 'ASC' }, DEFAULT_PAGE_SIZE);
    let rows = page.items;
    const backward = validatePageArgs(args, DEFAULT_PAGE_SIZE).backward;
    let cut = false;
    if (rows.length > 0) {
      const ids = rows.map((r) => r.eventId);
      const sizes = new Map(
        (
          await queryRows<{ event_id: number | string; n: number | string | null }>(
            ctx.db,
            'SELECT event_id, LENGTH(details) AS n FROM workflow_job_events WHERE job_id = ? AND event_id BETWEEN ? AND ?',
            [job.id, Math.min(...ids), Math.max(...ids)],
          )
        ).map((r) => [Number(r.event_id), Number(r.n ?? 0)]),
      );
      const budget = ctx.config.workflowHistoryPageBytes;
      // forward pages keep their first events, backward pages (last/before) the ones nearest their cursor
      const order = backward ? [...rows].reverse() : rows;
      let bytes = 0;
      let take = 0;
      for (const r of order) {
        bytes += (sizes.get(r.eventId) ?? 0) + 100;
        if (take > 0 && bytes > budget) break;
        take++;
      }
      if (take < rows.length) {
        cut = true;
        rows = backward ? rows.slice(rows.length - take) : rows.slice(0, take);
      }
    }
    const details = new Map<number, string>();
    if (rows.length > 0) {
      const ids = rows.map((r) => r.eventId);
      for (const d of await queryRows<{ event_id: number | string; details: string }>(
        ctx.db,
        'SELECT event_id, details FROM workflow_job_events WHERE job_id = ? AND event_id BETWEEN ? AND ?',
        [job.id, Math.min(...ids), Math.max(...ids)],
      )) {
        details.set(Number(d.event_id), d.details);
      }
    }
    const rowOf = new Map<JobEvent, WorkflowJobEventEntity>();
    const items = rows.map((r) => {
      const e: JobEvent = { id: r.eventId, previousEventId: r.previousEventId, type: r.type, timestamp: r.timestamp, details: parseDetails(details.get(r.eventId) ?? '{}') };
      rowOf.set(e, r);
      return e;
    });
    return {
      ...page,
      items,
      hasNextPage: page.hasNextPage || (cut && !backward),
      hasPreviousPage: page.hasPreviousPage || (cut && backward),
      cursorOf: (e) => page.cursorOf(rowOf.get(e)!),
    };
  }

  /** Jobs of a definition the viewer may see, newest first (start date, then id), `maxResults` at a time. */
  async list(ctx: RequestContext, args: ListJobsArgs): Promise<ListPage<WorkflowJobEntity>> {
    requireWorkflowAccess(ctx, 'read');
    const size = listSize(args.maxResults);
    if ((args.stateMachineArn === undefined) === (args.mapRunArn === undefined)) {
      throw new ValidationError('Invalid Request: exactly one of stateMachineArn and mapRunArn must be given', { domainCode: 'MISSING_REQUIRED_PARAMETER' });
    }
    if (args.mapRunArn !== undefined) return this.listChildren(ctx, { ...args, mapRunArn: args.mapRunArn }, size);
    const qualified = parseQualifiedDefinitionArn(ctx.config, args.stateMachineArn!);
    if (qualified === null) throw stateMachineDoesNotExist(args.stateMachineArn!);
    const defName = qualified.name;
    const key = await this.deps.tokenKeys.of(ctx);
    // The jobs started from a version (directly or through an alias) or through an alias, when the ARN names one.
    const origin = qualified.version !== undefined || qualified.alias !== undefined ? args.stateMachineArn : null;
    const filter = [defName, args.statusFilter ?? null, ...(args.redriveFilter ? [args.redriveFilter] : []), ...(origin ? [origin] : [])];
    const position =
      args.nextToken === undefined
        ? undefined
        : decodePageToken(key, args.nextToken, 'ListExecutions', filter, (p): p is [number, number] =>
            p.length === 2 && Number.isSafeInteger(p[0]) && Number.isSafeInteger(p[1]) && (p[1] as number) > 0 && (p[1] as number) <= 2_147_483_647,
          );
    const def = await ctx.db.getRepository(WorkflowDefinitionEntity).findOne({ where: { name: defName }, select: { id: true, type: true } });
    if (!def) throw stateMachineDoesNotExist(args.stateMachineArn!);
    // Step Functions lists no Express executions (they keep no record).
    if (def.type === 'EXPRESS') {
      throw new ValidationError('This operation is not supported by this type of state machine (EXPRESS executions are not listed)', { domainCode: WORKFLOW_CODES.STATE_MACHINE_TYPE_NOT_SUPPORTED });
    }
    // A Map Run's children are listed by their run (mapRunArn), not with the state machine's executions.
    const qb = ctx.db.getRepository(WorkflowJobEntity).createQueryBuilder('j').where('j.definition_id = :def', { def: def.id }).andWhere('j.map_run_id IS NULL');
    if (args.statusFilter) qb.andWhere('j.status = :status', { status: args.statusFilter });
    if (args.redriveFilter) qb.andWhere(args.redriveFilter === 'REDRIVEN' ? 'j.redrive_count > 0' : 'j.redrive_count = 0');
    if (origin) qb.andWhere(qualified.version !== undefined ? 'j.version_arn = :origin' : 'j.alias_arn = :origin', { origin });
    const visibility = jobVisibilityFilter(ctx.viewer);
    if (visibility) qb.andWhere('j.started_by = :startedBy', { startedBy: visibility.startedBy });
    if (position) {
      const meta = ctx.db.connection.getMetadata(WorkflowJobEntity);
      const col = meta.findColumnWithPropertyName('startDate')!;
      const d = ctx.db.connection.driver.preparePersistentValue(new Date(position[0]), col);
      qb.andWhere('(j.start_date < :d OR (j.start_date = :d AND j.id < :id))', { d, id: position[1] });
    }
    const rows = await qb.orderBy('j.start_date', 'DESC').addOrderBy('j.id', 'DESC').limit(size + 1).getMany();
    const more = rows.length > size;
    const items = more ? rows.slice(0, size) : rows;
    const last = items[items.length - 1];
    return { items, nextToken: more ? encodePageToken(key, 'ListExecutions', filter, [last.startDate.getTime(), last.id]) : undefined };
  }

  /** A Map Run's children (ListExecutions with mapRunArn), in item order. */
  private async listChildren(ctx: RequestContext, args: ListJobsArgs & { mapRunArn: string }, size: number): Promise<ListPage<WorkflowJobEntity>> {
    const run = await findMapRun(ctx, args.mapRunArn);
    const key = await this.deps.tokenKeys.of(ctx);
    const filter = [args.mapRunArn, args.statusFilter ?? null, args.redriveFilter ?? null];
    const position =
      args.nextToken === undefined
        ? undefined
        : decodePageToken(key, args.nextToken, 'ListExecutions', filter, (p): p is [number] => p.length === 1 && Number.isSafeInteger(p[0]) && (p[0] as number) >= 0);
    const qb = ctx.db.getRepository(WorkflowJobEntity).createQueryBuilder('j').where('j.map_run_id = :run', { run: run.id });
    if (args.statusFilter) qb.andWhere('j.status = :status', { status: args.statusFilter });
    if (args.redriveFilter) qb.andWhere(args.redriveFilter === 'REDRIVEN' ? 'j.redrive_count > 0' : 'j.redrive_count = 0');
    if (position) qb.andWhere('j.item_index > :after', { after: position[0] });
    const rows = await qb.orderBy('j.item_index', 'ASC').limit(size + 1).getMany();
    const more = rows.length > size;
    const items = more ? rows.slice(0, size) : rows;
    return { items, nextToken: more ? encodePageToken(key, 'ListExecutions', filter, [items[items.length - 1].itemIndex ?? 0]) : undefined };
  }

  /** ListMapRuns: the Map Runs a job started, oldest first. */
  async listMapRuns(ctx: RequestContext, args: ListArgs & { executionArn: string }): Promise<ListPage<WorkflowMapRunEntity>> {
    requireWorkflowAccess(ctx, 'read');
    const size = listSize(args.maxResults);
    const key = await this.deps.tokenKeys.of(ctx);
    const position =
      args.nextToken === undefined
        ? undefined
        : decodePageToken(key, args.nextToken, 'ListMapRuns', [args.executionArn], (p): p is [number] => p.length === 1 && Number.isSafeInteger(p[0]) && (p[0] as number) > 0);
    const job = await this.findVisible(ctx, args.executionArn);
    const qb = ctx.db.getRepository(WorkflowMapRunEntity).createQueryBuilder('r').where('r.job_id = :job', { job: job.id });
    if (position) qb.andWhere('r.id > :id', { id: position[0] });
    const rows = await qb.orderBy('r.id', 'ASC').limit(size + 1).getMany();
    const more = rows.length > size;
    const items = more ? rows.slice(0, size) : rows;
    return { items, nextToken: more ? encodePageToken(key, 'ListMapRuns', [args.executionArn], [items[items.length - 1].id]) : undefined };
  }

  /**
   * The Map Runs of a job the caller read (so may see), oldest first, with Relay paging: the graph's `mapRuns`. A
   * first page comes from the request's loader (one statement for a page of jobs); pages after a cursor on their own.
   */
  async mapRunsPage(ctx: RequestContext, job: Pick<WorkflowJobEntity, 'id'>, args: PageArgs): Promise<Page<WorkflowMapRunEntity>> {
    requireWorkflowAccess(ctx, 'read');
    const { size, backward } = validatePageArgs(args, DEFAULT_PAGE_SIZE);
    if (backward || args.after || args.before) {
      const qb = ctx.db.getRepository(WorkflowMapRunEntity).createQueryBuilder('r').where('r.job_id = :job', { job: job.id });
      return keysetPage(qb, args, { property: 'id', direction: 'ASC' }, DEFAULT_PAGE_SIZE);
    }
    const rows = await ctx.loaders.workflowMapRunsFirst.load(`${job.id}:${size + 1}`);
    return {
      items: rows.slice(0, size),
      hasNextPage: rows.length > size,
      hasPreviousPage: false,
      cursorOf: (r) => encodeCursor(r.id, r.id),
      totalCount: () => ctx.loaders.workflowMapRunCount.load(job.id),
    };
  }

  /** The Map Run a child job (one the caller read) belongs to; null for a job that is no Map Run's child. */
  async mapRunOf(ctx: RequestContext, job: Pick<WorkflowJobEntity, 'mapRunId'>): Promise<WorkflowMapRunEntity | null> {
    requireWorkflowAccess(ctx, 'read');
    return job.mapRunId == null ? null : ctx.loaders.workflowMapRunById.load(job.mapRunId);
  }

  /**
   * DescribeExecution's redriveStatus and redriveStatusReason. A Map Run's child (`run`: its run) that ended without
   * success answers REDRIVABLE_BY_MAP_RUN while a redrive of its parent can still redrive the run: neither the run
   * nor the parent succeeded (a run whose failures were tolerated, or a parent that caught the run's failure, is
   * never redriven).
   */
  async redriveStatus(ctx: RequestContext, job: WorkflowJobEntity, run: WorkflowMapRunEntity | null): Promise<RedriveStatus> {
    requireWorkflowAccess(ctx, 'read');
    if (run === null) return redriveStatusOf(job);
    const own = childRedriveProblem(job);
    if (own) return { redriveStatus: 'NOT_REDRIVABLE', redriveStatusReason: own };
    if (run.status === 'SUCCEEDED') return { redriveStatus: 'NOT_REDRIVABLE', redriveStatusReason: 'Map Run is SUCCEEDED and cannot be redriven' };
    const [parent] = await queryRows<{ status: string }>(ctx.db, 'SELECT status FROM workflow_jobs WHERE id = ?', [run.jobId]);
    if (parent?.status === 'SUCCEEDED') return { redriveStatus: 'NOT_REDRIVABLE', redriveStatusReason: 'Parent execution is SUCCEEDED and cannot be redriven' };
    return { redriveStatus: 'REDRIVABLE_BY_MAP_RUN' };
  }

  /** DescribeMapRun: a run the viewer may see (its parent job's visibility). */
  async describeMapRun(ctx: RequestContext, arn: string): Promise<{ run: WorkflowMapRunEntity; executionArn: string }> {
    requireWorkflowAccess(ctx, 'read');
    const run = await findMapRun(ctx, arn);
    const job = await ctx.db.getRepository(WorkflowJobEntity).findOne({ where: { id: run.jobId }, select: { id: true, arn: true } });
    return { run, executionArn: job!.arn };
  }

  /**
   * UpdateMapRun: a running run's MaxConcurrency and tolerated failures change now (the parent decides with them in
   * its next step, woken here); an ended run -> ValidationException CANNOT_UPDATE_COMPLETED_MAP_RUN.
   */
  async updateMapRun(ctx: RequestContext, input: MapRunUpdate): Promise<void> {
    requireWorkflowAccess(ctx, 'write');
    checkMapRunUpdate(input);
    const jobId = await withTransaction(ctx, async (tx) => {
      const run = await findMapRun(tx, input.mapRunArn, true);
      if (run.status !== 'RUNNING') {
        throw new ValidationError(`Map Run is ${run.status} and cannot be updated: ${quoteInput(input.mapRunArn)}`, { domainCode: 'CANNOT_UPDATE_COMPLETED_MAP_RUN' });
      }
      const patch: Partial<WorkflowMapRunEntity> = {};
      if (input.maxConcurrency !== undefined) patch.maxConcurrency = input.maxConcurrency;
      if (input.toleratedFailureCount !== undefined) patch.toleratedFailureCount = input.toleratedFailureCount;
      if (input.toleratedFailurePercentage !== undefined) patch.toleratedFailurePercentage = input.toleratedFailurePercentage;
      await tx.db
        .getRepository(WorkflowMapRunEntity)
        .createQueryBuilder()
        .update()
        .set({ ...patch, version: () => 'version + 1' })
        .where('id = :id', { id: run.id })
        .execute();
      await tx.db.getRepository(WorkflowJobEntity).update({ id: run.jobId, status: 'RUNNING' }, { wakeAt: new Date() });
      return run.jobId;
    });
    this.notifyNews(ctx, jobId);
  }

  /** Hooks for the Map Run store (map-runs.ts): children to run, parents to wake, children aborted. */
  mapRunHooks(log: RequestContext['log']): MapRunHooks {
    return {
      childrenStarted: (jobs) => {
        this.stats.started += jobs.length;
        for (const j of jobs) {
          try {
            void Promise.resolve(this.hooks.onStarted?.(j.id, j)).catch((err) => log.error({ err, jobId: j.id }, 'workflow: onStarted hook failed'));
          } catch (err) {
            log.error({ err, jobId: j.id }, 'workflow: onStarted hook failed');
          }
        }
      },
      parentNews: (jobId) => this.notifyNews({ log } as RequestContext, jobId),
      childrenStopped: (ids) => {
        this.stats.aborted += ids.length;
        for (const id of ids) this.hooks.onStopped?.(id);
      },
    };
  }

  private notifyNews(ctx: Pick<RequestContext, 'log'>, jobId: number): void {
    try {
      this.hooks.onNews?.(jobId);
    } catch (err) {
      ctx.log.error({ err, jobId }, 'workflow: onNews hook failed');
    }
  }

  /**
   * Stop a running job: ABORTED with a stop date, the caller's error and cause, version + 1, and the event
   * ExecutionAborted after its last event, in one transaction on the locked row. A job that has ended ->
   * ValidationException. A DELETING definition whose last job this was goes now.
   */
  async stop(ctx: RequestContext, input: StopJobInput): Promise<WorkflowJobEntity> {
    requireWorkflowAccess(ctx, 'write');
    lengthCheck('error', input.error, MAX_ERROR_CHARS);
    lengthCheck('cause', input.cause, MAX_CAUSE_CHARS);
    // The row is read under a lock (PostgreSQL) or the write lock (SQLite), so the version check below does not
    // fail in practice; if it ever does (a runner wrote in between), the stop is simply taken again.
    let stopped: { job: WorkflowJobEntity; children: number[]; parent: number | null } | null = null;
    for (let attempt = 0; stopped === null; attempt++) {
      stopped = await this.stopInTransaction(ctx, input);
      if (stopped === null && attempt >= 4) throw new UnavailableError('The execution could not be stopped now; try again');
    }
    this.stats.aborted++;
    try {
      this.hooks.onStopped?.(stopped.job.id);
      for (const id of stopped.children) this.hooks.onStopped?.(id);
    } catch (e) {
      ctx.log.error({ err: e, jobId: stopped.job.id }, 'workflow: onStopped hook failed');
    }
    if (stopped.parent !== null) this.notifyNews(ctx, stopped.parent);
    return stopped.job;
  }

  /** The stopped job, or null when a runner's write came in between (the caller tries again). */
  private stopInTransaction(ctx: RequestContext, input: StopJobInput): Promise<{ job: WorkflowJobEntity; children: number[]; parent: number | null } | null> {
    return withTransaction(ctx, async (tx) => {
      const job = await this.findVisible(tx, input.executionArn, true);
      if (job.status !== 'RUNNING') {
        throw new ValidationError(`Execution is not running: ${quoteInput(input.executionArn)} (status ${job.status})`, {
          domainCode: WORKFLOW_CODES.EXECUTION_NOT_RUNNING,
        });
      }
      const now = new Date();
      const patch = {
        status: 'ABORTED' as const,
        stopDate: now,
        error: input.error ?? null,
        cause: input.cause ?? null,
        version: job.version + 1,
        leaseOwner: null,
        leaseUntil: null,
        wakeAt: null,
      };
      // Conditional on the version read under the lock: a runner's write in between cannot be overwritten.
      const res = await tx.db.getRepository(WorkflowJobEntity).update({ id: job.id, version: job.version, status: 'RUNNING' }, patch);
      if (res.affected === 0) return null;
      const last = await lastJobEventId(tx.db, job.id);
      const details: Record<string, string> = {};
      if (input.error !== undefined) details.error = input.error;
      if (input.cause !== undefined) details.cause = input.cause;
      await insertJobEvent(tx.db, {
        jobId: job.id,
        eventId: last + 1,
        // Step Functions answers 0 here: the abort follows no event of the job's own flow.
        previousEventId: 0,
        type: 'ExecutionAborted',
        timestamp: now,
        details: JSON.stringify({ executionAbortedEventDetails: details }),
      });
      // Its activity and callback tasks end with it (their tokens answer TaskTimedOut).
      await closeOpenTasks(tx.db, job.id);
      // Its Map Runs end with it (children aborted); a Map Run child's end counts in its run, its parent looks.
      const children = await abortRunsOfJob(tx.db, job.id, now);
      const parent = await childEnded(tx.db, job, 'ABORTED');
      await finishDeletion(tx.db, job.definitionId);
      return { job: Object.assign(job, patch), children, parent };
    });
  }

  /**
   * RedriveExecution: a FAILED, TIMED_OUT or ABORTED job (ended within 14 days, history under 24,999 events) runs
   * again from the states that did not succeed (engine/redrive.ts): RUNNING, redriveCount + 1, ExecutionRedriven in
   * its history, in one transaction conditional on the version read. A repeated clientToken answers the same redrive.
   */
  async redrive(ctx: RequestContext, input: { executionArn: string; clientToken?: string }): Promise<WorkflowJobEntity> {
    requireWorkflowAccess(ctx, 'write');
    if (input.clientToken !== undefined && !/^[!-~]{1,64}$/.test(input.clientToken)) {
      throw new ValidationError("1 validation error detected: Value at 'clientToken' failed to satisfy constraint: Member must have length between 1 and 64 and be printable ASCII");
    }
    const result = await withTransaction(ctx, async (tx) => {
      const job = await this.findVisible(tx, input.executionArn, true);
      // A Map Run's child is redriven by its run (its counts and the parent's decision depend on it), never alone.
      if (job.mapRunId != null) throw await mapRunChildNotRedrivable(tx.db, job.mapRunId);
      const cp = job.checkpoint ? decodeCheckpoint(job.checkpoint) : null;
      if (input.clientToken !== undefined && job.status === 'RUNNING' && cp?.rt === input.clientToken && job.redriveDate && Date.now() - job.redriveDate.getTime() < REDRIVE_TOKEN_MS) {
        return { job, redriven: false };
      }
      const lastId = await lastJobEventId(tx.db, job.id);
      const why = redriveProblem(job, cp, lastId);
      if (why) throw new ConflictError(`Execution Not Redrivable: ${why}`, { domainCode: WORKFLOW_CODES.EXECUTION_NOT_REDRIVABLE });
      await requireOpenJobSlot(tx.db, ctx.config.workflowMaxOpenJobs);
      const now = new Date();
      const count = job.redriveCount + 1;
      const { checkpoint, eventId } = redriveCheckpoint(job.definitionText, cp!, { now, redriveCount: count, nextEventId: lastId + 1 });
      if (input.clientToken !== undefined) checkpoint.rt = input.clientToken;
      const patch = redrivenJobPatch(job, checkpoint, now, count);
      const res = await tx.db.getRepository(WorkflowJobEntity).update({ id: job.id, version: job.version, status: job.status }, patch);
      if (res.affected === 0) throw new UnavailableError('The execution changed while it was being redriven; try again');
      await insertJobEvent(tx.db, {
        jobId: job.id,
        eventId,
        previousEventId: lastId,
        type: 'ExecutionRedriven',
        timestamp: now,
        details: JSON.stringify({ executionRedrivenEventDetails: { redriveCount: count } }),
      });
      return { job: Object.assign(job, patch), redriven: true };
    });
    if (result.redriven) this.stats.redriven++;
    if (result.redriven && this.hooks.onStarted) {
      try {
        await this.hooks.onStarted(result.job.id, result.job);
      } catch (e) {
        ctx.log.error({ err: e, jobId: result.job.id }, 'workflow: onStarted hook failed');
      }
    }
    return result.job;
  }

  /** The history of a job the viewer may see, in event order (or reversed), `maxResults` at a time. */
  async history(ctx: RequestContext, args: HistoryArgs): Promise<ListPage<JobEvent>> {
    requireWorkflowAccess(ctx, 'read');
    const size = listSize(args.maxResults);
    const reverse = args.reverseOrder === true;
    const key = await this.deps.tokenKeys.of(ctx);
    const filter = [args.executionArn, reverse, args.includeExecutionData !== false];
    const position =
      args.nextToken === undefined
        ? undefined
        : decodePageToken(key, args.nextToken, 'GetExecutionHistory', filter, (p): p is [number] =>
            p.length === 1 && Number.isSafeInteger(p[0]) && (p[0] as number) >= 0 && (p[0] as number) <= 2_147_483_647,
          );
    const job = await this.findVisible(ctx, args.executionArn);
    const page = await this.historyRows(ctx, job.id, size, reverse, position?.[0]);
    const more = page.more;
    const withData = args.includeExecutionData !== false;
    const items = page.rows.map((r) => ({
      id: r.eventId,
      previousEventId: r.previousEventId,
      type: r.type,
      timestamp: r.timestamp,
      details: withData ? parseDetails(r.details) : withoutData(parseDetails(r.details)),
    }));
    return { items, nextToken: more ? encodePageToken(key, 'GetExecutionHistory', filter, [page.rows[page.rows.length - 1].eventId]) : undefined };
  }

  /**
   * At most `size` events after `after` that fit the page's byte budget (WORKFLOW_HISTORY_PAGE_BYTES; at least one
   * event): the sizes are read first, so events past the budget are never loaded. `more`: events remain.
   */
  private async historyRows(ctx: RequestContext, jobId: number, size: number, reverse: boolean, after: number | undefined): Promise<{ rows: WorkflowJobEventEntity[]; more: boolean }> {
    const cmp = reverse ? '<' : '>';
    const sizes = await queryRows<{ event_id: number | string; n: number | string | null }>(
      ctx.db,
      `SELECT event_id, LENGTH(details) AS n FROM workflow_job_events WHERE job_id = ?${after === undefined ? '' : ` AND event_id ${cmp} ?`} ORDER BY event_id ${reverse ? 'DESC' : 'ASC'} LIMIT ?`,
      after === undefined ? [jobId, size + 1] : [jobId, after, size + 1],
    );
    const budget = ctx.config.workflowHistoryPageBytes;
    let take = 0;
    let bytes = 0;
    while (take < sizes.length && take < size) {
      bytes += Number(sizes[take].n ?? 0) + 100; // the event's own fields (id, type, timestamp) as answered
      if (take > 0 && bytes > budget) break;
      take++;
    }
    if (take === 0) return { rows: [], more: false };
    const ids = [Number(sizes[0].event_id), Number(sizes[take - 1].event_id)];
    const rows = await ctx.db
      .getRepository(WorkflowJobEventEntity)
      .createQueryBuilder('e')
      .where('e.job_id = :id AND e.event_id BETWEEN :lo AND :hi', { id: jobId, lo: Math.min(...ids), hi: Math.max(...ids) })
      .orderBy('e.event_id', reverse ? 'DESC' : 'ASC')
      .getMany();
    return { rows, more: take < sizes.length };
  }

  /**
   * DescribeStateMachineForExecution: the definition the job runs (its snapshot), under the ARN it was started
   * from when that was a version (directly or through an alias), else the definition's.
   */
  async definitionFor(ctx: RequestContext, executionArn: string) {
    requireWorkflowAccess(ctx, 'read');
    const job = await this.findVisible(ctx, executionArn);
    const parsed = parseJobArn(ctx.config, job.arn)!;
    return {
      loggingConfiguration: await revisionLogging(ctx.db, job),
      stateMachineArn: job.versionArn ?? definitionArn(ctx.config, parsed.definitionName),
      name: parsed.definitionName,
      definition: job.definitionText,
      roleArn: job.roleArn ?? '',
      // Jobs started before revisions were recorded: their start is the latest the text can be from.
      updateDate: job.revisionDate ?? job.startDate,
      revisionId: job.revisionId ?? undefined,
      variableReferences: definitionVariableReferences(job.definitionText),
    };
  }

  /** The definition ARN of a job (derived from the job's ARN). */
  definitionArnOf(ctx: RequestContext, job: Pick<WorkflowJobEntity, 'arn'>): string {
    const parsed = parseJobArn(ctx.config, job.arn);
    return parsed ? definitionArn(ctx.config, parsed.definitionName) : '';
  }
}

/**
 * Step Functions' quota of open executions (1,000,000 per account and region; WORKFLOW_MAX_OPEN_JOBS here): a start or
 * a redrive past it answers ExecutionLimitExceeded. The number open is the sum of the kept counts (workflow_open_jobs,
 * written by triggers atomically with every job's status change): 16 rows whatever the number of jobs, where a count
 * of the running jobs grows with them. It sees committed changes: two starts racing at the last slot may both pass,
 * as Step Functions' quota is not exact either.
 */
async function requireOpenJobSlot(db: EntityManager, max: number): Promise<void> {
  const [row] = await queryRows<{ n: number | string | null }>(db, 'SELECT SUM(jobs) AS n FROM workflow_open_jobs', []);
  requireOpenJobSlotOf(Number(row?.n ?? 0), max);
}

function requireOpenJobSlotOf(open: number, max: number): void {
  if (open >= max) {
    throw new ConflictError(`Execution Limit Exceeded: ${max} executions are open (running); they must end or be stopped first`, { domainCode: WORKFLOW_CODES.EXECUTION_LIMIT_EXCEEDED });
  }
}

/**
 * The stored loggingConfiguration of the revision a job runs (a Map Run's child: its parent's): its version's, or
 * the definition's while that is still the job's revision; undefined when that revision is gone (jobs keep no copy).
 */
async function revisionLogging(db: EntityManager, job: WorkflowJobEntity): Promise<string | null | undefined> {
  let from: { versionArn: string | null; revisionId: string | null } = job;
  if (job.mapRunId != null) {
    const [p] = await queryRows<{ version_arn: string | null; revision_id: string | null }>(
      db,
      'SELECT j.version_arn, j.revision_id FROM workflow_map_runs r JOIN workflow_jobs j ON j.id = r.job_id WHERE r.id = ?',
      [job.mapRunId],
    );
    if (!p) return undefined;
    from = { versionArn: p.version_arn, revisionId: p.revision_id };
  }
  if (from.versionArn) {
    const [v] = await queryRows<{ logging_configuration: string | null }>(db, 'SELECT logging_configuration FROM workflow_definition_versions WHERE arn = ?', [from.versionArn]);
    return v ? v.logging_configuration : undefined;
  }
  const [d] = await queryRows<{ logging_configuration: string | null; revision_id: string }>(
    db,
    'SELECT logging_configuration, revision_id FROM workflow_definitions WHERE id = ?',
    [job.definitionId],
  );
  return d && from.revisionId !== null && d.revision_id === from.revisionId ? d.logging_configuration : undefined;
}

/**
 * A start's definition by name (FOR KEY SHARE on PostgreSQL, see startAny) and the count of open jobs, in one fixed
 * statement: the start's first two reads, on every StartExecution (TypeORM's findOne built its query each time).
 */
const START_SQL = new WeakMap<object, string>();
async function definitionToStart(db: EntityManager, name: string): Promise<{ def: WorkflowDefinitionEntity | null; openJobs: number }> {
  const d = entityColumns(db, WorkflowDefinitionEntity, 'd', 'd_');
  let sql = START_SQL.get(d);
  if (sql === undefined) {
    sql = `SELECT ${d.select}, (SELECT SUM(jobs) FROM workflow_open_jobs) AS open_jobs FROM workflow_definitions d WHERE d.name = ?${isPostgres(db) ? ' FOR KEY SHARE OF d' : ''}`;
    START_SQL.set(d, sql);
  }
  const rows = await queryRows<Record<string, unknown>>(db, sql, [name]);
  if (!rows.length) {
    // no definition of that name: the count decides nothing
    return { def: null, openJobs: 0 };
  }
  return { def: d.hydrate(rows[0]), openJobs: Number(rows[0].open_jobs ?? 0) };
}

/** Step Functions: a job can be redriven within 14 days of its end, with fewer than 24,999 history events. */
export const REDRIVE_PERIOD_MS = 14 * 24 * 3600 * 1000;
export const REDRIVE_MAX_EVENTS = 24_999;
/** A Standard execution is open one year at most, redrives included. */
const MAX_OPEN_MS = 365 * 24 * 3600 * 1000;
/** A repeated RedriveExecution clientToken answers the same redrive for 15 minutes. */
const REDRIVE_TOKEN_MS = 15 * 60 * 1000;

/** Why the job cannot be redriven now (Step Functions' redriveStatusReason), or null. */
export function redriveProblem(job: WorkflowJobEntity, cp: Checkpoint | null, lastEventId: number, now = Date.now()): string | null {
  if (job.status === 'RUNNING' || job.status === 'SUCCEEDED') return `Execution is ${job.status} and cannot be redriven`;
  if (job.stopDate && now - job.stopDate.getTime() > REDRIVE_PERIOD_MS) return 'Execution redrivable period exceeded';
  if (lastEventId >= REDRIVE_MAX_EVENTS) return 'Execution history event limit exceeded';
  if (now - job.startDate.getTime() > MAX_OPEN_MS) return 'Execution maximum open time of one year exceeded';
  if (!redrivable(cp, job.status)) return 'Execution cannot be resumed from where it ended';
  return null;
}

export interface RedriveStatus {
  redriveStatus: 'REDRIVABLE' | 'NOT_REDRIVABLE' | 'REDRIVABLE_BY_MAP_RUN';
  redriveStatusReason?: string;
}

/**
 * Why a Map Run's child could not be redriven by its run, or null. Its run redrives it from its start when its
 * checkpoint cannot be resumed, so only its status and the redrivable period count.
 */
function childRedriveProblem(job: WorkflowJobEntity, now = Date.now()): string | null {
  if (job.status === 'RUNNING' || job.status === 'SUCCEEDED') return `Execution is ${job.status} and cannot be redriven`;
  if (job.stopDate && now - job.stopDate.getTime() > REDRIVE_PERIOD_MS) return 'Execution redrivable period exceeded';
  return null;
}

/** RedriveExecution of a Map Run's child: ExecutionNotRedrivable naming the parent execution to redrive instead. */
async function mapRunChildNotRedrivable(db: EntityManager, mapRunId: number): Promise<ConflictError> {
  const [row] = await queryRows<{ run_arn: string; job_arn: string }>(
    db,
    'SELECT r.arn AS run_arn, j.arn AS job_arn FROM workflow_map_runs r JOIN workflow_jobs j ON j.id = r.job_id WHERE r.id = ?',
    [mapRunId],
  );
  const where = row ? ` of Map Run ${row.run_arn}; redrive its parent execution ${row.job_arn}, which redrives the Map Run` : '; redrive its parent execution';
  return new ConflictError(`Execution Not Redrivable: Execution is a child execution${where}`, { domainCode: WORKFLOW_CODES.EXECUTION_NOT_REDRIVABLE });
}

/** DescribeExecution's redriveStatus and redriveStatusReason of a job that is no Map Run's child (read from its stored checkpoint). */
function redriveStatusOf(job: WorkflowJobEntity): RedriveStatus {
  let cp: Checkpoint | null = null;
  if (job.status !== 'RUNNING' && job.status !== 'SUCCEEDED' && job.checkpoint) {
    try {
      cp = decodeCheckpoint(job.checkpoint);
    } catch {
      cp = null;
    }
  }
  // The history bound is checked when redriving (one more statement here for every describe would be wasted).
  const why = redriveProblem(job, cp, 0);
  return why ? { redriveStatus: 'NOT_REDRIVABLE', redriveStatusReason: why } : { redriveStatus: 'REDRIVABLE' };
}

/** The definition name of a definition ARN: InvalidArn when malformed; another region's or account's names nothing. */
function parseDefinitionName(ctx: RequestContext, arn: string): string {
  const name = parseDefinitionArn(ctx.config, arn);
  if (name === null) throw stateMachineDoesNotExist(arn);
  return name;
}

function parseDetails(text: string): Record<string, unknown> {
  try {
    const v: unknown = JSON.parse(text);
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** includeExecutionData=false: the details without the input and output they carry. */
function withoutData(details: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(details)) {
    if (v && typeof v === 'object' && !Array.isArray(v)) {
      const { input: _i, output: _o, ...rest } = v as Record<string, unknown>;
      out[k] = rest;
    } else out[k] = v;
  }
  return out;
}
