import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { POST as reset } from "@/app/api/admin/customers/[id]/reset/route";
import { GET as metrics } from "@/app/api/metrics/route";
import { GET } from "@/app/api/v1/items/route";
import { rotateKey, setOverride } from "@/lib/admin/customers";
import { updatePlan } from "@/lib/admin/plans";
import { decide } from "@/lib/policy/decide";
import { createRuntime, type Runtime } from "@/lib/runtime";
import { type RedisServer, startRedisServer } from "../../support/redis-server";
import {
  api,
  createTestRuntime,
  idParams,
  type TestCustomer,
  type TestRuntime,
} from "../../support/runtime";
import { adminRequest, signIn } from "../admin/admin-support";

const HOUR = 3_600_000;
let server: RedisServer;
let prefixes = 0;

beforeAll(async () => {
  server = await startRedisServer();
});
afterAll(async () => {
  await server.close();
});

/**
 * scriptRuns counts the decision scripts Redis ran since the last call: each is one round trip
 * of decisions, so 0 means every decision in between was answered by the instance itself.
 */
async function scriptRuns(): Promise<number> {
  const admin = server.client();
  const info = await admin.info("commandstats");
  await admin.config("RESETSTAT");
  return Number(/^cmdstat_evalsha:calls=(\d+)/m.exec(info)?.[1] ?? 0);
}

/** counter reads one series of the metrics scrape (0 when absent). */
async function counter(series: string): Promise<number> {
  const text = await (await metrics()).text();
  const line = text.split("\n").find((l) => l.startsWith(`${series} `));
  return line ? Number(line.split(" ").pop()) : 0;
}

/** remembered is how many refusals an instance remembers, from its metrics. */
async function remembered(rt: Runtime): Promise<number> {
  const text = await rt.metrics.registry.metrics();
  return Number(/^ratekeeper_deny_cache_entries (\d+)$/m.exec(text)?.[1]);
}

/** redisRuntime is a test runtime on the test server, deciding at the fake clock's time. */
async function redisRuntime(denyCache?: number): Promise<TestRuntime & { prefix: string }> {
  const prefix = `dc${++prefixes}`;
  const t = createTestRuntime({
    redis: { url: server.url, prefix, timeoutMs: 2_000, denyCache },
    redisOnTestClock: true,
  });
  await t.runtime.ready();
  return Object.assign(t, { prefix });
}

/** otherInstance is a second instance on the same database, Redis, prefix and clock. */
async function otherInstance(t: TestRuntime & { prefix: string }): Promise<Runtime> {
  const other = createRuntime({
    databasePath: t.databasePath,
    clock: t.clock,
    adminPassword: "test-password",
    log: { info() {}, warn() {}, error() {} },
    redis: { url: server.url, prefix: t.prefix, timeoutMs: 2_000, decisionClock: t.clock },
  });
  await other.ready();
  return other;
}

const list = (key: string) => GET(api("/api/v1/items", { key }));

/** readOn decides one read for the customer on an instance, as a protected request does. */
async function readOn(rt: Runtime, customerId: number) {
  const customer = rt.policy.snapshot.byId.get(customerId);
  if (!customer) throw new Error(`instance does not know customer ${customerId}`);
  return decide(rt, customer, "read", 1);
}

/** drained is a customer on a plan of two reads an hour that has spent them and been refused. */
async function drained(t: TestRuntime, slug: string): Promise<TestCustomer> {
  t.addPlan(slug, [{ operation: "read", count: 2, periodMs: HOUR }]);
  const customer = t.addCustomer(slug);
  expect((await list(customer.key)).status).toBe(200);
  expect((await list(customer.key)).status).toBe(200);
  expect((await list(customer.key)).status).toBe(429);
  return customer;
}

