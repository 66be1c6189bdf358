/**
 * Workflow jobs run by the embedded runner, driven over the wire protocol with @aws-sdk/client-sfn: Pass chains,
 * tasks, Wait, Retry/Catch, Map/Parallel, stop of a running task, and the domain tasks changing real data
 * (an import appears in /calendar/events/v1/events, a bulk update obeys PATCH's rules, a scan appears in scan history).
 */
import { CreateStateMachineCommand, DescribeExecutionCommand, GetExecutionHistoryCommand, SFNClient, StartExecutionCommand, StopExecutionCommand } from '@aws-sdk/client-sfn';
import { EventEmitter } from 'node:events';
import type { ServerResponse } from 'node:http';
import { AccessTokenEntity } from '../../entities/identity';
import { SecretScanningAlertEntity, SecretScanningScanEntity } from '../../entities/secret-scanning';
import { WorkflowJobEntity } from '../../entities/workflow';
import type { AccountEntity, RepositoryEntity } from '../../entities/identity';
import { hashToken } from '../../src/auth/tokens';
import { contextFor } from '../../src/context';
import { requestDataSource } from '../../src/db/request-cancel';
import { IdentityFixtures, uniq } from '../fixtures/identity';
import { startTestApp, TestApp } from '../helpers/app';
import { waitForExecution } from '../helpers/workflow-jobs';
import { signedCall } from '../helpers/sigv4';

const ROLE = 'arn:aws:iam::000000000000:role/workflow-runner';

