/**
 * Paginators over a real loopback node:http server speaking Step Functions' JSON 1.0 (X-Amz-Target), through a
 * small test-only client ({getCommand, executeAsync}: JSON POST, errors parsed from `__type`) that A1's
 * WorkflowClient replaces at integration. Pages, tokens on the wire, each(), search(), getIterator semantics,
 * and the stops (no token, empty token, more_results, repeated token).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { inspect } from 'node:util';
import { InvalidArgumentError, WorkflowServiceException } from '../../../packages/workflow-client/src/errors';
import { Service, UnexpectedValueError, defaultApiProvider } from '../../../packages/workflow-client/src/api';
import { ResultPaginator, resultIterator, type OperationClient } from '../../../packages/workflow-client/src/paginator';
import type { CommandLike, Result } from '../../../packages/workflow-client/src/types';
import { search as jmes } from '../../../packages/workflow-client/src/jmespath';

const sfn = Service.fromProvider(defaultApiProvider, 'states', 'latest');

interface Seen {
  target: string;
  contentType: string;
  body: Record<string, unknown>;
}
type Reply = { status?: number; body: unknown };

/** A loopback Step Functions stand-in: each test sets `reply`, every request is recorded in `seen`. */
class Loopback {
  server!: Server;
  url = '';
  seen: Seen[] = [];
  reply: (body: Record<string, unknown>, n: number) => Reply = () => ({ body: {} });

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      let data = '';
      req.on('data', (c) => (data += c));
      req.on('end', () => {
        const body = JSON.parse(data || '{}') as Record<string, unknown>;
        this.seen.push({
          target: String(req.headers['x-amz-target']),
          contentType: String(req.headers['content-type']),
          body,
        });
        const { status = 200, body: out } = this.reply(body, this.seen.length);
        res.writeHead(status, { 'content-type': 'application/x-amz-json-1.0', 'x-amzn-requestid': `req-${this.seen.length}` });
        res.end(JSON.stringify(out));
      });
    });
    await new Promise<void>((r) => this.server.listen(0, '127.0.0.1', r));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/`;
  }
  stop(): Promise<void> {
    return new Promise((r) => this.server.close(() => r()));
  }
}

/** Test-only client: JSON 1.0 POST with X-Amz-Target; honours @http.delay; errors → WorkflowServiceException. */
class TestClient implements OperationClient {
  constructor(
    private readonly url: string,
    private readonly service: Service,
  ) {}

  getCommand(name: string, args: Record<string, unknown> = {}): CommandLike {
    if (!this.service.hasOperation(name)) throw new InvalidArgumentError(`Operation not found: ${name}`);
    return { name, args: { ...args } };
  }

  async executeAsync(command: CommandLike): Promise<Result> {
    const delay = (command.args['@http'] as { delay?: number } | undefined)?.delay ?? 0;
    if (delay > 0) await new Promise((r) => setTimeout(r, delay));
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
      throw new WorkflowServiceException(`Error executing "${command.name}": connection failed`, {
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
        requestId: headers['x-amzn-requestid'],
        response: { statusCode: res.status, headers, body: JSON.stringify(body) },
      });
    }
    return { ...body, '@metadata': { statusCode: res.status, headers, transferStats: {} } } as Result;
  }
}

const execution = (i: number) => ({
  executionArn: `arn:aws:states:us-east-1:1:execution:jobs:run-${i}`,
  stateMachineArn: 'arn:aws:states:us-east-1:1:stateMachine:jobs',
  name: `run-${i}`,
  status: 'SUCCEEDED',
  startDate: 1700000000 + i,
});

/** 7 executions served 3 per page; the token is the next offset. */
function listExecutions(body: Record<string, unknown>): Reply {
  const size = Number(body.maxResults ?? 3);
  const from = body.nextToken ? Number(String(body.nextToken).slice(1)) : 0;
  const items = Array.from({ length: 7 }, (_, i) => execution(i)).slice(from, from + size);
  const next = from + size < 7 ? `t${from + size}` : undefined;
  return { body: { executions: items, ...(next ? { nextToken: next } : {}) } };
}

async function collect<T>(it: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const v of it) out.push(v);
  return out;
}

describe('ResultPaginator against a loopback Step Functions server', () => {
  const server = new Loopback();
  let client: TestClient;

  beforeAll(async () => {
    await server.start();
    client = new TestClient(server.url, sfn);
  });
  afterAll(() => server.stop());
  beforeEach(() => {
    server.seen = [];
  });

  it('yields every page, sending the previous nextToken, until the token is absent', async () => {
    server.reply = listExecutions;
    const args = { stateMachineArn: 'arn:aws:states:us-east-1:1:stateMachine:jobs', maxResults: 3 };
    const pages = await collect(new ResultPaginator(client, 'ListExecutions', args, sfn.getPaginatorConfig('ListExecutions')));
    expect(pages.map((p) => (p.executions as unknown[]).length)).toEqual([3, 3, 1]);
    expect(pages.map((p) => p.nextToken)).toEqual(['t3', 't6', undefined]);
    expect(pages[0]['@metadata'].statusCode).toBe(200);
    expect(server.seen.map((s) => s.body)).toEqual([args, { ...args, nextToken: 't3' }, { ...args, nextToken: 't6' }]);
    expect(new Set(server.seen.map((s) => s.target))).toEqual(new Set(['AWSStepFunctions.ListExecutions']));
    expect(server.seen[0].contentType).toBe('application/x-amz-json-1.0');
  });

  it('search() flattens a JMESPath expression over all pages', async () => {
    server.reply = listExecutions;
    const names = await collect(
      new ResultPaginator(client, 'ListExecutions', {}, sfn.getPaginatorConfig('ListExecutions')).search('executions[].name'),
    );
    expect(names).toEqual(['run-0', 'run-1', 'run-2', 'run-3', 'run-4', 'run-5', 'run-6']);
    // a scalar per page is one item per page; null is skipped
    const tokens = await collect(
      new ResultPaginator(client, 'ListExecutions', {}, sfn.getPaginatorConfig('ListExecutions')).search('nextToken'),
    );
    expect(tokens).toEqual(['t3', 't6']);
  });

  it('each() awaits the callback before the next request and resolves with its last value', async () => {
    server.reply = listExecutions;
    const requestsAtCallback: number[] = [];
    const last = await new ResultPaginator(client, 'ListExecutions', {}, sfn.getPaginatorConfig('ListExecutions')).each(
      async (page) => {
        await new Promise((r) => setTimeout(r, 5));
        requestsAtCallback.push(server.seen.length);
        return (page.executions as unknown[]).length;
      },
    );
    expect(requestsAtCallback).toEqual([1, 2, 3]);
    expect(last).toBe(1);
  });

  it('stops when the service repeats the token it was sent', async () => {
    server.reply = () => ({ body: { stateMachines: [], nextToken: 'same' } });
    const pages = await collect(new ResultPaginator(client, 'ListStateMachines', {}, sfn.getPaginatorConfig('ListStateMachines')));
    expect(pages).toHaveLength(2);
    expect(server.seen.map((s) => s.body)).toEqual([{}, { nextToken: 'same' }]);
  });

  it('stops on an empty token and when more_results is falsy', async () => {
    server.reply = () => ({ body: { stateMachines: [{ name: 'a' }], nextToken: '' } });
    expect(await collect(new ResultPaginator(client, 'ListStateMachines', {}, sfn.getPaginatorConfig('ListStateMachines')))).toHaveLength(1);

    server.seen = [];
    server.reply = (_b, n) => ({ body: { stateMachines: [], nextToken: `n${n}`, truncated: n < 2 } });
    const config = { ...sfn.getPaginatorConfig('ListStateMachines'), more_results: 'truncated' };
    await collect(new ResultPaginator(client, 'ListStateMachines', {}, config));
    expect(server.seen.map((s) => s.body)).toEqual([{}, { nextToken: 'n1' }]);
  });

  it('sends several tokens when the config names several (input and output lists)', async () => {
    server.reply = (b, n) => ({ body: { stateMachines: [], marker: n < 3 ? `m${n}` : undefined, page: n < 3 ? n : undefined } });
    const config = { input_token: ['nextToken', 'maxResults'], output_token: ['marker', 'page'], result_key: 'stateMachines' };
    await collect(new ResultPaginator(client, 'ListStateMachines', { maxResults: 10 }, config));
    expect(server.seen.map((s) => s.body)).toEqual([
      { maxResults: 10 },
      { maxResults: 1, nextToken: 'm1' },
      { maxResults: 2, nextToken: 'm2' },
    ]);
  });

  it('rejects the iteration with the service error of a failing page', async () => {
    server.reply = (b) =>
      b.nextToken ? { status: 400, body: { __type: 'com.amazonaws.sfn#InvalidToken', message: 'expired' } } : listExecutions(b);
    const seenPages: Result[] = [];
    const run = async () => {
      for await (const page of new ResultPaginator(client, 'ListExecutions', {}, sfn.getPaginatorConfig('ListExecutions'))) {
        seenPages.push(page);
      }
    };
    const err = await run().then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(WorkflowServiceException);
    expect((err as WorkflowServiceException).code).toBe('InvalidToken');
    expect((err as WorkflowServiceException).statusCode).toBe(400);
    expect(seenPages).toHaveLength(1);
  });

  it('can be iterated again from the start, and stopped early without further requests', async () => {
    server.reply = listExecutions;
    const paginator = new ResultPaginator(client, 'ListExecutions', {}, sfn.getPaginatorConfig('ListExecutions'));
    for await (const page of paginator) {
      expect(page.nextToken).toBe('t3');
      break;
    }
    expect(server.seen).toHaveLength(1);
    expect(await collect(paginator)).toHaveLength(3);
    expect(server.seen).toHaveLength(4);
  });
});

describe('resultIterator (getIterator)', () => {
  const server = new Loopback();
  let client: TestClient;

  beforeAll(async () => {
    await server.start();
    client = new TestClient(server.url, sfn);
  });
  afterAll(() => server.stop());
  beforeEach(() => {
    server.seen = [];
  });

  it('yields the result-key items across all pages', async () => {
    server.reply = listExecutions;
    const items = await collect(resultIterator(client, 'ListExecutions', { maxResults: 2 }, sfn.getPaginatorConfig('ListExecutions')));
    expect(items.map((e) => (e as { name: string }).name)).toEqual(['run-0', 'run-1', 'run-2', 'run-3', 'run-4', 'run-5', 'run-6']);
    expect(server.seen).toHaveLength(4);
  });

  it('throws UnexpectedValueError when the paginator has no result key', () => {
    const config = { input_token: 'nextToken', output_token: 'nextToken' };
    expect(() => resultIterator(client, 'ListExecutions', {}, config, sfn.getServiceFullName())).toThrow(
      new UnexpectedValueError('There are no resources to iterate for the ListExecutions operation of AWS Step Functions'),
    );
    expect(server.seen).toHaveLength(0);
  });

  it('uses the first result key when there are several', async () => {
    server.reply = listExecutions;
    const config = { ...sfn.getPaginatorConfig('ListExecutions'), result_key: ['executions[].status', 'executions'] };
    const items = await collect(resultIterator(client, 'ListExecutions', {}, config));
    expect(items).toEqual(Array(7).fill('SUCCEEDED'));
  });

  it('makes a single call when the operation has no tokens', async () => {
    server.reply = () => ({ body: { stateMachines: [{ name: 'a' }, { name: 'b' }], nextToken: 'ignored' } });
    const items = await collect(resultIterator(client, 'ListStateMachines', { maxResults: 5 }, { result_key: 'stateMachines' }));
    expect(items).toEqual([{ name: 'a' }, { name: 'b' }]);
    expect(server.seen.map((s) => s.body)).toEqual([{ maxResults: 5 }]);
  });
});

describe('JMESPath on Results', () => {
  it('evaluates on results holding Dates and undefined members, and names a bad expression', () => {
    const page = {
      executions: [{ name: 'a', startDate: new Date(0) }, { name: undefined }],
      nextToken: undefined,
      '@metadata': { statusCode: 200 },
    };
    expect(jmes(page, 'executions[].name')).toEqual(['a']);
    expect(jmes(page, 'executions[0].startDate')).toEqual(new Date(0));
    expect(jmes(page, 'nextToken')).toBeNull();
    expect(jmes(page, '"@metadata".statusCode')).toBe(200);
    expect(jmes(page, 'length(executions)')).toBe(2);
    expect(() => jmes(page, 'executions[')).toThrow(new InvalidArgumentError('Invalid JMESPath expression "executions[": Syntax error: expected Star, got: EOF'));
  });
});

describe('paginator serialisation', () => {
  it('never reaches the client (and the credentials it holds)', () => {
    const client = Object.assign(new TestClient('http://127.0.0.1:1/', sfn), { credentials: { secret: 'wJalrXUtnFEMI' } });
    const p = new ResultPaginator(client, 'ListExecutions', { maxResults: 1 }, sfn.getPaginatorConfig('ListExecutions'));
    expect(JSON.stringify(p)).not.toContain('wJalrXUtnFEMI');
    expect(inspect(p)).not.toContain('wJalrXUtnFEMI');
    expect(JSON.parse(JSON.stringify(p))).toMatchObject({ operation: 'ListExecutions', args: { maxResults: 1 } });
  });
});
