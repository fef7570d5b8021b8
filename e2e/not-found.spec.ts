import { E2E_ADMIN_PASSWORD } from "../playwright.config";
import { expect, test } from "./fixtures";

// Chromium logs a document answered 404 as a failed resource load: expected on these pages.
function dropExpected(consoleErrors: string[]): void {
  consoleErrors.splice(
    0,
    consoleErrors.length,
    ...consoleErrors.filter((e) => !/status of 404/.test(e)),
  );
}

test("a customer or plan that is not there answers 404, as a malformed id does", async ({
  page,
  admin,
  signIn,
  consoleErrors,
}) => {
  const plan = await admin.createPlan([{ operation: "read", count: 5, periodMs: 1_000 }]);
  const customer = await admin.createCustomer(plan.id);
  await signIn();
  // Regression: /customers/999 and /plans/999 answered 200 with the not-found page.
  for (const [path, status, title] of [
    ["/customers/abc", 404, "Customer not found"],
    ["/customers/999999", 404, "Customer not found"],
    ["/plans/abc", 404, "Plan not found"],
    ["/plans/999999", 404, "Plan not found"],
    [`/customers/${customer.id}`, 200, customer.name],
    [`/plans/${plan.id}`, 200, `Edit plan “${plan.name}”`],
  ] as const) {
    const answer = await page.goto(path);
    expect(answer?.status(), path).toBe(status);
    await expect(page.getByRole("heading", { level: 1, name: title }), path).toBeVisible();
  }
  // A customer deleted since: 404 too.
  expect((await admin.request.delete(`/api/admin/customers/${customer.id}`)).status()).toBe(204);
  expect((await page.goto(`/customers/${customer.id}`))?.status()).toBe(404);
  await expect(page.getByRole("heading", { level: 1, name: "Customer not found" })).toBeVisible();
  dropExpected(consoleErrors);
});

test("an unknown address gets the dashboard's not-found page, signed in or not", async ({
  page,
  browser,
  baseURL,
  signIn,
  consoleErrors,
}) => {
  await signIn();
  // Regression: Next's bare "404 | This page could not be found.", outside the dashboard.
  const answer = await page.goto("/nonexistent/page?x=1");
  expect(answer?.status()).toBe(404);
  await expect(page.getByRole("heading", { level: 1, name: "Page not found" })).toBeVisible();
  await expect(page.getByText("This page could not be found")).toHaveCount(0);
  await expect(page.getByRole("navigation", { name: "Main" })).toBeVisible();
  await page.getByRole("link", { name: "Go to the overview" }).click();
  await expect(page).toHaveURL(/\/overview$/);

  // Signed out: the same page, without the dashboard's menu, and a way to sign in.
  const context = await browser.newContext({ baseURL });
  const visitor = await context.newPage();
  try {
    const unknown = await visitor.goto("/nonexistent");
    expect(unknown?.status()).toBe(404);
    await expect(visitor.getByRole("heading", { level: 1, name: "Page not found" })).toBeVisible();
    await expect(visitor.getByRole("navigation", { name: "Main" })).toHaveCount(0);
    await visitor.getByRole("link", { name: "Sign in" }).click();
    await expect(visitor).toHaveURL(/\/login/);
    await visitor.getByLabel("Password").fill(E2E_ADMIN_PASSWORD);
    await visitor.getByRole("button", { name: "Sign in" }).click();
    await expect(visitor).toHaveURL(/\/overview$/);
  } finally {
    await context.close();
  }
  dropExpected(consoleErrors);
});

// Regression: Chromium's own /favicon.ico probe answered 404 and its console error failed
// whichever spec it happened in.
test("the browser's /favicon.ico probe finds the icon", async ({ admin }) => {
  const probe = await admin.request.get("/favicon.ico", { maxRedirects: 0 });
  expect(probe.status()).toBe(308);
  expect(probe.headers().location).toBe("/icon.svg");
  const icon = await admin.request.get("/favicon.ico");
  expect(icon.status()).toBe(200);
  expect(icon.headers()["content-type"]).toContain("image/svg+xml");
});
