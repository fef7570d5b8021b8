import type { Page } from "@playwright/test";
import { E2E_ADMIN_PASSWORD } from "../playwright.config";
import { expect, horizontalOverflow, seriousViolations, test, unique } from "./fixtures";

// Every page of the dashboard at a phone's, a tablet's and a laptop's size, and in the dark
// theme: nothing wider than the viewport, and no serious or critical axe violation. One spec
// visits them all per screen, so the suite stays fast.

const SCREENS = [
  { name: "phone", width: 390, height: 844, colorScheme: "light" },
  { name: "tablet", width: 820, height: 1180, colorScheme: "light" },
  { name: "laptop", width: 1440, height: 900, colorScheme: "light" },
  { name: "laptop, dark theme", width: 1440, height: 900, colorScheme: "dark" },
] as const;

/** ready waits until a page has drawn its data (no spinner left, its heading shown). */
async function ready(page: Page, heading: string | RegExp) {
  await expect(page.getByRole("heading", { level: 1, name: heading })).toBeVisible();
  await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
  await expect(page.locator(".spinner")).toHaveCount(0);
}

for (const screen of SCREENS) {
  test(`every page fits a ${screen.name} (${screen.width}×${screen.height}) and passes axe`, async ({
    browser,
    admin,
    baseURL,
  }) => {
    // Eighteen pages, each checked by axe, plus two results: about a minute per screen on two
    // busy cores, past the default budget of one test.
    test.setTimeout(180_000);
    // A dry-run limit and some traffic, so the usage views and the dry-run report have data.
    const plan = await admin.createPlan(
      [
        { operation: "read", count: 10, periodMs: 1_000 },
        { operation: "read", count: 2, periodMs: 3_600_000, dryRun: true },
        { operation: "write", count: 2, periodMs: 1_000 },
      ],
      unique("Screens"),
    );
    const customer = await admin.createCustomer(plan.id, unique("Screen customer"));
    for (let i = 0; i < 3; i++) {
      const read = await admin.request.get("/api/v1/items", {
        headers: { authorization: `Bearer ${customer.apiKey}` },
      });
      expect(read.status()).toBe(200);
    }
    await admin.request.post(`/api/admin/customers/${customer.id}/reset`);
    const token = await admin.request.post("/api/admin/service-tokens", {
      data: { name: unique("screen-service"), scopes: ["decide", "peek"] },
    });
    expect(token.status()).toBe(201);
    const context = await browser.newContext({
      baseURL,
      viewport: { width: screen.width, height: screen.height },
      colorScheme: screen.colorScheme,
    });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    try {
      await page.goto("/login");
      await expect(page.getByLabel("Password")).toBeVisible();
      expect(await seriousViolations(page), "/login").toEqual([]);
      expect(await horizontalOverflow(page), "/login").toBeLessThanOrEqual(0);
      await page.getByLabel("Password").fill(E2E_ADMIN_PASSWORD);
      await page.getByRole("button", { name: "Sign in" }).click();
      await expect(page).toHaveURL(/\/overview$/);

      const pages: [string, string | RegExp][] = [
        ["/overview", "Overview"],
        ["/overview?range=1h", "Overview"],
        ["/overview?range=24h", "Overview"],
        ["/overview?range=7d", "Overview"],
        ["/overview?range=30d", "Overview"],
        ["/plans", "Plans"],
        [`/plans/${plan.id}`, /^Edit plan/],
        [`/plans/${plan.id}?range=7d`, /^Edit plan/],
        ["/plans/new", "New plan"],
        ["/customers", "Customers"],
        [`/customers?q=${encodeURIComponent(customer.name)}`, "Customers"],
        [`/customers/${customer.id}`, customer.name],
        [`/customers/${customer.id}?range=30d`, customer.name],
        ["/customers/abc", "Customer not found"],
        ["/nonexistent", "Page not found"],
        ["/classes", "Operation classes"],
        ["/service-tokens", "Service tokens"],
        ["/routes", "Gateway routes"],
        ["/simulator", "Simulator"],
        ["/audit", "Audit log"],
      ];
      for (const [path, heading] of pages) {
        await page.goto(path);
        await ready(page, heading);
        expect(
          await horizontalOverflow(page),
          `${path} is wider than the screen`,
        ).toBeLessThanOrEqual(0);
        expect(await seriousViolations(page), `axe on ${path}`).toEqual([]);
      }

      // The dry-run report, once the rollups have its refusal, fits too.
      await page.goto(`/plans/${plan.id}`);
      await expect(page.getByTestId("dry-run-verdict")).toContainText("would have refused", {
        timeout: 20_000,
      });
      expect(await horizontalOverflow(page), "the dry-run report").toBeLessThanOrEqual(0);
      expect(await seriousViolations(page), "axe on the dry-run report").toEqual([]);

      // The simulator's result (a chart, and a dry-run limit's report) fits too.
      await page.goto("/simulator");
      await page.getByRole("button", { name: "+ Add limit" }).click();
      await page.getByLabel("Count for limit 2").fill("5");
      await page.getByLabel("Dry run for limit 2").check();
      await page.getByRole("button", { name: "Simulate" }).click();
      await expect(page.getByTestId("sim-dry-run-total")).toBeVisible();
      await expect(page.getByTestId("sim-requests")).toBeVisible();
      expect(await horizontalOverflow(page), "simulator result").toBeLessThanOrEqual(0);
      expect(await seriousViolations(page), "axe on the simulator's result").toEqual([]);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
}
