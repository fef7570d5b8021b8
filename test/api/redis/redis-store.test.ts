import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { POST as reset } from "@/app/api/admin/customers/[id]/reset/route";
import { POST as testRequest } from "@/app/api/admin/customers/[id]/test-request/route";
import { GET as health } from "@/app/api/health/route";
import { GET as metrics } from "@/app/api/metrics/route";
import { GET, POST } from "@/app/api/v1/items/route";
import { updatePlan } from "@/lib/admin/plans";
import { createRuntime, type Runtime } from "@/lib/runtime";
import { type RedisServer, startRedisServer } from "../../support/redis-server";
import { api, createTestRuntime, idParams, type TestRuntime } from "../../support/runtime";
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

/** HEALTHY_TIMEOUT_MS is the timeout of tests where Redis never fails: a busy machine is not an incident. */
const HEALTHY_TIMEOUT_MS = 2_000;

/** redisRuntime is a test runtime whose buckets live on the test server, under a fresh prefix. */
async function redisRuntime(
  options: { reads?: "open" | "closed"; writes?: "open" | "closed"; timeoutMs?: number } = {},
): Promise<TestRuntime & { prefix: string }> {
  const prefix = `t${++prefixes}`;
  const t = createTestRuntime({
    redis: {
      url: server.url,
      prefix,
      timeoutMs: options.timeoutMs ?? 150,
      failure: { read: options.reads ?? "open", write: options.writes ?? "closed" },
    },
  });
  await t.runtime.ready();
  return Object.assign(t, { prefix });
}

const list = (key: string) => GET(api("/api/v1/items", { key }));
const create = (key: string) => POST(api("/api/v1/items", { key, body: { name: "x" } }));

async function statuses(requests: Promise<Response>[]): Promise<Record<number, number>> {
  const counts: Record<number, number> = {};
  for (const response of await Promise.all(requests)) {
    counts[response.status] = (counts[response.status] ?? 0) + 1;
  }
  return counts;
}

function storeErrors(text: string): number {
  const line = text
    .split("\n")
    .find((l) => l.startsWith('ratekeeper_store_errors_total{store="redis"}'));
  return line ? Number(line.split(" ").pop()) : 0;
}

function probeFailures(text: string): number {
  const line = text
    .split("\n")
    .find((l) => l.startsWith('ratekeeper_store_probe_failures_total{store="redis"}'));
  return line ? Number(line.split(" ").pop()) : Number.NaN;
}

