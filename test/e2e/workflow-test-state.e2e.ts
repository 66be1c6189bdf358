/**
 * TestState with the REAL @aws-sdk/client-sfn (and the AWS CLI): one state run by the engine with an input,
 * variables and an optional mock; status SUCCEEDED / FAILED / RETRIABLE / CAUGHT_ERROR with nextState, error and
 * cause as Step Functions gives them; inspectionLevel DEBUG's data after each processing step (JSONPath and
 * JSONata), TRACE's HTTP request and response (the connection's credential left out); the gateway's own tasks run
 * for real; Map and Parallel with a mock; refusals (InvalidDefinition, InvalidExecutionInput, ValidationException,
 * AccessDeniedException). Nothing is stored: no job appears.
 */
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { ListExecutionsCommand, CreateStateMachineCommand, SFNClient, TestStateCommand, TestStateCommandInput } from '@aws-sdk/client-sfn';
import { IdentityFixtures, uniq } from '../fixtures/identity';
import { TestWorkflowStateDocument, ValidateWorkflowDefinitionDocument } from '../__generated__/graphql';
import { gql, gqlDoc, startTestApp, TestApp } from '../helpers/app';
import { awsStepFunctionsCli } from '../helpers/workflow-jobs';

const ROLE = 'arn:aws:iam::000000000000:role/workflow-runner';
const API_KEY = 'k-7d1e3a5c9b2f4e6a8c0d';

async function errorOf(p: Promise<unknown>): Promise<{ name: string; status?: number; message: string }> {
  try {
    await p;
  } catch (e) {
    const err = e as { name: string; message: string; $metadata?: { httpStatusCode?: number } };
    return { name: err.name, status: err.$metadata?.httpStatusCode, message: err.message };
  }
  return { name: 'ok', message: '' };
}

