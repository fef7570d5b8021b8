import type { Redis } from "ioredis";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { limit, quota } from "@/lib/limiter";
import { quotaKey, RedisLimiter } from "@/lib/limiter-redis";
import { QuotaMemory } from "@/lib/limiter-redis/quota-memory";
import { FakeClock } from "../support/fake-clock";
import { type RedisServer, startRedisServer } from "../support/redis-server";

// A quota key Redis loses (FLUSHALL, an eviction, a restart without persistence) is seeded, in
// the decision script, with the last count the deciding instance saw of it this period.

const byInput = (input: string) => input;
const MAY_10 = Date.parse("2026-05-10T12:00:00Z");
const JUNE_2 = Date.parse("2026-06-02T12:00:00Z");

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

describe("a quota key Redis lost", () => {
  it("after FLUSHALL, the next decision of an instance that decided before still knows the count", async () => {
    const clock = new FakeClock(MAY_10);
    const q = quota(5, "month");
    const one = new RedisLimiter(redis, byInput, [limit(100, "1s"), q], { clock });
    const two = new RedisLimiter(other, byInput, q, { clock });
    expect(await one.allowN("a", 3)).toBe(true);
    await redis.flushall();
    // A peek sees the remembered count and writes nothing.
    expect((await one.peekNWithDebug("a", 0)).quotas?.[0]?.used).toBe(3);
    expect(await redis.exists(quotaKey("rk", "a", q))).toBe(0);
    // An instance that never decided on the key knows nothing of it.
    expect((await two.peekNWithDebug("a", 0)).quotas?.[0]?.used).toBe(0);
    // The next decision writes the seeded count back: every instance sees it then.
    expect(await one.allowN("a", 2)).toBe(true);
    expect(await redis.hget(quotaKey("rk", "a", q), "used")).toBe("5");
    expect(await two.allow("a")).toBe(false);
    expect(await one.allow("a")).toBe(false);
  });

  it("a refusal by the seeded count takes nothing and the key stays seeded", async () => {
    const clock = new FakeClock(MAY_10);
    const q = quota(5, "month");
    const one = new RedisLimiter(redis, byInput, q, { clock });
    expect(await one.allowN("a", 4)).toBe(true);
    await redis.flushall();
    expect(await one.allowN("a", 2)).toBe(false);
    expect(await redis.exists(quotaKey("rk", "a", q))).toBe(0);
    expect(await one.allowN("a", 1)).toBe(true);
    expect(await one.allow("a")).toBe(false);
  });

  it("a key written again lower in the same period (a lagging restore) counts the remembered count", async () => {
    const clock = new FakeClock(MAY_10);
    const q = quota(10, "month");
    const one = new RedisLimiter(redis, byInput, q, { clock });
    expect(await one.allowN("a", 6)).toBe(true);
    await redis.flushall();
    const start = String(Date.parse("2026-05-01T00:00:00Z"));
    await redis.hset(quotaKey("rk", "a", q), "start", start, "used", "2");
    expect(await one.allowN("a", 5)).toBe(false);
    expect(await one.allowN("a", 4)).toBe(true);
    expect(await redis.hget(quotaKey("rk", "a", q), "used")).toBe("10");
  });

  it("a count remembered for a past period seeds nothing", async () => {
    const clock = new FakeClock(MAY_10);
    const one = new RedisLimiter(redis, byInput, quota(5, "month"), { clock });
    expect(await one.allowN("a", 5)).toBe(true);
    await redis.flushall();
    clock.set(JUNE_2);
    expect(await one.allowN("a", 5)).toBe(true);
  });

  it("a reset (forget) drops what the instance remembers of the key", async () => {
    const clock = new FakeClock(MAY_10);
    const one = new RedisLimiter(redis, byInput, quota(5, "month"), { clock });
    expect(await one.allowN("a", 5)).toBe(true);
    await one.forget("a");
    expect(await one.allowN("a", 5)).toBe(true);
  });

  it("dry-run quotas (a shadow) are remembered too, and a skipped shadow's quotas keep the batch in step", async () => {
    const clock = new FakeClock(MAY_10);
    const dry = quota(2, "day");
    const limiter = new RedisLimiter<{ key: string; dryRun?: boolean }>(
      redis,
      (input) => input.key,
      [(input) => (input.dryRun ? dry : limit(1, "1h"))],
      { clock },
    );
    const [first, second, third] = await Promise.all([
      limiter.allowNWithShadow({ key: "a" }, 1, { key: "a", dryRun: true }),
      limiter.allowNWithShadow({ key: "a" }, 1, { key: "a", dryRun: true }),
      limiter.allowNWithShadow({ key: "b" }, 1, { key: "b", dryRun: true }),
    ]);
    expect([first?.details.allowed, second?.details.allowed, third?.details.allowed]).toEqual([
      true,
      false,
      true,
    ]);
    expect(second?.shadow).toBeNull();
    expect(third?.shadow?.quotas?.[0]).toMatchObject({ used: 0, remaining: 1 });
    await redis.flushall();
    clock.advance(3_600_000);
    const again = await limiter.allowNWithShadow({ key: "a" }, 1, { key: "a", dryRun: true });
    expect(again.shadow?.quotas?.[0]).toMatchObject({ used: 1, remaining: 0 });
  });
});

describe("QuotaMemory", () => {
  it("keeps at most its capacity, forgetting the least recently seen first", () => {
    const memory = new QuotaMemory(2);
    const q = quota(9, "day");
    memory.seen("k1", q, "a", 100, 1);
    memory.seen("k2", q, "b", 100, 2);
    memory.seen("k1", q, "a", 100, 3);
    memory.seen("k3", q, "c", 100, 4);
    expect(memory.size).toBe(2);
    expect([memory.seed("k1", 100), memory.seed("k2", 100), memory.seed("k3", 100)]).toEqual([
      3, 0, 4,
    ]);
    expect(memory.seed("k1", 200)).toBe(0);
  });

  it("raise keeps the larger count of a period and never goes back to an earlier one", () => {
    const memory = new QuotaMemory();
    const q = quota(9, "day");
    memory.seen("k", q, "a", 200, 5);
    memory.raise("k", q, "a", 200, 3);
    memory.raise("k", q, "a", 100, 8);
    expect(memory.seed("k", 200)).toBe(5);
    memory.raise("k", q, "a", 200, 7);
    expect(memory.seed("k", 200)).toBe(7);
  });
});
