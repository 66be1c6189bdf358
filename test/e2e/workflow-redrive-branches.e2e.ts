/**
 * RedriveExecution of a failed Parallel and a failed inline Map with the REAL @aws-sdk/client-sfn, as Step Functions
 * does it: only the failed (and aborted) branches / iterations run again, the succeeded ones keep their results and
 * are not entered again (counted in the history); a nested Parallel in a Map iteration too. ExecutionLimitExceeded
 * when WORKFLOW_MAX_OPEN_JOBS jobs are already running, for StartExecution and RedriveExecution.
 */
import {
  CreateActivityCommand,
  CreateStateMachineCommand,
  DescribeExecutionCommand,
  GetExecutionHistoryCommand,
  HistoryEvent,
  RedriveExecutionCommand,
  SFNClient,
  StartExecutionCommand,
  StopExecutionCommand,
} from '@aws-sdk/client-sfn';
import { IdentityFixtures, uniq } from '../fixtures/identity';
import { startTestApp, TestApp } from '../helpers/app';

const ROLE = 'arn:aws:iam::000000000000:role/workflow-runner';

/**
 * A Task that fails before the job is redriven and succeeds after: `sleep` refuses -1 seconds and takes 0
 * ($$.Execution.RedriveCount - 1); then a Pass answers 'fixed'. A redrive enters the failed Task state again.
 */
const flaky = (name: string, next: { End: true } | { Next: string }) => ({
  [name]: { Type: 'Task', Resource: 'sleep', Parameters: { 'seconds.$': 'States.MathAdd($$.Execution.RedriveCount, -1)' }, Next: `${name}Ok` },
  [`${name}Ok`]: { Type: 'Pass', Result: 'fixed', ...next },
});

