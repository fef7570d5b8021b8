import { expect, pick, test, unique } from "./fixtures";

test("the audit log names actions, customers and zones, and filters and pages on the server", async ({
  page,
  admin,
  signIn,
}) => {
  const plan = await admin.createPlan([{ operation: "read", count: 5, periodMs: 60_000 }]);
  const customer = await admin.createCustomer(plan.id, unique("Audited"));
  await admin.request.get("/api/v1/items", {
    headers: { Authorization: `Bearer ${customer.apiKey}` },
  });
  expect((await admin.request.post(`/api/admin/customers/${customer.id}/reset`)).status()).toBe(
    200,
  );
  await admin.request.patch(`/api/admin/customers/${customer.id}`, {
    data: { status: "suspended" },
  });
  await signIn();
  await page.goto("/audit");

  await pick(page, "Customer", customer.name);
  await expect(page).toHaveURL(new RegExp(`customer=${customer.id}`));
  const rows = page.getByRole("table", { name: "Audit log" }).locator("tbody tr");
  await expect(rows).toHaveCount(3);
  // Regression: "customer.reset-buckets", "customer #2", "buckets 1 → 0", times without a zone.
  const reset = rows.filter({ hasText: "Buckets reset" });
  await expect(reset).toHaveCount(1);
  await expect(reset).toContainText(customer.name);
  await expect(reset).toContainText("1 bucket cleared");
  await expect(reset).not.toContainText("customer.reset-buckets");
  await expect(reset).not.toContainText("→");
  await expect(reset.locator("time")).toHaveText(
    /^\d{1,2} \w{3} \d{4}, \d{2}:\d{2}:\d{2} UTC([+-]\d\d:\d\d)?$/,
  );
  await expect(rows.nth(0)).toContainText("Customer suspended");

  await page.getByLabel("Action").selectOption({ label: "Buckets reset" });
  await expect(page).toHaveURL(/action=customer.reset-buckets/);
  await expect(rows).toHaveCount(1);

  // Paging: two at a time, older and newer, through the server's cursors.
  await page.goto(`/audit?customer=${customer.id}&limit=2`);
  await expect(rows).toHaveCount(2);
  await expect(rows.nth(0)).toContainText("Customer suspended");
  await expect(page.getByRole("button", { name: "← Newer" })).toBeDisabled();
  await page.getByRole("button", { name: "Older →" }).click();
  await expect(rows).toHaveCount(1);
  await expect(rows.nth(0)).toContainText("Customer created");
  await page.getByRole("button", { name: "← Newer" }).click();
  await expect(rows.nth(0)).toContainText("Customer suspended");
  await expect(page.getByText("2 shown of 3 changes")).toBeVisible();
});

test("the audit API refuses a bad filter with field errors", async ({ admin }) => {
  const res = await admin.request.get("/api/admin/audit?action=nope&from=yesterday");
  expect(res.status()).toBe(400);
  const body = await res.json();
  expect(Object.keys(body.errors).sort()).toEqual(["action", "from"]);
});

test("the audit log names dry-run limits as dry-run, never as new enforced ones", async ({
  page,
  admin,
  signIn,
}) => {
  const plan = await admin.createPlan([{ operation: "read", count: 3, periodMs: 1_000 }]);
  const res = await admin.request.patch(`/api/admin/plans/${plan.id}`, {
    data: {
      limits: [
        { operation: "read", count: 3, periodMs: 1_000 },
        { operation: "read", count: 2, periodMs: 1_000, dryRun: true },
      ],
    },
  });
  expect(res.status(), await res.text()).toBe(200);
  const tried = await admin.createPlan([
    { operation: "read", count: 5, periodMs: 1_000, dryRun: true },
  ]);
  await signIn();
  const rows = page.getByRole("table", { name: "Audit log" }).locator("tbody tr");

  // Regression: "read: 3 per second → read: 2 per second, 3 per second".
  await page.goto("/audit?action=plan.update");
  const update = rows.filter({ hasText: plan.name });
  await expect(update).toHaveCount(1);
  await expect(update.locator("ins")).toHaveText("read: 3 per second; dry run: 2 per second");
  await expect(update.locator("del")).toHaveText("read: 3 per second");

  // Regression: a plan with only a dry-run limit read "read: 5 per second".
  await page.goto("/audit?action=plan.create");
  const created = rows.filter({ hasText: tried.name });
  await expect(created.locator("li").filter({ hasText: "limits" })).toContainText(
    "read: unlimited; dry run: 5 per second",
  );
});
