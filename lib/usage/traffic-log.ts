import type { DecisionCounts, TrafficPoint } from "@/lib/schemas/traffic-answer.schema";
import type { Operation } from "@/lib/vocabulary";

/** TrafficPoint is one second of decisions (its definition: the traffic answer's schema). */
export type { TrafficPoint };

/** TrafficTotals are a customer's allowed and denied decisions over a span. */
export type TrafficTotals = DecisionCounts;

/** TrafficFilter narrows the live view to one customer or one operation. */
export interface TrafficFilter {
  customerId?: number;
  operation?: Operation;
}

/**
 * TakenSecond is one second of one customer's decisions for one operation, as the bucket
 * history replays them: `t` is the second's start (ms since the epoch), `taken` the tokens its
 * allowed decisions took, `firstMs` and `lastMs` when the first and the last of those came (ms
 * into the second, 0 to 999; both 0 when none was allowed).
 */
export interface TakenSecond {
  t: number;
  allowed: number;
  denied: number;
  taken: number;
  firstMs: number;
  lastMs: number;
}

/** NO_OFFSET marks a second in which nothing was allowed yet. */
const NO_OFFSET = 0xffff;

class Series {
  readonly seconds: Float64Array;
  readonly allowed: Uint32Array;
  readonly denied: Uint32Array;
  readonly taken: Uint32Array;
  /** first and last allowed decision of each second, in ms into it (NO_OFFSET: none yet). */
  readonly first: Uint16Array;
  readonly last: Uint16Array;
  constructor(
    readonly customerId: number,
    readonly operation: Operation,
    size: number,
  ) {
    this.seconds = new Float64Array(size).fill(-1);
    this.allowed = new Uint32Array(size);
    this.denied = new Uint32Array(size);
    this.taken = new Uint32Array(size);
    this.first = new Uint16Array(size);
    this.last = new Uint16Array(size);
  }

  /** takenAt reads one slot as a TakenSecond of second `sec`. */
  takenAt(slot: number, sec: number): TakenSecond {
    const first = this.first[slot] as number;
    return {
      t: sec * 1000,
      allowed: this.allowed[slot] as number,
      denied: this.denied[slot] as number,
      taken: this.taken[slot] as number,
      firstMs: first === NO_OFFSET ? 0 : first,
      lastMs: first === NO_OFFSET ? 0 : (this.last[slot] as number),
    };
  }
}

/**
 * TrafficLog counts allowed and denied decisions per second, per customer and operation, for
 * the last `windowSeconds` seconds, in memory, in fixed-size ring buffers: this instance's live
 * view (with Redis, each second is also pushed for the fleet's; see LiveTrafficPusher). With
 * each second it keeps the tokens taken and when the first and last allowed decision came, so
 * that a bucket's level can be replayed (see bucket-history.ts).
 */
export class TrafficLog {
  /** byCustomer holds each customer's series by class: two lookups, no string built per decision. */
  private readonly byCustomer = new Map<number, Map<Operation, Series>>();
  readonly windowSeconds: number;

  constructor(windowSeconds = 300) {
    this.windowSeconds = windowSeconds;
  }

  /**
   * record counts one decision at `now` (ms since the epoch) and the tokens it took (by default
   * one when allowed, none when denied).
   */
  record(
    customerId: number,
    operation: Operation,
    allowed: boolean,
    now: number,
    tokensTaken: number = allowed ? 1 : 0,
  ): void {
    let mine = this.byCustomer.get(customerId);
    if (!mine) {
      mine = new Map();
      this.byCustomer.set(customerId, mine);
    }
    let s = mine.get(operation);
    if (!s) {
      s = new Series(customerId, operation, this.windowSeconds);
      mine.set(operation, s);
    }
    const second = Math.floor(now / 1000);
    const slot = second % this.windowSeconds;
    if (s.seconds[slot] !== second) {
      s.seconds[slot] = second;
      s.allowed[slot] = 0;
      s.denied[slot] = 0;
      s.taken[slot] = 0;
      s.first[slot] = NO_OFFSET;
      s.last[slot] = 0;
    }
    if (!allowed) {
      s.denied[slot] = (s.denied[slot] as number) + 1;
      return;
    }
    s.allowed[slot] = (s.allowed[slot] as number) + 1;
    s.taken[slot] = (s.taken[slot] as number) + tokensTaken;
    const offset = Math.min(999, Math.max(0, Math.floor(now - second * 1000)));
    if (offset < (s.first[slot] as number)) s.first[slot] = offset;
    if (offset > (s.last[slot] as number)) s.last[slot] = offset;
  }

