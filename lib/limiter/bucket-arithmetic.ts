import type { Limit } from "./limit";

// The bucket arithmetic every storage shares, written once: the in-memory store (BucketStore),
// the Redis decider reading its script's reply, and the inspector's levels (bucket-level.ts).
// Time is counted in a limit's internal units of `1 / scale` ms (see Limit).

/** unitsAt is the whole units of `1 / scale` ms from `epoch` to `ms` (both ms), rounded down. */
export function unitsAt(ms: number, epoch: number, scale: number): number {
  return Math.floor((ms - epoch) * scale);
}

/** wholeTokens is the whole tokens (`tokenUnits` each) that `units` hold: 0 when units <= 0. */
export function wholeTokens(units: number, tokenUnits: number): number {
  if (units <= 0) return 0;
  // Exact integer division: both operands are integers below 2^53.
  return (units - (units % tokenUnits)) / tokenUnits;
}

/**
 * retryAfterMs is how long (ms) after `now` a bucket of `limit` has `n` tokens, when it has them
 * once a clock counting whole units since `epoch` (ms), which reads `nowUnits` at `now`, reads
 * `dueUnits` (a whole number above `nowUnits`); Infinity when `n` exceeds the limit's count. A
 * bucket counted from the decision's instant passes 0 for `now`, `epoch` and `nowUnits`.
 */
export function retryAfterMs(
  limit: Limit,
  n: number,
  now: number,
  epoch: number,
  nowUnits: number,
  dueUnits: number,
): number {
  if (n > limit.count) return Number.POSITIVE_INFINITY;
  let ms = (dueUnits - nowUnits) / limit.scale;
  // The quotient is rounded, so a clock read at `now + ms` could fall a hair short of the units
  // and a caller who waited exactly retryAfterMs be denied: round it up. The step doubles, so
  // this ends in a few rounds whatever the magnitudes.
  let step = Math.max(Math.abs(now), ms) * Number.EPSILON || Number.MIN_VALUE;
  while (unitsAt(now + ms, epoch, limit.scale) < dueUnits) {
    ms += step;
    step *= 2;
  }
  return ms;
}
