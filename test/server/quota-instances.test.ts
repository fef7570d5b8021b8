// A quota shared through Redis by real processes: the server entry (dist/server.mjs) as two full
// instances on one database and an edge, all on one redis-server on 127.0.0.1. A customer's
// quota of 30 a day admits exactly 30 of 200 concurrent decisions spread over the three, and a
// FLUSHALL does not hand it a fresh day: every instance remembers the last count it saw and
// seeds the lost key with it (docs/quotas.md, "With Redis").
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Instance, startInstance } from "../../e2e/support/instances";
import {
  ADMIN_PASSWORD,
  BUILD_TIMEOUT_MS,
  type RatekeeperServer,
  startRatekeeper,
} from "../sdk/support/ratekeeper-server";
import { type RedisServer, startRedisServer } from "../support/redis-server";

/** QUOTA is the customer's quota of exports per day; N the concurrent decisions sent against it. */
const QUOTA = 30;
const N = 200;

// Every decision goes to Redis: a refusal remembered by an instance (the deny cache) would answer
// the decisions after FLUSHALL without asking Redis, and prove nothing of what Redis knows.
const SHARED_ENV = { REDIS_DENY_CACHE: "off" };

let redis: RedisServer;
let full: RatekeeperServer;
let second: Instance;
let edge: Instance;
let edgeDir: string;
let token: string;
let customerId: number;

interface Answer {
  /** httpStatus is the decision API's own status (200 once the call is valid). */
  httpStatus: number;
  /** status is what the service should answer its client: 429 on a refusal. */
  status: number;
  allowed: boolean;
  reason: string;
  quotas?: { used: number; remaining: number; count: number }[];
}

async function decide(url: string): Promise<Answer> {
  const response = await fetch(`${url}/api/v1/decisions`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify({ customerId, operation: "exports" }),
    signal: AbortSignal.timeout(10_000),
  });
  const body = (await response.json()) as Omit<Answer, "httpStatus">;
  return { httpStatus: response.status, ...body };
}

/** quotaKeys are the Redis keys holding the customer's exports quota, with their stored count. */
async function quotaUsed(): Promise<number[]> {
  const client = redis.client();
  try {
    const keys = await client.keys(`*{${customerId}:exports}:q:*`);
    return Promise.all(keys.map(async (key) => Number(await client.hget(key, "used"))));
  } finally {
    client.disconnect();
  }
}

beforeAll(async () => {
  redis = await startRedisServer();
  full = await startRatekeeper({ REDIS_URL: redis.url, ...SHARED_ENV });
  const created = await full.admin.request("POST", "/api/admin/classes", {
    name: "exports",
    description: "CSV exports",
  });
  expect(created.status).toBe(201);
  const plan = await full.admin.request("POST", "/api/admin/plans", {
    slug: "daily-exports",
    name: "Daily exports",
    limits: [{ operation: "exports", count: QUOTA, period: "day" }],
  });
  expect(plan.status).toBe(201);
  const planId = ((await plan.json()) as { plan: { id: number } }).plan.id;
  customerId = (await full.admin.createCustomer(planId)).id;
  token = (await full.admin.createServiceToken()).token;
  // The others start after the policy is made, so they know it from their first load.
  second = await startInstance({
    name: "second",
    env: {
      DATABASE_PATH: full.databasePath,
      ADMIN_PASSWORD,
      REDIS_URL: redis.url,
      ...SHARED_ENV,
    },
  });
  edgeDir = mkdtempSync(path.join(os.tmpdir(), "ratekeeper-edge-"));
  edge = await startInstance({
    name: "edge",
    cwd: edgeDir,
    env: {
      RATEKEEPER_ROLE: "edge",
      REDIS_URL: redis.url,
      DATABASE_PATH: path.join(edgeDir, "ratekeeper.db"),
      CONTROL_PLANE_URL: full.url,
      ...SHARED_ENV,
    },
  });
}, BUILD_TIMEOUT_MS);

afterAll(async () => {
  await edge?.stop();
  if (edgeDir) rmSync(edgeDir, { recursive: true, force: true });
  await second?.stop();
  await full?.stop();
  await redis?.close();
});

describe("a daily quota on Redis, across two full instances and an edge", () => {
  it("admits exactly 30 of 200 concurrent decisions, and still knows the count after FLUSHALL", async () => {
    const urls = [full.url, second.baseURL, edge.baseURL];
    const answers = await Promise.all(
      Array.from({ length: N }, (_, i) => decide(urls[i % urls.length] as string)),
    );
    expect(answers.map((a) => a.httpStatus)).toEqual(Array(N).fill(200));
    expect(answers.filter((a) => a.allowed)).toHaveLength(QUOTA);
    expect(answers.filter((a) => !a.allowed).map((a) => a.reason)).toEqual(
      Array(N - QUOTA).fill("rate_limited"),
    );
    // Counted per process, the three would have admitted up to 90: the count is Redis's.
    expect(await quotaUsed()).toEqual([QUOTA]);

    const client = redis.client();
    await client.flushall();
    client.disconnect();
    expect(await quotaUsed()).toEqual([]);

    // Every instance decided on the key after the count reached 30, so each seeds it with 30:
    // the bound of docs/quotas.md is then no overrun at all.
    const after = await Promise.all(urls.flatMap((url) => [decide(url), decide(url)]));
    expect(after.map((a) => [a.httpStatus, a.status, a.allowed])).toEqual(
      Array(6).fill([200, 429, false]),
    );
    expect(after.map((a) => a.quotas?.[0]?.used)).toEqual(Array(6).fill(QUOTA));
  });
});
