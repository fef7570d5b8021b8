import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { GET } from "@/app/api/v1/items/route";
import { setOverride } from "@/lib/admin/customers";
import { updatePlan } from "@/lib/admin/plans";
import {
  type DataPlaneServer,
  postJson,
  serviceToken,
  startDataPlane,
} from "../../support/data-plane";
import { api, createTestRuntime, type TestRuntime } from "../../support/runtime";
import { report, totalsOf } from "../../usage/usage-support";

const HOUR = 3_600_000;
const QUOTA_EXCEEDED = "https://iana.org/assignments/http-problem-types#quota-exceeded";
// The seeded free plan reads 5 per second and 100 per minute.
const FREE_READ_POLICY = '"read-5-per-1s";q=5;w=1, "read-100-per-1m";q=100;w=60';

describe("the decision API", () => {
  let t: TestRuntime;
  let server: DataPlaneServer;
  let token: string;
  const decide = (body: unknown) => postJson(`${server.url}/api/v1/decisions`, body, token);
  const batch = (decisions: unknown[]) =>
    postJson(`${server.url}/api/v1/decisions/batch`, { decisions }, token);

  beforeEach(async () => {
    t = createTestRuntime();
    server = await startDataPlane(t.runtime);
    token = serviceToken(t.runtime).token;
  });
  afterEach(async () => {
    await server.close();
    t.cleanup();
  });

  it("admits a customer by key and answers the binding limit and the fields to send", async () => {
    const res = await decide({ key: t.demoKey, operation: "read" });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/json");
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("content-security-policy")).toBe(
      "default-src 'none'; frame-ancestors 'none'",
    );
    expect(await res.json()).toEqual({
      allowed: true,
      reason: "ok",
      status: 200,
      customer: {
        id: t.demoId,
        name: "Demo customer",
        plan: { id: t.planId("free"), slug: "free", name: "Free" },
      },
      operation: "read",
      cost: 1,
      remaining: 4,
      limit: { policy: "read-5-per-1s", count: 5, periodMs: 1_000 },
      resetAfterMs: 200,
      retryAfterMs: 0,
      headers: { "RateLimit-Policy": FREE_READ_POLICY, RateLimit: '"read-5-per-1s";r=4;t=1' },
      problem: null,
    });
  });

  it("decides by customerId the same way, and takes `cost` tokens at once", async () => {
    const res = await decide({ customerId: t.demoId, operation: "read", cost: 3 });
    expect(await res.json()).toMatchObject({
      allowed: true,
      reason: "ok",
      cost: 3,
      remaining: 2,
      headers: { RateLimit: '"read-5-per-1s";r=2;t=1' },
    });
  });

  it("refuses past the limit with the protected routes' 429: fields, Retry-After, quota-exceeded", async () => {
    for (let r = 4; r >= 0; r--) {
      expect(await (await decide({ key: t.demoKey, operation: "read" })).json()).toMatchObject({
        allowed: true,
        remaining: r,
      });
    }
    const refused = await (await decide({ key: t.demoKey, operation: "read" })).json();
    expect(refused).toEqual({
      allowed: false,
      reason: "rate_limited",
      status: 429,
      customer: expect.objectContaining({ id: t.demoId }),
      operation: "read",
      cost: 1,
      remaining: 0,
      limit: { policy: "read-5-per-1s", count: 5, periodMs: 1_000 },
      resetAfterMs: 1_000,
      retryAfterMs: 200,
      headers: {
        "RateLimit-Policy": FREE_READ_POLICY,
        RateLimit: '"read-5-per-1s";r=0;t=1',
        "Retry-After": "1",
      },
      problem: {
        type: QUOTA_EXCEEDED,
        title: "Too many requests",
        status: 429,
        detail: "Rate limit of the free plan reached for reads.",
        "violated-policies": ["read-5-per-1s"],
        retryAfterSeconds: 1,
      },
    });
    // The protected route, on the same bucket, answers exactly these fields and this body.
    const route = await GET(api("/api/v1/items", { key: t.demoKey }));
    expect(route.status).toBe(429);
    expect(await route.json()).toEqual(refused.problem);
    expect(route.headers.get("RateLimit")).toBe(refused.headers.RateLimit);
    expect(route.headers.get("RateLimit-Policy")).toBe(refused.headers["RateLimit-Policy"]);
  });

  it("names every policy that refused in violated-policies", async () => {
    t.addPlan("tight", [
      { operation: "write", count: 2, periodMs: 1_000 },
      { operation: "write", count: 3, periodMs: HOUR },
    ]);
    const { key } = t.addCustomer("tight");
    expect((await (await decide({ key, operation: "write", cost: 2 })).json()).allowed).toBe(true);
    const both = await (await decide({ key, operation: "write" })).json();
    expect(both.reason).toBe("rate_limited");
    // 0 of 2 left per second; 1 of 3 left per hour: only the second refuses one token.
    expect(both.problem["violated-policies"]).toEqual(["write-2-per-1s"]);
    const two = await (await decide({ key, operation: "write", cost: 2 })).json();
    expect(two.problem["violated-policies"]).toEqual(["write-2-per-1s", "write-3-per-1h"]);
    expect(two.limit.policy).toBe("write-3-per-1h");
  });

  it("peeks without taking: the bucket is where it was", async () => {
    expect((await decide({ key: t.demoKey, operation: "read", cost: 2 })).status).toBe(200);
    for (let i = 0; i < 3; i++) {
      expect(
        await (await decide({ key: t.demoKey, operation: "read", cost: 3, peek: true })).json(),
      ).toMatchObject({ allowed: true, reason: "ok", remaining: 3 });
    }
    expect(await (await decide({ key: t.demoKey, operation: "read" })).json()).toMatchObject({
      remaining: 2,
    });
    // Peeks are not traffic: only the two real decisions were recorded.
    expect(t.runtime.traffic.totals(t.clock.now(), 60).get(t.demoId)).toEqual({
      allowed: 2,
      denied: 0,
    });
  });

  it("answers a cost no limit allows with cost_exceeds_limit: 413 and no retry", async () => {
    const body = await (await decide({ key: t.demoKey, operation: "read", cost: 6 })).json();
    expect(body).toMatchObject({
      allowed: false,
      reason: "cost_exceeds_limit",
      status: 413,
      retryAfterMs: null,
      problem: {
        status: 413,
        title: "Request exceeds the plan's limit",
        // Only the limit whose full bucket holds less than the cost: 100 a minute would do.
        "violated-policies": ["read-5-per-1s"],
      },
    });
    expect(body.headers["Retry-After"]).toBeUndefined();
    // Nothing was taken.
    expect(await (await decide({ key: t.demoKey, operation: "read" })).json()).toMatchObject({
      remaining: 4,
    });
  });

  // Regression: an unknown customerId was answered "Unknown API key", though no key was sent.
  it("answers an unknown key or id with 200 and unknown_key: what to send is the 401, in its words", async () => {
    const unknownKey = { type: "about:blank", title: "Unknown API key", status: 401 };
    const unknownCustomer = {
      type: "about:blank",
      title: "Unknown customer",
      status: 401,
      detail: "No customer has this customerId.",
    };
    for (const [body, problem] of [
      [{ key: "rk_nobody", operation: "read" }, unknownKey],
      [{ customerId: 99_999, operation: "write" }, unknownCustomer],
    ] as const) {
      const res = await decide(body);
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({
        allowed: false,
        reason: "unknown_key",
        status: 401,
        customer: null,
        operation: body.operation,
        cost: 1,
        remaining: null,
        limit: null,
        resetAfterMs: null,
        retryAfterMs: null,
        headers: { "WWW-Authenticate": 'Bearer realm="ratekeeper"' },
        problem,
      });
    }
  });

  it("answers a suspended customer with suspended (403) and takes nothing", async () => {
    const { id, key } = t.addCustomer("free", "Sleepy");
    t.suspend(id);
    const body = await (await decide({ key, operation: "read" })).json();
    expect(body).toMatchObject({
      allowed: false,
      reason: "suspended",
      status: 403,
      customer: { id, name: "Sleepy", plan: { slug: "free" } },
      problem: { status: 403, title: "Customer suspended" },
    });
    const customer = t.runtime.policy.snapshot.byId.get(id);
    if (!customer) throw new Error("no customer");
    const peek = t.runtime.limiter.peekWithDetails({
      customer,
      operation: "read",
      now: t.clock.now(),
    });
    expect(peek.tokensRemaining).toBe(5);
  });

  it("admits exactly K of N concurrent decisions", async () => {
    t.addPlan("k", [{ operation: "write", count: 17, periodMs: HOUR }]);
    const { id, key } = t.addCustomer("k");
    const answers = await Promise.all(
      Array.from({ length: 60 }, () => decide({ key, operation: "write" }).then((r) => r.json())),
    );
    expect(answers.filter((a) => a.allowed)).toHaveLength(17);
    expect(answers.filter((a) => a.reason === "rate_limited")).toHaveLength(43);
    expect(t.runtime.traffic.totals(t.clock.now(), 60).get(id)).toEqual({
      allowed: 17,
      denied: 43,
    });
    // The usage rollups count the decision API's decisions as they do the routes'.
    await t.runtime.usage.flush();
    const hour = Math.floor(t.clock.now() / HOUR) * HOUR;
    expect(
      totalsOf(report(t.runtime, hour, hour + HOUR, "hour", { customerId: id })),
    ).toMatchObject({
      allowed: 17,
      denied: 43,
      unavailable: 0,
      tokensRequested: 60,
      tokensTaken: 17,
    });
  });

  it("draws from the same buckets as the built-in routes, both ways", async () => {
    expect((await GET(api("/api/v1/items", { key: t.demoKey }))).status).toBe(200);
    expect((await GET(api("/api/v1/items", { key: t.demoKey }))).status).toBe(200);
    expect(
      await (await decide({ key: t.demoKey, operation: "read", cost: 3 })).json(),
    ).toMatchObject({
      allowed: true,
      remaining: 0,
    });
    const route = await GET(api("/api/v1/items", { key: t.demoKey }));
    expect(route.status).toBe(429);
    t.clock.advance(200);
    expect(await (await decide({ key: t.demoKey, operation: "read" })).json()).toMatchObject({
      allowed: true,
      remaining: 0,
    });
    // One traffic log and one set of counters for both.
    expect(t.runtime.traffic.totals(t.clock.now(), 60).get(t.demoId)).toEqual({
      allowed: 4,
      denied: 1,
    });
    const metrics = await t.runtime.metrics.registry.getSingleMetricAsString(
      "ratekeeper_decisions_total",
    );
    expect(metrics).toContain(
      'ratekeeper_decisions_total{plan="free",operation="read",outcome="allowed"} 4',
    );
  });

  it("follows plan edits and overrides on the next decision", async () => {
    const planId = t.addPlan("small", [{ operation: "read", count: 2, periodMs: HOUR }]);
    const { id, key } = t.addCustomer("small");
    expect(await (await decide({ key, operation: "read" })).json()).toMatchObject({ remaining: 1 });
    const edited = updatePlan(t.runtime, "admin", planId, {
      limits: [{ operation: "read", count: 4, periodMs: HOUR }],
    });
    expect(edited.ok).toBe(true);
    // A changed limit is a new bucket: full.
    expect(await (await decide({ key, operation: "read" })).json()).toMatchObject({
      remaining: 3,
      limit: { policy: "read-4-per-1h" },
    });
    const overridden = setOverride(t.runtime, "admin", id, "read", {
      limits: [{ count: 10, periodMs: HOUR }],
      expiresAt: null,
    });
    expect(overridden.ok).toBe(true);
    expect(await (await decide({ key, operation: "read" })).json()).toMatchObject({
      remaining: 9,
      limit: { policy: "read-10-per-1h" },
    });
  });

  // What docs/admin-api.md says ("No limits means unlimited"): an operation without an enforced
  // limit is never refused, and its answer names no limit and sends no RateLimit fields.
  it("never refuses an operation that has no enforced limit", async () => {
    t.addPlan("writes-only", [
      { operation: "write", count: 1, periodMs: HOUR },
      { operation: "read", count: 1, periodMs: HOUR, dryRun: true },
    ]);
    const { key } = t.addCustomer("writes-only");
    t.addPlan("open", []);
    const open = t.addCustomer("open");
    for (const [who, operation] of [
      [key, "read"],
      [open.key, "read"],
      [open.key, "write"],
    ] as const) {
      for (let i = 0; i < 3; i++) {
        const answer = await (await decide({ key: who, operation, cost: 1_000 })).json();
        expect(answer, `${operation} ${i}`).toMatchObject({
          allowed: true,
          reason: "ok",
          status: 200,
          remaining: null,
          limit: null,
          retryAfterMs: 0,
          problem: null,
        });
        expect(answer.headers, "no RateLimit fields").toEqual({});
      }
    }
    expect(await (await decide({ key, operation: "write" })).json()).toMatchObject({
      remaining: 0,
    });
  });

  describe("batch", () => {
    it("decides each item on its own, in order, and answers them in order", async () => {
      const res = await batch([
        ...Array.from({ length: 6 }, () => ({ key: t.demoKey, operation: "read" })),
        { key: "rk_unknown", operation: "read" },
        { customerId: t.demoId, operation: "write" },
        { key: t.demoKey, operation: "read", peek: true },
      ]);
      expect(res.status).toBe(200);
      const { results } = await res.json();
      expect(results.map((r: { reason: string }) => r.reason)).toEqual([
        "ok",
        "ok",
        "ok",
        "ok",
        "ok",
        "rate_limited",
        "unknown_key",
        "ok",
        "rate_limited",
      ]);
      expect(results.slice(0, 5).map((r: { remaining: number }) => r.remaining)).toEqual([
        4, 3, 2, 1, 0,
      ]);
      expect(results[5].problem.type).toBe(QUOTA_EXCEEDED);
      expect(results[7]).toMatchObject({ operation: "write", remaining: 0 });
    });

    it("takes up to 1,000 decisions in one call", async () => {
      t.addPlan("big", [{ operation: "read", count: 600, periodMs: HOUR }]);
      const { key } = t.addCustomer("big");
      const res = await batch(Array.from({ length: 1_000 }, () => ({ key, operation: "read" })));
      expect(res.status).toBe(200);
      const { results } = await res.json();
      expect(results).toHaveLength(1_000);
      expect(results.filter((r: { allowed: boolean }) => r.allowed)).toHaveLength(600);
      expect(results[599].remaining).toBe(0);
      expect(results[600].reason).toBe("rate_limited");
    });
  });
});
