import { describe, expect, it } from "vitest";
import { combine, Limiter, limit, type QuotaDetails, quota } from "@/lib/limiter";
import { FakeClock } from "../support/fake-clock";

const byKey = (key: string) => key;
const at = (iso: string) => Date.parse(iso);
const MAY_10 = at("2026-05-10T12:00:00Z");
const JUNE_1 = at("2026-06-01T00:00:00Z");

describe("quota", () => {
  it("builds an immutable quota whose calendar id leaves out the count", () => {
    const q = quota(30, "month", { timeZone: "Europe/Berlin", anchorDay: 15 });
    expect(q.count).toBe(30);
    expect(q.calendarId).toBe("month:15:Europe/Berlin");
    expect(q.id).toBe("30@month:15:Europe/Berlin");
    expect(quota(31, "month", { timeZone: "Europe/Berlin", anchorDay: 15 }).calendarId).toBe(
      q.calendarId,
    );
    expect(Object.isFrozen(q)).toBe(true);
    expect(String(q)).toBe("30 per month (day 15, Europe/Berlin)");
    expect(() => quota(0, "day")).toThrow(/count/);
    expect(() => quota(1.5, "day")).toThrow(/count/);
    expect(() => quota(1, "day", { timeZone: "Nowhere/Land" })).toThrow(/Nowhere\/Land/);
  });
});

