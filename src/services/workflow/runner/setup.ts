/**
 * How a process takes part in running workflow jobs (WORKFLOW_RUNNER), shared by the gateway (src/server.ts) and
 * `npm run worker` (src/worker.ts):
 *  - embedded: an in-process runner; started jobs are kicked here, waits are local timers, the poll covers restarts.
 *  - queue: jobs are dispatched through BullMQ (started and due-again jobs are queue entries) and this process
 *    works the queue with its runner (and polls the due-jobs index, so no job waits on a lost entry).
 *  - dispatch: started jobs are queued for workers; nothing runs here.
 *  - off: nothing (another process runs the jobs on the same database).
 * With a queue, StopExecution is broadcast over Redis so the worker running the job aborts its step at once.
 */
import type { AppDeps } from '../../../context';
import { startActivitySignals } from './activity-signals';
import type * as Queue from './queue';
import type { WorkflowQueue } from './queue';
import { RunnerServices, WorkflowRunner } from './runner';

export interface WorkflowRunning {
  runner?: WorkflowRunner;
  queue?: WorkflowQueue;
  close(): Promise<void>;
}

export function startWorkflowRunning(services: RunnerServices, deps: AppDeps, mode: AppDeps['config']['workflowRunner'] = deps.config.workflowRunner): WorkflowRunning {
  const { config, log } = deps;
  // GetActivityTask polls park in every mode (any instance serves workers); they re-check for tasks periodically
  // and wake on news from this process or another.
  const activities = services.workflowActivities;
  activities.polls.pendingCount = (activityId, limit) => activities.pendingCount(deps.dataSource.manager, activityId, limit);
  activities.polls.onError = (err) => log.warn({ err: { message: (err as Error)?.message } }, 'workflow: re-checking activity tasks failed');
  const signals = startActivitySignals(deps, activities.polls);
  const closeActivities = async () => {
    activities.close();
    await signals.close();
  };
  if (mode === 'off') return { close: closeActivities };
  // Required here: BullMQ (some 250 modules) is loaded by the processes that use a queue only, not by every
  // embedded gateway, test file and spawned server.
  const queue =
    mode === 'queue' || mode === 'dispatch' ? new (require('./queue') as typeof Queue).WorkflowQueue(config.redisUrl!, config.workflowQueuePrefix) : undefined;
  const runner =
    mode === 'dispatch'
      ? undefined
      : new WorkflowRunner(deps, services, {
          leaseMs: config.workflowLeaseMs,
          concurrency: config.workflowConcurrency,
          ...(queue ? { later: (jobId: number, delayMs: number, turn?: boolean) => queue.enqueue(jobId, delayMs, turn) } : {}),
        });
  services.workflowJobs.setHooks({
    // Not awaited: a slow or absent Redis must not hold StartExecution (the job is committed and due; the due-jobs
    // poll of any runner finds it if the entry is lost).
    onStarted: queue
      ? (jobId) => void queue.enqueue(jobId).catch((err) => log.error({ err, jobId }, 'workflow: queueing a started job failed (the due-jobs poll will find it)'))
      : (jobId, job) => runner!.kick(jobId, job),
    ...(runner && !queue ? { leaseOnStart: () => runner.leaseForNewJob() } : {}),
    // A Map Run's parent has news (a child ended, the run was updated): it goes on now, here or through the queue.
    onNews: queue
      ? (jobId: number) => void queue.enqueue(jobId).catch((err) => log.warn({ err, jobId }, 'workflow: queueing a woken job failed (the due-jobs poll will find it)'))
      : (jobId: number) => runner!.wake(jobId),
    onStopped: (jobId: number) => {
      runner?.jobStopped(jobId);
      // Other processes (workers) may be running the job's step: tell them.
      if (queue) void queue.publishStop(jobId).catch((err) => log.warn({ err, jobId }, 'workflow: broadcasting a stop failed (the lease renewal will notice it)'));
    },
  });
  // A worker started or answered a task: the job goes on now, here or through the queue.
  activities.setHooks({
    onTaskEvent: queue
      ? (jobId) => void queue.enqueue(jobId).catch((err) => log.warn({ err, jobId }, 'workflow: queueing a woken job failed (the due-jobs poll will find it)'))
      : (jobId) => runner!.kick(jobId),
  });
  if (runner) {
    runner.start();
    if (queue) {
      queue.subscribeStops((jobId) => runner.jobStopped(jobId), (err) => log.warn({ err: { message: (err as Error)?.message } }, 'workflow: stop broadcasts unavailable'));
      queue.work(runner, config.workflowConcurrency);
    }
  }
  return {
    runner,
    queue,
    async close() {
      // Running steps are aborted unpersisted: their jobs resume from the last transition elsewhere or at the next start.
      await closeActivities();
      if (runner) await runner.stop();
      if (queue) await queue.close();
    },
  };
}
