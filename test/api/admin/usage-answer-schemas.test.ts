import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { GET as customerDryRun } from "@/app/api/admin/customers/[id]/dry-run/route";
import { POST as promoteOverride } from "@/app/api/admin/customers/[id]/overrides/[operation]/promote/route";
import { PUT as putOverride } from "@/app/api/admin/customers/[id]/overrides/[operation]/route";
import { POST as reset } from "@/app/api/admin/customers/[id]/reset/route";
import { POST as promotePlan } from "@/app/api/admin/plans/[id]/dry-run/promote/route";
import { GET as planDryRun } from "@/app/api/admin/plans/[id]/dry-run/route";
import { GET as traffic } from "@/app/api/admin/traffic/route";
import { GET as nearLimit } from "@/app/api/admin/usage/near-limit/route";
import { GET as plansUsage } from "@/app/api/admin/usage/plans/route";
import { GET as usage } from "@/app/api/admin/usage/route";
import { GET as top } from "@/app/api/admin/usage/top/route";
import { decide } from "@/lib/policy/decide";
import type { CustomerPolicy } from "@/lib/policy/snapshot";
import {
  overridesPromotedAnswerSchema,
  resetAnswerSchema,
} from "@/lib/schemas/customer-answer.schema";
import { dryRunAnswerSchema } from "@/lib/schemas/dry-run-answer.schema";
import { nearLimitAnswerSchema } from "@/lib/schemas/near-limit-answer.schema";
import { planPromotedAnswerSchema } from "@/lib/schemas/plan-answer.schema";
import { trafficAnswerSchema } from "@/lib/schemas/traffic-answer.schema";
import {
  plansUsageAnswerSchema,
  topCustomersAnswerSchema,
  usageAnswerSchema,
} from "@/lib/schemas/usage-answer.schema";
import { HOUR_MS, MINUTE_MS } from "@/lib/usage/time";
import { answerOf, refusesExtra } from "../../support/answer-schema";
import { createTestRuntime, START_MS, type TestRuntime } from "../../support/runtime";
import { adminRequest, params, signIn } from "./admin-support";

// The usage analytics, the dry-run reports, the live traffic, promotions and resets answer their
// schemas (lib/schemas/*-answer.schema.ts) as the server sends them, strictly: a field the
// server adds, drops or retypes fails here, as does one the schema does not name.

let t: TestRuntime;
let cookie: string;
let planId: number;
let busy: number;
const get = (path: string) => adminRequest(path, { cookie });
const send = async (id: number, operation: "read" | "write", n: number) => {
  const customer = t.runtime.policy.snapshot.byId.get(id) as CustomerPolicy;
  for (let i = 0; i < n; i++) await decide(t.runtime, customer, operation, 1);
};

beforeEach(async () => {
  t = createTestRuntime();
  cookie = await signIn();
  planId = t.addPlan("metered", [
    { operation: "read", count: 10, periodMs: HOUR_MS },
    { operation: "read", count: 3, periodMs: HOUR_MS, dryRun: true },
    { operation: "write", count: 5, periodMs: 1_000 },
  ]);
  busy = t.addCustomer("metered", "Busy Co").id;
  t.addCustomer("pro", "Quiet Co");
  t.clock.advance(30 * MINUTE_MS);
  await send(busy, "read", 12); // 10 allowed, 2 denied; 3 an hour would have refused 7
  await send(busy, "write", 8); // 5 allowed, 3 refused by 5 a second
  await t.runtime.usage.flush();
  t.clock.advance(MINUTE_MS);
});
afterEach(() => t.cleanup());

