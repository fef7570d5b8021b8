import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { setRouteRules } from "@/lib/admin/route-rules";
import type { RouteRuleInput } from "@/lib/schemas/route-rule.schema";
import { routeRulesSchema } from "@/lib/schemas/route-rule.schema";
import type { Operation } from "@/lib/vocabulary";
import { type DataPlaneServer, startDataPlane } from "../../support/data-plane";
import { createTestRuntime, type TestCustomer, type TestRuntime } from "../../support/runtime";
import { startUpstream, type Upstream } from "../../support/upstream";

const HOUR = 3_600_000;

describe("the gateway's route rules", () => {
  let t: TestRuntime;
  let upstream: Upstream | undefined;
  let server: DataPlaneServer | undefined;
  let customer: TestCustomer;

  beforeEach(() => {
    t = createTestRuntime();
    t.addPlan("gw", [
      { operation: "read", count: 5, periodMs: HOUR },
      { operation: "write", count: 20, periodMs: HOUR },
    ]);
    customer = t.addCustomer("gw", "Gateway customer");
  });
  afterEach(async () => {
    await server?.close();
    await upstream?.close();
    server = upstream = undefined;
    t.cleanup();
  });

  async function start(rules: RouteRuleInput[], maxBodyBytes = 10 * 1024 * 1024): Promise<string> {
    const saved = setRouteRules(t.runtime, "admin", routeRulesSchema.parse({ rules }));
    if (!saved.ok) throw new Error(`rules refused: ${JSON.stringify(saved)}`);
    upstream = await startUpstream();
    server = await startDataPlane(t.runtime, {
      gateway: { upstream: new URL(upstream.url), timeoutMs: 5_000, maxBodyBytes, trustProxy: 0 },
    });
    return `${server.url}/gw`;
  }

  const auth = (key = customer.key) => ({ authorization: `Bearer ${key}` });
  const send = (url: string, method = "GET", body?: string) =>
    fetch(url, { method, headers: auth(), body });

  function remaining(operation: Operation): number {
    const policy = t.runtime.policy.snapshot.byId.get(customer.id);
    if (!policy) throw new Error("no customer");
    return t.runtime.limiter.peekWithDetails({ customer: policy, operation, now: t.clock.now() })
      .tokensRemaining;
  }

  it("takes a rule's cost: POST /gw/v1/exports at 5 tokens drops RateLimit's remaining by 5", async () => {
    const gw = await start([{ method: "POST", pattern: "/v1/exports", cost: 5 }]);
    const first = await send(`${gw}/v1/exports?format=csv`, "POST", "{}");
    expect(first.status).toBe(200);
    expect(first.headers.get("ratelimit")).toBe('"write-20-per-1h";r=15;t=900');
    const second = await send(`${gw}/v1/exports`, "POST", "{}");
    expect(second.headers.get("ratelimit")).toMatch(/;r=10;/);
    // Another path of the same method is one token, as without rules.
    const other = await send(`${gw}/v1/items`, "POST", "{}");
    expect(other.headers.get("ratelimit")).toMatch(/;r=9;/);
    expect(remaining("write")).toBe(9);
    expect(upstream?.seen.map((s) => s.url)).toEqual([
      "/v1/exports?format=csv",
      "/v1/exports",
      "/v1/items",
    ]);
  });

  it("decides as a rule's class: its bucket is spent and its RateLimit fields answered", async () => {
    const gw = await start([{ method: "POST", pattern: "/v1/search", operation: "read" }]);
    const res = await send(`${gw}/v1/search`, "POST", "{}");
    expect(res.status).toBe(200);
    expect(res.headers.get("ratelimit-policy")).toBe('"read-5-per-1h";q=5;w=3600');
    expect(remaining("read")).toBe(4);
    expect(remaining("write")).toBe(20);
  });

  it("forwards GET /gw/health unmetered: no token, no decision counted, no RateLimit fields; the key still checked", async () => {
    const gw = await start([{ method: "GET", pattern: "/health", unmetered: true }]);
    for (let i = 0; i < 8; i++) {
      const res = await send(`${gw}/health`);
      expect(res.status).toBe(200);
      expect(res.headers.get("ratelimit")).toBeNull();
    }
    expect(upstream?.started()).toBe(8);
    expect(remaining("read")).toBe(5);
    expect(t.runtime.traffic.totals(t.clock.now(), 60).get(customer.id)).toBeUndefined();
    const unknown = await fetch(`${gw}/health`, { headers: auth("rk_live_unknown") });
    expect(unknown.status).toBe(401);
    expect((await fetch(`${gw}/health`)).status).toBe(401);
    expect(upstream?.started()).toBe(8);
    // Only GET is unmetered: HEAD is a read as ever.
    await fetch(`${gw}/health`, { method: "HEAD", headers: auth() });
    expect(remaining("read")).toBe(4);
  });

  it("applies the first rule that matches, in the list's order", async () => {
    const gw = await start([
      { method: "POST", pattern: "/v1/exports", cost: 5 },
      { method: "*", pattern: "/v1/**", cost: 2 },
      { method: "POST", pattern: "/v1/items", cost: 7 },
    ]);
    await send(`${gw}/v1/exports`, "POST", "{}");
    expect(remaining("write")).toBe(15);
    await send(`${gw}/v1/items`, "POST", "{}");
    expect(remaining("write")).toBe(13);
    await send(`${gw}/v1/exports`);
    expect(remaining("read")).toBe(3);
    await send(`${gw}/elsewhere`);
    expect(remaining("read")).toBe(2);
  });

  it("with no rules, every request is one token of its method's class, as before", async () => {
    const gw = await start([]);
    await send(`${gw}/v1/exports`, "POST", "{}");
    await send(`${gw}/health`);
    expect([remaining("write"), remaining("read")]).toEqual([19, 4]);
  });

  it("refuses a rule's cost above a limit with 413, before the upstream, taking nothing", async () => {
    const gw = await start([{ method: "POST", pattern: "/v1/bulk", cost: 50 }]);
    const res = await send(`${gw}/v1/bulk`, "POST", "{}");
    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject({
      status: 413,
      "violated-policies": ["write-20-per-1h"],
    });
    expect(upstream?.started()).toBe(0);
    expect(remaining("write")).toBe(20);
  });

  it("answers a body over the limit with the rule's class's fields, or none when unmetered", async () => {
    const gw = await start(
      [
        { method: "POST", pattern: "/search", operation: "read" },
        { method: "POST", pattern: "/ping", unmetered: true },
      ],
      100,
    );
    const search = await send(`${gw}/search`, "POST", "x".repeat(101));
    expect(search.status).toBe(413);
    expect(search.headers.get("ratelimit")).toBe('"read-5-per-1h";r=5;t=0');
    const ping = await send(`${gw}/ping`, "POST", "x".repeat(101));
    expect(ping.status).toBe(413);
    expect(ping.headers.get("ratelimit")).toBeNull();
    expect(upstream?.started()).toBe(0);
  });
});
