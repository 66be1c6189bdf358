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
 * - Tasks run as the job's starter (./tasks).
 */
import { randomUUID } from 'node:crypto';
import type { EntityManager } from 'typeorm';
import { WorkflowJobEntity, WorkflowJobEventEntity } from '../../../../entities';
import type { AppDeps } from '../../../context';
import { contextFor } from '../../../context';
import { writeTransaction } from '../../../db/transaction';
import { finishDeletion } from '../definitions.service';
import { advance, Checkpoint, HistoryEvent, initialCheckpoint, Json, RunTask, TaskFailure } from '../engine';
import { asTaskFailure, WORKFLOW_TASKS } from './tasks';

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
  later?: (jobId: number, delayMs: number) => void | Promise<void>;
}

type JobRow = WorkflowJobEntity;

export class WorkflowRunner {
  readonly owner: string;
  private readonly leaseMs: number;
  private readonly pollMs: number;
  private readonly concurrency: number;
  private readonly active = new Map<number, Promise<void>>();
  private readonly queued = new Set<number>();
  private readonly timers = new Map<number, NodeJS.Timeout>();
  /** The running step of each job worked on here (aborted when the job is stopped). */
  private readonly steps = new Map<number, AbortController>();
  private pollTimer: NodeJS.Timeout | undefined;
  private stopped = true;
  private readonly stopAll = new AbortController();
  private readonly later: RunnerOptions['later'];

  constructor(
    private readonly deps: AppDeps,
    opts: RunnerOptions = {},
  ) {
    this.owner = opts.owner ?? `runner-${randomUUID().slice(0, 8)}`;
    this.leaseMs = opts.leaseMs ?? 30_000;
    this.pollMs = opts.pollMs ?? 1_000;
    this.concurrency = opts.concurrency ?? 64;
    this.later = opts.later;
  }