describe("with REDIS_URL: buckets in Redis", () => {
  let t: TestRuntime & { prefix: string };
  afterEach(() => t.cleanup());

  it("decides protected requests on Redis: exactly the plan's limit, keys under the prefix", async () => {
    t = await redisRuntime({ timeoutMs: HEALTHY_TIMEOUT_MS });
    t.addPlan("ten", [
      { operation: "read", count: 10, periodMs: HOUR },
      { operation: "write", count: 3, periodMs: HOUR },
    ]);
    const { id, key } = t.addCustomer("ten");
    const reads = await statuses(Array.from({ length: 25 }, () => list(key)));
    expect(reads).toEqual({ 200: 10, 429: 15 });
    const denied = await list(key);
    expect(denied.status).toBe(429);
    expect(Number(denied.headers.get("Retry-After"))).toBeGreaterThan(0);
    expect(denied.headers.get("RateLimit")).toMatch(/^"read-10-per-1h";r=0;t=\d+$/);
    // Writes are a bucket of their own.
    expect(await statuses(Array.from({ length: 5 }, () => create(key)))).toEqual({
      201: 3,
      429: 2,
    });
    const redis = server.client();
    // The buckets, and the policy snapshot the control plane keeps for edges.
    expect((await redis.keys(`${t.prefix}:*`)).sort()).toEqual([
      `${t.prefix}:{${id}:read}:10/${HOUR}`,
      `${t.prefix}:{${id}:write}:3/${HOUR}`,
      `${t.prefix}:{policy}:snapshot`,
    ]);
    // The in-memory limiter (the stand-in) was never used.
    expect(t.runtime.limiter.size).toBe(0);
    expect(await (await health()).json()).toEqual({ status: "ok", store: "redis", redis: "up" });
  });

  it("runs the inspector, test requests and resets on Redis", async () => {
    t = await redisRuntime({ timeoutMs: HEALTHY_TIMEOUT_MS });
    t.addPlan("two", [{ operation: "read", count: 2, periodMs: HOUR }]);
    const { id, key } = t.addCustomer("two");
    const cookie = await signIn();
    const send = async () => {
      const response = await testRequest(
        adminRequest(`/api/admin/customers/${id}/test-request`, {
          cookie,
          body: { operation: "read", cost: 1 },
        }),
        idParams(id),
      );
      return (await response.json()) as { status: number; decision: { store: string } };
    };
    expect(await send()).toMatchObject({ status: 200, decision: { store: "redis" } });
    expect((await list(key)).status).toBe(200);
    expect(await send()).toMatchObject({ status: 429, decision: { store: "redis" } });

    const cleared = await reset(
      adminRequest(`/api/admin/customers/${id}/reset`, { cookie, method: "POST" }),
      idParams(id),
    );
    expect(await cleared.json()).toEqual({ deleted: 1 });
    expect(await server.client().keys(`${t.prefix}:*`)).toEqual([`${t.prefix}:{policy}:snapshot`]);
    expect((await list(key)).status).toBe(200);
  });

  it("shares buckets and policy edits between two instances on one database", async () => {
    t = await redisRuntime({ timeoutMs: HEALTHY_TIMEOUT_MS });
    t.addPlan("shared", [{ operation: "read", count: 6, periodMs: HOUR }]);
    const { id, key } = t.addCustomer("shared");
    // A second instance: same SQLite file, same Redis and prefix, its own process state.
    const other: Runtime = createRuntime({
      databasePath: t.databasePath,
      clock: t.clock,
      adminPassword: "test-password",
      log: { info() {}, warn() {}, error() {} },
      redis: { url: server.url, prefix: t.prefix, timeoutMs: HEALTHY_TIMEOUT_MS },
      usage: { timers: false },
    });
    try {
      await other.ready();
      const customer = other.policy.snapshot.byId.get(id);
      if (!customer) throw new Error("the other instance does not know the customer");
      const decide = (rt: Runtime) =>
        rt.decisions.decide(
          {
            customer: rt.policy.snapshot.byId.get(id) ?? customer,
            operation: "read",
            now: t.clock.now(),
          },
          1,
        );
      // Three here, three there, then both refuse: one set of buckets.
      for (let i = 0; i < 3; i++) expect((await list(key)).status).toBe(200);
      for (let i = 0; i < 3; i++) expect((await decide(other)).details.allowed).toBe(true);
      expect((await decide(other)).details.allowed).toBe(false);
      expect((await list(key)).status).toBe(429);

      // An edit on this instance reaches the other one through pub/sub.
      const edited = updatePlan(t.runtime, "admin", t.planId("shared"), {
        limits: [{ operation: "read", count: 9, periodMs: HOUR }],
      });
      expect(edited.ok).toBe(true);
      await vi.waitFor(
        () => {
          const seen = other.policy.snapshot.byId.get(id);
          expect(seen?.planLimits.get("read")?.map((l) => l.count)).toEqual([9]);
        },
        { timeout: 1_000, interval: 5 },
      );
      // A new limit is a new bucket: nine more over both instances.
      let admitted = 0;
      for (let i = 0; i < 6; i++) if ((await list(key)).status === 200) admitted++;
      for (let i = 0; i < 6; i++) if ((await decide(other)).details.allowed) admitted++;
      expect(admitted).toBe(9);
    } finally {
      other.close();
    }
  });
});

