import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { POST as reset } from "@/app/api/admin/customers/[id]/reset/route";
import { GET as health } from "@/app/api/health/route";
import { GET } from "@/app/api/v1/items/route";
import { updatePlan } from "@/lib/admin/plans";
import { decide } from "@/lib/policy/decide";
import { createRuntime, type Runtime } from "@/lib/runtime";
import { createEdgeRuntime } from "@/lib/runtime/edge";
import { type RedisCluster, startRedisCluster } from "../../support/redis-cluster";
import { api, createTestRuntime, idParams, type TestRuntime } from "../../support/runtime";
import { adminRequest, signIn } from "../admin/admin-support";

const HOUR = 3_600_000;
let cluster: RedisCluster;
let prefixes = 0;

beforeAll(async () => {
  cluster = await startRedisCluster(3);
});
afterAll(async () => {
  await cluster.close();
});

const urls = () => cluster.servers.map((server) => server.url);

/** clusterRuntime is a test runtime whose buckets live on the test cluster, under a fresh prefix. */
async function clusterRuntime(nodes: string[]): Promise<TestRuntime & { prefix: string }> {
  const prefix = `cl${++prefixes}`;
  const t = createTestRuntime({ redis: { clusterNodes: nodes, prefix, timeoutMs: 2_000 } });
  await t.runtime.ready();
  return Object.assign(t, { prefix });
}

/** keysPerNode counts the bucket keys under `prefix` on each primary (not the policy snapshot). */
async function keysPerNode(prefix: string): Promise<number[]> {
  return Promise.all(
    cluster.servers.map(
      async (server) =>
        (await server.client().keys(`${prefix}:*`)).filter((key) => !key.includes("{policy}"))
          .length,
    ),
  );
}

const list = (key: string) => GET(api("/api/v1/items", { key }));

async function statuses(requests: Promise<Response>[]): Promise<Record<number, number>> {
  const counts: Record<number, number> = {};
  for (const response of await Promise.all(requests)) {
    counts[response.status] = (counts[response.status] ?? 0) + 1;
  }
  return counts;
}