describe("usage answers match their schemas", () => {
  it("usage series: every granularity and filter answers its schema", async () => {
    const all = await answerOf(usage(get(`/x?from=${START_MS}`)), 200, usageAnswerSchema);
    expect(all.series.map((s) => s.operation)).toEqual(["read", "write"]);
    expect(all.totals).toMatchObject({ allowed: 15, denied: 5 });
    const minutes = await answerOf(
      usage(get(`/x?from=${START_MS}&granularity=minute&operation=read&customerId=${busy}`)),
      200,
      usageAnswerSchema,
    );
    expect(minutes.series.map((s) => s.operation)).toEqual(["read"]);
    expect(refusesExtra(usageAnswerSchema, all, [])).toBe(true);
    expect(refusesExtra(usageAnswerSchema, all, ["series", 0, "points", 0])).toBe(true);
    expect(refusesExtra(usageAnswerSchema, all, ["totals", "byOperation", "read"])).toBe(true);
  });

  it("top customers and plans' aggregates answer their schemas", async () => {
    const ranked = await answerOf(top(get(`/x?from=${START_MS}`)), 200, topCustomersAnswerSchema);
    expect(ranked.byDenials.map((c) => c.name)).toEqual(["Busy Co"]);
    expect(refusesExtra(topCustomersAnswerSchema, ranked, ["byDenials", 0])).toBe(true);
    const perPlan = await answerOf(
      plansUsage(get(`/x?from=${START_MS}`)),
      200,
      plansUsageAnswerSchema,
    );
    expect(perPlan.plans.find((p) => p.planId === planId)).toMatchObject({ denied: 5 });
    expect(refusesExtra(plansUsageAnswerSchema, perPlan, ["plans", 0])).toBe(true);
  });

  it("near-limit: findings by peak and by refusals answer their schema", async () => {
    const peaks = await answerOf(nearLimit(get(`/x?from=${START_MS}`)), 200, nearLimitAnswerSchema);
    expect(peaks.perSecondScope).toBe("instance");
    expect(peaks.customers.map((c) => [c.kind, c.operation])).toEqual([
      ["peak", "read"],
      ["peak", "write"],
    ]);
    expect(refusesExtra(nearLimitAnswerSchema, peaks, ["customers", 0])).toBe(true);
    expect(refusesExtra(nearLimitAnswerSchema, peaks, ["customers", 0, "limit"])).toBe(true);

    // Once the live view no longer holds its seconds, the 5 a second is found by its refusals.
    t.clock.advance(10 * MINUTE_MS);
    const refused = await answerOf(
      nearLimit(get(`/x?from=${START_MS}`)),
      200,
      nearLimitAnswerSchema,
    );
    const write = refused.customers.find((c) => c.operation === "write");
    expect(write).toMatchObject({ kind: "refused", unmeasured: [{ count: 5, periodMs: 1_000 }] });
    const at = refused.customers.indexOf(write as (typeof refused.customers)[number]);
    expect(refusesExtra(nearLimitAnswerSchema, refused, ["customers", at])).toBe(true);
    expect(refusesExtra(nearLimitAnswerSchema, refused, ["customers", at, "unmeasured", 0])).toBe(
      true,
    );
  });

  it("traffic: the live view's points and totals answer their schema", async () => {
    const live = await answerOf(traffic(get("/x?seconds=300")), 200, trafficAnswerSchema);
    expect(live.totals.map((c) => c.name)).toEqual(["Busy Co"]);
    expect(live.points.some((p) => p.allowed > 0)).toBe(true);
    await answerOf(traffic(get(`/x?seconds=60&customerId=${busy}`)), 200, trafficAnswerSchema);
    expect(refusesExtra(trafficAnswerSchema, live, ["points", 0])).toBe(true);
    expect(refusesExtra(trafficAnswerSchema, live, ["totals", 0])).toBe(true);
  });

  it("dry-run reports of a plan and of a customer answer their schema", async () => {
    const plan = await answerOf(
      planDryRun(get("/x"), params({ id: String(planId) })),
      200,
      dryRunAnswerSchema,
    );
    expect(plan.limits).toMatchObject([{ count: 3, refused: 7, customers: 1 }]);
    expect(plan.limits[0]?.top.map((c) => c.name)).toEqual(["Busy Co"]);
    const customer = await answerOf(
      customerDryRun(get("/x"), params({ id: String(busy) })),
      200,
      dryRunAnswerSchema,
    );
    expect(customer.limits).toMatchObject([{ count: 3, refused: 7 }]);
    expect(refusesExtra(dryRunAnswerSchema, plan, ["limits", 0])).toBe(true);
    expect(refusesExtra(dryRunAnswerSchema, plan, ["limits", 0, "tried", 0])).toBe(true);
    expect(refusesExtra(dryRunAnswerSchema, plan, ["limits", 0, "top", 0])).toBe(true);
  });

  it("promoting a plan's or an override's dry-run limits, and a reset, answer their schemas", async () => {
    const plan = await answerOf(
      promotePlan(get("/x"), params({ id: String(planId) })),
      200,
      planPromotedAnswerSchema,
    );
    expect(plan.promoted).toBe(1);
    expect(refusesExtra(planPromotedAnswerSchema, plan, [])).toBe(true);

    const override = {
      limits: [
        { count: 50, periodMs: 1_000 },
        { count: 20, periodMs: 1_000, dryRun: true },
      ],
      expiresAt: null,
    };
    const operation = params({ id: String(busy), operation: "write" });
    await putOverride(adminRequest("/x", { method: "PUT", cookie, body: override }), operation);
    const promoted = await answerOf(
      promoteOverride(adminRequest("/x", { method: "POST", cookie }), operation),
      200,
      overridesPromotedAnswerSchema,
    );
    expect(promoted).toMatchObject({ promoted: 1, overrides: { write: { expiresAt: null } } });
    expect(refusesExtra(overridesPromotedAnswerSchema, promoted, [])).toBe(true);

    const forgotten = await answerOf(
      reset(adminRequest("/x", { method: "POST", cookie }), params({ id: String(busy) })),
      200,
      resetAnswerSchema,
    );
    expect(forgotten.deleted).toBeGreaterThan(0);
    expect(refusesExtra(resetAnswerSchema, forgotten, [])).toBe(true);
  });
});
