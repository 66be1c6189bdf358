/**
 * What the embedded runner writes for a job of Pass states started over the wire (the workflow-jobs bench's job):
 * the start's transaction and one transaction per transition, nothing else. A job started here runs without a claim
 * (it was written leased to this runner, also when it waited for a slot), a transition's events go in one INSERT on
 * PostgreSQL, and a job's end reads no Map Runs (its definition has no Distributed Map) and no definition status
 * apart from its own UPDATE. The jobs' histories are whole and in order.
 */
import { CreateStateMachineCommand, GetExecutionHistoryCommand, SFNClient, StartExecutionCommand } from '@aws-sdk/client-sfn';
import { IdentityFixtures, uniq } from '../fixtures/identity';
import { startTestApp, TestApp } from '../helpers/app';
import { SqlLog, type Statement } from '../helpers/sql-log';
import { waitForExecution } from '../helpers/workflow-jobs';

const ROLE = 'arn:aws:iam::000000000000:role/workflow-runner';
const THREE_PASSES = {
  StartAt: 'A',
  States: { A: { Type: 'Pass', Result: 1, ResultPath: '$.a', Next: 'B' }, B: { Type: 'Pass', Result: 2, ResultPath: '$.b', Next: 'C' }, C: { Type: 'Pass', End: true } },
};
const EVENTS = ['ExecutionStarted', 'PassStateEntered', 'PassStateExited', 'PassStateEntered', 'PassStateExited', 'PassStateEntered', 'PassStateExited', 'ExecutionSucceeded'];

describe('workflow runner: the statements of a job of Pass states', () => {
  const sql = new SqlLog();
  let t: TestApp;
  let sfn: SFNClient;
  let postgres: boolean;

  beforeAll(async () => {
    // Two slots: the burst below waits for them.
    t = await startTestApp({ logger: sql, env: { WORKFLOW_RUNNER: 'embedded', WORKFLOW_CONCURRENCY: '2' } });
    postgres = t.db.dataSource.options.type === 'postgres';
    const fx = new IdentityFixtures(t.db.dataSource);
    const user = await fx.user(uniq('stmts'));
    const k = await fx.services.identity.createAccessKey(t.db.dataSource.manager, { user: user.login });
    sfn = new SFNClient({ region: 'us-east-1', endpoint: `${t.url}/workflow`, credentials: { accessKeyId: k.accessKeyId, secretAccessKey: k.secretAccessKey }, disableHostPrefix: true, maxAttempts: 1 });
  });
  afterAll(async () => {
    sfn?.destroy();
    await t?.close();
  });

  const count = (statements: Statement[], re: RegExp) => statements.filter((s) => re.test(s.sql.trim())).length;

  it('writes the start and each transition once, with no claim, no Map Run read and no extra definition read', async () => {
    const { stateMachineArn } = await sfn.send(new CreateStateMachineCommand({ name: uniq('passes'), roleArn: ROLE, definition: JSON.stringify(THREE_PASSES) }));
    const jobs = 6;
    const { result: arns, statements } = await sql.record(async () => {
      const started = await Promise.all(Array.from({ length: jobs }, (_, i) => sfn.send(new StartExecutionCommand({ stateMachineArn, input: JSON.stringify({ i }) }))));
      for (const s of started) await waitForExecution(sfn, s.executionArn!, { timeoutMs: 30_000 });
      return started.map((s) => s.executionArn!);
    });
    for (const [i, executionArn] of arns.entries()) {
      const d = await waitForExecution(sfn, executionArn, { timeoutMs: 1000 });
      expect([d.status, JSON.parse(d.output!)]).toEqual(['SUCCEEDED', { i, a: 1, b: 2 }]);
      const events = (await sfn.send(new GetExecutionHistoryCommand({ executionArn, maxResults: 100 }))).events!;
      expect(events.map((e) => [e.id, e.type])).toEqual(EVENTS.map((type, n) => [n + 1, type]));
    }
    // a start (the job and its first event) and three transitions per job, each one transaction
    expect([count(statements, /^INSERT INTO workflow_jobs/), count(statements, /^UPDATE workflow_jobs SET checkpoint/)]).toEqual([jobs, 3 * jobs]);
    expect(count(statements, /^INSERT INTO workflow_job_events/)).toBe(postgres ? 4 * jobs : 8 * jobs);
    // jobs started here are leased to this runner when written, also those that waited for one of its two slots
    expect(count(statements, /^UPDATE workflow_jobs SET lease_owner/)).toBe(0);
    expect(count(statements, /workflow_map_runs/)).toBe(0);
    expect(count(statements, /^SELECT status FROM workflow_definitions/)).toBe(0);
    expect(count(statements, /^BEGIN/)).toBe(4 * jobs);
  });

  it('the wide steps of an inline Map of 1,500 items keep all their events, in order', async () => {
    const definition = { StartAt: 'M', States: { M: { Type: 'Map', ItemsPath: '$.items', ItemProcessor: { StartAt: 'W', States: { W: { Type: 'Pass', End: true } } }, End: true } } };
    const { stateMachineArn } = await sfn.send(new CreateStateMachineCommand({ name: uniq('wide'), roleArn: ROLE, definition: JSON.stringify(definition) }));
    const items = Array.from({ length: 1500 }, (_, i) => i);
    const { result: executionArn, statements } = await sql.record(async () => {
      const started = await sfn.send(new StartExecutionCommand({ stateMachineArn, input: JSON.stringify({ items }) }));
      await waitForExecution(sfn, started.executionArn!, { timeoutMs: 60_000 });
      return started.executionArn!;
    });
    // PostgreSQL: a wide step's events went in one INSERT of many rows
    if (postgres) expect(Math.max(...statements.filter((x) => /^INSERT INTO workflow_job_events/.test(x.sql)).map((x) => x.parameters.length / 6))).toBeGreaterThan(100);
    const d = await waitForExecution(sfn, executionArn, { timeoutMs: 1000 });
    expect([d.status, JSON.parse(d.output!)]).toEqual(['SUCCEEDED', items]);
    const ids: number[] = [];
    let nextToken: string | undefined;
    do {
      const page = await sfn.send(new GetExecutionHistoryCommand({ executionArn, maxResults: 1000, nextToken }));
      ids.push(...page.events!.map((e) => e.id!));
      nextToken = page.nextToken;
    } while (nextToken);
    // each iteration: MapIterationStarted, PassStateEntered, PassStateExited, MapIterationSucceeded
    expect(ids.length).toBeGreaterThan(4 * items.length);
    expect(ids).toEqual(ids.map((_, n) => n + 1));
  }, 90_000);
});