describe('workflow TestState (@aws-sdk/client-sfn)', () => {
  let t: TestApp;
  let sfn: SFNClient;
  let admin: SFNClient;
  let key: { accessKeyId: string; secretAccessKey: string };
  let server: http.Server;
  let base: string;
  let connectionArn: string;
  let userToken: string;
  let readToken: string;
  const seen: Array<{ headers: http.IncomingHttpHeaders; body: string }> = [];

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        seen.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
        const status = req.url === '/missing' ? 404 : 200;
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ got: Buffer.concat(chunks).toString('utf8'), keyOk: req.headers['x-api-key'] === API_KEY }));
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    t = await startTestApp({ env: { WORKFLOW_RUNNER: 'off', WORKFLOW_HTTP_ALLOW: 'http://127.0.0.1' } });
    const fx = new IdentityFixtures(t.db.dataSource);
    const client = async (login: string, siteAdmin = false) => {
      const user = await fx.user(uniq(login), { siteAdmin });
      const k = await fx.services.identity.createAccessKey(t.db.dataSource.manager, { user: user.login });
      return { user, k, c: new SFNClient({ region: 'us-east-1', endpoint: `${t.url}/workflow`, credentials: { accessKeyId: k.accessKeyId, secretAccessKey: k.secretAccessKey }, disableHostPrefix: true, maxAttempts: 1 }) };
    };
    const u = await client('tester');
    sfn = u.c;
    key = u.k;
    userToken = await fx.classicToken(u.user, ['workflow']);
    const repo = await fx.repo(u.user);
    readToken = await fx.fineGrainedToken(u.user, [`${u.user.login}/${repo.name}`], { workflow: 'read' });
    const a = await client('tsadmin', true);
    admin = a.c;
    const adminToken = await fx.classicToken(a.user, ['workflow']);
    const created = await gql(
      t.url,
      'mutation($input: CreateWorkflowConnectionInput!) { createWorkflowConnection(input: $input) { connection { arn } } }',
      { input: { name: uniq('ts-conn'), authorizationType: 'API_KEY', apiKeyName: 'X-Api-Key', apiKeyValue: API_KEY } },
      adminToken,
    );
    expect(created.body.errors).toBeUndefined();
    connectionArn = created.body.data.createWorkflowConnection.connection.arn;
  });
  afterAll(async () => {
    sfn?.destroy();
    admin?.destroy();
    await t?.close();
    server.closeAllConnections();
    await new Promise<void>((r) => server.close(() => r()));
  });

  const test = (input: Omit<TestStateCommandInput, 'definition'> & { definition: unknown }) =>
    sfn.send(new TestStateCommand({ ...input, definition: typeof input.definition === 'string' ? input.definition : JSON.stringify(input.definition) } as TestStateCommandInput));

  describe('JSONPath data flow', () => {
    it('Pass: each processing step at DEBUG, the output after OutputPath, the next state', async () => {
      const r = await test({
        definition: { Type: 'Pass', InputPath: '$.order', Parameters: { 'id.$': '$.id', total: 3 }, ResultPath: '$.shaped', OutputPath: '$.shaped', Assign: { 'seen.$': '$.id' }, Next: 'Ship' },
        input: JSON.stringify({ order: { id: 'o-1' }, other: true }),
        inspectionLevel: 'DEBUG',
      });
      expect(r.status).toBe('SUCCEEDED');
      expect(r.nextState).toBe('Ship');
      expect(JSON.parse(r.output!)).toEqual({ id: 'o-1', total: 3 });
      const d = r.inspectionData!;
      expect(JSON.parse(d.input!)).toEqual({ order: { id: 'o-1' }, other: true });
      expect(JSON.parse(d.afterInputPath!)).toEqual({ id: 'o-1' });
      expect(JSON.parse(d.afterParameters!)).toEqual({ id: 'o-1', total: 3 });
      expect(JSON.parse(d.afterResultPath!)).toEqual({ order: { id: 'o-1' }, other: true, shaped: { id: 'o-1', total: 3 } });
      expect(JSON.parse(d.variables!)).toEqual({ seen: 'o-1' });
    });

    it('INFO answers the outcome only; a state that ends the machine has no nextState', async () => {
      const r = await test({ definition: { Type: 'Pass', Result: { a: 1 }, End: true }, input: '{}' });
      expect(r).toEqual(expect.objectContaining({ status: 'SUCCEEDED', output: '{"a":1}' }));
      expect(r.nextState).toBeUndefined();
      expect(r.inspectionData).toBeUndefined();
    });

    it('Choice: the matching rule decides nextState, Default otherwise, States.NoChoiceMatched without one', async () => {
      const choice = { Type: 'Choice', Choices: [{ Variable: '$.n', NumericGreaterThan: 10, Next: 'Big' }], Default: 'Small' };
      expect((await test({ definition: choice, input: '{"n":11}' })).nextState).toBe('Big');
      expect((await test({ definition: choice, input: '{"n":1}' })).nextState).toBe('Small');
      const none = await test({ definition: { ...choice, Default: undefined }, input: '{"n":1}' });
      expect(none).toEqual(expect.objectContaining({ status: 'FAILED', error: 'States.NoChoiceMatched' }));
    });

    it('Wait answers at once (an hour, or a timestamp in a year), Succeed ends, Fail fails with its error and cause', async () => {
      const w = await test({ definition: { Type: 'Wait', Seconds: 3600, Next: 'After' }, input: '{"k":1}' });
      expect(w).toEqual(expect.objectContaining({ status: 'SUCCEEDED', nextState: 'After', output: '{"k":1}' }));
      const later = new Date(Date.now() + 365 * 24 * 3600_000).toISOString();
      const ts = await test({ definition: { Type: 'Wait', TimestampPath: '$.at', Next: 'After' }, input: JSON.stringify({ at: later }) });
      expect(ts.status).toBe('SUCCEEDED');
      expect((await test({ definition: { Type: 'Succeed', OutputPath: '$.x' }, input: '{"x":[1]}' })).output).toBe('[1]');
      const f = await test({ definition: { Type: 'Fail', ErrorPath: '$.e', Cause: 'because' }, input: '{"e":"Boom"}' });
      expect(f).toEqual(expect.objectContaining({ status: 'FAILED', error: 'Boom', cause: 'because' }));
      expect(f.output).toBeUndefined();
    });

    it("Task: the gateway's echo runs; result, afterResultSelector and afterResultPath at DEBUG", async () => {
      const r = await test({
        definition: { Type: 'Task', Resource: 'echo', Parameters: { 'v.$': '$.v', fixed: 'x' }, ResultSelector: { 'echoed.$': '$.v' }, ResultPath: '$.r', Next: 'N' },
        input: '{"v":42}',
        inspectionLevel: 'DEBUG',
      });
      expect(r.status).toBe('SUCCEEDED');
      const d = r.inspectionData!;
      expect(JSON.parse(d.afterParameters!)).toEqual({ v: 42, fixed: 'x' });
      expect(JSON.parse(d.result!)).toEqual({ v: 42, fixed: 'x' });
      expect(JSON.parse(d.afterResultSelector!)).toEqual({ echoed: 42 });
      expect(JSON.parse(d.afterResultPath!)).toEqual({ v: 42, r: { echoed: 42 } });
      expect(JSON.parse(r.output!)).toEqual({ v: 42, r: { echoed: 42 } });
    });

    it('Task errors: RETRIABLE when a Retry would run it again, CAUGHT_ERROR when a Catch takes it, else FAILED', async () => {
      const failing = { Type: 'Task', Resource: 'fail', Parameters: { error: 'Flaky', cause: 'try later' }, Next: 'Done' };
      const retry = { Retry: [{ ErrorEquals: ['Other'], MaxAttempts: 1 }, { ErrorEquals: ['Flaky'], IntervalSeconds: 3, BackoffRate: 2, MaxAttempts: 2 }] };
      const catcher = { Catch: [{ ErrorEquals: ['Nope'], Next: 'X' }, { ErrorEquals: ['States.ALL'], ResultPath: '$.err', Next: 'Recover' }] };

      const r1 = await test({ definition: { ...failing, ...retry, ...catcher }, input: '{"a":1}' });
      expect(r1).toEqual(expect.objectContaining({ status: 'RETRIABLE', error: 'Flaky', cause: 'try later' }));
      expect(r1.inspectionData?.errorDetails).toEqual({ retryIndex: 1, retryBackoffIntervalSeconds: 3 });
      expect(r1.nextState).toBeUndefined();

      const r2 = await test({ definition: { ...failing, ...catcher }, input: '{"a":1}', inspectionLevel: 'DEBUG' });
      expect(r2).toEqual(expect.objectContaining({ status: 'CAUGHT_ERROR', error: 'Flaky', cause: 'try later', nextState: 'Recover' }));
      expect(JSON.parse(r2.output!)).toEqual({ a: 1, err: { Error: 'Flaky', Cause: 'try later' } });
      expect(r2.inspectionData?.errorDetails).toEqual({ catchIndex: 1 });

      const r3 = await test({ definition: failing, input: '{}' });
      expect(r3).toEqual(expect.objectContaining({ status: 'FAILED', error: 'Flaky', cause: 'try later' }));
    });

    it('a state of a whole machine by stateName; variables given are read', async () => {
      const machine = {
        StartAt: 'A',
        States: { A: { Type: 'Pass', Assign: { limit: 5 }, Next: 'B' }, B: { Type: 'Pass', Parameters: { 'limit.$': '$limit', 'n.$': '$.n' }, End: true } },
      };
      const r = await test({ definition: machine, stateName: 'B', input: '{"n":2}', variables: '{"limit":9}' });
      expect(r).toEqual(expect.objectContaining({ status: 'SUCCEEDED', output: '{"limit":9,"n":2}' }));
      // a single state reading a variable the request gives
      const single = await test({ definition: { Type: 'Pass', Parameters: { 'v.$': '$greeting' }, End: true }, variables: '{"greeting":"hi"}' });
      expect(single.output).toBe('{"v":"hi"}');
    });
  });

  describe('JSONata', () => {
    it('Task: afterArguments, result, the Output and the variables Assign leaves', async () => {
      const r = await test({
        definition: {
          Type: 'Task',
          QueryLanguage: 'JSONata',
          Resource: 'echo',
          Arguments: { sum: '{% $states.input.a + $base %}' },
          Output: { total: '{% $states.result.sum * 2 %}' },
          Assign: { last: '{% $states.result.sum %}' },
          Next: 'Then',
        },
        input: '{"a":2}',
        variables: '{"base":40}',
        inspectionLevel: 'DEBUG',
      });
      expect(r).toEqual(expect.objectContaining({ status: 'SUCCEEDED', nextState: 'Then', output: '{"total":84}' }));
      expect(JSON.parse(r.inspectionData!.afterArguments!)).toEqual({ sum: 42 });
      expect(JSON.parse(r.inspectionData!.result!)).toEqual({ sum: 42 });
      expect(JSON.parse(r.inspectionData!.variables!)).toEqual({ base: 40, last: 42 });
    });

    it('a failing expression is States.QueryEvaluationError', async () => {
      const r = await test({ definition: { Type: 'Pass', QueryLanguage: 'JSONata', Output: '{% $error("no") %}', End: true } });
      expect(r).toEqual(expect.objectContaining({ status: 'FAILED', error: 'States.QueryEvaluationError' }));
    });
  });

  describe('mocks', () => {
    it('a Task mock replaces the call; the context given is $states.context', async () => {
      const r = await test({
        definition: { Type: 'Task', QueryLanguage: 'JSONata', Resource: 'secret-scanning.startScan', Output: { s: '{% $states.result.status %}', who: '{% $states.context.Execution.Name %}' }, End: true },
        mock: { result: '{"status":"completed"}' },
        context: '{"Execution":{"Name":"given"}}',
      });
      expect(r).toEqual(expect.objectContaining({ status: 'SUCCEEDED', output: '{"s":"completed","who":"given"}' }));
    });

    it('a mocked error with retrierRetryCount: the Retry is exhausted, the Catch takes it', async () => {
      const definition = {
        Type: 'Task',
        Resource: 'echo',
        Retry: [{ ErrorEquals: ['Throttled'], MaxAttempts: 2 }],
        Catch: [{ ErrorEquals: ['Throttled'], Next: 'GiveUp' }],
        Next: 'Ok',
      };
      const first = await test({ definition, mock: { errorOutput: { error: 'Throttled', cause: 'slow down' } } });
      expect(first.status).toBe('RETRIABLE');
      expect(first.inspectionData?.errorDetails).toEqual({ retryIndex: 0, retryBackoffIntervalSeconds: 1 });
      const last = await test({ definition, mock: { errorOutput: { error: 'Throttled', cause: 'slow down' } }, stateConfiguration: { retrierRetryCount: 2 } });
      expect(last).toEqual(expect.objectContaining({ status: 'CAUGHT_ERROR', nextState: 'GiveUp', error: 'Throttled' }));
    });

    it('activities and callbacks run only mocked', async () => {
      const callback = { Type: 'Task', Resource: 'arn:aws:states:::echo.waitForTaskToken', Parameters: { 'token.$': '$$.Task.Token' }, End: true };
      expect((await errorOf(test({ definition: callback }))).name).toBe('ValidationException');
      expect((await test({ definition: callback, mock: { result: '"done"' } })).output).toBe('"done"');
    });

    it('Map: ItemsPath, ItemSelector and MaxConcurrency at DEBUG; the mocked result is the Map result', async () => {
      const r = await test({
        definition: {
          Type: 'Map',
          ItemsPath: '$.items',
          ItemSelector: { 'v.$': '$$.Map.Item.Value', 'i.$': '$$.Map.Item.Index' },
          MaxConcurrency: 3,
          ItemProcessor: { ProcessorConfig: { Mode: 'INLINE' }, StartAt: 'E', States: { E: { Type: 'Task', Resource: 'echo', End: true } } },
          ResultPath: '$.results',
          End: true,
        },
        input: '{"items":["a","b"]}',
        mock: { result: '[1,2]' },
        inspectionLevel: 'DEBUG',
      });
      expect(r.status).toBe('SUCCEEDED');
      expect(JSON.parse(r.output!)).toEqual({ items: ['a', 'b'], results: [1, 2] });
      const d = r.inspectionData!;
      expect(JSON.parse(d.afterItemsPath!)).toEqual(['a', 'b']);
      expect(JSON.parse(d.afterItemSelector!)).toEqual([{ v: 'a', i: 0 }, { v: 'b', i: 1 }]);
      expect(d.maxConcurrency).toBe(3);
      expect(JSON.parse(d.result!)).toEqual([1, 2]);
    });

    it('Parallel: a mocked error goes to its Catch; unmocked Map and Parallel are refused', async () => {
      const par = { Type: 'Parallel', Branches: [{ StartAt: 'B', States: { B: { Type: 'Pass', End: true } } }], Catch: [{ ErrorEquals: ['States.ALL'], Next: 'Handle' }], Next: 'N' };
      const r = await test({ definition: par, mock: { errorOutput: { error: 'BranchFailed', cause: 'c' } } });
      expect(r).toEqual(expect.objectContaining({ status: 'CAUGHT_ERROR', nextState: 'Handle', error: 'BranchFailed' }));
      const refused = await errorOf(test({ definition: par }));
      expect(refused).toEqual(expect.objectContaining({ name: 'ValidationException', status: 400 }));
      expect(refused.message).toContain('mock');
    });
  });

  describe('TRACE: an HTTP task', () => {
    it("shows the request and the response; the connection's key only with revealSecrets (a site admin's)", async () => {
      const definition = { Type: 'Task', Resource: 'arn:aws:states:::http:invoke', Parameters: { ApiEndpoint: `${base}/things`, Method: 'POST', Authentication: { ConnectionArn: connectionArn }, RequestBody: { q: 1 } }, End: true };
      const r = await test({ definition, inspectionLevel: 'TRACE' });
      expect(r.status).toBe('SUCCEEDED');
      expect(JSON.parse(r.output!).ResponseBody).toEqual({ got: '{"q":1}', keyOk: true });
      const d = r.inspectionData!;
      expect(d.request).toEqual(expect.objectContaining({ method: 'POST', url: `${base}/things`, body: '{"q":1}', protocol: 'http' }));
      expect(d.request!.headers).not.toContain(API_KEY);
      expect(JSON.parse(d.request!.headers!)['content-type']).toBe('application/json');
      expect(d.response).toEqual(expect.objectContaining({ statusCode: '200', statusMessage: 'OK', body: '{"got":"{\\"q\\":1}","keyOk":true}' }));
      expect(seen.at(-1)!.headers['x-api-key']).toBe(API_KEY);

      expect((await errorOf(test({ definition, inspectionLevel: 'TRACE', revealSecrets: true }))).name).toBe('AccessDeniedException');
      const revealed = await admin.send(new TestStateCommand({ definition: JSON.stringify(definition), inspectionLevel: 'TRACE', revealSecrets: true }));
      expect(JSON.parse(revealed.inspectionData!.request!.headers!)['x-api-key']).toBe(API_KEY);

      // a failed call is shown too, and fails the state with States.Http.StatusCode.404
      const missing = await test({ definition: { ...definition, Parameters: { ...definition.Parameters, ApiEndpoint: `${base}/missing` } }, inspectionLevel: 'TRACE' });
      expect(missing).toEqual(expect.objectContaining({ status: 'FAILED', error: 'States.Http.StatusCode.404' }));
      expect(missing.inspectionData?.response?.statusCode).toBe('404');
      // DEBUG shows no HTTP traffic
      expect((await test({ definition, inspectionLevel: 'DEBUG' })).inspectionData?.request).toBeUndefined();
    });
  });

  describe('refusals', () => {
    it('definitions: not JSON, an invalid state, a whole machine without stateName, an unknown stateName', async () => {
      const bad = async (input: Parameters<typeof test>[0]) => errorOf(test(input));
      expect(await bad({ definition: '{nope' })).toEqual(expect.objectContaining({ name: 'InvalidDefinition', status: 400 }));
      const invalid = await bad({ definition: { Type: 'Pass', Next: 'A', End: true } });
      expect(invalid.name).toBe('InvalidDefinition');
      expect((await bad({ definition: { Type: 'Task', Resource: 'arn:aws:lambda:us-east-1:1:function:x', End: true } })).name).toBe('InvalidDefinition');
      expect((await bad({ definition: { StartAt: 'A', States: { A: { Type: 'Pass', End: true } } } })).name).toBe('InvalidDefinition');
      expect((await bad({ definition: { StartAt: 'A', States: { A: { Type: 'Pass', End: true } } }, stateName: 'Z' })).name).toBe('ValidationException');
      // a variable the request does not give is a reference to nothing
      expect((await bad({ definition: { Type: 'Pass', Parameters: { 'v.$': '$missing' }, End: true } })).name).toBe('InvalidDefinition');
    });

    it('input, variables, context, mock and inspectionLevel', async () => {
      const pass = { Type: 'Pass', End: true };
      const task = { Type: 'Task', Resource: 'echo', End: true };
      expect((await errorOf(test({ definition: pass, input: '{"a":' }))).name).toBe('InvalidExecutionInput');
      expect((await errorOf(test({ definition: pass, variables: '[1]' }))).name).toBe('ValidationException');
      expect((await errorOf(test({ definition: pass, mock: { result: '1' } }))).message).toContain('Task, Map or Parallel');
      expect((await errorOf(test({ definition: task, context: '{}' }))).name).toBe('ValidationException');
      expect((await errorOf(test({ definition: task, mock: { result: 'not json' } }))).name).toBe('ValidationException');
      expect((await errorOf(test({ definition: task, mock: { result: '1', errorOutput: { error: 'E' } } }))).name).toBe('ValidationException');
      expect((await errorOf(test({ definition: pass, inspectionLevel: 'LOUD' as never }))).name).toBe('ValidationException');
    });

    it('nothing is stored: a state machine tested by stateName has no executions', async () => {
      const name = uniq('ts-machine');
      const definition = JSON.stringify({ StartAt: 'A', States: { A: { Type: 'Task', Resource: 'echo', End: true } } });
      const { stateMachineArn } = await sfn.send(new CreateStateMachineCommand({ name, definition, roleArn: ROLE }));
      expect((await test({ definition, stateName: 'A', input: '{"x":1}' })).output).toBe('{"x":1}');
      expect((await sfn.send(new ListExecutionsCommand({ stateMachineArn }))).executions).toEqual([]);
    });
  });

  describe('GraphQL: validateWorkflowDefinition and testWorkflowState', () => {
    it('validates a definition: diagnostics with code and location, warnings on request', async () => {
      const bad = await gqlDoc(t.url, ValidateWorkflowDefinitionDocument, { definition: JSON.stringify({ StartAt: 'A', States: { A: { Type: 'Pass', Next: 'Nowhere' } } }) }, userToken);
      expect(bad.body.errors).toBeUndefined();
      expect(bad.body.data!.validateWorkflowDefinition.result).toBe('FAIL');
      expect(bad.body.data!.validateWorkflowDefinition.diagnostics[0]).toEqual(expect.objectContaining({ severity: 'ERROR', code: 'MISSING_TRANSITION_TARGET' }));
      const warned = { StartAt: 'A', States: { A: { Type: 'Pass', Parameters: { literal: '$.x' }, End: true } } };
      const w = await gqlDoc(t.url, ValidateWorkflowDefinitionDocument, { definition: JSON.stringify(warned), severity: 'WARNING' as never }, userToken);
      expect(w.body.data!.validateWorkflowDefinition).toEqual({
        result: 'OK',
        truncated: false,
        diagnostics: [expect.objectContaining({ severity: 'WARNING', code: 'NO_DOLLAR', location: '/States/A/Parameters/literal' })],
      });
    });

    it('tests a state with the same answers as the wire protocol; refusals are BAD_USER_INPUT / FORBIDDEN', async () => {
      const input = {
        definition: JSON.stringify({ Type: 'Task', Resource: 'echo', Parameters: { 'n.$': '$.n' }, Retry: [{ ErrorEquals: ['Mocked'], IntervalSeconds: 2 }], Catch: [{ ErrorEquals: ['States.ALL'], Next: 'Oops' }], Next: 'Then' }),
        input: '{"n":5}',
        inspectionLevel: 'DEBUG' as never,
      };
      const r = await gqlDoc(t.url, TestWorkflowStateDocument, { input }, userToken);
      expect(r.body.errors).toBeUndefined();
      const got = r.body.data!.testWorkflowState;
      expect(got).toEqual(expect.objectContaining({ status: 'SUCCEEDED', nextState: 'Then', output: '{"n":5}' }));
      expect(got.inspectionData!.afterParameters).toBe('{"n":5}');
      const wire = await test({ ...input, definition: input.definition, inspectionLevel: 'DEBUG' });
      expect(got.output).toBe(wire.output);
      expect(got.inspectionData!.result).toBe(wire.inspectionData!.result);

      const retriable = await gqlDoc(t.url, TestWorkflowStateDocument, { input: { ...input, mock: { error: 'Mocked', cause: 'c' } } }, userToken);
      expect(retriable.body.data!.testWorkflowState).toEqual(expect.objectContaining({ status: 'RETRIABLE', error: 'Mocked' }));
      expect(retriable.body.data!.testWorkflowState.inspectionData!.errorDetails).toEqual({ retryIndex: 0, retryBackoffIntervalSeconds: 2, catchIndex: null });
      const caught = await gqlDoc(t.url, TestWorkflowStateDocument, { input: { ...input, mock: { error: 'Mocked', cause: 'c' }, retrierRetryCount: 3 } }, userToken);
      expect(caught.body.data!.testWorkflowState).toEqual(expect.objectContaining({ status: 'CAUGHT_ERROR', nextState: 'Oops' }));

      const invalid = await gqlDoc(t.url, TestWorkflowStateDocument, { input: { definition: '{"Type":"Nope"}' } }, userToken);
      expect(invalid.body.errors?.[0].extensions?.code).toBe('BAD_USER_INPUT');
      // running a state runs its task: a read-only credential may validate but not test
      const ro = await gqlDoc(t.url, TestWorkflowStateDocument, { input }, readToken);
      expect(ro.body.errors?.[0].extensions?.code).toBe('FORBIDDEN');
      const roValidate = await gqlDoc(t.url, ValidateWorkflowDefinitionDocument, { definition: input.definition }, readToken);
      expect(roValidate.body.errors).toBeUndefined();
    });
  });

  it('the AWS CLI: test-state and validate-state-machine-definition', async () => {
    const cli = (args: string[]) => awsStepFunctionsCli(t.url, key, args, {
        // TestState's endpoint has the host prefix "sync-", which a local endpoint does not have
        AWS_DISABLE_HOST_PREFIX_INJECTION: 'true',
      });
    const ok = await cli(['test-state', '--definition', JSON.stringify({ Type: 'Pass', Parameters: { 'n.$': '$.n' }, Next: 'B' }), '--input', '{"n":7}', '--inspection-level', 'DEBUG']);
    expect(ok.stderr).toBe('');
    const body = JSON.parse(ok.stdout);
    expect(body).toEqual(expect.objectContaining({ status: 'SUCCEEDED', nextState: 'B', output: '{"n":7}' }));
    expect(body.inspectionData.afterParameters).toBe('{"n":7}');
    const refused = await cli(['test-state', '--definition', '{"Type":"Nope"}']);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain('InvalidDefinition');
    const valid = await cli(['validate-state-machine-definition', '--definition', JSON.stringify({ StartAt: 'A', States: { A: { Type: 'Pass', End: true } } })]);
    expect(JSON.parse(valid.stdout)).toEqual(expect.objectContaining({ result: 'OK', diagnostics: [] }));
  }, 120_000);
});
