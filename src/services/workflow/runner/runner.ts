/**
 * The workflow job runner: drives jobs with the engine (../engine), persisting every transition before the next
 * begins, so a job resumes from its last transition after a crash, on this process or another.
 *
 * - A job is worked on by one runner at a time: `claim` is a conditional UPDATE that takes the job's lease (free,
 *   expired, or already ours) and bumps `version`, so a runner that lost the lease can no longer write.
 * - Each `advance` result is written in ONE transaction: the job row (checkpoint, state, status, output, wake time,
 *   lease renewed) conditional on the version we hold and on RUNNING, plus the step's history events. A write that
 *   matches no row means the job was stopped (StopExecution) or taken over: the runner aborts the step's tasks and
 *   lets go. A job ends when its terminal transition is written (once: the version check).
 * - Waits and retry backoffs are durable: the job is released with `wake_at`, and whichever runner sees it due picks
 *   it up (a timer in this process for the near ones, and a poll of the due-jobs index for the rest and for jobs
 *   whose runner died: their lease expires and `wake_at` is already due).
 * - The lease is renewed while a long task runs; a renewal that fails (stopped, taken) aborts the task.
 * - Tasks run as the job's starter, with the credential that started the job (../job-credential).
 * - Fair share: a job gives its slot up after TRANSITIONS_PER_TURN transitions when others wait (a Pass loop runs
 *   until the 25,000-event history quota ends it, taking turns with the rest).
 */
import { AsyncResource } from 'node:async_hooks';
import { setMaxListeners } from 'node:events';
import { randomUUID } from 'node:crypto';
import type { WorkflowJobEntity } from '../../../../entities/workflow';
import type { AppDeps, RequestContext } from '../../../context';
import { contextFor } from '../../../context';
import { finishDeletion } from '../definitions.service';
import { taskViewer } from '../job-credential';
import { lastJobEventId } from '../job-rows';
import { advance, Checkpoint, decodeCheckpoint, encodeCheckpoint, externalWaits, HistoryEvent, Json, RunTask, usesDistributedMap } from '../engine';
import type { ExternalTasks } from '../engine';
import { closeOpenTasks, type WorkflowActivityService } from '../activities.service';
import type { WorkflowJobService } from '../jobs.service';
import { abortRunsOfJob, childEnded, JobMapRuns, startCheckpointOf } from '../map-runs';
import { RunnerStore } from './store';
import { TaskStore } from './task-store';
import type { WorkflowTaskService } from './tasks';

/** The workflow module's services a runner works with (given when it starts; the registry's names). */
export interface RunnerServices {
  workflowJobs: WorkflowJobService;
  workflowActivities: WorkflowActivityService;
  workflowTasks: WorkflowTaskService;
}

export interface RunnerOptions {
  /** How long a claim lasts without renewal (a dead runner's jobs are taken over after it). */
  leaseMs?: number;
  /** How often the due-jobs index is polled. */
  pollMs?: number;
  /** Jobs worked on at once by this runner. */
  concurrency?: number;
  /** A name for this runner in leases and logs. */
  owner?: string;
  /**
   * Where a job that is due again later (a Wait, a retry backoff) is handed: by default a timer of this process;
   * with BullMQ (./queue) a delayed queue entry any worker may take. The due-jobs poll backs both up.
   */
  later?: (jobId: number, delayMs: number, turn?: boolean) => void | Promise<void>;
}

type JobRow = WorkflowJobEntity;

/** Transitions a job makes in one go before others waiting for a slot get their turn. */
export const TRANSITIONS_PER_TURN = 100;
/**
 * Started jobs written leased to a runner while they wait for one of its slots, at most, and the characters of
 * definition text and input their rows may hold in memory meanwhile (later ones wait as ids and are claimed).
 */
const MAX_LEASED_WAITING = 2000;
const MAX_HELD_CHARS = 32 * 1024 * 1024;
/** Longest a job's transitions run without letting other work of the event loop in. */
const YIELD_MS = 10;

