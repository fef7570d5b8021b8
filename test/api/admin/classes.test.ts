import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { PATCH as patchRoute, DELETE as removeRoute } from "@/app/api/admin/classes/[name]/route";
import { POST as create, GET as list } from "@/app/api/admin/classes/route";
import {
  DELETE as clearOverride,
  PUT as putOverride,
} from "@/app/api/admin/customers/[id]/overrides/[operation]/route";
import { POST as testRequest } from "@/app/api/admin/customers/[id]/test-request/route";
import { POST as promote } from "@/app/api/admin/plans/[id]/dry-run/promote/route";
import { PATCH as patchPlan } from "@/app/api/admin/plans/[id]/route";
import { PUT as putRouteRules } from "@/app/api/admin/route-rules/route";
import { listAudit } from "@/db/queries/audit";
import { classesAnswerSchema } from "@/lib/schemas/operation-class-answer.schema";
import {
  type DataPlaneServer,
  postJson,
  serviceToken,
  startDataPlane,
} from "../../support/data-plane";
import { createTestRuntime, idParams, type TestRuntime } from "../../support/runtime";
import { adminRequest, params, signIn } from "./admin-support";

const HOUR = 3_600_000;

let t: TestRuntime;
let cookie: string;
beforeEach(async () => {
  t = createTestRuntime();
  cookie = await signIn();
});
afterEach(() => t.cleanup());

const post = (body: unknown) => create(adminRequest("/api/admin/classes", { cookie, body }));
const patch = (name: string, body: unknown) =>
  patchRoute(adminRequest("/x", { method: "PATCH", cookie, body }), params({ name }));
const remove = (name: string) =>
  removeRoute(adminRequest("/x", { method: "DELETE", cookie }), params({ name }));
const classes = async () => {
  const res = await list(adminRequest("/api/admin/classes", { cookie }));
  expect(res.status).toBe(200);
  return classesAnswerSchema.parse(await res.json()).classes;
};
const setPlanLimits = (planId: number, limits: unknown[]) =>
  patchPlan(
    adminRequest(`/api/admin/plans/${planId}`, { method: "PATCH", cookie, body: { limits } }),
    idParams(planId),
  );
const setOverride = (customerId: number, operation: string, limits: unknown[]) =>
  putOverride(
    adminRequest(`/x`, { method: "PUT", cookie, body: { limits } }),
    params({ id: String(customerId), operation }),
  );

