import { describe, expect, it } from "vitest";
import { combine, Limiter, limit } from "@/lib/limiter";
import { FakeClock } from "../support/fake-clock";

const byKey = (key: string) => key;

/** deciders returns a single-limit limiter (the fast path), a multi-limit one and a combine. */
function deciders(clock: FakeClock) {
  const single = new Limiter(byKey, limit(3, "1s"), { clock });
  const multi = new Limiter(byKey, [limit(3, "1s"), () => limit(5, "1m")], { clock });
  return { single, multi, combined: combine(single, multi) };
}

describe("edges", () => {
  it("n = 0 is allowed, even on an empty bucket, and consumes nothing", () => {
    const clock = new FakeClock(0);
    for (const decider of Object.values(deciders(clock))) {
      expect(decider.allowN("fresh", 0)).toBe(true);
      expect(decider.size).toBe(0);
    }
    const { single, multi } = deciders(clock);
    single.allowN("k", 3);
    expect(single.allowN("k", 0)).toBe(true);
    expect(single.allowNWithDetails("k", 0)).toEqual({
      allowed: true,
      executionTime: 0,
      tokensRequested: 0,
      tokensConsumed: 0,
      tokensRemaining: 0,
      retryAfterMs: 0,
    });
    expect(single.peekN("k", 0)).toBe(true);
    expect(
      multi.allowNWithDebug("k", 0).buckets.map((b) => [b.allowed, b.tokensRemaining]),
    ).toEqual([
      [true, 3],
      [true, 5],
    ]);
    expect(multi.size).toBe(0);
  });

  it.each([-1, -0.5, 0.5, 1.5, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 53])(
    "n = %s throws a RangeError naming n from every method, and creates nothing",
    (n) => {
      const clock = new FakeClock(0);
      for (const decider of Object.values(deciders(clock))) {
        const calls = [
          () => decider.allowN("k", n),
          () => decider.allowNWithDetails("k", n),
          () => decider.allowNWithDebug("k", n),
          () => decider.peekN("k", n),
          () => decider.peekNWithDetails("k", n),
          () => decider.peekNWithDebug("k", n),
        ];
        for (const call of calls) {
          expect(call).toThrow(RangeError);
          expect(call).toThrow(/\bn\b/);
        }
        expect(decider.size).toBe(0);
      }
    },
  );

  it("n > count is denied with retryAfterMs Infinity, however long the idle", () => {
    const clock = new FakeClock(0);
    const { single, multi } = deciders(clock);
    clock.set(1e12);
    expect(single.allowN("k", 4)).toBe(false);
    expect(single.peekN("k", 4)).toBe(false);
    expect(single.allowNWithDetails("k", 4)).toEqual({
      allowed: false,
      executionTime: 1e12,
      tokensRequested: 4,
      tokensConsumed: 0,
      tokensRemaining: 3,
      retryAfterMs: Number.POSITIVE_INFINITY,
    });
    // Over the 3-per-second count only: that bucket says Infinity, the other allows.
    const debug = multi.allowNWithDebug("k", 4);
    expect(debug.retryAfterMs).toBe(Number.POSITIVE_INFINITY);
    expect(debug.buckets.map((b) => [b.allowed, b.retryAfterMs])).toEqual([
      [false, Number.POSITIVE_INFINITY],
      [true, 0],
    ]);
    single.allow("k");
    expect(single.allowNWithDetails("k", 4).retryAfterMs).toBe(Number.POSITIVE_INFINITY);
    expect(single.size + multi.size).toBe(1);
  });

  it("with no limits at all, allows with Infinity remaining, no retry and no buckets", () => {
    const clock = new FakeClock(0);
    const limiters = [
      new Limiter(byKey, [], { clock }),
      new Limiter(byKey, undefined, { clock }),
      new Limiter(byKey, [() => null, () => undefined, () => []], { clock }),
    ];
    for (const limiter of limiters) {
      for (let i = 0; i < 10; i++) expect(limiter.allowN("k", 1_000)).toBe(true);
      expect(limiter.allowWithDebug("k")).toEqual({
        allowed: true,
        executionTime: 0,
        tokensRequested: 1,
        tokensConsumed: 1,
        tokensRemaining: Number.POSITIVE_INFINITY,
        retryAfterMs: 0,
        buckets: [],
      });
      expect(limiter.peekWithDetails("k").tokensRemaining).toBe(Number.POSITIVE_INFINITY);
      expect(limiter.size).toBe(0);
    }
  });

  it("limit() names the bad argument in a RangeError", () => {
    expect(() => limit(0, "1s")).toThrow(/count/);
    expect(() => limit(2.5, "1s")).toThrow(RangeError);
    expect(() => limit(3, 2.5)).toThrow(/period must be a whole number of milliseconds/);
    expect(() => limit(1, 0)).toThrow(/period/);
    expect(() => limit(1, Number.POSITIVE_INFINITY)).toThrow(RangeError);
    expect(() => limit(1, "5y" as "5s")).toThrow(/period/);
    expect(() => limit(1, "5y" as "5s")).toThrow(RangeError);
  });

  it("survives a clock that goes backwards, keeping tokens within 0..count", () => {
    const clock = new FakeClock(10_000);
    const { single, multi } = deciders(clock);
    const tokens = () => [
      single.peekWithDetails("k").tokensRemaining,
      ...multi.peekWithDebug("k").buckets.map((b) => b.tokensRemaining),
    ];
    single.allowN("k", 3);
    multi.allowN("k", 3);
    expect(tokens()).toEqual([0, 0, 2]);
    // Back before the last decision: nothing is refunded and the retry-after grows. The
    // per-minute bucket (12 s a token, spent up to -14 s) still holds 1 at 9 s.
    clock.set(9_000);
    expect(tokens()).toEqual([0, 0, 1]);
    expect(single.allowWithDetails("k")).toMatchObject({
      allowed: false,
      retryAfterMs: 1_333.3333333333333,
    });
    // Back before the limiter was built: no crash, still nothing to take.
    clock.set(-1e9);
    expect(tokens()).toEqual([0, 0, 0]);
    expect(single.allow("k")).toBe(false);
    expect(multi.allow("k")).toBe(false);
    // n = 0 is still allowed, even with the buckets' time ahead of the clock.
    expect(single.allowN("k", 0)).toBe(true);
    expect(multi.peekN("k", 0)).toBe(true);
    // An unseen key is a full bucket at any time.
    expect(single.allowN("other", 3)).toBe(true);
    // Forward again, far: every bucket is full, no more than count.
    clock.set(1e9);
    expect(tokens()).toEqual([3, 3, 5]);
    expect(single.allowN("other", 3)).toBe(true);
  });

  it("combine() with no limiters allows everything", () => {
    const none = combine<string>();
    expect(none.allowN("k", 1e9)).toBe(true);
    expect(none.allowWithDetails("k")).toMatchObject({
      allowed: true,
      tokensRemaining: Number.POSITIVE_INFINITY,
      retryAfterMs: 0,
    });
  });

  it("the same limiter twice in one combine counts once", () => {
    const clock = new FakeClock(0);
    const { single } = deciders(clock);
    const twice = combine(single, single, single);
    expect(twice.allowN("k", 3)).toBe(true);
    expect(twice.allow("k")).toBe(false);
    expect(single.size).toBe(1);
  });
});
