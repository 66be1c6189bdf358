/**
 * Express executions (EXPRESS state machines): StartSyncExecution answers the execution's end; StartExecution of an
 * EXPRESS machine starts one that runs on its own. Both are driven by the engine (./engine `advance`, the same
 * states as a job's), in this process and in memory, from start to end:
 *
 * - Nothing is stored. Step Functions keeps no history of Express executions (only CloudWatch Logs have one), and
 *   DescribeExecution, GetExecutionHistory, StopExecution, RedriveExecution and DescribeStateMachineForExecution
 *   refuse their `…:express:…` ARNs (arn.ts); ListExecutions refuses EXPRESS machines. So each step's events are
 *   dropped once taken, and memory holds one checkpoint per running execution.
 * - Bounded: an execution runs WORKFLOW_EXPRESS_MAX_SECONDS at most (Step Functions' five minutes; a smaller top-level
 *   TimeoutSeconds wins), then it is TIMED_OUT with States.Timeout; at most WORKFLOW_EXPRESS_MAX_RUNNING run at once
 *   (more starts answer ThrottlingException). The engine's other bounds hold as for jobs (256 KiB per state, 25,000
 *   events in one step). Standard's history quota (25,000 events per execution) and WORKFLOW_JOB_HISTORY_BYTES do
 *   not apply: no history is kept, as in Step Functions, where an Express execution may take any number of
 *   transitions within its five minutes.
 * - A synchronous execution ends with its request: a client that goes away aborts it. Asynchronous ones live in the
 *   process that started them: closing the app aborts them, and a crash loses them (Step Functions re-runs a lost
 *   asynchronous Express execution, at least once; here it is at most once).
 * - Tasks run as the starter with the credential that started the execution, looked up again for every task, as a
 *   job's tasks do (job-credential.ts). Activities, `.sync`, `.waitForTaskToken` and Distributed Maps are refused
 *   when an EXPRESS definition is written (definition-check.ts), as Step Functions refuses them.
 */
import { randomUUID } from 'node:crypto';
import { WorkflowDefinitionEntity } from '../../../entities/workflow';
import type { RequestContext } from '../../context';
import { contextOfApp } from '../../context';
import { ConflictError, quoteInput, RateLimitedError, UnavailableError, ValidationError } from '../../errors/app-error';
import { requireWorkflowAccess } from './access';
import { definitionArn, expressJobArn, parseQualifiedDefinitionArn, requireValidName } from './arn';
import { advance, Checkpoint, encodeCheckpoint, initialCheckpoint, Json, RunTask } from './engine';
import { WORKFLOW_CODES } from './error-codes';
import { describeStartedCredential, taskViewer } from './job-credential';
import { checkJobInput, lengthCheck, MAX_TRACE_HEADER } from './jobs.service';
import { stateMachineDoesNotExist } from './lists';
import type { WorkflowTaskService } from './runner/tasks';
import type { StartTarget, WorkflowVersionService } from './versions.service';

export interface StartSyncInput {
  stateMachineArn: string;
  name?: string;
  input?: string;
  traceHeader?: string;
  /** METADATA_ONLY: the answer leaves the input and output out. */
  includedData?: string;
}

/** What StartSyncExecution answers (HTTP 200 whatever the status). */
export interface ExpressResult {
  executionArn: string;
  stateMachineArn: string;
  name: string;
  startDate: Date;
  stopDate: Date;
  status: 'SUCCEEDED' | 'FAILED' | 'TIMED_OUT';
  input?: string;
  output?: string;
  error?: string;
  cause?: string;
  traceHeader?: string;
  /** Step Functions bills Express by 100 ms of duration and 64 MB of memory. */
  billingDetails: { billedMemoryUsedInMB: number; billedDurationInMilliseconds: number };
  includedData: boolean;
}

/** One execution to run: the definition (and the version an alias or version ARN chose) and the checked request. */
export interface ExpressStart {
  def: WorkflowDefinitionEntity;
  target: StartTarget;
  /** The ARN the caller gave (the definition's, a version's or an alias's). */
  stateMachineArn: string;
  name?: string;
  /** Checked JSON text. */
  input: string;
  traceHeader?: string;
}

/** Express executions of this instance (/metrics: workflow_express_executions_total). */
export interface ExpressStats {
  started: number;
  succeeded: number;
  failed: number;
  timed_out: number;
  aborted: number;
}

export const BILLED_MS_STEP = 100;
export const BILLED_MB_STEP = 64;

export class WorkflowExpressService {
  readonly stats: ExpressStats = { started: 0, succeeded: 0, failed: 0, timed_out: 0, aborted: 0 };
  /** Running executions (their abort controllers): the bound, and what close() aborts. */
  private readonly running = new Set<AbortController>();
  private readonly ends = new Set<Promise<unknown>>();
  private closed = false;