describe("operation classes", () => {
  it("lists read and write, seeded, first, with the plans and overrides that use them", async () => {
    const listed = await classes();
    expect(listed.map((c) => [c.name, c.description, c.builtIn])).toEqual([
      ["read", "GET and HEAD requests", true],
      ["write", "Every other method", true],
    ]);
    // The seed's three plans limit reads and writes; no override yet.
    expect(listed.map((c) => [c.plans, c.overrides])).toEqual([
      [3, 0],
      [3, 0],
    ]);
  });

  it("creates, edits and deletes a class, audited, and the policy knows it at once", async () => {
    const res = await post({ name: "exports", description: "CSV exports" });
    expect(res.status).toBe(201);
    expect((await res.json()).class).toEqual({
      name: "exports",
      description: "CSV exports",
      createdAt: t.clock.now(),
      builtIn: false,
      plans: 0,
      overrides: 0,
    });
    expect(t.runtime.policy.snapshot.classes.has("exports")).toBe(true);
    expect((await classes()).map((c) => c.name)).toEqual(["read", "write", "exports"]);

    const edited = await patch("exports", { description: "Bulk exports" });
    expect(edited.status).toBe(200);
    expect((await edited.json()).class.description).toBe("Bulk exports");

    expect((await remove("exports")).status).toBe(204);
    expect(t.runtime.policy.snapshot.classes.has("exports")).toBe(false);
    expect((await classes()).map((c) => c.name)).toEqual(["read", "write"]);
    const entries = listAudit(t.runtime.db, { limit: 10 })
      .filter((e) => e.entityType === "class")
      .map((e) => [e.action, e.entityId]);
    expect(entries).toEqual([
      ["class.delete", "exports"],
      ["class.update", "exports"],
      ["class.create", "exports"],
    ]);
  });

  it.each([
    ["no name", { description: "x" }, "name"],
    ["an upper-case name", { name: "Exports" }, "name"],
    ["a name with a space", { name: "bulk export" }, "name"],
    ["a name starting with a digit", { name: "1x" }, "name"],
    ["a name of 33 characters", { name: `a${"b".repeat(32)}` }, "name"],
    ["a reserved name", { name: "constructor" }, "name"],
    ["a long description", { name: "exports", description: "d".repeat(201) }, "description"],
    ["a description with a line break", { name: "exports", description: "a\nb" }, "description"],
    ["an unknown field", { name: "exports", colour: "blue" }, "colour"],
  ])("refuses %s with a 400 naming the field, creating nothing", async (_what, body, field) => {
    const res = await post(body);
    expect(res.status).toBe(400);
    expect(Object.keys((await res.json()).errors)).toEqual([field]);
    expect((await classes()).map((c) => c.name)).toEqual(["read", "write"]);
  });

  // Regression: a class named by a gateway route rule could be deleted, leaving a rule the next
  // save refused and a snapshot edges could not read.
  it("refuses to delete a class a gateway route rule names, until the rule goes", async () => {
    expect((await post({ name: "exports" })).status).toBe(201);
    const setRules = (rules: unknown[]) =>
      putRouteRules(
        adminRequest("/api/admin/route-rules", { method: "PUT", cookie, body: { rules } }),
      );
    const rule = { method: "POST", pattern: "/v1/exports", operation: "exports", cost: 5 };
    expect((await setRules([rule])).status).toBe(200);
    const refused = await remove("exports");
    expect(refused.status).toBe(409);
    expect((await refused.json()).title).toBe(
      'Class "exports" is used by 1 gateway route rule: remove those limits first',
    );
    expect((await setRules([])).status).toBe(200);
    expect((await remove("exports")).status).toBe(204);
  });

  it("refuses a name already taken with 409 at name", async () => {
    expect((await post({ name: "exports" })).status).toBe(201);
    for (const name of ["exports", "read"]) {
      const res = await post({ name });
      expect(res.status).toBe(409);
      expect(Object.keys((await res.json()).errors)).toEqual(["name"]);
    }
  });

  it("refuses to delete read or write, and a class in use, naming the plans and customers", async () => {
    for (const name of ["read", "write"]) {
      const res = await remove(name);
      expect(res.status).toBe(409);
      expect((await res.json()).title).toContain(`The ${name} class is a default one`);
    }
    expect((await post({ name: "exports" })).status).toBe(201);
    const pro = t.planId("pro");
    const plan = (
      await (await setPlanLimits(pro, [{ operation: "exports", count: 2, periodMs: HOUR }])).json()
    ).plan;
    expect(plan.limits).toEqual([
      { operation: "exports", count: 2, periodMs: HOUR, dryRun: false },
    ]);
    const customer = t.addCustomer("free", "Acme");
    expect((await setOverride(customer.id, "exports", [{ count: 1, periodMs: HOUR }])).status).toBe(
      200,
    );
    expect((await classes()).find((c) => c.name === "exports")).toMatchObject({
      plans: 1,
      overrides: 1,
    });

    const refused = await remove("exports");
    expect(refused.status).toBe(409);
    expect((await refused.json()).title).toBe(
      'Class "exports" is used by the limits of plan "Pro" and the overrides of customer "Acme": remove those limits first',
    );
    expect(t.runtime.policy.snapshot.classes.has("exports")).toBe(true);

    // Once nothing uses it, it goes.
    expect((await setPlanLimits(pro, [])).status).toBe(200);
    expect(
      (
        await clearOverride(
          adminRequest("/x", { method: "DELETE", cookie }),
          params({ id: String(customer.id), operation: "exports" }),
        )
      ).status,
    ).toBe(200);
    expect((await remove("exports")).status).toBe(204);
  });

  it("refuses a plan's limit or an override of a class that does not exist", async () => {
    const pro = t.planId("pro");
    const res = await setPlanLimits(pro, [
      { operation: "read", count: 5, periodMs: HOUR },
      { operation: "exports", count: 2, periodMs: HOUR },
    ]);
    expect(res.status).toBe(400);
    expect((await res.json()).errors).toEqual({
      "limits.1.operation": ['Unknown class "exports": use one of read, write.'],
    });
    expect((await setOverride(t.demoId, "exports", [{ count: 1, periodMs: HOUR }])).status).toBe(
      404,
    );
  });

  it("refuses a test request or a promotion of a class that does not exist, by field", async () => {
    const unknown = ['Unknown class "exports": use one of read, write.'];
    const tried = await testRequest(
      adminRequest("/x", { cookie, body: { operation: "exports" } }),
      idParams(t.demoId),
    );
    expect(tried.status).toBe(400);
    expect((await tried.json()).errors).toEqual({ operation: unknown });
    const pro = t.planId("pro");
    const promoted = await promote(
      adminRequest("/x", { cookie, body: { operation: "exports" } }),
      idParams(pro),
    );
    expect(promoted.status).toBe(400);
    expect((await promoted.json()).errors).toEqual({ operation: unknown });
    // Once it exists, the test request decides on it (no limits: unlimited).
    expect((await post({ name: "exports" })).status).toBe(201);
    const decided = await testRequest(
      adminRequest("/x", { cookie, body: { operation: "exports" } }),
      idParams(t.demoId),
    );
    expect(await decided.json()).toMatchObject({ status: 200, reason: "ok" });
  });

  it("answers 404 for a class that is not there, and for a name no class can have", async () => {
    expect((await patch("exports", { description: "x" })).status).toBe(404);
    expect((await remove("exports")).status).toBe(404);
    expect((await remove("Not A Class")).status).toBe(404);
  });
});

