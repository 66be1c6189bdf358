/**
 * WORKFLOW_MAX_OPEN_JOBS reads kept counts of open jobs (workflow_open_jobs, written by database triggers on
 * workflow_jobs), not a count of the running jobs. With the REAL @aws-sdk/client-sfn: the kept counts equal the
 * running jobs after concurrent starts, ends, stops and a redrive (on PostgreSQL these are concurrent transactions),
 * and the limit holds on them: a start past it answers ExecutionLimitExceeded, one more slot after a stop lets it in.
 * On PostgreSQL the counts are written at commit: a child job's end and its Map Run's dispatch, which write the run's
 * counters and job statuses in opposite orders, no longer deadlock (one deadlock per dispatch made Distributed Maps
 * 10-20x slower there).
 */
import { CreateActivityCommand, CreateStateMachineCommand, RedriveExecutionCommand, SFNClient, StartExecutionCommand, StopExecutionCommand } from '@aws-sdk/client-sfn';
import { WorkflowJobEntity, WorkflowMapRunEntity } from '../../entities/workflow';
import { insertJobRows } from '../../src/services/workflow/job-rows';
import { childEnded } from '../../src/services/workflow/map-runs';
import { IdentityFixtures, uniq } from '../fixtures/identity';
import { startTestApp, TestApp } from '../helpers/app';
import { testDialect } from '../helpers/db';
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

const onPostgres = testDialect() === 'postgres' ? describe : describe.skip;

onPostgres('open jobs: counted at commit (PostgreSQL)', () => {
  let t: TestApp;
  let sfn: SFNClient;

  beforeAll(async () => {
    // No runner: the jobs below stay as this test writes them.
    t = await startTestApp({ env: { WORKFLOW_RUNNER: 'off' } });
    const fx = new IdentityFixtures(t.db.dataSource);
    const user = await fx.user(uniq('commit'));
    const k = await fx.services.identity.createAccessKey(t.db.dataSource.manager, { user: user.login });
    sfn = new SFNClient({ region: 'us-east-1', endpoint: `${t.url}/workflow`, credentials: { accessKeyId: k.accessKeyId, secretAccessKey: k.secretAccessKey }, disableHostPrefix: true, maxAttempts: 1 });
  });
  afterAll(async () => {
    sfn?.destroy();
    await t?.close();
  });

  it("a child's end and its Map Run's dispatch at once: both commit (no deadlock) and the counts stay exact", async () => {
    const ds = t.db.dataSource;
    const stateMachineArn = (await sfn.send(new CreateStateMachineCommand({ name: uniq('commit'), roleArn: ROLE, definition: JSON.stringify({ StartAt: 'P', States: { P: { Type: 'Pass', End: true } } }) }))).stateMachineArn!;
    const [parentArn, childArn] = await Promise.all([0, 1].map(async () => (await sfn.send(new StartExecutionCommand({ stateMachineArn }))).executionArn!));
    const jobs = ds.getRepository(WorkflowJobEntity);
    const parent = await jobs.findOneByOrFail({ arn: parentArn });
    await ds.getRepository(WorkflowMapRunEntity).insert({
      arn: `${stateMachineArn.replace(':stateMachine:', ':mapRun:')}/Map:${uniq('run')}`,
      jobId: parent.id,
      key: 'k',
      executionType: 'STANDARD',
      definitionText: parent.definitionText,
      startDate: new Date(),
      stopDate: null,
      maxConcurrency: 0,
      toleratedFailureCount: null,
      toleratedFailurePercentage: null,
      itemTotal: 17,
      childTotal: 17,
      started: 1,
      running: 1,
      itemsStarted: 1,
      itemsRunning: 1,
    });
    const run = await ds.getRepository(WorkflowMapRunEntity).findOneByOrFail({ jobId: parent.id });
    await jobs.update({ arn: childArn }, { mapRunId: run.id, itemIndex: 0, itemCount: 1 });
    // not due: the child's end makes it due
    await jobs.update({ id: parent.id }, { wakeAt: null });
    const child = await jobs.findOneByOrFail({ arn: childArn });
    expect(await counts()).toEqual({ running: 2, kept: 2 });

    const ending = ds.createQueryRunner();
    const dispatching = ds.createQueryRunner();
    try {
      await ending.startTransaction();
      await dispatching.startTransaction();
      // The child ends (its status first, as the runner writes a job's end) ...
      await ending.query("UPDATE workflow_jobs SET status = 'SUCCEEDED', stop_date = now(), version = version + 1 WHERE id = $1", [child.id]);
      // ... while the parent dispatches: the run's counters first (as dispatch does), then 16 running children (every
      // counter row: ids are consecutive).
      await dispatching.query('UPDATE workflow_map_runs SET started = started + 16, running = running + 16, version = version + 1 WHERE id = $1', [run.id]);
      // The child's end goes on to the run's counters and the parent's wake-up: it waits for the dispatch.
      const ended = childEnded(ending.manager, child, 'SUCCEEDED');
      ended.catch(() => undefined); // awaited below, after the dispatch commits
      const now = new Date();
      const kids = Array.from({ length: 16 }, (_, i) =>
        jobs.create({ ...child, id: undefined, arn: `${childArn}-${i}`, name: `${child.name}-${i}`, status: 'RUNNING', startDate: now, stopDate: null, version: 1, itemIndex: i + 1 }),
      );
      // Counted at the statement, this insert waited for the counter row the child's end holds: a deadlock.
      const ids = await insertJobRows(dispatching.manager, kids);
      expect(ids).toHaveLength(16);
      await dispatching.commitTransaction();
      expect(await ended).toBe(parent.id);
      await ending.commitTransaction();
    } finally {
      if (ending.isTransactionActive) await ending.rollbackTransaction();
      if (dispatching.isTransactionActive) await dispatching.rollbackTransaction();
      await ending.release();
      await dispatching.release();
    }
    expect(await counts()).toEqual({ running: 17, kept: 17 });
    const after = await ds.getRepository(WorkflowMapRunEntity).findOneByOrFail({ id: run.id });
    expect({ started: after.started, running: after.running, succeeded: after.succeeded }).toEqual({ started: 17, running: 16, succeeded: 1 });
    expect((await jobs.findOneByOrFail({ id: parent.id })).wakeAt).toBeInstanceOf(Date);
  }, 60_000);

  const counts = async () => {
    const [running] = (await t.db.dataSource.query("SELECT COUNT(*) AS n FROM workflow_jobs WHERE status = 'RUNNING'")) as Array<{ n: number | string }>;
    const [kept] = (await t.db.dataSource.query('SELECT SUM(jobs) AS n FROM workflow_open_jobs')) as Array<{ n: number | string | null }>;
    return { running: Number(running.n), kept: Number(kept.n ?? 0) };
  };
});