  /** Starts resolve versions and aliases; tasks run through the workflow module's task service. */
  constructor(
    private readonly deps: {
      versions: WorkflowVersionService;
      tasks: WorkflowTaskService;
    },
  ) {}

  /** How many run now (metrics, tests). */
  get runningCount(): number {
    return this.running.size;
  }

  /**
   * StartSyncExecution: run an execution of an EXPRESS machine to its end within the request. A STANDARD machine ->
   * StateMachineTypeNotSupported. The request's client going away aborts the execution.
   */
  async startSync(ctx: RequestContext, input: StartSyncInput): Promise<ExpressResult> {
    requireWorkflowAccess(ctx, 'write');
    const qualified = parseQualifiedDefinitionArn(ctx.config, input.stateMachineArn);
    if (qualified === null) throw stateMachineDoesNotExist(input.stateMachineArn);
    const name = input.name === undefined ? undefined : requireValidName(input.name);
    const text = checkJobInput(input.input);
    lengthCheck('traceHeader', input.traceHeader, MAX_TRACE_HEADER);
    if (input.includedData !== undefined && input.includedData !== 'ALL_DATA' && input.includedData !== 'METADATA_ONLY') {
      throw new ValidationError(
        `1 validation error detected: Value ${quoteInput(input.includedData)} at 'includedData' failed to satisfy constraint: Member must satisfy enum value set: [ALL_DATA, METADATA_ONLY]`,
      );
    }
    const def = await ctx.db.getRepository(WorkflowDefinitionEntity).findOne({ where: { name: qualified.name } });
    if (!def) throw stateMachineDoesNotExist(input.stateMachineArn);
    if (def.status === 'DELETING') {
      throw new ConflictError(`State Machine is being deleted: ${quoteInput(input.stateMachineArn)}`, { domainCode: WORKFLOW_CODES.STATE_MACHINE_DELETING });
    }
    if (def.type !== 'EXPRESS') {
      throw new ValidationError(`StartSyncExecution runs EXPRESS state machines only; ${quoteInput(input.stateMachineArn)} is of type ${def.type}`, {
        domainCode: WORKFLOW_CODES.STATE_MACHINE_TYPE_NOT_SUPPORTED,
      });
    }
    const target = await this.deps.versions.startTarget(ctx.db, def, input.stateMachineArn, qualified);
    const run = this.begin(ctx, { def, target, stateMachineArn: input.stateMachineArn, name, input: text, traceHeader: input.traceHeader }, ctx.request?.signal);
    const result = await run.done;
    return { ...result, includedData: input.includedData !== 'METADATA_ONLY' };
  }

  /**
   * StartExecution of an EXPRESS machine (jobs.service.ts hands it here once the machine and target are read): the
   * execution runs on its own; its ARN and start date now. Like Step Functions, a name may be used again at once.
   */
  startAsync(ctx: RequestContext, start: ExpressStart): { executionArn: string; startDate: Date } {
    const run = this.begin(ctx, start);
    const end = run.done.catch((err) => ctx.log.error({ err, arn: run.executionArn }, 'workflow: an Express execution failed unexpectedly'));
    this.ends.add(end);
    void end.finally(() => this.ends.delete(end));
    return { executionArn: run.executionArn, startDate: run.startDate };
  }

  /** Abort every running execution (the app is closing) and wait for them to let go. */
  async close(): Promise<void> {
    this.closed = true;
    for (const c of this.running) c.abort(new Error('the gateway is closing'));
    await Promise.allSettled([...this.ends]);
  }

  private begin(ctx: RequestContext, start: ExpressStart, clientGone?: AbortSignal): { executionArn: string; startDate: Date; done: Promise<Omit<ExpressResult, 'includedData'>> } {
    if (this.closed) throw new UnavailableError('The gateway is closing; start the execution again');
    if (this.running.size >= ctx.config.workflowExpressMaxRunning) {
      throw new RateLimitedError(`Rate exceeded: ${ctx.config.workflowExpressMaxRunning} Express executions are running; try again shortly`);
    }
    const userId = requireWorkflowAccess(ctx, 'write');
    const name = start.name ?? randomUUID();
    const executionArn = expressJobArn(ctx.config, start.def.name, name, randomUUID());
    const startDate = new Date();
    const abort = new AbortController();
    this.running.add(abort);
    this.stats.started++;
    const onGone = () => abort.abort(new Error('the client went away'));
    clientGone?.addEventListener('abort', onGone, { once: true });
    const done = this.drive(ctx, start, { executionArn, name, startDate, userId, signal: abort.signal }).finally(() => {
      clientGone?.removeEventListener('abort', onGone);
      this.running.delete(abort);
    });
    return { executionArn, startDate, done };
  }

