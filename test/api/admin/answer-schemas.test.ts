import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { GET as listAudit } from "@/app/api/admin/audit/route";
import { GET as inspect } from "@/app/api/admin/customers/[id]/inspect/route";
import {
  DELETE as clearOverride,
  PUT as putOverride,
} from "@/app/api/admin/customers/[id]/overrides/[operation]/route";
import { POST as rotateKey } from "@/app/api/admin/customers/[id]/rotate-key/route";
import { GET as getCustomer, PATCH as patchCustomer } from "@/app/api/admin/customers/[id]/route";
import { POST as testRequest } from "@/app/api/admin/customers/[id]/test-request/route";
import { POST as createCustomer, GET as listCustomers } from "@/app/api/admin/customers/route";
import { GET as getPlan, PATCH as patchPlan } from "@/app/api/admin/plans/[id]/route";
import { POST as createPlan, GET as listPlans } from "@/app/api/admin/plans/route";
import { POST as createToken, GET as listTokens } from "@/app/api/admin/service-tokens/route";
import { POST as login, GET as whoami } from "@/app/api/admin/session/route";
import { auditAnswerSchema } from "@/lib/schemas/audit-answer.schema";
import {
  customerAnswerSchema,
  customerKeyAnswerSchema,
  customersAnswerSchema,
  customerUpdatedAnswerSchema,
  overridesAnswerSchema,
} from "@/lib/schemas/customer-answer.schema";
import { inspectAnswerSchema, testRequestAnswerSchema } from "@/lib/schemas/inspect-answer.schema";
import { planAnswerSchema, plansAnswerSchema } from "@/lib/schemas/plan-answer.schema";
import {
  createdServiceTokenAnswerSchema,
  serviceTokensAnswerSchema,
} from "@/lib/schemas/service-token-answer.schema";
import { sessionAnswerSchema, signedInAnswerSchema } from "@/lib/schemas/session-answer.schema";
import { answerOf, refusesExtra } from "../../support/answer-schema";
import { createTestRuntime, type TestRuntime } from "../../support/runtime";
import { adminRequest, params, signIn } from "./admin-support";

// Every admin answer with a schema is parsed against it as the server sent it: the schemas are
// strict, so a field the server adds, drops or retypes fails here, and the dashboard (which types
// its answers from the same schemas) cannot silently read a shape that is not there.

let t: TestRuntime;
let cookie: string;
beforeEach(async () => {
  t = createTestRuntime();
  cookie = await signIn();
});
afterEach(() => t.cleanup());

const id = (n: number) => params({ id: String(n) });

