/**
 * JSONata and variables over both transports, run by the embedded runner: the real @aws-sdk/client-sfn creates,
 * updates and starts a JSONata + variables definition that SUCCEEDS with the expected output (history with
 * assignedVariables), one whose expression fails ends FAILED with States.QueryEvaluationError (and an
 * EvaluationFailed event); definitions Step Functions refuses are InvalidDefinition with its diagnostics; GraphQL
 * creates, updates and starts the same definitions.
 */
import { CreateStateMachineCommand, DescribeExecutionCommand, GetExecutionHistoryCommand, SFNClient, StartExecutionCommand, UpdateStateMachineCommand } from '@aws-sdk/client-sfn';
import { print } from 'graphql';
import { CreateWorkflowDefinitionDocument, StartWorkflowJobDocument, UpdateWorkflowDefinitionDocument } from '../__generated__/graphql';
import { IdentityFixtures, uniq } from '../fixtures/identity';
import { gql, startTestApp, TestApp } from '../helpers/app';

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
const BAD_EXPRESSION = { QueryLanguage: 'JSONata', StartAt: 'P', States: { P: { Type: 'Pass', Output: '{% $states.input.n / 0 + $number("x") %}', End: true } } };

describe('JSONata and variables over the wire', () => {
  let t: TestApp;
  let sfn: SFNClient;
  let token: string;

  const settle = async (executionArn: string, timeoutMs = 20_000) => {
    const until = Date.now() + timeoutMs;
    for (;;) {
      const d = await sfn.send(new DescribeExecutionCommand({ executionArn }));
      if (d.status !== 'RUNNING') return d;
      if (Date.now() > until) throw new Error(`job still RUNNING after ${timeoutMs} ms`);
      await new Promise((r) => setTimeout(r, 50));
    }
  };

  beforeAll(async () => {
    t = await startTestApp();
    const fx = new IdentityFixtures(t.db.dataSource);
    const user = await fx.user(uniq('jsonata'));
    const k = await fx.services.identity.createAccessKey(t.db.dataSource.manager, { user: user.login });
    sfn = new SFNClient({ region: 'us-east-1', endpoint: `${t.url}/workflow`, credentials: { accessKeyId: k.accessKeyId, secretAccessKey: k.secretAccessKey }, disableHostPrefix: true, maxAttempts: 1 });
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
});
