import { expect, test, unique } from "./fixtures";

// Chromium logs an API answer of 404 as a failed resource load: expected where a page asks for
// a customer or plan that is not there.
function dropExpected(consoleErrors: string[], expected: RegExp): void {
  consoleErrors.splice(0, consoleErrors.length, ...consoleErrors.filter((e) => !expected.test(e)));
}

test("the service tokens page and the audit log write the same time the same way", async ({
  page,
  admin,
  signIn,
}) => {
  const name = unique("dated-service");
  const res = await admin.request.post("/api/admin/service-tokens", {
    data: { name, scopes: ["decide"] },
  });
  expect(res.status()).toBe(201);
  await signIn();
  await page.goto("/service-tokens");
  const created = page.getByRole("row").filter({ hasText: name }).locator("time").first();
  // Regression: "5/20/2026, 2:03:05 PM" here and "20 May 2026, 14:03:05 UTC" in the audit log.
  await expect(created).toHaveText(/^\d{1,2} \w{3} \d{4}, \d{2}:\d{2}:\d{2} UTC([+-]\d\d:\d\d)?$/);
  const written = await created.textContent();
  await page.goto("/audit?action=service-token.create");
  const entry = page.getByRole("table", { name: "Audit log" }).locator("tbody tr").filter({
    hasText: name,
  });
  await expect(entry.locator("time")).toHaveText(written ?? "");
});

test("a malformed customer or plan id gets the dashboard's not-found page, as an unknown one does", async ({
  page,
  signIn,
  consoleErrors,
}) => {
  await signIn();
  for (const [path, title, back] of [
    ["/customers/abc", "Customer not found", "Back to customers"],
    ["/customers/99999999", "Customer not found", "Back to customers"],
    ["/plans/abc", "Plan not found", "Back to plans"],
    ["/plans/99999999", "Plan not found", "Back to plans"],
  ] as const) {
    await page.goto(path);
    // Regression: /customers/abc showed Next's bare "404 | This page could not be found."
    await expect(page.getByRole("heading", { level: 1, name: title }), path).toBeVisible();
    await expect(page.getByText("This page could not be found")).toHaveCount(0);
    await expect(page.getByRole("navigation", { name: "Main" })).toBeVisible();
    await page.getByRole("link", { name: back }).click();
    await expect(page).toHaveURL(new RegExp(`${path.split("/")[1]}$`));
  }
  dropExpected(consoleErrors, /status of 404/);
});

test("a count of one reads in the singular: 1 token taken", async ({
  page,
  request,
  admin,
  signIn,
}) => {
  const plan = await admin.createPlan([{ operation: "read", count: 5, periodMs: 1_000 }]);
  const customer = await admin.createCustomer(plan.id, unique("Single"));
  const read = await request.get("/api/v1/items", {
    headers: { authorization: `Bearer ${customer.apiKey}` },
  });
  expect(read.status()).toBe(200);
  await signIn();
  await page.goto(`/customers/${customer.id}`);
  // Regression: "1 allowed, 0 denied, 1 tokens taken". The rollups flush every 500 ms here.
  await expect(page.getByTestId("usage-read-totals")).toContainText(
    "1 allowed, 0 denied, 1 token taken",
    { timeout: 20_000 },
  );
  await page.goto("/plans");
  await expect(page.getByRole("link", { name: `1 customer on ${plan.name}` })).toBeVisible();
});