export class WorkflowRunner {
  readonly owner: string;
  private readonly leaseMs: number;
  private readonly pollMs: number;
  private readonly concurrency: number;
  private readonly active = new Map<number, Promise<void>>();
  /**
   * Jobs waiting for a slot, oldest first; a job written leased to this runner keeps its row here (and when its
   * lease was taken), so it runs without a claim while the lease is young (leaseForNewJob).
   */
  private readonly queued = new Map<number, { leased: JobRow; at: number } | undefined>();
  /** Leased rows held in `queued`: how many, and their definition and input characters. */
  private leasedWaiting = 0;
  private heldChars = 0;
  /** Jobs woken while a step of theirs ran here: they run again when it ends (a Map Run's parent). */
  private readonly again = new Set<number>();
  private readonly timers = new Map<number, NodeJS.Timeout>();
  /** The running step of each job worked on here (aborted when the job is stopped). */
  private readonly steps = new Map<number, AbortController>();
  private pollTimer: NodeJS.Timeout | undefined;
  private stopped = true;
  private readonly stopAll = new AbortController();
  private readonly later: RunnerOptions['later'];
  private readonly store: RunnerStore;
  private readonly tasks: TaskStore;
  /**
   * The async context jobs run in: the runner's own (made with it), never that of the request or transaction that
   * kicked the job. A job is not part of its StartExecution request: a client that closes that request must not
   * cancel the job's statements (request-cancel.ts), and they need not be tracked for it.
   */
  private readonly detached = new AsyncResource('WorkflowRunner');

  constructor(
    private readonly deps: AppDeps,
    private readonly services: RunnerServices,
    opts: RunnerOptions = {},
  ) {
    // One listener per job this runner is stepping (at most WORKFLOW_CONCURRENCY): Node's warning past 10 is no leak here.
    setMaxListeners(0, this.stopAll.signal);
    this.owner = opts.owner ?? `runner-${randomUUID().slice(0, 8)}`;
    this.leaseMs = opts.leaseMs ?? 30_000;
    this.pollMs = opts.pollMs ?? 1_000;
    this.concurrency = opts.concurrency ?? 64;
    this.later = opts.later;
    this.store = new RunnerStore(deps.dataSource);
    this.tasks = new TaskStore(deps.dataSource, deps.config, (activityId) => services.workflowActivities.polls.notify(activityId));
  }

  /**
   * Run the job here now, until it waits, ends, or is stopped or taken (a queue worker's processor awaits this;
   * an in-process caller uses kick). Resolves when this runner no longer works on it.
   */
  async runNow(jobId: number): Promise<void> {
    if (this.stopped) return;
    const current = this.active.get(jobId);
    if (current) return current;
    const run = this.detached.runInAsyncScope(() => this.runJob(jobId)).finally(() => this.active.delete(jobId));
    this.active.set(jobId, run);
    return run;
  }