describe("with REDIS_URL: when Redis fails", () => {
  let t: TestRuntime & { prefix: string };
  afterEach(async () => {
    t.cleanup();
    await server.start().catch(() => undefined);
  });

  it("fails reads open on the bounded stand-in and writes closed, logs once, then recovers", async () => {
    t = await redisRuntime();
    t.addPlan("five", [
      { operation: "read", count: 5, periodMs: HOUR },
      { operation: "write", count: 5, periodMs: HOUR },
    ]);
    const { key } = t.addCustomer("five");
    expect((await list(key)).status).toBe(200);

    await server.stop();
    // Reads go on, but no further than the plan's limit on this instance.
    expect((await list(key)).status).toBe(200);
    expect(await statuses(Array.from({ length: 8 }, () => list(key)))).toEqual({
      200: 4,
      429: 4,
    });
    const refused = await create(key);
    expect(refused.status).toBe(503);
    expect(refused.headers.get("Retry-After")).toBe("1");
    expect(await refused.json()).toMatchObject({ title: "Rate limit store unavailable" });
    expect(await (await health()).json()).toEqual({ status: "ok", store: "redis", redis: "down" });
    const scrape = await (await metrics()).text();
    // The lost connection, or else the first call, started the incident; the next decisions did
    // not wait for Redis within the probe interval.
    expect(storeErrors(scrape)).toBeLessThanOrEqual(1);
    expect(scrape).toContain("\nratekeeper_store_up 0\n");
    const down = t.lines.filter((l) => l.startsWith("Redis unreachable"));
    expect(down).toHaveLength(1);
    expect(down[0]).toContain("reads fail open, writes fail closed");
    // The client's own words for a closed connection stay out of the log.
    expect(down[0]).toMatch(/^Redis unreachable \([^()]+\): /);
    expect(down[0]).not.toMatch(/enableOfflineQueue|Stream isn't writeable/);

    await server.start();
    // The client reconnects by itself; wait for a write to get through (503 until then).
    // A probe may try Redis once per 250 ms of the app's clock.
    await vi.waitFor(
      async () => {
        t.clock.advance(250);
        expect((await create(key)).status).toBe(201);
      },
      { timeout: 5_000, interval: 50 },
    );
    expect(t.lines.filter((l) => l.startsWith("Redis answers again"))).toHaveLength(1);
    // The restarted Redis is empty: the customer has its full limit again, counted in Redis.
    expect(await statuses(Array.from({ length: 7 }, () => list(key)))).toEqual({
      200: 5,
      429: 2,
    });
    expect(await (await health()).json()).toMatchObject({ redis: "up" });
    expect(await (await metrics()).text()).toContain("\nratekeeper_store_up 1\n");
  });

  it("follows the configured policy: reads closed, writes open", async () => {
    t = await redisRuntime({ reads: "closed", writes: "open" });
    t.addPlan("four", [{ operation: "write", count: 4, periodMs: HOUR }]);
    const { key } = t.addCustomer("four");
    await server.stop();
    expect((await list(key)).status).toBe(503);
    expect(await statuses(Array.from({ length: 6 }, () => create(key)))).toEqual({
      201: 4,
      429: 2,
    });
    expect(t.lines.filter((l) => l.startsWith("Redis unreachable"))).toEqual([
      expect.stringContaining("reads fail closed, writes fail open"),
    ]);
  });

  it("probes Redis with a PING per interval during an incident, never with a customer's decision, and counts the probes apart from the decisions", async () => {
    t = await redisRuntime();
    const { id, key } = t.addCustomer("pro");
    await server.stop();
    for (let i = 0; i < 10; i++) expect((await list(key)).status).toBe(200);
    // The lost connection, or else the first decision, started the incident: at most one failed.
    const failedDecisions = storeErrors(await (await metrics()).text());
    expect(failedDecisions).toBeLessThanOrEqual(1);
    // Each interval of the app's clock, a PING tries Redis again (and fails while it is down);
    // the requests meanwhile do not wait for Redis. Failed PINGs are not failed decisions.
    for (let round = 1; round <= 3; round++) {
      t.clock.advance(250);
      await vi.waitFor(async () =>
        expect(probeFailures(await (await metrics()).text())).toBeGreaterThanOrEqual(round),
      );
      for (let i = 0; i < 3; i++) expect((await list(key)).status).toBe(200);
      expect(storeErrors(await (await metrics()).text())).toBe(failedDecisions);
    }
    await server.start();
    const admin = server.client();
    await admin.config("RESETSTAT");
    const buckets = () => admin.keys(`${t.prefix}:{${id}:*`);
    // Back, but the incident lasts until a probe: requests meanwhile do not reach Redis.
    for (let i = 0; i < 3; i++) expect((await list(key)).status).toBe(200);
    await vi.waitFor(
      async () => {
        t.clock.advance(250);
        expect(t.lines.filter((l) => l.startsWith("Redis answers again"))).toHaveLength(1);
      },
      { timeout: 5_000, interval: 50 },
    );
    expect(await admin.info("commandstats")).toMatch(/cmdstat_ping:calls=/);
    expect(t.lines.filter((l) => l.startsWith("Redis answers again"))[0]).toMatch(
      /^Redis answers again after [01] failed decisions?, [1-9]\d* failed probes?(, \d+ other failed calls?)? and \d+ failed connection attempts? over \d+ s: decisions use it again\.$/,
    );
    expect(await buckets()).toEqual([]);
    // Then decisions go to Redis again: the restarted, empty Redis holds the customer's bucket
    // (on a busy machine a reconnection's late reply may start one more short incident first).
    await vi.waitFor(
      async () => {
        t.clock.advance(250);
        expect((await list(key)).status).toBe(200);
        expect((await buckets()).length).toBeGreaterThan(0);
      },
      { timeout: 5_000, interval: 50 },
    );
  });

  it("a refused decision is not charged when Redis resumes", async () => {
    t = await redisRuntime();
    t.addPlan("five-writes", [{ operation: "write", count: 5, periodMs: HOUR }]);
    const { id, key } = t.addCustomer("five-writes");
    expect((await create(key)).status).toBe(201);
    // Redis hangs: the write's script waits in the socket, and the instance answers 503.
    server.freeze();
    try {
      const refused = await create(key);
      expect(refused.status).toBe(503);
    } finally {
      server.thaw();
    }
    // Once Redis answers again, peek on the same connection: it runs after the held script.
    const peek = async () => {
      const customer = t.runtime.policy.snapshot.byId.get(id);
      if (!customer) throw new Error("no customer");
      return t.runtime.decisions.peek({ customer, operation: "write", now: t.clock.now() });
    };
    let remaining = -1;
    await vi.waitFor(
      async () => {
        t.clock.advance(250);
        const decision = await peek();
        expect(decision.source).toBe("redis");
        remaining = decision.details.tokensRemaining;
      },
      { timeout: 5_000, interval: 50 },
    );
    // One write admitted, one refused: the refused one took nothing when it finally ran.
    expect(remaining).toBe(4);
    const scrape = await (await metrics()).text();
    expect(scrape).toContain('ratekeeper_redis_unanswered_decisions_total{outcome="expired"} 1');
    expect(scrape).toContain('ratekeeper_redis_unanswered_decisions_total{outcome="charged"} 0');
  });

  it("a Redis that hangs with no traffic is marked down by the first background call it leaves unanswered", async () => {
    t = await redisRuntime();
    const scrape = async () => (await metrics()).text();
    expect(await (await health()).json()).toMatchObject({ redis: "up" });
    server.freeze();
    try {
      // No decision: the usage claim (a background call) is the one that finds Redis hung.
      await expect(t.runtime.claims?.claim()).rejects.toThrow("Command timed out");
      expect(await (await health()).json()).toMatchObject({ redis: "down" });
      expect(await scrape()).toContain("\nratekeeper_store_up 0\n");
      expect(t.lines.filter((l) => l.startsWith("Redis unreachable"))).toEqual([
        expect.stringMatching(/^Redis unreachable \(no answer within 150 ms\): /),
      ]);
      expect(storeErrors(await scrape())).toBe(0);
    } finally {
      server.thaw();
    }
    // The probe finds it answering again.
    await vi.waitFor(
      async () => {
        t.clock.advance(250);
        expect(await (await health()).json()).toMatchObject({ redis: "up" });
      },
      { timeout: 5_000, interval: 50 },
    );
    expect(await scrape()).toContain("\nratekeeper_store_up 1\n");
  });

  it("times out a Redis that does not answer, and applies the failure policy", async () => {
    t = await redisRuntime();
    const { key } = t.addCustomer("free");
    const admin = server.client();
    // Redis stops serving commands for 800 ms: calls time out at 150 ms.
    await admin.call("CLIENT", "PAUSE", "800", "ALL");
    const refused = await create(key);
    expect(refused.status).toBe(503);
    expect((await list(key)).status).toBe(200);
    expect(t.lines.filter((l) => l.startsWith("Redis unreachable"))).toEqual([
      expect.stringContaining(
        "did not answer the decision in time; its script refuses to run late",
      ),
    ]);
    // One pair of parentheses: the cause is not nested in another's.
    expect(t.lines.find((l) => l.startsWith("Redis unreachable"))).toMatch(
      /^Redis unreachable \([^()]*\): [^()]*$/,
    );
    await admin.call("CLIENT", "UNPAUSE");
  });
});
