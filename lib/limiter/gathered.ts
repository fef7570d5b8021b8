import type { BucketStore } from "./bucket-store";
import type { Quota } from "./quota";
import type { QuotaStore } from "./quota-store";

/**
 * Gathered is a decision's working set: the (bucket store, key) pairs of one input, with the
 * execution time in each store's units and each bucket's cutoff, and the (quota store, key)
 * pairs with each quota's count, period start and used tokens. It is reused across calls so a
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
  /** quotaStores, quotas, quotaKeys: the quotas of the decision (one per calendar and key). */
  quotaStores: QuotaStore<unknown>[] = [];
  quotas: Quota[] = [];
  quotaKeys: unknown[] = [];
  /** quotaSlots are the states' slots (-1: absent, 0 used). */
  quotaSlots = new Int32Array(2);
  /** quotaStarts are the periods' starts (ms since the epoch) the decision counts in. */
  quotaStarts = new Float64Array(2);
  /** quotaUsed are the tokens used in those periods before the decision. */
  quotaUsed = new Float64Array(2);
  quotaLength = 0;

  reset(): void {
    for (let i = 0; i < this.length; i++) this.keys[i] = undefined;
    this.length = 0;
    if (this.quotaLength > 0) {
      for (let i = 0; i < this.quotaLength; i++) this.quotaKeys[i] = undefined;
      this.quotaLength = 0;
    }
  }

  /**
   * addQuota appends a quota; a second quota of the same store (the same calendar and key, so
   * the same state) is counted once, at the smaller count.
   */
  addQuota(store: QuotaStore<unknown>, quota: Quota, key: unknown): void {
    for (let i = 0; i < this.quotaLength; i++) {
      if (this.quotaStores[i] === store) {
        if (quota.count < (this.quotas[i] as Quota).count) this.quotas[i] = quota;
        return;
      }
    }
    if (this.quotaLength === this.quotaSlots.length) {
      const slots = new Int32Array(this.quotaLength * 2);
      slots.set(this.quotaSlots);
      this.quotaSlots = slots;
      const starts = new Float64Array(this.quotaLength * 2);
      starts.set(this.quotaStarts);
      this.quotaStarts = starts;
      const used = new Float64Array(this.quotaLength * 2);
      used.set(this.quotaUsed);
      this.quotaUsed = used;
    }
    this.quotaStores[this.quotaLength] = store;
    this.quotas[this.quotaLength] = quota;
    this.quotaKeys[this.quotaLength] = key;
    this.quotaLength++;
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
