/**
 * HTTP tasks (`arn:aws:states:::http:invoke`) with the REAL @aws-sdk/client-sfn against a local HTTP server: the
 * request carries the Parameters (Method, Headers, QueryParameters, RequestBody, Transform URL_ENCODED with each
 * ArrayFormat) and the connection's credential (API key, basic, OAuth client credentials); the output is
 * { Headers, ResponseBody, StatusCode, StatusText }; a non-2xx answer fails with States.Http.StatusCode.<n>. Safe by
 * default: a host outside WORKFLOW_HTTP_ALLOW, a listed host that resolves to a loopback address not listed, a
 * redirect (never followed), an answer over the size cap and a server that never answers (short configured
 * timeout) all fail the task with a clear error, and the refused destinations get no request. Connections are
 * managed by site admins over GraphQL; their secrets never come back, never reach the history or the logs.
 */
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { CreateStateMachineCommand, DescribeExecutionCommand, ValidateStateMachineDefinitionCommand, GetExecutionHistoryCommand, HistoryEvent, SendTaskSuccessCommand, SFNClient, StartExecutionCommand } from '@aws-sdk/client-sfn';
import { WorkflowConnectionEntity } from '../../entities/workflow';
import { IdentityFixtures, uniq } from '../fixtures/identity';
import { gql, startTestApp, TestApp } from '../helpers/app';

const ROLE = 'arn:aws:iam::000000000000:role/workflow-runner';
const API_KEY = 'k-3f9a1c7e5b2d8e4a6c0f';
const PASSWORD = 'pw-8c2e4a6f1b3d5e7a9c0b';
const CLIENT_SECRET = 'cs-1a2b3c4d5e6f7a8b9c0d';
const BEARER = 'at-5e6f7a8b9c0d1a2b3c4d';

interface Seen {
  method: string;
  path: string;
  query: Record<string, string[]>;
  headers: http.IncomingHttpHeaders;
  body: string;
}

