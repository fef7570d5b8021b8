import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { resetBuckets, rotateKey, setOverride } from "@/lib/admin/customers";
import { updatePlan } from "@/lib/admin/plans";
import { setRouteRules } from "@/lib/admin/route-rules";
import type { Logger } from "@/lib/log";
import { hashApiKey } from "@/lib/policy/api-key";
import { decide } from "@/lib/policy/decide";
import { RedisSnapshots } from "@/lib/policy/redis-snapshot";
import { routeEffect } from "@/lib/policy/route-rules";
import type { CustomerPolicy, PolicyRows } from "@/lib/policy/snapshot";
import { encodePolicyRows } from "@/lib/policy/snapshot-codec";
import { createEdgeRuntime, type EdgeRuntime } from "@/lib/runtime/edge";
import { routeRulesSchema } from "@/lib/schemas/route-rule.schema";
import { FakeClock, flush } from "../../support/fake-clock";
import { type RedisServer, startRedisServer } from "../../support/redis-server";
import { createTestRuntime, START_MS, type TestRuntime } from "../../support/runtime";

const HOUR = 3_600_000;
const DIGEST = "ab".repeat(32);

let server: RedisServer;
let prefixes = 0;
let prefix: string;
const open: { close(): void }[] = [];

beforeAll(async () => {
  server = await startRedisServer();
});
afterEach(() => {
  for (const item of open.splice(0)) item.close();
});
afterAll(async () => {
  await server.close();
});

function quietLog(lines: string[] = []): Logger {
  return {
    info: (m) => lines.push(m),
    warn: (m) => lines.push(m),
    error: (m) => lines.push(m),
  };
}

/** controlPlane is a full runtime on a temporary database, its buckets and snapshot in Redis. */
async function controlPlane(): Promise<TestRuntime> {
  prefix = `edge${++prefixes}`;
  const t = createTestRuntime({ redis: { url: server.url, prefix, timeoutMs: 1_000 } });
  open.push({ close: () => t.cleanup() });
  await t.runtime.ready();
  return t;
}

/**
 * edge is an edge on the same Redis and prefix; `checkMs: 0` (the default here) leaves it no
 * timer to lean on, and a period runs on `clock`.
 */
function edge(
  options: { clock?: FakeClock; lines?: string[]; checkMs?: number } = {},
): EdgeRuntime {
  const rt = createEdgeRuntime({
    redis: { url: server.url, prefix, timeoutMs: 1_000, decisionClock: options.clock },
    clock: options.clock,
    log: quietLog(options.lines),
    checkMs: options.checkMs ?? 0,
  });
  open.push(rt);
  return rt;
}

function rows(overrides: PolicyRows["overrides"] = []): PolicyRows {
  return {
    plans: [
      {
        id: 1,
        slug: "pro",
        name: "Pro",
        limits: [{ operation: "read", count: 100, periodMs: HOUR }],
      },
    ],
    customers: [
      { id: 7, name: "Acme", status: "active", planId: 1, apiKeyHash: DIGEST, billingAnchorDay: 1 },
    ],
    overrides,
    serviceTokens: [],
  };
}

describe("RedisSnapshots", () => {
  it("stamps each accepted write with the next version, and keeps a later revision", async () => {
    const snapshots = new RedisSnapshots(server.client(), `snap${++prefixes}`);
    expect(await snapshots.readStamp()).toBeNull();
    expect(await snapshots.read()).toBeNull();
    const first = await snapshots.write("rows-5", 5, 1_000);
    expect(first).toMatchObject({ written: true, stamp: { version: 1 } });
    const second = await snapshots.write("rows-6", 6, 2_000);
    expect(second.stamp).toEqual({ generation: first.stamp.generation, version: 2 });
    // Rows read before another instance's edit must not undo it.
    const stale = await snapshots.write("rows-5-again", 5, 3_000);
    expect(stale).toEqual({ written: false, stamp: second.stamp });
    expect(await snapshots.read()).toMatchObject({ version: 2, revision: 6, rows: "rows-6" });
    // A control plane's first write is forced: its database is the truth.
    const forced = await snapshots.write("rows-restored", 2, 4_000, true);
    expect(forced).toMatchObject({ written: true, stamp: { version: 3 } });
    expect(await snapshots.read()).toMatchObject({ revision: 2, rows: "rows-restored" });
  });
});

