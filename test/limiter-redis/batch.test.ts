import fc from "fast-check";
import type { Redis } from "ioredis";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type Details, Limiter, limit } from "@/lib/limiter";
import { MAX_BATCH, RedisLimiter } from "@/lib/limiter-redis";
import { FakeClock } from "../support/fake-clock";
import { type RedisServer, startRedisServer } from "../support/redis-server";

// How the Redis limiter shares script runs between concurrent decisions, and what its script
// reads and writes; the behaviour it shares with the in-memory limiter is in shared-cases.

const byInput = (input: string) => input;

let server: RedisServer;
let redis: Redis;

beforeAll(async () => {
  server = await startRedisServer();
  redis = server.client();
});

afterAll(async () => {
  await server?.close();
});

beforeEach(async () => {
  await redis.flushall();
  await redis.config("RESETSTAT");
});

/** scriptRuns is how many EVALSHA and EVAL calls the server ran since the last RESETSTAT. */
async function scriptRuns(): Promise<number> {
  const info = await redis.info("commandstats");
  let runs = 0;
  for (const match of info.matchAll(/^cmdstat_(evalsha|eval):calls=(\d+)/gm)) {
    runs += Number(match[2]);
  }
  return runs;
}

/** serverMs reads the Redis server's clock in whole milliseconds. */
async function serverMs(): Promise<number> {
  const [seconds, micros] = (await redis.time()) as [string | number, string | number];
  return Number(seconds) * 1_000 + Math.floor(Number(micros) / 1_000);
}

/** withoutBuckets keeps the Details every decision reports (not the per-bucket list). */
function summary(d: Details) {
  const { allowed, executionTime, tokensRequested, tokensConsumed, tokensRemaining } = d;
  return { allowed, executionTime, tokensRequested, tokensConsumed, tokensRemaining };
}

describe("RedisLimiter: concurrent decisions share a script run", () => {
  it("decides a tick's calls in one run, exactly as one after another", async () => {
    const keys = ["a", "b", "c"];
    const callArb = fc.record({
      key: fc.constantFrom(...keys),
      n: fc.integer({ min: 0, max: 4 }),
      peek: fc.boolean(),
    });
    let run = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(callArb, { minLength: 1, maxLength: MAX_BATCH }),
        fc.integer({ min: 0, max: 10_000 }),
        async (calls, start) => {
          const clock = new FakeClock(start);
          const limits = [
            limit(5, "1s"),
            limit(7, 1_500),
            (k: string) => limit(3, k === "c" ? "1m" : "2s"),
          ];
          const remote = new RedisLimiter(redis, byInput, limits, { clock, prefix: `p${run++}` });
          const local = new Limiter(byInput, limits, { clock });
          // A first decision leaves some buckets part-spent.
          await remote.allowN("a", 2);
          local.allowN("a", 2);
          await redis.config("RESETSTAT");
          const concurrent = await Promise.all(
            calls.map((c) =>
              c.peek ? remote.peekNWithDebug(c.key, c.n) : remote.allowNWithDebug(c.key, c.n),
            ),
          );
          const sequential = calls.map((c) =>
            c.peek ? local.peekNWithDebug(c.key, c.n) : local.allowNWithDebug(c.key, c.n),
          );
          expect(concurrent.map(summary)).toEqual(sequential.map(summary));
          expect(concurrent.map((d) => d.buckets.map((b) => b.tokensRemaining))).toEqual(
            sequential.map((d) => d.buckets.map((b) => b.tokensRemaining)),
          );
          expect(await scriptRuns()).toBe(1);
        },
      ),
      { numRuns: 40 },
    );
  });

  it(`takes at most ${MAX_BATCH} decisions per run`, async () => {
    const limiter = new RedisLimiter(redis, byInput, limit(100, "1h"), { clock: new FakeClock(0) });
    const results = await Promise.all(
      Array.from({ length: 2 * MAX_BATCH + 10 }, () => limiter.allow("k")),
    );
    expect(results.filter(Boolean)).toHaveLength(100);
    expect(await scriptRuns()).toBe(3);
  });

  it("shares a run between limiters on one client, and decides at different injected times apart", async () => {
    const clock = new FakeClock(0);
    const perSecond = new RedisLimiter(redis, byInput, limit(1, "1s"), { clock, prefix: "s" });
    const perHour = new RedisLimiter(redis, byInput, limit(1, "1h"), { clock, prefix: "h" });
    const both = await Promise.all([perSecond.allow("k"), perHour.allow("k")]);
    expect(both).toEqual([true, true]);
    expect(await scriptRuns()).toBe(1);

    const early = perSecond.allowWithDetails("k");
    clock.set(1_000);
    const late = perSecond.allowWithDetails("k");
    expect(await early).toMatchObject({ allowed: false, executionTime: 0 });
    expect(await late).toMatchObject({ allowed: true, executionTime: 1_000 });
    expect(await scriptRuns()).toBe(3);
  });

  it("decides a run of decisions over no limits at all, however many", async () => {
    // Regression: five decisions with no buckets packed into as many bytes as one decision over
    // one bucket, and the script took them for that.
    const clock = new FakeClock(7_000);
    const unlimited = new RedisLimiter(redis, byInput, () => null, { clock });
    for (const count of [1, 5, 9]) {
      const all = await Promise.all(
        Array.from({ length: count }, () => unlimited.allowWithDetails("k")),
      );
      expect(all).toEqual(
        Array.from({ length: count }, () => ({
          allowed: true,
          executionTime: 7_000,
          tokensRequested: 1,
          tokensConsumed: 1,
          tokensRemaining: Number.POSITIVE_INFINITY,
          retryAfterMs: 0,
        })),
      );
    }
  });

  it("fails only the decision whose key holds something else, taking nothing for it", async () => {
    const clock = new FakeClock(0);
    const limiter = new RedisLimiter(redis, byInput, [limit(2, "1h"), limit(5, "1d")], { clock });
    await redis.hset("rk:{broken}:5/86400000", "x", "1");
    const [first, broken, second] = await Promise.allSettled([
      limiter.allowWithDetails("fine"),
      limiter.allowWithDetails("broken"),
      limiter.allowWithDetails("fine"),
    ]);
    expect(first).toMatchObject({ status: "fulfilled", value: { tokensRemaining: 1 } });
    expect(second).toMatchObject({ status: "fulfilled", value: { tokensRemaining: 0 } });
    expect(broken).toMatchObject({ status: "rejected" });
    expect(String((broken as PromiseRejectedResult).reason)).toMatch(
      /something other than a bucket at rk:\{broken\}:2\/3600000, rk:\{broken\}:5\/86400000/,
    );
    expect(await redis.exists("rk:{broken}:2/3600000")).toBe(0);
    expect(await redis.type("rk:{broken}:5/86400000")).toBe("hash");
    // The same through `allow`, which reads only the verdict: the one decision fails.
    const verdicts = await Promise.allSettled([
      limiter.peek("fine"),
      limiter.allow("broken"),
      limiter.allow("other"),
    ]);
    expect(verdicts.map((v) => v.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
    expect((verdicts[0] as PromiseFulfilledResult<boolean>).value).toBe(false);
    expect((verdicts[2] as PromiseFulfilledResult<boolean>).value).toBe(true);
    expect(String((verdicts[1] as PromiseRejectedResult).reason)).toMatch(/something other/);
    expect(await redis.exists("rk:{broken}:2/3600000")).toBe(0);
  });
});

