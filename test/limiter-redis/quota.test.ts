import type { Redis } from "ioredis";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { Limiter, limit, quota } from "@/lib/limiter";
import { combineRedis, quotaKey, RedisLimiter } from "@/lib/limiter-redis";
import { FakeClock } from "../support/fake-clock";
import { type RedisServer, startRedisServer } from "../support/redis-server";

// What only the Redis path has for quotas; the behaviour it shares with the in-memory limiter
// is in test/limiter/shared-cases.ts.

const byInput = (input: string) => input;
const at = (iso: string) => Date.parse(iso);
const MAY_10 = at("2026-05-10T12:00:00Z");
const MAY_1 = at("2026-05-01T00:00:00Z");
const JUNE_1 = at("2026-06-01T00:00:00Z");

let server: RedisServer;
let redis: Redis;
let other: Redis;

beforeAll(async () => {
  server = await startRedisServer();
  redis = server.client();
  other = server.client();
});

afterAll(async () => {
  await server?.close();
});

beforeEach(async () => {
  await redis.flushall();
});

describe("RedisLimiter with quotas", () => {
  it("keeps a quota in a hash <prefix>:{<key>}:q:<calendarId> beside the key's buckets", async () => {
    const clock = new FakeClock(MAY_10);
    const q = quota(5, "month", { timeZone: "Europe/Berlin", anchorDay: 15 });
    const limiter = new RedisLimiter(redis, byInput, [limit(3, "1s"), q], { clock });
    expect(await limiter.allowN("alice", 2)).toBe(true);
    const key = quotaKey("rk", "alice", q);
    expect(key).toBe("rk:{alice}:q:month:15:Europe/Berlin");
    expect((await redis.keys("*")).sort()).toEqual(["rk:{alice}:3/1000", key]);
    expect(await redis.hgetall(key)).toEqual({
      start: String(at("2026-04-14T22:00:00Z")),
      used: "2",
    });
    // An injected clock does not follow the server's: no expiry then.
    expect(await redis.pttl(key)).toBe(-1);
    expect(await limiter.forget("alice")).toBe(2);
  });

  it("admits exactly the count among 200 concurrent decisions from two instances", async () => {
    const clock = new FakeClock(MAY_10);
    const q = quota(30, "month");
    const one = new RedisLimiter(redis, byInput, [limit(1_000, "1s"), q], { clock });
    const two = new RedisLimiter(other, byInput, [limit(1_000, "1s"), q], { clock });
    const results = await Promise.all(
      Array.from({ length: 200 }, (_, i) => (i % 2 === 0 ? one : two).allow("hot")),
    );
    expect(results.filter(Boolean)).toHaveLength(30);
    expect(await redis.hget(quotaKey("rk", "hot", q), "used")).toBe("30");
    // The refusals took nothing from the bucket either: 30 of 1,000 spent.
    expect((await one.peekWithDetails("hot")).tokensRemaining).toBe(0);
    expect((await one.peekWithDebug("hot")).buckets[0]?.tokensRemaining).toBe(970);
  });

  it("on the server's clock, admits exactly the count concurrently and expires the key a day after the period", async () => {
    const q = quota(30, "day");
    const one = new RedisLimiter(redis, byInput, q);
    const two = new RedisLimiter(other, byInput, q);
    const results = await Promise.all(
      Array.from({ length: 200 }, (_, i) => (i % 2 === 0 ? one : two).allow("hot")),
    );
    expect(results.filter(Boolean)).toHaveLength(30);
    const key = quotaKey("rk", "hot", q);
    const start = Number(await redis.hget(key, "start"));
    const [seconds] = (await redis.time()) as [string | number, string | number];
    const window = q.calendar.windowAt(Number(seconds) * 1_000);
    expect(start).toBe(window.startMs);
    const expiresAt = Number(await redis.pexpiretime(key));
    expect(expiresAt).toBe(window.endMs + 86_400_000);
    const refused = await one.allowWithDetails("hot");
    expect(refused.allowed).toBe(false);
    expect(refused.retryAfterMs).toBe(window.endMs - refused.executionTime);
  });

  it("a lagging instance at a boundary uses the newer period another instance stored", async () => {
    const q = quota(3, "month");
    const ahead = new RedisLimiter(redis, byInput, q, { clock: new FakeClock(JUNE_1 + 5) });
    const lagging = new RedisLimiter(other, byInput, q, { clock: new FakeClock(JUNE_1 - 5) });
    // May: the lagging instance's period, with 2 used.
    expect(await lagging.allowN("a", 2)).toBe(true);
    // June begins for the instance ahead: a stored start older than its period's resets.
    expect(await ahead.allow("a")).toBe(true);
    expect(await redis.hgetall(quotaKey("rk", "a", q))).toEqual({
      start: String(JUNE_1),
      used: "1",
    });
    // The lagging instance, still in May by its clock, counts in June's period, not May's.
    const debug = await lagging.allowNWithDebug("a", 2);
    expect(debug.allowed).toBe(true);
    expect(debug.quotas?.[0]).toMatchObject({
      used: 1,
      remaining: 0,
      periodStartMs: JUNE_1,
      periodEndMs: at("2026-07-01T00:00:00Z"),
    });
    expect(await redis.hgetall(quotaKey("rk", "a", q))).toEqual({
      start: String(JUNE_1),
      used: "3",
    });
    expect(await lagging.allow("a")).toBe(false);
  });

  it("is all or nothing with buckets across combined limiters, in both directions", async () => {
    const clock = new FakeClock(MAY_10);
    const quotas = new RedisLimiter(redis, byInput, quota(2, "week"), { clock, prefix: "q" });
    const buckets = new RedisLimiter(redis, byInput, limit(1, "1h"), { clock, prefix: "b" });
    const both = combineRedis(quotas, buckets);
    expect(await both.allow("a")).toBe(true);
    expect(await both.allow("a")).toBe(false);
    expect((await quotas.peekWithDetails("a")).tokensRemaining).toBe(1);
    clock.advance(3_600_000);
    expect(await both.allow("a")).toBe(true);
    clock.advance(3_600_000);
    expect(await both.allowWithDetails("a")).toMatchObject({
      allowed: false,
      retryAfterMs: at("2026-05-11T00:00:00Z") - clock.now(),
    });
    expect((await buckets.peekWithDetails("a")).tokensRemaining).toBe(1);
  });

  it("decides quota decisions in one batch, each against the state the one before left", async () => {
    const clock = new FakeClock(MAY_10);
    const limiter = new RedisLimiter(redis, byInput, [quota(3, "day"), limit(100, "1s")], {
      clock,
    });
    const results = await Promise.all([
      limiter.allowN("a", 2),
      limiter.peekN("a", 1),
      limiter.allowN("a", 2),
      limiter.allowN("b", 3),
      limiter.allowNWithDetails("a", 1),
    ]);
    expect(results.slice(0, 4)).toEqual([true, true, false, true]);
    expect(results[4]).toMatchObject({ allowed: true, tokensRemaining: 0 });
  });

  it("refuses a key that holds something else, taking nothing", async () => {
    const clock = new FakeClock(MAY_10);
    const q = quota(3, "day");
    const limiter = new RedisLimiter(redis, byInput, [limit(5, "1s"), q], { clock });
    await redis.set(quotaKey("rk", "broken", q), "x");
    await expect(limiter.allow("broken")).rejects.toThrow(/something other than a bucket/);
    expect(await redis.exists("rk:{broken}:5/1000")).toBe(0);
  });

  it("refuses an injected clock that does not count from the Unix epoch", async () => {
    const limiter = new RedisLimiter(redis, byInput, quota(3, "day"), { clock: new FakeClock(5) });
    await expect(limiter.allow("a")).rejects.toThrow(/Unix epoch/);
    expect(await redis.keys("*")).toEqual([]);
  });
});

