import type { BucketStore } from "./bucket-store";
import type { Clock } from "./clock";
import { DetailsBuilder } from "./details";
import { Gathered } from "./gathered";
import { assertTokens, MethodSet, type SyncResults } from "./method-set";
import type { Quota } from "./quota";
import type { QuotaStore } from "./quota-store";
import type { DebugDetails, Details } from "./types";

/**
 * Decider implements the method set (MethodSet) shared by a Limiter and a combination of
 * limiters, synchronously, over in-memory buckets: on top of `gather`, which lists the buckets
 * an input touches, it checks them and consumes from them.
 */
export abstract class Decider<I> extends MethodSet<I, SyncResults> {
  protected abstract override readonly clock: Clock;
  protected readonly gathered = new Gathered();
  /** details assembles a decision's Details, reused as `gathered` is (nothing runs in between). */
  private readonly details = new DetailsBuilder<unknown>();

  /** gather lists the input's buckets into `into`, in order: limiter, then limit. */
  protected abstract gatherInto(input: I, into: Gathered): void;
  /** gc deletes every full bucket and returns how many it deleted; decisions are unchanged. */
  abstract gc(): number;
  /** clear forgets every bucket. */
  abstract clear(): void;
  /** size is the number of buckets held. */
  abstract get size(): number;

  protected tryTake(input: I, n: number): boolean {
    assertTokens(n);
    const g = this.prepare(input, this.clock.now());
    // The quotas' loops run only when there are quotas: the buckets' loops stay as small as
    // they were, and inline as they did (a decision without quotas measured no slower so).
    const allowed = this.check(g, n) && (g.quotaLength === 0 || checkQuotas(g, n));
    if (allowed) {
      this.consume(g, n);
      if (g.quotaLength > 0) consumeQuotas(g, n);
    }
    g.reset();
    return allowed;
  }

  protected canTake(input: I, n: number): boolean {
    assertTokens(n);
    const g = this.prepare(input, this.clock.now());
    const allowed = this.check(g, n) && (g.quotaLength === 0 || checkQuotas(g, n));
    g.reset();
    return allowed;
  }

  protected decideDetails(input: I, n: number, take: boolean): Details {
    return this.decide(input, n, take, false);
  }

  protected decideDebug(input: I, n: number, take: boolean): DebugDetails {
    return this.decide(input, n, take, true) as DebugDetails;
  }

  private prepare(input: I, now: number): Gathered {
    const g = this.gathered;
    g.reset();
    this.gatherInto(input, g);
    for (let i = 0; i < g.length; i++) {
      const store = g.stores[i] as BucketStore<unknown>;
      const nowUnits = store.units(now);
      g.nowUnits[i] = nowUnits;
      const slot = store.slotOf(g.keys[i]);
      g.slots[i] = slot;
      g.cutoffs[i] = store.cutoffAt(slot, nowUnits);
    }
    if (g.quotaLength > 0) prepareQuotas(g, now);
    return g;
  }

  private check(g: Gathered, n: number): boolean {
    if (n === 0) return true;
    for (let i = 0; i < g.length; i++) {
      const store = g.stores[i] as BucketStore<unknown>;
      if ((g.cutoffs[i] as number) + n * store.tokenUnits > (g.nowUnits[i] as number)) return false;
    }
    return true;
  }

  private consume(g: Gathered, n: number): void {
    if (n === 0) return;
    for (let i = 0; i < g.length; i++) {
      const store = g.stores[i] as BucketStore<unknown>;
      store.write(g.slots[i] as number, g.keys[i], (g.cutoffs[i] as number) + n * store.tokenUnits);
    }
  }

  private decide(input: I, n: number, take: boolean, debug: boolean): Details | DebugDetails {
    assertTokens(n);
    const now = this.clock.now();
    const g = this.prepare(input, now);
    const allowed = this.check(g, n) && (g.quotaLength === 0 || checkQuotas(g, n));
    const details = this.details;
    details.open(allowed, now, n, take, debug);
    const consumed = details.consumed;
    for (let i = 0; i < g.length; i++) {
      const store = g.stores[i] as BucketStore<unknown>;
      const nowUnits = g.nowUnits[i] as number;
      const cutoff = g.cutoffs[i] as number;
      const spent = cutoff + n * store.tokenUnits;
      const ownAllowed = n === 0 || spent <= nowUnits;
      details.add(
        store.limit,
        g.keys[i],
        store.tokens(cutoff, nowUnits),
        ownAllowed,
        // Clock readings count in whole units: the tokens are due at the first whole unit at or
        // after their time (the same instant for whole-millisecond periods).
        ownAllowed ? 0 : store.retryAfterMs(n, now, nowUnits, Math.ceil(spent)),
        (cutoff + consumed * store.tokenUnits + store.periodUnits - nowUnits) / store.scale,
      );
    }
    for (let i = 0; i < g.quotaLength; i++) {
      const quota = g.quotas[i] as Quota;
      const startMs = g.quotaStarts[i] as number;
      const calendar = quota.calendar;
      const endMs =
        startMs === calendar.startMs ? calendar.endMs : calendar.windowAt(startMs).endMs;
      details.addQuota(quota, g.quotaKeys[i], g.quotaUsed[i] as number, startMs, endMs);
    }
    if (allowed && take) {
      this.consume(g, n);
      if (g.quotaLength > 0) consumeQuotas(g, n);
    }
    g.reset();
    return details.close();
  }
}

/**
 * prepareQuotas reads each quota's state at `now` (ms since the epoch): the period it counts in
 * and the tokens used then (0 for a state of an earlier period). The period comes from the
 * calendar's cache, so a decision within it calls no Temporal.
 */
function prepareQuotas(g: Gathered, now: number): void {
  for (let i = 0; i < g.quotaLength; i++) {
    (g.quotaStores[i] as QuotaStore<unknown>).readInto(g, i, now);
  }
}

/** checkQuotas reports whether every quota of the decision has `n` tokens left. */
function checkQuotas(g: Gathered, n: number): boolean {
  if (n === 0) return true;
  for (let i = 0; i < g.quotaLength; i++) {
    if ((g.quotaUsed[i] as number) + n > (g.quotas[i] as Quota).count) return false;
  }
  return true;
}

/** consumeQuotas adds `n` tokens to every quota's used count, in the period it counts in. */
function consumeQuotas(g: Gathered, n: number): void {
  if (n === 0) return;
  for (let i = 0; i < g.quotaLength; i++) {
    (g.quotaStores[i] as QuotaStore<unknown>).write(
      g.quotaSlots[i] as number,
      g.quotaKeys[i],
      g.quotaStarts[i] as number,
      (g.quotaUsed[i] as number) + n,
    );
  }
}