describe('workflow redrive of Parallel branches and Map iterations', () => {
  let t: TestApp;
  let sfn: SFNClient;

  beforeAll(async () => {
    t = await startTestApp();
    const fx = new IdentityFixtures(t.db.dataSource);
    const user = await fx.user(uniq('rdb'));
    const k = await fx.services.identity.createAccessKey(t.db.dataSource.manager, { user: user.login });
    sfn = new SFNClient({ region: 'us-east-1', endpoint: `${t.url}/workflow`, credentials: { accessKeyId: k.accessKeyId, secretAccessKey: k.secretAccessKey }, disableHostPrefix: true, maxAttempts: 1 });
  });
  afterAll(async () => {
    sfn?.destroy();
    await t?.close();
  });

  const waitFor = async (executionArn: string, status: string) => {
    const until = Date.now() + 30_000;
    for (;;) {
      const d = await sfn.send(new DescribeExecutionCommand({ executionArn }));
      if (d.status === status) return d;
      if (Date.now() > until || (status === 'SUCCEEDED' && d.status === 'FAILED') || (status === 'FAILED' && d.status === 'SUCCEEDED')) throw new Error(`${executionArn}: ${d.status} (${d.error}: ${d.cause}), expected ${status}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  };
  const events = async (executionArn: string): Promise<HistoryEvent[]> => (await sfn.send(new GetExecutionHistoryCommand({ executionArn, maxResults: 1000 }))).events ?? [];
  /** How often each state was entered (by name). */
  const entered = (h: HistoryEvent[]) => {
    const n: Record<string, number> = {};
    for (const e of h) if (e.stateEnteredEventDetails) n[e.stateEnteredEventDetails.name!] = (n[e.stateEnteredEventDetails.name!] ?? 0) + 1;
    return n;
  };
  const start = async (definition: unknown, input: unknown = {}) => {
    const { stateMachineArn } = await sfn.send(new CreateStateMachineCommand({ name: uniq('rdb'), roleArn: ROLE, definition: JSON.stringify(definition) }));
    return (await sfn.send(new StartExecutionCommand({ stateMachineArn, input: JSON.stringify(input) }))).executionArn!;
  };

  it('a failed Parallel runs only its failed branch again; the others keep their results', async () => {
    const arn = await start({
      StartAt: 'First',
      States: {
        First: { Type: 'Pass', Next: 'Fan' },
        Fan: {
          Type: 'Parallel',
          Branches: [
            { StartAt: 'A', States: { A: { Type: 'Pass', Result: 'a', Next: 'A2' }, A2: { Type: 'Task', Resource: 'echo', End: true } } },
            { StartAt: 'B', States: { B: { Type: 'Task', Resource: 'echo', Parameters: { v: 'b' }, End: true } } },
            // two Pass states first: the branches step in rounds, so A's echo has finished before C's task fails
            { StartAt: 'C0', States: { C0: { Type: 'Pass', Next: 'C1' }, C1: { Type: 'Pass', Next: 'C' }, ...flaky('C', { End: true }) } },
          ],
          Next: 'Last',
        },
        Last: { Type: 'Pass', End: true },
      },
    });
    const failed = await waitFor(arn, 'FAILED');
    expect(failed).toMatchObject({ error: 'Validation', redriveStatus: 'REDRIVABLE' });

    await sfn.send(new RedriveExecutionCommand({ executionArn: arn }));
    const d = await waitFor(arn, 'SUCCEEDED');
    expect(JSON.parse(d.output!)).toEqual(['a', { v: 'b' }, 'fixed']);
    expect(d.redriveCount).toBe(1);
    const h = await events(arn);
    // the succeeded branches' states once, the failed branch's state again, the Parallel itself entered once
    expect(entered(h)).toEqual({ First: 1, Fan: 1, A: 1, A2: 1, B: 1, C0: 1, C1: 1, C: 2, COk: 1, Last: 1 });
    const types = h.map((e) => e.type);
    expect(h.filter((e) => e.taskScheduledEventDetails?.resource === 'echo')).toHaveLength(2); // the echo tasks ran once each
    expect(types.slice(types.indexOf('ExecutionRedriven'))).toEqual([
      'ExecutionRedriven',
      'TaskStateEntered',
      'TaskScheduled',
      'TaskStarted',
      'TaskSucceeded',
      'TaskStateExited',
      'PassStateEntered',
      'PassStateExited',
      'ParallelStateSucceeded',
      'ParallelStateExited',
      'PassStateEntered',
      'PassStateExited',
      'ExecutionSucceeded',
    ]);
  });

  it('a failed inline Map runs only its failed iterations again (results in item order), also a Parallel nested in one', async () => {
    const arn = await start(
      {
        StartAt: 'Each',
        States: {
          Each: {
            Type: 'Map',
            ItemsPath: '$.items',
            MaxConcurrency: 2,
            ItemProcessor: {
              StartAt: 'Which',
              States: {
                Which: { Type: 'Choice', Choices: [{ Variable: '$', NumericEquals: 3, Next: 'Inner' }], Default: 'Plain' },
                Plain: { Type: 'Task', Resource: 'echo', End: true },
                Inner: {
                  Type: 'Parallel',
                  Branches: [
                    { StartAt: 'Good', States: { Good: { Type: 'Task', Resource: 'echo', Parameters: { good: true }, End: true } } },
                    { StartAt: 'Pad', States: { Pad: { Type: 'Pass', Next: 'Bad' }, ...flaky('Bad', { End: true }) } },
                  ],
                  End: true,
                },
              },
            },
            End: true,
          },
        },
      },
      { items: [1, 2, 3, 4, 5] },
    );
    await waitFor(arn, 'FAILED');
    await sfn.send(new RedriveExecutionCommand({ executionArn: arn }));
    const d = await waitFor(arn, 'SUCCEEDED');
    expect(JSON.parse(d.output!)).toEqual([1, 2, [{ good: true }, 'fixed'], 4, 5]);
    const h = await events(arn);
    // every echo (items 1, 2, 4, 5 and the nested Good) succeeded once over both runs: none that had succeeded ran
    // again (an iteration still running when item 3 failed was aborted, and runs on the redrive); Bad ran twice
    expect(h.filter((e) => e.taskSucceededEventDetails?.resource === 'echo')).toHaveLength(5);
    expect(entered(h)).toMatchObject({ Each: 1, Inner: 1, Good: 1, Bad: 2, BadOk: 1 });
  });

  it('answers ExecutionLimitExceeded to StartExecution and RedriveExecution when WORKFLOW_MAX_OPEN_JOBS jobs are running', async () => {
    const { activityArn } = await sfn.send(new CreateActivityCommand({ name: uniq('hold') }));
    const waiting = await start({ StartAt: 'Hold', States: { Hold: { Type: 'Task', Resource: activityArn, End: true } } });
    await waitFor(waiting, 'RUNNING');
    const failing = await start({ StartAt: 'X', States: flaky('X', { End: true }) });
    await waitFor(failing, 'FAILED');

    const limit = t.config.workflowMaxOpenJobs;
    try {
      // the limit is the number of jobs running now (the one holding, plus whatever else runs)
      t.config.workflowMaxOpenJobs = 1;
      const e1 = await sfn.send(new RedriveExecutionCommand({ executionArn: failing })).catch((e: Error) => e);
      expect(e1).toMatchObject({ name: 'ExecutionLimitExceeded', $metadata: { httpStatusCode: 400 } });
      expect((await sfn.send(new DescribeExecutionCommand({ executionArn: failing }))).status).toBe('FAILED');
      const { stateMachineArn } = await sfn.send(new CreateStateMachineCommand({ name: uniq('lim'), roleArn: ROLE, definition: JSON.stringify({ StartAt: 'P', States: { P: { Type: 'Pass', End: true } } }) }));
      const e2 = await sfn.send(new StartExecutionCommand({ stateMachineArn })).catch((e: Error) => e);
      expect(e2).toMatchObject({ name: 'ExecutionLimitExceeded' });

      // once the holding job ends, both go through
      await sfn.send(new StopExecutionCommand({ executionArn: waiting }));
      await waitFor(waiting, 'ABORTED');
      await sfn.send(new RedriveExecutionCommand({ executionArn: failing }));
      await waitFor(failing, 'SUCCEEDED');
    } finally {
      t.config.workflowMaxOpenJobs = limit;
    }
  });
});
