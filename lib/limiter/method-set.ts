import type { Clock } from "./clock";
import type { DebugDetails, Details, WaitOptions } from "./types";
import { waitUntilAllowed } from "./wait";

/**
 * Results names what a method set's decisions return: a verdict (`allowed`), Details
 * (`details`) and Details with each bucket's (`debug`), as values or as Promises of them.
 */
export interface Results {
  allowed: boolean | Promise<boolean>;
  details: Details | Promise<Details>;
  debug: DebugDetails<unknown> | Promise<DebugDetails<unknown>>;
}

/** SyncResults are the results of a synchronous method set (the in-memory limiter's). */
export interface SyncResults {
  allowed: boolean;
  details: Details;
  debug: DebugDetails;
}

/** AsyncResults are the results of an asynchronous method set with bucket keys `K` (Redis's). */
export interface AsyncResults<K> {
  allowed: Promise<boolean>;
  details: Promise<Details>;
  debug: Promise<DebugDetails<K>>;
}

/** assertTokens throws a RangeError unless `n` is a non-negative safe integer. */
export function assertTokens(n: number): void {
  if (!Number.isSafeInteger(n) || n < 0) {
    throw new RangeError(`n must be a non-negative integer, got ${n}`);
  }
}

/**
 * MethodSet is the Limiter method set, written once for every storage: each method names a
 * decision of `n` tokens over the input's buckets that takes them (allow) or not (peek), and
 * what it reports. A storage implements the three decisions, returning `R`: values in memory,
 * Promises over Redis.
 */
export abstract class MethodSet<I, R extends Results> {
  /** clock is the time `wait` sleeps on when it has a `sleep`; without one, real time. */
  protected abstract readonly clock: Clock | undefined;

  // tryTake and canTake are two primitives rather than one with a `take` flag: in memory one
  // function would carry the consuming code into every peekN caller's inlined loop (allowN and
  // peekN measured 5 to 10% slower so).
  /** tryTake takes `n` tokens from every bucket of `input`, or none; true when it took them. */
  protected abstract tryTake(input: I, n: number): R["allowed"];
  /** canTake reports whether `tryTake` would take the tokens now, changing nothing. */
  protected abstract canTake(input: I, n: number): R["allowed"];
  /** decideDetails decides `n` tokens for `input`, taking them if allowed and `take` is set. */
  protected abstract decideDetails(input: I, n: number, take: boolean): R["details"];
  /** decideDebug is `decideDetails` reporting each bucket's Details too. */
  protected abstract decideDebug(input: I, n: number, take: boolean): R["debug"];

  /** allow takes one token from every bucket of the input, or none; true when it took them. */
  allow(input: I): R["allowed"] {
    return this.allowN(input, 1);
  }

  /** allowN takes `n` tokens from every bucket of the input, or none. */
  allowN(input: I, n: number): R["allowed"] {
    return this.tryTake(input, n);
  }

  /** allowWithDetails is `allow` reporting the decision's Details. */
  allowWithDetails(input: I): R["details"] {
    return this.allowNWithDetails(input, 1);
  }

  /** allowNWithDetails is `allowN` reporting the decision's Details. */
  allowNWithDetails(input: I, n: number): R["details"] {
    return this.decideDetails(input, n, true);
  }

  /** allowWithDebug is `allow` reporting Details and each bucket's. */
  allowWithDebug(input: I): R["debug"] {
    return this.allowNWithDebug(input, 1);
  }

  /** allowNWithDebug is `allowN` reporting Details and each bucket's. */
  allowNWithDebug(input: I, n: number): R["debug"] {
    return this.decideDebug(input, n, true);
  }

  /** peek reports whether `allow` would succeed now, consuming nothing and creating no bucket. */
  peek(input: I): R["allowed"] {
    return this.peekN(input, 1);
  }

  /** peekN reports whether `allowN` would succeed now, consuming nothing and creating no bucket. */
  peekN(input: I, n: number): R["allowed"] {
    return this.canTake(input, n);
  }

  /**
   * peekWithDetails is `peek` with Details: `tokensConsumed` is 0 and `tokensRemaining` the
   * tokens there are now; `retryAfterMs` is as `allow` would report it.
   */
  peekWithDetails(input: I): R["details"] {
    return this.peekNWithDetails(input, 1);
  }

  /** peekNWithDetails is `peekN` with Details (see `peekWithDetails`). */
  peekNWithDetails(input: I, n: number): R["details"] {
    return this.decideDetails(input, n, false);
  }

  /** peekWithDebug is `peek` with Details and each bucket's. */
  peekWithDebug(input: I): R["debug"] {
    return this.peekNWithDebug(input, 1);
  }

  /** peekNWithDebug is `peekN` with Details and each bucket's. */
  peekNWithDebug(input: I, n: number): R["debug"] {
    return this.decideDebug(input, n, false);
  }

  /** wait resolves with the Details of the first allowed `allow`; see `waitN`. */
  wait(input: I, options?: WaitOptions): Promise<Details> {
    return this.waitN(input, 1, options);
  }

  /**
   * waitN retries `allowN` after each retry-after until it is allowed and resolves with its
   * Details. It rejects with the signal's reason when `options.signal` aborts, and with a
   * RangeError when `n` exceeds a limit's count (it could never pass).
   */
  async waitN(input: I, n: number, options?: WaitOptions): Promise<Details> {
    assertTokens(n);
    return waitUntilAllowed(() => this.allowNWithDetails(input, n), n, this.clock, options?.signal);
  }
}