  private async drive(
    ctx: RequestContext,
    start: ExpressStart,
    run: { executionArn: string; name: string; startDate: Date; userId: number; signal: AbortSignal },
  ): Promise<Omit<ExpressResult, 'includedData'>> {
    const { executionArn, name, startDate, signal } = run;
    const text = start.target.definition;
    const stateMachineArn = definitionArn(ctx.config, start.def.name);
    // Tasks act as the starter, with the credential that started the execution, checked again for every task.
    const starter = { id: 0, startedBy: run.userId, startedCredential: describeStartedCredential(ctx.viewer) };
    const runTask: RunTask = (t) =>
      this.deps.tasks.run(t.resource, async () => ({
        ctx: contextOfApp(ctx, `express-${name}`, await taskViewer(ctx.dataSource.manager, starter)),
        input: t.input,
        attemptKey: `${executionArn}:${t.attemptKey}`,
        signal: t.signal,
      }));
    let checkpoint: Checkpoint = initialCheckpoint(
      text,
      JSON.parse(start.input) as Json,
      { executionArn, executionName: name, startTime: startDate.toISOString(), roleArn: start.target.roleArn, stateMachineArn, stateMachineName: start.def.name },
      startDate,
    );
    // Express' own limit: the execution ends by then (a smaller TimeoutSeconds of the definition ends it sooner).
    const limit = startDate.getTime() + ctx.config.workflowExpressMaxSeconds * 1000;
    if (checkpoint.dl === null || Date.parse(checkpoint.dl) > limit) checkpoint = { ...checkpoint, dl: new Date(limit).toISOString() };
    let peakBytes = Buffer.byteLength(start.input);
    let lastYield = performance.now();
    for (;;) {
      if (signal.aborted) return this.aborted(signal);
      // Transitions that never wait must still let requests and other executions in.
      if (performance.now() - lastYield > 10) {
        await new Promise<void>((r) => setImmediate(r));
        lastYield = performance.now();
      }
      const adv = await advance(text, checkpoint, {
        now: () => new Date(),
        runTask,
        signal,
        // No history is kept, so Standard's quota of 25,000 events (and the stored-bytes bound) does not apply: the
        // execution's duration bounds it, and the engine still bounds what one step holds.
        maxHistoryEvents: Infinity,
        pause: () => new Promise<void>((r) => setImmediate(r)),
      });
      if (signal.aborted) return this.aborted(signal);
      // The events of the step are dropped: Express executions keep no history.
      checkpoint = adv.checkpoint;
      if (adv.status !== 'RUNNING') {
        const stopDate = new Date();
        peakBytes = Math.max(peakBytes, Buffer.byteLength(adv.output ?? ''));
        if (adv.status === 'SUCCEEDED') this.stats.succeeded++;
        else if (adv.status === 'TIMED_OUT') this.stats.timed_out++;
        else this.stats.failed++;
        const ms = Math.max(1, stopDate.getTime() - startDate.getTime());
        return {
          executionArn,
          stateMachineArn,
          name,
          startDate,
          stopDate,
          status: adv.status as ExpressResult['status'],
          input: start.input,
          ...(adv.status === 'SUCCEEDED' ? { output: adv.output ?? 'null' } : {}),
          ...(adv.error !== undefined ? { error: adv.error } : {}),
          ...(adv.cause !== undefined ? { cause: adv.cause } : {}),
          ...(start.traceHeader !== undefined ? { traceHeader: start.traceHeader } : {}),
          billingDetails: {
            billedDurationInMilliseconds: Math.ceil(ms / BILLED_MS_STEP) * BILLED_MS_STEP,
            billedMemoryUsedInMB: Math.max(1, Math.ceil(peakBytes / (BILLED_MB_STEP * 1_048_576))) * BILLED_MB_STEP,
          },
        };
      }
      // What the execution holds between steps (its data and variables): the billed memory's measure.
      if (adv.wakeAt !== null) peakBytes = Math.max(peakBytes, encodeCheckpoint(checkpoint).length);
      if (adv.wakeAt !== null) await sleepUntil(Date.parse(adv.wakeAt), signal);
    }
  }

  private aborted(signal: AbortSignal): never {
    this.stats.aborted++;
    const why = signal.reason instanceof Error ? signal.reason.message : 'aborted';
    throw new UnavailableError(`The Express execution was aborted: ${why}`);
  }
}

/** Wait until `at` (epoch ms) or the abort, whichever comes first. */
function sleepUntil(at: number, signal: AbortSignal): Promise<void> {
  const ms = at - Date.now();
  if (ms <= 0 || signal.aborted) return Promise.resolve();
  return new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}
