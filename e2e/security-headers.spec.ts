import type { Page } from "@playwright/test";
import { expect, test, unique } from "./fixtures";

/** nonceOf reads the script nonce out of a Content-Security-Policy header. */
function nonceOf(csp: string | undefined): string {
  const nonce = /'nonce-([A-Za-z0-9+/=_-]+)'/.exec(csp ?? "")?.[1];
  expect(nonce, `a nonce in ${csp}`).toBeTruthy();
  return nonce as string;
}

/** expectSecurityHeaders checks the headers every answer carries, and returns the CSP. */
function expectSecurityHeaders(headers: Record<string, string>, what: string): string {
  const csp = headers["content-security-policy"] ?? "";
  const scriptSrc = csp.split(";").find((d) => d.trim().startsWith("script-src")) ?? "";
  expect(scriptSrc, what).toContain("'strict-dynamic'");
  expect(scriptSrc, what).not.toContain("unsafe-inline");
  expect(scriptSrc, what).not.toContain("unsafe-eval");
  for (const directive of [
    "default-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ])
    expect(csp, what).toContain(directive);
  expect(headers["x-frame-options"], what).toBe("DENY");
  expect(headers["x-content-type-options"], what).toBe("nosniff");
  expect(headers["referrer-policy"], what).toBe("no-referrer");
  expect(headers["permissions-policy"], what).toContain("camera=()");
  expect(headers["strict-transport-security"], what).toBeUndefined();
  return csp;
}

/** recordViolations collects the page's CSP violation reports in window.__cspViolations. */
async function recordViolations(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const w = window as unknown as { __cspViolations: string[] };
    w.__cspViolations = [];
    document.addEventListener("securitypolicyviolation", (e) =>
      w.__cspViolations.push(`${e.effectiveDirective} ${e.blockedURI}`),
    );
  });
}

const violations = (page: Page) =>
  page.evaluate(() => (window as unknown as { __cspViolations: string[] }).__cspViolations);

test("every page and API answer carries the security headers, each page its own nonce", async ({
  request,
}) => {
  const login = await request.get("/login");
  expect(login.status()).toBe(200);
  const csp = expectSecurityHeaders(login.headers(), "GET /login");
  const again = await request.get("/login");
  expect(nonceOf(again.headers()["content-security-policy"])).not.toBe(nonceOf(csp));

  for (const path of ["/api/health", "/api/admin/plans", "/api/v1/items", "/no-such-page"]) {
    const res = await request.get(path);
    expectSecurityHeaders(res.headers(), `GET ${path} (${res.status()})`);
  }
  const refused = await request.post("/api/admin/plans", { data: { slug: "x", name: "x" } });
  expect(refused.status()).toBe(401);
  expectSecurityHeaders(refused.headers(), "POST /api/admin/plans");
});

test("Next puts the response's nonce on every script it renders", async ({ request }) => {
  for (const path of ["/login", "/no-such-page"]) {
    const res = await request.get(path);
    const nonce = nonceOf(res.headers()["content-security-policy"]);
    const scripts = (await res.text()).match(/<script\b[^>]*>/g) ?? [];
    expect(scripts.length, path).toBeGreaterThan(3);
    for (const tag of scripts) expect(tag, path).toContain(`nonce="${nonce}"`);
  }
});

test("the dashboard runs under the CSP with nothing refused", async ({ page, admin, signIn }) => {
  const plan = await admin.createPlan([{ operation: "read", count: 5, periodMs: 10_000 }]);
  const customer = await admin.createCustomer(plan.id, unique("Csp"));
  await recordViolations(page);
  await signIn();
  const pages: [string, string][] = [
    ["/overview", "Overview"],
    ["/plans", "Plans"],
    [`/plans/${plan.id}`, `Edit plan “${plan.name}”`],
    ["/customers", "Customers"],
    [`/customers/${customer.id}`, customer.name],
    ["/simulator", "Simulator"],
    ["/audit", "Audit log"],
  ];
  for (const [path, heading] of pages) {
    const response = await page.goto(path);
    expectSecurityHeaders(response?.headers() ?? {}, path);
    await expect(page.getByRole("heading", { level: 1, name: heading })).toBeVisible();
    expect(await violations(page), path).toEqual([]);
  }
  // Client-side navigation loads more chunks (allowed by 'strict-dynamic'): still nothing refused.
  await page.getByRole("link", { name: "Plans", exact: true }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Plans" })).toBeVisible();
  expect(await violations(page)).toEqual([]);
});

test("the CSP refuses injected script, foreign images and framing, and says so", async ({
  page,
  consoleErrors,
}) => {
  await recordViolations(page);
  await page.goto("/login");
  // What an HTML injection would try: an inline event handler and a beacon to another host.
  await page.evaluate(() => {
    document.body.insertAdjacentHTML(
      "beforeend",
      '<img src="/icon.svg" onload="window.__injected = true"><img src="http://evil.example/p.png">',
    );
  });
  await expect
    .poll(async () => (await violations(page)).sort())
    .toEqual(["img-src http://evil.example/p.png", "script-src-attr inline"]);
  await expect.poll(() => page.evaluate(() => document.images[0]?.complete)).toBe(true);
  expect(await page.evaluate(() => "__injected" in window)).toBe(false);

  // Another page may not frame the dashboard (clickjacking): the browser shows its error page.
  const loginUrl = page.url();
  await page.goto("about:blank");
  await page.setContent(`<iframe title="framed" src="${loginUrl}"></iframe>`);
  await expect
    .poll(() => page.frames().map((frame) => frame.url()))
    .toEqual(["about:blank", "chrome-error://chromewebdata/"]);
  await expect(page.frameLocator("iframe").getByLabel("Password")).toHaveCount(0);

  // The browser reported each refusal on the console, which fails any other spec (the fixture).
  expect(consoleErrors.some((e) => e.includes("Content Security Policy"))).toBe(true);
  const expected = /Content Security Policy/;
  const unexpected = consoleErrors.filter((e) => !expected.test(e));
  consoleErrors.splice(0, consoleErrors.length, ...unexpected);
});
