/**
 * Express executions (EXPRESS state machines): StartSyncExecution answers the execution's end; StartExecution of an
 * EXPRESS machine starts one that runs on its own. Both are driven by the engine (./engine `advance`, the same
 * states as a job's), in this process and in memory, from start to end:
 *
 * - No history or status is stored. Step Functions keeps no history of Express executions (only CloudWatch Logs have
 *   one), and DescribeExecution, GetExecutionHistory, StopExecution, RedriveExecution and
 *   DescribeStateMachineForExecution refuse their `…:express:…` ARNs (arn.ts); ListExecutions refuses EXPRESS
 *   machines. So each step's events are dropped once taken, and memory holds one checkpoint per running execution.
 * - Bounded: an execution runs WORKFLOW_EXPRESS_MAX_SECONDS at most (Step Functions' five minutes; a smaller top-level
 *   TimeoutSeconds wins), then it is TIMED_OUT with States.Timeout; at most WORKFLOW_EXPRESS_MAX_RUNNING run at once
 *   (more starts answer ThrottlingException). The engine's other bounds hold as for jobs (256 KiB per state, 25,000
 *   events in one step). Standard's history quota (25,000 events per execution) and WORKFLOW_JOB_HISTORY_BYTES do
 *   not apply: no history is kept, as in Step Functions, where an Express execution may take any number of
 *   transitions within its five minutes.
 * - A synchronous execution ends with its request: a client that goes away aborts it, a process that dies loses it
 *   (at most once, as Step Functions runs synchronous Express). An asynchronous one runs at least once, as in Step
 *   Functions: it is recorded (workflow_express_runs: its text, input and starter) before StartExecution answers,
 *   under a lease its process renews, and deleted when it ends; one whose process died (lease run out) or closed
 *   (lease released) is run again from its start by another process or the next start, with the same ARN.
 * - Tasks run as the starter with the credential that started the execution, looked up again for every task, as a
 *   job's tasks do (job-credential.ts). Activities, `.sync`, `.waitForTaskToken` and Distributed Maps are refused
 *   when an EXPRESS definition is written (definition-check.ts), as Step Functions refuses them.
 */
import { setMaxListeners } from 'node:events';
import { randomUUID } from 'node:crypto';
import { IsNull, LessThan, type DataSource } from 'typeorm';
import { WorkflowDefinitionEntity, WorkflowExpressRunEntity } from '../../../entities/workflow';
import type { AppConfig } from '../../config';
import type { AppDeps, AppLogger, RequestContext } from '../../context';
import { contextFor, contextOfApp } from '../../context';
import type { Viewer } from '../../auth/viewer';
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
  /** asynchronous executions run again here after the process running them died */
  recovered: number;
}

export const BILLED_MS_STEP = 100;
export const BILLED_MB_STEP = 64;

/** One execution to drive: everything it runs from, whether just started or run again after its process died. */
interface ExpressRun {
  executionArn: string;
  name: string;
  startDate: Date;
  definitionName: string;
  text: string;
  roleArn: string;
  input: string;
  traceHeader?: string;
  startedBy: number;
  startedCredential: string | null;
}

export class WorkflowExpressService {
  readonly stats: ExpressStats = { started: 0, succeeded: 0, failed: 0, timed_out: 0, aborted: 0, recovered: 0 };
  /** Running executions (their abort controllers): the bound, and what close() aborts. */
  private readonly running = new Set<AbortController>();
  private readonly ends = new Set<Promise<unknown>>();
  private closed = false;
  /** This process's name on the leases of the asynchronous executions it runs. */
  private readonly owner = `express-${randomUUID()}`;
  private app?: Env;
  private sweep?: NodeJS.Timeout;
  private sweeping?: Promise<void>;

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
   * The app started: asynchronous executions whose process died (their lease ran out) are run again from their
   * start, now and every lease period, as many as there is room for (at least once, as Step Functions runs them).
   */
  start(deps: AppDeps): void {
    this.app = { dataSource: deps.dataSource, config: deps.config, log: deps.log, context: (id, viewer) => contextFor(deps, id, viewer) };
    const every = Math.max(250, Math.floor(deps.config.workflowLeaseMs / 2));
    this.sweep = setInterval(() => void this.recoverNow(), every);
    this.sweep.unref();
    void this.recoverNow();
  }

  /** One look for asynchronous executions to run again (also what the timer does); resolves when it is done. */
  recoverNow(): Promise<void> {
    this.sweeping ??= this.recover()
      .catch((err) => this.app?.log.warn({ err: { message: (err as Error)?.message } }, 'workflow: looking for Express executions to run again failed'))
      .finally(() => (this.sweeping = undefined));
    return this.sweeping;
  }

