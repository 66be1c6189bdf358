/**
 * Malformed definitions over every entry point that checks one, with the REAL @aws-sdk/client-sfn and GraphQL: a
 * `States` that is null, a string or an array, a state that is no object, a `StartAt` that is no string, Parallel
 * `Branches` that are no array, a Map `ItemProcessor` / `Iterator` that is no object. CreateStateMachine,
 * UpdateStateMachine and TestState answer InvalidDefinition naming the place (400); ValidateStateMachineDefinition
 * and GraphQL's validateWorkflowDefinition answer FAIL with a SCHEMA_VALIDATION_FAILED diagnostic at that location;
 * GraphQL's create is BAD_USER_INPUT. None of them is "could not be validated". Data members named `States` or
 * `Parameters` holding null or a string are valid data: such a definition is created and runs.
 */
import { CreateStateMachineCommand, SFNClient, StartExecutionCommand, TestStateCommand, UpdateStateMachineCommand, ValidateStateMachineDefinitionCommand } from '@aws-sdk/client-sfn';
import { CreateWorkflowDefinitionDocument, ValidateWorkflowDefinitionDocument } from '../__generated__/graphql';
import { IdentityFixtures, uniq } from '../fixtures/identity';
import { gqlDoc, startTestApp, TestApp } from '../helpers/app';
import { errorWithMessageOf, waitForExecution } from '../helpers/workflow-jobs';

const ROLE = 'arn:aws:iam::000000000000:role/workflow-runner';
type Doc = Record<string, unknown>;

const MALFORMED: Array<[string, Doc, string]> = [
  ['States null', { StartAt: 'A', States: null }, '/States'],
  ['States a string', { StartAt: 'A', States: 'A' }, '/States'],
  ['States an array', { StartAt: 'A', States: [{ Type: 'Pass', End: true }] }, '/States'],
  ['a state a string', { StartAt: 'A', States: { A: 'Pass' } }, '/States/A'],
  ['a state null', { StartAt: 'A', States: { A: { Type: 'Pass', Next: 'B' }, B: null } }, '/States/B'],
  ['StartAt a number', { StartAt: 1, States: { A: { Type: 'Pass', End: true } } }, '/StartAt'],
  ['Branches a string', { StartAt: 'P', States: { P: { Type: 'Parallel', Branches: 'B', End: true } } }, '/States/P/Branches'],
  ["a branch's States null", { StartAt: 'P', States: { P: { Type: 'Parallel', Branches: [{ StartAt: 'B', States: null }], End: true } } }, '/States/P/Branches/0/States'],
  ['ItemProcessor null', { StartAt: 'M', States: { M: { Type: 'Map', ItemProcessor: null, End: true } } }, '/States/M/ItemProcessor'],
  ['Iterator a number', { StartAt: 'M', States: { M: { Type: 'Map', Iterator: 5, End: true } } }, '/States/M/Iterator'],
  ["an ItemProcessor's States a string", { StartAt: 'M', States: { M: { Type: 'Map', ItemProcessor: { StartAt: 'I', States: 'I' }, End: true } } }, '/States/M/ItemProcessor/States'],
];

