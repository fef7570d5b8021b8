import { BucketStore } from "./bucket-store";
import { EARLIEST_EPOCH_MS } from "./calendar";
import { type Clock, systemClock } from "./clock";
import { Decider } from "./decider";
import type { Gathered } from "./gathered";
import { Limit } from "./limit";
import { assertTokens } from "./method-set";
import { Quota } from "./quota";
import { checkQuotaState, type QuotaState, QuotaStore } from "./quota-store";
import type { AnyLimit, KeyFunc, LimitFunc } from "./types";

/** LimiterOptions configures a Limiter. */
export interface LimiterOptions {
  /**
   * clock supplies the time; the default is the monotonic system clock. A limiter with quotas
   * needs a clock reading ms since the Unix epoch (the app's `appClock`): a quota's decision
   * at an earlier reading (before 2000) throws a RangeError rather than count a wrong period.
   */
  clock?: Clock;
  /**
   * sweepIntervalMs, when set, runs `gc()` on that interval. The timer never keeps the process
   * alive; `close()` stops it.
   */
  sweepIntervalMs?: number;
}

/**
 * Limiter decides, per input, whether to allow a request: a key func names the input's buckets,
 * and static limits plus limit funcs name the limits that apply: token-bucket Limits and
 * calendar Quotas, mixed. A decision takes tokens from every bucket and quota or from none.
 * Buckets are owned by the limiter, one per (limit, key); quota state, one per (calendar, key).
 */
export class Limiter<I, K = unknown> extends Decider<I> {
  protected readonly clock: Clock;
  private readonly keyFunc: KeyFunc<I, K>;
  private readonly staticStores: BucketStore<K>[];
  private readonly staticQuotas: Quota[];
  /** staticQuotaStores are the static quotas' stores, in the same order (no lookup per call). */
  private readonly staticQuotaStores: QuotaStore<K>[];
  /** Quota stores by calendar id: a quota edited to another count keeps its state. */
  private readonly quotaStores = new Map<string, QuotaStore<K>>();
  private readonly limitFuncs: LimitFunc<I>[];
  /** Stores by limit id: equal limits share buckets even when built anew per call. */
  private readonly stores = new Map<string, BucketStore<K>>();
  private readonly single: BucketStore<K> | null;
  /** epoch is the clock reading new bucket stores count from; gc moves it up (see rebase). */
  private epoch: number;
  private sweepTimer: ReturnType<typeof setInterval> | undefined;

  constructor(
    keyFunc: KeyFunc<I, K>,
    limitsAndLimitFuncs: AnyLimit | LimitFunc<I> | ReadonlyArray<AnyLimit | LimitFunc<I>> = [],
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
      ? (limitsAndLimitFuncs as ReadonlyArray<AnyLimit | LimitFunc<I>>)
      : [limitsAndLimitFuncs as AnyLimit | LimitFunc<I>];
    const staticStores: BucketStore<K>[] = [];
    this.staticQuotas = [];
    this.staticQuotaStores = [];
    this.limitFuncs = [];
    for (const item of items) {
      if (item instanceof Limit) {
        const store = this.storeFor(item);
        if (!staticStores.includes(store)) staticStores.push(store);
      } else if (item instanceof Quota) {
        if (!(this.epoch >= EARLIEST_EPOCH_MS)) {
          throw new RangeError(
            `a limiter with quotas needs a clock reading ms since the Unix epoch (such as the app's appClock), got ${this.epoch}`,
          );
        }
        this.staticQuotaStores.push(this.quotaStoreFor(item));
        this.staticQuotas.push(item);
      } else if (typeof item === "function") {
        this.limitFuncs.push(item);
      } else {
        throw new TypeError("limitsAndLimitFuncs must hold Limits, Quotas and limit funcs only");
      }
    }
    this.staticStores = staticStores;
    this.single =
      staticStores.length === 1 && this.staticQuotas.length === 0 && this.limitFuncs.length === 0
        ? (staticStores[0] ?? null)
        : null;
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

  /**
   * gc deletes every full bucket and every quota state equal to absence (nothing used, or a
   * period before the current one) and returns how many it deleted; decisions are unchanged.
   */
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
    if (this.quotaStores.size > 0) deleted += this.gcQuotas(now);
    return deleted;
  }