describe("with REDIS_URL: refusals remembered until their retry-after", () => {
  let t: TestRuntime & { prefix: string };
  afterEach(() => t.cleanup());

  it("refuses again from memory, recording each refusal, with the wait shrinking", async () => {
    t = await redisRuntime();
    const { id, key } = await drained(t, "cached");
    await scriptRuns();
    const denied = `ratekeeper_decisions_total{plan="cached",operation="read",outcome="denied"}`;
    const deniedBefore = await counter(denied);
    const first = await readOn(t.runtime, id);
    expect(first.decision.source).toBe("redis-cache");
    expect(first.decision.details.retryAfterMs).toBe(HOUR / 2);
    t.clock.advance(60_000);
    const response = await list(key);
    expect(response.status).toBe(429);
    expect(response.headers.get("Retry-After")).toBe(String((HOUR / 2 - 60_000) / 1_000));
    const later = await readOn(t.runtime, id);
    expect(later.decision).toMatchObject({
      source: "redis-cache",
      details: {
        allowed: false,
        executionTime: first.decision.details.executionTime + 60_000,
        retryAfterMs: HOUR / 2 - 60_000,
        tokensRemaining: 0,
      },
    });
    expect(later.decision.details.buckets).toEqual(
      first.decision.details.buckets.map((b) => ({
        ...b,
        executionTime: b.executionTime + 60_000,
        retryAfterMs: HOUR / 2 - 60_000,
        fullInMs: b.fullInMs - 60_000,
      })),
    );
    // None of the three reached Redis, and each counts as a refusal like any other.
    expect(await scriptRuns()).toBe(0);
    expect(await counter(denied)).toBe(deniedBefore + 3);
    expect(await counter("ratekeeper_deny_cache_hits_total")).toBe(3);
    expect(t.runtime.traffic.totals(t.clock.now(), 300).get(id)).toEqual({
      allowed: 2,
      denied: 4,
    });
    // At the retry-after a token is back: Redis decides, and admits.
    t.clock.advance(HOUR / 2 - 60_000);
    expect((await list(key)).status).toBe(200);
    expect(await scriptRuns()).toBe(1);
  });

  it("asks Redis for every decision when turned off", async () => {
    t = await redisRuntime(0);
    const { key } = await drained(t, "uncached");
    await scriptRuns();
    for (let i = 0; i < 5; i++) expect((await list(key)).status).toBe(429);
    expect(await scriptRuns()).toBe(5);
    expect(await counter("ratekeeper_deny_cache_hits_total")).toBe(0);
  });

  it("holds at most its bound of refusals, forgetting the least recently used", async () => {
    t = await redisRuntime(2);
    const a = await drained(t, "bound-a");
    const b = await drained(t, "bound-b");
    const c = await drained(t, "bound-c");
    await scriptRuns();
    // c and b are remembered; a, the eldest, was evicted.
    expect((await list(c.key)).status).toBe(429);
    expect((await list(b.key)).status).toBe(429);
    expect(await scriptRuns()).toBe(0);
    expect((await list(a.key)).status).toBe(429);
    expect(await scriptRuns()).toBe(1);
  });

  it("admits exactly K of a flood over two instances, and floods Redis with nothing", async () => {
    t = await redisRuntime();
    t.addPlan("flood", [{ operation: "read", count: 20, periodMs: HOUR }]);
    const { id, key } = t.addCustomer("flood");
    const other = await otherInstance(t);
    try {
      const answers = await Promise.all(
        Array.from({ length: 300 }, (_, i) =>
          i % 2 === 0
            ? list(key).then((r) => r.status === 200)
            : readOn(other, id).then((v) => v.allowed),
        ),
      );
      expect(answers.filter(Boolean)).toHaveLength(20);
      await scriptRuns();
      for (let i = 0; i < 500; i++) expect((await list(key)).status).toBe(429);
      for (let i = 0; i < 500; i++) expect((await readOn(other, id)).allowed).toBe(false);
      expect(await scriptRuns()).toBe(0);
    } finally {
      other.close();
    }
  });
});

/** The operator actions that give a customer tokens (or a new key) and must drop its refusals. */
const actions: [string, (t: TestRuntime, customer: TestCustomer, slug: string) => Promise<void>][] =
  [
    [
      "a reset",
      async (_t, { id }) => {
        const cookie = await signIn();
        const response = await reset(
          adminRequest(`/api/admin/customers/${id}/reset`, { cookie, method: "POST" }),
          idParams(id),
        );
        expect(response.status).toBe(200);
      },
    ],
    [
      "a plan edit",
      async (t, _customer, slug) => {
        const edited = updatePlan(t.runtime, "admin", t.planId(slug), {
          limits: [{ operation: "read", count: 3, periodMs: HOUR }],
        });
        expect(edited.ok).toBe(true);
      },
    ],
    [
      "an override change",
      async (t, { id }) => {
        const set = setOverride(t.runtime, "admin", id, "read", {
          limits: [{ count: 5, periodMs: HOUR }],
          expiresAt: null,
        });
        expect(set.ok).toBe(true);
      },
    ],
    [
      "a key rotation",
      async (t, { id }) => {
        expect(rotateKey(t.runtime, "admin", id).ok).toBe(true);
      },
    ],
  ];

/** admits says whether the action gives the customer a token (a rotation gives none). */
const admits = (action: string) => action !== "a key rotation";

describe("with REDIS_URL: operator actions drop remembered refusals", () => {
  let t: TestRuntime & { prefix: string };
  afterEach(() => t.cleanup());

  it.each(actions)("on this instance, at once after %s", async (action, act) => {
    t = await redisRuntime();
    const slug = `here-${actions.findIndex(([name]) => name === action)}`;
    const customer = await drained(t, slug);
    expect((await readOn(t.runtime, customer.id)).decision.source).toBe("redis-cache");
    expect(await remembered(t.runtime)).toBe(1);
    await act(t, customer, slug);
    expect(await remembered(t.runtime)).toBe(0);
    await scriptRuns();
    const next = await readOn(t.runtime, customer.id);
    expect(next.decision.source).toBe("redis");
    expect(next.allowed).toBe(admits(action));
    expect(await scriptRuns()).toBe(1);
  });

  it.each(actions)("on another instance, through the notice, after %s", async (action, act) => {
    t = await redisRuntime();
    const slug = `there-${actions.findIndex(([name]) => name === action)}`;
    const customer = await drained(t, slug);
    const other = await otherInstance(t);
    try {
      // The other instance learns the refusal from Redis, then answers it from memory.
      expect((await readOn(other, customer.id)).decision.source).toBe("redis");
      expect((await readOn(other, customer.id)).decision.source).toBe("redis-cache");
      expect(await remembered(other)).toBe(1);
      await act(t, customer, slug);
      await vi.waitFor(async () => expect(await remembered(other)).toBe(0), {
        timeout: 1_000,
        interval: 5,
      });
      const next = await readOn(other, customer.id);
      expect(next.decision.source).toBe("redis");
      // The first decision after the notice went to Redis, which has the customer's tokens.
      expect(next.allowed).toBe(admits(action));
    } finally {
      other.close();
    }
  });
});
