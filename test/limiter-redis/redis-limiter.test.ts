import type { Redis } from "ioredis";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { limit } from "@/lib/limiter";
import { bucketKey, combineRedis, DECIDE_SHA, RedisLimiter } from "@/lib/limiter-redis";
import { FakeClock } from "../support/fake-clock";
import { type RedisServer, startRedisServer } from "../support/redis-server";

// What only the Redis path has; the behaviour it shares with the in-memory limiter is tested by
// test/limiter/shared-cases.test.ts.

const byInput = (input: string) => input;

let server: RedisServer;
/** redis and other are two clients, as two app instances would have. */
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

/** allKeys lists every key in Redis, sorted. */
async function allKeys(): Promise<string[]> {
  return (await redis.keys("*")).sort();
}

/** serverMs reads the Redis server's clock in whole milliseconds. */
async function serverMs(): Promise<number> {
  const [seconds, micros] = (await redis.time()) as [string | number, string | number];
  return Number(seconds) * 1_000 + Math.floor(Number(micros) / 1_000);
}

/** hashTag is the part of a key Redis Cluster hashes: between the first "{" and the next "}". */
function hashTag(key: string): string | undefined {
  return /\{([^}]*)\}/.exec(key)?.[1];
}

describe("RedisLimiter: keys", () => {
  it("names a bucket <prefix>:{<key>}:<count>/<periodMs>", async () => {
    expect(bucketKey("rk", "alice", limit(3, "1s"))).toBe("rk:{alice}:3/1000");
    expect(bucketKey("app", 42, limit(5, "1m"))).toBe("app:{42}:5/60000");
    const clock = new FakeClock(0);
    const limiter = new RedisLimiter(redis, byInput, [limit(3, "1s"), () => limit(5, "1m")], {
      clock,
    });
    await limiter.allow("alice");
    expect(await allKeys()).toEqual(["rk:{alice}:3/1000", "rk:{alice}:5/60000"]);
  });

  it("puts every bucket of one key, across combined limiters, under one hash tag", async () => {
    const clock = new FakeClock(0);
    const first = new RedisLimiter(redis, byInput, [limit(3, "1s"), limit(10, "1m")], { clock });
    const second = new RedisLimiter(redis, byInput, () => [limit(100, "1h"), limit(7, "1d")], {
      prefix: "plan",
      clock,
    });
    expect(await combineRedis(first, second).allow("cust:9")).toBe(true);
    const keys = await allKeys();
    expect(keys).toHaveLength(4);
    expect(new Set(keys.map(hashTag))).toEqual(new Set(["cust:9"]));
  });

  it("keeps buckets of different prefixes apart", async () => {
    const clock = new FakeClock(0);
    const one = new RedisLimiter(redis, byInput, limit(1, "1h"), { prefix: "app1", clock });
    const two = new RedisLimiter(redis, byInput, limit(1, "1h"), { prefix: "app2", clock });
    expect(await one.allow("k")).toBe(true);
    expect(await two.allow("k")).toBe(true);
    expect(await one.allow("k")).toBe(false);
    expect(await two.allow("k")).toBe(false);
    expect(await allKeys()).toEqual(["app1:{k}:1/3600000", "app2:{k}:1/3600000"]);
  });

  it.each(["a{b", "a}b", "{}", ""])("refuses the prefix %j with a RangeError", (prefix) => {
    expect(() => new RedisLimiter(redis, byInput, limit(1, "1s"), { prefix })).toThrow(RangeError);
  });

  it("rejects with a TypeError when the key func returns an object, writing nothing", async () => {
    const byObject = (() => ({ id: 1 })) as unknown as (input: string) => string;
    const limiter = new RedisLimiter(redis, byObject, limit(1, "1s"));
    await expect(limiter.allow("k")).rejects.toThrow(TypeError);
    await expect(limiter.peekWithDetails("k")).rejects.toThrow(TypeError);
    expect(await redis.dbsize()).toBe(0);
  });

  it("refuses to combine limiters on different clients with a TypeError", () => {
    const one = new RedisLimiter(redis, byInput, limit(1, "1s"));
    const two = new RedisLimiter(other, byInput, limit(1, "1s"), { prefix: "two" });
    expect(() => combineRedis(one, two)).toThrow(TypeError);
    expect(() => combineRedis(one, one)).not.toThrow();
  });
});

