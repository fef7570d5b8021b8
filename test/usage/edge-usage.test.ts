import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { decide } from "@/lib/policy/decide";
import type { CustomerPolicy } from "@/lib/policy/snapshot";
import type { DataPlaneRuntime } from "@/lib/runtime";
import { createEdgeRuntime, type EdgeRuntime } from "@/lib/runtime/edge";
import { DAY_MS, HOUR_MS, MINUTE_MS } from "@/lib/usage/time";
import { type RedisServer, startRedisServer } from "../support/redis-server";
import { createTestRuntime, START_MS, type TestRuntime } from "../support/runtime";
import { report, totalsOf } from "./usage-support";

let server: RedisServer;

beforeAll(async () => {
  server = await startRedisServer();
});
afterAll(async () => {
  await server.close();
});

const silent = { info() {}, warn() {}, error() {} };

/** send makes `n` decisions of one operation for a customer on a runtime, `cost` tokens each. */
async function send(rt: DataPlaneRuntime, id: number, operation: "read" | "write", n: number) {
  const customer = rt.policy.snapshot.byId.get(id) as CustomerPolicy;
  for (let i = 0; i < n; i++) await decide(rt, customer, operation, 1);
}

describe("an edge's usage", () => {
  let t: TestRuntime;
  let edge: EdgeRuntime;
  afterEach(() => {
    edge.close();
    t.cleanup();
  });

  it("reaches the control plane's rollups through Redis, counted once with its own", async () => {
    const redis = { url: server.url, prefix: "edge-usage", timeoutMs: 500 };
    t = createTestRuntime({ redis });
    edge = createEdgeRuntime({
      redis,
      clock: t.clock,
      log: silent,
      checkMs: 0,
      usage: { timers: false },
    });
    await Promise.all([t.runtime.ready(), edge.ready()]);
    t.addPlan("tight", [
      { operation: "read", count: 3, periodMs: HOUR_MS },
      { operation: "write", count: 100, periodMs: HOUR_MS },
    ]);
    const who = t.addCustomer("tight", "Edge Ltd");
    await vi.waitFor(() => expect(edge.policy.snapshot.byId.has(who.id)).toBe(true));
    t.clock.advance(10 * MINUTE_MS);

    await send(edge, who.id, "read", 4); // 3 allowed on the edge, then the shared bucket refuses;
    await send(t.runtime, who.id, "read", 1); // refused on the control plane too;
    await send(edge, who.id, "write", 2);
    // The edge has no database: a flush pushes to Redis, and it claims nothing itself.
    expect(await edge.usage.flush()).toBeGreaterThan(0);
    await t.runtime.usage.flush();
    t.clock.advance(MINUTE_MS + 10_000 + 1);
    expect(edge).not.toHaveProperty("claims"); // an edge has nothing to claim with
    expect(await t.runtime.claims?.claim()).toBe(1);
    const day = totalsOf(report(t.runtime, START_MS, START_MS + DAY_MS));
    expect(day).toEqual({
      allowed: 5,
      denied: 2,
      unavailable: 0,
      tooLarge: 0,
      tokensRequested: 7,
      tokensTaken: 5,
    });
    const perCustomer = report(t.runtime, START_MS, START_MS + DAY_MS, "hour", {
      customerId: who.id,
    });
    expect(perCustomer.totals.byOperation).toMatchObject({
      read: { allowed: 3, denied: 2 },
      write: { allowed: 2, denied: 0 },
    });
  });

  it("hands its last counts to Redis when it stops", async () => {
    const redis = { url: server.url, prefix: "edge-usage-stop", timeoutMs: 500 };
    t = createTestRuntime({ redis });
    edge = createEdgeRuntime({
      redis,
      clock: t.clock,
      log: silent,
      checkMs: 0,
      usage: { timers: false },
    });
    await Promise.all([t.runtime.ready(), edge.ready()]);
    const demo = t.demoId;
    await vi.waitFor(() => expect(edge.policy.snapshot.byId.has(demo)).toBe(true));
    await send(edge, demo, "read", 2);
    // shutdown flushes, then closes: the counts are Redis's to claim.
    await edge.shutdown();
    t.clock.advance(MINUTE_MS + 10_000 + 1);
    expect(await t.runtime.claims?.claim()).toBe(1);
    expect(totalsOf(report(t.runtime, START_MS, START_MS + DAY_MS)).allowed).toBe(2);
  });
});