describe("RedisLimiter quota persistence hooks", () => {
  it("reads a key's quota state, and restores one: larger used in the same period, past ignored", async () => {
    const clock = new FakeClock(MAY_10);
    const q = quota(10, "month");
    const limiter = new RedisLimiter(redis, byInput, q, { clock });
    expect(await limiter.quotaState("a", q)).toBeNull();
    await limiter.allowN("a", 3);
    const state = await limiter.quotaState("a", q);
    expect(state).toEqual({ key: "a", calendarId: "month:1:UTC", startMs: MAY_1, used: 3 });

    const same = { key: "a", calendarId: q.calendarId, startMs: MAY_1 };
    expect(await limiter.restoreQuota(q, { ...same, used: 2 })).toBe(false);
    expect(await limiter.restoreQuota(q, { ...same, used: 5 })).toBe(true);
    expect((await limiter.peekWithDetails("a")).tokensRemaining).toBe(5);
    const april = at("2026-04-01T00:00:00Z");
    expect(await limiter.restoreQuota(q, { ...same, key: "b", startMs: april, used: 9 })).toBe(
      false,
    );
    expect(await limiter.quotaState("b", q)).toBeNull();
    expect(await limiter.restoreQuota(q, { ...same, key: "b", used: 4 })).toBe(true);
    expect(await limiter.quotaState("b", q)).toEqual({ ...same, key: "b", used: 4 });
    // A stored state of a past period is replaced.
    clock.set(JUNE_1);
    expect(await limiter.restoreQuota(q, { ...same, startMs: JUNE_1, used: 1 })).toBe(true);
    expect((await limiter.peekWithDetails("a")).tokensRemaining).toBe(9);
    await expect(
      limiter.restoreQuota(q, { ...same, calendarId: "day:UTC", used: 1 }),
    ).rejects.toThrow(/day:UTC/);
  });

  it("restores what the in-memory limiter lists, to the same decisions", async () => {
    const clock = new FakeClock(MAY_10);
    const q = quota(10, "month");
    const memory = new Limiter(byInput, q, { clock });
    memory.allowN("a", 4);
    memory.allowN("b", 10);
    const limiter = new RedisLimiter(redis, byInput, q, { clock });
    for (const state of memory.quotaStates()) {
      expect(await limiter.restoreQuota(q, state as typeof state & { key: string })).toBe(true);
    }
    expect((await limiter.peekWithDetails("a")).tokensRemaining).toBe(6);
    expect(await limiter.allow("b")).toBe(false);
  });
});