describe("an edge's policy", () => {
  it("is the control plane's, and follows its edits through the notices", async () => {
    const t = await controlPlane();
    const rt = edge();
    expect(rt.policy.loaded).toBe(false);
    await rt.ready();
    const demo = rt.policy.snapshot.byKeyHash.get(hashApiKey(t.demoKey));
    expect(demo).toMatchObject({ id: t.demoId, status: "active", planSlug: "free" });
    t.suspend(t.demoId);
    await vi.waitFor(() => expect(rt.policy.snapshot.byId.get(t.demoId)?.status).toBe("suspended"));
  });

  // Regression: an edge holding one customer logged "(1 customers)".
  it("says how many customers it loaded, in words that count them", async () => {
    await controlPlane();
    const lines: string[] = [];
    const rt = edge({ lines });
    await rt.ready();
    expect(lines).toContainEqual(
      expect.stringMatching(/loaded from Redis \(1 customer\): deciding/),
    );
  });

  it("misses no edit made while Redis was down, even one that lost its notice and its write", async () => {
    const t = await controlPlane();
    const rt = edge();
    await rt.ready();
    await server.stop();
    // The write and the notice both fail: Redis is gone (and comes back empty).
    t.addPlan("later", [{ operation: "read", count: 9, periodMs: HOUR }]);
    const added = t.addCustomer("later", "Added while Redis was down");
    expect(rt.policy.snapshot.byId.has(added.id)).toBe(false);
    await server.start();
    // No timer (checkMs 0): the reconnection alone brings the edge up to date.
    await vi.waitFor(() => expect(rt.policy.snapshot.byId.get(added.id)?.planSlug).toBe("later"), {
      timeout: 5_000,
    });
  });

  it("reads the rows only when the stamp changed, and catches a write whose notice was lost", async () => {
    await controlPlane();
    const rt = edge();
    await rt.ready();
    const before = rt.policy.snapshot;
    rt.edgePolicy.check();
    await rt.edgePolicy.settled();
    expect(rt.policy.snapshot).toBe(before);
    // Written with no notice: the next stamp check finds it.
    const snapshots = new RedisSnapshots(server.client(), prefix);
    await snapshots.write(encodePolicyRows(rows()), 1_000_000, START_MS);
    rt.edgePolicy.check();
    await rt.edgePolicy.settled();
    expect(rt.policy.snapshot.byId.get(7)?.name).toBe("Acme");
    expect(rt.policy.state?.revision).toBe(1_000_000);
  });

  it("keeps the policy it has when the snapshot in Redis cannot be used", async () => {
    await controlPlane();
    const lines: string[] = [];
    const rt = edge({ lines });
    await rt.ready();
    const before = rt.policy.snapshot;
    const snapshots = new RedisSnapshots(server.client(), prefix);
    await snapshots.write(JSON.stringify({ format: 99 }), 1_000_000, START_MS);
    rt.edgePolicy.check();
    await rt.edgePolicy.settled();
    expect(rt.policy.snapshot).toBe(before);
    expect(lines.join("\n")).toContain("cannot be used: its format is 99");
  });

  it("meters by the route rules saved on the control plane, and follows their edits", async () => {
    const t = await controlPlane();
    const rt = edge();
    await rt.ready();
    expect(rt.policy.snapshot.routes.match("POST", "/v1/exports")).toBeUndefined();
    const save = (rules: unknown[]) => {
      const saved = setRouteRules(t.runtime, "admin", routeRulesSchema.parse({ rules }));
      if (!saved.ok) throw new Error("rules refused");
    };
    save([
      { method: "GET", pattern: "/health", unmetered: true },
      { method: "POST", pattern: "/v1/exports", operation: "read", cost: 5 },
    ]);
    await vi.waitFor(() =>
      expect(rt.policy.snapshot.routes.match("POST", "/v1/exports")?.index).toBe(1),
    );
    const matched = rt.policy.snapshot.routes.match("POST", "/v1/exports")?.rule;
    expect(routeEffect(matched, "POST")).toEqual({ unmetered: false, operation: "read", cost: 5 });
    expect(routeEffect(rt.policy.snapshot.routes.match("GET", "/health")?.rule, "GET")).toEqual({
      unmetered: true,
    });
    save([]);
    await vi.waitFor(() => expect(rt.policy.snapshot.routes.rules).toEqual([]));
  });

  it("lets an override expire on the edge as on the control plane", async () => {
    prefix = `edge${++prefixes}`;
    const clock = new FakeClock(START_MS);
    const snapshots = new RedisSnapshots(server.client(), prefix);
    const expiresAt = START_MS + 60_000;
    await snapshots.write(
      encodePolicyRows(
        rows([
          { customerId: 7, operation: "read", count: 2, periodMs: HOUR, dryRun: false, expiresAt },
        ]),
      ),
      1,
      START_MS,
    );
    const rt = edge({ clock });
    await rt.ready();
    const customer = rt.policy.snapshot.byId.get(7);
    if (!customer) throw new Error("the edge did not load customer 7");
    const reasons = async () => (await decide(rt, customer, "read", 1)).reason;
    expect([await reasons(), await reasons(), await reasons()]).toEqual([
      "ok",
      "ok",
      "rate_limited",
    ]);
    clock.advance(60_000);
    const after = await decide(rt, customer, "read", 1);
    expect(after.reason).toBe("ok");
    expect(after.headers["RateLimit-Policy"]).toBe('"read-100-per-1h";q=100;w=3600');
  });

  it.each([
    ["a reset", (t: TestRuntime, id: number) => void resetBuckets(t.runtime, id)],
    [
      "a plan edit",
      (t: TestRuntime) =>
        updatePlan(t.runtime, "admin", t.planId("one"), {
          limits: [{ operation: "read", count: 1, periodMs: 2 * HOUR }],
        }),
    ],
    [
      "an override",
      (t: TestRuntime, id: number) =>
        setOverride(t.runtime, "admin", id, "read", {
          limits: [{ count: 3, periodMs: HOUR }],
          expiresAt: null,
        }),
    ],
    ["a key rotation", (t: TestRuntime, id: number) => rotateKey(t.runtime, "admin", id)],
  ])("drops the refusals it remembers on %s made on the control plane", async (_what, change) => {
    const t = await controlPlane();
    const rt = edge();
    await rt.ready();
    t.addPlan("one", [{ operation: "read", count: 1, periodMs: HOUR }]);
    const { id } = t.addCustomer("one");
    await vi.waitFor(() => expect(rt.policy.snapshot.byId.has(id)).toBe(true));
    const read = () => decide(rt, rt.policy.snapshot.byId.get(id) as CustomerPolicy, "read", 1);
    expect((await read()).reason).toBe("ok");
    expect((await read()).decision.source).toBe("redis");
    expect((await read()).decision.source).toBe("redis-cache");
    change(t, id);
    // The notice reaches the edge: its next decision asks Redis again.
    await vi.waitFor(async () => expect((await read()).decision.source).toBe("redis"), {
      timeout: 1_000,
      interval: 5,
    });
  });
});

