/**
 * Waiters over a real loopback node:http server speaking Step Functions' JSON 1.0, through a small test-only client
 * ({getCommand, executeAsync}; it sleeps `@http.delay` like the real terminal handler) that A1's WorkflowClient
 * replaces at integration. The model's ExecutionSucceeded / JobSucceeded waiters with `@waiter` overrides (small
 * delays), every matcher, the states, attempt counts, delays on the wire, and the error messages.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { inspect } from 'node:util';
import { InvalidArgumentError, WorkflowServiceException } from '../../../packages/workflow-client/src/errors';
import { Service, defaultApiProvider, type WaiterAcceptor } from '../../../packages/workflow-client/src/api';
import { ResultPaginator, type OperationClient } from '../../../packages/workflow-client/src/paginator';
import { Waiter, WaiterError, type WaiterConfig } from '../../../packages/workflow-client/src/waiter';
import type { CommandLike, Result } from '../../../packages/workflow-client/src/types';
import { IdentityFixtures, uniq } from '../../fixtures/identity';
import { startTestApp, type TestApp } from '../../helpers/app';
import { signedCall } from '../../helpers/sigv4';

const sfn = Service.fromProvider(defaultApiProvider, 'states', 'latest');
const ARN = 'arn:aws:states:us-east-1:123456789012:execution:jobs:run-1';

type Reply = { status?: number; body: unknown };

class Loopback {
  server!: Server;
  url = '';
  bodies: Record<string, unknown>[] = [];
  targets: string[] = [];
  times: number[] = [];
  reply: (n: number) => Reply = () => ({ body: {} });

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      let data = '';
      req.on('data', (c) => (data += c));
      req.on('end', () => {
        this.bodies.push(JSON.parse(data || '{}') as Record<string, unknown>);
        this.targets.push(String(req.headers['x-amz-target']));
        this.times.push(performance.now());
        const { status = 200, body } = this.reply(this.bodies.length);
        res.writeHead(status, { 'content-type': 'application/x-amz-json-1.0' });
        res.end(JSON.stringify(body));
      });
    });
    await new Promise<void>((r) => this.server.listen(0, '127.0.0.1', r));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/`;
  }
  reset(): void {
    this.bodies = [];
    this.targets = [];
    this.times = [];
  }
  stop(): Promise<void> {
    return new Promise((r) => this.server.close(() => r()));
  }
}

/** Test-only client: JSON 1.0 POST with X-Amz-Target; sleeps @http.delay; errors → WorkflowServiceException. */
class TestClient implements OperationClient {
  delays: (number | undefined)[] = [];
  constructor(
    private readonly url: string,
    private readonly service: Service,
  ) {}

  getCommand(name: string, args: Record<string, unknown> = {}): CommandLike {
    if (!this.service.hasOperation(name)) throw new InvalidArgumentError(`Operation not found: ${name}`);
    return { name, args: { ...args } };
  }

  async executeAsync(command: CommandLike): Promise<Result> {
    const delay = (command.args['@http'] as { delay?: number } | undefined)?.delay;
    this.delays.push(delay);
    if (delay) await new Promise((r) => setTimeout(r, delay));
    const input = Object.fromEntries(Object.entries(command.args).filter(([k]) => !k.startsWith('@')));
    let res: Response;
    try {
      res = await fetch(this.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/x-amz-json-1.0',
          'x-amz-target': `${this.service.metadata.targetPrefix}.${command.name}`,
        },
        body: JSON.stringify(input),
      });
    } catch (previous) {
      throw new WorkflowServiceException(`Error executing "${command.name}": connection refused`, {
        command,
        connectionError: true,
        previous,
      });
    }
    const headers = Object.fromEntries(res.headers.entries());
    const body = (await res.json()) as Record<string, unknown>;
    if (res.status >= 300) {
      const code = String(body.__type ?? '').split('#').pop()!.split(':')[0];
      throw new WorkflowServiceException(`Error executing "${command.name}"; ${code}: ${String(body.message)}`, {
        command,
        code,
        statusCode: res.status,
        type: res.status < 500 ? 'client' : 'server',
        response: { statusCode: res.status, headers, body: JSON.stringify(body) },
      });
    }
    return { ...body, '@metadata': { statusCode: res.status, headers, transferStats: {} } } as Result;
  }
}

