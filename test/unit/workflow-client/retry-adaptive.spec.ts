/**
 * Adaptive mode against the fault-injecting loopback server: the client rate limiter slows the send rate after
 * throttling responses — exact inter-send gaps on a virtual clock (backoff jitter 0, so every gap is the
 * limiter's), also stamped on that clock where the requests arrive at the server.
 */
import { resolveRetries, retryMiddleware } from '../../../packages/workflow-client/src/retry';
import { FaultServer, faultPipeline, ok, rejection, startFaultServer, status, throttle, VirtualClock } from '../../helpers/workflow-client-faults';

const ctx = { env: {}, homeDir: '/nonexistent', useSharedConfigFiles: false };

let server: FaultServer;
beforeEach(async () => {
  server = await startFaultServer();
});
afterEach(async () => {
  await server.close();
});

const gaps = (times: number[]) => times.slice(1).map((t, i) => t - times[i]);

describe('adaptive mode: the CUBIC client rate limiter', () => {
  it('does not wait before the first throttle, then spaces sends by (1 − tokens)/fill with fill ×0.7 per throttle, and recovers', async () => {
    const clock = new VirtualClock(); // starts on a whole second
    const mw = retryMiddleware(resolveRetries({ mode: 'adaptive', max_attempts: 3 }, ctx), {
      stats: true,
      random: () => 0, // no backoff: every gap below is the limiter's
      clock: clock.now,
      sleep: clock.sleep,
    });
    const pipeline = faultPipeline({ server, retry: mw, sleep: clock.sleep, clock: clock.now });

    // 10 successes, one every 100 ms: measured rate 0.8·10 = 8/s at t = 0.5 s, then 0.8·10 + 0.2·8 = 9.6/s at 1.0 s.
    for (let i = 0; i < 10; i++) {
      clock.advance(100);
      await pipeline.execute('DescribeExecution');
    }
    expect(gaps(pipeline.sent.map((s) => s.at))).toEqual(Array(9).fill(100));
    expect(mw.rateLimiter!.snapshot().enabled).toBe(false);
    expect(mw.rateLimiter!.snapshot().measuredTxRate).toBeCloseTo(9.6, 8);

    // Five throttles in a row, then success: the first operation fails after 3 attempts, the second succeeds on its 3rd.
    server.script([throttle(), throttle(), throttle(), throttle(), throttle()], ok());
    clock.advance(100);
    const first = await rejection(pipeline.execute('DescribeExecution'));
    expect(first.code).toBe('ThrottlingException');
    const second = await pipeline.execute('DescribeExecution');
    expect(second['@metadata'].transferStats).toMatchObject({ retries_attempted: 2, total_retry_delay: 0 });

    const throttled = gaps(pipeline.sent.slice(9).map((s) => s.at));
    // fill after the 1st throttle = 0.7 · 9.6 = 6.72/s with 0.5 token left from the quiet phase: (1 − 0.5)/6.72 s;
    // then 1/4.704, 1/3.2928, 1/2.30496 s; the 5th throttle meets a measured rate of 3.264/s > fill: 1/1.613472 s.
    const expected = [100, 500 / 6.72, 1000 / 4.704, 1000 / 3.2928, 1000 / 2.30496, 1000 / 1.613472];
    expect(throttled).toHaveLength(expected.length);
    throttled.forEach((g, i) => expect(g).toBeCloseTo(expected[i], 2));
    expect(mw.rateLimiter!.snapshot().enabled).toBe(true);

    // Back to successes sent back to back: the CUBIC curve raises the rate again, so the gaps shrink.
    const before = pipeline.sent.length;
    for (let i = 0; i < 12; i++) await pipeline.execute('DescribeExecution');
    const recovery = gaps(pipeline.sent.slice(before - 1).map((s) => s.at));
    expect(Math.max(...recovery)).toBeLessThan(1000 / 1.613472);
    expect(recovery[recovery.length - 1]).toBeLessThan(recovery[0]);
  });

  it('retries, backs off and spends the quota exactly as standard mode does (the limiter comes on top)', async () => {
    const clock = new VirtualClock();
    const limiterSleeps: number[] = [];
    const mw = retryMiddleware(resolveRetries({ mode: 'adaptive' }, ctx), {
      stats: true,
      random: () => 0.5,
      clock: clock.now,
      sleep: async (ms) => {
        limiterSleeps.push(ms);
        await clock.sleep(ms);
      },
    });
    const pipeline = faultPipeline({ server, retry: mw, sleep: clock.sleep, clock: clock.now });
    server.script([throttle(), status(503)], ok({ done: true }));
    const result = await pipeline.execute('DescribeExecution');
    expect(result.done).toBe(true);
    expect(server.requests).toHaveLength(3);
    // @http.delay backoff as in standard mode: floor(0.5 · 500), floor(0.5 · 200).
    expect(pipeline.sent.map((s) => s.delay)).toEqual([0, 250, 100]);
    expect(result['@metadata'].transferStats).toMatchObject({ retries_attempted: 2, total_retry_delay: 350 });
    // 500 − 5 − 10, then the success refunds the last retry's 10.
    expect(mw.quota!.availableCapacity).toBe(495);
    // The throttle enabled the limiter with no measured rate yet: the next sends waited for tokens at 0.5/s.
    expect(limiterSleeps.length).toBeGreaterThan(0);
    expect(mw.rateLimiter!.snapshot().enabled).toBe(true);

    server.script([], status(400, 'ValidationException'));
    await rejection(pipeline.execute('StartExecution'));
    expect(server.requests).toHaveLength(4);
  });

  it('standard mode has no limiter: the same throttles do not slow sending', async () => {
    const clock = new VirtualClock();
    const mw = retryMiddleware(resolveRetries({ mode: 'standard', max_attempts: 3 }, ctx), { stats: false, random: () => 0, clock: clock.now, sleep: clock.sleep });
    const pipeline = faultPipeline({ server, retry: mw, sleep: clock.sleep, clock: clock.now });
    server.script([throttle(), throttle(), throttle(), throttle(), throttle()], ok());
    await rejection(pipeline.execute('DescribeExecution'));
    await pipeline.execute('DescribeExecution');
    expect(mw.rateLimiter).toBeUndefined();
    expect(gaps(pipeline.sent.map((s) => s.at))).toEqual([0, 0, 0, 0, 0]);
  });

  it('at the server: after throttles the requests arrive further and further apart', async () => {
    // The limiter's time is a virtual clock, and the server stamps each arrival with it: the gaps measured where the
    // requests land are the limiter's own spacing, whatever the machine's load (no wall-clock bounds).
    const clock = new VirtualClock();
    const atServer = await startFaultServer([], ok(), { clock: clock.now });
    try {
      const mw = retryMiddleware(resolveRetries({ mode: 'adaptive', max_attempts: 1 }, ctx), { stats: false, random: () => 0, clock: clock.now, sleep: clock.sleep });
      const pipeline = faultPipeline({ server: atServer, retry: mw, sleep: clock.sleep, clock: clock.now });
      const arrivals = () => atServer.requests.map((r) => r.arrivedClock!);

      // Unthrottled: 40 sends 20 ms apart (50/s), so the limiter has measured a real rate.
      for (let i = 0; i < 40; i++) {
        clock.advance(20);
        await pipeline.execute('DescribeExecution');
      }
      expect(gaps(arrivals())).toEqual(Array(39).fill(20));
      expect(mw.rateLimiter!.snapshot().measuredTxRate).toBeGreaterThan(30);

      // Now every answer is a throttle, and the client sends again as soon as it may.
      atServer.script([], throttle());
      const firstThrottled = atServer.requests.length;
      for (let i = 0; i < 8; i++) await rejection(pipeline.execute('DescribeExecution'));
      const g = gaps(arrivals().slice(firstThrottled));
      expect(g).toHaveLength(7);
      // The server sees the rate drop well below the quiet 50/s, and progressively (fill ×0.7 per throttle), not
      // as one fixed pause: every gap is longer than the one before.
      expect(g[g.length - 1]).toBeGreaterThan(5 * 20);
      g.slice(1).forEach((gap, i) => expect(gap).toBeGreaterThan(g[i]));
      expect(g[g.length - 1]).toBeGreaterThan(g[g.length - 3] * 1.3);
    } finally {
      await atServer.close();
    }
  });
});