describe("a limiter with a quota", () => {
  it("admits count tokens in a period, refuses until its end, and starts afresh after", () => {
    const clock = new FakeClock(MAY_10);
    const limiter = new Limiter(byKey, quota(3, "month"), { clock });
    expect(limiter.allowN("a", 2)).toBe(true);
    expect(limiter.allow("a")).toBe(true);
    const refused = limiter.allowWithDetails("a");
    expect(refused).toEqual({
      allowed: false,
      executionTime: MAY_10,
      tokensRequested: 1,
      tokensConsumed: 0,
      tokensRemaining: 0,
      retryAfterMs: JUNE_1 - MAY_10,
    });
    expect(limiter.allow("b")).toBe(true);
    // Idle across the boundary: the next call sees the new period.
    clock.set(JUNE_1 - 1);
    expect(limiter.allow("a")).toBe(false);
    clock.set(JUNE_1);
    expect(limiter.allowWithDetails("a")).toMatchObject({ allowed: true, tokensRemaining: 2 });
  });

  it("waits on a fake clock until the period's end", async () => {
    const clock = new FakeClock(MAY_10);
    const limiter = new Limiter(byKey, quota(1, "day"), { clock });
    limiter.allow("a");
    let done = false;
    const waited = limiter.wait("a").then((d) => {
      done = true;
      return d;
    });
    await Promise.resolve();
    expect(done).toBe(false);
    clock.set(at("2026-05-11T00:00:00Z"));
    expect(await waited).toMatchObject({ allowed: true, tokensRemaining: 0 });
  });

  it("counts a cost-based n and refuses n above the count with Infinity", async () => {
    const clock = new FakeClock(MAY_10);
    const limiter = new Limiter(byKey, quota(10, "day"), { clock });
    expect(limiter.allowN("a", 7)).toBe(true);
    expect(limiter.allowNWithDetails("a", 4)).toMatchObject({
      allowed: false,
      tokensRemaining: 3,
      retryAfterMs: at("2026-05-11T00:00:00Z") - MAY_10,
    });
    expect(limiter.allowN("a", 3)).toBe(true);
    expect(limiter.allowNWithDetails("b", 11).retryAfterMs).toBe(Number.POSITIVE_INFINITY);
    expect(limiter.allowNWithDetails("b", 0)).toMatchObject({ allowed: true, tokensConsumed: 0 });
    await expect(limiter.waitN("b", 11)).rejects.toThrow(RangeError);
  });

  it("keeps the used count when a limit func edits the quota's count mid-period", () => {
    const clock = new FakeClock(MAY_10);
    let count = 5;
    const limiter = new Limiter(byKey, () => quota(count, "month"), { clock });
    expect(limiter.allowN("a", 4)).toBe(true);
    count = 6;
    expect(limiter.peekWithDetails("a").tokensRemaining).toBe(2);
    expect(limiter.allowN("a", 2)).toBe(true);
    expect(limiter.allow("a")).toBe(false);
    count = 3;
    // Lowered below what is used: nothing remains (never negative).
    expect(limiter.peekWithDetails("a").tokensRemaining).toBe(0);
    count = 10;
    expect(limiter.allowN("a", 4)).toBe(true);
    expect(limiter.size).toBe(1);
  });

  it("counts two quotas of one calendar in a decision once, at the smaller count", () => {
    const clock = new FakeClock(MAY_10);
    const limiter = new Limiter(byKey, [quota(5, "day"), quota(3, "day")], { clock });
    expect(limiter.allowN("a", 3)).toBe(true);
    expect(limiter.allow("a")).toBe(false);
    expect(limiter.allowWithDebug("a").quotas).toHaveLength(1);
  });

  it("refusal by a quota takes nothing from the buckets, and refusal by a bucket nothing from the quota", () => {
    const clock = new FakeClock(MAY_10);
    const limiter = new Limiter(byKey, [limit(2, "1s"), quota(3, "day")], { clock });
    // The bucket refuses the third in the same second: the quota counts only the two it took.
    expect(limiter.allow("a")).toBe(true);
    expect(limiter.allow("a")).toBe(true);
    expect(limiter.allow("a")).toBe(false);
    const debug = limiter.peekWithDebug("a");
    expect(debug.quotas?.[0]?.used).toBe(2);
    clock.advance(1_000);
    expect(limiter.allow("a")).toBe(true);
    // The quota is spent: a refusal leaves the bucket's tokens.
    clock.advance(1_000);
    expect(limiter.allowWithDetails("a")).toMatchObject({ allowed: false });
    expect(limiter.peekWithDebug("a").buckets[0]?.tokensRemaining).toBe(2);
  });

  it("is all or nothing across combined limiters, both ways", () => {
    const clock = new FakeClock(MAY_10);
    const quotas = new Limiter(byKey, quota(2, "week"), { clock });
    const buckets = new Limiter(byKey, limit(1, "1h"), { clock });
    const both = combine(quotas, buckets);
    expect(both.allow("a")).toBe(true);
    expect(both.allow("a")).toBe(false);
    expect(quotas.peekWithDetails("a").tokensRemaining).toBe(1);
    clock.advance(3_600_000);
    expect(both.allow("a")).toBe(true);
    clock.advance(3_600_000);
    expect(both.allowWithDetails("a")).toMatchObject({
      allowed: false,
      retryAfterMs: at("2026-05-11T00:00:00Z") - clock.now(),
    });
    expect(buckets.peekWithDetails("a").tokensRemaining).toBe(1);
  });

  it("reports the least remaining and the longest retry over buckets and quotas", () => {
    const clock = new FakeClock(MAY_10);
    const limiter = new Limiter(byKey, [limit(5, "1h"), quota(2, "day")], { clock });
    expect(limiter.allowWithDetails("a").tokensRemaining).toBe(1);
    limiter.allow("a");
    expect(limiter.allowWithDetails("a")).toMatchObject({
      allowed: false,
      tokensRemaining: 0,
      retryAfterMs: at("2026-05-11T00:00:00Z") - MAY_10,
    });
  });

  it("reports each quota in debug details, beside unchanged bucket entries", () => {
    const clock = new FakeClock(MAY_10);
    const q = quota(3, "day", { timeZone: "Europe/Berlin" });
    const l = limit(10, "1m");
    const limiter = new Limiter(byKey, [l, q], { clock });
    limiter.allowN("a", 2);
    const debug = limiter.allowWithDebug("a");
    const start = at("2026-05-09T22:00:00Z");
    const end = at("2026-05-10T22:00:00Z");
    expect(debug.buckets).toHaveLength(1);
    expect(debug.buckets[0]).toMatchObject({ limit: l, key: "a", tokensRemaining: 7 });
    expect(Object.keys(debug.buckets[0] ?? {})).not.toContain("kind");
    expect(debug.quotas).toEqual([
      {
        allowed: true,
        executionTime: MAY_10,
        tokensRequested: 1,
        tokensConsumed: 1,
        tokensRemaining: 0,
        retryAfterMs: 0,
        kind: "quota",
        quota: q,
        key: "a",
        used: 2,
        remaining: 0,
        periodStartMs: start,
        periodEndMs: end,
        resetInMs: end - MAY_10,
      } satisfies QuotaDetails,
    ]);
    const refused = limiter.peekWithDebug("a").quotas?.[0];
    expect(refused).toMatchObject({ allowed: false, used: 3, retryAfterMs: end - MAY_10 });
    // Without quotas the debug details are as before: no quotas field.
    expect("quotas" in new Limiter(byKey, l, { clock }).allowWithDebug("a")).toBe(false);
  });

  it("peeks without consuming and without creating state", () => {
    const clock = new FakeClock(MAY_10);
    const limiter = new Limiter(byKey, quota(1, "day"), { clock });
    expect(limiter.peek("a")).toBe(true);
    expect(limiter.peekWithDebug("a").quotas?.[0]?.used).toBe(0);
    expect(limiter.size).toBe(0);
    expect(limiter.allow("a")).toBe(true);
    expect(limiter.peek("a")).toBe(false);
  });

  it("refuses loudly on a clock that does not count from the Unix epoch", () => {
    expect(() => new Limiter(byKey, quota(1, "day"), { clock: new FakeClock(5_000) })).toThrow(
      /Unix epoch/,
    );
    const clock = new FakeClock(5_000);
    const limiter = new Limiter(byKey, () => quota(1, "day"), { clock });
    expect(() => limiter.allow("a")).toThrow(/Unix epoch/);
    expect(limiter.size).toBe(0);
  });

  it("gc deletes state equal to absence (nothing used, or a past period) and size counts it", () => {
    const clock = new FakeClock(MAY_10);
    const limiter = new Limiter(byKey, [quota(5, "day"), quota(5, "month")], { clock });
    limiter.allow("a");
    limiter.allow("b");
    expect(limiter.size).toBe(4);
    expect(limiter.gc()).toBe(0);
    clock.set(at("2026-05-11T00:00:00Z"));
    // The day's states are of a past period; the month's are still used.
    expect(limiter.gc()).toBe(2);
    expect(limiter.size).toBe(2);
    expect(limiter.peekWithDetails("a").tokensRemaining).toBe(4);
    clock.set(JUNE_1);
    expect(limiter.gc()).toBe(2);
    expect(limiter.size).toBe(0);
  });

  it("never reads a recycled slot for the key that left it (the hot-key cache forgets it)", () => {
    const clock = new FakeClock(MAY_10);
    const limiter = new Limiter(byKey, quota(3, "day"), { clock });
    expect(limiter.allowN("a", 1)).toBe(true);
    // A second decision finds "a" held: the one the cache remembers.
    expect(limiter.allowN("a", 2)).toBe(true);
    expect(limiter.forget("a")).toBe(1);
    // "b" takes the slot "a" left; "a" must read as unused, not as "b"'s state.
    expect(limiter.allowN("b", 2)).toBe(true);
    expect(limiter.peekWithDetails("a").tokensRemaining).toBe(3);
    expect(limiter.allowN("a", 1)).toBe(true);
    clock.set(at("2026-05-11T00:00:00Z"));
    expect(limiter.gc()).toBe(2);
    expect(limiter.allowN("c", 3)).toBe(true);
    expect(limiter.peekWithDetails("b").tokensRemaining).toBe(3);
  });

  it("forget and clear drop quota state too", () => {
    const clock = new FakeClock(MAY_10);
    const limiter = new Limiter(byKey, quota(1, "day"), { clock });
    limiter.allow("a");
    limiter.allow("b");
    expect(limiter.forget("a")).toBe(1);
    expect(limiter.allow("a")).toBe(true);
    limiter.clear();
    expect(limiter.size).toBe(0);
  });
});

