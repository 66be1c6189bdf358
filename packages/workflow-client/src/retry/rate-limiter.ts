/**
 * The adaptive-mode client rate limiter (reference §3): a port of the AWS SDK for JavaScript's DefaultRateLimiter
 * (@smithy/core/retry), a CUBIC-controlled token bucket. Ported rather than imported because the SDK's class
 * reads `Date.now()` and sleeps through a global static `setTimeout` hook with private state, so neither the clock
 * nor the sleep could be injected per client (tests assert exact inter-send gaps on a virtual clock); the
 * arithmetic is the SDK's, step for step, and retry-rate-limiter.spec.ts runs both side by side on the same
 * event sequence and compares every sleep and fill rate.
 *
 * Constants: β 0.7, C (scale) 0.4, smooth 0.8, min fill rate 0.5 tokens/s, min capacity 1. Disabled (no waiting)
 * until the first throttling response. The measured send rate is updated in 0.5 s buckets:
 * `0.8·count/Δt + 0.2·old`. On a throttle: rateToUse = measured (not yet enabled) or min(measured, fill);
 * lastMax = rateToUse; W = ∛(lastMax·(1−β)/C); new = rateToUse·β. On a success: new = C·(t − lastThrottle − W)³ +
 * lastMax. Then new is capped at 2·measured, fill = max(new, 0.5), capacity = max(new, 1). Each send takes one
 * token; when short it sleeps (1 − tokens)/fill seconds (and refills, and checks again).
 *
 * PHP's stored Aws\Retry\RateLimiter never enables itself (a no-op) and sleeps with usleep(seconds): not followed.
 */

export interface RateLimiterOptions {
  beta?: number;
  minCapacity?: number;
  minFillRate?: number;
  scaleConstant?: number;
  smooth?: number;
  /** Milliseconds since the epoch (default Date.now). */
  clock?: () => number;
  /** Waits `ms` milliseconds (default a setTimeout promise). */
  sleep?: (ms: number) => Promise<void>;
}

const TOKEN_EPSILON = 1e-9;
const realSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
const precise = (n: number) => parseFloat(n.toFixed(8));

export class ClientRateLimiter {
  readonly beta: number;
  readonly minCapacity: number;
  readonly minFillRate: number;
  readonly scaleConstant: number;
  readonly smooth: number;
  private readonly clock: () => number;
  private readonly sleep: (ms: number) => Promise<void>;

  private enabled = false;
  private availableTokens = 0;
  private lastMaxRate = 0;
  private measuredTxRate = 0;
  private requestCount = 0;
  private fillRate: number;
  private lastThrottleTime: number;
  private lastTimestamp = 0;
  private lastTxRateBucket: number;
  private maxCapacity: number;
  private timeWindow = 0;

  constructor(options: RateLimiterOptions = {}) {
    this.beta = options.beta ?? 0.7;
    this.minCapacity = options.minCapacity ?? 1;
    this.minFillRate = options.minFillRate ?? 0.5;
    this.scaleConstant = options.scaleConstant ?? 0.4;
    this.smooth = options.smooth ?? 0.8;
    this.clock = options.clock ?? Date.now;
    this.sleep = options.sleep ?? realSleep;
    this.lastThrottleTime = this.now();
    this.lastTxRateBucket = Math.floor(this.now());
    this.fillRate = this.minFillRate;
    this.maxCapacity = this.minCapacity;
  }

  /** Seconds, as the SDK's limiter counts. */
  private now(): number {
    return this.clock() / 1000;
  }

  /** Takes one send token, sleeping while the bucket is short. Resolves with the milliseconds slept. */
  async getSendToken(): Promise<number> {
    return this.acquire(1);
  }

  private async acquire(amount: number): Promise<number> {
    if (!this.enabled) return 0;
    let slept = 0;
    this.refill();
    // A shortfall below TOKEN_EPSILON is float noise, not a wait. And when the clock cannot register the wait
    // (a virtual clock at epoch milliseconds cannot add the nanoseconds a tiny shortfall asks for), the wait counts
    // as done: otherwise the loop would never end. With a real clock every sleep moves time by ≥ 1 ms.
    while (amount - this.availableTokens > TOKEN_EPSILON) {
      const delay = ((amount - this.availableTokens) / this.fillRate) * 1000;
      const before = this.clock();
      await this.sleep(delay);
      slept += delay;
      if (this.clock() === before) break;
      this.refill();
    }
    this.availableTokens -= amount;
    return slept;
  }

  /** After every response: `throttled` = the response was a THROTTLING error. */
  updateClientSendingRate(throttled: boolean): void {
    let calculated: number;
    this.updateMeasuredRate();
    if (throttled) {
      const rateToUse = !this.enabled ? this.measuredTxRate : Math.min(this.measuredTxRate, this.fillRate);
      this.lastMaxRate = rateToUse;
      this.calculateTimeWindow();
      this.lastThrottleTime = this.now();
      calculated = precise(rateToUse * this.beta);
      this.enabled = true;
    } else {
      this.calculateTimeWindow();
      calculated = precise(this.scaleConstant * Math.pow(this.now() - this.lastThrottleTime - this.timeWindow, 3) + this.lastMaxRate);
    }
    this.updateTokenBucketRate(Math.min(calculated, 2 * this.measuredTxRate));
  }

  private refill(): void {
    const t = this.now();
    if (!this.lastTimestamp) {
      this.lastTimestamp = t;
      return;
    }
    this.availableTokens = Math.min(this.maxCapacity, this.availableTokens + (t - this.lastTimestamp) * this.fillRate);
    this.lastTimestamp = t;
  }

  private calculateTimeWindow(): void {
    this.timeWindow = precise(Math.pow((this.lastMaxRate * (1 - this.beta)) / this.scaleConstant, 1 / 3));
  }

  private updateTokenBucketRate(newRate: number): void {
    this.refill();
    this.fillRate = Math.max(newRate, this.minFillRate);
    this.maxCapacity = Math.max(newRate, this.minCapacity);
    this.availableTokens = Math.min(this.availableTokens, this.maxCapacity);
  }

  private updateMeasuredRate(): void {
    const t = this.now();
    const bucket = Math.floor(t * 2) / 2;
    this.requestCount++;
    if (bucket > this.lastTxRateBucket) {
      const currentRate = this.requestCount / (bucket - this.lastTxRateBucket);
      this.measuredTxRate = precise(currentRate * this.smooth + this.measuredTxRate * (1 - this.smooth));
      this.requestCount = 0;
      this.lastTxRateBucket = bucket;
    }
  }

  /** Read-only view of the state (diagnostics and tests). */
  snapshot(): { enabled: boolean; fillRate: number; maxCapacity: number; measuredTxRate: number; availableTokens: number; lastMaxRate: number } {
    return {
      enabled: this.enabled,
      fillRate: this.fillRate,
      maxCapacity: this.maxCapacity,
      measuredTxRate: this.measuredTxRate,
      availableTokens: this.availableTokens,
      lastMaxRate: this.lastMaxRate,
    };
  }
}
