/**
 * WorkflowClient (spec 002): one test per constructor option and per method, with their error cases, through the
 * real client against a loopback stand-in for Step Functions (node:http on port 0, recording what it receives and
 * answering like the service), plus retries through the real client against the fault-injecting server
 * (test/helpers/workflow-client-faults.ts: every signature checked with the gateway's own SigV4 code).
 */
import { createServer, IncomingHttpHeaders, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { inspect } from 'node:util';
import {
  Command,
  createNodeHttpHandler,
  Credentials,
  defaultApiProvider,
  HandlerList,
  InvalidArgumentError,
  ResultPaginator,
  Service,
  Token,
  Waiter,
  WaiterError,
  WorkflowClient,
  WorkflowServiceException,
  type HttpOptions,
  type Result,
  type WireRequest,
} from '../../../packages/workflow-client/src';
import { destroy, ok, startFaultServer, status, TEST_KEY, throttle } from '../../helpers/workflow-client-faults';

interface Seen {
  target: string;
  headers: IncomingHttpHeaders;
  body: Record<string, unknown>;
  path: string;
}

type Answer = { status: number; body: unknown } | 'hang';

describe('WorkflowClient', () => {
  let server: Server;
  let url: string;
  const seen: Seen[] = [];
  let answer: (s: Seen) => Answer;
  const defaultAnswer = (s: Seen): Answer => {
    switch (s.target) {
      case 'DescribeExecution':
        return { status: 200, body: { executionArn: s.body.executionArn, status: 'SUCCEEDED', startDate: 1700000000.25, stopDate: 1700000001.5, stateMachineArn: 'arn:sm' } };
      case 'ListExecutions': {
        const page = Number(s.body.nextToken ?? 0);
        return { status: 200, body: { executions: [{ name: `e${page * 2}` }, { name: `e${page * 2 + 1}` }], ...(page < 2 ? { nextToken: String(page + 1) } : {}) } };
      }
      default:
        return { status: 200, body: {} };
    }
  };

  beforeAll(async () => {
    server = createServer((req, res) => {
      let raw = '';
      req.on('data', (c) => (raw += c));
      req.on('end', () => {
        const s: Seen = { target: String(req.headers['x-amz-target']).split('.').pop()!, headers: req.headers, body: raw ? (JSON.parse(raw) as Record<string, unknown>) : {}, path: req.url ?? '' };
        seen.push(s);
        const a = answer(s);
        if (a === 'hang') return;
        res.writeHead(a.status, { 'content-type': 'application/x-amz-json-1.0', 'x-amzn-requestid': `rid-${seen.length}` });
        res.end(JSON.stringify(a.body));
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/workflow`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  });
  beforeEach(() => {
    seen.length = 0;
    answer = defaultAnswer;
  });

  // Credentials carrying an accountId, as a user who does not want the AccountIdWarning gives them; the warning's own
  // test gives credentials without one.
  const CREDS = { key: 'AKIDCLIENTTEST', secret: 'client-test-secret', accountId: '123456789012' };
  const NO_ACCOUNT = { key: CREDS.key, secret: CREDS.secret };
  const make = (o: Record<string, unknown> = {}) => new WorkflowClient({ region: 'us-east-1', version: '2016-11-23', endpoint: url, credentials: CREDS, ...o } as never, {});
  const keyId = (s: Seen) => /Credential=([^/]+)\//.exec(String(s.headers.authorization))?.[1];
  const errorOf = (f: () => unknown): Error => {
    try {
      f();
    } catch (e) {
      return e as Error;
    }
    throw new Error('expected an error');
  };

  describe('constructor options', () => {
    it('region: required, a host label without an endpoint, a string', () => {
      expect(errorOf(() => new WorkflowClient({ version: 'latest' } as never)).message).toMatch(/^Missing required client configuration options: \n\nregion: \(string\)/);
      expect(errorOf(() => new WorkflowClient({ region: 'us east', version: 'latest', credentials: false })).message).toBe('Region must be a valid RFC host label.');
      expect(errorOf(() => make({ region: 1 })).message).toMatch(/^Invalid configuration value provided for "region"\. Expected string, but got int\(1\)/);
      expect(make({ region: 'eu-west-3' }).getRegion()).toBe('eu-west-3');
    });

    it('version: required; latest or a version the model has', () => {
      expect(errorOf(() => new WorkflowClient({ region: 'us-east-1' } as never)).message).toMatch(/^Missing required client configuration options: \n\nversion: \(string\)/);
      expect(errorOf(() => make({ version: '2015-01-01' })).message).toBe('The states service does not have version: 2015-01-01.');
      expect(make({ version: 'latest' }).getApi().getApiVersion()).toBe('2016-11-23');
    });

    it('credentials: the array form, a Credentials, a provider function (asked per request), false (unsigned); true is an error', async () => {
      await make().describeExecution({ executionArn: 'a' });
      await make({ credentials: new Credentials('AKIDOBJECT', 's', undefined, undefined, '123456789012') }).describeExecution({ executionArn: 'a' });
      let asked = 0;
      const viaProvider = make({ credentials: async () => (asked++, new Credentials('AKIDPROVIDER', 's', undefined, undefined, '123456789012')) });
      await viaProvider.describeExecution({ executionArn: 'a' });
      await viaProvider.describeExecution({ executionArn: 'a' });
      await make({ credentials: false }).describeExecution({ executionArn: 'a' });
      expect(seen.map(keyId)).toEqual(['AKIDCLIENTTEST', 'AKIDOBJECT', 'AKIDPROVIDER', 'AKIDPROVIDER', undefined]);
      expect(seen[4].headers.authorization).toBeUndefined();
      expect(asked).toBe(2);
      expect(errorOf(() => make({ credentials: true })).message).toContain('Credentials must be an instance of Credentials');
    });

    it('token: an array, a Token, a provider, false (none); a wrong type is an error', async () => {
      expect((await make({ token: { token: 'bearer-1', expires: 2000000000 } }).getToken())?.getToken()).toBe('bearer-1');
      expect((await make({ token: new Token('t2') }).getToken())?.token).toBe('t2');
      expect((await make({ token: async () => new Token('t3') }).getToken())?.token).toBe('t3');
      expect(await make({ token: false }).getToken()).toBeNull();
      expect(errorOf(() => make({ token: 'x' })).message).toMatch(/^Invalid configuration value provided for "token"\. Expected Token\|array\|bool\|callable, but got string\(1\) "x"/);
    });

    it('endpoint: requests go to its path; a value that is no full URI is an error', async () => {
      await make().describeExecution({ executionArn: 'a' });
      expect(seen[0].path).toBe('/workflow');
      expect(errorOf(() => make({ endpoint: 'localhost:4000' })).message).toMatch(/^Endpoints must be full URIs/);
    });

    it('scheme and endpoint_provider: the provider gets {service, region, scheme} and its endpoint is used; null is an error', () => {
      expect(make({ endpoint: undefined }).getEndpoint().href).toBe('https://states.us-east-1.amazonaws.com/');
      expect(make({ endpoint: undefined, scheme: 'http', region: 'eu-west-1' }).getEndpoint().href).toBe('http://states.eu-west-1.amazonaws.com/');
      const calls: unknown[] = [];
      const c = make({ endpoint: undefined, endpoint_provider: (a: unknown) => (calls.push(a), { endpoint: 'http://wf.internal:8080/sfn' }) });
      expect([c.getEndpoint().href, calls]).toEqual(['http://wf.internal:8080/sfn', [{ service: 'states', region: 'us-east-1', scheme: 'https' }]]);
      expect(errorOf(() => make({ endpoint: undefined, endpoint_provider: () => null })).message).toMatch(/^Unable to resolve an endpoint/);
      expect(errorOf(() => make({ scheme: 'ftp' })).message).toMatch(/"scheme"/);
    });

    it('endpoint_discovery: {enabled: false, cache_limit: 1000} by default; true or an array; a wrong type is an error', () => {
      expect(make().getConfig('endpoint_discovery')).toEqual({ enabled: false, cache_limit: 1000 });
      expect(make({ endpoint_discovery: { enabled: true, cache_limit: 5 } }).getConfig('endpoint_discovery')).toEqual({ enabled: true, cache_limit: 5 });
      expect(make({ endpoint_discovery: true }).getConfig('endpoint_discovery')).toEqual({ enabled: true, cache_limit: 1000 });
      expect(errorOf(() => make({ endpoint_discovery: 'on' })).message).toMatch(/"endpoint_discovery"\. Expected array\|bool\|callable/);
    });

    it('disable_host_prefix_injection: StartSyncExecution and TestState go to sync-<host> unless disabled', async () => {
      const hosts: string[] = [];
      const capture = async (r: WireRequest) => (hosts.push(r.hostname), { statusCode: 200, headers: {}, body: '{}' });
      await make({ endpoint: 'http://localhost:9/', http_handler: capture }).startSyncExecution({ stateMachineArn: 'arn:x' });
      await make({ endpoint: 'http://localhost:9/', http_handler: capture, disable_host_prefix_injection: true }).startSyncExecution({ stateMachineArn: 'arn:x' });
      await make({ endpoint: 'http://localhost:9/', http_handler: capture }).startExecution({ stateMachineArn: 'arn:x' });
      await make({ endpoint: 'http://localhost:9/', http_handler: capture }).testState({ definition: '{}' });
      await make({ endpoint: 'http://localhost:9/', http_handler: capture, disable_host_prefix_injection: true }).testState({ definition: '{}' });
      expect(hosts).toEqual(['sync-localhost', 'localhost', 'localhost', 'sync-localhost', 'localhost']);
    });

    it('api_provider: the model comes from it (type, service, version); null is an error', () => {
      const asked: unknown[] = [];
      const provider = (type: 'api' | 'paginator' | 'waiter', service: string, version: string) => {
        asked.push([type, service, version]);
        const data = defaultApiProvider(type, service, version) as { waiters?: { waiters?: Record<string, unknown> } } | null;
        // The model's waiters-2 section: add one of our own.
        if (data?.waiters?.waiters) data.waiters.waiters.Custom = { operation: 'DescribeExecution', delay: 1, maxAttempts: 2, acceptors: [] };
        return data;
      };
      const c = make({ api_provider: provider });
      expect(asked[0]).toEqual(['api', 'states', '2016-11-23']);
      expect(c.getApi().hasWaiter('Custom')).toBe(true);
      expect(errorOf(() => make({ api_provider: () => null })).message).toBe('The states service does not have version: 2016-11-23.');
    });

    it('handler: the terminal handler gets the built, signed request and its answer is the result', async () => {
      const c = make({ handler: async (cmd: Command, req?: WireRequest) => ({ echoed: cmd.name, auth: !!req?.headers.authorization, '@metadata': { headers: {}, transferStats: {} } }) });
      expect(await c.describeExecution({ executionArn: 'a' })).toMatchObject({ echoed: 'DescribeExecution', auth: true });
      expect(seen).toHaveLength(0);
    });

    it('http_handler: sends the request (with the merged @http options), its answer is parsed; it wins over handler', async () => {
      const got: HttpOptions[] = [];
      const c = make({
        http: { timeout: 5, verify: false },
        handler: async () => ({ wrong: true, '@metadata': { headers: {}, transferStats: {} } }),
        http_handler: async (_r: WireRequest, o: HttpOptions) => (got.push(o), { statusCode: 200, headers: { 'x-amzn-requestid': 'r1' }, body: '{"stopDate":1700000000.5}' }),
      });
      const r = await c.stopExecution({ executionArn: 'a', '@http': { timeout: 9 } });
      expect(r.stopDate).toEqual(new Date(1_700_000_000_500));
      expect(r['@metadata']).toMatchObject({ statusCode: 200, headers: { 'x-amzn-requestid': 'r1' } });
      expect(got[0]).toMatchObject({ timeout: 9, verify: false });
      expect(r.wrong).toBeUndefined();
    });

    it('a 2xx answer that is not JSON is a WorkflowServiceException, not a crash', async () => {
      const c = make({ http_handler: async () => ({ statusCode: 200, headers: {}, body: '<html>proxy</html>' }) });
      const err = (await c.describeExecution({ executionArn: 'a' }).catch((e: unknown) => e)) as WorkflowServiceException;
      expect(err).toBeInstanceOf(WorkflowServiceException);
      expect([err.statusCode, err.type]).toEqual([200, 'server']);
      expect(err.message).toContain('could not be parsed');
    });

    it('http: options for every request, e.g. timeout: a server that never answers fails as a connection error', async () => {
      answer = () => 'hang';
      const t0 = Date.now();
      const err = (await make({ http: { timeout: 0.2 }, retries: 0 }).describeExecution({ executionArn: 'a' }).catch((e: unknown) => e)) as WorkflowServiceException;
      expect(err).toBeInstanceOf(WorkflowServiceException);
      expect([err.connectionError, err.code]).toEqual([true, undefined]);
      expect(err.message).toMatch(/^Error executing "DescribeExecution" on "http:\/\/127\.0\.0\.1:\d+\/workflow"; AWS HTTP error: Request timed out/);
      expect(Date.now() - t0).toBeLessThan(5000);
      expect(errorOf(() => make({ http: 'fast' })).message).toMatch(/"http"\. Expected array/);
    });

    it('retries: an int is legacy with that many retries (0 = none); {mode, max_attempts}; a bad mode is an error', async () => {
      answer = () => ({ status: 500, body: { __type: 'InternalFailure', message: 'x' } });
      const tries = async (retries: unknown) => {
        seen.length = 0;
        await make({ retries }).describeExecution({ executionArn: 'a', '@http': { delay: 0 } }).catch(() => undefined);
        return seen.length;
      };
      expect(await tries(0)).toBe(1);
      expect(await tries(2)).toBe(3);
      expect(await tries({ mode: 'standard', max_attempts: 2 })).toBe(2);
      expect(errorOf(() => make({ retries: { mode: 'sometimes' } })).message).toContain("'sometimes' is not a valid mode");
      expect(errorOf(() => make({ retries: 'many' })).message).toMatch(/"retries"\. Expected int\|array\|callable/);
    });

    it('signature_provider and signature_version: the provider is asked (version, service, region); anonymous sends unsigned; none found is an error', async () => {
      const asked: unknown[] = [];
      const c = make({
        signature_provider: (v: string, s: string, r: string) => (asked.push([v, s, r]), { sign: async (req: WireRequest) => ({ ...req, headers: { ...req.headers, 'x-custom-signature': 'yes' } }) }),
      });
      await c.describeExecution({ executionArn: 'a' });
      expect(asked).toEqual([['v4', 'states', 'us-east-1']]);
      expect(seen[0].headers['x-custom-signature']).toBe('yes');
      await make({ signature_version: 'anonymous' }).describeExecution({ executionArn: 'a' });
      expect(seen[1].headers.authorization).toBeUndefined();
      const err = await make({ signature_version: 'v9' }).describeExecution({ executionArn: 'a' }).catch((e: Error) => e);
      expect((err as Error).message).toBe('Unable to resolve a signature for v9/states/us-east-1.');
    });

    it('validate: bad input is refused before sending; false lets it through; an array picks the checks', async () => {
      const bad = await make().describeExecution({}).catch((e: Error) => e);
      expect(bad).toBeInstanceOf(InvalidArgumentError);
      expect(seen).toHaveLength(0);
      await make({ validate: false }).describeExecution({});
      expect(seen).toHaveLength(1);
      const long = 'x'.repeat(300);
      await make({ validate: ['required'] }).startExecution({ stateMachineArn: 'arn:x', name: long });
      expect(seen).toHaveLength(2);
      const maxed = await make({ validate: ['required', 'max'] }).startExecution({ stateMachineArn: 'arn:x', name: long }).catch((e: Error) => e);
      expect((maxed as Error).message).toContain('[name]');
    });

    it('idempotency_auto_fill: RedriveExecution\'s clientToken gets a UUID v4; a bytes source makes it; false leaves it out', async () => {
      await make().redriveExecution({ executionArn: 'a' });
      await make({ idempotency_auto_fill: (n: number) => Buffer.alloc(n, 0xab) }).redriveExecution({ executionArn: 'a' });
      await make({ idempotency_auto_fill: false }).redriveExecution({ executionArn: 'a' });
      await make().redriveExecution({ executionArn: 'a', clientToken: 'mine' });
      expect(seen[0].body.clientToken).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      expect(seen[1].body.clientToken).toBe('abababab-abab-4bab-abab-abababababab');
      expect(seen[2].body.clientToken).toBeUndefined();
      expect(seen[3].body.clientToken).toBe('mine');
      expect(errorOf(() => make({ idempotency_auto_fill: 'yes' })).message).toMatch(/"idempotency_auto_fill"\. Expected bool\|callable/);
    });

    it('account_id_endpoint_mode: preferred warns once without an accountId, required throws, disabled is silent; others are an error', async () => {
      const warn = jest.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
      try {
        const preferred = make({ credentials: NO_ACCOUNT });
        await preferred.describeExecution({ executionArn: 'a' });
        await preferred.describeExecution({ executionArn: 'a' });
        await make({ account_id_endpoint_mode: 'disabled', credentials: NO_ACCOUNT }).describeExecution({ executionArn: 'a' });
        // Credentials with an accountId: no warning.
        await make().describeExecution({ executionArn: 'a' });
        expect(warn.mock.calls.filter((c) => String(c[0]).includes('accountId'))).toEqual([[expect.any(String), 'AccountIdWarning']]);
      } finally {
        warn.mockRestore();
      }
      const required = await make({ account_id_endpoint_mode: 'required', credentials: NO_ACCOUNT }).describeExecution({ executionArn: 'a' }).catch((e: Error) => e);
      expect((required as Error).message).toContain('no accountId');
      await make({ account_id_endpoint_mode: 'required' }).describeExecution({ executionArn: 'a' });
      expect(errorOf(() => make({ account_id_endpoint_mode: 'sometimes' })).message).toBe(
        'The value provided for the config account_id_endpoint_mode option is invalid.Valid values are: disabled, required, preferred',
      );
    });

    it('ua_append: appended to the User-Agent (a string or a list)', async () => {
      await make({ ua_append: 'team/ops' }).describeExecution({ executionArn: 'a' });
      await make({ ua_append: ['a/1', 'b/2'] }).describeExecution({ executionArn: 'a' });
      expect(String(seen[0].headers['user-agent'])).toMatch(/ team\/ops$/);
      expect(String(seen[1].headers['user-agent'])).toMatch(/ a\/1 b\/2$/);
      expect(String(seen[1].headers['x-amz-user-agent'])).toMatch(/^graphql-domain-gateway-workflow-client\/\S+ ua\/2\.1 /);
    });
  });

  describe('methods', () => {
    it('execute and executeAsync run a command and return Promises of its Result', async () => {
      const c = make();
      const p1 = c.execute(c.getCommand('DescribeExecution', { executionArn: 'a1' }));
      const p2 = c.executeAsync(c.getCommand('DescribeExecution', { executionArn: 'a2' }));
      expect([p1 instanceof Promise, p2 instanceof Promise]).toEqual([true, true]);
      const [r1, r2] = await Promise.all([p1, p2]);
      expect([r1.executionArn, r2.executionArn, (r1.startDate as Date).toISOString()]).toEqual(['a1', 'a2', '2023-11-14T22:13:20.250Z']);
    });

    it('getCommand: an unknown operation is an error; a lower-case name works; middleware added to a command stays on it', async () => {
      const c = make();
      expect(errorOf(() => c.getCommand('Nope')).message).toBe('Operation not found: Nope');
      const cmd = c.getCommand('describeExecution', { executionArn: 'a' });
      expect(cmd.getName()).toBe('DescribeExecution');
      cmd.getHandlerList().appendBuild((next) => (command, req) => next(command, req && { ...req, headers: { ...req.headers, 'x-only-this': '1' } }), 'only-this');
      await c.execute(cmd);
      await c.describeExecution({ executionArn: 'a' });
      expect(seen.map((s) => s.headers['x-only-this'])).toEqual(['1', undefined]);
    });

    it('getConfig: the config bag; one option; null for an unknown option and for region (use getRegion)', () => {
      const c = make({ scheme: 'http' });
      expect(c.getConfig()).toMatchObject({ scheme: 'http', signature_version: 'v4', disable_host_prefix_injection: false, account_id_endpoint_mode: 'preferred' });
      expect([c.getConfig('scheme'), c.getConfig('nope'), c.getConfig('region'), c.getRegion()]).toEqual(['http', null, null, 'us-east-1']);
    });

    it('getCredentials: a Promise of the credentials (null when unsigned)', async () => {
      const creds = await make().getCredentials();
      expect([creds?.getAccessKeyId(), creds?.getSecretKey()]).toEqual(['AKIDCLIENTTEST', 'client-test-secret']);
      expect(await make({ credentials: false }).getCredentials()).toBeNull();
    });

    it('getEndpoint, getEndpointProvider, getEndpointProviderArgs, getClientBuiltIns, getClientContextParams', () => {
      const c = make();
      expect(c.getEndpoint()).toBeInstanceOf(URL);
      expect(c.getEndpoint().href).toBe(url);
      expect(c.getEndpointProvider()({ service: 'states', region: 'eu-west-1', scheme: 'https' })).toEqual({ endpoint: 'https://states.eu-west-1.amazonaws.com' });
      expect(c.getClientBuiltIns()).toEqual({ 'SDK::Endpoint': url, 'AWS::Region': 'us-east-1', 'AWS::UseFIPS': false, 'AWS::UseDualStack': false, 'AWS::Auth::AccountIdEndpointMode': 'preferred' });
      expect(c.getEndpointProviderArgs()).toEqual({ Endpoint: url, Region: 'us-east-1', UseFIPS: false, UseDualStack: false, AccountIdEndpointMode: 'preferred' });
      expect(c.getClientContextParams()).toEqual({});
    });

    it('getHandlerList: middleware added to it changes every later command; before/after/remove; setHandler', async () => {
      const c = make();
      const list = c.getHandlerList();
      expect(list).toBeInstanceOf(HandlerList);
      expect(list.names()).toEqual({ init: ['idempotency_auto_fill'], validate: ['validation'], build: ['builder'], sign: ['retry', 'signer'], attempt: [] });
      const order: string[] = [];
      const mark = (name: string) => (next: (c: never, r?: never) => Promise<Result>) => (cmd: never, req?: never) => (order.push(name), next(cmd, req));
      list.appendSign(mark('after-signer') as never, 'after-signer');
      list.before('signer', 'before-signer', mark('before-signer') as never);
      list.after('retry', 'after-retry', mark('after-retry') as never);
      await c.describeExecution({ executionArn: 'a' });
      expect(order).toEqual(['after-retry', 'before-signer', 'after-signer']);
      list.remove('before-signer');
      expect(list.names().sign).toEqual(['retry', 'after-retry', 'signer', 'after-signer']);
      expect(errorOf(() => list.before('nope', 'x', mark('x') as never)).message).toBe('nope not found');
      list.setHandler(async () => ({ fromHandler: true, '@metadata': { headers: {}, transferStats: {} } }));
      expect((await c.describeExecution({ executionArn: 'a' })).fromHandler).toBe(true);
      expect(String(list)).toContain('Step: sign, Name: signer');
    });

    it('getPaginator: pages over nextToken; getIterator: the items across pages', async () => {
      const c = make();
      const pager = c.getPaginator('ListExecutions', { stateMachineArn: 'arn:sm' });
      expect(pager).toBeInstanceOf(ResultPaginator);
      const pages: Result[] = [];
      for await (const p of pager) pages.push(p);
      expect(pages.map((p) => (p.executions as Array<{ name: string }>).map((e) => e.name))).toEqual([['e0', 'e1'], ['e2', 'e3'], ['e4', 'e5']]);
      expect(seen.map((s) => s.body.nextToken)).toEqual([undefined, '1', '2']);
      const names: string[] = [];
      for await (const e of c.getIterator('ListExecutions', { stateMachineArn: 'arn:sm' })) names.push((e as { name: string }).name);
      expect(names).toEqual(['e0', 'e1', 'e2', 'e3', 'e4', 'e5']);
      expect(errorOf(() => c.getPaginator('DescribeExecution')).message).toBe('There is no DescribeExecution paginator defined for the states service.');
    });

    it('getWaiter and waitUntil: success after retries; a failure acceptor rejects with a WaiterError', async () => {
      const c = make();
      let n = 0;
      answer = (s) => (s.target === 'DescribeExecution' ? { status: 200, body: { status: ++n < 3 ? 'RUNNING' : 'SUCCEEDED' } } : { status: 200, body: {} });
      expect(c.getWaiter('ExecutionSucceeded', { executionArn: 'a' })).toBeInstanceOf(Waiter);
      await c.waitUntil('ExecutionSucceeded', { executionArn: 'a', '@waiter': { delay: 0.01, maxAttempts: 5 } });
      expect(n).toBe(3);
      answer = () => ({ status: 200, body: { status: 'ABORTED' } });
      const err = await c.waitUntil('JobSucceeded', { executionArn: 'a', '@waiter': { delay: 0.01 } }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(WaiterError);
      expect((err as Error).message).toBe('The JobSucceeded waiter entered a failure state.');
      expect(errorOf(() => c.getWaiter('Nope')).message).toBe('There is no Nope waiter defined for the states service.');
    });

    it('getApi: the one JSON model (operations, shapes, paginators, waiters)', () => {
      const api = make().getApi();
      expect(api).toBeInstanceOf(Service);
      const model = api.getApi();
      expect(model.metadata).toMatchObject({ apiVersion: '2016-11-23', targetPrefix: 'AWSStepFunctions', jsonVersion: '1.0', signingName: 'states' });
      expect(Object.keys(model.operations)).toEqual(expect.arrayContaining(['StartExecution', 'DescribeExecution', 'ListExecutions', 'StopExecution', 'GetExecutionHistory', 'CreateStateMachine']));
      expect(api.getPaginatorConfig('ListExecutions')).toMatchObject({ input_token: 'nextToken', output_token: 'nextToken', limit_key: 'maxResults', result_key: 'executions' });
      expect(Object.keys(api.getWaiters())).toEqual(expect.arrayContaining(['ExecutionSucceeded', 'JobSucceeded']));
    });

    it('getRegion, getSignatureProvider, getToken', async () => {
      const c = make({ region: 'ap-south-1', token: { token: 'tk' } });
      expect(c.getRegion()).toBe('ap-south-1');
      const signer = c.getSignatureProvider()('v4', 'states', 'ap-south-1');
      expect(typeof signer?.sign).toBe('function');
      expect(c.getSignatureProvider()('v0', 'states', 'ap-south-1')).toBeNull();
      expect((await c.getToken())?.getToken()).toBe('tk');
    });

    it('static getArguments: every option of the spec with its types and documentation', () => {
      const args = WorkflowClient.getArguments();
      const spec = ['region', 'version', 'credentials', 'token', 'profile', 'use_vendor_shared_config_files', 'endpoint', 'scheme', 'endpoint_provider', 'endpoint_discovery', 'disable_host_prefix_injection', 'api_provider', 'handler', 'http_handler', 'http', 'retries', 'signature_provider', 'signature_version', 'validate', 'idempotency_auto_fill', 'account_id_endpoint_mode', 'ua_append', 'app_id', 'csm', 'debug', 'stats'];
      expect(Object.keys(args).sort()).toEqual([...spec].sort());
      for (const k of spec) expect([k, args[k].valid.length > 0, args[k].doc.length > 10]).toEqual([k, true, true]);
      expect([args.region.required, args.version.required, args.scheme.default, args.validate.default]).toEqual([true, true, 'https', true]);
    });

    it('static factory: deprecated, works, warns once', async () => {
      const warn = jest.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
      try {
        const a = WorkflowClient.factory({ region: 'us-east-1', version: 'latest', endpoint: url, credentials: false });
        WorkflowClient.factory({ region: 'us-east-1', version: 'latest', endpoint: url, credentials: false });
        await a.describeExecution({ executionArn: 'a' });
        expect(warn.mock.calls.filter((c) => String(c[0]).includes('factory()') && String(c[1]) === 'DeprecationWarning')).toHaveLength(1);
      } finally {
        warn.mockRestore();
      }
      expect(seen).toHaveLength(1);
    });

    it('every operation of the model is a method, and an …Async one, returning a Promise', async () => {
      const c = make({ http_handler: async () => ({ statusCode: 200, headers: {}, body: '{}' }), validate: false }) as unknown as Record<string, (a?: object) => Promise<Result>>;
      const ops = make().getApi().getOperationNames();
      expect(ops).toHaveLength(37);
      for (const op of ops) {
        const m = op[0].toLowerCase() + op.slice(1);
        expect([m, typeof c[m], typeof c[`${m}Async`]]).toEqual([m, 'function', 'function']);
        expect((await c[m]({}))['@metadata'].statusCode).toBe(200);
      }
      expect((c as unknown as { nope?: unknown }).nope).toBeUndefined();
      expect('startExecution' in c).toBe(true);
    });

    it('serialising a client (JSON, util.inspect) never shows its secret or session token (__sleep)', () => {
      const c = make({ credentials: { key: 'AKIDSER', secret: 'ser-secret-value', token: 'ser-session-token' } });
      // Like PHP's __sleep, a client cannot be cloned across threads (its credentials would go with it).
      expect(() => structuredClone(c)).toThrow();
      for (const text of [JSON.stringify(c), inspect(c, { depth: 10, showHidden: true })]) {
        expect(text).not.toContain('ser-secret-value');
        expect(text).not.toContain('ser-session-token');
      }
      expect(JSON.parse(JSON.stringify(c))).toMatchObject({ service: 'states', region: 'us-east-1', version: '2016-11-23', endpoint: url });
    });

    it('destroy closes the kept-alive connections', async () => {
      const c = make();
      await c.describeExecution({ executionArn: 'a' });
      c.destroy();
      await c.describeExecution({ executionArn: 'a' }); // a new connection is opened as needed
      expect(seen).toHaveLength(2);
    });
  });

  describe('retries through the client against a fault-injecting server', () => {
    const faulty = (endpoint: string, o: Record<string, unknown>) =>
      new WorkflowClient({ region: 'us-east-1', version: 'latest', endpoint, credentials: { key: TEST_KEY.accessKeyId, secret: TEST_KEY.secretAccessKey, accountId: '123456789012' }, ...o } as never, {});

    it('throttling and 5xx are retried with the mode\'s number of attempts; every attempt is signed again and valid', async () => {
      const s = await startFaultServer([throttle(), status(503), status(500)], ok({ executionArn: 'done' }));
      try {
        const r = await faulty(s.url, { retries: { mode: 'standard', max_attempts: 4 } }).describeExecution({ executionArn: 'a' });
        expect(r.executionArn).toBe('done');
        expect(s.requests.map((q) => q.headers['amz-sdk-request'])).toEqual(['attempt=1; max=4', 'attempt=2; max=4', 'attempt=3; max=4', 'attempt=4; max=4']);
        expect(s.requests.every((q) => q.signatureValid)).toBe(true);
        expect(new Set(s.requests.map((q) => q.headers.authorization)).size).toBe(4);
        expect(new Set(s.requests.map((q) => q.headers['amz-sdk-invocation-id'])).size).toBe(1);
      } finally {
        await s.close();
      }
    });

    it('an attempt signed later carries its own X-Amz-Date', async () => {
      const s = await startFaultServer([status(503)], ok({}));
      try {
        let first = true;
        const node = createNodeHttpHandler();
        const slowFirst = async (r: WireRequest, o: HttpOptions) => {
          if (first) {
            first = false;
            await new Promise((res) => setTimeout(res, 1100));
          }
          return node(r, o);
        };
        await faulty(s.url, { retries: 1, http_handler: slowFirst }).describeExecution({ executionArn: 'a' });
        node.destroy();
        expect(s.requests).toHaveLength(2);
        expect(s.requests[0].headers['x-amz-date']).not.toBe(s.requests[1].headers['x-amz-date']);
        expect(s.requests.every((q) => q.signatureValid)).toBe(true);
      } finally {
        await s.close();
      }
    });

    it('legacy and adaptive: attempts per mode; retries: 0 sends once; a 400 ValidationException is not retried', async () => {
      const s = await startFaultServer([], ok({}));
      const count = async (o: Record<string, unknown>, faults: Parameters<typeof s.script>[0]) => {
        s.script(faults, ok({}));
        s.requests.length = 0;
        await faulty(s.url, o).describeExecution({ executionArn: 'a' }).catch(() => undefined);
        return s.requests.length;
      };
      try {
        expect(await count({ retries: 2 }, [status(500), status(502), status(504)])).toBe(3);
        expect(await count({ retries: { mode: 'adaptive', max_attempts: 3 } }, [throttle(), throttle(), throttle()])).toBe(3);
        expect(await count({ retries: 0 }, [status(503)])).toBe(1);
        expect(await count({ retries: { mode: 'standard', max_attempts: 3 } }, [status(400, 'ValidationException')])).toBe(1);
      } finally {
        await s.close();
      }
    });

    it('a dropped connection is retried, and when it keeps dropping the error is a connection error', async () => {
      const s = await startFaultServer([destroy, destroy, destroy], ok({}));
      try {
        const err = (await faulty(s.url, { retries: { mode: 'standard', max_attempts: 2 } }).describeExecution({ executionArn: 'a' }).catch((e: unknown) => e)) as WorkflowServiceException;
        expect(err).toBeInstanceOf(WorkflowServiceException);
        expect(err.connectionError).toBe(true);
        expect(s.requests).toHaveLength(2);
        const r = await faulty(s.url, { retries: { mode: 'standard', max_attempts: 2 } }).describeExecution({ executionArn: 'a' });
        expect(r['@metadata'].statusCode).toBe(200); // one more drop, then the answer
      } finally {
        await s.close();
      }
    });
  });
});
