import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { limit } from "@/lib/limiter";
import { retryAfterMs, unitsAt, wholeTokens } from "@/lib/limiter/bucket-arithmetic";

const limitArb = fc
  .record({
    count: fc.integer({ min: 1, max: 1_000 }),
    periodMs: fc.integer({ min: 1, max: 86_400_000 }),
  })
  .map(({ count, periodMs }) => limit(count, periodMs));

describe("the bucket arithmetic", () => {
  it("counts whole tokens, none in no or negative units", () => {
    expect(wholeTokens(0, 3)).toBe(0);
    expect(wholeTokens(-7, 3)).toBe(0);
    expect(wholeTokens(2, 3)).toBe(0);
    expect(wholeTokens(3, 3)).toBe(1);
    expect(wholeTokens(17, 3)).toBe(5);
  });

  it("counts a clock reading in whole units since the epoch, rounded down", () => {
    expect(unitsAt(1_000.9, 1_000, 1)).toBe(0);
    expect(unitsAt(1_002.5, 1_000, 3)).toBe(7);
    expect(unitsAt(999.5, 1_000, 1)).toBe(-1);
  });

  it("has no retry-after when n exceeds the count: waiting would never end", () => {
    const l = limit(3, 1_000);
    expect(retryAfterMs(l, 4, 5, 0, 5 * l.scale, 5 * l.scale + 1)).toBe(Number.POSITIVE_INFINITY);
  });

  it("a clock read exactly retryAfterMs later has reached the units, whatever the magnitudes", () => {
    fc.assert(
      fc.property(
        limitArb,
        fc.double({ min: -1e13, max: 1e13, noNaN: true }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.integer({ min: 1, max: 2 ** 40 }),
        (l, now, f, missing) => {
          // The store keeps its units below 2^53 (gc rebases the epoch): up to 2^50 since it.
          const epoch = now - (f * 2 ** 50) / l.scale;
          const nowUnits = unitsAt(now, epoch, l.scale);
          const due = nowUnits + missing;
          const ms = retryAfterMs(l, 1, now, epoch, nowUnits, due);
          expect(ms).toBeGreaterThan(0);
          expect(unitsAt(now + ms, epoch, l.scale)).toBeGreaterThanOrEqual(due);
        },
      ),
    );
  });

  it("counted from the decision's instant, retryAfterMs times scale covers the units missing", () => {
    fc.assert(
      fc.property(limitArb, fc.integer({ min: 1, max: 2 ** 52 }), (l, need) => {
        const ms = retryAfterMs(l, 1, 0, 0, 0, need);
        expect(ms * l.scale).toBeGreaterThanOrEqual(need);
        expect(ms).toBeLessThanOrEqual((need / l.scale) * (1 + 4 * Number.EPSILON));
      }),
    );
  });
});
