import type { Limit } from "./limit";
import type { Quota } from "./quota";

/** KeyFunc maps an input to the key of its buckets (an IP, a customer id, ...). */
export type KeyFunc<I, K> = (input: I) => K;

/** AnyLimit is a limit of either kind: a token bucket's Limit or a calendar Quota. */
export type AnyLimit = Limit | Quota;

/**
 * LimitFunc decides limits per input (plan, method, cost): Limits and Quotas, mixed in any
 * order; nothing means "no limit from me".
 */
export type LimitFunc<I> = (input: I) => AnyLimit | readonly AnyLimit[] | null | undefined;

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

/**
 * QuotaDetails reports one quota of a decision (`kind: "quota"`): `allowed` says whether this
 * quota alone would allow; `quota` is its limit (the smaller count when one decision names two
 * quotas of one calendar), `used` the tokens used in the period before the decision and
 * `remaining` those left after it (never below 0); the period is `[periodStartMs, periodEndMs)`
 * (ms since the epoch) and `resetInMs` the time from the decision to its end. `retryAfterMs` is
 * `resetInMs` when refused (Infinity when `n` exceeds the count), else 0.
 */
export interface QuotaDetails<K = unknown> extends Details {
  kind: "quota";
  quota: Quota;
  key: K;
  used: number;
  remaining: number;
  periodStartMs: number;
  periodEndMs: number;
  resetInMs: number;
}

/**
 * DebugDetails is a decision's Details plus each bucket's, in order: limiter, then limit; and,
 * when the decision has quotas (only then), each quota's in `quotas`, in the same order.
 */
export interface DebugDetails<K = unknown> extends Details {
  buckets: BucketDetails<K>[];
  quotas?: QuotaDetails<K>[];
}

/** WaitOptions carries an AbortSignal that rejects a pending `wait` with the signal's reason. */
export interface WaitOptions {
  signal?: AbortSignal;
}
