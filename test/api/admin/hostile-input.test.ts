import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { GET as audit } from "@/app/api/admin/audit/route";
import { GET as inspect } from "@/app/api/admin/customers/[id]/inspect/route";
import { PATCH as patchCustomer } from "@/app/api/admin/customers/[id]/route";
import { POST as createCustomer, GET as listCustomers } from "@/app/api/admin/customers/route";
import { PATCH as patchPlan } from "@/app/api/admin/plans/[id]/route";
import { POST as createPlan, GET as listPlans } from "@/app/api/admin/plans/route";
import { POST as login, DELETE as logout, GET as whoami } from "@/app/api/admin/session/route";
import { GET as traffic } from "@/app/api/admin/traffic/route";
import { problemSchema } from "@/lib/schemas/problem.schema";
import { parsedAs } from "../../support/answer-schema";
import { createTestRuntime, type TestRuntime } from "../../support/runtime";
import { tableRows } from "../../support/tables";
import { adminRequest, params, signIn } from "./admin-support";

let t: TestRuntime;
let cookie: string;
beforeEach(async () => {
  t = createTestRuntime();
  cookie = await signIn();
});
afterEach(() => t.cleanup());

const PROTOTYPE_KEYS = ["__proto__", "constructor", "toString", "hasOwnProperty", "valueOf"];

/** expectProblem checks a 4xx problem body and that the database did not change. */
async function expectRefused(
  response: Response,
  status: number,
  before: Record<string, unknown[]>,
): Promise<Record<string, string[]>> {
  expect(response.status).toBe(status);
  expect(response.headers.get("content-type")).toBe("application/problem+json");
  const body = await response.json();
  expect(body).toMatchObject({ status, title: expect.any(String) });
  parsedAs(body, problemSchema);
  expect(tableRows(t.runtime)).toEqual(before);
  return body.errors;
}

describe("admin API: JSON keys named like built-in object members", () => {
  // Regression: `{"name":"x","planId":1,"toString":1}` was a 500 (the field-error map found the
  // inherited member); now it is a 400 naming the field, and nothing is written.
  it.each(PROTOTYPE_KEYS)("refuses %s as an unknown field with 400", async (key) => {
    const before = tableRows(t.runtime);
    const raw = (body: string) => ({ cookie, rawBody: body });
    const planId = t.planId("free");
    const calls = [
      createCustomer(
        adminRequest("/api/admin/customers", raw(`{"name":"x","planId":${planId},"${key}":1}`)),
      ),
      createPlan(adminRequest("/api/admin/plans", raw(`{"slug":"x","name":"x","${key}":1}`))),
      patchCustomer(
        adminRequest("/x", { method: "PATCH", ...raw(`{"name":"y","${key}":1}`) }),
        params({ id: String(t.demoId) }),
      ),
      patchPlan(
        adminRequest("/x", { method: "PATCH", ...raw(`{"name":"y","${key}":{"a":1}}`) }),
        params({ id: String(planId) }),
      ),
      login(adminRequest("/api/admin/session", { rawBody: `{"password":"x","${key}":1}` })),
    ];
    for (const response of await Promise.all(calls)) {
      const errors = await expectRefused(response, 400, before);
      expect(Object.keys(errors)).toEqual([key]);
      expect(errors[key]).toEqual(["Unknown field"]);
    }
  });
});

describe("admin API: malformed session cookies", () => {
  // Regression: a cookie value that is not valid percent-encoding threw in the cookie reader:
  // a 500 on every admin route, before any sign-in.
  it.each(["rk_session=%E0%A4%A", "rk_session=%", "a=%; rk_session=%zz"])(
    "counts %s as no session: 401",
    async (bad) => {
      const before = tableRows(t.runtime);
      const calls = [
        listPlans(adminRequest("/api/admin/plans", { cookie: bad })),
        listCustomers(adminRequest("/api/admin/customers", { cookie: bad })),
        inspect(adminRequest("/x", { cookie: bad }), params({ id: String(t.demoId) })),
        createPlan(
          adminRequest("/api/admin/plans", { cookie: bad, body: { slug: "x", name: "x" } }),
        ),
        whoami(adminRequest("/api/admin/session", { cookie: bad })),
      ];
      for (const response of await Promise.all(calls)) await expectRefused(response, 401, before);
      const out = await logout(
        adminRequest("/api/admin/session", { method: "DELETE", cookie: bad }),
      );
      expect(out.status).toBe(204);
      expect(tableRows(t.runtime)).toEqual(before);
    },
  );
});

