import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  ClockOffset,
  DRIFT_PER_MS,
  deadlineWindow,
  type OffsetEstimate,
} from "@/lib/limiter-redis";

// The offset between an instance's clock and Redis's, learned from replies, and the deadline
// arithmetic built on it: pure, on made-up instants. A reply is simulated as Redis would give
// it: the command leaves at our `sent`, reaches Redis `up` ms later, where Redis reads its clock
// (whole ms) at `sent + up + offset`, and the reply comes back `down` ms after that.

/** reply is what an instance learns from one round trip over a link with true `offset`. */
function reply(offset: number, sent: number, up: number, down: number) {
  const redisMs = Math.floor(sent + up + offset);
  return { sent, received: sent + up + down, redisMs };
}

/** holds tells whether `estimate` claims no more than it knows: `offset` lies within its error. */
function holds(estimate: OffsetEstimate | undefined, offset: number): boolean {
  if (!estimate) return false;
  return Math.abs(estimate.offsetMs - offset) <= estimate.errorMs + 1e-3;
}

describe("ClockOffset", () => {
  it("knows nothing before a reply", () => {
    expect(new ClockOffset().estimate(0)).toBeUndefined();
  });

  it("bounds the offset by one reply's round trip: [r - received, r + 1 - sent]", () => {
    const clock = new ClockOffset();
    // t0 = 1,000 sent, t1 = 1,010 received; Redis read 5,000,005 (a time in [5,000,005, 5,000,006)).
    clock.learn(1_000, 1_010, 5_000_005);
    const estimate = clock.estimate(1_010);
    // [4,998,995, 4,999,006], widened by the drift over the 10 ms round trip.
    const spread = DRIFT_PER_MS * 10;
    expect(estimate?.offsetMs).toBeCloseTo(4_999_000.5, 6);
    expect(estimate?.errorMs).toBeCloseTo(5.5 + spread, 6);
  });

  it("keeps the fastest round trip's bound: a slow reply does not widen it", () => {
    const clock = new ClockOffset();
    const offset = 1_700_000_000_123.4;
    clock.learn(...args(reply(offset, 0, 1, 1)));
    const fast = clock.estimate(2)?.errorMs ?? Number.NaN;
    clock.learn(...args(reply(offset, 10, 40, 60)));
    const after = clock.estimate(110);
    // Not the slow reply's 50 ms: the fast one's 1.5 ms, aged by 108 ms of drift.
    expect(after?.errorMs).toBeLessThanOrEqual(fast + DRIFT_PER_MS * 108 + 1e-6);
    expect(holds(after, offset)).toBe(true);
  });

  it("narrows to the minimum round trip, and never excludes the true offset", () => {
    fc.assert(
      fc.property(
        fc.double({ min: -1e12, max: 1e12, noNaN: true }),
        fc.array(
          fc.record({
            gap: fc.double({ min: 0, max: 2_000, noNaN: true }),
            up: fc.double({ min: 0, max: 300, noNaN: true }),
            down: fc.double({ min: 0, max: 300, noNaN: true }),
          }),
          { minLength: 1, maxLength: 30 },
        ),
        (offset, trips) => {
          const clock = new ClockOffset();
          let now = 1_000;
          let narrowest = Number.POSITIVE_INFINITY;
          for (const { gap, up, down } of trips) {
            now += gap;
            const r = reply(offset, now, up, down);
            clock.learn(r.sent, r.received, r.redisMs);
            now = r.received;
            narrowest = Math.min(narrowest, up + down);
            const estimate = clock.estimate(now);
            expect(holds(estimate, offset)).toBe(true);
          }
          // Half the narrowest interval (its round trip and Redis's whole ms), plus drift.
          const elapsed = now - 1_000;
          const bound = (narrowest + 1) / 2 + DRIFT_PER_MS * (elapsed + 600);
          expect(clock.estimate(now)?.errorMs).toBeLessThanOrEqual(bound + 1e-3);
          expect(clock.restarts).toBe(0);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("widens as it ages, by the drift the clocks may have", () => {
    const clock = new ClockOffset();
    clock.learn(0, 2, 10_001);
    const fresh = clock.estimate(2)?.errorMs ?? Number.NaN;
    expect(clock.estimate(10_002)?.errorMs).toBeCloseTo(fresh + DRIFT_PER_MS * 10_000, 6);
  });

  it("follows clocks that drift apart within the bound", () => {
    fc.assert(
      fc.property(
        fc.double({ min: -DRIFT_PER_MS, max: DRIFT_PER_MS, noNaN: true }),
        fc.integer({ min: 20, max: 500 }),
        (rate, everyMs) => {
          // Redis's clock runs at 1 + rate of ours: the offset moves by rate ms per ms.
          const clock = new ClockOffset();
          for (let sent = 0; sent < 60_000; sent += everyMs) {
            const offset = 5_000 + rate * sent;
            const r = reply(offset, sent, 0.2, 0.2);
            clock.learn(r.sent, r.received, r.redisMs);
            expect(holds(clock.estimate(r.received), 5_000 + rate * r.received)).toBe(true);
          }
          expect(clock.restarts).toBe(0);
        },
      ),
      { numRuns: 40 },
    );
  });

  it("starts again when a reply contradicts it: Redis's clock stepped", () => {
    const clock = new ClockOffset();
    clock.learn(...args(reply(100, 0, 1, 1)));
    clock.learn(...args(reply(100, 50, 1, 1)));
    expect(clock.restarts).toBe(0);
    // Redis's clock jumps 10 s ahead.
    clock.learn(...args(reply(10_100, 100, 1, 1)));
    expect(clock.restarts).toBe(1);
    expect(holds(clock.estimate(102), 10_100)).toBe(true);
    expect(clock.estimate(102)?.errorMs).toBeLessThan(2);
  });

  it("ignores readings that are not an interval, and forgets on demand", () => {
    const clock = new ClockOffset();
    clock.learn(10, 5, 1_000);
    clock.learn(0, 1, Number.NaN);
    expect(clock.estimate(10)).toBeUndefined();
    clock.learn(0, 1, 1_000);
    expect(clock.estimate(1)).toBeDefined();
    clock.forget();
    expect(clock.estimate(1)).toBeUndefined();
  });
});

describe("deadlineWindow", () => {
  it("converts our deadline into Redis's clock and waits its error and a whole ms longer", () => {
    const window = deadlineWindow(1_200, { offsetMs: 1_000_000, errorMs: 3 });
    expect(window).toEqual({ redisDeadline: 1_001_200, giveUpAt: 1_205 });
  });

  it("keeps no deadline infinite", () => {
    const none = deadlineWindow(Number.POSITIVE_INFINITY, { offsetMs: 5, errorMs: 1 });
    expect(none).toEqual({
      redisDeadline: Number.POSITIVE_INFINITY,
      giveUpAt: Number.POSITIVE_INFINITY,
    });
  });

  it("gives up only once no run can still come in time: a run in time starts before giveUpAt", () => {
    fc.assert(
      fc.property(
        fc.double({ min: -1e12, max: 1e12, noNaN: true }),
        fc.double({ min: 0, max: 1e6, noNaN: true }),
        fc.double({ min: 0, max: 100, noNaN: true }),
        fc.double({ min: -1, max: 1, noNaN: true }),
        fc.double({ min: 0, max: 1_000, noNaN: true }),
        (offset, deadline, errorMs, where, runAfter) => {
          // The true offset anywhere within the estimate's error.
          const estimate = { offsetMs: offset + where * errorMs, errorMs };
          const window = deadlineWindow(deadline, estimate);
          // A run at our time `at` reads Redis's clock floor(at + offset) and refuses past the
          // deadline; one that still runs must have started before we give up.
          const at = deadline - 50 + runAfter;
          const runs = Math.floor(at + offset) <= window.redisDeadline;
          if (runs) expect(at).toBeLessThan(window.giveUpAt);
          // A run up to the error before our deadline always runs.
          if (at + 2 * errorMs + 1e-3 <= deadline) expect(runs).toBe(true);
        },
      ),
      { numRuns: 2_000 },
    );
  });
});

function args(r: { sent: number; received: number; redisMs: number }): [number, number, number] {
  return [r.sent, r.received, r.redisMs];
}