describe("RedisLimiter: server time and expiry", () => {
  it("decides at the Redis server's time when no clock is given", async () => {
    const limiter = new RedisLimiter(redis, byInput, limit(3, "1s"));
    const before = await serverMs();
    const details = await limiter.allowWithDetails("k");
    const after = await serverMs();
    expect(Number.isInteger(details.executionTime)).toBe(true);
    expect(details.executionTime).toBeGreaterThanOrEqual(before);
    expect(details.executionTime).toBeLessThanOrEqual(after);
    expect(details).toMatchObject({ allowed: true, tokensRemaining: 2 });
  });

  it("expires a key when its bucket is full again", async () => {
    const limiter = new RedisLimiter(redis, byInput, limit(3, 3_000));
    // One token of 1000 ms taken: full again in 1000 ms.
    await limiter.allow("one");
    const one = await redis.pttl("rk:{one}:3/3000");
    expect(one).toBeGreaterThan(900);
    expect(one).toBeLessThanOrEqual(1_000);
    // Taken empty: full again in a period.
    await limiter.allowN("empty", 3);
    const empty = await redis.pttl("rk:{empty}:3/3000");
    expect(empty).toBeGreaterThan(2_900);
    expect(empty).toBeLessThanOrEqual(3_000);
  });

  it("rounds the expiry up to the next whole millisecond for fractional tokens", async () => {
    // 3 per 100 ms: a token is 33.33 ms, so one token taken is back within 34 ms.
    const limiter = new RedisLimiter(redis, byInput, limit(3, 100));
    await limiter.allow("k");
    const ttl = await redis.pttl("rk:{k}:3/100");
    expect(ttl).toBeGreaterThanOrEqual(1);
    expect(ttl).toBeLessThanOrEqual(34);
    await limiter.allowN("k2", 3);
    const full = await redis.pttl("rk:{k2}:3/100");
    expect(full).toBeGreaterThan(50);
    expect(full).toBeLessThanOrEqual(100);
  });

  it("sets no expiry with an injected clock", async () => {
    const limiter = new RedisLimiter(redis, byInput, limit(3, 100), { clock: new FakeClock(0) });
    await limiter.allow("k");
    expect(await redis.pttl("rk:{k}:3/100")).toBe(-1);
  });

  it.each([
    ["the server's clock", undefined],
    ["an injected clock", new FakeClock(5_000)],
  ])("peek writes nothing, on %s", async (_, clock) => {
    const limiter = new RedisLimiter(redis, byInput, [limit(2, "1s"), () => limit(5, "1m")], {
      clock,
    });
    expect(await limiter.peek("k")).toBe(true);
    expect(await limiter.peekN("k", 2)).toBe(true);
    expect(await limiter.peekN("k", 3)).toBe(false);
    expect((await limiter.peekWithDetails("k")).tokensRemaining).toBe(2);
    expect((await limiter.peekNWithDetails("k", 2)).allowed).toBe(true);
    expect((await limiter.peekWithDebug("k")).buckets).toHaveLength(2);
    expect((await limiter.peekNWithDebug("k", 9)).allowed).toBe(false);
    // Neither do allowN(0) and a denied allowN.
    expect(await limiter.allowN("k", 0)).toBe(true);
    expect(await limiter.allowN("k", 3)).toBe(false);
    expect(await redis.dbsize()).toBe(0);
  });
});