describe("RedisLimiter: what the script stores", () => {
  it("reads a bucket an earlier version stored as text, and rewrites it packed", async () => {
    const clock = new FakeClock(10_000);
    // 3 per second: a token is 1000/3 ms, so units are thirds of a millisecond (scale 3).
    const limiter = new RedisLimiter(redis, byInput, limit(3, "1s"), { clock });
    // Spent up to 9,900 ms and one unit (a third of a ms): 100 ms (300 units) refilled by 10,000.
    await redis.set("rk:{old}:3/1000", "9900:1");
    expect(await limiter.peekWithDebug("old")).toMatchObject({ tokensRemaining: 0 });
    clock.set(10_234);
    // 334 ms - 1/3 ms since: 1,001 units, one token (1,000 units).
    expect(await limiter.allowWithDetails("old")).toMatchObject({
      allowed: true,
      tokensRemaining: 0,
    });
    const stored = await redis.getBuffer("rk:{old}:3/1000");
    expect(stored?.length).toBe(24);
    expect(await limiter.allow("old")).toBe(false);
  });

  it("keeps a busy key until its bucket is full, moving its expiry about once a period", async () => {
    const limiter = new RedisLimiter(redis, byInput, limit(10, "10s"));
    const key = "rk:{busy}:10/10000";
    // A new key expires when its bucket is full again: one token of 1 s.
    await limiter.allow("busy");
    const first = await redis.pttl(key);
    expect(first).toBeGreaterThan(900);
    expect(first).toBeLessThanOrEqual(1_000);
    // Written again, it needs longer than it has: it gets a period more than it needs.
    await limiter.allow("busy");
    const extended = await redis.pttl(key);
    expect(extended).toBeGreaterThan(11_900);
    expect(extended).toBeLessThanOrEqual(12_000);
    // Within that, a decision rewrites the value and leaves the expiry alone.
    await limiter.allowN("busy", 3);
    const kept = await redis.pttl(key);
    expect(kept).toBeLessThanOrEqual(extended);
    expect(kept).toBeGreaterThan(11_000);
    expect((await limiter.peekWithDetails("busy")).tokensRemaining).toBe(5);
  });

  it("reads the server's time from a stored bucket's expiry as it would from TIME", async () => {
    const limiter = new RedisLimiter(redis, byInput, limit(100, "1h"));
    await limiter.allow("k");
    await limiter.allow("k");
    for (let i = 0; i < 5; i++) {
      const before = await serverMs();
      const details = await limiter.allowWithDetails("k");
      const after = await serverMs();
      expect(details.executionTime).toBeGreaterThanOrEqual(before);
      expect(details.executionTime).toBeLessThanOrEqual(after);
    }
    expect((await limiter.peekWithDetails("k")).tokensRemaining).toBe(93);
  });
});
