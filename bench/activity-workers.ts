/**
 * The workers of the workflow-activities bench (bench/activities.ts), in a child process so that their CPU (the
 * SDK's signing and parsing) is not counted as the gateway's: `workers` @aws-sdk/client-sfn clients, each looping
 * GetActivityTask -> SendTaskSuccess (the task's input as its output) until `tasks` tasks are done, then the polls
 * still parked are abandoned. Driven over IPC: one 'go' message per round, one answer per round.
 */
import { GetActivityTaskCommand, SendTaskSuccessCommand, SFNClient } from '@aws-sdk/client-sfn';

export interface WorkersGo {
  endpoint: string;
  accessKeyId: string;
  secretAccessKey: string;
  activityArn: string;
  workers: number;
  tasks: number;
}

export interface WorkersDone {
  completed: number;
  emptyPolls: number;
  seconds: number;
  cpuUs: number;
  error?: string;
}

async function round(go: WorkersGo): Promise<WorkersDone> {
  const clients = Array.from(
    { length: go.workers },
    () => new SFNClient({ region: 'us-east-1', endpoint: go.endpoint, credentials: { accessKeyId: go.accessKeyId, secretAccessKey: go.secretAccessKey }, disableHostPrefix: true, maxAttempts: 1 }),
  );
  const stop = new AbortController();
  let completed = 0;
  let emptyPolls = 0;
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  try {
    await Promise.all(
      clients.map(async (c, i) => {
        while (completed < go.tasks) {
          let task;
          try {
            task = await c.send(new GetActivityTaskCommand({ activityArn: go.activityArn, workerName: `bench-${i}` }), { abortSignal: stop.signal });
          } catch (e) {
            if (stop.signal.aborted) return;
            throw e;
          }
          if (!task.taskToken) {
            emptyPolls++;
            continue;
          }
          await c.send(new SendTaskSuccessCommand({ taskToken: task.taskToken, output: task.input ?? '{}' }));
          if (++completed >= go.tasks) stop.abort();
        }
      }),
    );
  } finally {
    for (const c of clients) c.destroy();
  }
  const cpu = process.cpuUsage(cpu0);
  return { completed, emptyPolls, seconds: (performance.now() - t0) / 1000, cpuUs: cpu.user + cpu.system };
}

process.on('message', (go: WorkersGo) => {
  round(go).then(
    (done) => process.send!(done),
    (e: unknown) => process.send!({ completed: 0, emptyPolls: 0, seconds: 0, cpuUs: 0, error: e instanceof Error ? `${e.name}: ${e.message}` : String(e) }),
  );
});
process.send?.({ ready: true });