const described = (status: string): Reply => ({
  body: { executionArn: ARN, stateMachineArn: 'arn:sm', status, startDate: 1700000000 },
});
const sfnError = (code: string, message: string, status = 400): Reply => ({
  status,
  body: { __type: `com.amazonaws.sfn#${code}`, message },
});
/** Replies in order; the last one repeats. */
const sequence =
  (...replies: Reply[]) =>
  (n: number): Reply =>
    replies[Math.min(n, replies.length) - 1];

async function rejection(p: Promise<unknown>): Promise<WaiterError> {
  const e = await p.then(
    () => null,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(WaiterError);
  return e as WaiterError;
}

describe('Waiter against a loopback Step Functions server', () => {
  const server = new Loopback();
  let client: TestClient;
  const fast = { delay: 0.01 }; // 10 ms between attempts

  beforeAll(() => server.start());
  afterAll(() => server.stop());
  beforeEach(() => {
    server.reset();
    client = new TestClient(server.url, sfn);
  });

  const waiter = (name: string, args: Record<string, unknown>) =>
    new Waiter(client, name, args, sfn.getWaiterConfig(name));

  it('ExecutionSucceeded polls DescribeExecution until SUCCEEDED, with @http.delay from attempt 2 on', async () => {
    server.reply = sequence(described('RUNNING'), described('RUNNING'), described('SUCCEEDED'));
    await expect(waiter('ExecutionSucceeded', { executionArn: ARN, '@waiter': fast }).promise()).resolves.toBeUndefined();
    expect(server.bodies).toEqual([{ executionArn: ARN }, { executionArn: ARN }, { executionArn: ARN }]);
    expect(new Set(server.targets)).toEqual(new Set(['AWSStepFunctions.DescribeExecution']));
    expect(client.delays).toEqual([undefined, 10, 10]);
    // the handler really waited between attempts
    expect(server.times[1] - server.times[0]).toBeGreaterThanOrEqual(9);
    expect(server.times[2] - server.times[1]).toBeGreaterThanOrEqual(9);
  });

  it('JobSucceeded behaves the same', async () => {
    server.reply = sequence(described('RUNNING'), described('SUCCEEDED'));
    await waiter('JobSucceeded', { executionArn: ARN, '@waiter': fast }).promise();
    expect(server.bodies).toHaveLength(2);
  });

  it('rejects on a failure status with the PHP message and the last result', async () => {
    for (const status of ['FAILED', 'TIMED_OUT', 'ABORTED']) {
      server.reset();
      server.reply = sequence(described('RUNNING'), described(status));
      const e = await rejection(waiter('ExecutionSucceeded', { executionArn: ARN, '@waiter': fast }).promise());
      expect(e.message).toBe('The ExecutionSucceeded waiter entered a failure state.');
      expect(e).toMatchObject({ waiterName: 'ExecutionSucceeded', reason: 'failure', attempts: 2 });
      expect(e.result?.status).toBe(status);
      expect(e.error).toBeUndefined();
      expect(server.bodies).toHaveLength(2);
    }
  });

  it('retries while the execution does not exist yet (error acceptor)', async () => {
    server.reply = sequence(sfnError('ExecutionDoesNotExist', 'not yet'), described('RUNNING'), described('SUCCEEDED'));
    await waiter('ExecutionSucceeded', { executionArn: ARN, '@waiter': fast }).promise();
    expect(server.bodies).toHaveLength(3);
  });

  it('an error no acceptor matches is a failure, with the reason', async () => {
    server.reply = sequence(sfnError('InvalidArn', 'bad arn'));
    const e = await rejection(waiter('ExecutionSucceeded', { executionArn: 'x', '@waiter': fast }).promise());
    expect(e.message).toBe(
      'The ExecutionSucceeded waiter entered a failure state. Reason: Error executing "DescribeExecution"; InvalidArn: bad arn',
    );
    expect(e.error?.code).toBe('InvalidArn');
    expect(e.result).toBeUndefined();
    expect(server.bodies).toHaveLength(1);
  });

  it('serialises a WaiterError without the command or request of the last error', async () => {
    server.reply = sequence(sfnError('InvalidArn', 'bad arn'));
    const e = await rejection(waiter('ExecutionSucceeded', { executionArn: 'x', '@waiter': fast }).promise());
    // a service error carries its command and (with the real client) the signed request
    (e.error as unknown as { request: unknown }).request = { headers: { authorization: 'AWS4-HMAC-SHA256 Signature=deadbeef' } };
    expect(JSON.parse(JSON.stringify(e))).toEqual({
      name: 'WaiterError',
      message: expect.stringContaining('entered a failure state'),
      waiterName: 'ExecutionSucceeded',
      reason: 'failure',
      attempts: 1,
      errorCode: 'InvalidArn',
      statusCode: 400,
    });
    expect(Object.keys(e)).not.toContain('error');
    expect(inspect(e)).not.toContain('deadbeef');
  });

  it('gives up after maxAttempts', async () => {
    server.reply = sequence(described('RUNNING'));
    const e = await rejection(
      waiter('ExecutionSucceeded', { executionArn: ARN, '@waiter': { delay: 0.001, maxAttempts: 4 } }).promise(),
    );
    expect(e.message).toBe('The ExecutionSucceeded waiter failed after attempt #4.');
    expect(e).toMatchObject({ reason: 'maxAttempts', attempts: 4 });
    expect(e.result?.status).toBe('RUNNING');
    expect(server.bodies).toHaveLength(4);
  });

  it('takes delay as a function of the attempt, initDelay before the first, and calls before(command, attempt)', async () => {
    server.reply = sequence(described('RUNNING'), described('RUNNING'), described('SUCCEEDED'));
    const before: [string, number][] = [];
    await waiter('ExecutionSucceeded', {
      executionArn: ARN,
      '@http': { timeout: 5 },
      '@waiter': {
        initDelay: 0.002,
        delay: (attempt: number) => attempt / 1000,
        before: (command: CommandLike, attempt: number) => {
          before.push([command.name, attempt]);
          command.args.includedData = attempt === 3 ? 'METADATA_ONLY' : 'ALL_DATA';
        },
      },
    }).promise();
    expect(client.delays).toEqual([2, 2, 3]);
    expect(before).toEqual([
      ['DescribeExecution', 1],
      ['DescribeExecution', 2],
      ['DescribeExecution', 3],
    ]);
    expect(server.bodies.map((b) => b.includedData)).toEqual(['ALL_DATA', 'ALL_DATA', 'METADATA_ONLY']);
  });

  it('uses the model delay (5 s, in ms) when not overridden', async () => {
    server.reply = sequence(described('RUNNING'), described('SUCCEEDED'));
    const seen: unknown[] = [];
    const spy: OperationClient = {
      getCommand: (n, a) => client.getCommand(n, a),
      executeAsync: (c) => {
        seen.push((c.args['@http'] as { delay?: number } | undefined)?.delay);
        // skip the 5 s sleep, send at once
        return client.executeAsync({ name: c.name, args: { ...c.args, '@http': {} } });
      },
    };
    await new Waiter(spy, 'ExecutionSucceeded', { executionArn: ARN }, sfn.getWaiterConfig('ExecutionSucceeded')).promise();
    expect(seen).toEqual([undefined, 5000]);
  });
});

describe('Waiter matchers and configuration', () => {
  const server = new Loopback();
  let client: TestClient;

  beforeAll(() => server.start());
  afterAll(() => server.stop());
  beforeEach(() => {
    server.reset();
    client = new TestClient(server.url, sfn);
  });

  const config = (acceptors: WaiterAcceptor[], over: Partial<WaiterConfig> = {}): Partial<WaiterConfig> => ({
    operation: 'ListExecutions',
    delay: 0.001,
    maxAttempts: 3,
    acceptors,
    ...over,
  });
  const list = (...statuses: string[]): Reply => ({
    body: { executions: statuses.map((status, i) => ({ name: `r${i}`, status })) },
  });

  it('pathAll needs every element (and at least one) to match', async () => {
    const acceptors: WaiterAcceptor[] = [
      { state: 'success', matcher: 'pathAll', argument: 'executions[].status', expected: 'SUCCEEDED' },
    ];
    server.reply = sequence(list(), list('SUCCEEDED', 'RUNNING'), list('SUCCEEDED', 'SUCCEEDED'));
    await new Waiter(client, 'AllDone', {}, config(acceptors)).promise();
    expect(server.bodies).toHaveLength(3);
  });

  it('pathAny matches when one element does; a failed spelling of failure is a failure', async () => {
    const acceptors: WaiterAcceptor[] = [
      { state: 'failed', matcher: 'pathAny', argument: 'executions[].status', expected: 'FAILED' },
      { state: 'success', matcher: 'path', argument: 'length(executions)', expected: 2 },
    ];
    server.reply = sequence(list('RUNNING'), list('RUNNING', 'FAILED'));
    const e = await rejection(new Waiter(client, 'AnyFailed', {}, config(acceptors)).promise());
    expect(e.message).toBe('The AnyFailed waiter entered a failure state.');
    expect(server.bodies).toHaveLength(2);
  });

  it('status matches the HTTP status of a result or of an error response', async () => {
    server.reply = sequence(sfnError('ResourceNotFound', 'gone', 404));
    await new Waiter(client, 'Gone', {}, config([{ state: 'success', matcher: 'status', expected: 404 }])).promise();
    server.reset();
    server.reply = sequence(list('RUNNING'));
    await new Waiter(client, 'Ok', {}, config([{ state: 'success', matcher: 'status', expected: 200 }])).promise();
    expect(server.bodies).toHaveLength(1);
  });

  it('error: true matches any service error, false matches no error', async () => {
    server.reply = sequence(list(), sfnError('ValidationException', 'nope'));
    await new Waiter(client, 'Errs', {}, config([{ state: 'success', matcher: 'error', expected: true }])).promise();
    expect(server.bodies).toHaveLength(2);

    server.reset();
    server.reply = sequence(sfnError('ExecutionDoesNotExist', 'x'), list());
    await new Waiter(
      client,
      'Exists',
      {},
      config([
        { state: 'success', matcher: 'error', expected: false },
        { state: 'retry', matcher: 'error', expected: 'ExecutionDoesNotExist' },
      ]),
    ).promise();
    expect(server.bodies).toHaveLength(2);
  });

  it('like PHP, a connection error matches an error-code acceptor', async () => {
    const closed = new Loopback();
    await closed.start();
    await closed.stop();
    const offline = new TestClient(closed.url, sfn);
    const e = await rejection(
      new Waiter(offline, 'ExecutionSucceeded', { executionArn: ARN }, {
        ...sfn.getWaiterConfig('ExecutionSucceeded'),
        delay: 0.001,
        maxAttempts: 2,
      }).promise(),
    );
    expect(e.message).toBe('The ExecutionSucceeded waiter failed after attempt #2.');
    expect(e.error?.isConnectionError()).toBe(true);
  });

  it('passes errors that are not service errors through unchanged', async () => {
    const broken: OperationClient = {
      getCommand: (n, a) => client.getCommand(n, a),
      executeAsync: async () => {
        throw new TypeError('parser bug');
      },
    };
    await expect(new Waiter(broken, 'W', {}, config([])).promise()).rejects.toThrow(new TypeError('parser bug'));
  });

  it('rejects incomplete configurations and bad callbacks', () => {
    expect(() => new Waiter(client, 'W', {}, { operation: 'ListExecutions', delay: 1, acceptors: [] })).toThrow(
      new InvalidArgumentError('The provided waiter configuration was incomplete.'),
    );
    expect(() => new Waiter(client, 'W', { '@waiter': { before: 'nope' } }, config([]))).toThrow(
      new InvalidArgumentError('The provided "before" callback is not callable.'),
    );
    expect(() => new Waiter(client, 'W', {}, config([{ state: 'done' as never, matcher: 'path', expected: 1 }]))).toThrow(
      'Unknown waiter state: done',
    );
    expect(() => new Waiter(client, 'W', {}, config([{ state: 'success', matcher: 'jsonPath' as never, expected: 1 }]))).toThrow(
      'Unknown waiter matcher: jsonPath',
    );
    // serialising a waiter never reaches its client
    const secretClient = Object.assign(new TestClient(server.url, sfn), { credentials: { secret: 'wJalrXUtnFEMI' } });
    const sw = new Waiter(secretClient, 'W', {}, config([]));
    expect(JSON.stringify(sw)).not.toContain('wJalrXUtnFEMI');
    expect(inspect(sw)).not.toContain('wJalrXUtnFEMI');
    // @waiter overrides win over the model config and are not sent
    const w = new Waiter(client, 'W', { '@waiter': { maxAttempts: 9 } }, config([]));
    expect(w.getConfig().maxAttempts).toBe(9);
  });

  it('does not send @waiter to the service', async () => {
    server.reply = sequence(list('SUCCEEDED'));
    const seen: Record<string, unknown>[] = [];
    const spy: OperationClient = {
      getCommand: (n, a) => {
        seen.push({ ...a });
        return client.getCommand(n, a);
      },
      executeAsync: (c) => client.executeAsync(c),
    };
    await new Waiter(spy, 'W', { maxResults: 1, '@waiter': { maxAttempts: 1 } }, config([{ state: 'success', matcher: 'status', expected: 200 }])).promise();
    expect(seen).toEqual([{ maxResults: 1 }]);
    expect(server.bodies).toEqual([{ maxResults: 1 }]);
  });
});

/**
 * The same waiters and paginators against the real gateway (POST /workflow, SigV4-signed with a user's access key,
 * the embedded runner executing the jobs), through a signed variant of the test-only client.
 */
describe('waiters and paginators against the running gateway', () => {
  let t: TestApp;
  let client: OperationClient;
  let calls: string[];
  const ROLE = 'arn:aws:iam::000000000000:role/workflow-runner';

  beforeAll(async () => {
    t = await startTestApp({});
    const fx = new IdentityFixtures(t.db.dataSource);
    const user = await fx.user(uniq('waiter'));
    const k = await fx.services.identity.createAccessKey(t.db.dataSource.manager, { user: user.login });
    const key = { accessKeyId: k.accessKeyId, secretAccessKey: k.secretAccessKey };
    client = {
      getCommand: (name, args = {}) => {
        if (!sfn.hasOperation(name)) throw new InvalidArgumentError(`Operation not found: ${name}`);
        return { name, args: { ...args } };
      },
      executeAsync: async (command) => {
        const delay = (command.args['@http'] as { delay?: number } | undefined)?.delay;
        if (delay) await new Promise((r) => setTimeout(r, delay));
        calls.push(command.name);
        const input = Object.fromEntries(Object.entries(command.args).filter(([k2]) => !k2.startsWith('@')));
        const res = await signedCall(t.url, { key, target: `AWSStepFunctions.${command.name}`, body: JSON.stringify(input) });
        const body = res.body as Record<string, unknown>;
        if (res.status >= 300) {
          const code = String(body.__type ?? '').split('#').pop()!.split(':')[0];
          throw new WorkflowServiceException(`${code}: ${String(body.message)}`, { command, code, statusCode: res.status });
        }
        return { ...body, '@metadata': { statusCode: res.status, headers: {}, transferStats: {} } } as Result;
      },
    };
  });
  afterAll(async () => {
    await t?.close();
  });
  beforeEach(() => {
    calls = [];
  });

  const call = (name: string, args: Record<string, unknown>) => client.executeAsync(client.getCommand(name, args));
  const define = async (definition: object) =>
    (await call('CreateStateMachine', { name: uniq('w'), roleArn: ROLE, definition: JSON.stringify(definition) }))
      .stateMachineArn as string;
  const start = async (stateMachineArn: string) =>
    (await call('StartExecution', { stateMachineArn, input: '{}' })).executionArn as string;
  const fast = { delay: 0.02, maxAttempts: 500 };

  it('ExecutionSucceeded resolves when a job succeeds', async () => {
    const arn = await start(await define({ StartAt: 'A', States: { A: { Type: 'Pass', Result: 1, End: true } } }));
    await new Waiter(client, 'ExecutionSucceeded', { executionArn: arn, '@waiter': fast }, sfn.getWaiterConfig('ExecutionSucceeded')).promise();
    expect((await call('DescribeExecution', { executionArn: arn })).status).toBe('SUCCEEDED');
  });

  it('JobSucceeded rejects with the failure message when a job fails', async () => {
    const arn = await start(await define({ StartAt: 'F', States: { F: { Type: 'Fail', Error: 'Boom', Cause: 'why' } } }));
    const e = await rejection(
      new Waiter(client, 'JobSucceeded', { executionArn: arn, '@waiter': fast }, sfn.getWaiterConfig('JobSucceeded')).promise(),
    );
    expect(e.message).toBe('The JobSucceeded waiter entered a failure state.');
    expect(e.result).toMatchObject({ status: 'FAILED', error: 'Boom', cause: 'why' });
  });

  it('ExecutionStopped resolves after StopExecution; an unknown execution is a failure with the reason', async () => {
    const arn = await start(await define({ StartAt: 'W', States: { W: { Type: 'Wait', Seconds: 600, End: true } } }));
    await call('StopExecution', { executionArn: arn, error: 'Enough' });
    await new Waiter(client, 'ExecutionStopped', { executionArn: arn, '@waiter': fast }, sfn.getWaiterConfig('ExecutionStopped')).promise();
    const missing = arn.replace(/:[^:]+$/, ':no-such-run');
    const e = await rejection(
      new Waiter(client, 'ExecutionStopped', { executionArn: missing, '@waiter': fast }, sfn.getWaiterConfig('ExecutionStopped')).promise(),
    );
    expect(e.message).toMatch(/^The ExecutionStopped waiter entered a failure state\. Reason: ExecutionDoesNotExist: /);
  });

  it('ListExecutions pages through every job of a state machine', async () => {
    const sm = await define({ StartAt: 'A', States: { A: { Type: 'Pass', End: true } } });
    const started = new Set<string>();
    for (let i = 0; i < 7; i++) started.add(await start(sm));
    calls = [];
    const arns: string[] = [];
    for await (const arn of new ResultPaginator(client, 'ListExecutions', { stateMachineArn: sm, maxResults: 3 }, sfn.getPaginatorConfig('ListExecutions')).search('executions[].executionArn')) {
      arns.push(arn as string);
    }
    expect(new Set(arns)).toEqual(started);
    expect(arns).toHaveLength(7);
    expect(calls).toEqual(['ListExecutions', 'ListExecutions', 'ListExecutions']);
  });
});
