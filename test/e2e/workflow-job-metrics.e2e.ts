/**
 * /metrics counts what happened to this instance's jobs (issue 22 §6): workflow_jobs_total by event (started,
 * succeeded, failed, timed_out, aborted, redriven) and the AWS operations by X-Amz-Target, after jobs that end each
 * way, driven with @aws-sdk/client-sfn as a user would.
 */
import { CreateStateMachineCommand, RedriveExecutionCommand, SFNClient, StartExecutionCommand, StopExecutionCommand } from '@aws-sdk/client-sfn';
import { IdentityFixtures, uniq } from '../fixtures/identity';
import { startTestApp, TestApp } from '../helpers/app';
import { sfnClientFor, waitForExecution } from '../helpers/workflow-jobs';

const ROLE = 'arn:aws:iam::000000000000:role/workflow-runner';

describe('workflow job counters in /metrics', () => {
  let t: TestApp;
  let sfn: SFNClient;

  beforeAll(async () => {
    t = await startTestApp();
    sfn = await sfnClientFor(t, new IdentityFixtures(t.db.dataSource), 'metrics');
  });
  afterAll(async () => {
    sfn?.destroy();
    await t?.close();
  });

  const metrics = async (): Promise<Map<string, number>> => {
    const text = await (await fetch(`${t.url}/metrics`)).text();
    return new Map(text.split('\n').filter((l) => /^workflow_(jobs_total|aws_operations_total)\{/.test(l)).map((l) => [l.slice(0, l.lastIndexOf(' ')), Number(l.slice(l.lastIndexOf(' ') + 1))]));
  };
  const start = async (definition: object): Promise<string> => {
    const { stateMachineArn } = await sfn.send(new CreateStateMachineCommand({ name: uniq('m'), roleArn: ROLE, definition: JSON.stringify(definition) }));
    return (await sfn.send(new StartExecutionCommand({ stateMachineArn }))).executionArn!;
  };

  it('counts jobs started, succeeded, failed, timed out, aborted and redriven, and the operations by target', async () => {
    const ok = await start({ StartAt: 'P', States: { P: { Type: 'Pass', End: true } } });
    const failed = await start({ StartAt: 'F', States: { F: { Type: 'Fail', Error: 'Boom', Cause: 'by the test' } } });
    const late = await start({ TimeoutSeconds: 1, StartAt: 'W', States: { W: { Type: 'Wait', Seconds: 60, End: true } } });
    const stopped = await start({ StartAt: 'W', States: { W: { Type: 'Wait', Seconds: 60, End: true } } });
    const ended = async (arn: string) => (await waitForExecution(sfn, arn, { timeoutMs: 20_000 })).status;
    expect([await ended(ok), await ended(failed), await ended(late)]).toEqual(['SUCCEEDED', 'FAILED', 'TIMED_OUT']);
    await sfn.send(new StopExecutionCommand({ executionArn: stopped }));
    await sfn.send(new RedriveExecutionCommand({ executionArn: failed }));
    // the redriven job fails again at its Fail state
    expect([await ended(stopped), await ended(failed)]).toEqual(['ABORTED', 'FAILED']);

    const m = await metrics();
    const jobs = Object.fromEntries(['started', 'succeeded', 'failed', 'timed_out', 'aborted', 'redriven'].map((e) => [e, m.get(`workflow_jobs_total{event="${e}"}`)]));
    expect(jobs).toEqual({ started: 4, succeeded: 1, failed: 2, timed_out: 1, aborted: 1, redriven: 1 });
    expect([m.get('workflow_aws_operations_total{operation="StartExecution",status="200"}'), m.get('workflow_aws_operations_total{operation="RedriveExecution",status="200"}'), m.get('workflow_aws_operations_total{operation="StopExecution",status="200"}')]).toEqual([4, 1, 1]);
  });
});
