import { BucketStore } from "./bucket-store";
import { type Clock, systemClock } from "./clock";
import { Decider, type Gathered } from "./decider";
import { Limit } from "./limit";
import { assertTokens } from "./method-set";
import type { KeyFunc, LimitFunc } from "./types";

/** LimiterOptions configures a Limiter. */
export interface LimiterOptions {
  /** clock supplies the time; the default is the monotonic system clock. */
  clock?: Clock;
  /**
   * sweepIntervalMs, when set, runs `gc()` on that interval. The timer never keeps the process
   * alive; `close()` stops it.
   */
  sweepIntervalMs?: number;
}

/**
 * Limiter decides, per input, whether to allow a request: a key func names the input's buckets,
 * and static limits plus limit funcs name the limits that apply. A decision takes tokens from
 * every bucket or from none. Buckets are owned by the limiter, one per (limit, key).
 */
export class Limiter<I, K = unknown> extends Decider<I> {
  protected readonly clock: Clock;
  private readonly keyFunc: KeyFunc<I, K>;
  private readonly staticStores: BucketStore<K>[];
  private readonly limitFuncs: LimitFunc<I>[];
  /** Stores by limit id: equal limits share buckets even when built anew per call. */
  private readonly stores = new Map<string, BucketStore<K>>();
  private readonly single: BucketStore<K> | null;
  /** epoch is the clock reading new bucket stores count from; gc moves it up (see rebase). */
  private epoch: number;
  private sweepTimer: ReturnType<typeof setInterval> | undefined;

  constructor(
    keyFunc: KeyFunc<I, K>,
    limitsAndLimitFuncs: Limit | LimitFunc<I> | ReadonlyArray<Limit | LimitFunc<I>> = [],
    options: LimiterOptions = {},
  ) {
    super();
    if (typeof keyFunc !== "function") {
      throw new TypeError("keyFunc must be a function");
    }
    this.keyFunc = keyFunc;
    this.clock = options.clock ?? systemClock;
    this.epoch = this.clock.now();
    const items = Array.isArray(limitsAndLimitFuncs)
      ? (limitsAndLimitFuncs as ReadonlyArray<Limit | LimitFunc<I>>)
      : [limitsAndLimitFuncs as Limit | LimitFunc<I>];
    const staticStores: BucketStore<K>[] = [];
    this.limitFuncs = [];
    for (const item of items) {
      if (item instanceof Limit) {
        const store = this.storeFor(item);
        if (!staticStores.includes(store)) staticStores.push(store);
      } else if (typeof item === "function") {
        this.limitFuncs.push(item);
      } else {
        throw new TypeError("limitsAndLimitFuncs must hold Limits and limit funcs only");
      }
    }
    this.staticStores = staticStores;
    this.single =
      staticStores.length === 1 && this.limitFuncs.length === 0 ? (staticStores[0] ?? null) : null;
    const sweep = options.sweepIntervalMs;
    if (sweep !== undefined) {
      if (!Number.isFinite(sweep) || sweep <= 0) {
        throw new RangeError(`sweepIntervalMs must be a positive number, got ${sweep}`);
      }
      this.sweepTimer = setInterval(() => this.gc(), sweep);
      (this.sweepTimer as { unref?: () => void }).unref?.();
    }
  }

  override allow(input: I): boolean {
    const single = this.single;
    if (single !== null) return single.take(this.keyFunc(input), this.clock.now(), 1);
    return this.allowN(input, 1);
  }

  override allowN(input: I, n: number): boolean {
    const single = this.single;
    if (single !== null && n >= 1 && Number.isSafeInteger(n)) {
      return single.take(this.keyFunc(input), this.clock.now(), n);
    }
    assertTokens(n);
    return super.allowN(input, n);
  }

  /** gc deletes every full bucket and returns how many it deleted; decisions are unchanged. */
  gc(): number {
    const now = this.clock.now();
    // Whole milliseconds, so a store created after this counts in step with the older ones.
    this.epoch += Math.max(0, Math.floor(now - this.epoch));
    let deleted = 0;
    for (const [id, store] of this.stores) {
      deleted += store.gc(now);
      // A limit no longer used (an edited plan, say) leaves an empty store behind: drop it.
      if (store.size === 0 && !this.staticStores.includes(store)) this.stores.delete(id);
    }
    return deleted;
  }

  /**
   * forget deletes every bucket of `key`, under every limit, and returns how many it deleted:
   * the key starts again from full buckets. (An addition to the Go method set: operators reset
   * a customer.)
   */
  forget(key: K): number {
    let deleted = 0;
    for (const store of this.stores.values()) if (store.delete(key)) deleted++;
    return deleted;
  }

  /** clear forgets every bucket. */
  clear(): void {
    for (const store of this.stores.values()) store.clear();
  }

  /** size is the number of buckets held. */
  get size(): number {
    let size = 0;
    for (const store of this.stores.values()) size += store.size;
    return size;
  }

  /** close stops the automatic sweep, if any. The limiter keeps working. */
  close(): void {
    if (this.sweepTimer !== undefined) clearInterval(this.sweepTimer);
    this.sweepTimer = undefined;
  }

  /** @internal Lists this limiter's buckets for `input` into a decision's working set. */
  gatherInto(input: I, into: Gathered): void {
    const key = this.keyFunc(input);
    for (const store of this.staticStores) into.add(store, key);
    for (const limitFunc of this.limitFuncs) {
      const result = limitFunc(input);
      if (result == null) continue;
      if (result instanceof Limit) {
        into.add(this.storeFor(result), key);
      } else {
        for (const item of result) into.add(this.storeFor(item), key);
      }
    }
  }

  /** @internal The clock a combination of limiters reads. */
  get clockForCombine(): Clock {
    return this.clock;
  }

  private storeFor(limit: Limit): BucketStore<K> {
    let store = this.stores.get(limit.id);
    if (store === undefined) {
      if (!(limit instanceof Limit)) {
        throw new TypeError("a limit func must return a Limit, an array of Limits, or nothing");
      }
      store = new BucketStore<K>(limit, this.epoch);
      this.stores.set(limit.id, store);
    }
    return store as BucketStore<K>;
  }
}
