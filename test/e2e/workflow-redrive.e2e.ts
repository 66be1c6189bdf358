/**
 * RedriveExecution with the REAL @aws-sdk/client-sfn and the AWS CLI: a job whose activity failed is redriven to
 * success without running again what succeeded (history: ExecutionRedriven, the failed state entered again, the first
 * state once), $$.Execution.RedriveCount, DescribeExecution's redrive members, Step Functions' errors
 * (ExecutionNotRedrivable for a running or succeeded job, ExecutionDoesNotExist), a stopped job redriven, and the CLI's
 * activity and redrive commands.
 */
import {
  CreateActivityCommand,
  CreateStateMachineCommand,
  GetActivityTaskCommand,
  GetExecutionHistoryCommand,
  ListExecutionsCommand,
  RedriveExecutionCommand,
  SendTaskFailureCommand,
  SendTaskSuccessCommand,
  SFNClient,
  StartExecutionCommand,
  StopExecutionCommand,
} from '@aws-sdk/client-sfn';
import { IdentityFixtures, uniq } from '../fixtures/identity';
import { startTestApp, TestApp } from '../helpers/app';
import { waitForExecution, awsStepFunctionsCli } from '../helpers/workflow-jobs';

const ROLE = 'arn:aws:iam::000000000000:role/workflow-runner';

