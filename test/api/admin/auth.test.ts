import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { GET as audit } from "@/app/api/admin/audit/route";
import { GET as inspect } from "@/app/api/admin/customers/[id]/inspect/route";
import { PUT as putOverride } from "@/app/api/admin/customers/[id]/overrides/[operation]/route";
import { POST as reset } from "@/app/api/admin/customers/[id]/reset/route";
import { POST as rotate } from "@/app/api/admin/customers/[id]/rotate-key/route";
import {
  DELETE as deleteCustomer,
  PATCH as patchCustomer,
} from "@/app/api/admin/customers/[id]/route";
import { POST as testRequest } from "@/app/api/admin/customers/[id]/test-request/route";
import { POST as createCustomer, GET as listCustomers } from "@/app/api/admin/customers/route";
import {
  DELETE as deletePlan,
  GET as getPlan,
  PATCH as patchPlan,
} from "@/app/api/admin/plans/[id]/route";
import { POST as createPlan, GET as listPlans } from "@/app/api/admin/plans/route";
import { POST as login, DELETE as logout, GET as whoami } from "@/app/api/admin/session/route";
import { GET as traffic } from "@/app/api/admin/traffic/route";
import { listAudit } from "@/db/queries/audit";
import { CLIENT_ADDRESS_HEADER } from "@/lib/http/client-address";
import { createTestRuntime, type TestRuntime } from "../../support/runtime";
import { adminRequest, params, signIn } from "./admin-support";

let t: TestRuntime;
beforeEach(() => {
  t = createTestRuntime();
});
afterEach(() => t.cleanup());

describe("admin API without a session", () => {
  it("answers 401 on every route and changes nothing", async () => {
    const id = params({ id: String(t.demoId) });
    const op = params({ id: String(t.demoId), operation: "read" });
    const body = { name: "x" };
    const calls: (Response | Promise<Response>)[] = [
      listPlans(adminRequest("/api/admin/plans")),
      createPlan(adminRequest("/api/admin/plans", { body: { slug: "x", name: "x" } })),
      getPlan(adminRequest("/api/admin/plans/1"), params({ id: "1" })),
      patchPlan(adminRequest("/api/admin/plans/1", { method: "PATCH", body }), params({ id: "1" })),
      deletePlan(adminRequest("/api/admin/plans/1", { method: "DELETE" }), params({ id: "1" })),
      listCustomers(adminRequest("/api/admin/customers")),
      createCustomer(adminRequest("/api/admin/customers", { body: { name: "x", planId: 1 } })),
      patchCustomer(adminRequest("/x", { method: "PATCH", body }), id),
      deleteCustomer(adminRequest("/x", { method: "DELETE" }), id),
      rotate(adminRequest("/x", { method: "POST" }), id),
      putOverride(
        adminRequest("/x", { method: "PUT", body: { limits: [{ count: 1, periodMs: 1000 }] } }),
        op,
      ),
      inspect(adminRequest("/x"), id),
      reset(adminRequest("/x", { method: "POST" }), id),
      testRequest(adminRequest("/x", { body: { operation: "read" } }), id),
      audit(adminRequest("/api/admin/audit")),
      traffic(adminRequest("/api/admin/traffic")),
      whoami(adminRequest("/api/admin/session")),
    ];
    const statuses = (await Promise.all(calls)).map((r) => r.status);
    expect(statuses).toEqual(statuses.map(() => 401));
    expect(listAudit(t.runtime.db, { limit: 10 })).toEqual([]);
    expect(t.runtime.limiter.size).toBe(0);
  });

  it("refuses a forged or expired session cookie", async () => {
    const forged = await listPlans(
      adminRequest("/api/admin/plans", { cookie: "rk_session=forged" }),
    );
    expect(forged.status).toBe(401);
    const cookie = await signIn();
    expect((await listPlans(adminRequest("/api/admin/plans", { cookie }))).status).toBe(200);
    t.clock.advance(12 * 3_600_000 + 1);
    expect((await listPlans(adminRequest("/api/admin/plans", { cookie }))).status).toBe(401);
  });
});

