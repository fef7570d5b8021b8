import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { Limiter, limit } from "@/lib/limiter";
import { lowestLevel, mayReach, peaksOf, stepTakes } from "@/lib/usage/near-limit";
import { MINUTE_MS } from "@/lib/usage/time";
import { FakeClock } from "../support/fake-clock";

const T0 = Date.UTC(2025, 0, 1);
const limitArb = fc.record({
  count: fc.integer({ min: 1, max: 20 }),
  periodMs: fc.integer({ min: 1, max: 5_000 }),
});
const requestsArb = fc.array(
  fc.record({ advance: fc.integer({ min: 0, max: 2_000 }), n: fc.integer({ min: 1, max: 6 }) }),
  { maxLength: 40 },
);

describe("how near a customer came to a limit", () => {
  // The measure is the limiter's own: replaying what a Limiter allowed, at the moments it allowed
  // it, finds the lowest level the Limiter's bucket held, and no more than 100% of the limit.
  it("replays the takes a Limiter allowed to the lowest level that Limiter's bucket held", () => {
    fc.assert(
      fc.property(limitArb, requestsArb, (shape, requests) => {
        const clock = new FakeClock(T0);
        const limiter = new Limiter((key: string) => key, limit(shape.count, shape.periodMs), {
          clock,
        });
        const takes: { atMs: number; n: number }[] = [];
        let lowest = shape.count;
        for (const request of requests) {
          clock.advance(request.advance);
          if (!limiter.allowN("k", request.n)) continue;
          takes.push({ atMs: clock.now(), n: request.n });
          lowest = Math.min(lowest, limiter.peekWithDetails("k").tokensRemaining);
        }
        const found = lowestLevel(shape, takes, T0);
        expect(found?.lowestTokens ?? shape.count).toBe(lowest);
        const [peak] = peaksOf(1, "read", "plan", takes, [shape], {
          fromMs: T0,
          resolutionMs: 1_000,
          minShare: 0.000_001,
          refused: 0,
        });
        if (peak) {
          expect(peak.share).toBeLessThanOrEqual(1);
          expect(peak.share).toBe(1 - lowest / shape.count);
        }
      }),
    );
  });

  it("places a rollup step's tokens at its start, the earliest they can have been taken", () => {
    const steps = [
      { startMs: T0, tokensTaken: 90 },
      { startMs: T0 + MINUTE_MS, tokensTaken: 0 },
      { startMs: T0 + 2 * MINUTE_MS, tokensTaken: 60 },
    ];
    expect(stepTakes(steps)).toEqual([
      { atMs: T0, n: 90 },
      { atMs: T0 + 2 * MINUTE_MS, n: 60 },
    ]);
    // 90 of 100 a minute at once leaves 10; a minute later the bucket is full again.
    expect(lowestLevel({ count: 100, periodMs: MINUTE_MS }, stepTakes(steps), T0)).toEqual({
      lowestTokens: 10,
      lowestAtMs: T0,
    });
    // 150 tokens over three minutes of 1,000 an hour: 910 left, 33 back two minutes later, 883.
    expect(lowestLevel({ count: 1_000, periodMs: 60 * MINUTE_MS }, stepTakes(steps), T0)).toEqual({
      lowestTokens: 883,
      lowestAtMs: T0 + 2 * MINUTE_MS,
    });
    expect(lowestLevel({ count: 5, periodMs: 1_000 }, [], T0)).toBeNull();
  });

  it("rules out before reading their steps only customers whose steps could not come near", () => {
    const stepsArb = fc.array(fc.integer({ min: 0, max: 30 }), { minLength: 1, maxLength: 30 });
    fc.assert(
      fc.property(
        limitArb.map((l) => ({ count: l.count, periodMs: l.periodMs * 100 })),
        stepsArb,
        fc.double({ min: 0.05, max: 1, noNaN: true }),
        (shape, taken, minShare) => {
          const stepMs = 1_000;
          const steps = taken.map((n, i) => ({ startMs: T0 + i * stepMs, tokensTaken: n }));
          const found = peaksOf(1, "read", "plan", stepTakes(steps), [shape], {
            fromMs: T0,
            resolutionMs: stepMs,
            minShare,
            refused: 0,
          });
          const bound = {
            maxStepTaken: Math.max(...taken),
            totalTaken: taken.reduce((a, b) => a + b, 0),
          };
          if (found.length > 0) expect(mayReach(shape, bound, stepMs, minShare)).toBe(true);
        },
      ),
    );
  });
});
