/**
 * JSONata and variables over both transports, run by the embedded runner: the real @aws-sdk/client-sfn creates,
 * updates and starts a JSONata + variables definition that SUCCEEDS with the expected output (history with
 * assignedVariables), one whose expression fails ends FAILED with States.QueryEvaluationError (and an
 * EvaluationFailed event); shapes asl-validator's schema refused (nested arrays, empty strings, an Output that is an
 * array or a scalar) are created, tested and run; definitions Step Functions refuses are InvalidDefinition with its diagnostics; GraphQL
 * creates, updates and starts the same definitions.
 */
import { CreateStateMachineCommand, GetExecutionHistoryCommand, SFNClient, StartExecutionCommand, TestStateCommand, UpdateStateMachineCommand, ValidateStateMachineDefinitionCommand } from '@aws-sdk/client-sfn';
import { print } from 'graphql';
import { CreateWorkflowDefinitionDocument, StartWorkflowJobDocument, UpdateWorkflowDefinitionDocument } from '../__generated__/graphql';
import { IdentityFixtures, uniq } from '../fixtures/identity';
import { gql, startTestApp, TestApp } from '../helpers/app';
import { waitForExecution, awsStepFunctionsCli } from '../helpers/workflow-jobs';

const ROLE = 'arn:aws:iam::000000000000:role/workflow-runner';

const GOOD = {
  Comment: 'JSONata with variables',
  QueryLanguage: 'JSONata',
  StartAt: 'Prepare',
  States: {
    Prepare: { Type: 'Pass', Assign: { customer: '{% $states.input.customer %}', total: '{% $sum($states.input.items.price) %}' }, Next: 'Check' },
    Check: { Type: 'Choice', Choices: [{ Condition: '{% $total > 100 %}', Assign: { tier: 'gold' }, Next: 'Items' }], Default: 'Items', Assign: { tier: 'standard' } },
    Items: {
      Type: 'Map',
      Items: '{% $states.input.items %}',
      ItemSelector: { name: '{% $states.context.Map.Item.Value.name %}', tier: '{% $tier %}' },
      ItemProcessor: { StartAt: 'Echo', States: { Echo: { Type: 'Task', Resource: 'echo', Arguments: '{% $states.input %}', End: true } } },
      Assign: { count: '{% $count($states.result) %}' },
      Next: 'Done',
    },
    Done: { Type: 'Pass', Output: { customer: '{% $customer %}', tier: '{% $tier %}', count: '{% $count %}', names: '{% $states.input.name %}' }, End: true },
  },
};
const INPUT = { customer: 'ana', items: [{ name: 'a', price: 60 }, { name: 'b', price: 70 }] };
const EXPECTED = { customer: 'ana', tier: 'gold', count: 2, names: ['a', 'b'] };
// Shapes Step Functions accepts and asl-validator's JSONata schema refused (asl-schema-check.ts, relaxJsonata):
// nested arrays in templates, empty strings, an Output that is an array or a scalar.
const SHAPES = {
  QueryLanguage: 'JSONata',
  StartAt: 'Pair',
  States: {
    Pair: { Type: 'Pass', Output: [1, '{% $states.input.a %}'], Assign: { prefix: '', grid: [[1, 2], ['{% $states.input.a %}']] }, Next: 'Call' },
    Call: { Type: 'Task', Resource: 'echo', Arguments: { m: [['a', '{% $states.input[1] %}']], prefix: '{% $prefix %}', empty: '', grid: '{% $grid %}' }, Next: 'Shape' },
    Shape: { Type: 'Pass', Output: { x: [[1]], from: '{% $states.input %}' }, Next: 'Pick' },
    Pick: {
      Type: 'Choice',
      Choices: [
        { Condition: '{% $states.context.Execution.Input.out = "number" %}', Next: 'Number' },
        { Condition: '{% $states.context.Execution.Input.out = "true" %}', Next: 'True' },
        { Condition: '{% $states.context.Execution.Input.out = "null" %}', Next: 'Null' },
        { Condition: '{% $states.context.Execution.Input.out = "literal" %}', Next: 'Literal' },
        { Condition: '{% $states.context.Execution.Input.out = "empty" %}', Next: 'Empty' },
      ],
      Default: 'Done',
    },
    Number: { Type: 'Pass', Output: 5, End: true },
    True: { Type: 'Pass', Output: true, End: true },
    Null: { Type: 'Pass', Output: null, End: true },
    Literal: { Type: 'Pass', Output: 'literal', End: true },
    Empty: { Type: 'Pass', Output: '', End: true },
    Done: { Type: 'Succeed' },
  },
};
const BAD_EXPRESSION = { QueryLanguage: 'JSONata', StartAt: 'P', States: { P: { Type: 'Pass', Output: '{% $states.input.n / 0 + $number("x") %}', End: true } } };