describe("a new class in the decision API", () => {
  let server: DataPlaneServer;
  let token: string;
  const decide = (body: unknown) => postJson(`${server.url}/api/v1/decisions`, body, token);
  const batch = (decisions: unknown[]) =>
    postJson(`${server.url}/api/v1/decisions/batch`, { decisions }, token);
  beforeEach(async () => {
    server = await startDataPlane(t.runtime);
    token = serviceToken(t.runtime).token;
  });
  afterEach(async () => server.close());

  it("decides on the class's own bucket, apart from read and write", async () => {
    expect((await post({ name: "exports" })).status).toBe(201);
    const planId = t.addPlan("exporters", [
      { operation: "read", count: 2, periodMs: HOUR },
      { operation: "exports", count: 1, periodMs: HOUR },
    ]);
    expect(planId).toBeGreaterThan(0);
    const { key } = t.addCustomer("exporters");
    const first = await (await decide({ key, operation: "exports" })).json();
    expect(first).toMatchObject({
      allowed: true,
      operation: "exports",
      remaining: 0,
      limit: { policy: "exports-1-per-1h", count: 1, periodMs: HOUR },
    });
    expect((await (await decide({ key, operation: "exports" })).json()).reason).toBe(
      "rate_limited",
    );
    // Reads still have both tokens, and writes (no limits) are unlimited.
    expect(await (await decide({ key, operation: "read" })).json()).toMatchObject({
      allowed: true,
      remaining: 1,
    });
    expect((await (await decide({ key, operation: "write" })).json()).allowed).toBe(true);
    const customer = [...t.runtime.policy.snapshot.byId.values()].find((c) => c.planId === planId);
    expect(customer?.bucketKeys.get("exports")).toBe(`${customer?.id}:exports`);
  });

  it("refuses a class the policy does not have with a 400 naming it, taking no token", async () => {
    const peek = async () =>
      (await (await decide({ key: t.demoKey, operation: "read", peek: true })).json()).remaining;
    const before = await peek();
    const res = await decide({ key: t.demoKey, operation: "exports" });
    expect(res.status).toBe(400);
    expect((await res.json()).errors).toEqual({
      operation: ['Unknown class "exports": use one of read, write.'],
    });
    const refused = await batch([
      { key: t.demoKey, operation: "read" },
      { key: t.demoKey, operation: "exports" },
      { key: t.demoKey, operation: "read" },
    ]);
    expect(refused.status).toBe(400);
    expect((await refused.json()).errors).toEqual({
      "decisions.1.operation": ['Unknown class "exports": use one of read, write.'],
    });
    // Neither the single call nor the batch (whose other items were valid) took a token.
    expect(await peek()).toBe(before);
    // A class deleted is refused from the next call on.
    expect((await post({ name: "exports" })).status).toBe(201);
    expect((await decide({ key: t.demoKey, operation: "exports" })).status).toBe(200);
    expect((await remove("exports")).status).toBe(204);
    expect((await decide({ key: t.demoKey, operation: "exports" })).status).toBe(400);
  });
});
