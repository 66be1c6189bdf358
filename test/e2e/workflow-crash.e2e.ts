/**
 * Durability: a server process is SIGKILLed while its jobs are in a Wait and in a running task; after a restart the
 * jobs resume from their last persisted transition and finish once (each state entered once, one terminal event,
 * the right output). The task that was running when the process died holds a lease: it is taken over when the lease
 * expires (WORKFLOW_LEASE_SECONDS=2 here) and runs again with the same attempt key.
 */
import { CreateStateMachineCommand, DescribeExecutionCommand, GetExecutionHistoryCommand, SFNClient, StartExecutionCommand } from '@aws-sdk/client-sfn';
import { testDialect } from '../helpers/db';
import { waitForExecution } from '../helpers/workflow-jobs';
import { killHard, killStillRunning, ServerProcess, startServerProcess } from '../helpers/process';
import { seedWorkflowKey, SharedDatabase, sharedDatabase } from '../helpers/shared-db';

const ROLE = 'arn:aws:iam::000000000000:role/workflow-runner';

describe(`workflow jobs survive kill -9 (${testDialect()})`, () => {
  let db: SharedDatabase;
  let key: { accessKeyId: string; secretAccessKey: string };
  const running: ServerProcess[] = [];
  const env = () => ({ DATABASE_URL: db.url, SEED_DEMO: 'false', LOG_LEVEL: 'warn', WORKFLOW_LEASE_SECONDS: '2', GATEWAY_SECRET_KEY: 'crash-test-server-key' });
  const client = (url: string) => new SFNClient({ region: 'us-east-1', endpoint: `${url}/workflow`, credentials: key, disableHostPrefix: true, maxAttempts: 1 });

  beforeAll(async () => {
    db = await sharedDatabase('wf-crash');
    key = await seedWorkflowKey(db, 'wf-crash-user', 'crash-test-server-key');
  }, 60_000);

  afterAll(async () => {
    await killStillRunning(running);
    await db?.drop();
  });

  it('a job in a Wait and a job in a running task resume after SIGKILL + restart and finish once', async () => {
    const first = await startServerProcess(env());
    running.push(first);
    const a = client(first.url);
    const definition = {
      StartAt: 'Echo',
      States: {
        Echo: { Type: 'Task', Resource: 'echo', ResultPath: '$.echoed', Next: 'Wait' },
        Wait: { Type: 'Wait', SecondsPath: '$.wait', Next: 'Nap' },
        Nap: { Type: 'Task', Resource: 'sleep', Parameters: { 'seconds.$': '$.nap' }, ResultPath: null, Next: 'Done' },
        Done: { Type: 'Pass', Parameters: { 'echoed.$': '$.echoed.tag' }, End: true },
      },
    };
    const { stateMachineArn } = await a.send(new CreateStateMachineCommand({ name: 'crash', roleArn: ROLE, definition: JSON.stringify(definition) }));
    // Job W is killed in its 3 s Wait; job T inside its 2 s sleep task.
    const w = (await a.send(new StartExecutionCommand({ stateMachineArn, name: 'in-wait', input: JSON.stringify({ tag: 'w', wait: 3, nap: 0 }) }))).executionArn!;
    const t = (await a.send(new StartExecutionCommand({ stateMachineArn, name: 'in-task', input: JSON.stringify({ tag: 't', wait: 0, nap: 2 }) }))).executionArn!;
    const types = async (c: SFNClient, arn: string) => ((await c.send(new GetExecutionHistoryCommand({ executionArn: arn, maxResults: 1000 }))).events ?? []).map((e) => e.type);
    const until = Date.now() + 15_000;
    while (!(await types(a, w)).includes('WaitStateEntered') || !(await types(a, t)).includes('TaskScheduled') || !(await types(a, t)).includes('WaitStateExited')) {
      if (Date.now() > until) throw new Error('jobs did not reach their states');
      await new Promise((r) => setTimeout(r, 50));
    }
    expect((await a.send(new DescribeExecutionCommand({ executionArn: w }))).status).toBe('RUNNING');
    a.destroy();
    await killHard(first);

    const second = await startServerProcess(env());
    running.push(second);
    const b = client(second.url);
    try {
      const settle = (arn: string) => waitForExecution(b, arn, { timeoutMs: 20_000, pollMs: 100 });
      for (const [arn, tag] of [[w, 'w'], [t, 't']] as const) {
        const d = await settle(arn);
        expect([d.status, JSON.parse(d.output!)]).toEqual(['SUCCEEDED', { echoed: tag }]);
        const h = await types(b, arn);
        expect(h.filter((x) => x === 'ExecutionSucceeded')).toHaveLength(1);
        for (const entered of ['TaskStateEntered', 'WaitStateEntered', 'PassStateEntered']) {
          expect([entered, h.filter((x) => x === entered).length]).toEqual([entered, entered === 'TaskStateEntered' ? 2 : 1]);
        }
        expect(h.filter((x) => x === 'TaskSucceeded')).toHaveLength(2);
      }
    } finally {
      b.destroy();
    }
  }, 90_000);
});
