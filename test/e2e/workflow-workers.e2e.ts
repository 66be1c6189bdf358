/**
 * Scale-out on Redis: a gateway that only dispatches (WORKFLOW_RUNNER=dispatch) and two `npm run worker` processes
 * (dist/src/worker.js) share 200 jobs through BullMQ; one worker is SIGKILLed midway. Every job still succeeds,
 * each exactly once (one ExecutionSucceeded, its task succeeded once), and both workers ran jobs.
 */
import type { ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import Redis from 'ioredis';
import { CreateStateMachineCommand, DescribeExecutionCommand, GetExecutionHistoryCommand, ListExecutionsCommand, SFNClient, StartExecutionCommand, StopExecutionCommand } from '@aws-sdk/client-sfn';
import { startWorkerProcess } from '../../bench/worker-process';
import { testDialect } from '../helpers/db';
import { killHard, killStillRunning, ServerProcess, startServerProcess } from '../helpers/process';
import { seedWorkflowKey, SharedDatabase, sharedDatabase } from '../helpers/shared-db';

const ROLE = 'arn:aws:iam::000000000000:role/workflow-runner';
const JOBS = 200;

const startWorker = (env: Record<string, string>) => startWorkerProcess(env);

/** Jobs a worker's log says it ended. */
const ended = (log: string) => log.split('\n').filter((l) => l.includes('"workflow job ended"')).map((l) => JSON.parse(l) as { arn: string; status: string });

describe(`workflow workers on Redis (${testDialect()})`, () => {
  let db: SharedDatabase;
  let key: { accessKeyId: string; secretAccessKey: string };
  const processes: Array<{ child: ChildProcess; exited: Promise<number | null> }> = [];
  const prefix = `wftest-${randomUUID().slice(0, 8)}`;
  const env = () => ({
    DATABASE_URL: db.url,
    REDIS_URL: 'redis://127.0.0.1:6379',
    WORKFLOW_QUEUE_PREFIX: prefix,
    WORKFLOW_LEASE_SECONDS: '3',
    WORKFLOW_CONCURRENCY: '16',
    GATEWAY_SECRET_KEY: 'workers-test-key',
    SEED_DEMO: 'false',
    LOG_LEVEL: 'info',
  });

  beforeAll(async () => {
    db = await sharedDatabase('wf-workers');
    key = await seedWorkflowKey(db, 'wf-workers-user', 'workers-test-key');
  }, 60_000);

  afterAll(async () => {
    await killStillRunning(processes);
    await db?.drop();
    // The test's queue keys go with it.
    const redis = new Redis('redis://127.0.0.1:6379');
    try {
      const keys = await redis.keys(`${prefix}:*`);
      if (keys.length) await redis.del(...keys);
    } finally {
      redis.disconnect();
    }
  });

  it('two workers share 200 jobs; killing one midway loses none and runs none twice', async () => {
    const gateway: ServerProcess = await startServerProcess({ ...env(), WORKFLOW_RUNNER: 'dispatch', LOG_LEVEL: 'warn' });
    processes.push(gateway);
    const w1 = await startWorker(env());
    processes.push(w1);
    const w2 = await startWorker(env());
    processes.push(w2);
    const sfn = new SFNClient({ region: 'us-east-1', endpoint: `${gateway.url}/workflow`, credentials: key, disableHostPrefix: true, maxAttempts: 1 });
    try {
      const definition = { StartAt: 'Work', States: { Work: { Type: 'Task', Resource: 'sleep', Parameters: { seconds: 0.2, 'n.$': '$.n' }, Next: 'Done' }, Done: { Type: 'Pass', End: true } } };
      const { stateMachineArn } = await sfn.send(new CreateStateMachineCommand({ name: 'shared', roleArn: ROLE, definition: JSON.stringify(definition) }));
      const arns: string[] = [];
      for (let i = 0; i < JOBS; i++) arns.push((await sfn.send(new StartExecutionCommand({ stateMachineArn, name: `job-${i}`, input: JSON.stringify({ n: i }) }))).executionArn!);

      // Kill worker 1 once it has finished some jobs (it is then in the middle of others).
      const until = Date.now() + 30_000;
      while (ended(w1.out()).length < 20) {
        if (Date.now() > until) throw new Error(`worker 1 ended too few jobs:\n${w1.out().slice(-2000)}`);
        await new Promise((r) => setTimeout(r, 50));
      }
      await killHard(w1);
      const byW1 = new Set(ended(w1.out()).map((e) => e.arn));

      const deadline = Date.now() + 90_000;
      for (;;) {
        const running = (await sfn.send(new ListExecutionsCommand({ stateMachineArn, statusFilter: 'RUNNING', maxResults: 1000 }))).executions ?? [];
        if (running.length === 0) break;
        if (Date.now() > deadline) throw new Error(`${running.length} jobs still RUNNING`);
        await new Promise((r) => setTimeout(r, 200));
      }
      const byW2 = new Set(ended(w2.out()).map((e) => e.arn));
      expect(byW1.size).toBeGreaterThanOrEqual(20);
      expect(byW2.size).toBeGreaterThan(0);
      expect([...byW1].filter((a) => byW2.has(a))).toEqual([]); // no job ended twice
      // (Not every job of worker 1 is in its log: lines still buffered when it was killed are lost with it.)
      for (const arn of arns) {
        const d = await sfn.send(new DescribeExecutionCommand({ executionArn: arn }));
        expect([arn, d.status]).toEqual([arn, 'SUCCEEDED']);
      }
      // Every history: one terminal event, the task succeeded once.
      for (const arn of arns) {
        const types = ((await sfn.send(new GetExecutionHistoryCommand({ executionArn: arn, maxResults: 1000 }))).events ?? []).map((e) => e.type);
        expect([arn, types.filter((x) => x === 'ExecutionSucceeded').length, types.filter((x) => x === 'TaskSucceeded').length]).toEqual([arn, 1, 1]);
      }
    } finally {
      sfn.destroy();
    }
  }, 180_000);

  it('StopExecution reaches the worker running the job at once (Redis broadcast), not at its next lease renewal', async () => {
    // The first test's processes would take this test's jobs through the due-jobs poll: gone.
    await killStillRunning(processes.splice(0));
    // One slot and a 120 s lease (renewed every 40 s): the slot frees in time only if the stop reaches the worker.
    const slow = { ...env(), WORKFLOW_QUEUE_PREFIX: `${prefix}-stop`, WORKFLOW_LEASE_SECONDS: '120', WORKFLOW_CONCURRENCY: '1' };
    const gateway: ServerProcess = await startServerProcess({ ...slow, WORKFLOW_RUNNER: 'dispatch', LOG_LEVEL: 'warn' });
    processes.push(gateway);
    const w = await startWorker(slow);
    processes.push(w);
    const sfn = new SFNClient({ region: 'us-east-1', endpoint: `${gateway.url}/workflow`, credentials: key, disableHostPrefix: true, maxAttempts: 1 });
    try {
      const create = async (name: string, definition: object) =>
        (await sfn.send(new CreateStateMachineCommand({ name, roleArn: ROLE, definition: JSON.stringify(definition) }))).stateMachineArn!;
      const sleepy = await create('sleepy', { StartAt: 'Nap', States: { Nap: { Type: 'Task', Resource: 'sleep', Parameters: { seconds: 300 }, End: true } } });
      const quick = await create('quick', { StartAt: 'P', States: { P: { Type: 'Pass', Result: 'ok', End: true } } });
      const a = (await sfn.send(new StartExecutionCommand({ stateMachineArn: sleepy }))).executionArn!;
      const until = Date.now() + 20_000;
      for (;;) {
        const types = ((await sfn.send(new GetExecutionHistoryCommand({ executionArn: a }))).events ?? []).map((e) => e.type);
        // (TaskStarted is written with the task's end; TaskScheduled is written before the task runs)
        if (types.includes('TaskScheduled')) break;
        if (Date.now() > until) throw new Error(`the sleepy job never started its task: ${types.join(',')}`);
        await new Promise((r) => setTimeout(r, 50));
      }
      await new Promise((r) => setTimeout(r, 300)); // the worker is in the task now
      await sfn.send(new StopExecutionCommand({ executionArn: a }));
      const b = (await sfn.send(new StartExecutionCommand({ stateMachineArn: quick }))).executionArn!;
      const t0 = Date.now();
      let d = await sfn.send(new DescribeExecutionCommand({ executionArn: b }));
      while (d.status === 'RUNNING' && Date.now() - t0 < 15_000) {
        await new Promise((r) => setTimeout(r, 50));
        d = await sfn.send(new DescribeExecutionCommand({ executionArn: b }));
      }
      expect([d.status, d.output]).toEqual(['SUCCEEDED', '"ok"']);
      expect((await sfn.send(new DescribeExecutionCommand({ executionArn: a }))).status).toBe('ABORTED');
    } finally {
      sfn.destroy();
    }
  }, 90_000);
});
