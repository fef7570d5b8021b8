import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { GET as inspect } from "@/app/api/admin/customers/[id]/inspect/route";
import { PUT as putOverride } from "@/app/api/admin/customers/[id]/overrides/[operation]/route";
import { POST as createPlan } from "@/app/api/admin/plans/route";
import { GET as listItems } from "@/app/api/v1/items/route";
import { listAudit } from "@/db/queries/audit";
import { listOverrides } from "@/db/queries/customers";
import { listPlans as storedPlans } from "@/db/queries/plans";
import { insertQuotaGrant } from "@/db/queries/quota-grants";
import { overridesAnswerSchema } from "@/lib/schemas/customer-answer.schema";
import { inspectAnswerSchema } from "@/lib/schemas/inspect-answer.schema";
import { planAnswerSchema } from "@/lib/schemas/plan-answer.schema";
import { answerOf } from "../../support/answer-schema";
import { api, createTestRuntime, START_MS, type TestRuntime } from "../../support/runtime";
import { adminRequest, params, signIn } from "./admin-support";

let t: TestRuntime;
let cookie: string;
beforeEach(async () => {
  t = createTestRuntime();
  cookie = await signIn();
});
afterEach(() => t.cleanup());

const FEBRUARY = Date.UTC(2025, 1, 1);

function snapshotDb() {
  return {
    plans: storedPlans(t.runtime.db),
    overrides: listOverrides(t.runtime.db),
    audit: listAudit(t.runtime.db, { limit: 1000 }),
  };
}

const post = (body: unknown) => createPlan(adminRequest("/api/admin/plans", { cookie, body }));
const put = (customerId: number, operation: string, body: unknown) =>
  putOverride(
    adminRequest("/x", { method: "PUT", cookie, body }),
    params({ id: String(customerId), operation }),
  );

describe("quota rows in plans and overrides", () => {
  it("stores a plan's quota, answers it with its zone, and audits it", async () => {
    const res = await post({
      slug: "metered",
      name: "Metered",
      limits: [
        { operation: "read", count: 10, periodMs: 1_000 },
        { operation: "read", count: 100_000, period: "month" },
        { operation: "write", count: 1_000_000_000, period: "day", timeZone: "europe/berlin" },
      ],
    });
    const { plan } = await answerOf(res, 201, planAnswerSchema);
    expect(plan.limits).toEqual([
      { operation: "read", count: 10, periodMs: 1_000, dryRun: false },
      { operation: "read", count: 100_000, period: "month", timeZone: "UTC", dryRun: false },
      {
        operation: "write",
        count: 1_000_000_000,
        period: "day",
        timeZone: "Europe/Berlin",
        dryRun: false,
      },
    ]);
    const [entry] = listAudit(t.runtime.db, { limit: 1 });
    expect(entry?.action).toBe("plan.create");
    expect(JSON.stringify(entry?.after)).toContain('"period":"month"');
  });

  const badRows: [string, unknown, string][] = [
    ["a quota count above 1,000,000,000", { count: 1_000_000_001, period: "day" }, "count"],
    ["an unknown period", { count: 5, period: "year" }, "period"],
    ["an unknown zone", { count: 5, period: "day", timeZone: "Mars/Olympus" }, "timeZone"],
    ["a dry-run quota", { count: 5, period: "day", dryRun: true }, "dryRun"],
    ["both periods", { count: 5, period: "day", periodMs: 1_000 }, "periodMs"],
    ["a zone on a bucket", { count: 5, periodMs: 1_000, timeZone: "UTC" }, "timeZone"],
  ];

  it.each(badRows)("refuses %s (400 at the field, nothing stored)", async (_, row, field) => {
    const before = snapshotDb();
    const plan = await post({
      slug: "bad",
      name: "Bad",
      limits: [{ operation: "read", ...(row as object) }],
    });
    expect(plan.status).toBe(400);
    expect(Object.keys((await plan.json()).errors)).toContain(`limits.0.${field}`);
    const override = await put(t.demoId, "read", { limits: [row] });
    expect(override.status).toBe(400);
    expect(Object.keys((await override.json()).errors)).toContain(`limits.0.${field}`);
    expect(snapshotDb()).toEqual(before);
  });

  it("refuses two quotas of one class, period and zone, whatever their counts", async () => {
    const before = snapshotDb();
    const res = await post({
      slug: "twice",
      name: "Twice",
      limits: [
        { operation: "read", count: 5, period: "month", timeZone: "Europe/Berlin" },
        { operation: "read", count: 6, period: "month", timeZone: "europe/berlin" },
      ],
    });
    expect(res.status).toBe(400);
    expect((await res.json()).errors).toEqual({ "limits.1": ["Duplicate limit"] });
    expect(snapshotDb()).toEqual(before);
  });

  it("lets an override's quota replace the plan's limits, and shows it on the customer's inspect answer", async () => {
    const res = await put(t.demoId, "read", { limits: [{ count: 3, period: "month" }] });
    expect((await answerOf(res, 200, overridesAnswerSchema)).overrides).toEqual({
      read: {
        limits: [{ count: 3, period: "month", timeZone: "UTC", dryRun: false }],
        expiresAt: null,
      },
    });
    // A grant of 2 more for January.
    insertQuotaGrant(t.runtime.db, {
      customerId: t.demoId,
      operation: "read",
      period: "month",
      timeZone: "UTC",
      periodStartMs: START_MS,
      extra: 2,
      note: "",
      createdAt: START_MS,
      createdBy: "admin",
    });
    t.runtime.policy.applyEdit();
    const statuses = [];
    for (let i = 0; i < 6; i++) {
      statuses.push((await listItems(api("/api/v1/items", { key: t.demoKey }))).status);
      t.clock.advance(1_000);
    }
    // The plan's 5 per second no longer applies to reads: the override's 3 (+2 granted) does.
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
    const answer = await answerOf(
      await inspect(adminRequest("/x", { cookie }), params({ id: String(t.demoId) })),
      200,
      inspectAnswerSchema,
    );
    expect(answer.quotas).toEqual([
      {
        operation: "read",
        source: "override",
        dryRun: false,
        period: "month",
        timeZone: "UTC",
        anchorDay: 1,
        count: 3,
        granted: 2,
        used: 5,
        remaining: 0,
        periodStartMs: START_MS,
        periodEndMs: FEBRUARY,
      },
    ]);
    expect(answer.operations.read?.source).toBe("override");
  });
});