describe('workflow redrive', () => {
  let t: TestApp;
  let sfn: SFNClient;
  let key: { accessKeyId: string; secretAccessKey: string };

  beforeAll(async () => {
    t = await startTestApp({ env: { WORKFLOW_ACTIVITY_POLL_SECONDS: '1' } });
    const fx = new IdentityFixtures(t.db.dataSource);
    const user = await fx.user(uniq('rd'));
    const k = await fx.services.identity.createAccessKey(t.db.dataSource.manager, { user: user.login });
    key = { accessKeyId: k.accessKeyId, secretAccessKey: k.secretAccessKey };
    sfn = new SFNClient({ region: 'us-east-1', endpoint: `${t.url}/workflow`, credentials: key, disableHostPrefix: true, maxAttempts: 1 });
  });
  afterAll(async () => {
    sfn?.destroy();
    await t?.close();
  });

  const waitFor = (executionArn: string, status: string) => waitForExecution(sfn, executionArn, { until: (s) => s === status });
  const take = async (activityArn: string) => {
    for (;;) {
      const task = await sfn.send(new GetActivityTaskCommand({ activityArn }));
      if (task.taskToken) return { token: task.taskToken, input: JSON.parse(task.input!) as Record<string, unknown> };
    }
  };
  const types = async (executionArn: string) => ((await sfn.send(new GetExecutionHistoryCommand({ executionArn, maxResults: 1000 }))).events ?? []).map((e) => e.type);
  const errorName = (p: Promise<unknown>) => p.then(() => 'ok', (e: Error) => e.name);

  const machine = async (name: string) => {
    const { activityArn } = await sfn.send(new CreateActivityCommand({ name }));
    const definition = {
      StartAt: 'Prepare',
      States: {
        Prepare: { Type: 'Task', Resource: 'echo', Parameters: { 'order.$': '$.order' }, ResultPath: '$.prepared', Next: 'Work' },
        Work: { Type: 'Task', Resource: activityArn, Parameters: { 'order.$': '$.order', 'redrives.$': '$$.Execution.RedriveCount' }, ResultPath: '$.work', Next: 'Done' },
        Done: { Type: 'Pass', End: true },
      },
    };
    const { stateMachineArn } = await sfn.send(new CreateStateMachineCommand({ name, roleArn: ROLE, definition: JSON.stringify(definition) }));
    return { activityArn: activityArn!, stateMachineArn: stateMachineArn! };
  };

  it('redrives a failed job to success, keeping what succeeded', async () => {
    const { activityArn, stateMachineArn } = await machine('redrive-failed');
    const { executionArn } = await sfn.send(new StartExecutionCommand({ stateMachineArn, input: '{"order":7}' }));
    expect(await errorName(sfn.send(new RedriveExecutionCommand({ executionArn })))).toBe('ExecutionNotRedrivable');
    const first = await take(activityArn);
    expect(first.input).toEqual({ order: 7, redrives: 0 });
    await sfn.send(new SendTaskFailureCommand({ taskToken: first.token, error: 'Flaky', cause: 'try later' }));
    const failed = await waitFor(executionArn!, 'FAILED');
    expect(failed).toMatchObject({ error: 'Flaky', redriveCount: 0, redriveStatus: 'REDRIVABLE' });

    const { redriveDate } = await sfn.send(new RedriveExecutionCommand({ executionArn }));
    expect(redriveDate).toBeInstanceOf(Date);
    const second = await take(activityArn);
    expect(second.input).toEqual({ order: 7, redrives: 1 });
    await sfn.send(new SendTaskSuccessCommand({ taskToken: second.token, output: '{"ok":true}' }));
    const done = await waitFor(executionArn!, 'SUCCEEDED');
    expect(JSON.parse(done.output!)).toEqual({ order: 7, prepared: { order: 7 }, work: { ok: true } });
    expect(done).toMatchObject({ redriveCount: 1, redriveStatus: 'NOT_REDRIVABLE' });
    expect(done.redriveDate?.getTime()).toBe(redriveDate!.getTime());
    const h = await types(executionArn!);
    expect(h.filter((x) => x === 'ExecutionRedriven')).toHaveLength(1);
    expect(h.filter((x) => x === 'TaskSucceeded')).toHaveLength(1); // Prepare ran once
    expect(h.filter((x) => x === 'ActivityScheduled')).toHaveLength(2);
    expect(h.indexOf('ExecutionRedriven')).toBe(h.indexOf('ExecutionFailed') + 1);
    expect(await errorName(sfn.send(new RedriveExecutionCommand({ executionArn })))).toBe('ExecutionNotRedrivable');
    expect(await errorName(sfn.send(new RedriveExecutionCommand({ executionArn: `${executionArn}-none` })))).toBe('ExecutionDoesNotExist');
    const redrivenList = await sfn.send(new ListExecutionsCommand({ stateMachineArn, redriveFilter: 'REDRIVEN' }));
    expect(redrivenList.executions?.map((e) => [e.executionArn, e.redriveCount])).toEqual([[executionArn, 1]]);
    expect((await sfn.send(new ListExecutionsCommand({ stateMachineArn, redriveFilter: 'NOT_REDRIVEN' }))).executions).toEqual([]);
  }, 60_000);

  it('redrives a stopped job; the AWS CLI redrives, works activities and creates, lists and deletes them', async () => {
    const { activityArn, stateMachineArn } = await machine('redrive-cli');
    const { executionArn } = await sfn.send(new StartExecutionCommand({ stateMachineArn, input: '{"order":8}' }));
    const stale = await take(activityArn);
    await sfn.send(new StopExecutionCommand({ executionArn }));
    expect(await errorName(sfn.send(new SendTaskSuccessCommand({ taskToken: stale.token, output: '{}' })))).toBe('TaskTimedOut');

    const cli = (args: string[]) => awsStepFunctionsCli(t.url, key, args);
    const redriven = await cli(['redrive-execution', '--execution-arn', executionArn!]);
    expect(redriven.stderr).toBe('');
    expect(JSON.parse(redriven.stdout)).toHaveProperty('redriveDate');
    let task: { taskToken?: string; input?: string } = {};
    while (!task.taskToken) task = JSON.parse((await cli(['get-activity-task', '--activity-arn', activityArn, '--worker-name', 'cli'])).stdout || '{}') as typeof task;
    expect(JSON.parse(task.input!)).toEqual({ order: 8, redrives: 1 });
    expect((await cli(['send-task-heartbeat', '--task-token', task.taskToken])).code).toBe(0);
    expect((await cli(['send-task-success', '--task-token', task.taskToken, '--task-output', '{"cli":true}'])).code).toBe(0);
    const done = await waitFor(executionArn!, 'SUCCEEDED');
    expect(JSON.parse(done.output!)).toMatchObject({ work: { cli: true } });
    const described = JSON.parse((await cli(['describe-activity', '--activity-arn', activityArn])).stdout) as { name: string };
    expect(described.name).toBe('redrive-cli');
    const again = await cli(['redrive-execution', '--execution-arn', executionArn!]);
    expect(again.code).not.toBe(0);
    expect(again.stderr).toMatch(/ExecutionNotRedrivable/);
    // the activity commands: create, list, delete (then it does not exist)
    const made = JSON.parse((await cli(['create-activity', '--name', 'cli-made'])).stdout) as { activityArn: string };
    expect(made.activityArn).toMatch(/:activity:cli-made$/);
    const listed = JSON.parse((await cli(['list-activities'])).stdout) as { activities: Array<{ name: string }> };
    expect(listed.activities.map((a) => a.name)).toEqual(expect.arrayContaining(['cli-made', 'redrive-cli']));
    expect((await cli(['delete-activity', '--activity-arn', made.activityArn])).code).toBe(0);
    expect((await cli(['describe-activity', '--activity-arn', made.activityArn])).stderr).toMatch(/ActivityDoesNotExist/);
  }, 90_000);
});
