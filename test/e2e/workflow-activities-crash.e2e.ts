/**
 * Activities survive kill -9: with tasks scheduled (not yet taken), handed out, and handed out + heartbeated, the
 * gateway process is SIGKILLed; after a restart the tokens handed out before still complete their tasks, the
 * scheduled ones are handed out by the new process, no task is lost and none completes twice (history checked; a
 * repeated answer is TaskTimedOut; no task is handed out twice).
 */
import {
  CreateActivityCommand,
  CreateStateMachineCommand,
  DescribeExecutionCommand,
  GetActivityTaskCommand,
  GetExecutionHistoryCommand,
  SendTaskHeartbeatCommand,
  SendTaskSuccessCommand,
  SFNClient,
  StartExecutionCommand,
} from '@aws-sdk/client-sfn';
import { testDialect } from '../helpers/db';
import { killHard, killStillRunning, ServerProcess, startServerProcess } from '../helpers/process';
import { seedWorkflowKey, SharedDatabase, sharedDatabase } from '../helpers/shared-db';

const ROLE = 'arn:aws:iam::000000000000:role/workflow-runner';
const JOBS = 6;

describe(`workflow activity tasks survive kill -9 (${testDialect()})`, () => {
  let db: SharedDatabase;
  let key: { accessKeyId: string; secretAccessKey: string };
  const running: ServerProcess[] = [];
  const env = () => ({
    DATABASE_URL: db.url,
    SEED_DEMO: 'false',
    LOG_LEVEL: 'warn',
    WORKFLOW_LEASE_SECONDS: '2',
    WORKFLOW_ACTIVITY_POLL_SECONDS: '1',
    GATEWAY_SECRET_KEY: 'activities-crash-key',
  });
  const client = (url: string) => new SFNClient({ region: 'us-east-1', endpoint: `${url}/workflow`, credentials: key, disableHostPrefix: true, maxAttempts: 1 });

  beforeAll(async () => {
    db = await sharedDatabase('wf-act-crash');
    key = await seedWorkflowKey(db, 'wf-act-crash-user', 'activities-crash-key');
  }, 60_000);

  afterAll(async () => {
    await killStillRunning(running);
    await db?.drop();
  });

  it('scheduled, handed-out and heartbeated tasks all complete once after SIGKILL + restart', async () => {
    const first = await startServerProcess(env());
    running.push(first);
    const a = client(first.url);
    const { activityArn } = await a.send(new CreateActivityCommand({ name: 'durable' }));
    const definition = { StartAt: 'Work', States: { Work: { Type: 'Task', Resource: activityArn, HeartbeatSeconds: 60, TimeoutSeconds: 300, End: true } } };
    const { stateMachineArn } = await a.send(new CreateStateMachineCommand({ name: 'durable', roleArn: ROLE, definition: JSON.stringify(definition) }));
    const arns: string[] = [];
    for (let i = 0; i < JOBS; i++) arns.push((await a.send(new StartExecutionCommand({ stateMachineArn, name: `job-${i}`, input: JSON.stringify({ n: i }) }))).executionArn!);
    const take = async (c: SFNClient) => {
      const until = Date.now() + 30_000;
      for (;;) {
        const t = await c.send(new GetActivityTaskCommand({ activityArn, workerName: 'crash' }));
        if (t.taskToken) return { token: t.taskToken, n: (JSON.parse(t.input!) as { n: number }).n };
        if (Date.now() > until) throw new Error('no task handed out');
      }
    };
    // Two handed out before the crash, one of them heartbeated; the other four only scheduled.
    const handed = [await take(a), await take(a)];
    await a.send(new SendTaskHeartbeatCommand({ taskToken: handed[0].token }));
    a.destroy();
    await killHard(first);

    const second = await startServerProcess(env());
    running.push(second);
    const b = client(second.url);
    try {
      // Tokens from before the crash still work.
      await b.send(new SendTaskHeartbeatCommand({ taskToken: handed[1].token }));
      for (const h of handed) await b.send(new SendTaskSuccessCommand({ taskToken: h.token, output: JSON.stringify({ done: h.n }) }));
      // The scheduled ones are handed out by the new process, each once.
      const later = [];
      for (let i = 0; i < JOBS - handed.length; i++) later.push(await take(b));
      const all = [...handed, ...later].map((h) => h.n).sort((x, y) => x - y);
      expect(all).toEqual([0, 1, 2, 3, 4, 5]);
      for (const h of later) await b.send(new SendTaskSuccessCommand({ taskToken: h.token, output: JSON.stringify({ done: h.n }) }));
      // Nothing more to hand out; a repeated answer is refused.
      expect((await b.send(new GetActivityTaskCommand({ activityArn }))).taskToken).toBeUndefined();
      await expect(b.send(new SendTaskSuccessCommand({ taskToken: handed[0].token, output: '{}' }))).rejects.toMatchObject({ name: 'TaskTimedOut' });

      for (const [i, arn] of arns.entries()) {
        const stop = Date.now() + 30_000;
        let d;
        for (;;) {
          d = await b.send(new DescribeExecutionCommand({ executionArn: arn }));
          if (d.status !== 'RUNNING') break;
          if (Date.now() > stop) throw new Error(`${arn} still RUNNING`);
          await new Promise((r) => setTimeout(r, 100));
        }
        expect([d.status, JSON.parse(d.output!)]).toEqual(['SUCCEEDED', { done: i }]);
        const h = ((await b.send(new GetExecutionHistoryCommand({ executionArn: arn, maxResults: 1000 }))).events ?? []).map((e) => e.type);
        for (const type of ['ActivityScheduled', 'ActivityStarted', 'ActivitySucceeded', 'ExecutionSucceeded']) expect([type, h.filter((x) => x === type).length]).toEqual([type, 1]);
      }
    } finally {
      b.destroy();
    }
  }, 120_000);
});