describe('workflow: malformed definitions', () => {
  let t: TestApp;
  let sfn: SFNClient;
  let token: string;
  let arn: string;

  beforeAll(async () => {
    t = await startTestApp();
    const fx = new IdentityFixtures(t.db.dataSource);
    const user = await fx.user(uniq('malformed'));
    const k = await fx.services.identity.createAccessKey(t.db.dataSource.manager, { user: user.login });
    sfn = new SFNClient({ region: 'us-east-1', endpoint: `${t.url}/workflow`, credentials: { accessKeyId: k.accessKeyId, secretAccessKey: k.secretAccessKey }, disableHostPrefix: true, maxAttempts: 1 });
    token = await fx.classicToken(user, ['workflow']);
    arn = (await sfn.send(new CreateStateMachineCommand({ name: uniq('malformed'), roleArn: ROLE, definition: JSON.stringify({ StartAt: 'A', States: { A: { Type: 'Pass', End: true } } }) }))).stateMachineArn!;
  });
  afterAll(async () => {
    sfn?.destroy();
    await t?.close();
  });

  it.each(MALFORMED)('%s: refused at its place by every entry point', async (_, doc, location) => {
    const definition = JSON.stringify(doc);
    const refusal = expect.stringMatching(new RegExp(`^InvalidDefinition 400: Invalid State Machine Definition: 'SCHEMA_VALIDATION_FAILED: ${location} is invalid\\. must be`));
    expect(await errorWithMessageOf(sfn.send(new CreateStateMachineCommand({ name: uniq('bad'), roleArn: ROLE, definition })))).toEqual(refusal);
    expect(await errorWithMessageOf(sfn.send(new UpdateStateMachineCommand({ stateMachineArn: arn, definition })))).toEqual(refusal);
    // TestState of a whole machine names the state to test (here its first)
    const stateName = typeof doc.StartAt === 'string' ? doc.StartAt : 'A';
    expect(await errorWithMessageOf(sfn.send(new TestStateCommand({ definition, stateName, roleArn: ROLE })))).toEqual(refusal);

    const v = await sfn.send(new ValidateStateMachineDefinitionCommand({ definition }));
    expect(v.result).toBe('FAIL');
    expect(v.diagnostics?.[0]).toEqual({ severity: 'ERROR', code: 'SCHEMA_VALIDATION_FAILED', message: expect.stringContaining(`${location} is invalid. must be`), location });

    const g = await gqlDoc(t.url, ValidateWorkflowDefinitionDocument, { definition }, token);
    expect(g.body.errors).toBeUndefined();
    expect(g.body.data!.validateWorkflowDefinition.result).toBe('FAIL');
    expect(g.body.data!.validateWorkflowDefinition.diagnostics[0]).toEqual({ severity: 'ERROR', code: 'SCHEMA_VALIDATION_FAILED', message: expect.stringContaining(`${location} is invalid. must be`), location });
    const created = await gqlDoc(t.url, CreateWorkflowDefinitionDocument, { input: { name: uniq('bad-gql'), roleArn: ROLE, definition } }, token);
    expect(created.body.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    expect(created.body.errors?.[0]?.message).toContain(`SCHEMA_VALIDATION_FAILED: ${location} is invalid`);
  });

  it('TestState of one state: Branches or ItemProcessor that are not what they must be are refused where they are', async () => {
    for (const [state, member] of [
      [{ Type: 'Parallel', Branches: { StartAt: 'B' }, End: true }, 'Branches'],
      [{ Type: 'Map', ItemProcessor: 'x', End: true }, 'ItemProcessor'],
    ] as const) {
      const got = await errorWithMessageOf(sfn.send(new TestStateCommand({ definition: JSON.stringify(state), roleArn: ROLE, mock: { result: '[]' } })));
      expect(got).toMatch(new RegExp(`^InvalidDefinition 400: Invalid State Machine Definition: 'SCHEMA_VALIDATION_FAILED: /States/\\w+/${member} is invalid\\. must be`));
    }
  });

  it('data members named States or Parameters holding null or a string are data: created, tested and run', async () => {
    const doc = {
      StartAt: 'A',
      States: {
        A: { Type: 'Pass', Parameters: { States: null, 'n.$': '$.n' }, Next: 'B' },
        B: { Type: 'Pass', Result: { States: 'x', Parameters: null }, ResultPath: '$.r', End: true },
      },
    };
    const definition = JSON.stringify(doc);
    expect((await sfn.send(new ValidateStateMachineDefinitionCommand({ definition }))).result).toBe('OK');
    const tested = await sfn.send(new TestStateCommand({ definition, stateName: 'A', input: '{"n":3}', roleArn: ROLE }));
    expect([tested.status, tested.output]).toEqual(['SUCCEEDED', '{"States":null,"n":3}']);
    const { stateMachineArn } = await sfn.send(new CreateStateMachineCommand({ name: uniq('data-states'), roleArn: ROLE, definition }));
    const { executionArn } = await sfn.send(new StartExecutionCommand({ stateMachineArn, input: '{"n":3}' }));
    const d = await waitForExecution(sfn, executionArn!);
    expect([d.status, JSON.parse(d.output!)]).toEqual(['SUCCEEDED', { States: null, n: 3, r: { States: 'x', Parameters: null } }]);
  });
});
