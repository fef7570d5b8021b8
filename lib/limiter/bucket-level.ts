import { unitsAt, wholeTokens } from "./bucket-arithmetic";
import type { Limit } from "./limit";

// A bucket seen from outside: how many whole tokens it holds and how long until it is full. The
// arithmetic is BucketStore's, written over "units missing until full" (a bucket whose time is
// `cutoff` at `now` misses `cutoff + periodUnits - now` units): the inspector replays a key's
// history with it and draws refills between two peeks with it, and neither may drift from what
// the limiter decides (test/limiter/bucket-level.test.ts holds them to a Limiter).

/**
 * BucketLevel is a bucket at one instant: `remaining` whole tokens (0 to the limit's count) and
 * `fullInMs`, the milliseconds until it is full if nothing is taken (0 when it is full).
 */
export interface BucketLevel {
  remaining: number;
  fullInMs: number;
}

/**
 * missingUnitsOf converts `fullInMs` to whole internal units (0 or more). It may exceed a period:
 * after the clock went backwards, a bucket stays empty a while longer.
 */
function missingUnitsOf(limit: Limit, fullInMs: number): number {
  if (!(fullInMs > 0)) return 0;
  // fullInMs was computed as units / scale: rounding takes away a float's last bits.
  return Math.round(fullInMs * limit.scale);
}

/** tokensMissing is the whole number of tokens a bucket holds when it misses `missingUnits`. */
function tokensMissing(limit: Limit, missingUnits: number): number {
  const available = limit.periodUnits - Math.min(limit.periodUnits, Math.max(0, missingUnits));
  return wholeTokens(available, limit.tokenUnits);
}

/**
 * levelAfter is a bucket's level `elapsedMs` (at least 0) after it was `fullInMs` from full, if
 * nothing was taken meanwhile: the refill a peek implies until the next one.
 */
export function levelAfter(limit: Limit, fullInMs: number, elapsedMs: number): BucketLevel {
  const missing = Math.max(
    0,
    missingUnitsOf(limit, fullInMs) - Math.floor(Math.max(0, elapsedMs) * limit.scale),
  );
  return { remaining: tokensMissing(limit, missing), fullInMs: missing / limit.scale };
}

/**
 * nextTokenInMs is how long (ms) after a bucket was `fullInMs` from full it gains its next whole
 * token, if nothing is taken; Infinity when it is full.
 */
export function nextTokenInMs(limit: Limit, fullInMs: number): number {
  const missing = missingUnitsOf(limit, fullInMs);
  if (missing === 0) return Number.POSITIVE_INFINITY;
  if (missing > limit.periodUnits)
    return (missing - limit.periodUnits + limit.tokenUnits) / limit.scale;
  const partial = missing % limit.tokenUnits;
  return (partial === 0 ? limit.tokenUnits : partial) / limit.scale;
}

/**
 * BucketTrace follows one bucket through a list of takes that happened, with the limiter's
 * arithmetic: a take at `atMs` of `n` tokens spends them whatever the bucket holds (a take the
 * bucket could not have allowed leaves it in debt: empty for longer), so the state it ends in
 * rises with the state it started from. Times are ms and should not go backwards.
 */
export class BucketTrace {
  /** fullAt is when the bucket is full, in the limit's units since `epochMs`. */
  private fullAt: number;

  /** constructor starts the bucket at `epochMs`, `missingUnits` (0 or more) from full. */
  constructor(
    readonly limit: Limit,
    private readonly epochMs: number,
    missingUnits = 0,
  ) {
    this.fullAt = Math.max(0, Math.floor(missingUnits));
  }

  private units(atMs: number): number {
    return unitsAt(atMs, this.epochMs, this.limit.scale);
  }

  /** take spends `n` tokens at `atMs`. */
  take(atMs: number, n: number): void {
    if (n > 0) this.fullAt = Math.max(this.fullAt, this.units(atMs)) + n * this.limit.tokenUnits;
  }

  /** missingUnitsAt is how many units the bucket misses at `atMs` (0 when it is full). */
  missingUnitsAt(atMs: number): number {
    return Math.max(0, this.fullAt - this.units(atMs));
  }

  /** levelAt is the bucket's level at `atMs` (no tokens while in debt). */
  levelAt(atMs: number): BucketLevel {
    const missing = this.missingUnitsAt(atMs);
    return { remaining: tokensMissing(this.limit, missing), fullInMs: missing / this.limit.scale };
  }
}