  /**
   * takenSeconds returns, for each of the customers, each operation's seconds with decisions
   * among the last `seconds` seconds up to `now`, oldest first, keyed "<customerId>|<operation>".
   */
  takenSeconds(
    now: number,
    seconds: number,
    customerIds: readonly number[],
  ): Map<string, TakenSecond[]> {
    const last = Math.floor(now / 1000);
    const first = last - Math.min(Math.max(1, Math.floor(seconds)), this.windowSeconds) + 1;
    const result = new Map<string, TakenSecond[]>();
    for (const customerId of customerIds) {
      for (const [operation, s] of this.byCustomer.get(customerId) ?? []) {
        const list: TakenSecond[] = [];
        for (let sec = first; sec <= last; sec++) {
          const slot = sec % this.windowSeconds;
          if (s.seconds[slot] === sec) list.push(s.takenAt(slot, sec));
        }
        if (list.length > 0) result.set(`${customerId}|${operation}`, list);
      }
    }
    return result;
  }

  /**
   * points returns one point per second for the last `seconds` seconds up to `now`, oldest
   * first, summed over the series that match the filter.
   */
  points(now: number, seconds: number, filter: TrafficFilter = {}): TrafficPoint[] {
    const span = Math.min(Math.max(1, Math.floor(seconds)), this.windowSeconds);
    const last = Math.floor(now / 1000);
    const out: TrafficPoint[] = [];
    for (let sec = last - span + 1; sec <= last; sec++)
      out.push({ t: sec * 1000, allowed: 0, denied: 0 });
    for (const s of this.allSeries()) {
      if (filter.customerId !== undefined && s.customerId !== filter.customerId) continue;
      if (filter.operation !== undefined && s.operation !== filter.operation) continue;
      for (const point of out) {
        const sec = point.t / 1000;
        const slot = sec % this.windowSeconds;
        if (s.seconds[slot] === sec) {
          point.allowed += s.allowed[slot] as number;
          point.denied += s.denied[slot] as number;
        }
      }
    }
    return out;
  }

  /**
   * totals returns allowed and denied counts per customer over the last `seconds` seconds, for
   * the customers with decisions in them.
   */
  totals(now: number, seconds: number): Map<number, TrafficTotals> {
    const last = Math.floor(now / 1000);
    const first = last - Math.min(seconds, this.windowSeconds) + 1;
    const result = new Map<number, TrafficTotals>();
    for (const s of this.allSeries()) {
      let allowed = 0;
      let denied = 0;
      for (let slot = 0; slot < this.windowSeconds; slot++) {
        const sec = s.seconds[slot] as number;
        if (sec >= first && sec <= last) {
          allowed += s.allowed[slot] as number;
          denied += s.denied[slot] as number;
        }
      }
      if (allowed + denied === 0) continue;
      const total = result.get(s.customerId) ?? { allowed: 0, denied: 0 };
      total.allowed += allowed;
      total.denied += denied;
      result.set(s.customerId, total);
    }
    return result;
  }

  /**
   * totalsOf returns allowed and denied counts over the last `seconds` seconds for the given
   * customers only (zero for those with no traffic): the cost of a page, not of every customer.
   */
  totalsOf(
    now: number,
    seconds: number,
    customerIds: readonly number[],
  ): Map<number, TrafficTotals> {
    const last = Math.floor(now / 1000);
    const first = last - Math.min(seconds, this.windowSeconds) + 1;
    const result = new Map<number, TrafficTotals>();
    for (const customerId of customerIds) {
      const total = { allowed: 0, denied: 0 };
      for (const s of this.byCustomer.get(customerId)?.values() ?? []) {
        for (let slot = 0; slot < this.windowSeconds; slot++) {
          const sec = s.seconds[slot] as number;
          if (sec >= first && sec <= last) {
            total.allowed += s.allowed[slot] as number;
            total.denied += s.denied[slot] as number;
          }
        }
      }
      result.set(customerId, total);
    }
    return result;
  }

  /**
   * forEachSecond calls `visit` for every series' second in the whole seconds [fromSecond,
   * toSecond] (seconds since the epoch) that the window still holds and that is not zero.
   */
  forEachSecond(
    fromSecond: number,
    toSecond: number,
    visit: (customerId: number, operation: Operation, second: number, counts: TakenSecond) => void,
  ): void {
    const first = Math.max(fromSecond, toSecond - this.windowSeconds + 1);
    for (const s of this.allSeries()) {
      for (let sec = first; sec <= toSecond; sec++) {
        const slot = sec % this.windowSeconds;
        if (s.seconds[slot] !== sec) continue;
        if ((s.allowed[slot] as number) + (s.denied[slot] as number) > 0) {
          visit(s.customerId, s.operation, sec, s.takenAt(slot, sec));
        }
      }
    }
  }

  /** forgetCustomer drops a deleted customer's series. */
  forgetCustomer(customerId: number): void {
    this.byCustomer.delete(customerId);
  }

  /** allSeries yields every series, customer by customer. */
  private *allSeries(): Generator<Series> {
    for (const mine of this.byCustomer.values()) yield* mine.values();
  }
}
