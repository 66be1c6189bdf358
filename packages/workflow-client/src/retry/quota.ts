/**
 * The standard-mode retry quota (reference §3): a token bucket shared by every command of one client.
 *
 * Variant: the AWS SDK for JavaScript's StandardRetryStrategy before "retries 2026" (the numbers of the SDKs &
 * Tools reference guide and of our brief): capacity 500; a retry of a THROTTLING error costs 5, of a TRANSIENT
 * error (timeouts, connection errors, 5xx) 10; a success refunds the cost of the operation's last retry, or adds
 * 1 when the operation needed no retry, never above the capacity; a retry whose cost exceeds what is left is not
 * made. The numbers are @smithy/core/retry's exported pre-2026 constants (INITIAL_RETRY_TOKENS, RETRY_COST,
 * TIMEOUT_RETRY_COST, NO_RETRY_INCREMENT) — its current StandardRetryStrategy itself hard-codes the 2026 numbers
 * (cost 14, throttling 5) and is not used; the 2026 numbers are `RETRY_2026` below (opt-in).
 */
import { INITIAL_RETRY_TOKENS, NO_RETRY_INCREMENT, RETRY_COST, TIMEOUT_RETRY_COST } from '@smithy/core/retry';
import type { RetryErrorType } from './classify';

export interface QuotaCosts {
  capacity: number;
  /** Cost of a retry after a THROTTLING error. */
  throttlingCost: number;
  /** Cost of a retry after a TRANSIENT error. */
  transientCost: number;
  /** Added on a success without any retry. */
  noRetryIncrement: number;
}

/** JS pre-2026 (and the SDKs & Tools reference guide): 500 / 5 / 10 / +1. */
export const QUOTA_STANDARD: QuotaCosts = {
  capacity: INITIAL_RETRY_TOKENS,
  throttlingCost: RETRY_COST,
  transientCost: TIMEOUT_RETRY_COST,
  noRetryIncrement: NO_RETRY_INCREMENT,
};

/** "Retries 2026": retry cost 14, throttling cost 5. */
export const QUOTA_2026: QuotaCosts = { capacity: 500, throttlingCost: 5, transientCost: 14, noRetryIncrement: 1 };

export class RetryQuota {
  private available: number;
  constructor(readonly costs: QuotaCosts = QUOTA_STANDARD) {
    this.available = costs.capacity;
  }

  /** Tokens left in the bucket. */
  get availableCapacity(): number {
    return this.available;
  }

  costOf(errorType: RetryErrorType): number {
    return errorType === 'THROTTLING' ? this.costs.throttlingCost : this.costs.transientCost;
  }

  hasRetryQuota(errorType: RetryErrorType): boolean {
    return this.costOf(errorType) <= this.available;
  }

  /** Takes the cost of one retry; returns it (to be refunded on success), or undefined when the bucket is short. */
  acquire(errorType: RetryErrorType): number | undefined {
    const cost = this.costOf(errorType);
    if (cost > this.available) return undefined;
    this.available -= cost;
    return cost;
  }

  /** On success: refund `lastRetryCost`, or add the no-retry increment. */
  release(lastRetryCost: number | undefined): void {
    this.available = Math.min(this.costs.capacity, this.available + (lastRetryCost ?? this.costs.noRetryIncrement));
  }
}
