import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { GET as traffic } from "@/app/api/admin/traffic/route";
import { GET as nearLimit } from "@/app/api/admin/usage/near-limit/route";
import { GET as plans } from "@/app/api/admin/usage/plans/route";
import { GET as usage } from "@/app/api/admin/usage/route";
import { GET as top } from "@/app/api/admin/usage/top/route";
import { GET as csv } from "@/app/api/admin/usage.csv/route";
import { usageSeries } from "@/lib/admin/usage";
import { decide } from "@/lib/policy/decide";
import type { CustomerPolicy } from "@/lib/policy/snapshot";
import { DAY_MS, HOUR_MS, MINUTE_MS } from "@/lib/usage/time";
import { createTestRuntime, START_MS, type TestRuntime } from "../../support/runtime";
import { adminRequest, signIn } from "./admin-support";

const routes = {
  "/api/admin/usage": usage,
  "/api/admin/usage/top": top,
  "/api/admin/usage/plans": plans,
  "/api/admin/usage/near-limit": nearLimit,
  "/api/admin/usage.csv": csv,
  "/api/admin/traffic": traffic,
} as const;
type Path = keyof typeof routes;

describe("the usage API", () => {
  let t: TestRuntime;
  let cookie: string;
  const get = (path: Path, query = "", withCookie = true) =>
    routes[path](adminRequest(`${path}${query}`, { cookie: withCookie ? cookie : undefined }));
  const body = async (path: Path, query = "") => {
    const res = await get(path, query);
    expect(res.status).toBe(200);
    return res.json();
  };
  const send = async (id: number, operation: "read" | "write", n: number, cost = 1) => {
    const customer = t.runtime.policy.snapshot.byId.get(id) as CustomerPolicy;
    for (let i = 0; i < n; i++) await decide(t.runtime, customer, operation, cost);
  };

  let busy: number;
  let quiet: number;
  beforeEach(async () => {
    t = createTestRuntime();
    cookie = await signIn();
    t.addPlan("metered", [
      { operation: "read", count: 10, periodMs: HOUR_MS },
      { operation: "write", count: 100, periodMs: MINUTE_MS },
    ]);
    busy = t.addCustomer("metered", "Busy Co").id;
    quiet = t.addCustomer("pro", "Quiet Co").id;
    t.clock.advance(30 * MINUTE_MS);
    await send(busy, "read", 12); // 10 allowed, 2 denied
    await send(busy, "write", 9, 10); // 90 tokens of a 100-a-minute limit
    await send(quiet, "read", 1);
    await t.runtime.usage.flush();
    t.clock.advance(5 * MINUTE_MS);
  });
  afterEach(() => t.cleanup());

  it("refuses every route without a session", async () => {
    for (const path of Object.keys(routes) as Path[]) {
      expect((await get(path, "", false)).status).toBe(401);
    }
  });

  it.each([
    ["/api/admin/usage", "?from=yesterday", "from"],
    ["/api/admin/usage", `?from=${START_MS + HOUR_MS}&to=${START_MS}`, "to"],
    ["/api/admin/usage", `?from=${START_MS}&to=${START_MS}`, "to"],
    ["/api/admin/usage", "?granularity=week", "granularity"],
    ["/api/admin/usage", "?customerId=abc", "customerId"],
    ["/api/admin/usage", "?customerId=0", "customerId"],
    // Any class name filters (history outlives a class); one no class can have is refused.
    ["/api/admin/usage", "?operation=DELETE", "operation"],
    ["/api/admin/usage", "?colour=blue", "colour"],
    ["/api/admin/usage", "?planId=1&planId=2", "planId"],
    ["/api/admin/usage", `?from=${START_MS - 500 * DAY_MS}`, "from"],
    ["/api/admin/usage", `?from=${START_MS - 3 * DAY_MS}&granularity=minute`, "granularity"],
    ["/api/admin/usage/top", "?limit=0", "limit"],
    ["/api/admin/usage/top", "?limit=1e3", "limit"],
    ["/api/admin/usage/near-limit", "?minShare=-1", "minShare"],
    ["/api/admin/usage/near-limit", "?minShare=20", "minShare"],
    ["/api/admin/usage/near-limit", `?from=${START_MS - 100 * DAY_MS}`, "from"],
    ["/api/admin/usage/plans", "?to=2025-13-45", "to"],
    ["/api/admin/usage.csv", `?from=${START_MS - 100 * DAY_MS}`, "from"],
    ["/api/admin/traffic", "?seconds=0", "seconds"],
    ["/api/admin/traffic", "?seconds=soon", "seconds"],
  ] as const)("%s%s is a 400 naming %s", async (path, query, field) => {
    const res = await get(path, query);
    expect(res.status).toBe(400);
    expect(res.headers.get("content-type")).toBe("application/problem+json");
    const problem = await res.json();
    expect(problem).toMatchObject({ status: 400, title: "Invalid request" });
    expect(Object.keys(problem.errors)).toEqual([field]);
  });

  it("refuses a minute series too long for its points, and coarsens a series given no step", async () => {
    const week = `?from=${START_MS}&to=${START_MS + 3 * DAY_MS}`;
    const refused = await (await get("/api/admin/usage", `${week}&granularity=minute`)).json();
    expect(refused.errors.granularity[0]).toMatch(/4320 minutes.*at most 1500 points/);
    const auto = await body("/api/admin/usage", week);
    expect(auto).toMatchObject({ granularity: "hour", stepMs: HOUR_MS });
    expect(auto.series[0].points).toHaveLength(72);
  });

  // Regression: with USAGE_MINUTE_RETENTION_DAYS=1 the refusal said "kept 1 days".
  it("says how long minute rows are kept in words that count them", () => {
    const settings = { ...t.runtime.usageSettings, minuteRetentionDays: 1 };
    const ctx = { ...t.runtime, usageSettings: settings };
    const now = t.clock.now();
    const refused = usageSeries(ctx, { from: now - 2 * DAY_MS, to: now, granularity: "minute" });
    expect(refused).toMatchObject({
      ok: false,
      errors: { granularity: ["Minute rows are kept 1 day: choose hour or day, or a later from"] },
    });
  });

  it("serves series per operation and totals, filtered by customer, plan and operation", async () => {
    const all = await body("/api/admin/usage", `?from=${START_MS}&to=${START_MS + HOUR_MS}`);
    expect(all).toMatchObject({ granularity: "minute", stepMs: MINUTE_MS, fromMs: START_MS });
    expect(all.series.map((s: { operation: string }) => s.operation)).toEqual(["read", "write"]);
    expect(all.series[0].points).toHaveLength(60);
    expect(all.totals).toMatchObject({
      allowed: 20,
      denied: 2,
      tokensRequested: 103,
      tokensTaken: 101,
    });
    const read = all.series[0].points.find((p: { allowed: number }) => p.allowed > 0);
    expect(read).toEqual({
      t: START_MS + 30 * MINUTE_MS,
      allowed: 11,
      denied: 2,
      unavailable: 0,
      tooLarge: 0,
      tokensRequested: 13,
      tokensTaken: 11,
    });
    const mine = await body(
      "/api/admin/usage",
      `?from=2025-01-01T00:00:00Z&to=2025-01-02&granularity=hour&customerId=${busy}&operation=write`,
    );
    expect(mine.series).toHaveLength(1);
    expect(mine.totals).toMatchObject({ allowed: 9, tokensTaken: 90 });
    const plan = await body("/api/admin/usage", `?from=${START_MS}&planId=${t.planId("pro")}`);
    expect(plan.totals).toMatchObject({ allowed: 1, denied: 0 });
  });

  it("ranks customers by denials and by usage, and aggregates per plan", async () => {
    const ranked = await body("/api/admin/usage/top", `?from=${START_MS}`);
    expect(ranked.byDenials.map((c: { name: string }) => c.name)).toEqual(["Busy Co"]);
    expect(ranked.byDenials[0]).toMatchObject({
      denied: 2,
      planSlug: "metered",
      deniedShare: 2 / 21,
    });
    expect(ranked.byUsage.map((c: { name: string }) => c.name)).toEqual(["Busy Co", "Quiet Co"]);
    const perPlan = await body("/api/admin/usage/plans", `?from=${START_MS}`);
    const metered = perPlan.plans.find((p: { slug: string }) => p.slug === "metered");
    expect(metered).toMatchObject({
      customers: 1,
      activeCustomers: 1,
      refusedCustomers: 1,
      allowed: 19,
      denied: 2,
      tokensTaken: 100,
    });
    expect(perPlan.plans.find((p: { slug: string }) => p.slug === "enterprise")).toMatchObject({
      customers: 0,
      activeCustomers: 0,
      allowed: 0,
    });
  });

  it("finds the customers near their limit: how deep each limit's bucket was drained", async () => {
    const near = await body("/api/admin/usage/near-limit", `?from=${START_MS}`);
    expect(near).toMatchObject({ minShare: 0.8, resolutionMs: MINUTE_MS });
    expect(
      near.customers.map((c: { name: string; operation: string; share: number; limit: object }) => [
        c.name,
        c.operation,
        c.limit,
        c.share,
      ]),
    ).toEqual([
      // 10 reads taken of 10 an hour: the bucket drained.
      ["Busy Co", "read", { count: 10, periodMs: HOUR_MS }, 1],
      // 90 write tokens in one minute of 100 a minute: 10 left.
      ["Busy Co", "write", { count: 100, periodMs: MINUTE_MS }, 0.9],
    ]);
    expect(near.customers[1]).toMatchObject({
      resolutionMs: MINUTE_MS,
      lowestTokens: 10,
      lowestAtMs: START_MS + 30 * MINUTE_MS,
      planSlug: "metered",
      source: "plan",
    });
    expect(near.customers[0]).toMatchObject({ lowestTokens: 0, refused: 2 });
    const strict = await body("/api/admin/usage/near-limit", `?from=${START_MS}&minShare=0.95`);
    expect(strict.customers).toHaveLength(1);
  });

  it("downloads a CSV, one row per day, customer, plan and operation, safe for spreadsheets", async () => {
    const evil = t.addCustomer("pro", '=HYPERLINK("http://x","y"), "quoted"');
    const minus = t.addCustomer("pro", "-5 apples");
    await send(evil.id, "read", 2);
    await send(minus.id, "write", 1);
    await t.runtime.usage.flush();
    const res = await get("/api/admin/usage.csv", `?from=${START_MS}&to=${START_MS + DAY_MS}`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(res.headers.get("content-disposition")).toBe(
      'attachment; filename="ratekeeper-usage-2025-01-01-to-2025-01-01.csv"',
    );
    expect((await res.text()).split("\r\n")).toEqual([
      "date,customer_id,customer,plan,operation,allowed,denied,unavailable,tokens_requested,tokens_taken,too_large",
      `2025-01-01,${minus.id},'-5 apples,pro,write,1,0,0,1,1,0`,
      `2025-01-01,${evil.id},"'=HYPERLINK(""http://x"",""y""), ""quoted""",pro,read,2,0,0,2,2,0`,
      `2025-01-01,${busy},Busy Co,metered,read,10,2,0,12,10,0`,
      `2025-01-01,${busy},Busy Co,metered,write,9,0,0,90,90,0`,
      `2025-01-01,${quiet},Quiet Co,pro,read,1,0,0,1,1,0`,
      "",
    ]);
  });

  // Regression: three requests of cost 1,000,000 against 100 writes a minute (413: no bucket can
  // hold them) made 3,000,000 tokens requested and put the customer near its limit at 100%,
  // "refused 3 times by its limits". They are the caller's mistake, counted apart.
  it("counts requests refused for their cost apart: not denied, no tokens requested, nobody near a limit for them", async () => {
    const bulk = t.addCustomer("metered", "Bulk Co").id;
    await send(bulk, "write", 3, 1_000_000);
    await send(bulk, "write", 2, 10);
    await t.runtime.usage.flush();
    const mine = await body("/api/admin/usage", `?from=${START_MS}&customerId=${bulk}`);
    expect(mine.totals).toMatchObject({
      allowed: 2,
      denied: 0,
      tooLarge: 3,
      tokensRequested: 20,
      tokensTaken: 20,
    });
    const near = await body("/api/admin/usage/near-limit", `?from=${START_MS}`);
    expect(near.customers.map((c: { name: string }) => c.name)).not.toContain("Bulk Co");
    const ranked = await body("/api/admin/usage/top", `?from=${START_MS}`);
    expect(ranked.byDenials.map((c: { name: string }) => c.name)).toEqual(["Busy Co"]);
    const csvText = await (await get("/api/admin/usage.csv", `?from=${START_MS}`)).text();
    expect(csvText.split("\r\n")).toContain(
      `2025-01-01,${bulk},Bulk Co,metered,write,2,0,0,20,20,3`,
    );
  });

  it("serves the live traffic with its scope, validated", async () => {
    const quietMinute = await body("/api/admin/traffic", "?seconds=60");
    expect(quietMinute.scope).toBe("instance");
    expect(quietMinute.points).toHaveLength(60);
    expect(quietMinute.totals).toEqual([]);
    t.clock.set(START_MS + 34 * MINUTE_MS);
    const live = await body("/api/admin/traffic", `?seconds=300&customerId=${busy}&operation=read`);
    expect(live.totals).toEqual([{ customerId: busy, name: "Busy Co", allowed: 19, denied: 2 }]);
    const reads = live.points.reduce((sum: number, p: { allowed: number }) => sum + p.allowed, 0);
    expect(reads).toBe(10);
  });
});

describe("customers near a limit shorter than the rollups' minute", () => {
  let t: TestRuntime;
  let cookie: string;
  let burst: number;
  let steady: number;
  const near = async (query: string) => {
    const res = await nearLimit(adminRequest(`/api/admin/usage/near-limit${query}`, { cookie }));
    expect(res.status).toBe(200);
    return res.json();
  };
  const send = async (id: number, n: number) => {
    const customer = t.runtime.policy.snapshot.byId.get(id) as CustomerPolicy;
    for (let i = 0; i < n; i++) await decide(t.runtime, customer, "read", 1);
  };

  beforeEach(async () => {
    t = createTestRuntime();
    cookie = await signIn();
    t.addPlan("burst", [
      { operation: "read", count: 5, periodMs: 1_000 },
      { operation: "read", count: 1_000, periodMs: HOUR_MS },
    ]);
    burst = t.addCustomer("burst", "Bursty Co").id;
    steady = t.addCustomer("burst", "Steady Co").id;
    t.clock.advance(30 * MINUTE_MS);
    // Bursty: 12 reads at once, 5 allowed and 7 refused by 5 per second, three times.
    for (let i = 0; i < 3; i++) {
      await send(burst, 12);
      t.clock.advance(10_000);
    }
    // Steady: 2 reads a second for 20 s: 40% of 5 per second, never refused.
    for (let i = 0; i < 20; i++) {
      await send(steady, 2);
      t.clock.advance(1_000);
    }
    await t.runtime.usage.flush();
  });
  afterEach(() => t.cleanup());

  // Regression: a customer refused 41% of the time by 5 per second was in "Refused most", while
  // near-limit measured 5 per second against minute totals (300 a minute) and found nobody.
  it("measures a per-second limit per second from the live view, with the refusals", async () => {
    const body = await near(`?from=${START_MS}`);
    expect(body).toMatchObject({
      resolutionMs: MINUTE_MS,
      perSecondFromMs: t.clock.now() - 300_000,
      perSecondScope: "instance",
    });
    expect(body.customers).toEqual([
      expect.objectContaining({
        kind: "peak",
        name: "Bursty Co",
        operation: "read",
        limit: { count: 5, periodMs: 1_000 },
        resolutionMs: 1_000,
        lowestTokens: 0,
        lowestAtMs: START_MS + 30 * MINUTE_MS,
        share: 1,
        refused: 21,
      }),
    ]);
    const lower = await near(`?from=${START_MS}&minShare=0.3`);
    expect(lower.customers.map((c: { name: string; share: number }) => [c.name, c.share])).toEqual([
      ["Bursty Co", 1],
      ["Steady Co", 0.4],
    ]);
  });

  // Regression: 3 per second, bursts two thirds of a second apart: the limiter allowed 3, then 2
  // and 2 as the bucket refilled, 5 in some clock seconds, and near-limit read "166%: 5 of 3
  // tokens in 1 second", as if the limiter had let the customer past its limit. The bucket,
  // replayed, was drained: 100%, never more.
  it("never puts a customer the limiter held to its limit over 100%", async () => {
    t.addPlan("three", [{ operation: "read", count: 3, periodMs: 1_000 }]);
    const held = t.addCustomer("three", "Held Co").id;
    const customer = t.runtime.policy.snapshot.byId.get(held) as CustomerPolicy;
    const from = t.clock.now();
    let allowed = 0;
    for (let burst = 0; burst < 10; burst++) {
      for (let i = 0; i < 15; i++) {
        if ((await decide(t.runtime, customer, "read", 1)).allowed) allowed++;
      }
      t.clock.advance(667);
    }
    expect(allowed).toBe(21);
    await t.runtime.usage.flush();
    const body = await near(`?from=${START_MS}&customerId=${held}`);
    expect(body.customers).toEqual([
      expect.objectContaining({
        kind: "peak",
        name: "Held Co",
        limit: { count: 3, periodMs: 1_000 },
        lowestTokens: 0,
        // The live view's seconds spread each second's tokens over its decisions.
        lowestAtMs: from + 500,
        share: 1,
        refused: 129,
      }),
    ]);
  });

  it("counts a refused customer at 100% once the live view no longer holds its seconds", async () => {
    t.clock.advance(10 * MINUTE_MS);
    const body = await near(`?from=${START_MS}`);
    expect(body.perSecondFromMs).toBe(t.clock.now() - 300_000);
    expect(body.customers).toEqual([
      expect.objectContaining({
        kind: "refused",
        name: "Bursty Co",
        operation: "read",
        share: 1,
        refused: 21,
        unmeasured: [{ count: 5, periodMs: 1_000 }],
      }),
    ]);
    const past = await near(`?from=${START_MS}&to=${START_MS + 35 * MINUTE_MS}`);
    expect(past.perSecondFromMs).toBeNull();
    expect(past.customers.map((c: { kind: string }) => c.kind)).toEqual(["refused"]);
  });
});
