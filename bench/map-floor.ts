/**
 * `performance`, looked up once: in Node `globalThis.performance` is an accessor whose getter
 * runs on every access, and the floor should not pay for that.
 */
const perf = globalThis.performance;

/**
 * The floor: the least a token bucket keyed by string can do in JavaScript. One `Map<string,
 * number>` per limit, one number per key (the time up to which the key's tokens are spent, the
 * same representation as Ratekeeper's), one `performance.now()` per call. No validation, no
 * exact integer arithmetic, no details: anything Ratekeeper costs beyond this is overhead.
 */
export class MapFloor {
  private readonly spent = new Map<string, number>();
  private readonly periodMs: number;
  private readonly tokenMs: number;

  constructor(count: number, periodMs: number) {
    this.periodMs = periodMs;
    this.tokenMs = periodMs / count;
  }

  get size(): number {
    return this.spent.size;
  }

  allow(key: string): boolean {
    const now = perf.now();
    const spent =
      Math.max(this.spent.get(key) ?? Number.NEGATIVE_INFINITY, now - this.periodMs) + this.tokenMs;
    if (spent > now) return false;
    this.spent.set(key, spent);
    return true;
  }
}

/** MapFloorPair is the floor for two limits on one key: check both, then take from both. */
export class MapFloorPair {
  private readonly a = new Map<string, number>();
  private readonly b = new Map<string, number>();
  private readonly periodA: number;
  private readonly tokenA: number;
  private readonly periodB: number;
  private readonly tokenB: number;

  constructor(countA: number, periodA: number, countB: number, periodB: number) {
    this.periodA = periodA;
    this.tokenA = periodA / countA;
    this.periodB = periodB;
    this.tokenB = periodB / countB;
  }

  allow(key: string): boolean {
    const now = perf.now();
    const a =
      Math.max(this.a.get(key) ?? Number.NEGATIVE_INFINITY, now - this.periodA) + this.tokenA;
    if (a > now) return false;
    const b =
      Math.max(this.b.get(key) ?? Number.NEGATIVE_INFINITY, now - this.periodB) + this.tokenB;
    if (b > now) return false;
    this.a.set(key, a);
    this.b.set(key, b);
    return true;
  }
}
