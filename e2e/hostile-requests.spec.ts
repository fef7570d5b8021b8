import type { APIResponse } from "@playwright/test";
import { E2E_ADMIN_PASSWORD } from "../playwright.config";
import { expect, test, unique } from "./fixtures";

/** expectProblem checks an RFC 9457 problem body with that status. */
async function expectProblem(res: APIResponse, status: number, what: string) {
  expect(res.status(), what).toBe(status);
  expect(res.headers()["content-type"], what).toBe("application/problem+json");
  expect(await res.json(), what).toMatchObject({ status, title: expect.any(String) });
}

// Regression: Next's router threw on these before any handler ran: a plain-text 500.
test("malformed path encodings get a 400 problem before routing", async ({ request }) => {
  const calls: [string, string][] = [
    ["GET", "/api/admin/plans/%E0%A4%A"],
    ["DELETE", "/api/v1/items/%"],
    ["GET", "/api/v1/items/%C0%AF"],
    ["PATCH", "/api/admin/customers/%FF/overrides/read"],
    ["GET", "/customers/%"],
    ["GET", "/%E0%A4%A"],
  ];
  for (const [method, path] of calls) {
    const res = await request.fetch(path, { method });
    await expectProblem(res, 400, `${method} ${path}`);
    expect((await res.json()).title).toBe("Malformed request path");
  }
  // Well-formed encodings still route: an id that is not a number is simply not found.
  const signedOut = await request.get("/api/admin/plans/%E2%9C%93");
  await expectProblem(signedOut, 401, "a well-formed encoding");
});

// Regression: `rk_session=%E0%A4%A` was a 500 on every admin route, without signing in.
test("a malformed session cookie counts as no session, on the API and on pages", async ({
  request,
  page,
  baseURL,
}) => {
  for (const cookie of ["rk_session=%E0%A4%A", "rk_session=%"]) {
    await expectProblem(
      await request.get("/api/admin/plans", { headers: { cookie } }),
      401,
      cookie,
    );
    await expectProblem(
      await request.get("/api/admin/session", { headers: { cookie } }),
      401,
      cookie,
    );
  }
  await page.context().addCookies([{ name: "rk_session", value: "%E0%A4%A", url: baseURL }]);
  await page.goto("/overview");
  await expect(page).toHaveURL(/\/login\?next=%2Foverview$/);
  await expect(page.getByLabel("Password")).toBeVisible();
});

// Regression: `?limit=1.5` reached SQLite as a float: a 500, after a read token was spent.
test("bad query parameters get a 400 naming the field and cost no token", async ({
  admin,
  request,
}) => {
  const plan = await admin.createPlan([{ operation: "read", count: 2, periodMs: 60_000 }]);
  const { apiKey } = await admin.createCustomer(plan.id);
  const headers = { authorization: `Bearer ${apiKey}` };
  for (const query of ["limit=1.5", "limit=abc", "after=-1", "after=", "limit=1&limit=2"]) {
    const res = await request.get(`/api/v1/items?${query}`, { headers });
    await expectProblem(res, 400, query);
    expect(Object.keys((await res.json()).errors), query).toHaveLength(1);
    expect(res.headers().ratelimit, query).toBe('"read-2-per-1m";r=2;t=0');
  }
  const audit = await admin.request.get("/api/admin/audit?limit=2.5");
  await expectProblem(audit, 400, "audit limit=2.5");
  expect((await audit.json()).errors).toHaveProperty("limit");
  // Both tokens are still there.
  expect((await request.get("/api/v1/items?limit=1", { headers })).status()).toBe(200);
  expect((await request.get("/api/v1/items", { headers })).status()).toBe(200);
  expect((await request.get("/api/v1/items", { headers })).status()).toBe(429);
});

test.describe("admin writes from other sites", () => {
  // Regression: a PATCH with a valid session and `Origin: http://evil.example` succeeded.
  test("a cross-origin PATCH with a valid session is refused with 403 and changes nothing", async ({
    admin,
  }) => {
    const plan = await admin.createPlan([{ operation: "read", count: 5, periodMs: 1_000 }]);
    const attempts: Record<string, string>[] = [
      { origin: "http://evil.example" },
      { "sec-fetch-site": "cross-site" },
      { "sec-fetch-site": "same-site" },
    ];
    for (const headers of attempts) {
      const res = await admin.request.patch(`/api/admin/plans/${plan.id}`, {
        headers,
        data: { name: "Pwned" },
      });
      await expectProblem(res, 403, JSON.stringify(headers));
    }
    const after = await admin.request.get(`/api/admin/plans/${plan.id}`);
    expect((await after.json()).plan.name).toBe(plan.name);
  });

  // Regression: a text/plain POST (no preflight from another site) created a plan.
  test("a text/plain POST is refused with 415 and creates no plan", async ({ admin }) => {
    const slug = unique("plain").toLowerCase();
    const res = await admin.request.post("/api/admin/plans", {
      headers: { "content-type": "text/plain" },
      data: JSON.stringify({ slug, name: slug }),
    });
    await expectProblem(res, 415, "text/plain");
    const { plans } = await (await admin.request.get("/api/admin/plans")).json();
    expect(plans.map((p: { slug: string }) => p.slug)).not.toContain(slug);
  });

  test("the same write from a script (no Origin) or from this origin works", async ({
    admin,
    baseURL,
  }) => {
    const plan = await admin.createPlan([{ operation: "read", count: 5, periodMs: 1_000 }]);
    const script = await admin.request.patch(`/api/admin/plans/${plan.id}`, {
      data: { name: `${plan.name} (script)` },
    });
    expect(script.status()).toBe(200);
    const sameOrigin = await admin.request.patch(`/api/admin/plans/${plan.id}`, {
      headers: { origin: baseURL as string },
      data: { name: `${plan.name} (same origin)` },
    });
    expect(sameOrigin.status()).toBe(200);
    expect((await sameOrigin.json()).plan.name).toBe(`${plan.name} (same origin)`);
  });

  test("sign-in from another site sets no session", async ({ request }) => {
    const res = await request.post("/api/admin/session", {
      headers: { origin: "http://evil.example" },
      data: { password: E2E_ADMIN_PASSWORD },
    });
    await expectProblem(res, 403, "cross-site sign-in");
    expect(res.headers()["set-cookie"]).toBeUndefined();
  });
});