  /**
   * Run the job here now, until it waits, ends, or is stopped or taken (a queue worker's processor awaits this;
   * an in-process caller uses kick). Resolves when this runner no longer works on it.
   */
  async runNow(jobId: number): Promise<void> {
    if (this.stopped) return;
    const current = this.active.get(jobId);
    if (current) return current;
    const run = this.runJob(jobId).finally(() => this.active.delete(jobId));
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
  kick(jobId: number): void {
    if (this.stopped || this.active.has(jobId)) return;
    if (this.active.size >= this.concurrency) {
      this.queued.add(jobId);
      return;
    }
    const run = this.runJob(jobId)
      .catch((err) => this.deps.log.error({ err, jobId }, 'workflow runner: job step failed unexpectedly'))
      .finally(() => {
        this.active.delete(jobId);
        const next = this.queued.values().next();
        if (!next.done) {
          this.queued.delete(next.value);
          this.kick(next.value);
        }
      });
    this.active.set(jobId, run);
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
    this.stopAll.abort(new Error('the runner is stopping'));
    await Promise.allSettled([...this.active.values()]);
  }

  /** Jobs whose wake time has come and whose lease is free or expired, oldest first. */
  async dueJobs(limit: number): Promise<number[]> {
    const now = this.dbDate(new Date());
    const rows = (await this.deps.dataSource.manager
      .getRepository(WorkflowJobEntity)
      .createQueryBuilder('j')
      .select('j.id', 'id')
      .where("j.status = 'RUNNING' AND j.wake_at <= :now AND (j.lease_until IS NULL OR j.lease_until < :now)", { now })
      .orderBy('j.wake_at', 'ASC')
      .limit(limit)
      .getRawMany()) as Array<{ id: number | string }>;
    return rows.map((r) => Number(r.id));
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

  private dbDate(d: Date): unknown {
    const meta = this.deps.dataSource.getMetadata(WorkflowJobEntity);
    return this.deps.dataSource.driver.preparePersistentValue(d, meta.findColumnWithPropertyName('wakeAt')!);
  }

  /** Take the job's lease (free, expired or ours); the row as claimed, or null. */
  private async claim(jobId: number): Promise<JobRow | null> {
    const now = new Date();
    const repo = this.deps.dataSource.manager.getRepository(WorkflowJobEntity);
    const res = await repo
      .createQueryBuilder()
      .update(WorkflowJobEntity)
      .set({ leaseOwner: this.owner, leaseUntil: new Date(now.getTime() + this.leaseMs), version: () => 'version + 1' })
      .where("id = :id AND status = 'RUNNING' AND (lease_until IS NULL OR lease_until < :now OR lease_owner = :owner)", { id: jobId, now: this.dbDate(now), owner: this.owner })
      .execute();
    if (!res.affected) return null;
    const job = await repo.findOne({ where: { id: jobId } });
    return job && job.leaseOwner === this.owner && job.status === 'RUNNING' ? job : null;
  }

  private async runJob(jobId: number): Promise<void> {
    const timer = this.timers.get(jobId);
    if (timer) clearTimeout(timer);
    this.timers.delete(jobId);
    let job = await this.claim(jobId);
    if (!job) return;
    const starter = job.startedBy === null ? null : await this.deps.services.identity.accountsByIds(this.deps.dataSource.manager, [job.startedBy]).then((a) => a[0] ?? null);
    const ctx = contextFor(this.deps, `job-${job.id}`, starter ? { kind: 'user', user: starter, credential: { type: 'internal' } } : { kind: 'anonymous' });
    const definition = job.definitionText;
    let checkpoint: Checkpoint =
      job.checkpoint !== null
        ? (JSON.parse(job.checkpoint) as Checkpoint)
        : initialCheckpoint(
            definition,
            JSON.parse(job.input) as Json,
            {
              executionArn: job.arn,
              executionName: job.name,
              startTime: job.startDate.toISOString(),
              roleArn: '',
              stateMachineArn: job.arn.replace(':execution:', ':stateMachine:').replace(/:[^:]*$/, ''),
              stateMachineName: job.arn.split(':')[6] ?? '',
            },
            job.startDate,
          );
    const runTask: RunTask = async (t) => {
      const task = WORKFLOW_TASKS[t.resource];
      if (!task) throw new TaskFailure('States.TaskFailed', `Unknown task resource ${JSON.stringify(t.resource.slice(0, 100))}`);
      try {
        return await task.run({ ctx: { ...ctx, loaders: contextFor(this.deps, ctx.requestId, ctx.viewer).loaders }, input: t.input, attemptKey: t.attemptKey, signal: t.signal });
      } catch (e) {
        throw asTaskFailure(e);
      }
    };
    for (;;) {
      if (this.stopped) return this.release(job);
      const step = new AbortController();
      this.steps.set(jobId, step);
      const onStop = () => step.abort(new Error('the runner is stopping'));
      this.stopAll.signal.addEventListener('abort', onStop, { once: true });
      // Renew the lease while a long task runs; losing it (stopped, taken over) aborts the step.
      const renew = setInterval(() => {
        void this.renew(job!).then((ok) => {
          if (!ok) step.abort(new Error('the job was stopped or taken over'));
        });
      }, Math.max(1000, Math.floor(this.leaseMs / 3)));
      renew.unref();
      let adv;
      try {
        adv = await advance(definition, checkpoint, { now: () => new Date(), runTask, signal: step.signal });
      } finally {
        this.steps.delete(jobId);
        clearInterval(renew);
        this.stopAll.signal.removeEventListener('abort', onStop);
      }
      if (step.signal.aborted) return; // stopped, taken over or shutting down: the step is not progress
      const written = await this.persist(job, adv.checkpoint, adv.events, adv);
      if (!written) return;
      job = written;
      checkpoint = adv.checkpoint;
      if (adv.status !== 'RUNNING') return;
      if (adv.wakeAt !== null) {
        const delay = Date.parse(adv.wakeAt) - Date.now();
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
  }

  /** Write one transition: the job row conditional on our version (and RUNNING), and its events; the new row or null. */
  private async persist(job: JobRow, checkpoint: Checkpoint, events: HistoryEvent[], adv: { status: string; output?: string; error?: string; cause?: string; currentState: string | null; wakeAt: string | null }): Promise<JobRow | null> {
    const now = new Date();
    const terminal = adv.status !== 'RUNNING';
    const patch: Partial<JobRow> = {
      checkpoint: JSON.stringify(checkpoint),
      version: job.version + 1,
      currentState: terminal ? null : adv.currentState,
      status: adv.status as JobRow['status'],
      leaseUntil: terminal ? null : new Date(now.getTime() + this.leaseMs),
      leaseOwner: terminal ? null : this.owner,
      wakeAt: terminal ? null : adv.wakeAt ? new Date(adv.wakeAt) : now,
    };
    if (terminal) {
      patch.stopDate = now;
      patch.output = adv.output ?? null;
      patch.error = adv.error ?? null;
      patch.cause = adv.cause ?? null;
    }
    return writeTransaction(this.deps.dataSource, async (m: EntityManager) => {
      const res = await m.getRepository(WorkflowJobEntity).update({ id: job.id, version: job.version, status: 'RUNNING', leaseOwner: this.owner }, patch);
      if (!res.affected) return null;
      if (events.length) {
        await m.getRepository(WorkflowJobEventEntity).insert(
          events.map((e) => {
            const { id, previousEventId, timestamp, type, ...details } = e;
            return { jobId: job.id, eventId: id, previousEventId, type, timestamp: new Date(timestamp), details: JSON.stringify(details) };
          }),
        );
      }
      if (terminal) await finishDeletion(m, job.definitionId);
      return Object.assign({}, job, patch) as JobRow;
    }).then((row) => {
      if (row && terminal) this.deps.log.info({ jobId: job.id, arn: job.arn, status: adv.status, runner: this.owner }, 'workflow job ended');
      return row;
    });
  }

  private async renew(job: JobRow): Promise<boolean> {
    const res = await this.deps.dataSource.manager
      .getRepository(WorkflowJobEntity)
      .update({ id: job.id, version: job.version, status: 'RUNNING', leaseOwner: this.owner }, { leaseUntil: new Date(Date.now() + this.leaseMs) });
    return !!res.affected;
  }

  /** Let go of the lease (the job waits for its wake time, or this runner stops). */
  private async release(job: JobRow): Promise<void> {
    await this.deps.dataSource.manager
      .getRepository(WorkflowJobEntity)
      .update({ id: job.id, version: job.version, leaseOwner: this.owner }, { leaseOwner: null, leaseUntil: null, version: job.version + 1 })
      .catch((err) => this.deps.log.error({ err, jobId: job.id }, 'workflow runner: releasing a job failed'));
  }
}
