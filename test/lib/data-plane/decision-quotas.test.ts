import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { resetBuckets } from "@/lib/admin/customers";
import { decisionAnswerSchema } from "@/lib/schemas/decision-answer.schema";
import { answerOf } from "../../support/answer-schema";
import {
  type DataPlaneServer,
  postJson,
  serviceToken,
  startDataPlane,
} from "../../support/data-plane";
import { type RedisServer, startRedisServer } from "../../support/redis-server";
import { createTestRuntime, START_MS, type TestRuntime } from "../../support/runtime";

const HOUR = 3_600_000;
// The test clock starts at 2025-01-01T00:00Z; customers made then are billed from the 1st.
const FEBRUARY = Date.UTC(2025, 1, 1);
const QUOTA_POLICY = '"read-50-per-month";q=50;w=2678400';

let redis: RedisServer;
let prefixes = 0;
beforeAll(async () => {
  redis = await startRedisServer();
});
afterAll(async () => {
  await redis.close();
});

describe.each(["memory", "redis"] as const)("quotas through the decision API (%s)", (store) => {
  let t: TestRuntime;
  let server: DataPlaneServer;
  let token: string;
  const decide = (body: unknown) => postJson(`${server.url}/api/v1/decisions`, body, token);

  async function setUp() {
    t = createTestRuntime(
      store === "redis"
        ? {
            redis: { url: redis.url, prefix: `quota${++prefixes}`, timeoutMs: 500 },
            redisOnTestClock: true,
          }
        : {},
    );
    await t.runtime.ready();
    server = await startDataPlane(t.runtime);
    token = serviceToken(t.runtime).token;
  }
  afterEach(async () => {
    await server.close();
    t.cleanup();
  });

  it("admits 50 of 60 against two buckets and a monthly quota; the 51st is refused by the quota", async () => {
    await setUp();
    t.addPlan("metered", [
      { operation: "read", count: 100, periodMs: 60_000 },
      { operation: "read", count: 1_000, periodMs: HOUR },
      { operation: "read", count: 50, period: "month" },
    ]);
    const { key } = t.addCustomer("metered");
    t.clock.advance(10 * HOUR);
    const answers = [];
    for (let i = 0; i < 60; i++) answers.push(await decide({ key, operation: "read" }));
    expect(answers.map((a) => a.status)).toEqual(Array(60).fill(200));
    const bodies = await Promise.all(answers.map((a) => answerOf(a, 200, decisionAnswerSchema)));
    expect(bodies.filter((b) => b.allowed)).toHaveLength(50);
    expect(bodies.slice(0, 50).every((b) => b.allowed)).toBe(true);
    const refused = bodies[50];
    const toFebruary = FEBRUARY - (START_MS + 10 * HOUR);
    expect(refused).toMatchObject({
      allowed: false,
      reason: "rate_limited",
      status: 429,
      // The buckets gave 50 tokens and no more: the quota's refusals took none of theirs.
      remaining: 50,
      limit: { policy: "read-100-per-1m", count: 100, periodMs: 60_000 },
      retryAfterMs: toFebruary,
      headers: {
        "RateLimit-Policy": `"read-100-per-1m";q=100;w=60, "read-1000-per-1h";q=1000;w=3600, ${QUOTA_POLICY}`,
        RateLimit: `"read-50-per-month";r=0;t=${toFebruary / 1000}`,
        "Retry-After": String(toFebruary / 1000),
      },
      problem: { status: 429, "violated-policies": ["read-50-per-month"] },
      quotas: [
        {
          policy: "read-50-per-month",
          count: 50,
          period: "month",
          timeZone: "UTC",
          used: 50,
          remaining: 0,
          periodStartMs: START_MS,
          periodEndMs: FEBRUARY,
          resetAfterMs: toFebruary,
        },
      ],
    });
    expect(bodies[59]).toMatchObject({ remaining: 50, quotas: [{ used: 50 }] });
    // The next month starts a fresh quota.
    t.clock.advance(toFebruary);
    expect(await (await decide({ key, operation: "read" })).json()).toMatchObject({
      allowed: true,
      quotas: [{ used: 0, remaining: 49, periodStartMs: FEBRUARY }],
    });
  });

  it("takes nothing from the quota when a bucket refuses, and a cost above the quota is a 413", async () => {
    await setUp();
    t.addPlan("small", [
      { operation: "read", count: 5, periodMs: HOUR },
      { operation: "read", count: 50, period: "month" },
    ]);
    const { key } = t.addCustomer("small");
    for (let i = 0; i < 5; i++) await decide({ key, operation: "read" });
    const refused = await (await decide({ key, operation: "read" })).json();
    expect(refused).toMatchObject({
      allowed: false,
      reason: "rate_limited",
      quotas: [{ used: 5, remaining: 45 }],
      problem: { "violated-policies": ["read-5-per-1h"] },
    });
    const big = await (await decide({ key, operation: "read", cost: 51 })).json();
    expect(big).toMatchObject({
      reason: "cost_exceeds_limit",
      status: 413,
      problem: { "violated-policies": ["read-5-per-1h", "read-50-per-month"] },
    });
  });

  it("keeps the quota's use when an operator resets the customer's buckets", async () => {
    await setUp();
    t.addPlan("reset", [
      { operation: "read", count: 3, periodMs: HOUR },
      { operation: "read", count: 50, period: "month" },
    ]);
    const { id, key } = t.addCustomer("reset");
    for (let i = 0; i < 3; i++) await decide({ key, operation: "read" });
    expect((await (await decide({ key, operation: "read" })).json()).allowed).toBe(false);
    expect(await resetBuckets(t.runtime, id)).toBeGreaterThan(0);
    expect(await (await decide({ key, operation: "read" })).json()).toMatchObject({
      allowed: true,
      remaining: 2,
      quotas: [{ used: 3, remaining: 46 }],
    });
  });
});