describe("RedisLimiter: forget and clear", () => {
  const perSecond = limit(2, "1s");
  const perMinute = limit(5, "1m");

  async function fill(limiter: RedisLimiter<string>, keys: string[]): Promise<void> {
    for (const key of keys) expect(await limiter.allow(key)).toBe(true);
  }

  it("forget deletes every bucket of the key and only of that key", async () => {
    const clock = new FakeClock(0);
    const limiter = new RedisLimiter(redis, byInput, [perSecond, () => perMinute], { clock });
    const others = new RedisLimiter(redis, byInput, perSecond, { prefix: "other", clock });
    const keys = ["a*b", "a", "ab", "aXb", "a?b", "[x]", "x", "a\\b", "a}:x", "a}:2/1000"];
    await fill(limiter, keys);
    await fill(others, ["a*b", "a"]);
    const before = await allKeys();

    const bucketsOf = (key: string) => [perSecond, perMinute].map((l) => bucketKey("rk", key, l));
    const without = (...gone: string[]) =>
      before.filter((k) => !gone.flatMap(bucketsOf).includes(k));

    expect(await limiter.forget("a*b")).toBe(2);
    expect(await allKeys()).toEqual(without("a*b"));
    expect(await limiter.forget("[x]")).toBe(2);
    expect(await limiter.forget("a")).toBe(2);
    expect(await limiter.forget("a")).toBe(0);
    expect(await allKeys()).toEqual(without("a*b", "[x]", "a"));
    // A forgotten key starts from full buckets; the others kept theirs.
    expect((await limiter.peekWithDetails("a")).tokensRemaining).toBe(2);
    expect((await limiter.peekWithDetails("a}:x")).tokensRemaining).toBe(1);
    expect((await others.peekWithDetails("a*b")).tokensRemaining).toBe(1);
  });

  it("forget takes number keys as their digits", async () => {
    const limiter = new RedisLimiter(redis, (n: number) => n, perSecond, {
      clock: new FakeClock(0),
    });
    await limiter.allow(7);
    await limiter.allow(77);
    expect(await limiter.forget(7)).toBe(1);
    expect(await allKeys()).toEqual(["rk:{77}:2/1000"]);
  });

  it("clear deletes only its own prefix", async () => {
    const clock = new FakeClock(0);
    const prefixes = ["rk", "rk:x", "rkx", "r*", "other"];
    const limiters = prefixes.map(
      (prefix) => new RedisLimiter(redis, byInput, [perSecond, perMinute], { prefix, clock }),
    );
    for (const limiter of limiters) await fill(limiter, ["a", "b"]);
    expect(await redis.dbsize()).toBe(20);
    await limiters[0]?.clear();
    expect((await allKeys()).filter((k) => k.startsWith("rk:{"))).toEqual([]);
    expect(await redis.dbsize()).toBe(16);
    await limiters[3]?.clear();
    expect((await allKeys()).map((k) => k.split(":{")[0])).toEqual(
      ["other", "rk:x", "rkx"].flatMap((p) => [p, p, p, p]),
    );
  });
});

describe("RedisLimiter: one store for many instances", () => {
  it("loads the script again after SCRIPT FLUSH", async () => {
    const limiter = new RedisLimiter(redis, byInput, limit(2, "1h"), { clock: new FakeClock(0) });
    expect(await limiter.allow("k")).toBe(true);
    await redis.script("FLUSH");
    expect(await redis.script("EXISTS", DECIDE_SHA)).toEqual([0]);
    expect(await limiter.allowWithDetails("k")).toMatchObject({
      allowed: true,
      tokensRemaining: 0,
    });
    expect(await limiter.allow("k")).toBe(false);
    expect(await redis.script("EXISTS", DECIDE_SHA)).toEqual([1]);
  });

  it("shares buckets between instances on separate clients", async () => {
    const a = new RedisLimiter(redis, byInput, limit(3, "1h"));
    const b = new RedisLimiter(other, byInput, limit(3, "1h"));
    expect(await a.allow("k")).toBe(true);
    expect(await a.allow("k")).toBe(true);
    expect(await b.allowWithDetails("k")).toMatchObject({ allowed: true, tokensRemaining: 0 });
    expect(await b.allow("k")).toBe(false);
    expect(await a.allow("k")).toBe(false);
    expect(await b.forget("k")).toBe(1);
    expect(await a.allow("k")).toBe(true);
  });

  it("admits exactly 50 of 200 concurrent calls from two clients on 50 per hour", async () => {
    const limit50 = limit(50, "1h");
    const instances = [redis, other].map((client) => new RedisLimiter(client, byInput, limit50));
    const calls = Array.from({ length: 200 }, (_, i) => instances[i % 2]?.allow("hot"));
    const results = await Promise.all(calls);
    expect(results.filter((r) => r === true)).toHaveLength(50);
    expect(results.filter((r) => r === false)).toHaveLength(150);
    expect((await instances[0]?.peekWithDetails("hot"))?.tokensRemaining).toBe(0);
  });
});