describe("quota persistence hooks", () => {
  it("lists quota states and restores them, the larger used winning in the same period", () => {
    const clock = new FakeClock(MAY_10);
    const q = quota(10, "month");
    const limiter = new Limiter(byKey, q, { clock });
    limiter.allowN("a", 3);
    const start = at("2026-05-01T00:00:00Z");
    expect(limiter.quotaStates()).toEqual([
      { key: "a", calendarId: "month:1:UTC", startMs: start, used: 3 },
    ]);

    const restarted = new Limiter(byKey, q, { clock });
    for (const state of limiter.quotaStates()) expect(restarted.restoreQuota(q, state)).toBe(true);
    expect(restarted.peekWithDetails("a").tokensRemaining).toBe(7);
    // The same period: the larger used count wins either way.
    expect(
      restarted.restoreQuota(q, { key: "a", calendarId: q.calendarId, startMs: start, used: 2 }),
    ).toBe(false);
    expect(
      restarted.restoreQuota(q, { key: "a", calendarId: q.calendarId, startMs: start, used: 5 }),
    ).toBe(true);
    expect(restarted.peekWithDetails("a").tokensRemaining).toBe(5);
    // A past period is ignored.
    const april = at("2026-04-01T00:00:00Z");
    expect(
      restarted.restoreQuota(q, { key: "b", calendarId: q.calendarId, startMs: april, used: 9 }),
    ).toBe(false);
    expect(restarted.peekWithDetails("b").tokensRemaining).toBe(10);
    // A stale state in the limiter is replaced by a restored one of the current period.
    clock.set(JUNE_1);
    expect(
      restarted.restoreQuota(q, { key: "a", calendarId: q.calendarId, startMs: JUNE_1, used: 1 }),
    ).toBe(true);
    expect(restarted.peekWithDetails("a").tokensRemaining).toBe(9);
  });

  it("refuses a state of another calendar, or with a bad used count", () => {
    const clock = new FakeClock(MAY_10);
    const q = quota(10, "month");
    const limiter = new Limiter(byKey, q, { clock });
    expect(() =>
      limiter.restoreQuota(q, { key: "a", calendarId: "day:UTC", startMs: MAY_10, used: 1 }),
    ).toThrow(/day:UTC/);
    expect(() =>
      limiter.restoreQuota(q, { key: "a", calendarId: q.calendarId, startMs: MAY_10, used: -1 }),
    ).toThrow(RangeError);
  });
});