  /** Start polling for due jobs (and take over jobs left by a dead runner). */
  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    void this.poll();
  }

  /** A job was started or is due now: run it here if there is room (else the poll finds it). */
  kick(jobId: number, leased?: JobRow): void {
    if (this.stopped || this.active.has(jobId)) return;
    if (this.active.size >= this.concurrency) {
      if (!this.queued.has(jobId)) {
        // Over the bounds only the id waits (the lease is still ours: the claim takes it at once).
        const keep = leased !== undefined && this.leasedWaiting < MAX_LEASED_WAITING && this.heldChars < MAX_HELD_CHARS;
        this.queued.set(jobId, keep ? { leased: leased!, at: performance.now() } : undefined);
        if (keep) this.hold(leased!, 1);
      }
      return;
    }
    // A leased row that waited here for a slot runs unclaimed only while most of its lease is left (a lease
    // that ran out may have been taken by another runner's poll: then the claim decides).
    const waited = this.queued.get(jobId);
    this.queued.delete(jobId);
    if (waited) {
      this.hold(waited.leased, -1);
      if (!leased && performance.now() - waited.at < this.leaseMs / 2) leased = waited.leased;
    }
    const run = this.detached
      .runInAsyncScope(() => this.runJob(jobId, leased))
      .catch((err) => this.deps.log.error({ err, jobId }, 'workflow runner: job step failed unexpectedly'))
      .finally(() => {
        this.active.delete(jobId);
        if (this.again.delete(jobId) && !this.queued.has(jobId)) this.queued.set(jobId, undefined);
        const next = this.queued.keys().next();
        if (!next.done) this.kick(next.value);
      });
    this.active.set(jobId, run);
  }

  private hold(row: JobRow, sign: 1 | -1): void {
    this.leasedWaiting += sign;
    this.heldChars += sign * (row.definitionText.length + row.input.length);
  }

  /** The job has news (a child of its Map Run ended): run it now, or once more after the step running now. */
  wake(jobId: number): void {
    if (this.active.has(jobId)) this.again.add(jobId);
    else this.kick(jobId);
  }

  /** The job was stopped (StopExecution committed): abort its running step now, not at the next lease renewal. */
  jobStopped(jobId: number): void {
    this.steps.get(jobId)?.abort(new Error('the job was stopped'));
  }

  /** Stop taking work; abort running tasks (their jobs resume elsewhere or after restart); wait for the steps. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.pollTimer) clearTimeout(this.pollTimer);
    for (const t of this.timers.values()) clearTimeout(t);
    this.timers.clear();
    this.queued.clear();
    this.leasedWaiting = 0;
    this.heldChars = 0;
    this.stopAll.abort(new Error('the runner is stopping'));
    await Promise.allSettled([...this.active.values()]);
  }

  /** Jobs whose wake time has come and whose lease is free or expired, oldest first. */
  async dueJobs(limit: number): Promise<number[]> {
    return this.store.due(limit);
  }

  private async poll(): Promise<void> {
    if (this.stopped) return;
    try {
      const room = this.concurrency - this.active.size;
      if (room > 0) for (const id of await this.dueJobs(room)) this.kick(id);
    } catch (err) {
      this.deps.log.error({ err }, 'workflow runner: polling for due jobs failed');
    }
    if (!this.stopped) {
      this.pollTimer = setTimeout(() => void this.poll(), this.pollMs);
      this.pollTimer.unref();
    }
  }

  /** Take the job's lease (free, expired or ours); the row as claimed, or null. */
  private claim(jobId: number): Promise<JobRow | null> {
    return this.store.claim(jobId, this.owner, this.leaseMs);
  }

  /**
   * A lease for a job this runner is about to be handed (the embedded runner's jobs are written leased to it): its
   * length, counted from the insert on the database's clock on PostgreSQL (as every lease of store.ts). Also when
   * the job will wait for a slot, within the bounds of leased rows held (MAX_LEASED_WAITING, MAX_HELD_CHARS): a
   * burst of starts then runs without a claim each.
   */
  leaseForNewJob(): { owner: string; ms: number } | undefined {
    if (this.stopped) return undefined;
    if (this.active.size >= this.concurrency && (this.leasedWaiting >= MAX_LEASED_WAITING || this.heldChars >= MAX_HELD_CHARS)) return undefined;
    return { owner: this.owner, ms: this.leaseMs };
  }

  private async runJob(jobId: number, leased?: JobRow): Promise<void> {
    const timer = this.timers.get(jobId);
    if (timer) clearTimeout(timer);
    this.timers.delete(jobId);
    // A job written leased to us (and not yet touched: version 1) needs no claim.
    let job = leased && leased.leaseOwner === this.owner && leased.version === 1 && leased.status === 'RUNNING' ? leased : await this.claim(jobId);
    if (!job) return;
    // The context a task acts in: the starter with the credential that started the job, looked up again for every
    // task (a token revoked since fails the next task). Pass/Choice/Wait-only jobs never look it up.
    const jobFacts = { id: job.id, startedBy: job.startedBy, startedCredential: job.startedCredential };
    const contextOfStarter = async (): Promise<RequestContext> =>
      contextFor(this.deps, `job-${jobId}`, await taskViewer(this.deps.dataSource.manager, jobFacts));
    const definition = job.definitionText;
    let checkpoint: Checkpoint;
    try {
      checkpoint = job.checkpoint !== null ? decodeCheckpoint(job.checkpoint) : startCheckpointOf(job);
    } catch (e) {
      // The job's own data cannot start or resume (e.g. an input nested too deeply to handle): it fails, once,
      // instead of being retried by every runner forever.
      return void (await this.failJob(job, e));
    }
    const runTask: RunTask = (t) =>
      this.services.workflowTasks.run(t.resource, async () => ({
        // A fresh context (and loaders) per task: the credential is checked again, no cached rows carry over.
        ctx: await contextOfStarter(),
        input: t.input,
        // The job's own id in the key: a job of a recreated definition may reuse an ARN, never an id.
        attemptKey: `${jobId}:${t.attemptKey}`,
        signal: t.signal,
      }));
    // Activity and callback tasks (engine/external.ts): rows of workflow_tasks; a step that scheduled one, or a job
    // that waits for one, also closes the tasks it no longer waits for when it is written.
    let scheduled = false;
    const jobTasks = this.tasks.forJob(jobId);
    const external: ExternalTasks = {
      schedule: (spec) => {
        scheduled = true;
        return jobTasks.schedule(spec);
      },
      check: (key, now) => jobTasks.check(key, now),
    };
    // Distributed Maps: their runs and children (map-runs.ts).
    const hooks = this.services.workflowJobs.mapRunHooks(this.deps.log);
    const mapRuns = new JobMapRuns(this.deps.dataSource, this.deps.config, job, hooks);
    let transitions = 0;
    let lastYield = performance.now();
    // One abort signal for this run of the job (its steps'): aborted, the step running ends and the run with it
    // (stopped, taken over, the runner stopping). Made once per run, not per step: a Pass step cost little more
    // than its own controller, listener and timer.
    const run = new AbortController();
    // One listener per task of a step's Parallel and Map branches: as many as run at once, not a leak.
    setMaxListeners(0, run.signal);
    const onStop = () => run.abort(new Error('the runner is stopping'));
    this.stopAll.signal.addEventListener('abort', onStop, { once: true });
    // Renew the lease while a step runs (a long task); losing it (stopped, taken over) aborts the step. Between
    // steps the version changes with each write: an answer that comes after its step ended is not about the lease.
    let step = 0;
    let stepping = false;
    const renew = setInterval(() => {
      if (!stepping) return;
      const of = step;
      this.renew(job!).then(
        (ok) => {
          if (!ok && stepping && of === step) run.abort(new Error('the job was stopped or taken over'));
        },
        // A database hiccup: keep going (the next renewal tries again; the lease outlives two misses).
        (err) => this.deps.log.warn({ err, jobId }, 'workflow runner: renewing a lease failed'),
      );
    }, Math.max(1000, Math.floor(this.leaseMs / 3)));
    renew.unref();
    try {
      for (;;) {
        if (this.stopped) return this.release(job);
        // Fair share: after a turn of transitions the job goes to the back of the line (a runaway loop keeps one
        // slot busy for at most a turn while others wait). Its wake time is now, so a poll also finds it.
        if (transitions >= TRANSITIONS_PER_TURN && (this.queued.size > 0 || this.later)) {
          await this.release(job);
          if (this.later) {
            await Promise.resolve(this.later(jobId, 0, true)).catch((err) => this.deps.log.error({ err, jobId }, 'workflow runner: requeueing a job failed (the poll will find it)'));
          } else if (!this.queued.has(jobId)) this.queued.set(jobId, undefined);
          return;
        }
        transitions++;
        // better-sqlite3 answers synchronously: a job that never waits would otherwise hold the event loop (no HTTP
        // request, no other job) until it ends. Let I/O in at least every YIELD_MS.
        if (performance.now() - lastYield > YIELD_MS) {
          await new Promise<void>((r) => setImmediate(r));
          lastYield = performance.now();
        }
        step++;
        stepping = true;
        this.steps.set(jobId, run);
        let adv;
        try {
          scheduled = false;
          adv = await advance(definition, checkpoint, {
            now: () => new Date(),
            runTask,
            signal: run.signal,
            maxHistoryBytes: this.deps.config.workflowJobHistoryBytes,
            pause: yieldToEventLoop,
            external,
            mapRuns,
          });
        } finally {
          stepping = false;
          this.steps.delete(jobId);
        }
        if (run.signal.aborted) return; // stopped, taken over or shutting down: the step is not progress
        let written: JobRow | null;
        const waits = adv.status === 'RUNNING' ? externalWaits(adv.checkpoint) : [];
        const tidy = scheduled || waits.length > 0 || externalWaits(checkpoint).length > 0;
        try {
          written = await this.persist(job, adv.checkpoint, adv.events, adv, tidy ? waits.map((w) => w.key) : undefined);
        } catch (e) {
          if (!isDeterministic(e)) throw e;
          return void (await this.failJob(job, e));
        }
        if (!written) return;
        job = written;
        checkpoint = adv.checkpoint;
        if (adv.status !== 'RUNNING') return;
        if (adv.wakeAt !== null) {
          const delay = Date.parse(adv.wakeAt) - Date.now();
          // A worker's answer (or start) that came while this step ran woke the job before the step's own wake
          // time was written over it: look once more before letting go (the due-jobs poll would find it later).
          if (delay > 0 && waits.length > 0 && (await this.tasks.news(jobId, waits).catch(() => false))) continue;
          // A child of its Map Run ended while the step ran (its wake-up was written before this step's wake time).
          if (delay > 0 && (await mapRuns.news().catch(() => false))) continue;
          if (delay > 0) {
            // Durable: released with wake_at; a timer here for waits the poll would see late.
            await this.release(job);
            if (this.later) {
              await Promise.resolve(this.later(jobId, delay)).catch((err) => this.deps.log.error({ err, jobId }, 'workflow runner: scheduling a wake-up failed (the poll will find the job)'));
            } else if (delay <= 60_000 && !this.stopped) {
              const t = setTimeout(() => {
                this.timers.delete(jobId);
                this.kick(jobId);
              }, delay);
              t.unref();
              this.timers.set(jobId, t);
            }
            return;
          }
        }
      }
    } finally {
      clearInterval(renew);
      this.stopAll.signal.removeEventListener('abort', onStop);
    }
  }

  /** Write one transition: the job row conditional on our version (and RUNNING), and its events; the new row or null. */
  private async persist(
    job: JobRow,
    checkpoint: Checkpoint,
    events: HistoryEvent[],
    adv: { status: string; output?: string; error?: string; cause?: string; currentState: string | null; wakeAt: string | null },
    /** The external tasks the job still waits for (undefined: it has none to look after). */
    waiting?: string[],
  ): Promise<JobRow | null> {
    const now = new Date();
    const terminal = adv.status !== 'RUNNING';
    const t = {
      checkpoint: encodeCheckpoint(checkpoint),
      currentState: terminal ? null : adv.currentState,
      status: adv.status,
      output: terminal ? (adv.output ?? null) : null,
      error: terminal ? (adv.error ?? null) : null,
      cause: terminal ? (adv.cause ?? null) : null,
      stopDate: terminal ? now : null,
      leaseOwner: terminal ? null : this.owner,
      leaseUntil: terminal ? null : new Date(now.getTime() + this.leaseMs),
      leaseMs: terminal ? null : this.leaseMs,
      wakeAt: terminal ? null : adv.wakeAt ? new Date(adv.wakeAt) : now,
      waits: !terminal && !!adv.wakeAt,
    };
    let parent: number | null = null;
    let aborted: number[] = [];
    const then =
      terminal || waiting !== undefined
        ? async (m: import('typeorm').EntityManager, definitionStatus: string | null | undefined) => {
            if (waiting) await closeOpenTasks(m, job.id, terminal ? [] : waiting);
            if (terminal) {
              // only a Distributed Map starts Map Runs: other jobs have none to abort
              if (usesDistributedMap(job.definitionText)) aborted = await abortRunsOfJob(m, job.id);
              parent = await childEnded(m, job, adv.status);
              await finishDeletion(m, job.definitionId, { status: definitionStatus });
            }
          }
        : undefined;
    const ok = await this.store.persist(job.id, job.version, this.owner, t, events, then);
    if (!ok) return null;
    this.mapRunNews(parent, aborted);
    if (terminal) this.deps.log.info({ jobId: job.id, arn: job.arn, status: adv.status, runner: this.owner }, 'workflow job ended');
    if (terminal) {
      const stats = this.services.workflowJobs.stats;
      if (adv.status === 'SUCCEEDED') stats.succeeded++;
      else if (adv.status === 'TIMED_OUT') stats.timed_out++;
      else stats.failed++;
    }
    return Object.assign({}, job, t, { version: job.version + 1, status: adv.status as JobRow['status'] }) as JobRow;
  }

  /**
   * End a job whose transition cannot be written or computed for reasons that would recur on every retry (its
   * data, not the database's health): FAILED with States.Runtime and a short cause, written with the version held.
   */
  private async failJob(job: JobRow, e: unknown): Promise<void> {
    this.deps.log.error({ err: e, jobId: job.id }, 'workflow runner: the job cannot go on; it fails with States.Runtime');
    const now = new Date();
    const cause = 'The job could not continue: its data could not be processed or stored.';
    const id = (await lastJobEventId(this.deps.dataSource.manager, job.id)) + 1;
    const event: HistoryEvent = { id, previousEventId: id - 1, timestamp: now.toISOString(), type: 'ExecutionFailed', executionFailedEventDetails: { error: 'States.Runtime', cause } };
    const t = { checkpoint: job.checkpoint ?? 'null', currentState: null, status: 'FAILED', output: null, error: 'States.Runtime', cause, stopDate: now, leaseOwner: null, leaseUntil: null, leaseMs: null, wakeAt: null };
    this.services.workflowJobs.stats.failed++;
    let parent: number | null = null;
    let aborted: number[] = [];
    const ok = await this.store.persist(job.id, job.version, this.owner, t, [event], async (m, definitionStatus) => {
      await closeOpenTasks(m, job.id);
      aborted = await abortRunsOfJob(m, job.id, now);
      parent = await childEnded(m, job, 'FAILED');
      await finishDeletion(m, job.definitionId, { status: definitionStatus });
    });
    if (ok) this.mapRunNews(parent, aborted);
  }

  /** After a job's end was written: its Map Run's parent looks (here or via the queue), aborted children stop. */
  private mapRunNews(parent: number | null, aborted: number[]): void {
    if (parent === null && aborted.length === 0) return;
    const hooks = this.services.workflowJobs.mapRunHooks(this.deps.log);
    if (parent !== null) hooks.parentNews(parent);
    if (aborted.length) hooks.childrenStopped(aborted);
  }

  private renew(job: JobRow): Promise<boolean> {
    return this.store.renew(job.id, job.version, this.owner, this.leaseMs);
  }

  /** Let go of the lease (the job waits for its wake time, or this runner stops). */
  private async release(job: JobRow): Promise<void> {
    await this.store.release(job.id, job.version, this.owner).catch((err) => this.deps.log.error({ err, jobId: job.id }, 'workflow runner: releasing a job failed'));
  }
}

/** Let I/O and other jobs in (between batches of a wide Parallel/Map step). */
function yieldToEventLoop(): Promise<void> {
  return new Promise<void>((r) => setImmediate(r));
}

/** Errors that come from the job's data (and would recur), not from the database being unavailable. */
function isDeterministic(e: unknown): boolean {
  if (e instanceof RangeError || e instanceof TypeError) return true;
  const code = (e as { driverError?: { code?: string } })?.driverError?.code ?? (e as { code?: string })?.code;
  // PostgreSQL: data exceptions (22xxx: too long, invalid text such as U+0000, out of range).
  return typeof code === 'string' && code.startsWith('22');
}