describe("an edge's log: what is true, once per change of state", () => {
  const LOADED =
    /^Policy snapshot version \d+, revision \d+, loaded from Redis \(1 customer\): deciding\.$/;

  /** count is how many lines match `pattern`. */
  function count(lines: string[], pattern: RegExp): number {
    return lines.filter((line) => pattern.test(line)).length;
  }

  /**
   * tickUntil moves the shared fake clock on by half a second at a time, letting the control
   * plane's checks and the edge's run after each step, until `done`; it returns the time that
   * took on the clock and fails past `limitMs`.
   */
  async function tickUntil(
    t: TestRuntime,
    rt: EdgeRuntime,
    done: () => boolean,
    limitMs: number,
  ): Promise<number> {
    const started = t.clock.now();
    while (!done()) {
      const elapsed = t.clock.now() - started;
      if (elapsed >= limitMs) throw new Error(`not done within ${limitMs} ms of the clock`);
      t.clock.advance(500);
      await flush();
      await t.runtime.snapshotWriter?.idle();
      await rt.edgePolicy.settled();
    }
    return t.clock.now() - started;
  }

  // Regression: every edge logged "Could not read the policy snapshot… decisions answer 503"
  // before its Redis connection was open, then that the snapshot could be read again.
  it("logs no failure to read the snapshot before its Redis connection is open (no crying wolf)", async () => {
    await controlPlane();
    const lines: string[] = [];
    const rt = edge({ lines });
    await rt.ready();
    expect(lines).toEqual([
      "Edge: deciding on the policy the control plane writes to Redis; no database.",
      `Connecting to Redis at ${server.url} for the policy snapshot; decisions answer 503 until one is loaded.`,
      `Buckets are in Redis at ${server.url}, shared with every instance using it.`,
      expect.stringMatching(LOADED),
    ]);
  });

  // Regression: after FLUSHALL with the control plane idle, an edge started then answered 503
  // for as long as nobody edited anything, and its log never named the cause.
  it("an edge started after FLUSHALL with the control plane idle is ready within 3 s, its log naming each state once", async () => {
    const t = await controlPlane();
    await t.runtime.snapshotWriter?.idle();
    await server.client().flushall();
    const lines: string[] = [];
    const rt = edge({ clock: t.clock, lines, checkMs: 1_000 });
    // Once its connection is open, the edge looks and finds nothing to load.
    await vi.waitFor(() => expect(lines.join("\n")).toContain("Buckets are in Redis"));
    rt.edgePolicy.check();
    await rt.edgePolicy.settled();
    expect(rt.policy.loaded).toBe(false);
    const took = await tickUntil(t, rt, () => rt.policy.loaded, 3_000);
    expect(took).toBeLessThanOrEqual(3_000);
    expect(rt.edgePolicy.status).toBe("current");
    expect(lines).toEqual([
      "Edge: deciding on the policy the control plane writes to Redis; no database.",
      `Connecting to Redis at ${server.url} for the policy snapshot; decisions answer 503 until one is loaded.`,
      `Buckets are in Redis at ${server.url}, shared with every instance using it.`,
      `Waiting for the policy snapshot: Redis holds none at ${prefix}:{policy}:snapshot (the control plane writes it at start and whenever it finds it missing: is one running on this Redis, with this REDIS_PREFIX?); decisions answer 503 until it is written.`,
      expect.stringMatching(LOADED),
    ]);
    expect(count(t.lines, /^Redis holds no policy snapshot at /)).toBe(1);
  });

  it("says why while Redis refuses the connection, then loads the snapshot once Redis is back", async () => {
    const t = await controlPlane();
    await server.stop();
    const lines: string[] = [];
    const rt = edge({ clock: t.clock, lines, checkMs: 1_000 });
    await vi.waitFor(async () => {
      t.clock.advance(1_000);
      await flush();
      await rt.edgePolicy.settled();
      expect(rt.edgePolicy.status).toBe("unreachable");
    });
    expect(lines.at(-1)).toMatch(
      /^Redis is unreachable \(connect ECONNREFUSED 127\.0\.0\.1:\d+\): decisions answer 503 until it answers and holds the policy snapshot, tried again every second\.$/,
    );
    // Still refused: nothing more to say.
    for (let i = 0; i < 3; i++) {
      t.clock.advance(1_000);
      await flush();
      await rt.edgePolicy.settled();
    }
    expect(count(lines, /^Redis is unreachable/)).toBe(1);
    // Redis comes back empty: the control plane writes the snapshot again, the edge loads it.
    await server.start();
    await vi.waitFor(() => expect(rt.edgePolicy.status).not.toBe("unreachable"), {
      timeout: 3_000,
    });
    await tickUntil(t, rt, () => rt.policy.loaded, 3_000);
    expect(count(lines, /^Connecting to Redis/)).toBe(1);
    expect(count(lines, /^Waiting for the policy snapshot/)).toBeLessThanOrEqual(1);
    expect(count(lines, LOADED)).toBe(1);
    expect(lines.at(-1)).toMatch(LOADED);
  });

  it("waits on a snapshot in an earlier version's format, and loads the control plane's rewrite", async () => {
    const t = await controlPlane();
    await t.runtime.snapshotWriter?.idle();
    const snapshots = new RedisSnapshots(server.client(), prefix);
    const revision = t.runtime.policy.state?.revision ?? 0;
    const earlier = JSON.stringify({ ...JSON.parse(encodePolicyRows(rows())), format: 0 });
    await snapshots.write(earlier, revision, START_MS, true, 0);
    const lines: string[] = [];
    const rt = edge({ clock: t.clock, lines, checkMs: 1_000 });
    await vi.waitFor(() => expect(rt.edgePolicy.status).toBe("unusable"));
    expect(lines.at(-1)).toBe(
      "Waiting for the policy snapshot in this version's format: the one in Redis (version 3) cannot be used: its format is 0, and this instance reads format 2: an earlier version of the control plane wrote it; a control plane of this version rewrites it; decisions answer 503 until it is rewritten.",
    );
    await tickUntil(t, rt, () => rt.policy.loaded, 3_000);
    // The control plane's rows (its demo customer), not the earlier version's (customer 7).
    expect(rt.policy.snapshot.byId.has(t.demoId)).toBe(true);
    expect(rt.policy.snapshot.byId.has(7)).toBe(false);
    expect(count(lines, /^Waiting for the policy snapshot/)).toBe(1);
    expect(lines.at(-1)).toMatch(LOADED);
  });

  it("keeps deciding when Redis loses the snapshot, says so once, and follows the rewrite", async () => {
    const t = await controlPlane();
    const lines: string[] = [];
    const rt = edge({ clock: t.clock, lines, checkMs: 1_000 });
    await rt.ready();
    const held = rt.edgePolicy.stamp;
    await server.client().flushall();
    rt.edgePolicy.check();
    await rt.edgePolicy.settled();
    expect(rt.edgePolicy.status).toBe("missing");
    expect(lines.at(-1)).toMatch(
      /^Redis no longer holds the policy snapshot \(.*\): this edge keeps deciding on the policy it has \(version \d+, revision \d+\) until the control plane writes it again\.$/,
    );
    expect(rt.policy.loaded).toBe(true);
    await tickUntil(t, rt, () => rt.edgePolicy.status === "current", 3_000);
    expect(rt.edgePolicy.stamp?.generation).not.toBe(held?.generation);
    expect(lines.at(-1)).toMatch(
      /^The policy snapshot in Redis can be read again: following version 1, revision \d+\.$/,
    );
    expect(count(lines, /^Redis no longer holds/)).toBe(1);
  });
});
