import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { Limiter, limit } from "@/lib/limiter";
import { expectRetry } from "../support/expect-retry";
import { FakeClock, settled } from "../support/fake-clock";

const byKey = (key: string) => key;
const DAY_MS = 86_400_000;
const countArb = fc.integer({ min: 1, max: 1_000_000 });
const periodArb = fc.integer({ min: 1, max: 30 * DAY_MS });
const startArb = fc.integer({ min: -1e12, max: 1e12 });

/** allowsInARow counts the allows that pass for `key` at one instant, stopping at the first denial. */
function allowsInARow(limiter: Limiter<string, string>, key: string, max: number): number {
  let allowed = 0;
  while (allowed <= max && limiter.allowN(key, 1)) allowed++;
  return allowed;
}

describe("exactness at the extremes", () => {
  it("1,000,000 per 1 ms: a full bucket, a million allows, then none until 1 ms later", () => {
    const clock = new FakeClock(0);
    const limiter = new Limiter(byKey, limit(1_000_000, 1), { clock });
    expect(limiter.peekWithDetails("k").tokensRemaining).toBe(1_000_000);
    expect(allowsInARow(limiter, "k", 1_000_000)).toBe(1_000_000);
    expect(limiter.allowWithDetails("k")).toMatchObject({ allowed: false, tokensRemaining: 0 });
    expect(limiter.allowWithDetails("k").retryAfterMs).toBeCloseTo(1e-6, 15);
    clock.advance(1);
    expect(limiter.peekWithDetails("k").tokensRemaining).toBe(1_000_000);
    expect(allowsInARow(limiter, "k", 1_000_000)).toBe(1_000_000);
  });

  it("1,000,000 per 30 days: a million allows, then one token every 2592 ms", () => {
    const clock = new FakeClock(0);
    const limiter = new Limiter(byKey, limit(1_000_000, "30d"), { clock });
    expect(allowsInARow(limiter, "k", 1_000_000)).toBe(1_000_000);
    expect(limiter.allowWithDetails("k").retryAfterMs).toBe(2_592);
    clock.advance(2_591);
    expect(limiter.allowWithDetails("k")).toMatchObject({ allowed: false, retryAfterMs: 1 });
    clock.advance(1);
    expect(allowsInARow(limiter, "k", 10)).toBe(1);
    clock.advance(30 * DAY_MS);
    expect(limiter.peekWithDetails("k").tokensRemaining).toBe(1_000_000);
  });

  it("1 per 1 ms: one allow per millisecond, for a thousand milliseconds", () => {
    const clock = new FakeClock(0);
    const limiter = new Limiter(byKey, limit(1, 1), { clock });
    for (let i = 0; i < 1_000; i++) {
      expect(allowsInARow(limiter, "k", 1)).toBe(1);
      expect(limiter.allowWithDetails("k").retryAfterMs).toBe(1);
      clock.advance(1);
    }
    clock.advance(1_000_000);
    expect(allowsInARow(limiter, "k", 1)).toBe(1);
  });

  it("a prime count over a prime period: 999,983 per 2,591,999,987 ms", () => {
    const clock = new FakeClock(1_234_567);
    // A limit func sends decisions down the general (multi-limit) path.
    const limiter = new Limiter(byKey, [limit(999_983, 2_591_999_987), () => null], { clock });
    clock.advance(17 * DAY_MS);
    expect(limiter.peekWithDetails("k").tokensRemaining).toBe(999_983);
    expect(allowsInARow(limiter, "k", 999_983)).toBe(999_983);
    const { retryAfterMs } = limiter.allowWithDetails("k");
    expect(retryAfterMs).toBeCloseTo(2_591_999_987 / 999_983, 9);
    clock.advance(retryAfterMs);
    expect(allowsInARow(limiter, "k", 10)).toBe(1);
  });

  it("a small prime count over a prime period: 7 per 13 ms, token by token", () => {
    const clock = new FakeClock(0);
    const limiter = new Limiter(byKey, limit(7, 13), { clock });
    expect(limiter.allowN("k", 7)).toBe(true);
    // A token is 13/7 ms: whole tokens at 1.857, 3.714, 5.571, 7.428, 9.285, 11.142 and 13 ms.
    const tokensAt = [0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 7, 7];
    tokensAt.forEach((tokens, ms) => {
      clock.set(ms);
      expect({ ms, tokens: limiter.peekWithDetails("k").tokensRemaining }).toEqual({ ms, tokens });
    });
  });

  it("stays exact after 100 days of uptime at the finest scale (1,000,000 per 1 ms)", () => {
    const clock = new FakeClock(0);
    const limiter = new Limiter(byKey, limit(1_000_000, 1), { clock });
    clock.advance(100 * DAY_MS);
    expect(limiter.peekWithDetails("k").tokensRemaining).toBe(1_000_000);
    expect(allowsInARow(limiter, "k", 1_000_000)).toBe(1_000_000);
  });

  // Regression: retryAfterMs was the rounded quotient 60000 / 7 = 8571.42857142857, and a clock
  // advanced by it read just short of the token, so waiting exactly that long was denied.
  it("regression: advancing by exactly retryAfterMs reaches the token (7 per minute)", async () => {
    const clock = new FakeClock(0);
    const limiter = new Limiter(byKey, limit(7, "1m"), { clock });
    expect(limiter.allowN("k", 7)).toBe(true);
    const { retryAfterMs } = limiter.allowWithDetails("k");
    expect(retryAfterMs).toBeGreaterThanOrEqual(60_000 / 7);
    expect(retryAfterMs).toBeCloseTo(60_000 / 7, 9);
    const waiting = limiter.wait("k");
    clock.advance(retryAfterMs);
    expect(await settled(waiting)).toBe("fulfilled");
    expect(clock.pendingSleeps).toBe(0);
    expect(limiter.allow("k")).toBe(false);
  });
});

