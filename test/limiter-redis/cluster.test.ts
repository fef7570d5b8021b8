import { Cluster } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { limit, quota } from "@/lib/limiter";
import { combineRedis, RedisLimiter } from "@/lib/limiter-redis";
import { type RedisCluster, startRedisCluster } from "../support/redis-cluster";

const KEYS = Array.from({ length: 24 }, (_, i) => `customer-${i}`);

describe("RedisLimiter on a Redis Cluster of three primaries", () => {
  let cluster: RedisCluster;
  let client: Cluster;
  beforeAll(async () => {
    cluster = await startRedisCluster(3);
    client = cluster.client();
  });
  afterAll(async () => {
    await cluster.close();
  });

  it("decides over several limits of a key in one script, whichever node holds its slot", async () => {
    const limiter = new RedisLimiter(
      client,
      (key: string) => key,
      [limit(3, "1h"), limit(5, "1d")],
      {
        prefix: "several",
      },
    );
    for (const key of KEYS) {
      const outcomes = [];
      for (let i = 0; i < 4; i++) outcomes.push(await limiter.allow(key));
      expect(outcomes).toEqual([true, true, true, false]);
      const debug = await limiter.peekWithDebug(key);
      expect(debug.buckets.map((b) => b.tokensRemaining)).toEqual([0, 2]);
    }
    // The keys spread over the nodes; each key's two buckets share one node (one hash tag).
    const sizes = await Promise.all(cluster.servers.map((s) => s.client().dbsize()));
    expect(sizes.filter((size) => size > 0).length).toBe(3);
    expect(sizes.reduce((a, b) => a + b, 0)).toBe(KEYS.length * 2);
    for (const size of sizes) expect(size % 2).toBe(0);
  });

  it("decides a key's buckets and quota in one script on its node, on the node's clock", async () => {
    const limiter = new RedisLimiter(
      client,
      (key: string) => key,
      [limit(10, "1h"), quota(3, "month", { timeZone: "Europe/Berlin" })],
      { prefix: "quota" },
    );
    for (const key of KEYS.slice(0, 6)) {
      const outcomes = [];
      for (let i = 0; i < 4; i++) outcomes.push(await limiter.allow(key));
      expect(outcomes).toEqual([true, true, true, false]);
      const debug = await limiter.peekWithDebug(key);
      expect(debug.buckets.map((b) => b.tokensRemaining)).toEqual([7]);
      expect(debug.quotas?.map((q) => q.used)).toEqual([3]);
    }
  });

  it("combines limiters that share the key func, all or nothing, and refuses a decision across slots", async () => {
    const perMinute = new RedisLimiter(client, (key: string) => key, limit(2, "1m"), {
      prefix: "minute",
    });
    const perHour = new RedisLimiter(client, (key: string) => key, limit(3, "1h"), {
      prefix: "hour",
    });
    const both = combineRedis(perMinute, perHour);
    expect(await both.allowN("k", 2)).toBe(true);
    // The per-minute limit refuses; the per-hour bucket keeps its token.
    expect(await both.allow("k")).toBe(false);
    expect(await perHour.peekWithDetails("k")).toMatchObject({ tokensRemaining: 1 });

    // A limiter keyed differently puts the buckets of one decision in two slots: Redis refuses.
    const byPrefix = new RedisLimiter(client, (key: string) => `other-${key}`, limit(2, "1m"), {
      prefix: "elsewhere",
    });
    await expect(combineRedis(perMinute, byPrefix).allow("k")).rejects.toThrow(/CROSSSLOT/);
  });

  it("decides through a Cluster client that auto-pipelines its commands", async () => {
    // Regression: a script sent with ioredis's generic call() lost its command name when the
    // Cluster client auto-pipelined ("ERR unknown command '<sha>'").
    const pipelined = new Cluster(
      cluster.servers.map((server) => ({ host: "127.0.0.1", port: server.port })),
      { enableAutoPipelining: true },
    );
    try {
      const limiter = new RedisLimiter(pipelined, (key: string) => key, limit(2, "1h"), {
        prefix: "pipelined",
      });
      const outcomes = await Promise.all(
        KEYS.flatMap((key) => [limiter.allow(key), limiter.allow(key), limiter.allow(key)]),
      );
      expect(outcomes.filter(Boolean)).toHaveLength(2 * KEYS.length);
    } finally {
      pipelined.disconnect();
    }
  });

  it("forgets one key's buckets and clears a prefix across the nodes", async () => {
    const limiter = new RedisLimiter(
      client,
      (key: string) => key,
      [limit(1, "1h"), limit(2, "1h")],
      {
        prefix: "forget",
      },
    );
    for (const key of KEYS) expect(await limiter.allow(key)).toBe(true);
    expect(await limiter.forget(KEYS[0] as string)).toBe(2);
    expect(await limiter.allow(KEYS[0] as string)).toBe(true);
    expect(await limiter.allow(KEYS[1] as string)).toBe(false);
    await limiter.clear();
    const sizes = await Promise.all(
      cluster.servers.map(async (s) => (await s.client().keys("forget:*")).length),
    );
    expect(sizes).toEqual([0, 0, 0]);
  });
});
