import { OPERATIONS, type Operation } from "@/lib/vocabulary";

/** TrafficPoint is one second of decisions: `t` is the second's start (ms since the epoch). */
export interface TrafficPoint {
  t: number;
  allowed: number;
  denied: number;
}

class Series {
  readonly seconds: Float64Array;
  readonly allowed: Uint32Array;
  readonly denied: Uint32Array;
  constructor(size: number) {
    this.seconds = new Float64Array(size).fill(-1);
    this.allowed = new Uint32Array(size);
    this.denied = new Uint32Array(size);
  }
}

/**
 * TrafficLog counts allowed and denied decisions per second, per customer and operation, for
 * the last `windowSeconds` seconds, in memory, in fixed-size ring buffers.
 */
export class TrafficLog {
  private readonly series = new Map<string, Series>();
  readonly windowSeconds: number;

  constructor(windowSeconds = 300) {
    this.windowSeconds = windowSeconds;
  }

  /** record counts one decision at `now` (ms since the epoch). */
  record(customerId: number, operation: Operation, allowed: boolean, now: number): void {
    const id = `${customerId}:${operation}`;
    let s = this.series.get(id);
    if (!s) {
      s = new Series(this.windowSeconds);
      this.series.set(id, s);
    }
    const second = Math.floor(now / 1000);
    const slot = second % this.windowSeconds;
    if (s.seconds[slot] !== second) {
      s.seconds[slot] = second;
      s.allowed[slot] = 0;
      s.denied[slot] = 0;
    }
    if (allowed) s.allowed[slot] = (s.allowed[slot] as number) + 1;
    else s.denied[slot] = (s.denied[slot] as number) + 1;
  }

  /**
   * points returns one point per second for the last `seconds` seconds up to `now`, oldest
   * first, summed over the series that match the filter.
   */
  points(
    now: number,
    seconds: number,
    filter: { customerId?: number; operation?: Operation } = {},
  ): TrafficPoint[] {
    const span = Math.min(Math.max(1, Math.floor(seconds)), this.windowSeconds);
    const last = Math.floor(now / 1000);
    const out: TrafficPoint[] = [];
    for (let sec = last - span + 1; sec <= last; sec++)
      out.push({ t: sec * 1000, allowed: 0, denied: 0 });
    for (const [id, s] of this.series) {
      if (!matches(id, filter)) continue;
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

  /** totals returns allowed and denied counts per customer over the last `seconds` seconds. */
  totals(now: number, seconds: number): Map<number, { allowed: number; denied: number }> {
    const last = Math.floor(now / 1000);
    const first = last - Math.min(seconds, this.windowSeconds) + 1;
    const result = new Map<number, { allowed: number; denied: number }>();
    for (const [id, s] of this.series) {
      const customerId = Number(id.slice(0, id.indexOf(":")));
      const total = result.get(customerId) ?? { allowed: 0, denied: 0 };
      for (let slot = 0; slot < this.windowSeconds; slot++) {
        const sec = s.seconds[slot] as number;
        if (sec >= first && sec <= last) {
          total.allowed += s.allowed[slot] as number;
          total.denied += s.denied[slot] as number;
        }
      }
      result.set(customerId, total);
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
  ): Map<number, { allowed: number; denied: number }> {
    const last = Math.floor(now / 1000);
    const first = last - Math.min(seconds, this.windowSeconds) + 1;
    const result = new Map<number, { allowed: number; denied: number }>();
    for (const customerId of customerIds) {
      const total = { allowed: 0, denied: 0 };
      for (const operation of OPERATIONS) {
        const s = this.series.get(`${customerId}:${operation}`);
        if (!s) continue;
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

  /** forgetCustomer drops a deleted customer's series. */
  forgetCustomer(customerId: number): void {
    this.series.delete(`${customerId}:read`);
    this.series.delete(`${customerId}:write`);
  }
}

function matches(id: string, filter: { customerId?: number; operation?: Operation }): boolean {
  const [customer, operation] = id.split(":");
  if (filter.customerId !== undefined && Number(customer) !== filter.customerId) return false;
  if (filter.operation !== undefined && operation !== filter.operation) return false;
  return true;
}
