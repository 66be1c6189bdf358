/**
 * The retry middleware in each mode against a real fault-injecting loopback server (test/helpers/
 * workflow-client-faults.ts): attempts per mode, exact and bounded backoff (injected randomness; delays honoured
 * through `@http.delay` on a virtual clock, so nothing really sleeps), what is not retried, `retries: 0`,
 * `@retries`, the standard quota running dry and refilling, headers, re-signing, and the stats figures.
 */
import { DescribeExecutionCommand, SFNClient } from '@aws-sdk/client-sfn';
import { ConfiguredRetryStrategy } from '@smithy/core/retry';
import { WorkflowServiceException } from '../../../packages/workflow-client/src/errors';
import { QUOTA_2026, resolveRetries, retryMiddleware, RetryMiddlewareOptions, RetryQuota } from '../../../packages/workflow-client/src/retry';
import type { ResolvedRetryConfig } from '../../../packages/workflow-client/src/retry';
import {
  attemptsSeen,
  destroy,
  FaultServer,
  faultPipeline,
  ok,
  rejection,
  startFaultServer,
  status,
  TEST_KEY,
  throttle,
  VirtualClock,
} from '../../helpers/workflow-client-faults';

const ctx = { env: {}, homeDir: '/nonexistent', useSharedConfigFiles: false };
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
/** Just below 1: the top of every jitter range. */
const TOP = () => 1 - 1e-9;

let server: FaultServer;
beforeEach(async () => {
  server = await startFaultServer();
});
afterEach(async () => {
  await server.close();
});

function setup(config: ResolvedRetryConfig, opts: Partial<RetryMiddlewareOptions> = {}) {
  const clock = new VirtualClock();
  const mw = retryMiddleware(config, { stats: false, random: () => 0.5, clock: clock.now, sleep: clock.sleep, ...opts });
  const pipeline = faultPipeline({ server, retry: mw, sleep: clock.sleep, clock: clock.now });
  return { mw, pipeline, clock };
}

const delaysOf = (p: { sent: { delay: number }[] }) => p.sent.map((s) => s.delay);

describe('legacy mode (PHP RetryMiddleware)', () => {
  it('retries 503, 500, a throttling error and a destroyed socket, then succeeds: 4 retries, 5 attempts', async () => {
    server.script([status(503), status(500), throttle(), destroy], ok({ executionArn: 'arn:x' }));
    const { pipeline } = setup(resolveRetries(4, ctx));
    const result = await pipeline.execute('StartExecution', { stateMachineArn: 'arn:sm' });
    expect(result.executionArn).toBe('arn:x');
    expect(server.requests).toHaveLength(5);
    // mt_rand(0, min(20000, 2^k·100)) with rand = 0.5 → floor(0.5·(cap+1)).
    expect(delaysOf(pipeline)).toEqual([0, 50, 100, 200, 400]);
    expect(server.requests.map((r) => r.headers['aws-sdk-retry'])).toEqual(['0/0', '1/50', '2/100', '3/200', '4/400']);
    expect(attemptsSeen(server)).toEqual([1, 2, 3, 4, 5].map((n) => `attempt=${n}; max=5`));
  });

  it('gives up after n retries and rejects with the last error', async () => {
    server.script([], status(503, 'ServiceUnavailable'));
    const { pipeline } = setup(resolveRetries(2, ctx));
    const err = await rejection(pipeline.execute('DescribeExecution', { executionArn: 'arn:e' }));
    expect(err).toBeInstanceOf(WorkflowServiceException);
    expect(err.statusCode).toBe(503);
    expect(err.code).toBe('ServiceUnavailable');
    expect(server.requests).toHaveLength(3);
  });

  it('backoff is bounded: the top of each range is 100·2^k ms, capped at 20 s', async () => {
    server.script([], status(500));
    const { pipeline } = setup(resolveRetries(11, ctx), { random: TOP });
    await rejection(pipeline.execute('DescribeExecution'));
    expect(server.requests).toHaveLength(12);
    expect(delaysOf(pipeline)).toEqual([0, 100, 200, 400, 800, 1600, 3200, 6400, 12800, 20000, 20000, 20000]);
  });

  it('random 0 means no wait at all', async () => {
    server.script([status(502), status(504)], ok());
    const { pipeline } = setup(resolveRetries(3, ctx), { random: () => 0 });
    await pipeline.execute('DescribeExecution');
    expect(delaysOf(pipeline)).toEqual([0, 0, 0]);
  });

  it('does not retry a 4xx that is not on its throttling list (ValidationException, 429 TooManyRequestsException)', async () => {
    server.script([status(400, 'ValidationException')]);
    const { pipeline } = setup(resolveRetries(3, ctx));
    const err = await rejection(pipeline.execute('StartExecution'));
    expect(err.code).toBe('ValidationException');
    expect(err.type).toBe('client');
    expect(server.requests).toHaveLength(1);

    // Legacy's list is PHP's eight codes: no 429, no TooManyRequestsException (standard mode retries both).
    server.script([status(429, 'TooManyRequestsException')]);
    await rejection(pipeline.execute('StartExecution'));
    expect(server.requests).toHaveLength(2);
  });

  it('retries: 0 does not retry', async () => {
    server.script([status(503), ok()]);
    const { pipeline } = setup(resolveRetries(0, ctx));
    const err = await rejection(pipeline.execute('DescribeExecution'));
    expect(err.statusCode).toBe(503);
    expect(server.requests).toHaveLength(1);
    expect(attemptsSeen(server)).toEqual(['attempt=1; max=1']);
  });

  it("a command's @retries overrides the client's number of retries", async () => {
    server.script([], status(503));
    const { pipeline } = setup(resolveRetries(5, ctx));
    await rejection(pipeline.execute('DescribeExecution', {}, { '@retries': 1 }));
    expect(server.requests).toHaveLength(2);
    expect(attemptsSeen(server)).toEqual(['attempt=1; max=2', 'attempt=2; max=2']);
    await rejection(pipeline.execute('DescribeExecution', {}, { '@retries': 0 }));
    expect(server.requests).toHaveLength(3);
    await expect(pipeline.execute('DescribeExecution', {}, { '@retries': -2 })).rejects.toThrow('"@retries" argument must be an integer >= 0');
    expect(server.requests).toHaveLength(3);
  });
});

