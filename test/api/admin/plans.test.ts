import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { DELETE as deletePlan, PATCH as patchPlan } from "@/app/api/admin/plans/[id]/route";
import { POST as createPlan, GET as listPlans } from "@/app/api/admin/plans/route";
import { GET as listItems } from "@/app/api/v1/items/route";
import { listAudit } from "@/db/queries/audit";
import { listPlans as storedPlans } from "@/db/queries/plans";
import { api, createTestRuntime, type TestRuntime } from "../../support/runtime";
import { adminRequest, params, signIn } from "./admin-support";

let t: TestRuntime;
let cookie: string;
beforeEach(async () => {
  t = createTestRuntime();
  cookie = await signIn();
});
afterEach(() => t.cleanup());

const validPlan = {
  slug: "team",
  name: "Team",
  description: "For teams",
  limits: [
    { operation: "read", count: 10, periodMs: 1_000 },
    { operation: "write", count: 2, periodMs: 1_000 },
  ],
};

function post(body: unknown) {
  return createPlan(adminRequest("/api/admin/plans", { cookie, body }));
}

function patch(id: number, body: unknown) {
  return patchPlan(
    adminRequest(`/api/admin/plans/${id}`, { method: "PATCH", cookie, body }),
    params({ id: String(id) }),
  );
}

/** snapshotDb captures everything an admin write could change. */
function snapshotDb() {
  return { plans: storedPlans(t.runtime.db), audit: listAudit(t.runtime.db, { limit: 1000 }) };
}

describe("plans", () => {
  it("lists the seeded plans with their limits and customer counts", async () => {
    const res = await listPlans(adminRequest("/api/admin/plans", { cookie }));
    const { plans } = await res.json();
    expect(
      plans.map((p: { slug: string; customerCount: number }) => [p.slug, p.customerCount]),
    ).toEqual([
      ["enterprise", 0],
      ["free", 1],
      ["pro", 0],
    ]);
    const free = plans.find((p: { slug: string }) => p.slug === "free");
    expect(free.limits).toEqual([
      { operation: "read", count: 5, periodMs: 1_000, dryRun: false },
      { operation: "read", count: 100, periodMs: 60_000, dryRun: false },
      { operation: "write", count: 1, periodMs: 1_000, dryRun: false },
      { operation: "write", count: 20, periodMs: 60_000, dryRun: false },
    ]);
  });

  it("creates a plan and audits it", async () => {
    const res = await post(validPlan);
    expect(res.status).toBe(201);
    const { plan } = await res.json();
    expect(plan).toMatchObject({ slug: "team", name: "Team", description: "For teams" });
    expect(plan.limits).toHaveLength(2);
    const [entry] = listAudit(t.runtime.db, { limit: 1 });
    expect(entry).toMatchObject({
      actor: "admin",
      action: "plan.create",
      entityType: "plan",
      entityId: String(plan.id),
      before: null,
    });
    expect((entry?.after as { slug?: string } | undefined)?.slug).toBe("team");
  });

  it("refuses a taken slug with 409 at the slug field", async () => {
    const res = await post({ ...validPlan, slug: "free" });
    expect(res.status).toBe(409);
    expect((await res.json()).errors).toEqual({ slug: ["Slug already used"] });
  });

  it("applies an edit of a plan's limits to the very next request, and audits before and after", async () => {
    const freeId = t.planId("free");
    for (let i = 0; i < 5; i++)
      expect((await listItems(api("/api/v1/items", { key: t.demoKey }))).status).toBe(200);
    expect((await listItems(api("/api/v1/items", { key: t.demoKey }))).status).toBe(429);

    const res = await patch(freeId, { limits: [{ operation: "read", count: 7, periodMs: 1_000 }] });
    expect(res.status).toBe(200);
    const next = await listItems(api("/api/v1/items", { key: t.demoKey }));
    expect(next.status).toBe(200);
    expect(next.headers.get("ratelimit-policy")).toBe('"read-7-per-1s";q=7;w=1');
    expect(next.headers.get("ratelimit")).toBe('"read-7-per-1s";r=6;t=1');

    const [entry] = listAudit(t.runtime.db, { limit: 1 });
    expect(entry?.action).toBe("plan.update");
    expect((entry?.before as { limits?: unknown[] } | undefined)?.limits).toHaveLength(4);
    expect((entry?.after as { limits?: unknown[] } | undefined)?.limits).toEqual([
      { operation: "read", count: 7, periodMs: 1_000, dryRun: false },
    ]);
  });

  it("deletes an unused plan, refuses one with customers with 409", async () => {
    const created = await (await post(validPlan)).json();
    const res = await deletePlan(
      adminRequest("/x", { method: "DELETE", cookie }),
      params({ id: String(created.plan.id) }),
    );
    expect(res.status).toBe(204);
    const busy = await deletePlan(
      adminRequest("/x", { method: "DELETE", cookie }),
      params({ id: String(t.planId("free")) }),
    );
    expect(busy.status).toBe(409);
    expect(storedPlans(t.runtime.db).map((p) => p.slug)).toEqual(["enterprise", "free", "pro"]);
    expect(listAudit(t.runtime.db, { limit: 5 }).map((e) => e.action)).toEqual([
      "plan.delete",
      "plan.create",
    ]);
  });

  it("answers 404 for an unknown plan", async () => {
    expect((await patch(999, { name: "x" })).status).toBe(404);
  });
});

