import { TokenBucket } from "limiter";
import type { SyncLoop } from "./harness";
import {
  DENIED_COUNT,
  DENIED_PERIOD_MS,
  HOT_COUNT,
  HOT_PERIOD_MS,
  HOT2_COUNT,
  HOT2_PERIOD_MS,
  type HotWorkload,
} from "./parameters";

/** fullTokenBucket builds a TokenBucket that starts full, as the package's own RateLimiter does. */
export function fullTokenBucket(
  count: number,
  periodMs: number,
  parent?: TokenBucket,
): TokenBucket {
  const bucket = new TokenBucket({
    bucketSize: count,
    tokensPerInterval: count,
    interval: periodMs,
    parentBucket: parent,
  });
  bucket.content = count;
  return bucket;
}

const tb1 = fullTokenBucket(HOT_COUNT, HOT_PERIOD_MS);
// Two limits with `limiter`: its documented hierarchy, a child bucket with a parent bucket.
const tb2 = fullTokenBucket(HOT_COUNT, HOT_PERIOD_MS, fullTokenBucket(HOT2_COUNT, HOT2_PERIOD_MS));
/** tbDenied is the `limiter` TokenBucket's denied-path bucket (DENIED_COUNT per hour). */
export const tbDenied = fullTokenBucket(DENIED_COUNT, DENIED_PERIOD_MS);

/**
 * tokenBucketLoops are the `limiter` TokenBucket's hot-key loops, one literal per workload so each
 * call site stays monomorphic: they return how many calls were allowed (hot) or denied (denied).
 */
export const tokenBucketLoops: Record<HotWorkload, SyncLoop> = {
  hot1: (n) => {
    let allowed = 0;
    for (let i = 0; i < n; i++) if (tb1.tryRemoveTokens(1)) allowed++;
    return allowed;
  },
  hot2: (n) => {
    let allowed = 0;
    for (let i = 0; i < n; i++) if (tb2.tryRemoveTokens(1)) allowed++;
    return allowed;
  },
  denied: (n) => {
    let denied = 0;
    for (let i = 0; i < n; i++) if (!tbDenied.tryRemoveTokens(1)) denied++;
    return denied;
  },
};
