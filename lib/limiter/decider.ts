import type { BucketStore } from "./bucket-store";
import type { Clock } from "./clock";
import { DetailsBuilder } from "./details";
import { assertTokens, MethodSet, type SyncResults } from "./method-set";
import type { DebugDetails, Details } from "./types";

/**
 * Gathered is a decision's working set: the (bucket store, key) pairs of one input, with the
 * execution time in each store's units and each bucket's cutoff. It is reused across calls so a
 * decision allocates nothing; decisions are synchronous, so one per decider suffices.
 */
export class Gathered {
  stores: BucketStore<unknown>[] = [];
  keys: unknown[] = [];
  nowUnits = new Float64Array(4);
  cutoffs = new Float64Array(4);
  /** slots found while checking, so consuming needs no second lookup (-1: absent bucket). */
  slots = new Int32Array(4);
  length = 0;

  reset(): void {
    for (let i = 0; i < this.length; i++) this.keys[i] = undefined;
    this.length = 0;
  }

  /** add appends a bucket unless the same store already appears (equal limits count once). */
  add(store: BucketStore<unknown>, key: unknown): void {
    for (let i = 0; i < this.length; i++) {
      if (this.stores[i] === store) return;
    }
    if (this.length === this.nowUnits.length) {
      const nowUnits = new Float64Array(this.length * 2);
      nowUnits.set(this.nowUnits);
      this.nowUnits = nowUnits;
      const cutoffs = new Float64Array(this.length * 2);
      cutoffs.set(this.cutoffs);
      this.cutoffs = cutoffs;
      const slots = new Int32Array(this.length * 2);
      slots.set(this.slots);
      this.slots = slots;
    }
    this.stores[this.length] = store;
    this.keys[this.length] = key;
    this.length++;
  }
}

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
    const allowed = this.check(g, n);
    if (allowed) this.consume(g, n);
    g.reset();
    return allowed;
  }

  protected canTake(input: I, n: number): boolean {
    assertTokens(n);
    const g = this.prepare(input, this.clock.now());
    const allowed = this.check(g, n);
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
    const allowed = this.check(g, n);
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
    if (allowed && take) this.consume(g, n);
    g.reset();
    return details.close();
  }
}
