import { describe, expect, it } from "vitest";
import { Limiter, limit } from "@/lib/limiter";
import { FakeClock } from "../support/fake-clock";
import { runSteps } from "../support/steps";

/** byKey is the identity key func: the input is the key. */
const byKey = (key: string) => key;

describe("Limiter: one limit, one key", () => {
  it("starts a fresh bucket with exactly count tokens", () => {
    const clock = new FakeClock(0);
    const limiter = new Limiter(byKey, limit(3, 300), { clock });
    expect(limiter.peekWithDetails("k").tokensRemaining).toBe(3);
    expect(limiter.allow("k")).toBe(true);
    expect(limiter.allow("k")).toBe(true);
    expect(limiter.allow("k")).toBe(true);
    expect(limiter.allow("k")).toBe(false);
  });

  it("drains, then refills one token at a time (3 per 300 ms: a token is 100 ms)", () => {
    const clock = new FakeClock(0);
    const limiter = new Limiter(byKey, limit(3, 300), { clock });
    const t0 = 0;
    const t1 = 100;
    const t2 = 250;
    const t3 = 300;
    runSteps(limiter, clock, "k", [
      { at: t0, allowed: true, remaining: 2 },
      { at: t0, allowed: true, remaining: 1 },
      { at: t0, allowed: true, remaining: 0 },
      { at: t0, allowed: false, remaining: 0, retryAfterMs: 100 },
      { at: t1 - 1, allowed: false, remaining: 0, retryAfterMs: 1 },
      { at: t1, allowed: true, remaining: 0 },
      { at: t1, allowed: false, remaining: 0, retryAfterMs: 100 },
      // 150 ms since t1 make one token and half of the next.
      { at: t2, allowed: true, remaining: 0 },
      { at: t2, allowed: false, remaining: 0, retryAfterMs: 50 },
      { at: t3, allowed: true, remaining: 0 },
      { at: t3 + 200, allowed: true, remaining: 1 },
      { at: t3 + 200, allowed: true, remaining: 0 },
      { at: t3 + 200, allowed: false, remaining: 0, retryAfterMs: 100 },
    ]);
  });

  it("caps the tokens at count after a long idle", () => {
    const clock = new FakeClock(0);
    const limiter = new Limiter(byKey, limit(3, 300), { clock });
    const t0 = 0;
    const t1 = 10_000;
    const t2 = 1_000_000_000;
    runSteps(limiter, clock, "k", [
      { at: t0, n: 3, allowed: true, remaining: 0 },
      { at: t1, allowed: true, remaining: 2 },
      { at: t1, n: 2, allowed: true, remaining: 0 },
      { at: t1, allowed: false, remaining: 0, retryAfterMs: 100 },
      { at: t2, n: 4, allowed: false, remaining: 3, retryAfterMs: Number.POSITIVE_INFINITY },
      { at: t2, n: 3, allowed: true, remaining: 0 },
    ]);
  });

  it("takes costs with allowN (10 per 1000 ms: a token is 100 ms)", () => {
    const clock = new FakeClock(0);
    const limiter = new Limiter(byKey, limit(10, 1_000), { clock });
    const t0 = 0;
    const t1 = 250;
    const t2 = 1_250;
    runSteps(limiter, clock, "k", [
      { at: t0, n: 4, allowed: true, remaining: 6 },
      { at: t0, n: 6, allowed: true, remaining: 0 },
      { at: t0, n: 1, allowed: false, remaining: 0, retryAfterMs: 100 },
      // Two tokens at t1: a cost of 3 is denied and takes nothing, a cost of 2 then passes.
      { at: t1, n: 3, allowed: false, remaining: 2, retryAfterMs: 50 },
      { at: t1, n: 2, allowed: true, remaining: 0 },
      { at: t1, n: 10, allowed: false, remaining: 0, retryAfterMs: 950 },
      { at: t2, n: 10, allowed: true, remaining: 0 },
      { at: t2, n: 11, allowed: false, remaining: 0, retryAfterMs: Number.POSITIVE_INFINITY },
    ]);
    expect(limiter.allowN("k", 1)).toBe(false);
    clock.advance(300);
    expect(limiter.allowN("k", 3)).toBe(true);
    expect(limiter.allowN("k", 1)).toBe(false);
  });

  it("keeps keys independent", () => {
    const clock = new FakeClock(0);
    const limiter = new Limiter(byKey, limit(2, "1s"), { clock });
    expect(limiter.allowN("alice", 2)).toBe(true);
    expect(limiter.allow("alice")).toBe(false);
    expect(limiter.allow("bob")).toBe(true);
    expect(limiter.peekWithDetails("bob").tokensRemaining).toBe(1);
    expect(limiter.peekWithDetails("alice").tokensRemaining).toBe(0);
    expect(limiter.peekWithDetails("carol").tokensRemaining).toBe(2);
    expect(limiter.size).toBe(2);
  });

  it("uses the key func's key, not the input, for the bucket", () => {
    const clock = new FakeClock(0);
    const byIp = (req: { ip: string; path: string }) => req.ip;
    const limiter = new Limiter(byIp, limit(2, "1s"), { clock });
    expect(limiter.allow({ ip: "10.0.0.1", path: "/a" })).toBe(true);
    expect(limiter.allow({ ip: "10.0.0.1", path: "/b" })).toBe(true);
    expect(limiter.allow({ ip: "10.0.0.1", path: "/c" })).toBe(false);
    expect(limiter.allow({ ip: "10.0.0.2", path: "/a" })).toBe(true);
    expect(limiter.size).toBe(2);
  });

  it("counts its buckets in size and forgets them all on clear", () => {
    const clock = new FakeClock(0);
    const limiter = new Limiter(byKey, limit(2, "1s"), { clock });
    expect(limiter.size).toBe(0);
    limiter.allow("a");
    limiter.allow("a");
    limiter.allow("b");
    expect(limiter.size).toBe(2);
    expect(limiter.allow("a")).toBe(false);
    limiter.clear();
    expect(limiter.size).toBe(0);
    expect(limiter.peekWithDetails("a").tokensRemaining).toBe(2);
    expect(limiter.allowN("a", 2)).toBe(true);
    expect(limiter.size).toBe(1);
  });

  it("reports the clock reading it used as executionTime", () => {
    const clock = new FakeClock(12_345);
    const limiter = new Limiter(byKey, limit(2, "1s"), { clock });
    clock.advance(55);
    expect(limiter.allowWithDetails("k").executionTime).toBe(12_400);
    expect(limiter.peekWithDebug("k").buckets[0]?.executionTime).toBe(12_400);
  });

  it("rejects a key func that is not a function and items that are not limits", () => {
    expect(() => new Limiter(42 as unknown as (s: string) => string)).toThrow(TypeError);
    expect(
      () =>
        new Limiter(byKey, [{ count: 1, periodMs: 1 }] as unknown as ReturnType<typeof limit>[]),
    ).toThrow(TypeError);
  });
});
