import type { Redis } from "ioredis";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { quota } from "@/lib/limiter";
import { quotaKey, RedisLimiter } from "@/lib/limiter-redis";
import { periodFrom, QuotaRestorer } from "@/lib/usage/quota-restorer";
import { writeBatch } from "@/lib/usage/sqlite-writer";
import { DAY_MS, HOUR_MS, MINUTE_MS } from "@/lib/usage/time";
import { UsageCounter } from "@/lib/usage/usage-counter";
import { DEFAULT_USAGE_SETTINGS } from "@/lib/usage/usage-settings";
import { type RedisServer, startRedisServer } from "../support/redis-server";
import { createTestRuntime, START_MS, type TestRuntime } from "../support/runtime";

// The control plane raises Redis's quota counts to what the usage rollups say each customer's
// class took in the quota's current period (START_MS is 2025-01-01T00:00Z: a month's start).

const MONTH = quota(10, "month");

let server: RedisServer;
let redis: Redis;
let t: TestRuntime | undefined;

beforeAll(async () => {
  server = await startRedisServer();
  redis = server.client();
});

afterAll(async () => {
  await server?.close();
});

afterEach(async () => {
  t?.cleanup();
  t = undefined;
  await redis.flushall();
});

/** taken writes rollup rows: the demo customer's reads that took `tokens` at `at`. */
function taken(rt: TestRuntime, at: number, tokens: number, operation = "read"): void {
  const counter = new UsageCounter();
  const planId = rt.planId("free");
  counter.record(rt.demoId, planId, operation, "allowed", tokens, tokens, at);
  writeBatch(rt.runtime.db, counter.drain());
}

function restorerOn(rt: TestRuntime): QuotaRestorer {
  return new QuotaRestorer({
    db: rt.runtime.db,
    redis,
    prefix: "rk",
    clock: rt.clock,
    log: { info() {}, warn() {}, error() {} },
    settings: DEFAULT_USAGE_SETTINGS,
    quotas: () => [
      { customerId: rt.demoId, operation: "read", key: `${rt.demoId}:read`, quota: MONTH },
    ],
    expire: false,
  });
}

describe("QuotaRestorer", () => {
  it("brings a fresh key up to the period's taken tokens, from minute, hour and day rows alike", async () => {
    t = createTestRuntime();
    const rt = t;
    taken(rt, START_MS - MINUTE_MS, 100); // the month before: not counted
    taken(rt, START_MS + 2 * HOUR_MS, 4);
    taken(rt, START_MS + 9 * DAY_MS, 2, "write"); // another class: not counted
    rt.clock.set(START_MS + 9 * DAY_MS + 30 * MINUTE_MS);
    // Folded: January 1st and 2nd are read from the day and hour rows now.
    rt.runtime.folds.fold();
    taken(rt, START_MS + 9 * DAY_MS + 10 * MINUTE_MS, 3);
    const restorer = restorerOn(rt);
    expect(await restorer.restore()).toBe(1);
    const key = quotaKey("rk", `${rt.demoId}:read`, MONTH);
    expect(await redis.hgetall(key)).toEqual({ start: String(START_MS), used: "7" });
    // A decision on the restored key counts from 7 of 10.
    const limiter = new RedisLimiter(redis, (k: string) => k, MONTH, { clock: rt.clock });
    expect(await limiter.allowN(`${rt.demoId}:read`, 3)).toBe(true);
    expect(await limiter.allow(`${rt.demoId}:read`)).toBe(false);
    // A key above the rollups (they lag the decisions) is left alone.
    expect(await restorer.restore()).toBe(0);
    expect(await redis.hget(key, "used")).toBe("10");
    // After a FLUSHALL the next restore brings it back up.
    await redis.flushall();
    expect(await restorer.restore()).toBe(1);
    expect(await redis.hget(key, "used")).toBe("7");
  });

  it("counts nothing of a new period, and writes nothing when nothing was taken", async () => {
    t = createTestRuntime();
    const rt = t;
    taken(rt, START_MS + 2 * HOUR_MS, 4);
    rt.clock.set(Date.UTC(2025, 1, 1, 0, 5));
    expect(await restorerOn(rt).restore()).toBe(0);
    expect(await redis.keys("*")).toEqual([]);
  });
});

describe("periodFrom", () => {
  const minutesFrom = START_MS;
  it("starts at the period's minute where minute rows are kept, or on a whole hour", () => {
    expect(periodFrom(START_MS + 90 * MINUTE_MS + 5, minutesFrom)).toBe(START_MS + 90 * MINUTE_MS);
    expect(periodFrom(START_MS - HOUR_MS, minutesFrom)).toBe(START_MS - HOUR_MS);
  });

  it("moves to the next hour a start inside an hour whose minute rows are gone (never counting the period before)", () => {
    // Asia/Kolkata's midnight is 18:30 UTC.
    expect(periodFrom(START_MS - 5 * HOUR_MS - 30 * MINUTE_MS, minutesFrom)).toBe(
      START_MS - 5 * HOUR_MS,
    );
  });
});
