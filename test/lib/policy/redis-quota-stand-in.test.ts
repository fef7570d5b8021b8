import type { Redis } from "ioredis";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Logger } from "@/lib/log";
import { createMetrics } from "@/lib/metrics";
import { createPolicyLimiter } from "@/lib/policy/policy-limiter";
import { RedisDecisionStore } from "@/lib/policy/redis-decision-store";
import { FakeClock } from "../../support/fake-clock";
import { quotaInput, testCustomer } from "../../support/quota-input";
import { type RedisServer, startRedisServer } from "../../support/redis-server";

// During a Redis outage, reads fail open to the instance's stand-in: its quotas count on from
// the last counts Redis gave this instance (plus what it admits), never from a fresh 0.

const MAY_10 = Date.parse("2026-05-10T12:00:00Z");

let server: RedisServer;
let redis: Redis;
let store: RedisDecisionStore | undefined;

beforeAll(async () => {
  server = await startRedisServer();
  redis = server.client();
});

afterAll(async () => {
  await server?.close();
});

beforeEach(async () => {
  await redis.flushall();
  await store?.close();
  store = undefined;
});

function storeOn(clock: FakeClock, lines: string[] = []): RedisDecisionStore {
  const log: Logger = {
    info: (m) => lines.push(m),
    warn: (m) => lines.push(m),
    error: (m) => lines.push(m),
  };
  store = new RedisDecisionStore({
    redis: server.client(),
    standIn: createPolicyLimiter(clock),
    appClock: clock,
    decisionClock: clock,
    log,
    metrics: createMetrics(
      () => 0,
      () => true,
    ),
    announceReset: () => {},
  });
  return store;
}

describe("the stand-in's quotas during an outage", () => {
  it("keep counting from the last count this instance knew, and hand their count back after", async () => {
    const clock = new FakeClock(MAY_10);
    const lines: string[] = [];
    const decisions = storeOn(clock, lines);
    await decisions.ready();
    const customer = testCustomer(7);
    const decide = (n: number) => decisions.decide(quotaInput(customer, clock.now()), n);
    expect(await decide(3)).toMatchObject({ source: "redis", details: { allowed: true } });
    // An outage begins (as a background call that failed would start it).
    decisions.noteFailure(new Error("connect ECONNREFUSED"));
    expect(decisions.status().redis).toBe("down");
    expect(await decide(1)).toMatchObject({ source: "stand-in", details: { allowed: true } });
    const refused = await decide(2);
    expect(refused).toMatchObject({ source: "stand-in", details: { allowed: false } });
    expect(refused.details.quotas?.[0]).toMatchObject({ used: 4, remaining: 1 });
    // Redis comes back, having lost everything meanwhile; the next PING ends the outage.
    await redis.flushall();
    clock.advance(250);
    await vitestSettle(() => decisions.status().redis === "up");
    // The key Redis lost is seeded with the stand-in's count: 4 used, 1 left.
    expect(await decide(2)).toMatchObject({ source: "redis", details: { allowed: false } });
    expect(await decide(1)).toMatchObject({ source: "redis", details: { allowed: true } });
    expect(lines.some((line) => line.startsWith("Redis answers again"))).toBe(true);
  });

  it("start at 0 only for a key this instance never saw", async () => {
    const clock = new FakeClock(MAY_10);
    const decisions = storeOn(clock);
    await decisions.ready();
    decisions.noteFailure(new Error("connect ECONNREFUSED"));
    const fresh = await decisions.decide(quotaInput(testCustomer(8), clock.now()), 5);
    expect(fresh).toMatchObject({ source: "stand-in", details: { allowed: true } });
  });
});

describe("a reset by another instance", () => {
  it("drops what this instance remembers of the customer's quotas: the deleted keys stay at 0", async () => {
    const clock = new FakeClock(MAY_10);
    const decisions = storeOn(clock);
    await decisions.ready();
    const customer = testCustomer(9);
    const decide = (n: number) => decisions.decide(quotaInput(customer, clock.now()), n);
    expect((await decide(5)).details.allowed).toBe(true);
    // Another instance deleted the customer's keys and announced it.
    const keys = await redis.keys("rk:{9:read}:*");
    expect(keys).toHaveLength(1);
    await redis.del(...keys);
    decisions.forgetLocal(9, ["read"]);
    expect(await decide(5)).toMatchObject({ source: "redis", details: { allowed: true } });
  });
});

/** vitestSettle waits, on real I/O (a PING to the test's Redis), until `done` holds. */
async function vitestSettle(done: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !done(); i++) await new Promise((r) => setImmediate(r));
  if (!done()) throw new Error("the store did not settle");
}
