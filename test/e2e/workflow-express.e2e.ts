/**
 * EXPRESS state machines with the REAL @aws-sdk/client-sfn: CreateStateMachine/DescribeStateMachine/
 * UpdateStateMachine of type EXPRESS and what Express definitions may not use (activities, `.waitForTaskToken`,
 * `.sync`, Distributed Map), StartSyncExecution (the result with output or error/cause, billingDetails; TIMED_OUT at
 * the Express limit; a request whose client goes away ends its execution), StartExecution of an EXPRESS machine
 * (asynchronous, names reusable at once), and the APIs that refuse Express executions and machines as Step Functions
 * does. Also over GraphQL: the type, and job starts refused.
 */
import {
  CreateStateMachineAliasCommand,
  CreateStateMachineCommand,
  DescribeExecutionCommand,
  DescribeStateMachineCommand,
  DescribeStateMachineForExecutionCommand,
  GetExecutionHistoryCommand,
  ListExecutionsCommand,
  ListStateMachinesCommand,
  PublishStateMachineVersionCommand,
  RedriveExecutionCommand,
  SFNClient,
  StartExecutionCommand,
  StartSyncExecutionCommand,
  StopExecutionCommand,
  UpdateStateMachineCommand,
  ValidateStateMachineDefinitionCommand,
} from '@aws-sdk/client-sfn';
import { IdentityFixtures, uniq } from '../fixtures/identity';
import { gql, startTestApp, TestApp } from '../helpers/app';
import { errorWithMessageOf } from '../helpers/workflow-jobs';

const ROLE = 'arn:aws:iam::000000000000:role/workflow-runner';
const PASS = JSON.stringify({ StartAt: 'P', States: { P: { Type: 'Pass', Result: { ok: true }, ResultPath: '$.pass', End: true } } });