describe('JSONata and variables over the wire', () => {
  let t: TestApp;
  let sfn: SFNClient;
  let token: string;
  let key: { accessKeyId: string; secretAccessKey: string };

  const settle = (executionArn: string, timeoutMs = 20_000) => waitForExecution(sfn, executionArn, { timeoutMs });

  beforeAll(async () => {
    t = await startTestApp();
    const fx = new IdentityFixtures(t.db.dataSource);
    const user = await fx.user(uniq('jsonata'));
    const k = await fx.services.identity.createAccessKey(t.db.dataSource.manager, { user: user.login });
    key = { accessKeyId: k.accessKeyId, secretAccessKey: k.secretAccessKey };
    sfn = new SFNClient({ region: 'us-east-1', endpoint: `${t.url}/workflow`, credentials: key, disableHostPrefix: true, maxAttempts: 1 });
    token = await fx.classicToken(user, ['workflow']);
  });
  afterAll(async () => {
    sfn?.destroy();
    await t?.close();
  });

  it('@aws-sdk/client-sfn: a JSONata + variables definition runs to SUCCEEDED with its output', async () => {
    const { stateMachineArn } = await sfn.send(new CreateStateMachineCommand({ name: uniq('jsonata'), roleArn: ROLE, definition: JSON.stringify(GOOD) }));
    const { executionArn } = await sfn.send(new StartExecutionCommand({ stateMachineArn, input: JSON.stringify(INPUT) }));
    const d = await settle(executionArn!);
    expect(d.status).toBe('SUCCEEDED');
    expect(JSON.parse(d.output!)).toEqual(EXPECTED);
    const events = (await sfn.send(new GetExecutionHistoryCommand({ executionArn, maxResults: 1000 }))).events!;
    const prepared = events.find((e) => e.type === 'PassStateExited' && e.stateExitedEventDetails?.name === 'Prepare');
    expect(prepared?.stateExitedEventDetails?.assignedVariables).toEqual({ customer: '"ana"', total: '130' });
    expect(prepared?.stateExitedEventDetails?.assignedVariablesDetails).toEqual({ truncated: false });
  });

  it('@aws-sdk/client-sfn: an expression that fails ends the job FAILED with States.QueryEvaluationError', async () => {
    const { stateMachineArn } = await sfn.send(new CreateStateMachineCommand({ name: uniq('jsonata-bad'), roleArn: ROLE, definition: JSON.stringify(BAD_EXPRESSION) }));
    const { executionArn } = await sfn.send(new StartExecutionCommand({ stateMachineArn, input: JSON.stringify({ n: 1 }) }));
    const d = await settle(executionArn!);
    expect(d.status).toBe('FAILED');
    expect(d.error).toBe('States.QueryEvaluationError');
    expect(d.cause).toContain("specified for the field 'Output'");
    const events = (await sfn.send(new GetExecutionHistoryCommand({ executionArn }))).events!;
    const failed = events.find((e) => e.type === 'EvaluationFailed');
    expect(failed?.evaluationFailedEventDetails).toEqual(expect.objectContaining({ error: 'States.QueryEvaluationError', state: 'P', location: 'Output' }));
  });

  it('@aws-sdk/client-sfn: nested arrays, empty strings and an Output that is an array or a scalar are created and run', async () => {
    const { stateMachineArn } = await sfn.send(new CreateStateMachineCommand({ name: uniq('jsonata-shapes'), roleArn: ROLE, definition: JSON.stringify(SHAPES) }));
    const run = async (input: unknown) => {
      const { executionArn } = await sfn.send(new StartExecutionCommand({ stateMachineArn, input: JSON.stringify(input) }));
      const d = await settle(executionArn!);
      expect([d.status, d.error, d.cause]).toEqual(['SUCCEEDED', undefined, undefined]);
      return JSON.parse(d.output!) as unknown;
    };
    expect(await run({ a: 'b', out: 'none' })).toEqual({ x: [[1]], from: { m: [['a', 'b']], prefix: '', empty: '', grid: [[1, 2], ['b']] } });
    expect(await run({ a: 'b', out: 'number' })).toBe(5);
    expect(await run({ a: 'b', out: 'true' })).toBe(true);
    expect(await run({ a: 'b', out: 'null' })).toBeNull();
    expect(await run({ a: 'b', out: 'literal' })).toBe('literal');
    expect(await run({ a: 'b', out: 'empty' })).toBe('');
    // and the array Output of the first state is the next one's input
    const { executionArn } = await sfn.send(new StartExecutionCommand({ stateMachineArn, input: JSON.stringify({ a: 7 }) }));
    await settle(executionArn!);
    const events = (await sfn.send(new GetExecutionHistoryCommand({ executionArn, maxResults: 1000 }))).events!;
    const pair = events.find((e) => e.type === 'PassStateExited' && e.stateExitedEventDetails?.name === 'Pair');
    expect(JSON.parse(pair!.stateExitedEventDetails!.output!)).toEqual([1, 7]);
    expect(pair?.stateExitedEventDetails?.assignedVariables).toEqual({ prefix: '""', grid: '[[1,2],[7]]' });

    // TestState of one such state, and of the Task with nested arrays in its Arguments
    const one = await sfn.send(new TestStateCommand({ definition: JSON.stringify({ QueryLanguage: 'JSONata', ...SHAPES.States.Pair }), input: JSON.stringify({ a: 'z' }), roleArn: ROLE }));
    expect([one.status, JSON.parse(one.output!)]).toEqual(['SUCCEEDED', [1, 'z']]);
    const call = await sfn.send(
      new TestStateCommand({ definition: JSON.stringify({ QueryLanguage: 'JSONata', ...SHAPES.States.Call }), input: '[1, "q"]', variables: JSON.stringify({ prefix: '', grid: [[]] }), roleArn: ROLE }),
    );
    expect([call.status, JSON.parse(call.output!)]).toEqual(['SUCCEEDED', { m: [['a', 'q']], prefix: '', empty: '', grid: [[]] }]);
  });

  it('@aws-sdk/client-sfn: create and update refuse what Step Functions refuses, with its diagnostics', async () => {
    const bad = { QueryLanguage: 'JSONata', StartAt: 'A', States: { A: { Type: 'Pass', InputPath: '$.a', End: true } } };
    const err = await sfn.send(new CreateStateMachineCommand({ name: uniq('jsonata-refused'), roleArn: ROLE, definition: JSON.stringify(bad) })).catch((e) => e);
    expect(err.name).toBe('InvalidDefinition');
    expect(err.message).toContain("The QueryLanguage is set to 'JSONata', but field 'InputPath' is only supported for the 'JSONPath' QueryLanguage at /States/A");

    const { stateMachineArn } = await sfn.send(new CreateStateMachineCommand({ name: uniq('jsonata-upd'), roleArn: ROLE, definition: JSON.stringify(GOOD) }));
    const undefinedVar = { QueryLanguage: 'JSONata', StartAt: 'A', States: { A: { Type: 'Pass', Output: '{% $ghost %}', End: true } } };
    const upd = await sfn.send(new UpdateStateMachineCommand({ stateMachineArn, definition: JSON.stringify(undefinedVar) })).catch((e) => e);
    expect(upd.name).toBe('InvalidDefinition');
    expect(upd.message).toContain("The variable '$ghost' is not assigned");
    const ok = await sfn.send(new UpdateStateMachineCommand({ stateMachineArn, definition: JSON.stringify(BAD_EXPRESSION) }));
    expect(ok.updateDate).toBeInstanceOf(Date);
  });

  it('GraphQL: create, update and start a JSONata definition; a refused one is BAD_USER_INPUT', async () => {
    const created = await gql<{ createWorkflowDefinition: { definition: { arn: string } } }>(
      t.url,
      print(CreateWorkflowDefinitionDocument),
      { input: { name: uniq('gql-jsonata'), roleArn: ROLE, definition: JSON.stringify(BAD_EXPRESSION) } },
      token,
    );
    expect(created.body.errors).toBeUndefined();
    const arn = created.body.data!.createWorkflowDefinition.definition.arn;
    // the shapes asl-validator's schema refused are accepted here too
    const shapes = await gql(t.url, print(UpdateWorkflowDefinitionDocument), { input: { arn, definition: JSON.stringify(SHAPES) } }, token);
    expect(shapes.body.errors).toBeUndefined();
    const updated = await gql(t.url, print(UpdateWorkflowDefinitionDocument), { input: { arn, definition: JSON.stringify(GOOD) } }, token);
    expect(updated.body.errors).toBeUndefined();
    const started = await gql<{ startWorkflowJob: { job: { arn: string } } }>(t.url, print(StartWorkflowJobDocument), { input: { definitionArn: arn, input: JSON.stringify(INPUT) } }, token);
    expect(started.body.errors).toBeUndefined();
    const d = await settle(started.body.data!.startWorkflowJob.job.arn);
    expect(d.status).toBe('SUCCEEDED');
    expect(JSON.parse(d.output!)).toEqual(EXPECTED);

    const refused = await gql(
      t.url,
      print(UpdateWorkflowDefinitionDocument),
      { input: { arn, definition: JSON.stringify({ QueryLanguage: 'JSONata', StartAt: 'A', States: { A: { Type: 'Pass', Output: '{% 1 + %}', End: true } } }) } },
      token,
    );
    expect(refused.body.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    expect(refused.body.errors?.[0]?.message).toContain('INVALID_JSONATA_EXPRESSION');
  });

  describe('ValidateStateMachineDefinition', () => {
    const validate = (definition: unknown, extra: Record<string, unknown> = {}) =>
      sfn.send(new ValidateStateMachineDefinitionCommand({ definition: typeof definition === 'string' ? definition : JSON.stringify(definition), ...extra }));

    it('OK with no diagnostics for a valid JSONata definition', async () => {
      const r = await validate(GOOD);
      expect(r.result).toBe('OK');
      expect(r.diagnostics).toEqual([]);
      expect(r.truncated).toBe(false);
    });

    it('FAIL with diagnostics (severity, code, message, location), never an error', async () => {
      const bad = {
        QueryLanguage: 'JSONata',
        StartAt: 'A',
        States: { A: { Type: 'Pass', InputPath: '$.a', Next: 'B' }, B: { Type: 'Pass', Output: { v: '{% phone %}', w: '{% 1 + %}' }, End: true } },
      };
      const r = await validate(bad);
      expect(r.result).toBe('FAIL');
      expect(r.diagnostics).toEqual(
        expect.arrayContaining([
          { severity: 'ERROR', code: 'SCHEMA_VALIDATION_FAILED', message: "The QueryLanguage is set to 'JSONata', but field 'InputPath' is only supported for the 'JSONPath' QueryLanguage", location: '/States/A' },
          { severity: 'ERROR', code: 'UNSUPPORTED_JSONATA_EXPRESSION', message: "Reference to 'phone' at the top level is not supported.", location: '/States/B/Output/v' },
          expect.objectContaining({ severity: 'ERROR', code: 'INVALID_JSONATA_EXPRESSION', location: '/States/B/Output/w' }),
        ]),
      );
      const one = await validate(bad, { maxResults: 1 });
      expect(one.diagnostics).toHaveLength(1);
      expect(one.truncated).toBe(true);
      const notJson = await validate('{nope');
      expect(notJson.result).toBe('FAIL');
      expect(notJson.diagnostics?.[0]?.code).toBe('INVALID_JSON_DESCRIPTION');
      const unknownTask = await validate({ StartAt: 'T', States: { T: { Type: 'Task', Resource: 'arn:aws:lambda:us-east-1:1:function:x', End: true } } });
      expect(unknownTask.diagnostics?.[0]).toEqual(expect.objectContaining({ code: 'INVALID_RESOURCE', location: '/States/T/Resource' }));
    });

    it("OK for the shapes asl-validator's JSONata schema refused; a refused state's diagnostic comes without the schema's variant noise", async () => {
      expect(await validate(SHAPES)).toEqual(expect.objectContaining({ result: 'OK', diagnostics: [] }));
      const r = await validate({ QueryLanguage: 'JSONata', StartAt: 'A', States: { A: { Type: 'Pass', Assign: [1], End: true } } });
      expect(r.result).toBe('FAIL');
      expect(r.diagnostics).toEqual([{ severity: 'ERROR', code: 'SCHEMA_VALIDATION_FAILED', message: '/States/A/Assign is invalid. must be object', location: '/States/A/Assign' }]);
    });

    it('warnings only with severity WARNING; the result stays OK', async () => {
      const warned = { StartAt: 'A', States: { A: { Type: 'Pass', Parameters: { literal: '$.x' }, End: true } } };
      expect(await validate(warned)).toEqual(expect.objectContaining({ result: 'OK', diagnostics: [] }));
      const w = await validate(warned, { severity: 'WARNING' });
      expect(w.result).toBe('OK');
      expect(w.diagnostics).toEqual([expect.objectContaining({ severity: 'WARNING', code: 'NO_DOLLAR', location: '/States/A/Parameters/literal' })]);
    });

    it('bad members are ValidationException', async () => {
      const err = await validate(GOOD, { severity: 'LOUD' }).catch((e) => e);
      expect(err.name).toBe('ValidationException');
      expect(err.$metadata.httpStatusCode).toBe(400);
    });

    it('the AWS CLI: validate-state-machine-definition', async () => {
      const cli = (args: string[]) => awsStepFunctionsCli(t.url, key, args);
      const ok = await cli(['validate-state-machine-definition', '--definition', JSON.stringify(GOOD)]);
      expect(ok.code).toBe(0);
      expect(JSON.parse(ok.stdout)).toEqual(expect.objectContaining({ result: 'OK', diagnostics: [] }));
      const bad = await cli(['validate-state-machine-definition', '--definition', JSON.stringify(BAD_EXPRESSION).replace('$states.input.n', 'n')]);
      expect(bad.code).toBe(0);
      const body = JSON.parse(bad.stdout);
      expect(body.result).toBe('FAIL');
      expect(body.diagnostics[0]).toEqual(expect.objectContaining({ code: 'UNSUPPORTED_JSONATA_EXPRESSION', location: '/States/P/Output' }));
    });
  });
});