describe('workflow HTTP tasks (http:invoke)', () => {
  let t: TestApp;
  let sfn: SFNClient;
  /** The callback endpoint's owner: another user (a site admin) with an access key of their own. */
  let ownerSfn: SFNClient;
  const callbacks: Array<Promise<unknown>> = [];
  let server: http.Server;
  let port: number;
  let base: string;
  const seen: Seen[] = [];
  let tokenRequests = 0;
  let adminToken: string;
  let userToken: string;
  const conn: Record<'apiKey' | 'basic' | 'oauth', string> = { apiKey: '', basic: '', oauth: '' };

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const url = new URL(req.url!, 'http://x');
        const query: Record<string, string[]> = {};
        for (const [k, v] of url.searchParams) (query[k] ??= []).push(v);
        const s: Seen = { method: req.method!, path: url.pathname, query, headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
        if (url.pathname === '/oauth/token') {
          tokenRequests++;
          const ok = req.headers.authorization === `Basic ${Buffer.from(`client-1:${CLIENT_SECRET}`).toString('base64')}` && s.body.includes('grant_type=client_credentials');
          res.writeHead(ok ? 200 : 401, { 'content-type': 'application/json' });
          return res.end(JSON.stringify(ok ? { access_token: BEARER, token_type: 'Bearer', expires_in: 3600 } : { error: 'invalid_client' }));
        }
        seen.push(s);
        if (url.pathname === '/echo') {
          res.writeHead(200, { 'content-type': 'application/json', 'x-trace': 'abc' });
          // what the server saw, except the credentials themselves (reported as matches)
          return res.end(
            JSON.stringify({
              method: s.method,
              query,
              contentType: req.headers['content-type'] ?? null,
              custom: req.headers['x-custom'] ?? null,
              apiKeyOk: req.headers['x-api-key'] === API_KEY,
              basicOk: req.headers.authorization === `Basic ${Buffer.from(`svc:${PASSWORD}`).toString('base64')}`,
              bearerOk: req.headers.authorization === `Bearer ${BEARER}`,
              body: s.body,
            }),
          );
        }
        if (url.pathname === '/callback') {
          // The endpoint takes the job's token and answers at once; its owner completes the task afterwards.
          const { token, order } = JSON.parse(s.body) as { token: string; order: number };
          res.writeHead(202, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ queued: true }));
          callbacks.push(new Promise((r) => setTimeout(r, 20)).then(() => ownerSfn.send(new SendTaskSuccessCommand({ taskToken: token, output: JSON.stringify({ approved: true, order }) }))));
          return;
        }
        if (url.pathname === '/text') {
          res.writeHead(201, 'Made', { 'content-type': 'text/plain' });
          return res.end('plain words');
        }
        const status = /^\/status\/(\d{3})$/.exec(url.pathname);
        if (status) {
          res.writeHead(Number(status[1]), { 'content-type': 'application/json' });
          return res.end(JSON.stringify({ problem: 'no such thing' }));
        }
        if (url.pathname === '/redirect') {
          res.writeHead(302, { location: `${base}/secret` });
          return res.end();
        }
        if (url.pathname === '/big') {
          // no content-length: the cap must hold while streaming
          res.writeHead(200, { 'content-type': 'text/plain' });
          for (let i = 0; i < 20; i++) res.write('x'.repeat(1000));
          return res.end();
        }
        if (url.pathname === '/hang') return; // never answers
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.end('ok');
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    port = (server.address() as AddressInfo).port;
    base = `http://127.0.0.1:${port}`;

    t = await startTestApp({ env: { WORKFLOW_HTTP_ALLOW: 'http://127.0.0.1', WORKFLOW_HTTP_TIMEOUT_SECONDS: '1', WORKFLOW_HTTP_MAX_RESPONSE_BYTES: '4096' } });
    const fx = new IdentityFixtures(t.db.dataSource);
    const admin = await fx.user(uniq('admin'), { siteAdmin: true });
    const user = await fx.user(uniq('user'));
    adminToken = await fx.classicToken(admin, ['workflow']);
    userToken = await fx.classicToken(user, ['workflow']);
    const k = await fx.services.identity.createAccessKey(t.db.dataSource.manager, { user: user.login });
    const ok = await fx.services.identity.createAccessKey(t.db.dataSource.manager, { user: admin.login });
    ownerSfn = new SFNClient({ region: 'us-east-1', endpoint: `${t.url}/workflow`, credentials: { accessKeyId: ok.accessKeyId, secretAccessKey: ok.secretAccessKey }, disableHostPrefix: true, maxAttempts: 1 });
    sfn = new SFNClient({ region: 'us-east-1', endpoint: `${t.url}/workflow`, credentials: { accessKeyId: k.accessKeyId, secretAccessKey: k.secretAccessKey }, disableHostPrefix: true, maxAttempts: 1 });

    const create = async (input: Record<string, unknown>) => {
      const r = await gql(
        t.url,
        'mutation($input: CreateWorkflowConnectionInput!) { createWorkflowConnection(input: $input) { connection { arn name authorizationType authParameters { apiKeyName username clientId authorizationEndpoint httpMethod } } } }',
        { input },
        adminToken,
      );
      expect(r.body.errors).toBeUndefined();
      return r.body.data.createWorkflowConnection.connection as { arn: string; authParameters: Record<string, unknown> };
    };
    conn.apiKey = (await create({ name: 'api-key', authorizationType: 'API_KEY', apiKeyName: 'X-Api-Key', apiKeyValue: API_KEY })).arn;
    conn.basic = (await create({ name: 'basic', authorizationType: 'BASIC', username: 'svc', password: PASSWORD })).arn;
    conn.oauth = (await create({ name: 'oauth', authorizationType: 'OAUTH_CLIENT_CREDENTIALS', authorizationEndpoint: `${base}/oauth/token`, clientId: 'client-1', clientSecret: CLIENT_SECRET })).arn;
  });

  afterAll(async () => {
    await Promise.allSettled(callbacks);
    sfn?.destroy();
    ownerSfn?.destroy();
    await t?.close();
    server?.closeAllConnections();
    await new Promise((r) => server?.close(r));
  });

  beforeEach(() => {
    // the local server speaks plain HTTP: allowed only because the entry says http://
    t.config.workflowHttpAllow = 'http://127.0.0.1';
  });

  const events = async (executionArn: string): Promise<HistoryEvent[]> => (await sfn.send(new GetExecutionHistoryCommand({ executionArn, maxResults: 1000 }))).events ?? [];
  const waitFor = async (executionArn: string) => {
    const until = Date.now() + 60_000;
    for (;;) {
      const d = await sfn.send(new DescribeExecutionCommand({ executionArn }));
      if (d.status !== 'RUNNING') return d;
      if (Date.now() > until) throw new Error(`${executionArn} still running`);
      await new Promise((r) => setTimeout(r, 50));
    }
  };
  /** Run a one-Task machine with these Parameters; the job's description and history. */
  const run = async (parameters: Record<string, unknown>, input: unknown = {}, extra: Record<string, unknown> = {}) => {
    const definition = { StartAt: 'Call', States: { Call: { Type: 'Task', Resource: 'arn:aws:states:::http:invoke', Parameters: parameters, End: true, ...extra } } };
    const { stateMachineArn } = await sfn.send(new CreateStateMachineCommand({ name: uniq('http'), roleArn: ROLE, definition: JSON.stringify(definition) }));
    const { executionArn } = await sfn.send(new StartExecutionCommand({ stateMachineArn, input: JSON.stringify(input) }));
    const d = await waitFor(executionArn!);
    return { d, history: await events(executionArn!), output: d.output ? JSON.parse(d.output) : undefined };
  };

  it('calls the API with the Parameters and the API key connection, and answers Step Functions\' output', async () => {
    const { d, history, output } = await run(
      {
        'ApiEndpoint.$': "States.Format('{}/echo', $.base)",
        Method: 'POST',
        Authentication: { ConnectionArn: conn.apiKey },
        Headers: { 'X-Custom': 'yes' },
        QueryParameters: { q: 'find me', 'n.$': '$.n' },
        RequestBody: { order: 42, items: ['a', 'b'] },
      },
      { base, n: '7' },
    );
    expect(d.status).toBe('SUCCEEDED');
    expect(output.StatusCode).toBe(200);
    expect(output.StatusText).toBe('OK');
    expect(output.Headers['content-type']).toEqual(['application/json']);
    expect(output.Headers['x-trace']).toEqual(['abc']);
    expect(output.ResponseBody).toEqual({
      method: 'POST',
      query: { q: ['find me'], n: ['7'] },
      contentType: 'application/json',
      custom: 'yes',
      apiKeyOk: true,
      basicOk: false,
      bearerOk: false,
      body: JSON.stringify({ order: 42, items: ['a', 'b'] }),
    });
    const scheduled = history.find((e) => e.type === 'TaskScheduled')!.taskScheduledEventDetails!;
    expect(scheduled).toMatchObject({ resourceType: 'http', resource: 'invoke' });
    // the credential is on the wire only: not in the history, not in the logs
    expect(JSON.stringify(history)).not.toContain(API_KEY);
    expect(JSON.stringify(t.logs)).not.toContain(API_KEY);
  });

  it('uses basic and OAuth client-credentials connections (the token is fetched once and reused)', async () => {
    const basic = await run({ ApiEndpoint: `${base}/echo`, Method: 'GET', Authentication: { ConnectionArn: conn.basic } });
    expect(basic.output.ResponseBody).toMatchObject({ method: 'GET', basicOk: true, apiKeyOk: false });
    const before = tokenRequests;
    const first = await run({ ApiEndpoint: `${base}/echo`, Method: 'GET', Authentication: { ConnectionArn: conn.oauth } });
    const second = await run({ ApiEndpoint: `${base}/echo`, Method: 'DELETE', Authentication: { ConnectionArn: conn.oauth } });
    expect(first.output.ResponseBody).toMatchObject({ method: 'GET', bearerOk: true });
    expect(second.output.ResponseBody).toMatchObject({ method: 'DELETE', bearerOk: true });
    expect(tokenRequests - before).toBe(1);
    for (const h of [basic.history, first.history, second.history]) {
      for (const secret of [PASSWORD, CLIENT_SECRET, BEARER]) expect(JSON.stringify(h)).not.toContain(secret);
    }
    expect(JSON.stringify(t.logs)).not.toMatch(new RegExp(`${PASSWORD}|${CLIENT_SECRET}|${BEARER}`));
  });

  it('URL-encodes the RequestBody with each ArrayFormat', async () => {
    const body = { a: ['x', 'y'], b: 'one two', c: { d: 1 } };
    const expected: Record<string, string> = {
      INDICES: 'a%5B0%5D=x&a%5B1%5D=y&b=one%20two&c%5Bd%5D=1',
      REPEAT: 'a=x&a=y&b=one%20two&c%5Bd%5D=1',
      COMMAS: 'a=x%2Cy&b=one%20two&c%5Bd%5D=1',
      BRACKETS: 'a%5B%5D=x&a%5B%5D=y&b=one%20two&c%5Bd%5D=1',
    };
    for (const [format, wire] of Object.entries(expected)) {
      const { output } = await run({
        ApiEndpoint: `${base}/echo`,
        Method: 'PUT',
        Authentication: { ConnectionArn: conn.apiKey },
        RequestBody: body,
        Transform: { RequestBodyEncoding: 'URL_ENCODED', RequestEncodingOptions: { ArrayFormat: format } },
      });
      expect({ format, body: output.ResponseBody.body, type: output.ResponseBody.contentType }).toEqual({ format, body: wire, type: 'application/x-www-form-urlencoded' });
    }
    // INDICES is the default
    const { output } = await run({ ApiEndpoint: `${base}/echo`, Method: 'POST', Authentication: { ConnectionArn: conn.apiKey }, RequestBody: { a: ['x', 'y'] }, Transform: { RequestBodyEncoding: 'URL_ENCODED' } });
    expect(output.ResponseBody.body).toBe('a%5B0%5D=x&a%5B1%5D=y');
  });

  it('answers a text body as a string, and fails a non-2xx answer with States.Http.StatusCode.<n> (Catch sees the response)', async () => {
    const text = await run({ ApiEndpoint: `${base}/text`, Method: 'GET', Authentication: { ConnectionArn: conn.apiKey } });
    expect(text.output).toMatchObject({ StatusCode: 201, StatusText: 'Made', ResponseBody: 'plain words' });

    const definition = {
      StartAt: 'Call',
      States: {
        Call: { Type: 'Task', Resource: 'arn:aws:states:::http:invoke', Parameters: { ApiEndpoint: `${base}/status/404`, Method: 'GET', Authentication: { ConnectionArn: conn.apiKey } }, Catch: [{ ErrorEquals: ['States.Http.StatusCode.404'], Next: 'Done' }], End: true },
        Done: { Type: 'Pass', End: true },
      },
    };
    const { stateMachineArn } = await sfn.send(new CreateStateMachineCommand({ name: uniq('http404'), roleArn: ROLE, definition: JSON.stringify(definition) }));
    const { executionArn } = await sfn.send(new StartExecutionCommand({ stateMachineArn, input: '{}' }));
    const d = await waitFor(executionArn!);
    expect(d.status).toBe('SUCCEEDED');
    const out = JSON.parse(d.output!);
    expect(out.Error).toBe('States.Http.StatusCode.404');
    expect(JSON.parse(out.Cause)).toMatchObject({ StatusCode: 404, ResponseBody: { problem: 'no such thing' } });

    const failed = await run({ ApiEndpoint: `${base}/status/503`, Method: 'GET', Authentication: { ConnectionArn: conn.apiKey } });
    expect(failed.d).toMatchObject({ status: 'FAILED', error: 'States.Http.StatusCode.503' });
    expect(failed.history.map((e) => e.type)).toContain('TaskFailed');
  });

  it('http:invoke.waitForTaskToken posts $$.Task.Token to an endpoint and resumes when its owner calls SendTaskSuccess', async () => {
    const definition = {
      StartAt: 'Ask',
      States: {
        Ask: {
          Type: 'Task',
          Resource: 'arn:aws:states:::http:invoke.waitForTaskToken',
          Parameters: { ApiEndpoint: `${base}/callback`, Method: 'POST', Authentication: { ConnectionArn: conn.apiKey }, RequestBody: { 'token.$': '$$.Task.Token', 'order.$': '$.order' } },
          TimeoutSeconds: 300,
          ResultPath: '$.answer',
          Next: 'Done',
        },
        Done: { Type: 'Pass', End: true },
      },
    };
    const { stateMachineArn } = await sfn.send(new CreateStateMachineCommand({ name: uniq('httpcb'), roleArn: ROLE, definition: JSON.stringify(definition) }));
    const { executionArn } = await sfn.send(new StartExecutionCommand({ stateMachineArn, input: '{"order":42}' }));
    const d = await waitFor(executionArn!);
    expect(d.status).toBe('SUCCEEDED');
    expect(JSON.parse(d.output!)).toEqual({ order: 42, answer: { approved: true, order: 42 } });
    const history = await events(executionArn!);
    expect(history.map((e) => e.type)).toEqual([
      'ExecutionStarted',
      'TaskStateEntered',
      'TaskScheduled',
      'TaskStarted',
      'TaskSubmitted',
      'TaskSucceeded',
      'TaskStateExited',
      'PassStateEntered',
      'PassStateExited',
      'ExecutionSucceeded',
    ]);
    expect(history.find((e) => e.type === 'TaskScheduled')!.taskScheduledEventDetails).toMatchObject({ resourceType: 'http', resource: 'invoke.waitForTaskToken' });
    // TaskSubmitted carries the endpoint's immediate answer; TaskSucceeded the owner's SendTaskSuccess output
    const submitted = JSON.parse(history.find((e) => e.type === 'TaskSubmitted')!.taskSubmittedEventDetails!.output!);
    expect(submitted).toMatchObject({ StatusCode: 202, ResponseBody: { queued: true } });
    expect(JSON.parse(history.find((e) => e.type === 'TaskSucceeded')!.taskSucceededEventDetails!.output!)).toEqual({ approved: true, order: 42 });
    const posted = seen.filter((x) => x.path === '/callback');
    expect(posted).toHaveLength(1);
    expect(JSON.parse(posted[0].body)).toEqual({ token: expect.stringMatching(/^gwt1\./), order: 42 });
  });

  it('refuses a host that is not listed, before any connection', async () => {
    const { d } = await run({ ApiEndpoint: 'https://10.1.2.3/anything', Method: 'GET', Authentication: { ConnectionArn: conn.apiKey } });
    expect(d).toMatchObject({ status: 'FAILED', error: 'Forbidden' });
    expect(d.cause).toMatch(/https:\/\/10\.1\.2\.3: 10\.1\.2\.3 is not listed in WORKFLOW_HTTP_ALLOW/);
  });

  it('refuses a listed host name that resolves to a loopback address not listed (checked on the resolved address)', async () => {
    t.config.workflowHttpAllow = 'http://localhost';
    const before = seen.length;
    const { d } = await run({ ApiEndpoint: `http://localhost:${port}/echo`, Method: 'GET', Authentication: { ConnectionArn: conn.apiKey } });
    expect(d).toMatchObject({ status: 'FAILED', error: 'Forbidden' });
    expect(d.cause).toMatch(/loopback, private, link-local/);
    expect(seen.length).toBe(before);
    // listing the address lets the same name through
    t.config.workflowHttpAllow = 'http://localhost, 127.0.0.0/8, ::1';
    const ok = await run({ ApiEndpoint: `http://localhost:${port}/echo`, Method: 'GET', Authentication: { ConnectionArn: conn.apiKey } });
    expect(ok.d.status).toBe('SUCCEEDED');
  });

  it('calls only https:// endpoints unless an http:// entry of WORKFLOW_HTTP_ALLOW names the destination', async () => {
    // the same host listed without http://: a written http:// endpoint is refused when the machine is created
    t.config.workflowHttpAllow = '127.0.0.1';
    const call = (endpoint: Record<string, unknown>) => ({ StartAt: 'Call', States: { Call: { Type: 'Task', Resource: 'arn:aws:states:::http:invoke', Parameters: { ...endpoint, Method: 'GET', Authentication: { ConnectionArn: conn.apiKey } }, End: true } } });
    const refused = sfn.send(new CreateStateMachineCommand({ name: uniq('http'), roleArn: ROLE, definition: JSON.stringify(call({ ApiEndpoint: `${base}/echo` })) }));
    await expect(refused).rejects.toMatchObject({ name: 'InvalidDefinition', message: expect.stringMatching(/ApiEndpoint must be an https:\/\/ URL .*at \/States\/Call\/Parameters\/ApiEndpoint/) });
    const v = await sfn.send(new ValidateStateMachineDefinitionCommand({ definition: JSON.stringify(call({ ApiEndpoint: `${base}/echo` })) }));
    expect(v.result).toBe('FAIL');
    expect(v.diagnostics).toEqual([expect.objectContaining({ code: 'SCHEMA_VALIDATION_FAILED', location: '/States/Call/Parameters/ApiEndpoint' })]);
    // an https:// endpoint to the same host passes validation (the run would need a TLS server)
    expect((await sfn.send(new ValidateStateMachineDefinitionCommand({ definition: JSON.stringify(call({ ApiEndpoint: `https://127.0.0.1:${port}/echo` })) }))).result).toBe('OK');
    // a computed http:// endpoint fails the task before any request, and the credential is not sent
    const before = seen.length;
    const { d } = await run({ 'ApiEndpoint.$': "States.Format('{}/echo', $.base)", Method: 'GET', Authentication: { ConnectionArn: conn.apiKey } }, { base });
    expect(d).toMatchObject({ status: 'FAILED', error: 'States.Runtime' });
    expect(d.cause).toMatch(/ApiEndpoint must be an https:\/\/ URL \(plain http:\/\/ is called only for destinations WORKFLOW_HTTP_ALLOW lists with an http:\/\/ entry\)/);
    expect(seen.length).toBe(before);
    // the OAuth token endpoint is held to the same rule (it would carry the client secret): a connection whose token
    // endpoint is http:// is refused when it is saved, unless an http:// entry names its host
    // (a connection of its own: the others' tokens may be cached)
    const createOauth = (name: string) =>
      gql(
        t.url,
        'mutation($input: CreateWorkflowConnectionInput!) { createWorkflowConnection(input: $input) { connection { arn } } }',
        { input: { name, authorizationType: 'OAUTH_CLIENT_CREDENTIALS', authorizationEndpoint: `${base}/oauth/token`, clientId: 'client-1', clientSecret: CLIENT_SECRET } },
        adminToken,
      );
    const plainName = uniq('oauth-plain');
    const refusedSave = await createOauth(plainName);
    expect(refusedSave.body.data).toBeNull();
    expect(refusedSave.body.errors).toEqual([
      expect.objectContaining({
        message: 'authorizationEndpoint must be an https:// URL (plain http:// is allowed only to hosts WORKFLOW_HTTP_ALLOW lists with an http:// entry: the token request carries the client secret)',
        extensions: expect.objectContaining({ code: 'BAD_USER_INPUT' }),
      }),
    ]);
    expect(JSON.stringify(refusedSave.body)).not.toContain(CLIENT_SECRET);
    t.config.workflowHttpAllow = 'http://127.0.0.1';
    const fresh = await createOauth(plainName);
    expect(fresh.body.errors).toBeUndefined();
    // the run checks it again: the configuration may have changed since the save
    t.config.workflowHttpAllow = '127.0.0.1, http://localhost';
    const oauth = await run({ ApiEndpoint: `http://localhost:${port}/echo`, Method: 'GET', Authentication: { ConnectionArn: fresh.body.data.createWorkflowConnection.connection.arn } });
    expect(oauth.d).toMatchObject({ status: 'FAILED' });
    expect(oauth.d.cause).toMatch(/plain http:\/\/ is allowed only to destinations WORKFLOW_HTTP_ALLOW lists with an http:\/\/ entry \(127\.0\.0\.1 is not\)/);
    expect(seen.length).toBe(before);
  });

  it('does not follow a redirect: the 3xx is the answer and the target gets no request', async () => {
    const before = seen.filter((s) => s.path === '/secret').length;
    const { d } = await run({ ApiEndpoint: `${base}/redirect`, Method: 'GET', Authentication: { ConnectionArn: conn.apiKey } });
    expect(d).toMatchObject({ status: 'FAILED', error: 'States.Http.StatusCode.302' });
    expect(JSON.parse(d.cause!).Headers.location).toEqual([`${base}/secret`]);
    expect(seen.filter((s) => s.path === '/secret').length).toBe(before);
  });

  it('fails an answer over WORKFLOW_HTTP_MAX_RESPONSE_BYTES with States.DataLimitExceeded', async () => {
    const { d } = await run({ ApiEndpoint: `${base}/big`, Method: 'GET', Authentication: { ConnectionArn: conn.apiKey } });
    expect(d).toMatchObject({ status: 'FAILED', error: 'States.DataLimitExceeded' });
    expect(d.cause).toMatch(/larger than 4096 bytes/);
  });

  it('fails with States.Http.Socket when the server does not answer within WORKFLOW_HTTP_TIMEOUT_SECONDS', async () => {
    const { d, history } = await run({ ApiEndpoint: `${base}/hang`, Method: 'GET', Authentication: { ConnectionArn: conn.apiKey } }, {}, { Retry: [{ ErrorEquals: ['States.Http.Socket'], MaxAttempts: 1, IntervalSeconds: 1 }] });
    expect(d).toMatchObject({ status: 'FAILED', error: 'States.Http.Socket' });
    expect(d.cause).toMatch(/did not complete within 1 seconds/);
    expect(history.filter((e) => e.type === 'TaskFailed')).toHaveLength(2); // retried once, as the Retry says
  });

  it('fails an unknown connection with Events.ConnectionResource.ResourceNotFound and bad Parameters with States.Runtime', async () => {
    const missing = await run({ ApiEndpoint: `${base}/echo`, Method: 'GET', Authentication: { ConnectionArn: 'arn:aws:events:us-east-1:000000000000:connection/nope/00000000-0000-4000-8000-000000000000' } });
    expect(missing.d).toMatchObject({ status: 'FAILED', error: 'Events.ConnectionResource.ResourceNotFound' });
    const noConnection = await run({ ApiEndpoint: `${base}/echo`, Method: 'GET' });
    expect(noConnection.d).toMatchObject({ status: 'FAILED', error: 'States.Runtime' });
    expect(noConnection.d.cause).toMatch(/Authentication\.ConnectionArn is required/);
    const forbiddenHeader = await run({ ApiEndpoint: `${base}/echo`, Method: 'GET', Authentication: { ConnectionArn: conn.apiKey }, Headers: { Host: 'evil.example' } });
    expect(forbiddenHeader.d.cause).toMatch(/the header Host may not be set/);
  });

  it('connections: site admins only, secrets sealed and never returned', async () => {
    const list = await gql(t.url, '{ workflowConnections { arn name authorizationType authParameters { apiKeyName username clientId } } }', {}, adminToken);
    expect(list.body.data.workflowConnections.map((c: { name: string }) => c.name).filter((n: string) => !n.startsWith('oauth-plain'))).toEqual(['api-key', 'basic', 'oauth']);
    expect(JSON.stringify(list.body)).not.toMatch(new RegExp(`${API_KEY}|${PASSWORD}|${CLIENT_SECRET}`));
    expect(list.body.data.workflowConnections[0].arn).toMatch(/^arn:aws:events:us-east-1:000000000000:connection\/api-key\/[0-9a-f-]{36}$/);

    const denied = await gql(t.url, '{ workflowConnections { arn } }', {}, userToken);
    expect(denied.body.errors?.[0].extensions?.code).toBe('FORBIDDEN');
    const deniedCreate = await gql(t.url, 'mutation { createWorkflowConnection(input: { name: "mine", authorizationType: BASIC, username: "u", password: "p" }) { connection { arn } } }', {}, userToken);
    expect(deniedCreate.body.errors?.[0].extensions?.code).toBe('FORBIDDEN');

    const dup = await gql(t.url, 'mutation { createWorkflowConnection(input: { name: "basic", authorizationType: BASIC, username: "u", password: "p" }) { connection { arn } } }', {}, adminToken);
    expect(dup.body.errors?.[0].extensions?.code).toBe('CONFLICT');
    const missing = await gql(t.url, 'mutation { createWorkflowConnection(input: { name: "half", authorizationType: API_KEY, apiKeyName: "X-Key" }) { connection { arn } } }', {}, adminToken);
    expect(missing.body.errors?.[0].extensions?.code).toBe('BAD_USER_INPUT');
    expect(missing.body.errors?.[0].message).toMatch(/apiKeyValue is required/);

    const rows = await t.db.dataSource.getRepository(WorkflowConnectionEntity).find();
    for (const r of rows) expect(r.secretCiphertext).not.toMatch(new RegExp(`${API_KEY}|${PASSWORD}|${CLIENT_SECRET}`));

    const temp = await gql(t.url, 'mutation { createWorkflowConnection(input: { name: "temp", authorizationType: BASIC, username: "u", password: "p" }) { connection { arn } } }', {}, adminToken);
    const arn = temp.body.data.createWorkflowConnection.connection.arn as string;
    const del = await gql(t.url, 'mutation($c: String!) { deleteWorkflowConnection(input: { connection: $c }) { connection { name } } }', { c: arn }, adminToken);
    expect(del.body.data.deleteWorkflowConnection.connection.name).toBe('temp');
    const again = await gql(t.url, 'mutation($c: String!) { deleteWorkflowConnection(input: { connection: $c }) { connection { name } } }', { c: arn }, adminToken);
    expect(again.body.errors?.[0].extensions?.code).toBe('NOT_FOUND');
  });
});
