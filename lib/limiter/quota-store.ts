import type { Calendar } from "./calendar";
import type { Gathered } from "./gathered";
import type { Quota } from "./quota";

const INITIAL_SLOTS = 16;

/**
 * QuotaState is one key's quota state under one calendar: the start of the period it counts
 * (ms since the Unix epoch) and the tokens used in it. What persistence saves and restores.
 */
export interface QuotaState<K = unknown> {
  key: K;
  calendarId: string;
  startMs: number;
  used: number;
}

/**
 * checkQuotaState throws a RangeError unless `state` can be restored into `quota`: of its
 * calendar, with a whole start (ms since the epoch) and a whole, non-negative used count.
 */
export function checkQuotaState(quota: Quota, state: QuotaState): void {
  if (state.calendarId !== quota.calendarId) {
    throw new RangeError(
      `a quota state of calendar ${state.calendarId} cannot be restored into a quota of ${quota.calendarId}`,
    );
  }
  if (!Number.isSafeInteger(state.used) || state.used < 0 || !Number.isSafeInteger(state.startMs)) {
    throw new RangeError("a quota state needs a whole startMs and a whole used count");
  }
}

/**
 * QuotaStore holds the quota state of one calendar within one limiter, keyed by the limiter's
 * keys: per key the start of the period it counts and the tokens used then, unboxed in two
 * Float64Arrays behind a map of slot indexes, so a decision writes numbers in place and
 * allocates nothing. State from a period before the current one counts as 0 used; an absent key
 * is 0 used, so `gc` deletes both.
 */
export class QuotaStore<K> {
  readonly calendar: Calendar;
  private readonly slots = new Map<K, number>();
  private starts = new Float64Array(INITIAL_SLOTS);
  private used = new Float64Array(INITIAL_SLOTS);
  private free: number[] = [];
  private next = 0;
  /**
   * lastKey and lastSlot remember the last key read and its slot (-1: none), so a hot key's
   * decisions skip the map lookup; anything that removes a key forgets them.
   */
  private lastKey: K | undefined = undefined;
  private lastSlot = -1;

  constructor(calendar: Calendar) {
    this.calendar = calendar;
  }

  /** size is the number of keys with state. */
  get size(): number {
    return this.slots.size;
  }

  /** slotOf returns the slot of a key's state, or -1 when it has none (0 used). */
  slotOf(key: K): number {
    const slot = this.slots.get(key);
    return slot === undefined ? -1 : slot;
  }

  /**
   * readInto reads the state of the `i`-th quota of a decision's working set at `now` (ms since
   * the epoch) into it, in one call (this is the hot path): its slot, the start of the period it
   * counts in (the calendar's current one, or the state's own when later: a clock that went
   * back) and the tokens used then (0 for a state of an earlier period).
   */
  readInto(g: Gathered, i: number, now: number): void {
    const calendar = this.calendar;
    if (!(now >= calendar.startMs && now < calendar.endMs)) calendar.refresh(now);
    const current = calendar.startMs;
    const key = g.quotaKeys[i] as K;
    let slot: number | undefined;
    if (this.lastSlot >= 0 && key === this.lastKey) {
      slot = this.lastSlot;
    } else {
      slot = this.slots.get(key);
      if (slot !== undefined) {
        this.lastKey = key;
        this.lastSlot = slot;
      }
    }
    if (slot === undefined) {
      g.quotaSlots[i] = -1;
      g.quotaStarts[i] = current;
      g.quotaUsed[i] = 0;
      return;
    }
    const start = this.starts[slot] as number;
    g.quotaSlots[i] = slot;
    g.quotaStarts[i] = start > current ? start : current;
    g.quotaUsed[i] = start < current ? 0 : (this.used[slot] as number);
  }

  /** usedAt is the tokens used in the period starting at `startMs` by the state at `slot`. */
  private usedAt(slot: number, startMs: number): number {
    if (slot < 0 || (this.starts[slot] as number) < startMs) return 0;
    return this.used[slot] as number;
  }

  /** write sets a key's state (slot from `slotOf`), creating it if absent. */
  write(slot: number, key: K, startMs: number, used: number): void {
    // allocate may replace the arrays: take the slot first, then write the (new) arrays.
    const at = slot < 0 ? this.allocate(key) : slot;
    this.starts[at] = startMs;
    this.used[at] = used;
  }

  /**
   * restore merges a saved state into the current period starting at `currentStartMs`: a state
   * of an earlier period is ignored, one of the current period keeps the larger used count.
   * It reports whether it changed anything.
   */
  restore(key: K, startMs: number, used: number, currentStartMs: number): boolean {
    if (startMs < currentStartMs || !(used > 0)) return false;
    const slot = this.slotOf(key);
    if (slot >= 0 && (this.starts[slot] as number) > startMs) return false;
    const kept = this.usedAt(slot, startMs);
    if (slot >= 0 && (this.starts[slot] as number) === startMs && kept >= used) return false;
    this.write(slot, key, startMs, Math.max(kept, used));
    return true;
  }

  /** states lists every key's state (stale ones too, until `gc`). */
  states(): QuotaState<K>[] {
    const out: QuotaState<K>[] = [];
    for (const [key, slot] of this.slots) {
      out.push({
        key,
        calendarId: this.calendar.id,
        startMs: this.starts[slot] as number,
        used: this.used[slot] as number,
      });
    }
    return out;
  }

  /** delete forgets one key's state and reports whether there was one. */
  delete(key: K): boolean {
    const slot = this.slots.get(key);
    if (slot === undefined) return false;
    this.forgetLast();
    this.slots.delete(key);
    this.free.push(slot);
    return true;
  }

  /**
   * gc deletes the states equal to absence in the period starting at `startMs` (nothing used,
   * or a period before it) and returns how many it deleted.
   */
  gc(startMs: number): number {
    this.forgetLast();
    let deleted = 0;
    for (const [key, slot] of this.slots) {
      if ((this.starts[slot] as number) < startMs || (this.used[slot] as number) === 0) {
        this.slots.delete(key);
        this.free.push(slot);
        deleted++;
      }
    }
    if (this.slots.size === 0) this.clear();
    return deleted;
  }

  /** clear forgets every state and releases the storage. */
  clear(): void {
    this.forgetLast();
    this.slots.clear();
    this.starts = new Float64Array(INITIAL_SLOTS);
    this.used = new Float64Array(INITIAL_SLOTS);
    this.free = [];
    this.next = 0;
  }

  private forgetLast(): void {
    this.lastKey = undefined;
    this.lastSlot = -1;
  }

  private allocate(key: K): number {
    let slot = this.free.pop();
    if (slot === undefined) {
      slot = this.next++;
      if (slot === this.starts.length) {
        const starts = new Float64Array(this.starts.length * 2);
        starts.set(this.starts);
        this.starts = starts;
        const used = new Float64Array(this.used.length * 2);
        used.set(this.used);
        this.used = used;
      }
    }
    this.slots.set(key, slot);
    return slot;
  }
}