describe("admin API: query parameters", () => {
  // Regression: `?limit=2.5` reached SQLite as a float ("datatype mismatch"): a 500.
  it.each([
    ["/api/admin/audit?limit=2.5", "limit"],
    ["/api/admin/audit?limit=abc", "limit"],
    ["/api/admin/audit?limit=0", "limit"],
    ["/api/admin/audit?limit=201", "limit"],
    ["/api/admin/audit?limit=1e2", "limit"],
    ["/api/admin/audit?limit=", "limit"],
    ["/api/admin/audit?limit=1&limit=2", "limit"],
    ["/api/admin/audit?before=-1", "before"],
    ["/api/admin/audit?before=", "before"],
    ["/api/admin/audit?before=99999999999999999", "before"],
    ["/api/admin/audit?page=2", "page"],
    ["/api/admin/audit?__proto__=1", "__proto__"],
  ])("GET %s is a 400 naming %s", async (url, field) => {
    const errors = await expectRefused(
      await audit(adminRequest(url, { cookie })),
      400,
      tableRows(t.runtime),
    );
    expect(Object.keys(errors)).toEqual([field]);
  });

  it.each([
    ["/api/admin/traffic?seconds=1.5", "seconds"],
    ["/api/admin/traffic?seconds=301", "seconds"],
    ["/api/admin/traffic?customerId=abc", "customerId"],
    ["/api/admin/traffic?customerId=0", "customerId"],
  ])("GET %s is a 400 naming %s", async (url, field) => {
    const response = await traffic(adminRequest(url, { cookie }));
    const errors = await expectRefused(response, 400, tableRows(t.runtime));
    expect(Object.keys(errors)).toEqual([field]);
  });

  it("still pages the audit log with good parameters", async () => {
    await createPlan(adminRequest("/api/admin/plans", { cookie, body: { slug: "a", name: "A" } }));
    await createPlan(adminRequest("/api/admin/plans", { cookie, body: { slug: "b", name: "B" } }));
    const page = await (await audit(adminRequest("/api/admin/audit?limit=1", { cookie }))).json();
    expect(page.entries).toHaveLength(1);
    const rest = await audit(
      adminRequest(`/api/admin/audit?limit=5&after=${page.next}`, { cookie }),
    );
    expect((await rest.json()).entries).toHaveLength(1);
    const span = await traffic(adminRequest("/api/admin/traffic?seconds=60", { cookie }));
    expect((await span.json()).seconds).toBe(60);
  });
});

describe("admin API: free text", () => {
  const bad = [
    ["a NUL first", "\u0000abc"],
    ["a NUL inside", "ab\u0000c"],
    ["a bell", "ab\u0007"],
    ["a line break inside", "two\nlines"],
    ["a C1 control", "a\u0085b"],
    ["a lone high surrogate", "a\ud800b"],
    ["a lone low surrogate", "\udc00ab"],
  ];

  // Regression: "\u0000abc" passed the schema and failed the database's CHECK: a 500; a lone
  // surrogate was stored as three replacement characters.
  it.each(bad)("refuses a customer or plan name with %s at the field", async (_, name) => {
    const before = tableRows(t.runtime);
    const planId = t.planId("free");
    const responses = [
      await createCustomer(
        adminRequest("/api/admin/customers", { cookie, body: { name, planId } }),
      ),
      await createPlan(adminRequest("/api/admin/plans", { cookie, body: { slug: "x", name } })),
      await patchCustomer(
        adminRequest("/x", { method: "PATCH", cookie, body: { name } }),
        params({ id: String(t.demoId) }),
      ),
      await patchPlan(
        adminRequest("/x", { method: "PATCH", cookie, body: { name } }),
        params({ id: String(planId) }),
      ),
    ];
    for (const response of responses) {
      const errors = await expectRefused(response, 400, before);
      expect(Object.keys(errors)).toEqual(["name"]);
    }
  });

  it("refuses control characters in a description but keeps its line breaks", async () => {
    const before = tableRows(t.runtime);
    const refused = await createPlan(
      adminRequest("/api/admin/plans", {
        cookie,
        body: { slug: "x", name: "X", description: "bad\u0000" },
      }),
    );
    expect(Object.keys(await expectRefused(refused, 400, before))).toEqual(["description"]);
    const kept = await createPlan(
      adminRequest("/api/admin/plans", {
        cookie,
        body: { slug: "x", name: "Ünïcödé 🚦 عربي", description: "line one\r\nline\ttwo" },
      }),
    );
    expect(kept.status).toBe(201);
    expect((await kept.json()).plan).toMatchObject({
      name: "Ünïcödé 🚦 عربي",
      description: "line one\r\nline\ttwo",
    });
  });
});

describe("admin API: JSON bodies", () => {
  // Regression: a key given twice was read as its last value, as a query parameter given twice
  // never was; now it is a 400 naming the field, and nothing is written.
  it("refuses a key given twice with 400 naming it, at any depth", async () => {
    const before = tableRows(t.runtime);
    const raw = (body: string) => ({ cookie, rawBody: body });
    const planId = t.planId("free");
    const limit = '{"operation":"read","count":1,"periodMs":1000,"count":100}';
    const cases: [Promise<Response>, string][] = [
      [
        createPlan(adminRequest("/x", raw(`{"slug":"x","name":"x","limits":[${limit}]}`))),
        "limits.0.count",
      ],
      [
        createCustomer(
          adminRequest("/x", raw(`{"name":"x","planId":${planId},"planId":${planId}}`)),
        ),
        "planId",
      ],
      [
        patchPlan(
          adminRequest("/x", { method: "PATCH", ...raw('{"name":"a","\\u006eame":"b"}') }),
          params({ id: String(planId) }),
        ),
        "name",
      ],
      [
        login(adminRequest("/x", { rawBody: '{"password":"test-password","password":"x"}' })),
        "password",
      ],
    ];
    for (const [call, field] of cases) {
      const errors = await expectRefused(await call, 400, before);
      expect(errors, field).toEqual({ [field]: ["Given more than once"] });
    }
  });

  // Regression: `charset=latin1` was accepted, and the body read as UTF-8 all the same.
  it("refuses a body declared in a charset other than UTF-8 with 415, saying to send UTF-8", async () => {
    const before = tableRows(t.runtime);
    const post = (contentType: string) =>
      createPlan(
        new Request("http://test/api/admin/plans", {
          method: "POST",
          headers: { cookie, "content-type": contentType },
          body: '{"slug":"x","name":"x"}',
        }),
      );
    const refused = await post("application/json; charset=latin1");
    expect(refused.status).toBe(415);
    expect((await refused.json()).detail).toBe(
      "Send the body in UTF-8: Content-Type: application/json, with no charset or charset=utf-8.",
    );
    expect(tableRows(t.runtime)).toEqual(before);
    expect((await post("application/json; charset=UTF-8")).status).toBe(201);
  });
});
