import type { Redis } from "ioredis";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { GET } from "@/app/api/v1/items/route";
import { DECIDE } from "@/lib/limiter-redis/script";
import { decisionAnswerSchema } from "@/lib/schemas/decision-answer.schema";
import { answerOf } from "../../support/answer-schema";
import {
  type DataPlaneServer,
  postJson,
  serviceToken,
  startDataPlane,
} from "../../support/data-plane";
import { type RedisServer, startRedisServer } from "../../support/redis-server";
import { api, createTestRuntime, type TestRuntime } from "../../support/runtime";

const HOUR = 3_600_000;
// Commands a decision's script runs inside Redis (read from the script itself); every other
// command is a round trip.
const SCRIPT_INNER = new Set(
  [...DECIDE.matchAll(/redis\.p?call\('([A-Za-z]+)'/g)].map((m) => (m[1] as string).toLowerCase()),
);
const OWN = new Set(["info"]);

let redis: RedisServer;
let admin: Redis;
let prefixes = 0;
beforeAll(async () => {
  redis = await startRedisServer();
  admin = redis.client();
  // It reconnects by itself after the tests that stop the server.
  admin.on("error", () => {});
});
afterAll(async () => {
  await redis.close();
});

/** commandCalls reads INFO commandstats: calls per command. */
async function commandCalls(): Promise<Map<string, number>> {
  const calls = new Map<string, number>();
  for (const line of (await admin.info("commandstats")).split("\n")) {
    const match = /^cmdstat_([^:]+):calls=(\d+)/.exec(line.trim());
    if (match) calls.set(match[1] as string, Number(match[2]));
  }
  return calls;
}

/** roundTrips is the commands sent to Redis (not run by a script) between two readings. */
function roundTrips(before: Map<string, number>, after: Map<string, number>) {
  const sent: Record<string, number> = {};
  for (const [name, calls] of after) {
    const delta = calls - (before.get(name) ?? 0);
    if (delta > 0 && !SCRIPT_INNER.has(name) && !OWN.has(name)) sent[name] = delta;
  }
  return sent;
}

describe("the decision API with REDIS_URL", () => {
  let t: TestRuntime;
  let server: DataPlaneServer;
  let token: string;
  const decide = (body: unknown) => postJson(`${server.url}/api/v1/decisions`, body, token);

  async function setUp(writes: "open" | "closed" = "closed") {
    t = createTestRuntime({
      redis: {
        url: redis.url,
        prefix: `dp${++prefixes}`,
        timeoutMs: 150,
        failure: { read: "open", write: writes },
      },
    });
    await t.runtime.ready();
    server = await startDataPlane(t.runtime);
    token = serviceToken(t.runtime).token;
  }
  afterEach(async () => {
    await server.close();
    t.cleanup();
    await redis.start();
  });

  it("decides on Redis with one round trip per decision, and fewer in a batch", async () => {
    await setUp();
    t.addPlan("r", [{ operation: "read", count: 1_000, periodMs: HOUR }]);
    const { key } = t.addCustomer("r");
    // The first decision on a fresh server loads the script (EVALSHA, NOSCRIPT, EVAL): once.
    expect((await decide({ key, operation: "read" })).status).toBe(200);
    const before = await commandCalls();
    for (let i = 0; i < 20; i++)
      expect((await decide({ key, operation: "read" })).status).toBe(200);
    const afterSingles = await commandCalls();
    expect(roundTrips(before, afterSingles)).toEqual({ evalsha: 20 });
    const res = await postJson(
      `${server.url}/api/v1/decisions/batch`,
      { decisions: Array.from({ length: 50 }, () => ({ key, operation: "read" })) },
      token,
    );
    const { results } = await res.json();
    expect(results.map((r: { remaining: number }) => r.remaining)).toEqual(
      Array.from({ length: 50 }, (_, i) => 978 - i),
    );
    const afterBatch = await commandCalls();
    // Decisions made in the same tick share a script run (lib/limiter-redis/batch.ts): a batch
    // takes one round trip per 64 decisions at most, never more than one per decision.
    const batched = roundTrips(afterSingles, afterBatch);
    expect(Object.keys(batched)).toEqual(["evalsha"]);
    expect(batched.evalsha).toBeGreaterThanOrEqual(1);
    expect(batched.evalsha).toBeLessThanOrEqual(Math.ceil(50 / 64));
  });

  it("shares the Redis buckets with the built-in routes", async () => {
    await setUp();
    t.addPlan("three", [{ operation: "read", count: 3, periodMs: HOUR }]);
    const { key } = t.addCustomer("three");
    expect((await GET(api("/api/v1/items", { key }))).status).toBe(200);
    expect(await (await decide({ key, operation: "read", cost: 2 })).json()).toMatchObject({
      allowed: true,
      remaining: 0,
    });
    const route = await GET(api("/api/v1/items", { key }));
    expect(route.status).toBe(429);
    expect(await route.json()).toMatchObject({ "violated-policies": ["read-3-per-1h"] });
  });

  it("answers store_unavailable (503) for writes that fail closed while Redis is down; reads fail open", async () => {
    await setUp("closed");
    await redis.stop();
    const write = await decide({ key: t.demoKey, operation: "write" });
    expect(await answerOf(write, 200, decisionAnswerSchema)).toMatchObject({
      allowed: false,
      reason: "store_unavailable",
      status: 503,
      remaining: null,
      limit: null,
      retryAfterMs: 1_000,
      headers: { "Retry-After": "1" },
      problem: { status: 503, title: "Rate limit store unavailable" },
    });
    const read = await (await decide({ key: t.demoKey, operation: "read" })).json();
    expect(read).toMatchObject({ allowed: true, reason: "ok", remaining: 4 });
    // Refused for the store's sake, not the customer's: not counted as the customer's traffic.
    expect(t.runtime.traffic.totals(t.clock.now(), 60).get(t.demoId)).toEqual({
      allowed: 1,
      denied: 0,
    });
  });
});
