/**
 * WORKFLOW_MAX_OPEN_JOBS reads kept counts of open jobs (workflow_open_jobs, written by database triggers on
 * workflow_jobs), not a count of the running jobs. With the REAL @aws-sdk/client-sfn: the kept counts equal the
 * running jobs after concurrent starts, ends, stops and a redrive (on PostgreSQL these are concurrent transactions),
 * and the limit holds on them: a start past it answers ExecutionLimitExceeded, one more slot after a stop lets it in.
 */
import { CreateActivityCommand, CreateStateMachineCommand, RedriveExecutionCommand, SFNClient, StartExecutionCommand, StopExecutionCommand } from '@aws-sdk/client-sfn';
import { IdentityFixtures, uniq } from '../fixtures/identity';
import { startTestApp, TestApp } from '../helpers/app';
import { waitForExecution } from '../helpers/workflow-jobs';

const ROLE = 'arn:aws:iam::000000000000:role/workflow-runner';

describe('open jobs: kept counts under concurrency', () => {
  let t: TestApp;
  let sfn: SFNClient;

  beforeAll(async () => {
    t = await startTestApp();
    const fx = new IdentityFixtures(t.db.dataSource);
    const user = await fx.user(uniq('open'));
    const k = await fx.services.identity.createAccessKey(t.db.dataSource.manager, { user: user.login });
    sfn = new SFNClient({ region: 'us-east-1', endpoint: `${t.url}/workflow`, credentials: { accessKeyId: k.accessKeyId, secretAccessKey: k.secretAccessKey }, disableHostPrefix: true, maxAttempts: 1 });
  });
  afterAll(async () => {
    sfn?.destroy();
    await t?.close();
  });

  const machine = async (definition: unknown) => (await sfn.send(new CreateStateMachineCommand({ name: uniq('open'), roleArn: ROLE, definition: JSON.stringify(definition) }))).stateMachineArn!;
  const start = async (stateMachineArn: string) => (await sfn.send(new StartExecutionCommand({ stateMachineArn }))).executionArn!;
  /** Running jobs counted, and the kept counts' sum. */
  const counts = async () => {
    const [running] = (await t.db.dataSource.query("SELECT COUNT(*) AS n FROM workflow_jobs WHERE status = 'RUNNING'")) as Array<{ n: number | string }>;
    const [kept] = (await t.db.dataSource.query('SELECT SUM(jobs) AS n FROM workflow_open_jobs')) as Array<{ n: number | string | null }>;
    return { running: Number(running.n), kept: Number(kept.n ?? 0) };
  };

  it('equal the running jobs after concurrent starts, ends, stops and a redrive; the limit holds on them', async () => {
    const { activityArn } = await sfn.send(new CreateActivityCommand({ name: uniq('hold') }));
    const hold = await machine({ StartAt: 'Hold', States: { Hold: { Type: 'Task', Resource: activityArn, End: true } } });
    const pass = await machine({ StartAt: 'P', States: { P: { Type: 'Pass', Next: 'Q' }, Q: { Type: 'Pass', End: true } } });
    // fails (sleep refuses -1 seconds) until it is redriven
    const flaky = await machine({ StartAt: 'X', States: { X: { Type: 'Task', Resource: 'sleep', Parameters: { 'seconds.$': 'States.MathAdd($$.Execution.RedriveCount, -1)' }, End: true } } });

    const [holds, passes, failing] = await Promise.all([
      Promise.all(Array.from({ length: 10 }, () => start(hold))),
      Promise.all(Array.from({ length: 30 }, () => start(pass))),
      start(flaky),
    ]);
    await Promise.all([...passes, failing].map((arn) => waitForExecution(sfn, arn)));
    expect(await counts()).toEqual({ running: 10, kept: 10 });

    // stops, starts that end, and a redrive at once
    const more = await Promise.all([
      ...holds.slice(0, 5).map((executionArn) => sfn.send(new StopExecutionCommand({ executionArn })).then(() => executionArn)),
      ...Array.from({ length: 10 }, () => start(pass)),
      sfn.send(new RedriveExecutionCommand({ executionArn: failing })).then(() => failing),
    ]);
    await Promise.all(more.map((arn) => waitForExecution(sfn, arn)));
    expect((await waitForExecution(sfn, failing)).status).toBe('SUCCEEDED');
    expect(await counts()).toEqual({ running: 5, kept: 5 });

    const limit = t.config.workflowMaxOpenJobs;
    try {
      t.config.workflowMaxOpenJobs = 5;
      await expect(sfn.send(new StartExecutionCommand({ stateMachineArn: pass }))).rejects.toMatchObject({ name: 'ExecutionLimitExceeded' });
      await sfn.send(new StopExecutionCommand({ executionArn: holds[5] }));
      const again = await start(pass);
      expect((await waitForExecution(sfn, again)).status).toBe('SUCCEEDED');
    } finally {
      t.config.workflowMaxOpenJobs = limit;
    }
    await Promise.all(holds.slice(6).map((executionArn) => sfn.send(new StopExecutionCommand({ executionArn }))));
    expect(await counts()).toEqual({ running: 0, kept: 0 });
  }, 60_000);
});