describe("retry-after is enough to wait", () => {
  it("holds far from the limiter's epoch, with the clock gone back 1e12 ms", () => {
    const clock = new FakeClock(1e12);
    const limiter = new Limiter(byKey, limit(7, "1m"), { clock });
    clock.set(0);
    expect(limiter.allowN("k", 7)).toBe(true);
    const { retryAfterMs } = limiter.allowWithDetails("k");
    expectRetry(retryAfterMs, 60_000 / 7, 1e12);
    clock.advance(retryAfterMs);
    expect(limiter.allow("k")).toBe(true);
    expect(limiter.allow("k")).toBe(false);
  });
});

describe("exactness properties", () => {
  it("allow count times in a row, then deny: counts to 1,000,000, periods 1 ms to 30 days", () => {
    fc.assert(
      fc.property(countArb, periodArb, startArb, periodArb, (count, periodMs, startMs, idleMs) => {
        const clock = new FakeClock(startMs);
        const limiter = new Limiter(byKey, limit(count, periodMs), { clock });
        clock.advance(idleMs);
        expect(limiter.peekWithDetails("k").tokensRemaining).toBe(count);
        let allowed = 0;
        while (allowed <= count && limiter.allow("k")) allowed++;
        expect(allowed).toBe(count);
        expect(limiter.peekWithDetails("k").tokensRemaining).toBe(0);
      }),
      { numRuns: 20 },
    );
  });

  it("allow count times in a row, then deny, on the multi-limit path too", () => {
    fc.assert(
      fc.property(countArb, periodArb, startArb, (count, periodMs, startMs) => {
        const clock = new FakeClock(startMs);
        const l = limit(count, periodMs);
        // A limit func makes the limiter take the general path rather than the single-limit one.
        const limiter = new Limiter(byKey, [l, () => null], { clock });
        let allowed = 0;
        while (allowed <= count && limiter.allowN("k", 1)) allowed++;
        expect(allowed).toBe(count);
        expect(limiter.allowWithDetails("k")).toMatchObject({ allowed: false, tokensRemaining: 0 });
      }),
      { numRuns: 8 },
    );
  });

  it("after draining, one token's worth of time (a whole number of ms) gives exactly one token", () => {
    const arb = countArb.chain((count) =>
      fc.record({
        count: fc.constant(count),
        tokenMs: fc.integer({ min: 1, max: Math.floor((30 * DAY_MS) / count) }),
        startMs: startArb,
      }),
    );
    fc.assert(
      fc.property(arb, ({ count, tokenMs, startMs }) => {
        const clock = new FakeClock(startMs);
        const limiter = new Limiter(byKey, limit(count, count * tokenMs), { clock });
        expect(limiter.allowN("k", count)).toBe(true);
        for (let i = 0; i < 3; i++) {
          expect(limiter.allowWithDetails("k")).toMatchObject({
            allowed: false,
            retryAfterMs: tokenMs,
          });
          clock.advance(tokenMs - 1);
          expect(limiter.peek("k")).toBe(false);
          clock.advance(1);
          expect(limiter.peekWithDetails("k").tokensRemaining).toBe(1);
          expect(limiter.allow("k")).toBe(true);
          expect(limiter.allow("k")).toBe(false);
        }
      }),
      { numRuns: 200 },
    );
  });

  it("after draining, advancing by retryAfterMs gives exactly one token, any count and period", () => {
    fc.assert(
      fc.property(countArb, periodArb, startArb, (count, periodMs, startMs) => {
        // A clock reading near 1e12 ms moves in steps of about 1e-4 ms: "exactly one token"
        // needs a token worth many such steps.
        fc.pre(periodMs / count > Math.abs(startMs) * 2 ** -40);
        const clock = new FakeClock(startMs);
        const limiter = new Limiter(byKey, limit(count, periodMs), { clock });
        expect(limiter.allowN("k", count)).toBe(true);
        for (let i = 0; i < 3; i++) {
          const { retryAfterMs } = limiter.allowWithDetails("k");
          // Spent up to the present, the next token is period / count away. Later rounds start a
          // hair past the token the last retry-after reached, so the next is a hair nearer.
          if (i === 0) expectRetry(retryAfterMs, periodMs / count, clock.now());
          expect(retryAfterMs).toBeGreaterThan(0);
          const slack = (Math.abs(clock.now()) + periodMs / count) * 2 ** -48;
          expect(retryAfterMs).toBeLessThanOrEqual(periodMs / count + slack);
          clock.advance(retryAfterMs);
          expect(limiter.peekWithDetails("k").tokensRemaining).toBe(1);
          expect(limiter.allow("k")).toBe(true);
          expect(limiter.allow("k")).toBe(false);
        }
      }),
      { numRuns: 300 },
    );
  });
});

