import { describe, expect, it } from "vitest";
import { Limiter, limit } from "@/lib/limiter";
import { FakeClock } from "../support/fake-clock";
import { runSteps } from "../support/steps";

const byKey = (key: string) => key;

/** tokensByBucket lists what each bucket of `key` holds now, without consuming. */
function tokensByBucket(limiter: Limiter<string, string>, key: string): number[] {
  return limiter.peekWithDebug(key).buckets.map((b) => b.tokensRemaining);
}

describe("Limiter: several limits", () => {
  // 2 per second (a token is 500 ms) and 4 per 10 seconds (a token is 2500 ms).
  const perSecond = limit(2, "1s");
  const perTenSeconds = limit(4, "10s");

  it("allows only when every limit allows, and takes from all or none", () => {
    const clock = new FakeClock(0);
    const limiter = new Limiter(byKey, [perSecond, perTenSeconds], { clock });
    const t0 = 0;
    const t1 = 1_000;
    const t2 = 2_000;
    const t3 = 2_500;
    runSteps(limiter, clock, "k", [
      { at: t0, allowed: true, remaining: 1 },
      { at: t0, allowed: true, remaining: 0 },
      // The per-second limit denies; the per-10s bucket keeps its 2 tokens.
      { at: t0, allowed: false, remaining: 0, retryAfterMs: 500 },
    ]);
    expect(tokensByBucket(limiter, "k")).toEqual([0, 2]);
    runSteps(limiter, clock, "k", [
      { at: t1, allowed: true, remaining: 1 },
      { at: t1, allowed: true, remaining: 0 },
      // Now the per-10s limit denies; the per-second bucket must keep both its tokens.
      { at: t2, allowed: false, remaining: 0, retryAfterMs: 500 },
    ]);
    expect(tokensByBucket(limiter, "k")).toEqual([2, 0]);
    runSteps(limiter, clock, "k", [
      { at: t3, allowed: true, remaining: 0 },
      { at: t3, allowed: false, remaining: 0, retryAfterMs: 2_500 },
    ]);
    expect(tokensByBucket(limiter, "k")).toEqual([1, 0]);
  });

  it("denies a cost that one limit cannot cover without touching the other", () => {
    const clock = new FakeClock(0);
    const limiter = new Limiter(byKey, [perSecond, perTenSeconds], { clock });
    const denied = limiter.allowNWithDebug("k", 3);
    expect(denied.allowed).toBe(false);
    expect(denied.tokensRemaining).toBe(2);
    expect(denied.retryAfterMs).toBe(Number.POSITIVE_INFINITY);
    expect(denied.buckets.map((b) => [b.allowed, b.retryAfterMs])).toEqual([
      [false, Number.POSITIVE_INFINITY],
      [true, 0],
    ]);
    expect(tokensByBucket(limiter, "k")).toEqual([2, 4]);
    expect(limiter.size).toBe(0);
  });

  it("reports, when denied, the smallest remaining and the largest retry-after", () => {
    const clock = new FakeClock(0);
    const limiter = new Limiter(byKey, [perSecond, perTenSeconds], { clock });
    expect(limiter.allowN("k", 2)).toBe(true);
    clock.set(500);
    // per-second: 1 token, the 2nd in 500 ms; per-10s: 2 tokens, enough for 2.
    const details = limiter.allowNWithDetails("k", 2);
    expect(details).toEqual({
      allowed: false,
      executionTime: 500,
      tokensRequested: 2,
      tokensConsumed: 0,
      tokensRemaining: 1,
      retryAfterMs: 500,
    });
    clock.set(1_000);
    expect(limiter.allowNWithDetails("k", 2)).toMatchObject({ allowed: true, tokensRemaining: 0 });
    clock.set(1_500);
    // Both deny a cost of 2: per-second has 1 token and needs 500 ms more, per-10s has 0
    // tokens and needs 3500 ms more (its time is at 0 ms, 2 tokens are 5000 ms).
    const debug = limiter.allowNWithDebug("k", 2);
    expect(debug.buckets.map((b) => [b.tokensRemaining, b.retryAfterMs])).toEqual([
      [1, 500],
      [0, 3_500],
    ]);
    expect(debug.tokensRemaining).toBe(0);
    expect(debug.retryAfterMs).toBe(3_500);
  });

  it("counts an equal limit listed twice once", () => {
    const clock = new FakeClock(0);
    const limiter = new Limiter(byKey, [limit(2, "1s"), limit(2, 1_000), perSecond], { clock });
    expect(limiter.allow("k")).toBe(true);
    expect(limiter.allow("k")).toBe(true);
    expect(limiter.allow("k")).toBe(false);
    expect(limiter.size).toBe(1);
    expect(limiter.peekWithDebug("k").buckets).toHaveLength(1);
  });

  it("keeps one bucket per (limit, key)", () => {
    const clock = new FakeClock(0);
    const limiter = new Limiter(byKey, [perSecond, perTenSeconds], { clock });
    limiter.allow("a");
    expect(limiter.size).toBe(2);
    limiter.allow("b");
    expect(limiter.size).toBe(4);
    limiter.allow("a");
    expect(limiter.size).toBe(4);
    expect(tokensByBucket(limiter, "a")).toEqual([0, 2]);
    expect(tokensByBucket(limiter, "b")).toEqual([1, 3]);
  });
});