describe('standard mode (JS StandardRetryStrategy, pre-2026 numbers)', () => {
  it('retries throttling and 5xx up to max_attempts (3): base 500 ms after a throttle, 100 ms otherwise', async () => {
    server.script([throttle(), status(503)], ok({ ok: 1 }));
    const { pipeline } = setup(resolveRetries({ mode: 'standard' }, ctx));
    const result = await pipeline.execute('DescribeExecution');
    expect(result.ok).toBe(1);
    expect(server.requests).toHaveLength(3);
    // floor(0.5 · min(500 · 2^0, 20000)) = 250, then floor(0.5 · min(100 · 2^1, 20000)) = 100.
    expect(delaysOf(pipeline)).toEqual([0, 250, 100]);
    expect(attemptsSeen(server)).toEqual(['attempt=1; max=3', 'attempt=2; max=3', 'attempt=3; max=3']);
    // No legacy header outside legacy mode.
    expect(server.requests.every((r) => r.headers['aws-sdk-retry'] === undefined)).toBe(true);
  });

  it('stops at max_attempts and rejects with the last error', async () => {
    server.script([], throttle());
    const { pipeline } = setup(resolveRetries({ mode: 'standard', max_attempts: 4 }, ctx));
    const err = await rejection(pipeline.execute('DescribeExecution'));
    expect(err.code).toBe('ThrottlingException');
    expect(server.requests).toHaveLength(4);
  });

  it('backoff is bounded: b · min(x · 2^i, 20 s), x = 500 ms for throttling and 100 ms for transient errors', async () => {
    server.script([], throttle());
    const a = setup(resolveRetries({ mode: 'standard', max_attempts: 9 }, ctx), { random: TOP });
    await rejection(a.pipeline.execute('DescribeExecution'));
    expect(delaysOf(a.pipeline)).toEqual([0, 499, 999, 1999, 3999, 7999, 15999, 19999, 19999]);

    server.script([], status(500));
    const b = setup(resolveRetries({ mode: 'standard', max_attempts: 11 }, ctx), { random: TOP });
    await rejection(b.pipeline.execute('DescribeExecution'));
    expect(delaysOf(b.pipeline)).toEqual([0, 99, 199, 399, 799, 1599, 3199, 6399, 12799, 19999, 19999]);
  });

  it('retries 429 and connection errors; not 400 ValidationException nor 501 (a non-transient 5xx)', async () => {
    server.script([status(429, 'TooManyRequestsException'), destroy], ok());
    const { pipeline } = setup(resolveRetries({ mode: 'standard' }, ctx));
    await pipeline.execute('DescribeExecution');
    expect(server.requests).toHaveLength(3);
    // 429 is THROTTLING (base 500), the connection error TRANSIENT (base 100).
    expect(delaysOf(pipeline)).toEqual([0, 250, 100]);

    server.script([status(400, 'ValidationException')]);
    expect((await rejection(pipeline.execute('StartExecution'))).code).toBe('ValidationException');
    expect(server.requests).toHaveLength(4);

    server.script([status(501, 'NotImplemented')]);
    expect((await rejection(pipeline.execute('StartExecution'))).statusCode).toBe(501);
    expect(server.requests).toHaveLength(5);
  });

  it('max_attempts 1 does not retry', async () => {
    server.script([throttle(), ok()]);
    const { pipeline } = setup(resolveRetries({ mode: 'standard', max_attempts: 1 }, ctx));
    await rejection(pipeline.execute('DescribeExecution'));
    expect(server.requests).toHaveLength(1);
  });

  it('the retry quota runs dry after enough failures, then stops retrying, and refills on success', async () => {
    server.script([], status(503));
    const { pipeline, mw } = setup(resolveRetries({ mode: 'standard' }, ctx));
    // 500 tokens; a transient retry costs 10: 25 operations × 2 retries drain the bucket.
    for (let i = 0; i < 25; i++) await rejection(pipeline.execute('DescribeExecution'));
    expect(server.requests).toHaveLength(75);
    expect(mw.quota!.availableCapacity).toBe(0);

    // Dry: the next failure is not retried.
    let before = server.requests.length;
    await rejection(pipeline.execute('DescribeExecution'));
    expect(server.requests.length - before).toBe(1);

    // Successes without a retry add 1 each: 10 of them pay for one transient retry (cost 10).
    server.script([], ok());
    for (let i = 0; i < 10; i++) await pipeline.execute('DescribeExecution');
    expect(mw.quota!.availableCapacity).toBe(10);

    server.script([status(503)], ok());
    before = server.requests.length;
    await pipeline.execute('DescribeExecution');
    expect(server.requests.length - before).toBe(2);
    // The success refunded the retry's cost.
    expect(mw.quota!.availableCapacity).toBe(10);

    // 10 tokens: one retry, then dry again.
    server.script([status(503), status(503)], ok());
    before = server.requests.length;
    await rejection(pipeline.execute('DescribeExecution'));
    expect(server.requests.length - before).toBe(2);
    expect(mw.quota!.availableCapacity).toBe(0);
  });

  it('a throttling retry costs 5; the quota is per client (per middleware instance)', async () => {
    server.script([], throttle());
    const one = setup(resolveRetries({ mode: 'standard' }, ctx), { random: () => 0 });
    for (let i = 0; i < 50; i++) await rejection(one.pipeline.execute('DescribeExecution'));
    expect(one.mw.quota!.availableCapacity).toBe(0);
    let before = server.requests.length;
    await rejection(one.pipeline.execute('DescribeExecution'));
    expect(server.requests.length - before).toBe(1);

    const other = setup(resolveRetries({ mode: 'standard' }, ctx), { random: () => 0 });
    before = server.requests.length;
    await rejection(other.pipeline.execute('DescribeExecution'));
    expect(server.requests.length - before).toBe(3);
    expect(other.mw.quota!.availableCapacity).toBe(490);
  });
});