describe("signing in and out", () => {
  it("refuses a wrong password with a field error and sets no cookie", async () => {
    const res = await login(adminRequest("/api/admin/session", { body: { password: "nope" } }));
    expect(res.status).toBe(401);
    expect(res.headers.get("set-cookie")).toBeNull();
    expect((await res.json()).errors).toEqual({ password: ["Wrong password"] });
  });

  it("refuses a malformed body with 400", async () => {
    const res = await login(adminRequest("/api/admin/session", { body: { password: "" } }));
    expect(res.status).toBe(400);
    const extra = await login(
      adminRequest("/api/admin/session", { body: { password: "a", admin: true } }),
    );
    expect(extra.status).toBe(400);
    expect((await extra.json()).errors).toEqual({ admin: ["Unknown field"] });
  });

  it("sets an HttpOnly session cookie, and signing out ends the session", async () => {
    const res = await login(
      adminRequest("/api/admin/session", { body: { password: "test-password" } }),
    );
    expect(res.status).toBe(200);
    expect(res.headers.get("set-cookie")).toMatch(
      /^rk_session=[\w-]{43}; Path=\/; HttpOnly; SameSite=Lax; Max-Age=43200$/,
    );
    const cookie = (res.headers.get("set-cookie") ?? "").split(";")[0] as string;
    expect((await whoami(adminRequest("/api/admin/session", { cookie }))).status).toBe(200);
    expect(
      (await logout(adminRequest("/api/admin/session", { method: "DELETE", cookie }))).status,
    ).toBe(204);
    expect((await whoami(adminRequest("/api/admin/session", { cookie }))).status).toBe(401);
  });

  it("limits password guessing to 10 failed attempts a minute per address", async () => {
    const attempt = (password = "guess", forwardedFor = "203.0.113.9") =>
      login(
        new Request("http://test/api/admin/session", {
          method: "POST",
          headers: {
            "content-type": "application/json",
            [CLIENT_ADDRESS_HEADER]: "198.51.100.4",
            "x-forwarded-for": forwardedFor,
          },
          body: JSON.stringify({ password }),
        }),
      );
    for (let i = 0; i < 12; i++) expect((await attempt("test-password")).status).toBe(200);
    for (let i = 0; i < 10; i++) expect((await attempt()).status).toBe(401);
    expect((await attempt("test-password")).status).toBe(429);
    const refused = await attempt();
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThanOrEqual(6);
    // Regression: a new X-Forwarded-For per attempt no longer makes a new address.
    expect((await attempt("guess", "192.0.2.77")).status).toBe(429);
    t.clock.advance(6_000);
    expect((await attempt()).status).toBe(401);
  });

  // What docs/dashboard.md says of a locked sign-in (it said "until the minute has refilled").
  it("gives back one attempt every 6 seconds after a lock, and all 10 after a quiet minute", async () => {
    const attempt = (password = "guess") =>
      login(
        new Request("http://test/api/admin/session", {
          method: "POST",
          headers: { "content-type": "application/json", [CLIENT_ADDRESS_HEADER]: "198.51.100.5" },
          body: JSON.stringify({ password }),
        }),
      );
    for (let i = 0; i < 10; i++) expect((await attempt()).status).toBe(401);
    const locked = await attempt("test-password");
    expect(locked.status).toBe(429);
    expect(locked.headers.get("retry-after")).toBe("6");
    t.clock.advance(3_000);
    expect((await attempt()).headers.get("retry-after")).toBe("3");
    t.clock.advance(3_000);
    expect((await attempt()).status).toBe(401);
    expect((await attempt()).headers.get("retry-after")).toBe("6");
    t.clock.advance(60_000);
    for (let i = 0; i < 10; i++) expect((await attempt()).status).toBe(401);
    expect((await attempt()).status).toBe(429);
  });
});