describe("with REDIS_CLUSTER_NODES: buckets in a Redis Cluster of three primaries", () => {
  let t: TestRuntime & { prefix: string };
  afterEach(() => t.cleanup());

  it("decides on whichever primary holds a customer's buckets, knowing one node only", async () => {
    t = await clusterRuntime(urls().slice(0, 1));
    t.addPlan("three", [{ operation: "read", count: 3, periodMs: HOUR }]);
    const customers = Array.from({ length: 12 }, (_, i) => t.addCustomer("three", `c${i}`));
    for (const { key } of customers) {
      expect(await statuses(Array.from({ length: 5 }, () => list(key)))).toEqual({
        200: 3,
        429: 2,
      });
    }
    const perNode = await keysPerNode(t.prefix);
    expect(perNode.reduce((a, b) => a + b, 0)).toBe(customers.length);
    expect(perNode.filter((count) => count > 0).length).toBeGreaterThanOrEqual(2);
    expect(t.runtime.limiter.size).toBe(0);
    expect(await (await health()).json()).toEqual({ status: "ok", store: "redis", redis: "up" });
  });

  it("resets a customer's buckets on the primary that holds them", async () => {
    t = await clusterRuntime(urls());
    t.addPlan("two", [
      { operation: "read", count: 2, periodMs: HOUR },
      { operation: "write", count: 2, periodMs: HOUR },
    ]);
    const { id, key } = t.addCustomer("two");
    const other = t.addCustomer("two", "other");
    expect(await statuses(Array.from({ length: 3 }, () => list(key)))).toEqual({ 200: 2, 429: 1 });
    expect((await list(other.key)).status).toBe(200);
    const cookie = await signIn();
    const cleared = await reset(
      adminRequest(`/api/admin/customers/${id}/reset`, { cookie, method: "POST" }),
      idParams(id),
    );
    expect(await cleared.json()).toEqual({ deleted: 1 });
    expect(await statuses(Array.from({ length: 3 }, () => list(key)))).toEqual({ 200: 2, 429: 1 });
    // The other customer's bucket was left alone.
    expect(await statuses(Array.from({ length: 2 }, () => list(other.key)))).toEqual({
      200: 1,
      429: 1,
    });
  });

  it("shares buckets, policy edits and resets with another instance over the cluster", async () => {
    t = await clusterRuntime(urls());
    t.addPlan("shared", [{ operation: "read", count: 4, periodMs: HOUR }]);
    const { id, key } = t.addCustomer("shared");
    const other: Runtime = createRuntime({
      databasePath: t.databasePath,
      clock: t.clock,
      adminPassword: "test-password",
      log: { info() {}, warn() {}, error() {} },
      redis: { clusterNodes: urls().slice(1), prefix: t.prefix, timeoutMs: 2_000 },
    });
    try {
      await other.ready();
      const readOther = () => {
        const customer = other.policy.snapshot.byId.get(id);
        if (!customer) throw new Error("the other instance does not know the customer");
        return decide(other, customer, "read", 1);
      };
      for (let i = 0; i < 2; i++) expect((await list(key)).status).toBe(200);
      for (let i = 0; i < 2; i++) expect((await readOther()).allowed).toBe(true);
      expect((await readOther()).decision.source).toBe("redis");
      expect((await readOther()).decision.source).toBe("redis-cache");
      expect((await list(key)).status).toBe(429);

      // A reset here reaches the other instance's memory of the refusal through pub/sub.
      const cookie = await signIn();
      const cleared = await reset(
        adminRequest(`/api/admin/customers/${id}/reset`, { cookie, method: "POST" }),
        idParams(id),
      );
      expect(cleared.status).toBe(200);
      await vi.waitFor(
        async () => {
          const verdict = await readOther();
          expect(verdict.decision.source).toBe("redis");
          expect(verdict.allowed).toBe(true);
        },
        { timeout: 1_000, interval: 5 },
      );

      // So does a plan edit.
      const edited = updatePlan(t.runtime, "admin", t.planId("shared"), {
        limits: [{ operation: "read", count: 7, periodMs: HOUR }],
      });
      expect(edited.ok).toBe(true);
      await vi.waitFor(
        () => {
          const seen = other.policy.snapshot.byId.get(id);
          expect(seen?.planLimits.get("read")?.map((l) => l.count)).toEqual([7]);
        },
        { timeout: 1_000, interval: 5 },
      );
      let admitted = 0;
      for (let i = 0; i < 5; i++) if ((await list(key)).status === 200) admitted++;
      for (let i = 0; i < 5; i++) if ((await readOther()).allowed) admitted++;
      expect(admitted).toBe(7);
    } finally {
      other.close();
    }
  });

  it("keeps an edge's policy on the cluster: it loads it, decides, and follows an edit", async () => {
    t = await clusterRuntime(urls().slice(0, 1));
    t.addPlan("edge", [{ operation: "read", count: 2, periodMs: HOUR }]);
    const { id, key } = t.addCustomer("edge");
    const edge = createEdgeRuntime({
      redis: { clusterNodes: urls().slice(2), prefix: t.prefix, timeoutMs: 2_000 },
      clock: t.clock,
      log: { info() {}, warn() {}, error() {} },
      checkMs: 0,
      usage: { timers: false },
    });
    try {
      await edge.ready();
      await vi.waitFor(() => expect(edge.policy.snapshot.byId.has(id)).toBe(true));
      const readOnEdge = () => {
        const customer = edge.policy.snapshot.byId.get(id);
        if (!customer) throw new Error("the edge does not know the customer");
        return decide(edge, customer, "read", 1);
      };
      expect((await readOnEdge()).allowed).toBe(true);
      expect((await list(key)).status).toBe(200);
      // The bucket is the cluster's: the third read anywhere is refused.
      expect((await readOnEdge()).reason).toBe("rate_limited");
      const edited = updatePlan(t.runtime, "admin", t.planId("edge"), {
        limits: [{ operation: "read", count: 9, periodMs: HOUR }],
      });
      expect(edited.ok).toBe(true);
      await vi.waitFor(
        () => {
          const seen = edge.policy.snapshot.byId.get(id);
          expect(seen?.planLimits.get("read")?.map((l) => l.count)).toEqual([9]);
        },
        { timeout: 1_000, interval: 5 },
      );
    } finally {
      edge.close();
    }
  });
});