  /**
   * quotaStates lists every quota state held: per key and calendar, the period's start (ms
   * since the epoch) and the tokens used in it; what a restart needs to restore (some may be
   * of a past period until `gc`).
   */
  quotaStates(): QuotaState<K>[] {
    const out: QuotaState<K>[] = [];
    for (const store of this.quotaStores.values()) out.push(...store.states());
    return out;
  }

  /**
   * restoreQuota merges a saved quota state into the limiter, for a `quota` of its calendar
   * (`state.calendarId` must be `quota.calendarId`, else a RangeError): ignored when of a
   * period before the current one (by the clock), else the larger of the held and the saved
   * used counts wins. It reports whether it changed anything.
   */
  restoreQuota(quota: Quota, state: QuotaState<K>): boolean {
    checkQuotaState(quota, state);
    const calendar = quota.calendar;
    calendar.refresh(this.clock.now());
    const store = this.quotaStoreFor(quota);
    return store.restore(state.key, state.startMs, state.used, calendar.startMs);
  }

  /**
   * forget deletes every bucket of `key`, under every limit, and its quota state, under every
   * calendar, and returns how many it deleted: the key starts again from full buckets and
   * unused quotas. (An addition to the Go method set: operators reset
   * a customer.)
   */
  forget(key: K): number {
    let deleted = 0;
    for (const store of this.stores.values()) if (store.delete(key)) deleted++;
    for (const store of this.quotaStores.values()) if (store.delete(key)) deleted++;
    return deleted;
  }

  /**
   * forgetBuckets deletes every bucket of `key`, under every limit, and keeps its quota states
   * (billing state: an operator's reset of a customer's buckets leaves them), and returns how
   * many it deleted.
   */
  forgetBuckets(key: K): number {
    let deleted = 0;
    for (const store of this.stores.values()) if (store.delete(key)) deleted++;
    return deleted;
  }

  /** clear forgets every bucket and every quota state. */
  clear(): void {
    for (const store of this.stores.values()) store.clear();
    for (const store of this.quotaStores.values()) store.clear();
  }

  /** size is the number of buckets and quota states held. */
  get size(): number {
    let size = 0;
    for (const store of this.stores.values()) size += store.size;
    for (const store of this.quotaStores.values()) size += store.size;
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
    const quotas = this.staticQuotas;
    if (quotas.length > 0) {
      for (let i = 0; i < quotas.length; i++) {
        into.addQuota(this.staticQuotaStores[i] as QuotaStore<K>, quotas[i] as Quota, key);
      }
    }
    for (const limitFunc of this.limitFuncs) {
      const result = limitFunc(input);
      if (result == null) continue;
      if (result instanceof Limit) {
        into.add(this.storeFor(result), key);
      } else if (result instanceof Quota) {
        into.addQuota(this.quotaStoreFor(result), result, key);
      } else {
        for (const item of result) {
          if (item instanceof Quota) into.addQuota(this.quotaStoreFor(item), item, key);
          else into.add(this.storeFor(item), key);
        }
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
        throw new TypeError(
          "a limit func must return a Limit, a Quota, an array of them, or nothing",
        );
      }
      store = new BucketStore<K>(limit, this.epoch);
      this.stores.set(limit.id, store);
    }
    return store as BucketStore<K>;
  }

  private quotaStoreFor(quota: Quota): QuotaStore<K> {
    let store = this.quotaStores.get(quota.calendarId);
    if (store === undefined) {
      store = new QuotaStore<K>(quota.calendar);
      this.quotaStores.set(quota.calendarId, store);
    }
    return store;
  }

  /** gcQuotas deletes the quota states equal to absence at `now`, and stores left empty. */
  private gcQuotas(now: number): number {
    let deleted = 0;
    for (const [id, store] of this.quotaStores) {
      if (!(now >= EARLIEST_EPOCH_MS)) continue;
      store.calendar.refresh(now);
      deleted += store.gc(store.calendar.startMs);
      if (store.size === 0 && !this.staticQuotas.some((q) => q.calendarId === id)) {
        this.quotaStores.delete(id);
      }
    }
    return deleted;
  }
}
