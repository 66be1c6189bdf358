/**
 * The callback pattern (`arn:aws:states:::<task>.waitForTaskToken`) with the REAL @aws-sdk/client-sfn: the gateway's
 * own task runs with `$$.Task.Token` in its Parameters, the job waits (TaskScheduled, TaskStarted, TaskSubmitted) and
 * resumes when another process calls SendTaskSuccess with the token; SendTaskFailure fails it into the job's Catch;
 * a callback without an answer times out with States.Timeout; the token is bound to its attempt. The AWS CLI's
 * send-task-success and send-task-failure answer callbacks as the SDK does.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { CreateStateMachineCommand, DescribeExecutionCommand, GetExecutionHistoryCommand, SendTaskFailureCommand, SendTaskSuccessCommand, SFNClient, StartExecutionCommand } from '@aws-sdk/client-sfn';
import { IdentityFixtures, uniq } from '../fixtures/identity';
import { startTestApp, TestApp } from '../helpers/app';
import { awsStepFunctionsCli, waitForExecution } from '../helpers/workflow-jobs';

const ROLE = 'arn:aws:iam::000000000000:role/workflow-runner';

describe('workflow callbacks (.waitForTaskToken)', () => {
  let t: TestApp;
  let sfn: SFNClient;
  let key: { accessKeyId: string; secretAccessKey: string };

  beforeAll(async () => {
    t = await startTestApp();
    const fx = new IdentityFixtures(t.db.dataSource);
    const user = await fx.user(uniq('cb'));
    const k = await fx.services.identity.createAccessKey(t.db.dataSource.manager, { user: user.login });
    key = { accessKeyId: k.accessKeyId, secretAccessKey: k.secretAccessKey };
    sfn = new SFNClient({ region: 'us-east-1', endpoint: `${t.url}/workflow`, credentials: key, disableHostPrefix: true, maxAttempts: 1 });
  });
  afterAll(async () => {
    sfn?.destroy();
    await t?.close();
  });

  const waitFor = (executionArn: string, pred: (s: string) => boolean) => waitForExecution(sfn, executionArn, { until: pred });
  const events = async (executionArn: string) => (await sfn.send(new GetExecutionHistoryCommand({ executionArn, maxResults: 1000 }))).events ?? [];
  /** The token the job handed its own task (what the receiver of the callback gets), once the job waits. */
  const tokenOf = async (executionArn: string): Promise<string> => {
    const until = Date.now() + 30_000;
    for (;;) {
      const submitted = (await events(executionArn)).find((e) => e.type === 'TaskSubmitted');
      if (submitted) return (JSON.parse(submitted.taskSubmittedEventDetails!.output!) as { token: string }).token;
      if (Date.now() > until) throw new Error('the job never submitted its callback');
      await new Promise((r) => setTimeout(r, 50));
    }
  };

  it('resumes when another process answers SendTaskSuccess with the token', async () => {
    const definition = {
      StartAt: 'Ask',
      States: {
        Ask: { Type: 'Task', Resource: 'arn:aws:states:::echo.waitForTaskToken', Parameters: { 'token.$': '$$.Task.Token', 'order.$': '$.order' }, ResultPath: '$.answer', Next: 'Done' },
        Done: { Type: 'Pass', End: true },
      },
    };
    const { stateMachineArn } = await sfn.send(new CreateStateMachineCommand({ name: 'callback', roleArn: ROLE, definition: JSON.stringify(definition) }));
    const job = await sfn.send(new StartExecutionCommand({ stateMachineArn, input: '{"order":42}' }));
    const token = await tokenOf(job.executionArn!);
    expect((await sfn.send(new DescribeExecutionCommand({ executionArn: job.executionArn }))).status).toBe('RUNNING');

    // The receiver: a separate Node process with the SDK, as the owner of the callback endpoint would run it.
    const script = `
      const { SFNClient, SendTaskSuccessCommand } = require('@aws-sdk/client-sfn');
      const [endpoint, id, secret, token] = process.argv.slice(1);
      const c = new SFNClient({ region: 'us-east-1', endpoint, credentials: { accessKeyId: id, secretAccessKey: secret }, disableHostPrefix: true });
      c.send(new SendTaskSuccessCommand({ taskToken: token, output: JSON.stringify({ approved: true }) })).then(() => process.exit(0), (e) => { console.error(e.name); process.exit(1); });`;
    await promisify(execFile)(process.execPath, ['-e', script, `${t.url}/workflow`, key.accessKeyId, key.secretAccessKey, token], { cwd: process.cwd() });

    const d = await waitFor(job.executionArn!, (s) => s !== 'RUNNING');
    expect(d.status).toBe('SUCCEEDED');
    expect(JSON.parse(d.output!)).toEqual({ order: 42, answer: { approved: true } });
    const types = (await events(job.executionArn!)).map((e) => e.type);
    expect(types).toEqual(['ExecutionStarted', 'TaskStateEntered', 'TaskScheduled', 'TaskStarted', 'TaskSubmitted', 'TaskSucceeded', 'TaskStateExited', 'PassStateEntered', 'PassStateExited', 'ExecutionSucceeded']);
    const scheduled = (await events(job.executionArn!)).find((e) => e.type === 'TaskScheduled')!;
    expect(scheduled.taskScheduledEventDetails).toMatchObject({ resourceType: 'task', resource: 'echo.waitForTaskToken' });
    await expect(sfn.send(new SendTaskSuccessCommand({ taskToken: token, output: '{}' }))).rejects.toMatchObject({ name: 'TaskTimedOut' });
  }, 60_000);

  it('the AWS CLI answers callbacks: send-task-success resumes a job, send-task-failure fails one into its Catch', async () => {
    const cli = (args: string[]) => awsStepFunctionsCli(t.url, key, args);
    const definition = {
      StartAt: 'Ask',
      States: {
        Ask: {
          Type: 'Task',
          Resource: 'arn:aws:states:::echo.waitForTaskToken',
          Parameters: { 'token.$': '$$.Task.Token' },
          ResultPath: '$.answer',
          Catch: [{ ErrorEquals: ['Rejected'], ResultPath: '$.error', Next: 'Caught' }],
          End: true,
        },
        Caught: { Type: 'Pass', End: true },
      },
    };
    const { stateMachineArn } = await sfn.send(new CreateStateMachineCommand({ name: 'callback-cli', roleArn: ROLE, definition: JSON.stringify(definition) }));
    const yes = (await sfn.send(new StartExecutionCommand({ stateMachineArn, input: '{"n":1}' }))).executionArn!;
    const no = (await sfn.send(new StartExecutionCommand({ stateMachineArn, input: '{"n":2}' }))).executionArn!;
    const token = await tokenOf(yes);
    const answered = await cli(['send-task-success', '--task-token', token, '--task-output', '{"approved":true}']);
    const refused = await cli(['send-task-failure', '--task-token', await tokenOf(no), '--error', 'Rejected', '--cause', 'not this one']);
    expect([answered.code, answered.stderr, refused.code, refused.stderr]).toEqual([0, '', 0, '']);
    const a = await waitFor(yes, (s) => s !== 'RUNNING');
    const b = await waitFor(no, (s) => s !== 'RUNNING');
    expect([a.status, JSON.parse(a.output!)]).toEqual(['SUCCEEDED', { n: 1, answer: { approved: true } }]);
    expect([b.status, JSON.parse(b.output!)]).toEqual(['SUCCEEDED', { n: 2, error: { Error: 'Rejected', Cause: 'not this one' } }]);
    // a spent token: the CLI fails with Step Functions' error
    const again = await cli(['send-task-success', '--task-token', token, '--task-output', '{}']);
    expect([again.code === 0, again.stderr]).toEqual([false, expect.stringContaining('TaskTimedOut')]);
  }, 60_000);

  it('SendTaskFailure goes to the Catch; a retried callback gets a new token; no answer times out', async () => {
    const definition = {
      StartAt: 'Ask',
      States: {
        Ask: {
          Type: 'Task',
          Resource: 'arn:aws:states:::echo.waitForTaskToken',
          Parameters: { 'token.$': '$$.Task.Token' },
          TimeoutSeconds: 2,
          Retry: [{ ErrorEquals: ['Rejected'], MaxAttempts: 1, IntervalSeconds: 0 }],
          Catch: [{ ErrorEquals: ['States.ALL'], ResultPath: '$.error', Next: 'Caught' }],
          End: true,
        },
        Caught: { Type: 'Pass', End: true },
      },
    };
    const { stateMachineArn } = await sfn.send(new CreateStateMachineCommand({ name: 'callback-fail', roleArn: ROLE, definition: JSON.stringify(definition) }));
    const job = await sfn.send(new StartExecutionCommand({ stateMachineArn, input: '{}' }));
    const first = await tokenOf(job.executionArn!);
    await sfn.send(new SendTaskFailureCommand({ taskToken: first, error: 'Rejected', cause: 'not now' }));
    // The retry runs the task again with a fresh token; the old one is spent.
    let second = first;
    const until = Date.now() + 30_000;
    while (second === first) {
      const outs = (await events(job.executionArn!)).filter((e) => e.type === 'TaskSubmitted').map((e) => (JSON.parse(e.taskSubmittedEventDetails!.output!) as { token: string }).token);
      if (outs.length > 1) second = outs[1];
      else if (Date.now() > until) throw new Error('no retry');
      else await new Promise((r) => setTimeout(r, 50));
    }
    await expect(sfn.send(new SendTaskSuccessCommand({ taskToken: first, output: '{}' }))).rejects.toMatchObject({ name: 'TaskTimedOut' });
    // Nobody answers the second attempt: States.Timeout, caught.
    const d = await waitFor(job.executionArn!, (s) => s !== 'RUNNING');
    expect(d.status).toBe('SUCCEEDED');
    expect(JSON.parse(d.output!)).toMatchObject({ error: { Error: 'States.Timeout' } });
    const types = (await events(job.executionArn!)).map((e) => e.type);
    expect(types.filter((x) => x === 'TaskFailed')).toHaveLength(1);
    expect(types.filter((x) => x === 'TaskTimedOut')).toHaveLength(1);
    await expect(sfn.send(new SendTaskSuccessCommand({ taskToken: second, output: '{}' }))).rejects.toMatchObject({ name: 'TaskTimedOut' });
  }, 60_000);
});
