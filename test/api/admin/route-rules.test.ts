import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { GET as listAuditRoute } from "@/app/api/admin/audit/route";
import { GET as list, PUT as put } from "@/app/api/admin/route-rules/route";
import { POST as tryPath } from "@/app/api/admin/route-rules/test/route";
import { listAudit } from "@/db/queries/audit";
import { auditAnswerSchema } from "@/lib/schemas/audit-answer.schema";
import {
  routeRulesAnswerSchema,
  routeTestAnswerSchema,
} from "@/lib/schemas/route-rule-answer.schema";
import { answerOf } from "../../support/answer-schema";
import { createTestRuntime, START_MS, type TestRuntime } from "../../support/runtime";
import { adminRequest, signIn } from "./admin-support";

let t: TestRuntime;
let cookie: string;
beforeEach(async () => {
  t = createTestRuntime();
  cookie = await signIn();
});
afterEach(() => t.cleanup());

const putRules = (rules: unknown, headers: Record<string, string> = {}) => {
  const request = adminRequest("/api/admin/route-rules", {
    method: "PUT",
    cookie,
    body: { rules },
  });
  for (const [name, value] of Object.entries(headers)) request.headers.set(name, value);
  return put(request);
};
const getRules = () => answerOf(list(adminRequest("/x", { cookie })), 200, routeRulesAnswerSchema);
const test = (method: string, path: string) =>
  answerOf(
    tryPath(adminRequest("/api/admin/route-rules/test", { cookie, body: { method, path } })),
    200,
    routeTestAnswerSchema,
  );
const changes = () =>
  listAudit(t.runtime.db, { limit: 100 }).filter((e) => e.action === "route-rules.set");

const RULES = [
  { method: "GET", pattern: "/health", unmetered: true },
  { method: "POST", pattern: "/v1/exports", cost: 5 },
  { method: "*", pattern: "/v1/**", operation: "read" },
];

describe("route rules through the admin API", () => {
  it("starts with none, and names the classes a rule may use", async () => {
    expect(await getRules()).toEqual({ rules: [], classes: ["read", "write"] });
  });

  it("saves the whole ordered list, audits it before and after, and puts it in force at once", async () => {
    const saved = await answerOf(putRules(RULES), 200, routeRulesAnswerSchema);
    const at = { createdAt: START_MS, updatedAt: START_MS };
    expect(saved.rules).toEqual([
      { method: "GET", pattern: "/health", unmetered: true, operation: null, cost: null, ...at },
      { method: "POST", pattern: "/v1/exports", unmetered: false, operation: null, cost: 5, ...at },
      { method: "*", pattern: "/v1/**", unmetered: false, operation: "read", cost: null, ...at },
    ]);
    expect(await getRules()).toEqual(saved);
    const [entry] = changes();
    expect(entry).toMatchObject({
      actor: "admin",
      entityType: "route-rules",
      before: { rules: [] },
      after: { rules: saved.rules.map(({ createdAt: _c, updatedAt: _u, ...rule }) => rule) },
    });

    expect(await test("POST", "/v1/exports?format=csv")).toEqual({
      match: {
        index: 1,
        rule: {
          method: "POST",
          pattern: "/v1/exports",
          unmetered: false,
          operation: null,
          cost: 5,
        },
      },
      effect: { unmetered: false, operation: "write", cost: 5 },
    });
    expect(await test("GET", "/health")).toMatchObject({
      match: { index: 0 },
      effect: { unmetered: true },
    });
    expect(await test("DELETE", "/v1/items/3")).toMatchObject({
      match: { index: 2 },
      effect: { unmetered: false, operation: "read", cost: 1 },
    });
    expect(await test("DELETE", "/other")).toEqual({
      match: null,
      effect: { unmetered: false, operation: "write", cost: 1 },
    });
  });

  it("keeps a rule's creation time across saves, and its update time while it is unchanged", async () => {
    await putRules(RULES);
    t.clock.advance(60_000);
    const edited = [RULES[0], { ...RULES[1], cost: 10 }, { method: "GET", pattern: "/new" }];
    const saved = await answerOf(putRules(edited), 200, routeRulesAnswerSchema);
    expect(saved.rules.map((r) => [r.pattern, r.createdAt, r.updatedAt])).toEqual([
      ["/health", START_MS, START_MS],
      ["/v1/exports", START_MS, START_MS + 60_000],
      ["/new", START_MS + 60_000, START_MS + 60_000],
    ]);
    expect(changes()).toHaveLength(2);
    // The audit log answers the entries, with no entity of their own to name.
    const log = await answerOf(
      listAuditRoute(adminRequest("/api/admin/audit?action=route-rules.set", { cookie })),
      200,
      auditAnswerSchema,
    );
    expect(log.entries.map((e) => [e.action, e.entityType, e.entityId, e.entityName])).toEqual([
      ["route-rules.set", "route-rules", null, null],
      ["route-rules.set", "route-rules", null, null],
    ]);
  });

  it("clears the rules with an empty list", async () => {
    await putRules(RULES);
    await answerOf(putRules([]), 200, routeRulesAnswerSchema);
    expect((await getRules()).rules).toEqual([]);
    expect(t.runtime.policy.snapshot.routes.rules).toEqual([]);
  });

  it("refuses bad rules with every error by field, writing nothing", async () => {
    const res = await putRules([
      { method: "GET", pattern: "/a/" },
      { method: "POST", pattern: "/**/x", cost: 2_000_000 },
      { method: "PUT", pattern: "/b", unmetered: true, operation: "read" },
    ]);
    expect(res.status).toBe(400);
    expect((await res.json()).errors).toEqual({
      "rules.0.pattern": ['Pattern must not end with "/": add "**" to match below it'],
      "rules.1.pattern": ['"**" may only be the last segment'],
      "rules.1.cost": ["Cost must be a whole number from 1 to 1,000,000"],
      "rules.2.operation": ["An unmetered rule takes no class"],
    });
    expect((await getRules()).rules).toEqual([]);
    expect(changes()).toEqual([]);
  });

  it("refuses a class that does not exist, naming it and the classes there are", async () => {
    const res = await putRules([{ method: "POST", pattern: "/v1/exports", operation: "exports" }]);
    expect(res.status).toBe(400);
    expect((await res.json()).errors).toEqual({
      "rules.0.operation": ['Unknown class "exports": use one of read, write'],
    });
    expect(changes()).toEqual([]);
  });

  it("refuses a cross-origin save and an unsigned one", async () => {
    const crossSite = await putRules(RULES, { "sec-fetch-site": "cross-site" });
    expect(crossSite.status).toBe(403);
    const unsigned = await put(
      adminRequest("/api/admin/route-rules", { method: "PUT", body: { rules: RULES } }),
    );
    expect(unsigned.status).toBe(401);
    expect((await getRules()).rules).toEqual([]);
  });

  it("refuses a test without a method or path", async () => {
    const res = await tryPath(
      adminRequest("/api/admin/route-rules/test", { cookie, body: { method: "get", path: "x" } }),
    );
    expect(res.status).toBe(400);
    expect((await res.json()).errors).toEqual({
      method: ["Method must be an HTTP method in capitals, such as GET"],
      path: ['Path must start with "/"'],
    });
  });
});
