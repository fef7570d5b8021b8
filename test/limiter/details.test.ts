import { describe, expect, it } from "vitest";
import { limit } from "@/lib/limiter";
import { DetailsBuilder } from "@/lib/limiter/details";

const perSecond = limit(10, "1s");
const perMinute = limit(100, "1m");

describe("DetailsBuilder", () => {
  it("reports the fewest tokens left after the take, and no retry-after when allowed", () => {
    const b = new DetailsBuilder<string>();
    b.open(true, 1_000, 2, true, false);
    b.add(perSecond, "k", 7, true, 0, 500);
    b.add(perMinute, "k", 40, true, 0, 36_000);
    expect(b.close()).toEqual({
      allowed: true,
      executionTime: 1_000,
      tokensRequested: 2,
      tokensConsumed: 2,
      tokensRemaining: 5,
      retryAfterMs: 0,
    });
  });

  it("reports the longest retry-after of a refused decision, each bucket's with debug", () => {
    const b = new DetailsBuilder<string>();
    b.open(false, 1_000, 3, true, true);
    b.add(perSecond, "k", 1, false, 200, 900);
    b.add(perMinute, "k", 2, false, 600, 58_800);
    const details = b.close();
    expect(details).toMatchObject({
      allowed: false,
      tokensConsumed: 0,
      tokensRemaining: 1,
      retryAfterMs: 600,
    });
    expect("buckets" in details && details.buckets.map((x) => x.retryAfterMs)).toEqual([200, 600]);
    expect("buckets" in details && details.buckets[1]).toEqual({
      allowed: false,
      executionTime: 1_000,
      tokensRequested: 3,
      tokensConsumed: 0,
      tokensRemaining: 2,
      retryAfterMs: 600,
      limit: perMinute,
      key: "k",
      fullInMs: 58_800,
    });
  });

  it("a peek consumes nothing, and a reused builder starts each decision afresh", () => {
    const b = new DetailsBuilder<string>();
    b.open(false, 1, 1, false, true);
    b.add(perSecond, "a", 0, false, 100, 1_000);
    b.close();
    b.open(true, 2, 1, false, false);
    b.add(perSecond, "b", 9, true, 0, 100);
    const details = b.close();
    expect(details).toMatchObject({ executionTime: 2, tokensConsumed: 0, tokensRemaining: 9 });
    expect(details.retryAfterMs).toBe(0);
    expect(details).not.toHaveProperty("buckets");
  });

  it("with no bucket, Infinity tokens remain", () => {
    const b = new DetailsBuilder<string>();
    b.open(true, 0, 1, true, true);
    expect(b.close()).toMatchObject({ tokensRemaining: Number.POSITIVE_INFINITY, buckets: [] });
  });
});