describe('every attempt: headers and signing', () => {
  it('amz-sdk-invocation-id is one UUID per operation; amz-sdk-request counts attempts', async () => {
    server.script([status(500), status(500)], ok());
    const { pipeline } = setup(resolveRetries({ mode: 'standard' }, ctx));
    await pipeline.execute('DescribeExecution');
    server.script([throttle()], ok());
    await pipeline.execute('DescribeExecution');
    const ids = server.requests.map((r) => String(r.headers['amz-sdk-invocation-id']));
    expect(ids.every((id) => UUID.test(id))).toBe(true);
    expect(new Set(ids.slice(0, 3)).size).toBe(1);
    expect(new Set(ids.slice(3)).size).toBe(1);
    expect(ids[0]).not.toBe(ids[3]);
    expect(attemptsSeen(server)).toEqual(['attempt=1; max=3', 'attempt=2; max=3', 'attempt=3; max=3', 'attempt=1; max=3', 'attempt=2; max=3']);
  });

  it('each attempt is re-signed at its own time: distinct X-Amz-Date and Authorization, each signature valid', async () => {
    server.script([status(503), throttle(), destroy], ok());
    const clock = new VirtualClock();
    const mw = retryMiddleware(resolveRetries({ mode: 'standard', max_attempts: 4 }, ctx), { stats: false, random: () => 0.5, clock: clock.now, sleep: clock.sleep });
    // Each send takes 1.5 s on the virtual clock (a slow server), so every attempt falls in a new second.
    const pipeline = faultPipeline({ server, retry: mw, sleep: clock.sleep, clock: clock.now, onSend: () => clock.advance(1500) });
    await pipeline.execute('DescribeExecution', { executionArn: 'arn:e' });
    expect(server.requests).toHaveLength(4);
    const dates = server.requests.map((r) => String(r.headers['x-amz-date']));
    expect(new Set(dates).size).toBe(4);
    // The date signed is the pipeline clock when the signer ran for that attempt.
    const amz = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z').replace(/[-:]/g, '');
    expect(dates).toEqual(pipeline.sent.map((s) => amz(s.signedAt)));
    expect(dates[0]).toBe('20261123T120000Z');
    expect(new Set(server.requests.map((r) => r.headers.authorization)).size).toBe(4);
    expect(server.requests.map((r) => r.signatureValid)).toEqual([true, true, true, true]);
    // The retry headers are covered by the signature.
    expect(String(server.requests[0].headers.authorization)).toMatch(/SignedHeaders=[^,]*amz-sdk-invocation-id;amz-sdk-request;/);
  });

  it('in real time too: every attempt carries its own valid signature, and the backoff really elapses', async () => {
    server.script([status(500), status(500)], ok());
    // rand 0.2: mt_rand(0, 100) → 20 ms, mt_rand(0, 200) → 40 ms, slept by the terminal handler (setTimeout).
    const mw = retryMiddleware(resolveRetries(2, ctx), { stats: true, random: () => 0.2 });
    const pipeline = faultPipeline({ server, retry: mw });
    const result = await pipeline.execute('DescribeExecution');
    expect(server.requests.map((r) => r.signatureValid)).toEqual([true, true, true]);
    expect(new Set(server.requests.map((r) => r.headers.authorization)).size).toBe(3);
    expect(result['@metadata'].transferStats).toEqual({ retries_attempted: 2, total_retry_delay: 60 });
    const [a, b, c] = server.requests.map((r) => r.arrivedHr);
    expect(b - a).toBeGreaterThanOrEqual(19);
    expect(c - b).toBeGreaterThanOrEqual(39);
  });

  it("@http.delay carries the backoff for the terminal handler; the command's own @http is kept and restored", async () => {
    server.script([status(503)], ok());
    const { pipeline } = setup(resolveRetries({ mode: 'standard' }, ctx));
    const http = { timeout: 7 };
    const command = pipeline.command('DescribeExecution', {}, { '@http': http });
    await pipeline.run(command);
    expect(delaysOf(pipeline)).toEqual([0, 50]);
    expect(command.args['@http']).toBe(http);
    expect(http).toEqual({ timeout: 7 });
  });
});