  /**
   * StartSyncExecution: run an execution of an EXPRESS machine to its end within the request. A STANDARD machine ->
   * StateMachineTypeNotSupported. The request's client going away aborts the execution. Nothing is stored: a
   * process that dies takes it along (Step Functions runs synchronous Express executions at most once).
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
    const run = this.newRun(ctx, { def, target, stateMachineArn: input.stateMachineArn, name, input: text, traceHeader: input.traceHeader });
    const result = await this.begin(envOf(ctx), run, { clientGone: ctx.request?.signal });
    return { ...result, includedData: input.includedData !== 'METADATA_ONLY' };
  }

  /**
   * StartExecution of an EXPRESS machine (jobs.service.ts hands it here once the machine and target are read): the
   * execution runs on its own; its ARN and start date now. Like Step Functions, a name may be used again at once.
   * It is recorded (workflow_express_runs) before the answer and until it ends, under a lease this process renews:
   * if the process dies, another one (or the next start) runs it again from its start.
   */
  async startAsync(ctx: RequestContext, start: ExpressStart): Promise<{ executionArn: string; startDate: Date }> {
    const run = this.newRun(ctx, start);
    const repo = ctx.db.getRepository(WorkflowExpressRunEntity);
    const row = repo.create({
      arn: run.executionArn,
      name: run.name,
      definitionName: run.definitionName,
      definitionText: run.text,
      roleArn: run.roleArn,
      input: run.input,
      traceHeader: run.traceHeader ?? null,
      startedBy: run.startedBy,
      startedCredential: run.startedCredential,
      startDate: run.startDate,
      leaseOwner: this.owner,
      leaseUntil: new Date(Date.now() + ctx.config.workflowLeaseMs),
      attempts: 1,
    });
    await repo.insert(row);
    this.runRecorded(envOf(ctx), run, row.id);
    return { executionArn: run.executionArn, startDate: run.startDate };
  }

  /** Abort every running execution (the app is closing) and wait for them to let go; recorded ones are left to run again. */
  async close(): Promise<void> {
    this.closed = true;
    if (this.sweep) clearInterval(this.sweep);
    await this.sweeping;
    for (const c of this.running) c.abort(new Error('the gateway is closing'));
    await Promise.allSettled([...this.ends]);
  }

  /** Room for one more, and the run a new start makes (its ARN, name and start date; its starter). */
  private newRun(ctx: RequestContext, start: ExpressStart): ExpressRun {
    this.requireRoom(ctx.config.workflowExpressMaxRunning);
    const userId = requireWorkflowAccess(ctx, 'write');
    const name = start.name ?? randomUUID();
    return {
      executionArn: expressJobArn(ctx.config, start.def.name, name, randomUUID()),
      name,
      startDate: new Date(),
      definitionName: start.def.name,
      text: start.target.definition,
      roleArn: start.target.roleArn,
      input: start.input,
      ...(start.traceHeader !== undefined ? { traceHeader: start.traceHeader } : {}),
      startedBy: userId,
      startedCredential: describeStartedCredential(ctx.viewer),
    };
  }

  private requireRoom(max: number): void {
    if (this.closed) throw new UnavailableError('The gateway is closing; start the execution again');
    if (this.running.size >= max) throw new RateLimitedError(`Rate exceeded: ${max} Express executions are running; try again shortly`);
  }

  /**
   * Run a recorded (asynchronous) execution: its lease renewed while it runs; its row deleted when it ends, or
   * released when this process closes (so it runs again elsewhere or at the next start). A lease another process
   * took over (this one stalled past it) stops this run: that one runs it now.
   */
  private runRecorded(deps: Env, run: ExpressRun, id: number): void {
    const repo = deps.dataSource.getRepository(WorkflowExpressRunEntity);
    const lease = deps.config.workflowLeaseMs;
    const abort = new AbortController();
    const renew = setInterval(() => {
      void repo
        .update({ id, leaseOwner: this.owner }, { leaseUntil: new Date(Date.now() + lease) })
        .then((r) => {
          if (r.affected === 0) abort.abort(new Error('another process took the execution over'));
        })
        .catch((err) => deps.log.warn({ err: { message: (err as Error)?.message }, arn: run.executionArn }, 'workflow: renewing an Express execution\'s lease failed'));
    }, Math.max(100, Math.floor(lease / 3)));
    renew.unref();
    const end = this.begin(deps, run, { clientGone: abort.signal, recorded: true })
      .then(
        () => repo.delete({ id, leaseOwner: this.owner }),
        async (err: unknown) => {
          if (this.closed) return repo.update({ id, leaseOwner: this.owner }, { leaseOwner: null, leaseUntil: null });
          if (!abort.signal.aborted) deps.log.error({ err, arn: run.executionArn }, 'workflow: an Express execution failed unexpectedly');
          return abort.signal.aborted ? undefined : repo.delete({ id, leaseOwner: this.owner });
        },
      )
      .catch((err) => deps.log.warn({ err: { message: (err as Error)?.message }, arn: run.executionArn }, 'workflow: an ended Express execution\'s record stays (it may run again)'))
      .finally(() => clearInterval(renew));
    this.ends.add(end);
    void end.finally(() => this.ends.delete(end));
  }

