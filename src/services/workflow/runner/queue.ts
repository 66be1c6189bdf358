/**
 * Scale-out of workflow jobs over Redis with BullMQ: the gateway (and any process) enqueues a job's id when it is
 * started or due again later; `npm run worker` processes (and the gateway itself in `queue` mode) take entries and
 * run the job with their WorkflowRunner until it waits or ends.
 *
 * BullMQ only distributes work. Correctness stays in the database: a runner claims the job's lease before it
 * works on it and writes every transition conditional on the version it holds, so an entry delivered twice (a
 * stalled worker's entry handed to another, a poll and a queue entry at once) cannot run a step twice to completion.
 * A killed worker's entries come back after BullMQ's stall check, and its jobs' leases expire so the due-jobs poll
 * of any runner takes them over: nothing is lost. StopExecution is broadcast on a Redis channel, so the worker running
 * the job's step aborts it at once (lease renewals would notice it too, later).
 */
import { Queue, Worker } from 'bullmq';
import Redis from 'ioredis';
import { closeRedis, REDIS_CLIENT_DEFAULTS } from '../../../db/redis';
import type { WorkflowRunner } from './runner';

export const WORKFLOW_QUEUE = 'workflow-jobs';

function connection(redisUrl: string) {
  const u = new URL(redisUrl);
  return {
    ...REDIS_CLIENT_DEFAULTS,
    host: u.hostname,
    port: u.port ? Number(u.port) : 6379,
    ...(u.username ? { username: decodeURIComponent(u.username) } : {}),
    ...(u.password ? { password: decodeURIComponent(u.password) } : {}),
    ...(u.pathname && u.pathname.length > 1 ? { db: Number(u.pathname.slice(1)) || 0 } : {}),
    ...(u.protocol === 'rediss:' ? { tls: {} } : {}),
    // BullMQ workers block on Redis: no per-command retry limit.
    maxRetriesPerRequest: null,
  };
}

export class WorkflowQueue {
  private readonly queue: Queue;
  private worker: Worker | undefined;
  private subscriber: Redis | undefined;
  private publisher: Redis | undefined;

  constructor(
    private readonly redisUrl: string,
    private readonly prefix = 'gw',
  ) {
    // The producer fails fast while Redis is away (no offline queue, one retry): callers fall back on the poll.
    this.queue = new Queue(WORKFLOW_QUEUE, { connection: { ...connection(redisUrl), maxRetriesPerRequest: 1, enableOfflineQueue: false }, prefix });
  }

  /**
   * Ask a worker to run the job (now, or after `delayMs`). Entries of one job and due time are deduplicated, except
   * a job's next turn (`turn`: it gave its slot up while its own entry is still active, which BullMQ would dedupe).
   */
  async enqueue(jobId: number, delayMs = 0, turn = false): Promise<void> {
    const due = delayMs > 0 ? Math.ceil((Date.now() + delayMs) / 1000) : 0;
    await this.queue.add(
      'run',
      { jobId },
      { jobId: turn ? `job-${jobId}-turn-${Date.now()}-${Math.random().toString(36).slice(2, 8)}` : `job-${jobId}-${due}`, delay: Math.max(0, delayMs), removeOnComplete: true, removeOnFail: true, attempts: 1 },
    );
  }

  /** Work the queue with `runner`, `concurrency` jobs at a time. */
  work(runner: WorkflowRunner, concurrency: number): Worker {
    this.worker = new Worker(WORKFLOW_QUEUE, async (entry) => runner.runNow(Number((entry.data as { jobId: unknown }).jobId)), {
      connection: connection(this.redisUrl),
      prefix: this.prefix,
      concurrency,
      // A worker that dies holding entries: they are handed out again after this long.
      stalledInterval: 5_000,
      maxStalledCount: 100,
    });
    return this.worker;
  }

  private get stopChannel(): string {
    return `${this.prefix}:workflow-stops`;
  }

  /**
   * Tell every process working this queue that a job was stopped (StopExecution committed), so the one running its
   * step aborts it now instead of at its next lease renewal. Best effort: the lease renewal still catches it.
   */
  async publishStop(jobId: number): Promise<void> {
    if (!this.publisher) {
      this.publisher = new Redis({ ...connection(this.redisUrl), maxRetriesPerRequest: 1 });
      // Failures surface as the publish's rejection (logged by the caller).
      this.publisher.on('error', () => undefined);
    }
    await this.publisher.publish(this.stopChannel, String(jobId));
  }

  /** Call `onStop(jobId)` for every stop published by any process of this queue. */
  subscribeStops(onStop: (jobId: number) => void, onError: (err: unknown) => void): void {
    const sub = new Redis({ ...connection(this.redisUrl), lazyConnect: false });
    sub.on('error', onError);
    sub.on('message', (channel: string, message: string) => {
      const id = Number(message);
      if (channel === this.stopChannel && Number.isSafeInteger(id) && id > 0) onStop(id);
    });
    sub.subscribe(this.stopChannel).catch(onError);
    this.subscriber = sub;
  }

  async close(): Promise<void> {
    if (this.worker) await this.worker.close();
    await Promise.all([this.subscriber && closeRedis(this.subscriber), this.publisher && closeRedis(this.publisher)]);
    await this.queue.close();
  }
}
