/**
 * The adaptive rate limiter port (packages/workflow-client/src/retry/rate-limiter.ts) against the AWS SDK for JavaScript's
 * own DefaultRateLimiter (@smithy/core/retry): both driven through the same 600 pseudo-random events (time
 * advances, sends, throttled and successful responses) must sleep the same amounts and hold the same fill rate,
 * capacity and measured rate at every step. The SDK's limiter reads Date.now() and sleeps through a static hook,
 * so only here, to run the reference implementation, Date.now is replaced.
 */
import { DefaultRateLimiter } from '@smithy/core/retry';
import { ClientRateLimiter } from '../../../packages/workflow-client/src/retry';

/** Deterministic PRNG (mulberry32). */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type SmithyInternals = { fillRate: number; maxCapacity: number; measuredTxRate: number; availableTokens: number; enabled: boolean };

describe('ClientRateLimiter = the SDK DefaultRateLimiter, step for step', () => {
  const originalTimeout = (DefaultRateLimiter as unknown as { setTimeoutFn: unknown }).setTimeoutFn;
  afterEach(() => {
    jest.restoreAllMocks();
    (DefaultRateLimiter as unknown as { setTimeoutFn: unknown }).setTimeoutFn = originalTimeout;
  });

  for (const seed of [1, 7, 2026]) {
    it(`same sleeps and rates over 600 random events (seed ${seed})`, async () => {
      let sdkNow = 1_000_000;
      let ourNow = 1_000_000;
      let sdkSlept = 0;
      jest.spyOn(Date, 'now').mockImplementation(() => sdkNow);
      (DefaultRateLimiter as unknown as { setTimeoutFn: (fn: () => void, ms: number) => void }).setTimeoutFn = (fn, ms) => {
        // The SDK's loop re-sleeps float-noise shortfalls (1e-11 ms) that a fake clock at 1e6 ms cannot add,
        // which would never end; a real setTimeout always moves ≥ 1 ms. Advance at least 1 ns here.
        sdkSlept += ms;
        sdkNow += Math.max(ms, 1e-6);
        fn();
      };
      const sdk = new DefaultRateLimiter();
      const ours = new ClientRateLimiter({
        clock: () => ourNow,
        sleep: async (ms) => {
          ourNow += ms;
        },
      });

      const rand = prng(seed);
      let throttling = false;
      let compared = 0;
      let waited = 0;
      for (let step = 0; step < 600; step++) {
        // Bursts: switch between a throttled and a healthy server now and then.
        if (rand() < 0.08) throttling = !throttling;
        const advance = Math.floor(rand() * (throttling ? 60 : 250));
        sdkNow += advance;
        ourNow += advance;

        sdkSlept = 0;
        await sdk.getSendToken();
        const ourSlept = await ours.getSendToken();
        expect(ourSlept).toBeCloseTo(sdkSlept, 2);
        if (sdkSlept > 0) waited++;
        expect(ourNow).toBeCloseTo(sdkNow, 2);

        const throttled = throttling && rand() < 0.9;
        sdk.updateClientSendingRate(throttled ? { errorType: 'THROTTLING' } : {});
        ours.updateClientSendingRate(throttled);

        const s = sdk as unknown as SmithyInternals;
        const o = ours.snapshot();
        expect(o.enabled).toBe(s.enabled);
        expect(o.fillRate).toBeCloseTo(s.fillRate, 6);
        expect(o.maxCapacity).toBeCloseTo(s.maxCapacity, 6);
        expect(o.measuredTxRate).toBeCloseTo(s.measuredTxRate, 6);
        expect(o.availableTokens).toBeCloseTo(s.availableTokens, 6);
        compared++;
      }
      expect(compared).toBe(600);
      // The scenario did exercise the limiter: it was enabled and made sends wait.
      expect(ours.snapshot().enabled).toBe(true);
      expect(waited).toBeGreaterThan(20);
    });
  }
});

describe('ClientRateLimiter constants and rules', () => {
  it('uses β 0.7, C 0.4, smooth 0.8, min fill rate 0.5/s, min capacity 1', () => {
    const l = new ClientRateLimiter({ clock: () => 0 });
    expect([l.beta, l.scaleConstant, l.smooth, l.minFillRate, l.minCapacity]).toEqual([0.7, 0.4, 0.8, 0.5, 1]);
  });

  it('is disabled until the first throttle: no waiting however fast the sends', async () => {
    let now = 5_000_000;
    const sleeps: number[] = [];
    const l = new ClientRateLimiter({ clock: () => now, sleep: async (ms) => void sleeps.push(ms) });
    for (let i = 0; i < 1000; i++) {
      await l.getSendToken();
      l.updateClientSendingRate(false);
      now += 1;
    }
    expect(sleeps).toEqual([]);
    l.updateClientSendingRate(true);
    await l.getSendToken();
    expect(sleeps.length).toBeGreaterThan(0);
  });

  it('a throttle before any rate is measured drops to the minimum fill rate: 1 token per 2 s', async () => {
    let now = 7_000_000;
    const sleeps: number[] = [];
    const l = new ClientRateLimiter({
      clock: () => now,
      sleep: async (ms) => {
        sleeps.push(ms);
        now += ms;
      },
    });
    l.updateClientSendingRate(true);
    expect(l.snapshot().fillRate).toBe(0.5);
    await l.getSendToken();
    expect(sleeps).toEqual([2000]);
  });
});
