import type { Limit } from "./limit";

/** KeyFunc maps an input to the key of its buckets (an IP, a customer id, ...). */
export type KeyFunc<I, K> = (input: I) => K;

/** LimitFunc decides limits per input (plan, method, cost); nothing means "no limit from me". */
export type LimitFunc<I> = (input: I) => Limit | readonly Limit[] | null | undefined;

/**
 * Details describes one decision. `executionTime` is the clock reading (ms) it used throughout;
 * `tokensRemaining` is the minimum over its buckets (after consuming when allowed, before when
 * denied; `Infinity` with no buckets); `retryAfterMs` is the maximum over its buckets (0 when
 * allowed, `Infinity` when `n` exceeds some limit's count).
 */
export interface Details {
  allowed: boolean;
  executionTime: number;
  tokensRequested: number;
  tokensConsumed: number;
  tokensRemaining: number;
  retryAfterMs: number;
}

/**
 * BucketDetails reports one bucket of a decision: `allowed` says whether this bucket alone would
 * allow, and the counts and retry-after are its own. `fullInMs` is how long (ms) after the
 * decision the bucket is full again if nothing more is taken (0 when it is full): with the
 * limit, it places the bucket's next refills exactly (see `levelAfter`).
 */
export interface BucketDetails<K = unknown> extends Details {
  limit: Limit;
  key: K;
  fullInMs: number;
}

/** DebugDetails is a decision's Details plus each bucket's, in order: limiter, then limit. */
export interface DebugDetails<K = unknown> extends Details {
  buckets: BucketDetails<K>[];
}

/** WaitOptions carries an AbortSignal that rejects a pending `wait` with the signal's reason. */
export interface WaitOptions {
  signal?: AbortSignal;
}
