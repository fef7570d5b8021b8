import { afterEach, describe, expect, it, vi } from "vitest";
import { Limiter, limit } from "@/lib/limiter";
import { FakeClock } from "../support/fake-clock";

const byKey = (key: string) => key;

describe("gc", () => {
  it("deletes exactly the full buckets and returns how many", () => {
    const clock = new FakeClock(0);
    // 2 per second: a token is 500 ms.
    const limiter = new Limiter(byKey, limit(2, "1s"), { clock });
    limiter.allow("a");
    limiter.allowN("b", 2);
    limiter.peek("c");
    expect(limiter.size).toBe(2);
    expect(limiter.gc()).toBe(0);

    clock.set(499);
    expect(limiter.gc()).toBe(0);
    clock.set(500);
    // "a" is full again (2 tokens); "b" has 1 of 2.
    expect(limiter.gc()).toBe(1);
    expect(limiter.size).toBe(1);
    expect(limiter.peekWithDetails("a").tokensRemaining).toBe(2);
    expect(limiter.peekWithDetails("b").tokensRemaining).toBe(1);
    expect(limiter.gc()).toBe(0);

    clock.set(1_000);
    expect(limiter.gc()).toBe(1);
    expect(limiter.size).toBe(0);
    expect(limiter.gc()).toBe(0);
  });

  it("counts each (limit, key) bucket on its own", () => {
    const clock = new FakeClock(0);
    const limiter = new Limiter(byKey, [limit(2, "1s"), limit(10, "10s")], { clock });
    limiter.allow("a");
    limiter.allow("b");
    expect(limiter.size).toBe(4);
    clock.set(500);
    expect(limiter.gc()).toBe(2);
    expect(limiter.size).toBe(2);
    clock.set(1_000);
    expect(limiter.gc()).toBe(2);
    expect(limiter.size).toBe(0);
  });

  it("changes no decision: a gc'ed limiter decides as its twin", () => {
    const clock = new FakeClock(0);
    const make = () => new Limiter(byKey, [limit(2, "1s"), limit(3, "3s")], { clock });
    const swept = make();
    const kept = make();
    const script: Array<[number, string, number]> = [
      [0, "a", 2],
      [0, "b", 1],
      [500, "a", 1],
      [1_000, "a", 1],
      [3_000, "b", 2],
      [3_000, "a", 3],
      [4_000, "a", 2],
      [9_000, "b", 2],
    ];
    for (const [at, key, n] of script) {
      clock.set(at);
      swept.gc();
      for (const k of ["a", "b"]) expect(swept.peekWithDebug(k)).toEqual(kept.peekWithDebug(k));
      expect(swept.allowNWithDebug(key, n)).toEqual(kept.allowNWithDebug(key, n));
    }
    expect(swept.size).toBeLessThan(kept.size);
  });

  it("drops the buckets of a limit func's limits as any other", () => {
    const clock = new FakeClock(0);
    let perMinute = 2;
    const limiter = new Limiter(byKey, () => limit(perMinute, "1m"), { clock });
    limiter.allow("k");
    perMinute = 3;
    limiter.allow("k");
    expect(limiter.size).toBe(2);
    clock.set(20_000);
    // The 3-per-minute bucket (20 s a token) is full; the 2-per-minute one (30 s) is not.
    expect(limiter.gc()).toBe(1);
    clock.set(30_000);
    expect(limiter.gc()).toBe(1);
    expect(limiter.size).toBe(0);
    expect(limiter.allowN("k", 3)).toBe(true);
    expect(limiter.size).toBe(1);
  });
});

describe("sweep", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("runs gc every sweepIntervalMs until close()", () => {
    vi.useFakeTimers();
    const clock = new FakeClock(0);
    const limiter = new Limiter(byKey, limit(1, "1s"), { clock, sweepIntervalMs: 60_000 });
    limiter.allow("a");
    clock.set(1_000);
    expect(limiter.size).toBe(1);
    vi.advanceTimersByTime(59_999);
    expect(limiter.size).toBe(1);
    vi.advanceTimersByTime(1);
    expect(limiter.size).toBe(0);

    limiter.allow("b");
    clock.set(2_000);
    limiter.close();
    expect(vi.getTimerCount()).toBe(0);
    vi.advanceTimersByTime(600_000);
    expect(limiter.size).toBe(1);
    // The limiter keeps deciding after close.
    expect(limiter.allow("b")).toBe(true);
    expect(limiter.allow("b")).toBe(false);
  });

  it("sets no timer without sweepIntervalMs, and close() is then harmless", () => {
    vi.useFakeTimers();
    const limiter = new Limiter(byKey, limit(1, "1s"), { clock: new FakeClock(0) });
    expect(vi.getTimerCount()).toBe(0);
    limiter.close();
    limiter.close();
    expect(limiter.allow("a")).toBe(true);
  });

  it.each([0, -1, Number.NaN, Number.POSITIVE_INFINITY])(
    "refuses sweepIntervalMs %s with a RangeError",
    (sweepIntervalMs) => {
      vi.useFakeTimers();
      const make = () => new Limiter(byKey, limit(1, "1s"), { sweepIntervalMs });
      expect(make).toThrow(RangeError);
      expect(make).toThrow(/sweepIntervalMs/);
      expect(vi.getTimerCount()).toBe(0);
    },
  );
});
