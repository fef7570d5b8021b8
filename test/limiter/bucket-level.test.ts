import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { BucketTrace, Limiter, levelAfter, limit, nextTokenInMs } from "@/lib/limiter";
import { FakeClock } from "../support/fake-clock";

const byKey = (key: string) => key;
const limitArb = fc
  .record({ count: fc.integer({ min: 1, max: 20 }), periodMs: fc.integer({ min: 1, max: 5_000 }) })
  .map(({ count, periodMs }) => limit(count, periodMs));
const stepsArb = fc.array(
  fc.record({ advance: fc.integer({ min: 0, max: 2_000 }), n: fc.integer({ min: 0, max: 6 }) }),
  { maxLength: 40 },
);

describe("bucket levels", () => {
  it("a trace of the takes a Limiter allowed holds what the Limiter holds, at every step", () => {
    fc.assert(
      fc.property(limitArb, stepsArb, fc.integer({ min: 0, max: 1e12 }), (l, steps, start) => {
        const clock = new FakeClock(start);
        const limiter = new Limiter(byKey, l, { clock });
        const trace = new BucketTrace(l, start);
        for (const step of steps) {
          clock.advance(step.advance);
          const at = clock.now();
          if (limiter.allowN("k", step.n)) trace.take(at, step.n);
          const peek = limiter.peekWithDebug("k").buckets[0];
          expect(trace.levelAt(at).remaining).toBe(peek?.tokensRemaining);
          expect(trace.levelAt(at).fullInMs).toBeCloseTo(peek?.fullInMs ?? Number.NaN, 6);
        }
      }),
    );
  });

  it("levelAfter and nextTokenInMs place each refill where the Limiter has it", () => {
    fc.assert(
      fc.property(
        limitArb,
        fc.integer({ min: 1, max: 20 }),
        fc.array(fc.integer({ min: 0, max: 3_000 }), { maxLength: 20 }),
        (l, taken, later) => {
          const clock = new FakeClock(1_000_000);
          const limiter = new Limiter(byKey, l, { clock });
          limiter.allowN("k", Math.min(taken, l.count));
          const seen = limiter.peekWithDebug("k").buckets[0];
          if (!seen) throw new Error("no bucket");
          for (const elapsed of later) {
            clock.set(1_000_000 + elapsed);
            const now = limiter.peekWithDebug("k").buckets[0];
            expect(levelAfter(l, seen.fullInMs, elapsed).remaining).toBe(now?.tokensRemaining);
          }
          // The next token comes exactly nextTokenInMs after the peek, not a millisecond before.
          const next = nextTokenInMs(l, seen.fullInMs);
          if (Number.isFinite(next) && Number.isInteger(next)) {
            clock.set(1_000_000 + next - 1);
            expect(limiter.peekWithDetails("k").tokensRemaining).toBe(seen.tokensRemaining);
            clock.set(1_000_000 + next);
            expect(limiter.peekWithDetails("k").tokensRemaining).toBe(seen.tokensRemaining + 1);
          }
        },
      ),
    );
  });

  it("a 5 per second bucket emptied at t0 gains a token every 200 ms and is full at t0 + 1 s", () => {
    const fivePerSecond = limit(5, "1s");
    expect(nextTokenInMs(fivePerSecond, 1_000)).toBe(200);
    expect(
      [0, 199, 200, 399, 400, 999, 1_000, 5_000].map(
        (ms) => levelAfter(fivePerSecond, 1_000, ms).remaining,
      ),
    ).toEqual([0, 0, 1, 1, 2, 4, 5, 5]);
    expect(nextTokenInMs(fivePerSecond, 0)).toBe(Number.POSITIVE_INFINITY);
    expect(nextTokenInMs(fivePerSecond, 350)).toBe(150);
  });

  it("a trace of a take the bucket could not have allowed stays empty until the debt is paid", () => {
    const trace = new BucketTrace(limit(3, "1s"), 0);
    trace.take(0, 5);
    expect(trace.levelAt(0)).toEqual({ remaining: 0, fullInMs: 5_000 / 3 });
    expect(trace.levelAt(666).remaining).toBe(0);
    expect(trace.levelAt(1_000).remaining).toBe(1);
    expect(trace.levelAt(2_000).remaining).toBe(3);
  });
});
