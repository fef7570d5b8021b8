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
