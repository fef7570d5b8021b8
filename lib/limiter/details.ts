import type { Limit } from "./limit";
import type { Quota } from "./quota";
import type { BucketDetails, DebugDetails, Details, QuotaDetails } from "./types";

/**
 * DetailsBuilder assembles a decision's Details bucket by bucket, the same way whatever the
 * storage: the storage reads each bucket (its whole tokens, whether it alone has the tokens
 * asked for, when it will, when it is full) and `add` folds the readings into the decision's
 * tokens remaining (the least over its buckets) and retry-after (the most, when refused). One
 * builder assembles one decision at a time, from `open` to `close`, and can be reused: it
 * allocates only the Details it returns.
 */
export class DetailsBuilder<K> {
  /** consumed is the tokens the decision takes from each bucket: `n` if it takes them, else 0. */
  consumed = 0;
  private allowed = false;
  private now = 0;
  private n = 0;
  private remaining = Number.POSITIVE_INFINITY;
  private retryAfterMs = 0;
  private buckets: BucketDetails<K>[] | undefined = undefined;
  private quotas: QuotaDetails<K>[] | undefined = undefined;

  /**
   * open starts a decision of `n` tokens at `now` (ms), which `allowed` and then takes the tokens
   * if `take`; with `debug` it reports each bucket too.
   */
  open(allowed: boolean, now: number, n: number, take: boolean, debug: boolean): void {
    this.allowed = allowed;
    this.now = now;
    this.n = n;
    this.consumed = allowed && take ? n : 0;
    this.remaining = Number.POSITIVE_INFINITY;
    this.retryAfterMs = 0;
    this.buckets = debug ? [] : undefined;
    this.quotas = undefined;
  }

  /**
   * add adds one bucket: `tokens` is the whole tokens it held before the decision, `ownAllowed`
   * whether it alone has the tokens asked for, `ownRetryMs` how long until it has them (ms; 0
   * when it has them) and `fullInMs` how long after the decision it is full again.
   */
  add(
    limit: Limit,
    key: K,
    tokens: number,
    ownAllowed: boolean,
    ownRetryMs: number,
    fullInMs: number,
  ): void {
    const left = tokens - this.consumed;
    if (left < this.remaining) this.remaining = left;
    if (!this.allowed && ownRetryMs > this.retryAfterMs) this.retryAfterMs = ownRetryMs;
    this.buckets?.push({
      allowed: ownAllowed,
      executionTime: this.now,
      tokensRequested: this.n,
      tokensConsumed: this.consumed,
      tokensRemaining: left,
      retryAfterMs: ownRetryMs,
      limit,
      key,
      fullInMs,
    });
  }

  /**
   * addQuota adds one quota: `used` is the tokens used in its period `[startMs, endMs)` (ms
   * since the epoch) before the decision. Refused, it can pass once the period ends (never
   * when `n` exceeds its count).
   */
  addQuota(quota: Quota, key: K, used: number, startMs: number, endMs: number): void {
    const n = this.n;
    const count = quota.count;
    const ownAllowed = n === 0 || used + n <= count;
    // Never negative: over Redis the period was computed at an estimate of the server's time.
    const resetInMs = Math.max(0, endMs - this.now);
    const ownRetryMs = ownAllowed ? 0 : n > count ? Number.POSITIVE_INFINITY : resetInMs;
    const left = Math.max(0, count - used) - this.consumed;
    if (left < this.remaining) this.remaining = left;
    if (!this.allowed && ownRetryMs > this.retryAfterMs) this.retryAfterMs = ownRetryMs;
    if (this.buckets === undefined) return;
    this.quotas ??= [];
    this.quotas.push({
      allowed: ownAllowed,
      executionTime: this.now,
      tokensRequested: n,
      tokensConsumed: this.consumed,
      tokensRemaining: left,
      retryAfterMs: ownRetryMs,
      kind: "quota",
      quota,
      key,
      used,
      remaining: left,
      periodStartMs: startMs,
      periodEndMs: endMs,
      resetInMs,
    });
  }

  /** close is the decision's Details, with each bucket's when it was opened with `debug`. */
  close(): Details | DebugDetails<K> {
    const details: Details = {
      allowed: this.allowed,
      executionTime: this.now,
      tokensRequested: this.n,
      tokensConsumed: this.consumed,
      tokensRemaining: this.remaining,
      retryAfterMs: this.retryAfterMs,
    };
    const buckets = this.buckets;
    const quotas = this.quotas;
    this.buckets = undefined;
    this.quotas = undefined;
    if (!buckets) return details;
    return quotas ? { ...details, buckets, quotas } : { ...details, buckets };
  }
}