const limit = (over: Record<string, unknown>) => ({
  ...validPlan,
  limits: [{ operation: "read", count: 5, periodMs: 1_000, ...over }],
});

const badCreates: [string, unknown, string][] = [
  ["a missing body", undefined, ""],
  ["an array body", [], ""],
  ["a missing slug", { name: "A" }, "slug"],
  ["an empty name", { ...validPlan, name: "  " }, "name"],
  ["a numeric name", { ...validPlan, name: 42 }, "name"],
  ["an uppercase slug", { ...validPlan, slug: "Team Plan" }, "slug"],
  ["an unknown field", { ...validPlan, price: 10 }, "price"],
  ["a zero count", limit({ count: 0 }), "limits.0.count"],
  ["a negative count", limit({ count: -5 }), "limits.0.count"],
  ["a fractional count", limit({ count: 1.5 }), "limits.0.count"],
  ["a huge count", limit({ count: 1e12 }), "limits.0.count"],
  ["a string count", limit({ count: "10" }), "limits.0.count"],
  ["a zero period", limit({ periodMs: 0 }), "limits.0.periodMs"],
  ["a negative period", limit({ periodMs: -1_000 }), "limits.0.periodMs"],
  ["a huge period", limit({ periodMs: 1e15 }), "limits.0.periodMs"],
  ["an unknown operation", limit({ operation: "delete" }), "limits.0.operation"],
  ["an extra field in a limit", limit({ burst: true }), "limits.0.burst"],
  [
    "a missing count",
    { ...validPlan, limits: [{ operation: "read", periodMs: 1_000 }] },
    "limits.0.count",
  ],
  [
    "duplicate limits",
    { ...validPlan, limits: [validPlan.limits[0], validPlan.limits[0]] },
    "limits.1",
  ],
];

describe("bad plan bodies", () => {
  it.each(badCreates)(
    "create with %s is a 400 at the field and changes nothing",
    async (_, body, field) => {
      const before = snapshotDb();
      const res = await createPlan(
        adminRequest("/api/admin/plans", {
          cookie,
          method: "POST",
          rawBody: body === undefined ? "" : JSON.stringify(body),
        }),
      );
      expect(res.status).toBe(400);
      const problem = await res.json();
      expect(problem.title).toBe("Invalid request");
      expect(Object.keys(problem.errors)).toContain(field);
      expect(snapshotDb()).toEqual(before);
    },
  );

  it("refuses invalid JSON", async () => {
    const res = await createPlan(
      adminRequest("/api/admin/plans", { cookie, method: "POST", rawBody: "{nope" }),
    );
    expect(res.status).toBe(400);
    expect((await res.json()).errors).toEqual({ "": ["Body must be valid JSON"] });
  });

  const badUpdates: [string, unknown, string][] = [
    ["an empty body", {}, ""],
    ["an empty name", { name: "" }, "name"],
    [
      "a zero count",
      { limits: [{ operation: "write", count: 0, periodMs: 1_000 }] },
      "limits.0.count",
    ],
    [
      "a negative period",
      { limits: [{ operation: "write", count: 1, periodMs: -1 }] },
      "limits.0.periodMs",
    ],
    ["limits that are not a list", { limits: { operation: "write" } }, "limits"],
    ["an unknown field", { id: 5 }, "id"],
  ];

  it.each(badUpdates)(
    "update with %s is a 400 at the field and changes nothing",
    async (_, body, field) => {
      const before = snapshotDb();
      const res = await patch(t.planId("free"), body);
      expect(res.status).toBe(400);
      expect(Object.keys((await res.json()).errors)).toContain(field);
      expect(snapshotDb()).toEqual(before);
    },
  );
});