describe('workflow EXPRESS state machines (@aws-sdk/client-sfn)', () => {
  let t: TestApp;
  let sfn: SFNClient;
  let token: string;

  beforeAll(async () => {
    t = await startTestApp();
    const fx = new IdentityFixtures(t.db.dataSource);
    const user = await fx.user(uniq('expr'));
    const k = await fx.services.identity.createAccessKey(t.db.dataSource.manager, { user: user.login });
    sfn = new SFNClient({ region: 'us-east-1', endpoint: `${t.url}/workflow`, credentials: { accessKeyId: k.accessKeyId, secretAccessKey: k.secretAccessKey }, disableHostPrefix: true, maxAttempts: 1 });
    token = await fx.classicToken(user, ['workflow']);
  });
  afterAll(async () => {
    sfn?.destroy();
    await t?.close();
  });

  const express = async (definition: string, name = uniq('express')) =>
    (await sfn.send(new CreateStateMachineCommand({ name, definition, roleArn: ROLE, type: 'EXPRESS' }))).stateMachineArn!;
  const metric = async (event: string) => {
    const text = await (await fetch(`${t.url}/metrics`)).text();
    const m = new RegExp(`^workflow_express_executions_total\\{event="${event}"\\} (\\d+)$`, 'm').exec(text);
    return m ? Number(m[1]) : 0;
  };
  const running = async () => {
    const text = await (await fetch(`${t.url}/metrics`)).text();
    return Number(/^workflow_express_executions_running (\d+)$/m.exec(text)?.[1] ?? NaN);
  };
  /** Until `check` holds (events of the server, polled: no fixed sleep decides). */
  async function until(check: () => Promise<boolean>): Promise<void> {
    for (let i = 0; i < 400; i++) {
      if (await check()) return;
      await new Promise((r) => setTimeout(r, 25));
    }
    throw new Error('condition not reached');
  }

  it('creates, describes and lists EXPRESS machines; StartSyncExecution answers the output', async () => {
    const name = uniq('sync');
    const arn = await express(PASS, name);
    const d = await sfn.send(new DescribeStateMachineCommand({ stateMachineArn: arn }));
    expect(d.type).toBe('EXPRESS');
    const listed = (await sfn.send(new ListStateMachinesCommand({}))).stateMachines!.find((m) => m.stateMachineArn === arn);
    expect(listed?.type).toBe('EXPRESS');
    // The same creation again is idempotent; as STANDARD it is another machine under a taken name.
    expect((await sfn.send(new CreateStateMachineCommand({ name, definition: PASS, roleArn: ROLE, type: 'EXPRESS' }))).stateMachineArn).toBe(arn);
    expect(await errorWithMessageOf(sfn.send(new CreateStateMachineCommand({ name, definition: PASS, roleArn: ROLE })))).toMatch(/^StateMachineAlreadyExists 400/);

    const r = await sfn.send(new StartSyncExecutionCommand({ stateMachineArn: arn, name: 'first', input: '{"n":1}', traceHeader: 'Root=1-abc' }));
    expect(r.$metadata.httpStatusCode).toBe(200);
    expect(r.status).toBe('SUCCEEDED');
    expect(JSON.parse(r.output!)).toEqual({ n: 1, pass: { ok: true } });
    expect(r.outputDetails).toEqual({ included: true });
    expect(r.input).toBe('{"n":1}');
    expect(r.inputDetails).toEqual({ included: true });
    expect(r.name).toBe('first');
    expect(r.stateMachineArn).toBe(arn);
    expect(r.traceHeader).toBe('Root=1-abc');
    expect(r.executionArn).toMatch(new RegExp(`^arn:aws:states:us-east-1:000000000000:express:${name}:first:[0-9a-f-]{36}$`));
    expect(r.error).toBeUndefined();
    expect(r.stopDate!.getTime()).toBeGreaterThanOrEqual(r.startDate!.getTime());
    // Billed in 100 ms steps of duration and 64 MB steps of memory.
    expect(r.billingDetails!.billedDurationInMilliseconds! % 100).toBe(0);
    expect(r.billingDetails!.billedDurationInMilliseconds).toBeGreaterThanOrEqual(100);
    expect(r.billingDetails!.billedMemoryUsedInMB).toBe(64);

    // A name may be used again at once: another execution (another ARN).
    const again = await sfn.send(new StartSyncExecutionCommand({ stateMachineArn: arn, name: 'first', input: '{"n":2}' }));
    expect(again.executionArn).not.toBe(r.executionArn);
    expect(JSON.parse(again.output!).n).toBe(2);

    // METADATA_ONLY leaves the data out.
    const meta = await sfn.send(new StartSyncExecutionCommand({ stateMachineArn: arn, includedData: 'METADATA_ONLY' }));
    expect(meta.status).toBe('SUCCEEDED');
    expect(meta.output).toBeUndefined();
    expect(meta.input).toBeUndefined();
    expect(meta.inputDetails).toEqual({ included: false });
  });

  it('a failing execution answers 200 with FAILED, error and cause; Retry and Catch as in jobs; tasks and JSONata run', async () => {
    const failing = await express(
      JSON.stringify({
        StartAt: 'Try',
        States: {
          Try: {
            Type: 'Task',
            Resource: 'fail',
            Parameters: { error: 'Boom', cause: 'it broke' },
            Retry: [{ ErrorEquals: ['Boom'], MaxAttempts: 1, IntervalSeconds: 0 }],
            Catch: [{ ErrorEquals: ['Other'], Next: 'Never' }],
            End: true,
          },
          Never: { Type: 'Succeed' },
        },
      }),
    );
    const r = await sfn.send(new StartSyncExecutionCommand({ stateMachineArn: failing }));
    expect(r.$metadata.httpStatusCode).toBe(200);
    expect(r).toMatchObject({ status: 'FAILED', error: 'Boom', cause: 'it broke' });
    expect(r.output).toBeUndefined();

    const caught = await express(
      JSON.stringify({
        QueryLanguage: 'JSONata',
        StartAt: 'Echo',
        States: {
          Echo: { Type: 'Task', Resource: 'echo', Arguments: { doubled: '{% $states.input.n * 2 %}' }, Assign: { seen: '{% $states.result.doubled %}' }, Next: 'Each' },
          Each: {
            Type: 'Map',
            Items: '{% [1, 2, 3] %}',
            ItemProcessor: { StartAt: 'Sq', States: { Sq: { Type: 'Pass', Output: '{% $states.input * $states.input %}', End: true } } },
            Next: 'Fail',
          },
          Fail: { Type: 'Task', Resource: 'fail', Arguments: { error: 'Nope' }, Catch: [{ ErrorEquals: ['States.ALL'], Output: '{% { "seen": $seen, "caught": $states.errorOutput.Error } %}', Next: 'Done' }], End: true },
          Done: { Type: 'Succeed' },
        },
      }),
    );
    const c = await sfn.send(new StartSyncExecutionCommand({ stateMachineArn: caught, input: '{"n":21}' }));
    expect(c.status).toBe('SUCCEEDED');
    expect(JSON.parse(c.output!)).toEqual({ seen: 42, caught: 'Nope' });

    const failState = await express(JSON.stringify({ StartAt: 'F', States: { F: { Type: 'Fail', Error: 'Custom.Error', Cause: 'as defined' } } }));
    expect(await sfn.send(new StartSyncExecutionCommand({ stateMachineArn: failState }))).toMatchObject({ status: 'FAILED', error: 'Custom.Error', cause: 'as defined' });
  });

  it('an execution ends TIMED_OUT at its TimeoutSeconds and at the Express limit (the request never outlasts it)', async () => {
    const waits = await express(JSON.stringify({ TimeoutSeconds: 1, StartAt: 'W', States: { W: { Type: 'Wait', Seconds: 3600, End: true } } }));
    const r = await sfn.send(new StartSyncExecutionCommand({ stateMachineArn: waits }));
    expect(r).toMatchObject({ status: 'TIMED_OUT', error: 'States.Timeout' });
    expect(r.output).toBeUndefined();

    // No TimeoutSeconds: the Express limit (WORKFLOW_EXPRESS_MAX_SECONDS, five minutes unless lowered) ends it.
    const forever = await express(JSON.stringify({ StartAt: 'W', States: { W: { Type: 'Wait', Seconds: 99999999, End: true } } }));
    const limit = t.config.workflowExpressMaxSeconds;
    t.config.workflowExpressMaxSeconds = 1;
    try {
      expect(await sfn.send(new StartSyncExecutionCommand({ stateMachineArn: forever }))).toMatchObject({ status: 'TIMED_OUT', error: 'States.Timeout' });
    } finally {
      t.config.workflowExpressMaxSeconds = limit;
    }
  });

  it('Standard\u2019s 25,000-event history quota does not bound an Express execution (no history is kept)', async () => {
    // 7,000 rounds of Pass + Choice: 28,000 events' worth of transitions, within Express' time bound.
    const loop = {
      StartAt: 'Count',
      States: {
        Count: { Type: 'Pass', Parameters: { 'n.$': 'States.MathAdd($.n, 1)' }, Next: 'More' },
        More: { Type: 'Choice', Choices: [{ Variable: '$.n', NumericLessThan: 7_000, Next: 'Count' }], Default: 'Done' },
        Done: { Type: 'Succeed' },
      },
    };
    const r = await sfn.send(new StartSyncExecutionCommand({ stateMachineArn: await express(JSON.stringify(loop)), input: '{"n":0}' }));
    expect(r).toMatchObject({ status: 'SUCCEEDED', output: '{"n":7000}' });
  });

  it('a StartSyncExecution whose client goes away ends its execution', async () => {
    const waits = await express(JSON.stringify({ StartAt: 'W', States: { W: { Type: 'Wait', Seconds: 240, End: true } } }));
    const aborted = await metric('aborted');
    const abort = new AbortController();
    const call = sfn.send(new StartSyncExecutionCommand({ stateMachineArn: waits }), { abortSignal: abort.signal });
    await until(async () => (await running()) === 1);
    abort.abort();
    await expect(call).rejects.toThrow();
    await until(async () => (await running()) === 0 && (await metric('aborted')) === aborted + 1);
  });

  it('StartExecution of an EXPRESS machine runs it asynchronously (an :express: ARN, not idempotent)', async () => {
    const arn = await express(PASS);
    const succeeded = await metric('succeeded');
    const a = await sfn.send(new StartExecutionCommand({ stateMachineArn: arn, name: 'same', input: '{}' }));
    const b = await sfn.send(new StartExecutionCommand({ stateMachineArn: arn, name: 'same', input: '{}' }));
    expect(a.executionArn).toMatch(/:express:[^:]+:same:[0-9a-f-]{36}$/);
    expect(b.executionArn).not.toBe(a.executionArn);
    await until(async () => (await metric('succeeded')) >= succeeded + 2);
  });

  it('versions and aliases of an EXPRESS machine run their own text', async () => {
    const arn = await express(PASS);
    const v1 = (await sfn.send(new PublishStateMachineVersionCommand({ stateMachineArn: arn }))).stateMachineVersionArn!;
    await sfn.send(new UpdateStateMachineCommand({ stateMachineArn: arn, definition: JSON.stringify({ StartAt: 'P', States: { P: { Type: 'Pass', Result: 2, End: true } } }) }));
    expect((await sfn.send(new StartSyncExecutionCommand({ stateMachineArn: arn }))).output).toBe('2');
    expect(JSON.parse((await sfn.send(new StartSyncExecutionCommand({ stateMachineArn: v1 }))).output!)).toEqual({ pass: { ok: true } });
    const alias = (await sfn.send(new CreateStateMachineAliasCommand({ name: 'live', routingConfiguration: [{ stateMachineVersionArn: v1, weight: 100 }] }))).stateMachineAliasArn!;
    expect(JSON.parse((await sfn.send(new StartSyncExecutionCommand({ stateMachineArn: alias }))).output!)).toEqual({ pass: { ok: true } });
  });

  it('refuses what Express executions and machines do not have, as Step Functions does', async () => {
    const arn = await express(PASS);
    const r = await sfn.send(new StartSyncExecutionCommand({ stateMachineArn: arn }));
    const executionArn = r.executionArn!;
    const invalidArn = "InvalidArn 400: Invalid Arn: 'Resource type not valid in this context: express'";
    expect(await errorWithMessageOf(sfn.send(new DescribeExecutionCommand({ executionArn })))).toBe(invalidArn);
    expect(await errorWithMessageOf(sfn.send(new GetExecutionHistoryCommand({ executionArn })))).toBe(invalidArn);
    expect(await errorWithMessageOf(sfn.send(new StopExecutionCommand({ executionArn })))).toBe(invalidArn);
    expect(await errorWithMessageOf(sfn.send(new RedriveExecutionCommand({ executionArn })))).toBe(invalidArn);
    expect(await errorWithMessageOf(sfn.send(new DescribeStateMachineForExecutionCommand({ executionArn })))).toBe(invalidArn);
    expect(await errorWithMessageOf(sfn.send(new ListExecutionsCommand({ stateMachineArn: arn })))).toMatch(/^StateMachineTypeNotSupported 400/);

    const standard = (await sfn.send(new CreateStateMachineCommand({ name: uniq('std'), definition: PASS, roleArn: ROLE }))).stateMachineArn!;
    expect(await errorWithMessageOf(sfn.send(new StartSyncExecutionCommand({ stateMachineArn: standard })))).toMatch(/^StateMachineTypeNotSupported 400/);
    expect(await errorWithMessageOf(sfn.send(new StartSyncExecutionCommand({ stateMachineArn: `${arn}-missing` })))).toMatch(/^StateMachineDoesNotExist 400/);
    expect(await errorWithMessageOf(sfn.send(new StartSyncExecutionCommand({ stateMachineArn: 'arn:aws:states:us-east-1:000000000000:activity:x' })))).toMatch(/^InvalidArn 400/);
    expect(await errorWithMessageOf(sfn.send(new StartSyncExecutionCommand({ stateMachineArn: arn, input: '{"open":' })))).toMatch(/^InvalidExecutionInput 400/);
    expect(await errorWithMessageOf(sfn.send(new StartSyncExecutionCommand({ stateMachineArn: arn, name: 'has space' })))).toMatch(/^InvalidName 400/);
  });

  it('Express definitions may not use activities, .waitForTaskToken, .sync or Distributed Map', async () => {
    const task = (Resource: string) => JSON.stringify({ StartAt: 'T', States: { T: { Type: 'Task', Resource, End: true } } });
    const activity = 'arn:aws:states:us-east-1:000000000000:activity:worker';
    const create = (definition: string) => errorWithMessageOf(sfn.send(new CreateStateMachineCommand({ name: uniq('bad'), definition, roleArn: ROLE, type: 'EXPRESS' })));
    expect(await create(task(activity))).toBe(
      "InvalidDefinition 400: Invalid State Machine Definition: 'SCHEMA_VALIDATION_FAILED: Express state machine does not support Activity ARN at /States/T/Resource'",
    );
    expect(await create(task('arn:aws:states:::echo.waitForTaskToken'))).toMatch(/^InvalidDefinition 400: .*Express state machine does not support '\.waitForTaskToken' service integration at \/States\/T\/Resource/);
    expect(await create(task('arn:aws:states:::states:startExecution.sync:2'))).toMatch(/^InvalidDefinition 400: .*Express state machine does not support '\.sync' service integration/);
    const distributed = JSON.stringify({
      StartAt: 'M',
      States: { M: { Type: 'Map', ItemProcessor: { ProcessorConfig: { Mode: 'DISTRIBUTED', ExecutionType: 'EXPRESS' }, StartAt: 'P', States: { P: { Type: 'Pass', End: true } } }, End: true } },
    });
    expect(await create(distributed)).toMatch(/^InvalidDefinition 400: .*DISTRIBUTED mode at \/States\/M\/ItemProcessor\/ProcessorConfig\/Mode/);
    // Nested states are checked too; the same definitions are fine for STANDARD machines.
    const nested = JSON.stringify({ StartAt: 'Par', States: { Par: { Type: 'Parallel', Branches: [JSON.parse(task(activity))], End: true } } });
    expect(await create(nested)).toMatch(/Activity ARN at \/States\/Par\/Branches\/0\/States\/T\/Resource/);
    expect(await errorWithMessageOf(sfn.send(new CreateStateMachineCommand({ name: uniq('std'), definition: nested, roleArn: ROLE })))).toBe('ok');

    // UpdateStateMachine keeps an EXPRESS machine Express.
    const arn = await express(PASS);
    expect(await errorWithMessageOf(sfn.send(new UpdateStateMachineCommand({ stateMachineArn: arn, definition: task(activity) })))).toMatch(/^InvalidDefinition 400: .*Activity ARN/);

    // ValidateStateMachineDefinition answers the same as diagnostics for type EXPRESS only.
    const v = await sfn.send(new ValidateStateMachineDefinitionCommand({ definition: task(activity), type: 'EXPRESS' }));
    expect(v.result).toBe('FAIL');
    expect(v.diagnostics).toContainEqual({ severity: 'ERROR', code: 'SCHEMA_VALIDATION_FAILED', message: 'Express state machine does not support Activity ARN', location: '/States/T/Resource' });
    expect((await sfn.send(new ValidateStateMachineDefinitionCommand({ definition: task(activity), type: 'STANDARD' }))).result).toBe('OK');
  });

  it('GraphQL: the type says EXPRESS; jobs of an EXPRESS machine are not started there', async () => {
    const arn = await express(PASS);
    const read = await gql<any>(t.url, 'query($arn: String!) { workflowDefinition(arn: $arn) { type } }', { arn }, token);
    expect(read.body.data.workflowDefinition.type).toBe('EXPRESS');
    const start = await gql<any>(t.url, 'mutation($arn: String!) { startWorkflowJob(input: { definitionArn: $arn }) { job { arn } } }', { arn }, token);
    expect(start.status).toBeLessThan(500);
    const [error] = (start.body.errors ?? []) as Array<{ message: string; extensions?: { code?: string } }>;
    expect(error?.extensions?.code).toBe('BAD_USER_INPUT');
    expect(error?.message).toMatch(/EXPRESS/);
  });
});