describe('workflow runner (embedded)', () => {
  let t: TestApp;
  let fx: IdentityFixtures;
  let user: AccountEntity;
  let sfn: SFNClient;
  let key: { accessKeyId: string; secretAccessKey: string };

  const define = async (definition: object) =>
    (await sfn.send(new CreateStateMachineCommand({ name: uniq('def'), roleArn: ROLE, definition: JSON.stringify(definition) }))).stateMachineArn!;

  const run = async (definition: object, input: unknown = {}) => {
    const arn = await define(definition);
    const { executionArn } = await sfn.send(new StartExecutionCommand({ stateMachineArn: arn, input: JSON.stringify(input) }));
    return executionArn!;
  };

  const settle = (executionArn: string, timeoutMs = 20_000) => waitForExecution(sfn, executionArn, { timeoutMs });

  const history = async (executionArn: string) => (await sfn.send(new GetExecutionHistoryCommand({ executionArn, maxResults: 1000 }))).events!;

  beforeAll(async () => {
    t = await startTestApp({ env: { CALENDAR_TIMEZONE: 'UTC' } });
    fx = new IdentityFixtures(t.db.dataSource);
    user = await fx.user(uniq('runner'), { calendarRole: 'editor' });
    const k = await fx.services.identity.createAccessKey(t.db.dataSource.manager, { user: user.login });
    key = { accessKeyId: k.accessKeyId, secretAccessKey: k.secretAccessKey };
    sfn = new SFNClient({ region: 'us-east-1', endpoint: `${t.url}/workflow`, credentials: key, disableHostPrefix: true, maxAttempts: 1 });
  });
  afterAll(async () => {
    sfn?.destroy();
    await t?.close();
  });

  it('a Task naming no task of the gateway (also inside Map/Parallel) is an InvalidDefinition at create', async () => {
    const err = await define({ StartAt: 'P', States: { P: { Type: 'Parallel', Branches: [{ StartAt: 'L', States: { L: { Type: 'Task', Resource: 'arn:aws:lambda:us-east-1:1:function:x', End: true } } }], End: true } } }).catch((e) => e);
    expect(err.name).toBe('InvalidDefinition');
    expect(err.message).toContain('/States/P/Branches/0/States/L/Resource');
    expect(err.message).toContain('calendar.importEvents');
  });

  it('hostile definitions and data are refused or end the job, never a hang, a 500 or a job RUNNING forever', async () => {
    // Parallel nested 25 deep: refused at once (asl-validator's time doubles per level).
    let nested: object = { StartAt: 'L', States: { L: { Type: 'Pass', End: true } } };
    for (let i = 0; i < 25; i++) nested = { StartAt: `P${i}`, States: { [`P${i}`]: { Type: 'Parallel', Branches: [nested], End: true } } };
    const t0 = Date.now();
    const deep = await define(nested).catch((e) => e);
    expect([deep.name, Date.now() - t0 < 2000]).toEqual(['InvalidDefinition', true]);
    expect((await define({ TimeoutSeconds: 1e17, StartAt: 'A', States: { A: { Type: 'Pass', End: true } } }).catch((e) => e)).name).toBe('InvalidDefinition');
    // An error longer than the column and a cause with NUL: the job fails with them cut and cleaned.
    const long = await settle(await run({ StartAt: 'F', States: { F: { Type: 'Fail', Error: 'E'.repeat(300), Cause: 'x' } } }));
    expect([long.status, long.error!.length]).toEqual(['FAILED', 256]);
    const nul = await settle(await run({ StartAt: 'F', States: { F: { Type: 'Task', Resource: 'fail', End: true } } }, { error: 'Boom', cause: 'a\u0000b' }));
    expect([nul.status, nul.error, nul.cause]).toEqual(['FAILED', 'Boom', 'a\ufffdb']);
    // Input nested too deeply to handle: refused at start.
    const arn = await define({ StartAt: 'A', States: { A: { Type: 'Pass', End: true } } });
    const deepInput = await sfn.send(new StartExecutionCommand({ stateMachineArn: arn, input: '['.repeat(60_000) + ']'.repeat(60_000) })).catch((e) => e);
    expect(deepInput.name).toBe('InvalidExecutionInput');
    // NUL in a stored member, and a nested value where a string belongs: ValidationException, not a 500.
    const trace = await sfn.send(new StartExecutionCommand({ stateMachineArn: arn, traceHeader: 'a\u0000b' })).catch((e) => e);
    expect([trace.name, trace.$metadata.httpStatusCode]).toEqual(['ValidationException', 400]);
    // (the SDK refuses to send a non-string member itself: a raw signed request does)
    const odd = await signedCall(t.url, { key, target: 'AWSStepFunctions.DescribeExecution', body: `{"executionArn":${'['.repeat(5000)}${']'.repeat(5000)}}` });
    expect([odd.status, (odd.body as { __type: string }).__type]).toEqual([400, 'ValidationException']);
  });

  it('a three-state Pass job succeeds with its output; every transition is in the history, in order, once', async () => {
    const arn = await run(
      { StartAt: 'A', States: { A: { Type: 'Pass', Result: 1, ResultPath: '$.a', Next: 'B' }, B: { Type: 'Pass', Parameters: { 'sum.$': 'States.MathAdd($.a, 41)' }, Next: 'C' }, C: { Type: 'Pass', End: true } } },
      { start: true },
    );
    const d = await settle(arn);
    expect(d.status).toBe('SUCCEEDED');
    expect(JSON.parse(d.output!)).toEqual({ sum: 42 });
    expect(d.stopDate).toBeInstanceOf(Date);
    const h = await history(arn);
    expect(h.map((e) => e.type)).toEqual([
      'ExecutionStarted',
      'PassStateEntered', 'PassStateExited',
      'PassStateEntered', 'PassStateExited',
      'PassStateEntered', 'PassStateExited',
      'ExecutionSucceeded',
    ]);
    expect(h.map((e) => e.id)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(h[1].stateEnteredEventDetails).toMatchObject({ name: 'A', input: '{"start":true}' });
  });

  it('a job is not part of the request that started it: the client closing that request early does not stop the job', async () => {
    // A request scope (request-cancel.ts) whose client goes away before the answer: on PostgreSQL its statements are
    // cancelled and later ones refused. The job started in it waits 1 s (a timer of the runner), so its later steps
    // run after the request was abandoned; they must run as the runner's own work, not as the request's.
    const stateMachineArn = await define({ StartAt: 'W', States: { W: { Type: 'Wait', Seconds: 1, Next: 'P' }, P: { Type: 'Pass', Result: 'done', End: true } } });
    const res = Object.assign(new EventEmitter(), { writableFinished: false }) as unknown as ServerResponse;
    const viewer = { kind: 'user' as const, user, credential: { type: 'internal' as const } };
    const ctx = contextFor(t.app.deps, 'abandoned-start', viewer, undefined, requestDataSource(t.app.deps.dataSource, res));
    const { job } = await t.app.deps.services.workflowJobs.start(ctx, { stateMachineArn, input: '{}' });
    res.emit('close');
    const d = await settle(job.arn, 15_000);
    expect([d.status, d.output]).toEqual(['SUCCEEDED', '"done"']);
    expect((await history(job.arn)).map((e) => e.type)).toEqual(['ExecutionStarted', 'WaitStateEntered', 'WaitStateExited', 'PassStateEntered', 'PassStateExited', 'ExecutionSucceeded']);
  });

  it('a job started in GraphQL runs to its end; GraphQL shows its status, output and history', async () => {
    const token = await fx.classicToken(user, ['workflow']);
    const gql = async (query: string, variables: Record<string, unknown>) => {
      const res = await fetch(`${t.url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body: JSON.stringify({ query, variables }) });
      const body = (await res.json()) as { data?: any; errors?: unknown[] };
      if (body.errors) throw new Error(JSON.stringify(body.errors));
      return body.data;
    };
    const definitionArn = await define({ StartAt: 'A', States: { A: { Type: 'Pass', Parameters: { 'doubled.$': 'States.MathAdd($.n, $.n)' }, End: true } } });
    const started = await gql('mutation($input: StartWorkflowJobInput!) { startWorkflowJob(input: $input) { job { arn status } } }', { input: { definitionArn, input: JSON.stringify({ n: 21 }) } });
    const arn = started.startWorkflowJob.job.arn;
    await settle(arn);
    const job = (await gql('query($arn: String!) { workflowJob(arn: $arn) { status output currentState stoppedAt history(first: 10) { nodes { type } } } }', { arn })).workflowJob;
    expect(job.status).toBe('SUCCEEDED');
    expect(JSON.parse(job.output)).toEqual({ doubled: 42 });
    expect(job.currentState).toBeNull();
    expect(job.stoppedAt).toBeTruthy();
    expect(job.history.nodes.map((n: { type: string }) => n.type)).toEqual(['ExecutionStarted', 'PassStateEntered', 'PassStateExited', 'ExecutionSucceeded']);
  });

  it('tasks: echo, a failing task caught, a retried one, and Wait; the job ends where the flow says', async () => {
    const arn = await run({
      StartAt: 'Echo',
      States: {
        Echo: { Type: 'Task', Resource: 'echo', ResultPath: '$.echoed', Next: 'Wait' },
        Wait: { Type: 'Wait', Seconds: 1, Next: 'Boom' },
        Boom: {
          Type: 'Task',
          Resource: 'fail',
          Parameters: { error: 'Custom.Error', cause: 'on purpose' },
          Retry: [{ ErrorEquals: ['Custom.Error'], IntervalSeconds: 1, MaxAttempts: 1 }],
          Catch: [{ ErrorEquals: ['States.ALL'], ResultPath: '$.caught', Next: 'Done' }],
          End: true,
        },
        Done: { Type: 'Succeed' },
      },
    }, { x: 1 });
    const d = await settle(arn);
    expect(d.status).toBe('SUCCEEDED');
    const out = JSON.parse(d.output!);
    expect(out.echoed).toEqual({ x: 1 });
    expect(out.caught).toEqual({ Error: 'Custom.Error', Cause: 'on purpose' });
    const types = (await history(arn)).map((e) => e.type);
    expect(types.filter((x) => x === 'TaskFailed')).toHaveLength(2); // the first attempt and its one retry
    expect(types).toContain('WaitStateExited');
    expect(d.stopDate!.getTime() - d.startDate!.getTime()).toBeGreaterThanOrEqual(2000); // Wait 1 s + retry 1 s
  });

  it('an uncaught task failure fails the job with its error and cause', async () => {
    const arn = await run({ StartAt: 'F', States: { F: { Type: 'Task', Resource: 'fail', Parameters: { error: 'Nope', cause: 'said no' }, End: true } } });
    const d = await settle(arn);
    expect([d.status, d.error, d.cause]).toEqual(['FAILED', 'Nope', 'said no']);
    expect((await history(arn)).at(-1)!.executionFailedEventDetails).toEqual({ error: 'Nope', cause: 'said no' });
  });

  it('states named Next, End, Default and StartAt are states like any other (created, run, in the history by name)', async () => {
    const arn = await run(
      {
        StartAt: 'Next',
        States: {
          Next: { Type: 'Pass', Parameters: { Next: 'data, not a transition', 'v.$': '$.v' }, Next: 'Choose' },
          Choose: { Type: 'Choice', Choices: [{ Variable: '$.v', NumericEquals: 1, Next: 'End' }], Default: 'Default' },
          End: { Type: 'Parallel', Branches: [{ StartAt: 'StartAt', States: { StartAt: { Type: 'Pass', Result: 'inner', End: true } } }], ResultPath: '$.branch', Next: 'Done' },
          Default: { Type: 'Fail', Error: 'Unexpected' },
          Done: { Type: 'Succeed' },
        },
      },
      { v: 1 },
    );
    const d = await settle(arn);
    expect(d.status).toBe('SUCCEEDED');
    expect(JSON.parse(d.output!)).toEqual({ Next: 'data, not a transition', v: 1, branch: ['inner'] });
    const entered = (await history(arn)).filter((e) => e.stateEnteredEventDetails).map((e) => e.stateEnteredEventDetails!.name);
    expect(entered).toEqual(['Next', 'Choose', 'End', 'StartAt', 'Done']);
  });

  it('Map and Parallel run their branches and collect the results in order', async () => {
    const arn = await run(
      {
        StartAt: 'M',
        States: {
          M: { Type: 'Map', ItemsPath: '$.items', MaxConcurrency: 2, ItemProcessor: { StartAt: 'E', States: { E: { Type: 'Task', Resource: 'echo', End: true } } }, ResultPath: '$.mapped', Next: 'P' },
          P: { Type: 'Parallel', Branches: [{ StartAt: 'X', States: { X: { Type: 'Pass', Result: 'x', End: true } } }, { StartAt: 'Y', States: { Y: { Type: 'Pass', Result: 'y', End: true } } }], ResultPath: '$.par', End: true },
        },
      },
      { items: [1, 2, 3, 4, 5] },
    );
    const d = await settle(arn);
    expect(d.status).toBe('SUCCEEDED');
    expect(JSON.parse(d.output!)).toMatchObject({ mapped: [1, 2, 3, 4, 5], par: ['x', 'y'] });
  });

  it('StopExecution aborts a running task; the job stays ABORTED and nothing more is written', async () => {
    const arn = await run({ StartAt: 'S', States: { S: { Type: 'Task', Resource: 'sleep', Parameters: { seconds: 30 }, Next: 'After' }, After: { Type: 'Pass', End: true } } });
    const until = Date.now() + 10_000;
    // The task is scheduled (persisted), then runs; wait until it is running.
    while (!(await history(arn)).some((e) => e.type === 'TaskScheduled')) {
      if (Date.now() > until) throw new Error('task never started');
      await new Promise((r) => setTimeout(r, 50));
    }
    await new Promise((r) => setTimeout(r, 300));
    const t0 = Date.now();
    await sfn.send(new StopExecutionCommand({ executionArn: arn, error: 'Stopped', cause: 'by the test' }));
    await new Promise((r) => setTimeout(r, 500));
    // The stop released the job; the runner's later writes (conditional on the version) can no longer land.
    const row = await t.db.dataSource.getRepository(WorkflowJobEntity).findOneByOrFail({ arn });
    expect([row.leaseOwner, row.status]).toEqual([null, 'ABORTED']);
    expect(Date.now() - t0).toBeLessThan(5000);
    const d = await sfn.send(new DescribeExecutionCommand({ executionArn: arn }));
    expect([d.status, d.error]).toEqual(['ABORTED', 'Stopped']);
    const types = (await history(arn)).map((e) => e.type);
    expect(types.at(-1)).toBe('ExecutionAborted');
    expect(types).not.toContain('TaskSucceeded');
  });

  it('calendar.importEvents: imported events appear in /calendar/events/v1/events, as the job\'s starter', async () => {
    const ics = ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//t//t//EN', 'BEGIN:VEVENT', 'UID:wf-import-1@t', 'SUMMARY:Imported by a job', 'DTSTART:20300105T100000Z', 'DTEND:20300105T110000Z', 'END:VEVENT', 'END:VCALENDAR'].join('\r\n');
    const arn = await run({ StartAt: 'I', States: { I: { Type: 'Task', Resource: 'calendar.importEvents', End: true } } }, { ics });
    const d = await settle(arn);
    expect(d.status).toBe('SUCCEEDED');
    expect(JSON.parse(d.output!)).toMatchObject({ created: 1, updated: 0, skipped: 0 });
    const res = await fetch(`${t.url}/calendar/events/v1/events?start_date=2030-01-01&end_date=2030-01-31`);
    const body = (await res.json()) as { events: Array<{ title: string; author: string }> };
    expect(body.events.map((e) => [e.title, e.author])).toEqual([['Imported by a job', String(user.id)]]);
  });

  it('secret-scanning tasks: a bulk update obeys the PATCH rules; a rescan appears in scan history', async () => {
    const org = await fx.org(uniq('wforg'));
    await fx.member(org, user, 'admin');
    const repo = await fx.repo(org, { name: 'svc', private: true, secretScanning: true, advancedSecurity: true } as never);
    for (let i = 1; i <= 3; i++) {
      await t.db.dataSource.transaction((m) =>
        fx.services.secretScanningFindings.recordFinding(m, repo, {
          secretType: 'aws_access_key_id', secretTypeDisplayName: 'AWS', provider: 'Amazon AWS', providerSlug: 'amazon_aws', secret: `AKIAWORKFLOW0000000${i}`,
          location: { type: 'commit', path: 'a', startLine: i, endLine: i, startColumn: 1, endColumn: 20, blobSha: 'b'.repeat(40), commitSha: 'c'.repeat(40) },
        }),
      );
    }
    const bad = await settle(await run({ StartAt: 'B', States: { B: { Type: 'Task', Resource: 'secret-scanning.bulkUpdateAlerts', End: true } } }, { owner: org.login, repo: 'svc', filter: { state: 'open' }, update: { state: 'resolved' } }));
    expect([bad.status, bad.error]).toEqual(['FAILED', 'Validation']); // resolved needs a resolution, as PATCH says
    const good = await settle(await run({ StartAt: 'B', States: { B: { Type: 'Task', Resource: 'secret-scanning.bulkUpdateAlerts', End: true } } }, { owner: org.login, repo: 'svc', filter: { state: 'open' }, update: { state: 'resolved', resolution: 'revoked' } }));
    expect(good.status).toBe('SUCCEEDED');
    expect(JSON.parse(good.output!)).toEqual({ matched: 3, updated: 3, failed: [] });
    const alerts = await t.db.dataSource.getRepository(SecretScanningAlertEntity).find({ where: { repositoryId: repo.id } });
    expect(alerts.map((a) => [a.state, a.resolution, a.resolvedById])).toEqual([1, 2, 3].map(() => ['resolved', 'revoked', user.id]));

    const scan = await settle(await run({ StartAt: 'S', States: { S: { Type: 'Task', Resource: 'secret-scanning.startScan', End: true } } }, { owner: org.login, repo: 'svc' }));
    expect(scan.status).toBe('SUCCEEDED');
    const out = JSON.parse(scan.output!);
    expect(out).toMatchObject({ repository: `${org.login}/svc`, kind: 'backfill', status: 'completed' });
    expect(await t.db.dataSource.getRepository(SecretScanningScanEntity).findOneBy({ id: out.id })).toMatchObject({ repositoryId: repo.id, status: 'completed' });
  });

  it('a task the job\'s starter may not run fails with Forbidden/NotFound (the service\'s rules), not a crash', async () => {
    const org = await fx.org(uniq('otherorg'));
    await fx.repo(org, { name: 'secret', private: true, secretScanning: true } as never);
    const d = await settle(await run({ StartAt: 'B', States: { B: { Type: 'Task', Resource: 'secret-scanning.bulkUpdateAlerts', End: true } } }, { owner: org.login, repo: 'secret', update: { state: 'open' } }));
    expect(d.status).toBe('FAILED');
    expect(['NotFound', 'Forbidden']).toContain(d.error);
  });

  describe('tasks act with the credential that started the job, checked again when each task runs', () => {
    const gql = async (token: string, query: string, variables: Record<string, unknown>) => {
      const res = await fetch(`${t.url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body: JSON.stringify({ query, variables }) });
      const body = (await res.json()) as { data?: any; errors?: unknown[] };
      if (body.errors) throw new Error(JSON.stringify(body.errors));
      return body.data;
    };
    const startWith = async (token: string, definition: object, input: unknown) => {
      const definitionArn = await define(definition);
      const d = await gql(token, 'mutation($input: StartWorkflowJobInput!) { startWorkflowJob(input: $input) { job { arn } } }', { input: { definitionArn, input: JSON.stringify(input) } });
      return d.startWorkflowJob.job.arn as string;
    };
    const BULK = { StartAt: 'B', States: { B: { Type: 'Task', Resource: 'secret-scanning.bulkUpdateAlerts', End: true } } };
    let org: AccountEntity;
    let repo: RepositoryEntity;

    beforeAll(async () => {
      org = await fx.org(uniq('credorg'));
      await fx.member(org, user, 'admin');
      repo = await fx.repo(org, { name: 'app', private: true, secretScanning: true, advancedSecurity: true } as never);
      await t.db.dataSource.transaction((m) =>
        fx.services.secretScanningFindings.recordFinding(m, repo, {
          secretType: 'aws_access_key_id', secretTypeDisplayName: 'AWS', provider: 'Amazon AWS', providerSlug: 'amazon_aws', secret: 'AKIAWORKFLOWCRED0001',
          location: { type: 'commit', path: 'a', startLine: 1, endLine: 1, startColumn: 1, endColumn: 20, blobSha: 'b'.repeat(40), commitSha: 'c'.repeat(40) },
        }),
      );
    });

    it('a token with only the workflow scope cannot change alerts through a job; one with repo scope can', async () => {
      const input = { owner: org.login, repo: 'app', filter: { state: 'open' }, update: { state: 'resolved', resolution: 'revoked' } };
      const narrow = await settle(await startWith(await fx.classicToken(user, ['workflow']), BULK, input));
      expect([narrow.status, ['Forbidden', 'NotFound'].includes(narrow.error!)]).toEqual(['FAILED', true]);
      const alerts = t.db.dataSource.getRepository(SecretScanningAlertEntity);
      expect((await alerts.find({ where: { repositoryId: repo.id } })).map((a) => a.state)).toEqual(['open']);
      const wide = await settle(await startWith(await fx.classicToken(user, ['workflow', 'repo']), BULK, input));
      expect([wide.status, JSON.parse(wide.output!)]).toEqual(['SUCCEEDED', { matched: 1, updated: 1, failed: [] }]);
    });

    it('a token revoked while its job waits fails the job\'s next task with Unauthenticated', async () => {
      const token = await fx.classicToken(user, ['workflow']);
      const arn = await startWith(token, { StartAt: 'W', States: { W: { Type: 'Wait', Seconds: 1, Next: 'E' }, E: { Type: 'Task', Resource: 'echo', End: true } } }, { x: 1 });
      await t.db.dataSource.getRepository(AccessTokenEntity).update({ tokenHash: hashToken(token) }, { revokedAt: new Date() });
      const d = await settle(arn);
      expect([d.status, d.error, d.cause]).toEqual(['FAILED', 'Unauthenticated', 'The token that started this job is no longer valid.']);
    });

    it('a site admin\'s access key gets the admin\'s roles in tasks, not the in-process site-admin shortcut', async () => {
      const admin = await fx.user(uniq('siteadmin'), { siteAdmin: true });
      const k = await fx.services.identity.createAccessKey(t.db.dataSource.manager, { user: admin.login });
      const adminSfn = new SFNClient({ region: 'us-east-1', endpoint: `${t.url}/workflow`, credentials: { accessKeyId: k.accessKeyId, secretAccessKey: k.secretAccessKey }, disableHostPrefix: true, maxAttempts: 1 });
      try {
        const { executionArn } = await adminSfn.send(new StartExecutionCommand({ stateMachineArn: await define(BULK), input: JSON.stringify({ owner: org.login, repo: 'app', update: { state: 'open' } }) }));
        const d = await adminSfn.send(new DescribeExecutionCommand({ executionArn }));
        let status = d.status;
        let error = d.error;
        for (let i = 0; status === 'RUNNING' && i < 400; i++) {
          await new Promise((r) => setTimeout(r, 50));
          ({ status, error } = await adminSfn.send(new DescribeExecutionCommand({ executionArn })));
        }
        expect([status, ['Forbidden', 'NotFound'].includes(error!)]).toEqual(['FAILED', true]);
      } finally {
        adminSfn.destroy();
      }
    });

    it('$$.Execution.RoleArn is the definition\'s role', async () => {
      const d = await settle(await run({ StartAt: 'P', States: { P: { Type: 'Pass', Parameters: { 'role.$': '$$.Execution.RoleArn' }, End: true } } }));
      expect(JSON.parse(d.output!)).toEqual({ role: ROLE });
    });
  });
});

describe('workflow runner: fair share of slots', () => {
  let t: TestApp;
  let sfn: SFNClient;
  beforeAll(async () => {
    // One slot: a job can only run when the other gives its slot up.
    t = await startTestApp({ env: { WORKFLOW_CONCURRENCY: '1' } });
    const fx = new IdentityFixtures(t.db.dataSource);
    const u = await fx.user(uniq('fair'));
    const k = await fx.services.identity.createAccessKey(t.db.dataSource.manager, { user: u.login });
    sfn = new SFNClient({ region: 'us-east-1', endpoint: `${t.url}/workflow`, credentials: { accessKeyId: k.accessKeyId, secretAccessKey: k.secretAccessKey }, disableHostPrefix: true, maxAttempts: 1 });
  });
  afterAll(async () => {
    sfn?.destroy();
    await t?.close();
  });

  it('a job looping forever does not keep the only slot: a job started after it runs to its end meanwhile', async () => {
    const start = async (definition: object) => {
      const { stateMachineArn } = await sfn.send(new CreateStateMachineCommand({ name: uniq('fair'), roleArn: ROLE, definition: JSON.stringify(definition) }));
      return (await sfn.send(new StartExecutionCommand({ stateMachineArn }))).executionArn!;
    };
    const loop = await start({ StartAt: 'A', States: { A: { Type: 'Pass', Next: 'B' }, B: { Type: 'Choice', Choices: [{ Variable: '$.never', IsPresent: true, Next: 'Done' }], Default: 'A' }, Done: { Type: 'Succeed' } } });
    // Let the loop take the slot first.
    for (let i = 0; i < 200 && (await t.db.dataSource.getRepository(WorkflowJobEntity).findOneByOrFail({ arn: loop })).checkpoint === null; i++) await new Promise((r) => setTimeout(r, 10));
    const quick = await start({ StartAt: 'A', States: { A: { Type: 'Pass', Result: 'done', End: true } } });
    let d = await sfn.send(new DescribeExecutionCommand({ executionArn: quick }));
    for (let i = 0; d.status === 'RUNNING' && i < 400; i++) {
      await new Promise((r) => setTimeout(r, 25));
      d = await sfn.send(new DescribeExecutionCommand({ executionArn: quick }));
    }
    expect([d.status, d.output]).toEqual(['SUCCEEDED', '"done"']);
    const l = await sfn.send(new DescribeExecutionCommand({ executionArn: loop }));
    expect(l.status).toBe('RUNNING');
    await sfn.send(new StopExecutionCommand({ executionArn: loop }));
  });
});