describe("exactness far from the limiter's creation", () => {
  it("holds after 200 days at 1,000,000 per ms once gc has run (it moves the epoch up)", () => {
    const clock = new FakeClock(0);
    const limiter = new Limiter(byKey, limit(1_000_000, 1), { clock });
    expect(limiter.allow("old")).toBe(true);
    clock.advance(200 * 86_400_000);
    limiter.gc();
    let allowed = 0;
    while (limiter.allow("k")) allowed++;
    expect(allowed).toBe(1_000_000);
    const later = new Limiter(byKey, limit(999_983, 2_591_999_987), { clock });
    clock.advance(200 * 86_400_000);
    later.gc();
    expect(later.peekNWithDetails("k", 0).tokensRemaining).toBe(999_983);
    expect(later.allowN("k", 999_983)).toBe(true);
    expect(later.allow("k")).toBe(false);
  });

  it("keeps a held bucket's tokens when gc moves the epoch", () => {
    const clock = new FakeClock(0);
    const limiter = new Limiter(byKey, limit(1_000_000, 1), { clock });
    clock.advance(150 * 86_400_000);
    expect(limiter.allowN("k", 400_000)).toBe(true);
    const before = limiter.peekWithDebug("k");
    limiter.gc();
    expect(limiter.peekWithDebug("k")).toEqual(before);
    expect(limiter.allowN("k", 600_000)).toBe(true);
    expect(limiter.allow("k")).toBe(false);
  });
});
