import { expect, test } from "./fixtures";

test.describe("without a session", () => {
  for (const path of ["/overview", "/plans", "/customers"]) {
    test(`${path} redirects to the login page, which leads back to it`, async ({ page }) => {
      await page.goto(path);
      await expect(page).toHaveURL(new RegExp(`/login\\?next=${encodeURIComponent(path)}$`));
      await expect(page.getByLabel("Password")).toBeVisible();
    });
  }

  test("the admin API answers 401", async ({ playwright, baseURL }) => {
    const request = await playwright.request.newContext({ baseURL });
    try {
      const res = await request.get("/api/admin/plans");
      expect(res.status()).toBe(401);
      expect((await res.json()).title).toBe("Not signed in");
    } finally {
      await request.dispose();
    }
  });
});

test("a wrong password shows an error at the Password field and stays on /login", async ({
  page,
  consoleErrors,
}) => {
  await page.goto("/login");
  const password = page.getByLabel("Password");
  await password.fill("not-the-password");
  await page.getByRole("button", { name: "Sign in" }).click();

  await expect(password).toHaveAttribute("aria-invalid", "true");
  await expect(password).toHaveAccessibleDescription("Wrong password");
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByRole("button", { name: "Sign in" })).toBeEnabled();

  // Chromium logs the refused sign-in (401) as a failed resource load: expected here, and only here.
  const expected = /status of 401/;
  const unexpected = consoleErrors.filter((e) => !expected.test(e));
  consoleErrors.splice(0, consoleErrors.length, ...unexpected);
});

test("the sidebar says where the buckets are: in memory without REDIS_URL", async ({
  page,
  signIn,
}) => {
  await signIn();
  await expect(page.getByTestId("store-status")).toHaveText("Buckets in memory");
});
