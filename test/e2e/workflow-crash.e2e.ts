/**
 * Durability: a server process is SIGKILLed while its jobs are in a Wait and in a running task; after a restart the
 * jobs resume from their last persisted transition and finish once (each state entered once, one terminal event,
 * the right output). The task that was running when the process died holds a lease: it is taken over when the lease
 * expires (WORKFLOW_LEASE_SECONDS=2 here) and runs again with the same attempt key. Jobs killed in a long loop of
 * task-free states resume from their last written step: every iteration shows once in the history, the ids run on
 * without a gap, and the output is the loop's (the guard a runner that writes such steps in batches must pass).
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

  it('jobs killed in a loop of task-free states resume from their last written step, each iteration once', async () => {
    const first = await startServerProcess(env());
    running.push(first);
    const a = client(first.url);
    // 4 events an iteration (Pass and Choice, entered and exited): 4,000 events a job, several history pages; the
    // kill below comes after 100 iterations of the first job, well before its end.
    const n = 1000;
    const definition = {
      StartAt: 'Loop',
      States: {
        Loop: { Type: 'Pass', Parameters: { 'n.$': 'States.MathAdd($.n, 1)' }, Next: 'More' },
        More: { Type: 'Choice', Choices: [{ Variable: '$.n', NumericLessThan: n, Next: 'Loop' }], Default: 'Done' },
        Done: { Type: 'Succeed' },
      },
    };
    const { stateMachineArn } = await a.send(new CreateStateMachineCommand({ name: 'crash-loop', roleArn: ROLE, definition: JSON.stringify(definition) }));
    const arns: string[] = [];
    for (let i = 0; i < 3; i++) arns.push((await a.send(new StartExecutionCommand({ stateMachineArn, name: `loop-${i}`, input: JSON.stringify({ n: 0 }) }))).executionArn!);
    const history = async (c: SFNClient, arn: string) => {
      const events: Array<{ id: number; type: string; input?: string }> = [];
      let nextToken: string | undefined;
      do {
        const page = await c.send(new GetExecutionHistoryCommand({ executionArn: arn, maxResults: 1000, nextToken }));
        for (const e of page.events ?? []) events.push({ id: e.id!, type: e.type!, input: e.stateEnteredEventDetails?.input });
        nextToken = page.nextToken;
      } while (nextToken);
      return events;
    };
    // Killed once the first job is well into its loop (its last written step somewhere in the middle).
    const until = Date.now() + 30_000;
    let seen = 0;
    while ((seen = (await a.send(new GetExecutionHistoryCommand({ executionArn: arns[0], maxResults: 1000 }))).events!.length) < 400) {
      if (Date.now() > until) throw new Error('the loop did not get going');
      await new Promise((r) => setTimeout(r, 20));
    }
    const last = (await a.send(new GetExecutionHistoryCommand({ executionArn: arns[0], maxResults: 1, reverseOrder: true }))).events![0];
    await killHard(first);
    a.destroy();
    // the kill came mid-loop for the job watched (the others may be anywhere)
    expect([seen >= 400, last.type]).toEqual([true, expect.stringMatching(/^(Pass|Choice)State(Entered|Exited)$/)]);

    const second = await startServerProcess(env());
    running.push(second);
    const b = client(second.url);
    try {
      for (const arn of arns) {
        const d = await waitForExecution(b, arn, { timeoutMs: 60_000, pollMs: 100 });
        expect([d.status, JSON.parse(d.output!)]).toEqual(['SUCCEEDED', { n }]);
        const events = await history(b, arn);
        expect(events.map((e) => e.id)).toEqual(events.map((_, i) => i + 1));
        // each iteration entered the Pass state once, with the count it had then: 0, 1, ..., n - 1
        const counts = events.filter((e) => e.type === 'PassStateEntered').map((e) => (JSON.parse(e.input!) as { n: number }).n);
        expect(counts).toEqual(Array.from({ length: n }, (_, i) => i));
        expect(events.filter((e) => e.type === 'ChoiceStateEntered')).toHaveLength(n);
        expect(events.filter((e) => e.type === 'ExecutionSucceeded')).toHaveLength(1);
        expect(events).toHaveLength(2 + 4 * n + 2);
      }
    } finally {
      b.destroy();
    }
  }, 120_000);
});