  /** Recorded executions no process holds (lease run out or released), taken one by one and run again. */
  private async recover(): Promise<void> {
    const deps = this.app;
    if (!deps || this.closed) return;
    const room = deps.config.workflowExpressMaxRunning - this.running.size;
    if (room <= 0) return;
    const repo = deps.dataSource.getRepository(WorkflowExpressRunEntity);
    // no process holds it: its lease was released (NULL) or ran out
    const free = (extra: { id?: number } = {}) => [
      { ...extra, leaseUntil: IsNull() },
      { ...extra, leaseUntil: LessThan(new Date()) },
    ];
    const rows = await repo.find({ where: free(), order: { id: 'ASC' }, take: room });
    for (const row of rows) {
      if (this.closed || this.running.size >= deps.config.workflowExpressMaxRunning) return;
      // taken over only while still free (one conditional UPDATE): of processes looking at once, one gets it
      const taken = await repo.update(free({ id: row.id }), { leaseOwner: this.owner, leaseUntil: new Date(Date.now() + deps.config.workflowLeaseMs), attempts: () => 'attempts + 1' });
      if (!taken.affected) continue;
      this.stats.recovered++;
      this.runRecorded(deps, {
        executionArn: row.arn,
        name: row.name,
        startDate: row.startDate,
        definitionName: row.definitionName,
        text: row.definitionText,
        roleArn: row.roleArn,
        input: row.input,
        ...(row.traceHeader !== null ? { traceHeader: row.traceHeader } : {}),
        startedBy: row.startedBy ?? 0,
        startedCredential: row.startedCredential,
      }, row.id);
    }
  }

  private begin(deps: Env, run: ExpressRun, opts: { clientGone?: AbortSignal; recorded?: boolean } = {}): Promise<Omit<ExpressResult, 'includedData'>> {
    // A recorded run had its room checked before it was recorded (or taken over); it runs whatever came since.
    if (!opts.recorded) this.requireRoom(deps.config.workflowExpressMaxRunning);
    const abort = new AbortController();
    // One listener per task of the execution's Parallel and Map branches running at once: not a leak.
    setMaxListeners(0, abort.signal);
    this.running.add(abort);
    this.stats.started++;
    const clientGone = opts.clientGone;
    const onGone = () => abort.abort(clientGone?.reason instanceof Error ? clientGone.reason : new Error('the client went away'));
    if (clientGone?.aborted) onGone();
    clientGone?.addEventListener('abort', onGone, { once: true });
    return this.drive(deps, run, abort.signal).finally(() => {
      clientGone?.removeEventListener('abort', onGone);
      this.running.delete(abort);
    });
  }

  private async drive(deps: Env, run: ExpressRun, signal: AbortSignal): Promise<Omit<ExpressResult, 'includedData'>> {
    const { executionArn, name, startDate, text } = run;
    const stateMachineArn = definitionArn(deps.config, run.definitionName);
    // Tasks act as the starter, with the credential that started the execution, checked again for every task.
    const starter = { id: 0, startedBy: run.startedBy, startedCredential: run.startedCredential };
    const runTask: RunTask = (t) =>
      this.deps.tasks.run(t.resource, async () => ({
        ctx: deps.context(`express-${name}`, await taskViewer(deps.dataSource.manager, starter)),
        input: t.input,
        attemptKey: `${executionArn}:${t.attemptKey}`,
        signal: t.signal,
      }));
    let checkpoint: Checkpoint = initialCheckpoint(
      text,
      JSON.parse(run.input) as Json,
      { executionArn, executionName: name, startTime: startDate.toISOString(), roleArn: run.roleArn, stateMachineArn, stateMachineName: run.definitionName },
      startDate,
    );
    // Express' own limit from when this run began (a run again after a crash has its own): the execution ends by
    // then (a smaller TimeoutSeconds of the definition ends it sooner).
    const began = Date.now();
    const limit = began + deps.config.workflowExpressMaxSeconds * 1000;
    if (checkpoint.dl === null || Date.parse(checkpoint.dl) > limit) checkpoint = { ...checkpoint, dl: new Date(limit).toISOString() };
    let peakBytes = Buffer.byteLength(run.input);
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
        const ms = Math.max(1, stopDate.getTime() - began);
        return {
          executionArn,
          stateMachineArn,
          name,
          startDate,
          stopDate,
          status: adv.status as ExpressResult['status'],
          input: run.input,
          ...(adv.status === 'SUCCEEDED' ? { output: adv.output ?? 'null' } : {}),
          ...(adv.error !== undefined ? { error: adv.error } : {}),
          ...(adv.cause !== undefined ? { cause: adv.cause } : {}),
          ...(run.traceHeader !== undefined ? { traceHeader: run.traceHeader } : {}),
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

/** What running an execution needs of the app: the database, configuration, log, and contexts for its tasks. */
interface Env {
  dataSource: DataSource;
  config: AppConfig;
  log: AppLogger;
  context(requestId: string, viewer: Viewer): RequestContext;
}

const envOf = (ctx: RequestContext): Env => ({ dataSource: ctx.dataSource, config: ctx.config, log: ctx.log, context: (id, viewer) => contextOfApp(ctx, id, viewer) });

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
