import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { POST as reset } from "@/app/api/admin/customers/[id]/reset/route";
import { POST as rotate } from "@/app/api/admin/customers/[id]/rotate-key/route";
import { PATCH as patchCustomer } from "@/app/api/admin/customers/[id]/route";
import { PATCH as patchPlan } from "@/app/api/admin/plans/[id]/route";
import { POST as createPlan, GET as listPlans } from "@/app/api/admin/plans/route";
import { POST as login, DELETE as logout, GET as whoami } from "@/app/api/admin/session/route";
import { createTestRuntime, type TestRuntime } from "../../support/runtime";
import { tableRows } from "../../support/tables";
import { params, signIn } from "./admin-support";

let t: TestRuntime;
let cookie: string;
beforeEach(async () => {
  t = createTestRuntime();
  cookie = await signIn();
});
afterEach(() => t.cleanup());

/** write builds an admin state change with exactly the headers given (plus the body). */
function write(
  method: string,
  headers: Record<string, string>,
  body?: unknown,
  pathname = "/api/admin/x",
): Request {
  return new Request(`http://127.0.0.1:3000${pathname}`, {
    method,
    headers: { host: "127.0.0.1:3000", ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

const JSON_TYPE = { "content-type": "application/json" };

describe("admin writes from other sites", () => {
  // Regression: a PATCH with a valid session and `Origin: http://evil.example` succeeded.
  it("refuses a cross-origin PATCH with a valid session: 403, nothing changes", async () => {
    const before = tableRows(t.runtime);
    const planId = t.planId("free");
    const attempts = [
      patchPlan(
        write("PATCH", { cookie, ...JSON_TYPE, origin: "http://evil.example" }, { name: "Pwned" }),
        params({ id: String(planId) }),
      ),
      patchPlan(
        write("PATCH", { cookie, ...JSON_TYPE, "sec-fetch-site": "cross-site" }, { name: "Pwned" }),
        params({ id: String(planId) }),
      ),
      // A sibling subdomain is same-site, which SameSite=Lax lets the cookie through for.
      patchCustomer(
        write("PATCH", { cookie, ...JSON_TYPE, "sec-fetch-site": "same-site" }, { name: "Pwned" }),
        params({ id: String(t.demoId) }),
      ),
      // Another port of the same host is another origin.
      rotate(
        write("POST", { cookie, origin: "http://127.0.0.1:4000" }),
        params({ id: String(t.demoId) }),
      ),
      reset(write("POST", { cookie, origin: "null" }), params({ id: String(t.demoId) })),
    ];
    for (const response of await Promise.all(attempts)) {
      expect(response.status).toBe(403);
      expect(response.headers.get("content-type")).toBe("application/problem+json");
    }
    expect(tableRows(t.runtime)).toEqual(before);
  });

  // Regression: a `text/plain` POST (which a browser sends to another site without a
  // preflight) created a plan.
  it("refuses a text/plain POST with 415 and creates no plan", async () => {
    const before = tableRows(t.runtime);
    const body = JSON.stringify({ slug: "pwned", name: "Pwned" });
    for (const type of ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data"]) {
      const response = await createPlan(
        new Request("http://127.0.0.1:3000/api/admin/plans", {
          method: "POST",
          headers: { cookie, "content-type": type },
          body,
        }),
      );
      expect(response.status, type).toBe(415);
      expect((await response.json()).title).toBe("Unsupported media type");
    }
    expect(tableRows(t.runtime)).toEqual(before);
  });

  it("lets the same write through from a script (no Origin) and from the dashboard", async () => {
    const planId = t.planId("free");
    const script = await patchPlan(
      write("PATCH", { cookie, ...JSON_TYPE }, { name: "From a script" }),
      params({ id: String(planId) }),
    );
    expect(script.status).toBe(200);
    expect((await script.json()).plan.name).toBe("From a script");
    const page = await patchPlan(
      write(
        "PATCH",
        { cookie, ...JSON_TYPE, "sec-fetch-site": "same-origin", origin: "http://127.0.0.1:3000" },
        { name: "From the dashboard" },
      ),
      params({ id: String(planId) }),
    );
    expect(page.status).toBe(200);
    const oldBrowser = await createPlan(
      write(
        "POST",
        { cookie, ...JSON_TYPE, origin: "http://127.0.0.1:3000" },
        { slug: "ok", name: "Ok" },
      ),
    );
    expect(oldBrowser.status).toBe(201);
    const bodiless = await rotate(
      write("POST", { cookie, "content-length": "0" }),
      params({ id: String(t.demoId) }),
    );
    expect(bodiless.status).toBe(200);
  });

  it("still needs a session: the guard only refuses, it never admits", async () => {
    const response = await createPlan(write("POST", JSON_TYPE, { slug: "x", name: "X" }));
    expect(response.status).toBe(401);
    expect((await listPlans(write("GET", { origin: "http://evil.example", cookie }))).status).toBe(
      200,
    );
  });
});

describe("signing in and out from other sites", () => {
  it("refuses a cross-site sign-in (no cookie set) and a text/plain one", async () => {
    const crossSite = await login(
      write(
        "POST",
        { ...JSON_TYPE, "sec-fetch-site": "cross-site" },
        { password: "test-password" },
        "/api/admin/session",
      ),
    );
    expect(crossSite.status).toBe(403);
    expect(crossSite.headers.get("set-cookie")).toBeNull();
    const plain = await login(
      new Request("http://127.0.0.1:3000/api/admin/session", {
        method: "POST",
        headers: { "content-type": "text/plain" },
        body: JSON.stringify({ password: "test-password" }),
      }),
    );
    expect(plain.status).toBe(415);
    expect(plain.headers.get("set-cookie")).toBeNull();
  });

  it("refuses a cross-site sign-out: the session lives on", async () => {
    const out = await logout(write("DELETE", { cookie, origin: "http://evil.example" }));
    expect(out.status).toBe(403);
    expect((await whoami(write("GET", { cookie }))).status).toBe(200);
    expect(
      (await logout(write("DELETE", { cookie, "sec-fetch-site": "same-origin" }))).status,
    ).toBe(204);
    expect((await whoami(write("GET", { cookie }))).status).toBe(401);
  });
});
