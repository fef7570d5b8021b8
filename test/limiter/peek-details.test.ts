import { describe, expect, it } from "vitest";
import { Limiter, limit } from "@/lib/limiter";
import { FakeClock } from "../support/fake-clock";

const byKey = (key: string) => key;

describe("Limiter: peek", () => {
  it("never creates a bucket", () => {
    const clock = new FakeClock(0);
    const byFunc = () => limit(4, "1s");
    const limiter = new Limiter(byKey, [limit(2, "1s"), byFunc], { clock });
    expect(limiter.peek("k")).toBe(true);
    expect(limiter.peekN("k", 2)).toBe(true);
    expect(limiter.peekN("k", 3)).toBe(false);
    expect(limiter.peekWithDetails("k").allowed).toBe(true);
    expect(limiter.peekNWithDetails("k", 3).allowed).toBe(false);
    expect(limiter.peekWithDebug("k").buckets).toHaveLength(2);
    expect(limiter.peekNWithDebug("k", 2).allowed).toBe(true);
    expect(limiter.size).toBe(0);
  });

  it("never consumes: peeking a hundred times leaves every bucket as it was", () => {
    const clock = new FakeClock(0);
    const limiter = new Limiter(byKey, [limit(2, "1s"), limit(5, "1m")], { clock });
    limiter.allow("k");
    const before = limiter.peekWithDebug("k");
    for (let i = 0; i < 100; i++) {
      limiter.peek("k");
      limiter.peekN("k", 1);
      limiter.peekWithDetails("k");
      limiter.peekNWithDebug("k", 1);
    }
    expect(limiter.peekWithDebug("k")).toEqual(before);
    expect(limiter.size).toBe(2);
    expect(limiter.allow("k")).toBe(true);
    expect(limiter.allow("k")).toBe(false);
  });

  it("reports tokensConsumed 0 and the tokens there are now", () => {
    const clock = new FakeClock(0);
    const limiter = new Limiter(byKey, limit(3, 300), { clock });
    limiter.allowN("k", 3);
    clock.set(150);
    expect(limiter.peekWithDetails("k")).toEqual({
      allowed: true,
      executionTime: 150,
      tokensRequested: 1,
      tokensConsumed: 0,
      tokensRemaining: 1,
      retryAfterMs: 0,
    });
    expect(limiter.peekNWithDetails("k", 2)).toEqual({
      allowed: false,
      executionTime: 150,
      tokensRequested: 2,
      tokensConsumed: 0,
      tokensRemaining: 1,
      retryAfterMs: 50,
    });
  });
});

describe("Limiter: details and debug", () => {
  it("reports an allowed decision after consuming", () => {
    const clock = new FakeClock(1_000);
    const limiter = new Limiter(byKey, limit(5, "1s"), { clock });
    expect(limiter.allowNWithDetails("k", 2)).toEqual({
      allowed: true,
      executionTime: 1_000,
      tokensRequested: 2,
      tokensConsumed: 2,
      tokensRemaining: 3,
      retryAfterMs: 0,
    });
    expect(limiter.allowWithDetails("k")).toMatchObject({ tokensConsumed: 1, tokensRemaining: 2 });
  });

  it("reports each bucket in order with its own remaining, retry-after and allowed", () => {
    const clock = new FakeClock(0);
    const perSecond = limit(2, "1s");
    const perMinute = limit(3, "1m");
    const limiter = new Limiter(byKey, [perSecond, perMinute], { clock });
    const allowed = limiter.allowWithDebug("k");
    const common = { allowed: true, executionTime: 0, tokensRequested: 1, tokensConsumed: 1 };
    expect(allowed).toEqual({
      ...common,
      tokensRemaining: 1,
      retryAfterMs: 0,
      buckets: [
        // One token of 2 per second taken: full again in 500 ms; one of 3 per minute: in 20 s.
        {
          ...common,
          tokensRemaining: 1,
          retryAfterMs: 0,
          limit: perSecond,
          key: "k",
          fullInMs: 500,
        },
        {
          ...common,
          tokensRemaining: 2,
          retryAfterMs: 0,
          limit: perMinute,
          key: "k",
          fullInMs: 20_000,
        },
      ],
    });

    limiter.allow("k");
    // per-second: 0 tokens, one in 500 ms; per-minute: 1 token.
    const denied = limiter.allowWithDebug("k");
    expect(denied).toEqual({
      allowed: false,
      executionTime: 0,
      tokensRequested: 1,
      tokensConsumed: 0,
      tokensRemaining: 0,
      retryAfterMs: 500,
      buckets: [
        {
          allowed: false,
          executionTime: 0,
          tokensRequested: 1,
          tokensConsumed: 0,
          tokensRemaining: 0,
          retryAfterMs: 500,
          limit: perSecond,
          key: "k",
          fullInMs: 1_000,
        },
        {
          allowed: true,
          executionTime: 0,
          tokensRequested: 1,
          tokensConsumed: 0,
          tokensRemaining: 1,
          retryAfterMs: 0,
          limit: perMinute,
          key: "k",
          fullInMs: 40_000,
        },
      ],
    });
  });

  it("keeps Details free of buckets, and debug's top level equal to the details", () => {
    const clock = new FakeClock(0);
    const limiter = new Limiter(byKey, limit(2, "1s"), { clock });
    const twin = new Limiter(byKey, limit(2, "1s"), { clock });
    for (let i = 0; i < 3; i++) {
      const details = limiter.allowWithDetails("k");
      expect(details).not.toHaveProperty("buckets");
      const { buckets, ...top } = twin.allowWithDebug("k");
      expect(top).toEqual(details);
      expect(buckets).toHaveLength(1);
    }
  });
});
