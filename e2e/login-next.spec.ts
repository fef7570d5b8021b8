import { E2E_ADMIN_PASSWORD } from "../playwright.config";
import { expect, test } from "./fixtures";

// Regression: a signed-in operator sent to `/login?next=/%5Cevil.example` was redirected to
// `/\evil.example`, which browsers resolve to another host.
const HOSTILE = [
  "/%5Cevil.example",
  "/%09/evil.example",
  "//evil.example",
  "https://evil.example",
  "/%255Cevil.example",
  "%2F%2Fevil.example",
];

test("a signed-in operator sent to /login with a hostile next lands on the overview", async ({
  page,
  signIn,
}) => {
  await signIn();
  for (const next of HOSTILE) {
    await page.goto(`/login?next=${next}`);
    await expect(page, next).toHaveURL(/^http:\/\/127\.0\.0\.1:\d+\/overview$/);
  }
  await page.goto("/login?next=/plans");
  await expect(page).toHaveURL(/\/plans$/);
});

test("signing in through the form never follows a hostile next", async ({ page }) => {
  for (const next of [HOSTILE[0], HOSTILE[1], "/plans"]) {
    // Leave the dashboard first: signed out under it, its polling would go to /login itself.
    await page.goto("about:blank");
    await page.context().clearCookies();
    await page.goto(`/login?next=${next}`);
    await page.getByLabel("Password").fill(E2E_ADMIN_PASSWORD);
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page, next).toHaveURL(next === "/plans" ? /\/plans$/ : /\/overview$/);
  }
});

test("a signed-out deep link keeps its path and query through sign-in", async ({ page, admin }) => {
  const plan = await admin.createPlan([{ operation: "read", count: 5, periodMs: 1_000 }]);
  const deepLink = `/customers?q=acme&plan=${plan.id}`;
  await page.goto(deepLink);
  // Regression: the redirect went to a bare /login, and signing in landed on the overview.
  await expect(page).toHaveURL(/\/login\?next=/);
  expect(new URL(page.url()).searchParams.get("next")).toBe(deepLink);
  await page.getByLabel("Password").fill(E2E_ADMIN_PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(new RegExp(`/customers\\?q=acme&plan=${plan.id}$`));
  await expect(page.getByRole("searchbox", { name: "Search" })).toHaveValue("acme");
});

test("a session that ends under a page sends sign-in back to that page, query included", async ({
  page,
  signIn,
  consoleErrors,
}) => {
  await signIn();
  await page.goto("/audit?action=plan.create");
  await expect(page.getByRole("table", { name: "Audit log" })).toBeVisible();
  await page.context().clearCookies();
  // The next admin API call answers 401: the dashboard goes to sign in, keeping the address.
  await page.getByLabel("Action").selectOption({ label: "Plan deleted" });
  await expect(page).toHaveURL(/\/login\?next=/);
  expect(new URL(page.url()).searchParams.get("next")).toBe("/audit?action=plan.delete");
  await page.getByLabel("Password").fill(E2E_ADMIN_PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/audit\?action=plan\.delete$/);
  // Chromium logs the refused call (401) as a failed resource load: expected here.
  const unexpected = consoleErrors.filter((e) => !/status of 401/.test(e));
  consoleErrors.splice(0, consoleErrors.length, ...unexpected);
});
