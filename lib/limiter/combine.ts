import { systemClock } from "./clock";
import { Decider } from "./decider";
import type { Gathered } from "./gathered";
import type { Limiter } from "./limiter";

/**
 * CombinedLimiter is a stack of limiters with the Limiter method set and one all-or-nothing
 * decision across all of them, at one execution time read from the first limiter's clock.
 */
export class CombinedLimiter<I> extends Decider<I> {
  protected readonly clock;
  private readonly limiters: readonly Limiter<I, unknown>[];

  constructor(limiters: readonly Limiter<I, unknown>[]) {
    super();
    // The same limiter twice counts once.
    this.limiters = [...new Set(limiters)];
    this.clock = this.limiters[0]?.clockForCombine ?? systemClock;
  }

  protected gatherInto(input: I, into: Gathered): void {
    for (const limiter of this.limiters) limiter.gatherInto(input, into);
  }

  /** gc runs `gc` on every limiter and returns the total deleted. */
  gc(): number {
    let deleted = 0;
    for (const limiter of this.limiters) deleted += limiter.gc();
    return deleted;
  }

  /** clear forgets every bucket of every limiter. */
  clear(): void {
    for (const limiter of this.limiters) limiter.clear();
  }

  /** size is the number of buckets held across the limiters. */
  get size(): number {
    let size = 0;
    for (const limiter of this.limiters) size += limiter.size;
    return size;
  }
}

/**
 * combine stacks limiters into one: a decision takes tokens from every bucket of every limiter,
 * or from none. With no limiters it allows everything.
 */
export function combine<I>(...limiters: Limiter<I, unknown>[]): CombinedLimiter<I> {
  return new CombinedLimiter(limiters);
}