describe("admin answers match their schemas", () => {
  it("plans: list, create, get and edit answer their schemas", async () => {
    const listed = await answerOf(
      listPlans(adminRequest("/x", { cookie })),
      200,
      plansAnswerSchema,
    );
    expect(listed.plans.length).toBeGreaterThan(0);
    expect(listed.plans.some((p) => p.customerCount > 0)).toBe(true);

    const body = {
      slug: "schema-plan",
      name: "Schema plan",
      limits: [
        { operation: "read", count: 10, periodMs: 1_000 },
        { operation: "write", count: 5, periodMs: 60_000, dryRun: true },
      ],
    };
    const created = await answerOf(
      createPlan(adminRequest("/api/admin/plans", { cookie, body })),
      201,
      planAnswerSchema,
    );
    expect(created.plan.limits).toHaveLength(2);
    await answerOf(
      getPlan(adminRequest("/x", { cookie }), id(created.plan.id)),
      200,
      planAnswerSchema,
    );
    await answerOf(
      patchPlan(
        adminRequest("/x", { method: "PATCH", cookie, body: { name: "Renamed" } }),
        id(created.plan.id),
      ),
      200,
      planAnswerSchema,
    );
  });

  it("customers: create, list, get, edit, rotate and overrides answer their schemas", async () => {
    const created = await answerOf(
      createCustomer(
        adminRequest("/api/admin/customers", {
          cookie,
          body: { name: "Acme", planId: t.planId("pro") },
        }),
      ),
      201,
      customerKeyAnswerSchema,
    );
    const customerId = created.customer.id;
    const page = await answerOf(
      listCustomers(adminRequest("/api/admin/customers", { cookie })),
      200,
      customersAnswerSchema,
    );
    expect(page.customers.map((c) => c.id)).toContain(customerId);

    const override = {
      limits: [
        { count: 3, periodMs: 1_000 },
        { count: 1, periodMs: 1_000, dryRun: true },
      ],
      expiresAt: t.clock.now() + 60_000,
    };
    const set = await answerOf(
      putOverride(
        adminRequest("/x", { method: "PUT", cookie, body: override }),
        params({ id: String(customerId), operation: "read" }),
      ),
      200,
      overridesAnswerSchema,
    );
    expect(set.overrides.read?.limits).toHaveLength(2);

    const one = await answerOf(
      getCustomer(adminRequest("/x", { cookie }), id(customerId)),
      200,
      customerAnswerSchema,
    );
    expect(one.overrides.read?.expiresAt).toBe(override.expiresAt);
    await answerOf(
      patchCustomer(
        adminRequest("/x", { method: "PATCH", cookie, body: { status: "suspended" } }),
        id(customerId),
      ),
      200,
      customerUpdatedAnswerSchema,
    );
    await answerOf(
      rotateKey(adminRequest("/x", { method: "POST", cookie }), id(customerId)),
      200,
      customerKeyAnswerSchema,
    );
    const cleared = await answerOf(
      clearOverride(
        adminRequest("/x", { method: "DELETE", cookie }),
        params({ id: String(customerId), operation: "read" }),
      ),
      200,
      overridesAnswerSchema,
    );
    expect(cleared.overrides).toEqual({});
  });

  it("audit: a page of changes answers its schema", async () => {
    await createCustomer(
      adminRequest("/api/admin/customers", {
        cookie,
        body: { name: "Audited", planId: t.planId("pro") },
      }),
    );
    const page = await answerOf(
      listAudit(adminRequest("/api/admin/audit", { cookie })),
      200,
      auditAnswerSchema,
    );
    expect(page.entries.length).toBeGreaterThan(0);
    expect(page.entries[0]?.entityName).toBe("Audited");
  });

  it("service tokens: create and list answer their schemas", async () => {
    const created = await answerOf(
      createToken(
        adminRequest("/api/admin/service-tokens", {
          cookie,
          body: { name: "edge", scopes: ["decide"] },
        }),
      ),
      201,
      createdServiceTokenAnswerSchema,
    );
    const listed = await answerOf(
      listTokens(adminRequest("/x", { cookie })),
      200,
      serviceTokensAnswerSchema,
    );
    expect(listed.serviceTokens.map((s) => s.id)).toEqual([created.serviceToken.id]);
  });

  it("inspect and test requests: decisions, buckets and history answer their schemas", async () => {
    const demo = params({ id: String(t.demoId) });
    const made = await answerOf(
      testRequest(adminRequest("/x", { cookie, body: { operation: "read", cost: 2 } }), demo),
      200,
      testRequestAnswerSchema,
    );
    expect(made.reason).toBe("ok");
    expect(made.decision?.buckets.length).toBeGreaterThan(0);
    t.clock.advance(1_000);
    const peeked = await answerOf(
      inspect(adminRequest("/x", { cookie }), demo),
      200,
      inspectAnswerSchema,
    );
    expect(peeked.history).toBeUndefined();
    const replayed = await answerOf(
      inspect(adminRequest("/x?history=60", { cookie }), demo),
      200,
      inspectAnswerSchema,
    );
    expect(replayed.history?.operations.read?.length).toBeGreaterThan(0);

    t.suspend(t.demoId);
    const suspended = await answerOf(
      testRequest(adminRequest("/x", { cookie, body: { operation: "read" } }), demo),
      200,
      testRequestAnswerSchema,
    );
    expect(suspended).toMatchObject({ status: 403, reason: "suspended", decision: null });
  });

  it("session: who is signed in, and signing in, answer their schemas", async () => {
    const who = await answerOf(whoami(adminRequest("/x", { cookie })), 200, sessionAnswerSchema);
    expect(who.actor).toBe("admin");
    const signedIn = await answerOf(
      login(adminRequest("/api/admin/session", { body: { password: "test-password" } })),
      200,
      signedInAnswerSchema,
    );
    expect(signedIn.expiresAt).toBeGreaterThan(t.clock.now());
    expect(refusesExtra(sessionAnswerSchema, who, [])).toBe(true);
    expect(refusesExtra(signedInAnswerSchema, signedIn, [])).toBe(true);
  });

  it("an answer with a field its schema does not name fails, at the top and nested", async () => {
    const plans = await (await listPlans(adminRequest("/x", { cookie }))).json();
    expect(plansAnswerSchema.safeParse(plans).success).toBe(true);
    expect(refusesExtra(plansAnswerSchema, plans, [])).toBe(true);
    expect(refusesExtra(plansAnswerSchema, plans, ["plans", 0])).toBe(true);
    expect(refusesExtra(plansAnswerSchema, plans, ["plans", 0, "limits", 0])).toBe(true);

    const page = await (
      await listCustomers(adminRequest("/api/admin/customers", { cookie }))
    ).json();
    expect(customersAnswerSchema.safeParse(page).success).toBe(true);
    expect(refusesExtra(customersAnswerSchema, page, ["customers", 0])).toBe(true);
    expect(refusesExtra(customersAnswerSchema, page, ["customers", 0, "traffic"])).toBe(true);

    const inspected = await (
      await inspect(adminRequest("/x", { cookie }), params({ id: String(t.demoId) }))
    ).json();
    expect(inspectAnswerSchema.safeParse(inspected).success).toBe(true);
    expect(refusesExtra(inspectAnswerSchema, inspected, ["operations", "read", "buckets", 0])).toBe(
      true,
    );
    expect(
      refusesExtra(inspectAnswerSchema, inspected, ["operations", "read", "buckets", 0, "limit"]),
    ).toBe(true);

    const tokens = await (await listTokens(adminRequest("/x", { cookie }))).json();
    expect(refusesExtra(serviceTokensAnswerSchema, tokens, [])).toBe(true);
  });
});