describe('stats', () => {
  it('retries_attempted and total_retry_delay go into the Result @metadata.transferStats', async () => {
    server.script([status(503), status(500)], ok());
    const { pipeline } = setup(resolveRetries(3, ctx), { stats: true });
    const result = await pipeline.execute('DescribeExecution');
    expect(result['@metadata'].transferStats).toEqual({ retries_attempted: 2, total_retry_delay: 150 });

    server.script([], ok());
    const quiet = await pipeline.execute('DescribeExecution');
    expect(quiet['@metadata'].transferStats).toEqual({ retries_attempted: 0, total_retry_delay: 0 });
  });

  it("and into the thrown WorkflowServiceException's transferInfo", async () => {
    server.script([], throttle());
    const { pipeline } = setup(resolveRetries({ mode: 'standard', max_attempts: 3 }, ctx), { stats: true });
    const err = await rejection(pipeline.execute('DescribeExecution'));
    // 250 + floor(0.5 · 1000) = 750.
    expect(err.getTransferInfo()).toEqual({ retries_attempted: 2, total_retry_delay: 750 });
    expect(err.getTransferInfo('retries_attempted')).toBe(2);
  });

  it("each attempt's http stats are kept, in order, next to the retry figures", async () => {
    server.script([status(503), throttle()], ok());
    const clock = new VirtualClock();
    const mw = retryMiddleware(resolveRetries({ mode: 'standard' }, ctx), { stats: true, random: () => 0, clock: clock.now, sleep: clock.sleep });
    const pipeline = faultPipeline({ server, retry: mw, sleep: clock.sleep, clock: clock.now, httpStats: true });
    const result = await pipeline.execute('DescribeExecution');
    expect(result['@metadata'].transferStats).toEqual({
      retries_attempted: 2,
      total_retry_delay: 0,
      http: [
        { attempt: 1, status: 503 },
        { attempt: 2, status: 400 },
        { attempt: 3, status: 200 },
      ],
    });
    server.script([status(503)], status(500));
    const err = await rejection(pipeline.execute('DescribeExecution'));
    expect(err.getTransferInfo('http')).toEqual([
      { attempt: 4, status: 503 },
      { attempt: 5, status: 500 },
      { attempt: 6, status: 500 },
    ]);
  });

  it('nothing is added when stats are off', async () => {
    server.script([status(503)], ok());
    const { pipeline } = setup(resolveRetries(3, ctx));
    const result = await pipeline.execute('DescribeExecution');
    expect(result['@metadata'].transferStats).toEqual({});
  });
});

