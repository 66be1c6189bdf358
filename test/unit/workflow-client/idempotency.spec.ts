/**
 * idempotency_auto_fill: the first idempotency-token member gets a UUID v4 when falsy. Step Functions' only such
 * member is RedriveExecution's clientToken; a small test-only model (two trait members, one operation without)
 * covers "first member only" and "no member". The filled token is shown on the wire: the middleware's next
 * handler POSTs the command to a loopback node:http server.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { InvalidArgumentError } from '../../../packages/workflow-client/src/errors';
import { Service, defaultApiProvider, type ApiModel } from '../../../packages/workflow-client/src/api';
import {
  idempotencyMiddleware,
  idempotencyTokenMember,
  uuidV4FromBytes,
} from '../../../packages/workflow-client/src/idempotency';
import type { CommandLike, Handler, Result } from '../../../packages/workflow-client/src/types';

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const sfn = Service.fromProvider(defaultApiProvider, 'states', 'latest');
const counting = () => Uint8Array.from({ length: 16 }, (_, i) => i);

const testModel: ApiModel = {
  metadata: {
    apiVersion: '2020-01-01',
    endpointPrefix: 'idem',
    jsonVersion: '1.0',
    protocol: 'json',
    serviceFullName: 'Idempotency test',
    serviceId: 'Idem',
    signatureVersion: 'v4',
    signingName: 'idem',
    targetPrefix: 'Idem',
  },
  operations: {
    Create: { name: 'Create', http: { method: 'POST', requestUri: '/' }, input: { shape: 'CreateInput' }, errors: [] },
    Read: { name: 'Read', http: { method: 'POST', requestUri: '/' }, input: { shape: 'ReadInput' }, errors: [] },
  },
  shapes: {
    CreateInput: {
      type: 'structure',
      members: {
        name: { shape: 'S' },
        requestToken: { shape: 'S', idempotencyToken: true },
        otherToken: { shape: 'S', idempotencyToken: true },
      },
    },
    ReadInput: { type: 'structure', members: { name: { shape: 'S' } } },
    S: { type: 'string' },
  },
};
const testService = new Service(testModel);

/** Terminal handler: sends the command's input as JSON to the loopback server, returns the echoed body. */
function loopbackHandler(url: string): Handler {
  return async (command: CommandLike): Promise<Result> => {
    const body = Object.fromEntries(Object.entries(command.args).filter(([k]) => !k.startsWith('@')));
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-amz-json-1.0', 'x-amz-target': `Idem.${command.name}` },
      body: JSON.stringify(body),
    });
    return { ...((await res.json()) as Record<string, unknown>), '@metadata': { statusCode: res.status, headers: {}, transferStats: {} } } as Result;
  };
}

describe('idempotency auto-fill', () => {
  let server: Server;
  let url: string;
  const received: Record<string, unknown>[] = [];

  beforeAll(async () => {
    server = createServer((req: IncomingMessage, res) => {
      let data = '';
      req.on('data', (c) => (data += c));
      req.on('end', () => {
        const body = JSON.parse(data) as Record<string, unknown>;
        received.push(body);
        res.writeHead(200, { 'content-type': 'application/x-amz-json-1.0' });
        res.end(JSON.stringify({ echoed: body }));
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));
  beforeEach(() => (received.length = 0));

  it('makes an RFC 4122 v4 UUID from the 16 bytes (version and variant bits set)', () => {
    expect(uuidV4FromBytes(counting())).toBe('00010203-0405-4607-8809-0a0b0c0d0e0f');
    expect(uuidV4FromBytes(new Uint8Array(16).fill(0xff))).toBe('ffffffff-ffff-4fff-bfff-ffffffffffff');
    expect(uuidV4FromBytes('\x00\x01\x02\x03\x04\x05\x06\x07\x08\x09\x0a\x0b\x0c\x0d\x0e\x0f')).toBe(
      '00010203-0405-4607-8809-0a0b0c0d0e0f',
    );
    expect(() => uuidV4FromBytes(new Uint8Array(8))).toThrow(
      new InvalidArgumentError('A UUID v4 needs 16 random bytes; the bytes source gave 8.'),
    );
  });

  it('finds RedriveExecution.clientToken as the Step Functions idempotency member', () => {
    expect(idempotencyTokenMember(sfn, 'RedriveExecution')).toBe('clientToken');
    expect(idempotencyTokenMember(sfn, 'StartExecution')).toBeUndefined();
    const withTrait = sfn.getOperationNames().filter((op) => idempotencyTokenMember(sfn, op));
    expect(withTrait).toEqual(['RedriveExecution']);
  });

  it('fills a missing token from the bytes source and sends it', async () => {
    const asked: number[] = [];
    const handler = idempotencyMiddleware(sfn, (n) => {
      asked.push(n);
      return counting();
    })(loopbackHandler(url));
    const command = { name: 'RedriveExecution', args: { executionArn: 'arn:x' } as Record<string, unknown> };
    await handler(command);
    expect(asked).toEqual([16]);
    expect(received).toEqual([{ executionArn: 'arn:x', clientToken: '00010203-0405-4607-8809-0a0b0c0d0e0f' }]);
    expect(command.args.clientToken).toBe('00010203-0405-4607-8809-0a0b0c0d0e0f');
  });

  it('uses crypto random bytes by default: a fresh v4 UUID per command', async () => {
    const handler = idempotencyMiddleware(sfn)(loopbackHandler(url));
    await handler({ name: 'RedriveExecution', args: { executionArn: 'arn:x' } });
    await handler({ name: 'RedriveExecution', args: { executionArn: 'arn:x', clientToken: '' } });
    const tokens = received.map((b) => b.clientToken as string);
    expect(tokens).toHaveLength(2);
    for (const t of tokens) expect(t).toMatch(UUID_V4);
    expect(tokens[0]).not.toBe(tokens[1]);
  });

  it('keeps a token the caller gave', async () => {
    const source = jest.fn(counting);
    const handler = idempotencyMiddleware(sfn, source)(loopbackHandler(url));
    await handler({ name: 'RedriveExecution', args: { executionArn: 'arn:x', clientToken: 'mine' } });
    expect(received[0].clientToken).toBe('mine');
    expect(source).not.toHaveBeenCalled();
  });

  it('fills only the first trait member, and leaves operations without one alone', async () => {
    const source = jest.fn(counting);
    const handler = idempotencyMiddleware(testService, source)(loopbackHandler(url));
    await handler({ name: 'Create', args: { name: 'a' } });
    await handler({ name: 'Read', args: { name: 'b' } });
    await handler({ name: 'NotModelled', args: { name: 'c' } });
    expect(received).toEqual([
      { name: 'a', requestToken: '00010203-0405-4607-8809-0a0b0c0d0e0f' },
      { name: 'b' },
      { name: 'c' },
    ]);
    expect(source).toHaveBeenCalledTimes(1);
  });

  it('rejects a bytes source that is not a function or gives too few bytes', async () => {
    expect(() => idempotencyMiddleware(sfn, 'random' as never)).toThrow(InvalidArgumentError);
    const handler = idempotencyMiddleware(sfn, () => new Uint8Array(4))(loopbackHandler(url));
    await expect(handler({ name: 'RedriveExecution', args: { executionArn: 'arn:x' } })).rejects.toThrow(
      'A UUID v4 needs 16 random bytes; the bytes source gave 4.',
    );
    expect(received).toEqual([]);
  });
});
