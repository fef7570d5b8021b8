import { retryAfterMs, unitsAt, wholeTokens } from "./bucket-arithmetic";
import type { Limit } from "./limit";

const INITIAL_SLOTS = 16;
/** Past this many units since the epoch, `gc` moves the epoch up so numbers stay exact (< 2^53). */
const REBASE_UNITS = 2 ** 50;

/**
 * BucketStore holds the buckets of one limit within one limiter, keyed by the limiter's keys.
 *
 * A bucket is one number: the time, in the limit's internal units since the limiter's epoch, up
 * to which its tokens are spent. Times live unboxed in a Float64Array and the map holds a slot
 * index (a small integer), so taking a token writes a number in place and allocates nothing.
 * An absent bucket is a full one; `gc` deletes full buckets and recycles their slots.
 */
export class BucketStore<K> {
  readonly limit: Limit;
  readonly count: number;
  readonly scale: number;
  readonly tokenUnits: number;
  readonly periodUnits: number;
  private epoch: number;
  private readonly slots = new Map<K, number>();
  private times = new Float64Array(INITIAL_SLOTS);
  private free: number[] = [];
  private next = 0;

  constructor(limit: Limit, epoch: number) {
    this.limit = limit;
    this.count = limit.count;
    this.scale = limit.scale;
    this.tokenUnits = limit.tokenUnits;
    this.periodUnits = limit.periodUnits;
    this.epoch = epoch;
  }

  /** size is the number of buckets held. */
  get size(): number {
    return this.slots.size;
  }

  /** units converts a clock reading (ms) to this limit's whole internal units. */
  units(now: number): number {
    return unitsAt(now, this.epoch, this.scale);
  }

  /**
   * retryAfterMs is how long (ms) after `now` (`nowUnits` in this store's units) a bucket has `n`
   * tokens, when it has them at `dueUnits` (a whole number); Infinity when `n` exceeds the count.
   */
  retryAfterMs(n: number, now: number, nowUnits: number, dueUnits: number): number {
    return retryAfterMs(this.limit, n, now, this.epoch, nowUnits, dueUnits);
  }

  /** slotOf returns the slot of a key's bucket, or -1 when the bucket is absent (full). */
  slotOf(key: K): number {
    const slot = this.slots.get(key);
    return slot === undefined ? -1 : slot;
  }

  /** cutoffAt is a bucket's effective time at `nowUnits`: never earlier than one period ago. */
  cutoffAt(slot: number, nowUnits: number): number {
    const floor = nowUnits - this.periodUnits;
    return slot < 0 ? floor : Math.max(this.times[slot] as number, floor);
  }

  /** tokens is the whole number of tokens between `cutoff` and `nowUnits`, within 0..count. */
  tokens(cutoff: number, nowUnits: number): number {
    return wholeTokens(nowUnits - cutoff, this.tokenUnits);
  }

  /** write stores a bucket's time in its slot (from `slotOf`), creating the bucket if absent. */
  write(slot: number, key: K, time: number): void {
    // allocate may replace `times`: take the slot first, then read the (new) array.
    const at = slot < 0 ? this.allocate(key) : slot;
    this.times[at] = time;
  }

  /**
   * take is the single-limit fast path of a decision: it consumes `n` (at least 1) tokens and
   * returns true, or changes nothing and returns false.
   */
  take(key: K, now: number, n: number): boolean {
    const nowUnits = unitsAt(now, this.epoch, this.scale);
    const floor = nowUnits - this.periodUnits;
    const slot = this.slots.get(key);
    if (slot === undefined) {
      if (n > this.count) return false;
      // allocate may replace `times`: take the slot first, then read the (new) array.
      const fresh = this.allocate(key);
      this.times[fresh] = floor + n * this.tokenUnits;
      return true;
    }
    const t = this.times[slot] as number;
    const spent = Math.max(t, floor) + n * this.tokenUnits;
    if (spent > nowUnits) return false;
    this.times[slot] = spent;
    return true;
  }

  /** delete forgets one key's bucket and reports whether there was one. */
  delete(key: K): boolean {
    const slot = this.slots.get(key);
    if (slot === undefined) return false;
    this.slots.delete(key);
    this.free.push(slot);
    return true;
  }

  /** gc deletes the buckets that are full at `now` and returns how many it deleted. */
  gc(now: number): number {
    const floor = this.units(now) - this.periodUnits;
    let deleted = 0;
    for (const [key, slot] of this.slots) {
      if ((this.times[slot] as number) <= floor) {
        this.slots.delete(key);
        this.free.push(slot);
        deleted++;
      }
    }
    if (this.slots.size === 0) this.clear();
    this.rebase(now);
    return deleted;
  }

  /** clear forgets every bucket and releases the slot storage. */
  clear(): void {
    this.slots.clear();
    this.times = new Float64Array(INITIAL_SLOTS);
    this.free = [];
    this.next = 0;
  }

  /**
   * rebase moves the epoch up to about one period before `now` once time since the epoch nears
   * 2^53 units, shifting every bucket by the same whole number of units: decisions are unchanged
   * and arithmetic stays exact however long the process runs (as long as gc runs now and then).
   */
  private rebase(now: number): void {
    if (this.units(now) < REBASE_UNITS) return;
    const shiftMs = Math.floor(now - this.epoch) - this.limit.periodMs;
    if (shiftMs <= 0) return;
    const shiftUnits = shiftMs * this.scale;
    for (const slot of this.slots.values())
      this.times[slot] = (this.times[slot] as number) - shiftUnits;
    this.epoch += shiftMs;
  }

  private allocate(key: K): number {
    let slot = this.free.pop();
    if (slot === undefined) {
      slot = this.next++;
      if (slot === this.times.length) {
        const grown = new Float64Array(this.times.length * 2);
        grown.set(this.times);
        this.times = grown;
      }
    }
    this.slots.set(key, slot);
    return slot;
  }
}