describe('the opt-in 2026 numbers', () => {
  it('base 50 ms (1000 ms after a throttle), transient retry cost 14, throttling cost 5', async () => {
    server.script([status(503), throttle()], ok());
    const { pipeline, mw } = setup(resolveRetries({ mode: 'standard', variant: '2026' }, ctx));
    await pipeline.execute('DescribeExecution');
    // floor(0.5 · 50) = 25, then floor(0.5 · 1000 · 2) = 1000.
    expect(delaysOf(pipeline)).toEqual([0, 25, 1000]);
    // 500 − 14 − 5, then the success refunds the last retry's cost (5).
    expect(mw.quota!.availableCapacity).toBe(486);
  });

  it('a retry-after hint is clamped to [backoff, backoff + 5 s]', async () => {
    server.script([throttle({ 'x-amz-retry-after': '3000' }), throttle({ 'x-amz-retry-after': '60000' }), throttle({ 'retry-after': '2' })], ok());
    const { pipeline } = setup(resolveRetries({ mode: 'standard', max_attempts: 4, variant: '2026' }, ctx));
    await pipeline.execute('DescribeExecution');
    // Backoffs 500, 1000, 2000: hint 3000 → 3000; hint 60 s → 1000 + 5000; hint 2 s = 2000 → 2000.
    expect(delaysOf(pipeline)).toEqual([0, 3000, 6000, 2000]);
  });

  it('a long-poll operation refused by the quota sleeps the backoff before failing', async () => {
    server.script([], throttle());
    const slept: number[] = [];
    const clock = new VirtualClock();
    const mw = retryMiddleware(resolveRetries({ mode: 'standard', variant: '2026' }, ctx), {
      stats: false,
      random: () => 0.5,
      clock: clock.now,
      sleep: async (ms) => {
        slept.push(ms);
      },
      quota: new RetryQuota({ ...QUOTA_2026, capacity: 4 }),
    });
    const pipeline = faultPipeline({ server, retry: mw, sleep: clock.sleep, clock: clock.now });
    await rejection(pipeline.execute('GetActivityTask'));
    expect(slept).toEqual([500]);
    await rejection(pipeline.execute('DescribeExecution'));
    expect(slept).toEqual([500]);
    expect(server.requests).toHaveLength(2);
  });
});

describe('parity with @aws-sdk/client-sfn on the wire', () => {
  it('a throttled call: same attempt count and amz-sdk-request / invocation-id headers as the official SDK (standard, 3 attempts)', async () => {
    server.script([], throttle());
    const sfn = new SFNClient({
      region: 'us-east-1',
      endpoint: server.url,
      credentials: TEST_KEY,
      // The SDK's own standard strategy with max 3 attempts; no backoff so the test does not sleep.
      retryStrategy: new ConfiguredRetryStrategy(3, () => 0),
    });
    const sdkError = await rejection(sfn.send(new DescribeExecutionCommand({ executionArn: 'arn:aws:states:us-east-1:1:execution:m:e' })));
    sfn.destroy();
    expect((sdkError as unknown as { name: string }).name).toBe('ThrottlingException');
    const sdkRequests = server.requests.splice(0);
    expect(sdkRequests).toHaveLength(3);

    const { pipeline } = setup(resolveRetries({ mode: 'standard' }, ctx), { random: () => 0 });
    const ours = await rejection(pipeline.execute('DescribeExecution', { executionArn: 'arn:aws:states:us-east-1:1:execution:m:e' }));
    expect(ours.code).toBe('ThrottlingException');
    const ourRequests = server.requests;

    expect(ourRequests).toHaveLength(sdkRequests.length);
    expect(ourRequests.map((r) => r.headers['amz-sdk-request'])).toEqual(sdkRequests.map((r) => r.headers['amz-sdk-request']));
    for (const reqs of [sdkRequests, ourRequests]) {
      const ids = reqs.map((r) => String(r.headers['amz-sdk-invocation-id']));
      expect(ids.every((id) => UUID.test(id))).toBe(true);
      expect(new Set(ids).size).toBe(1);
      // The gateway's verification accepts both signers' requests, attempt after attempt.
      expect(reqs.every((r) => r.signatureValid)).toBe(true);
    }
  });
});
