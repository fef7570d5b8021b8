import { expect, test, unique } from "./fixtures";

test("a plan with customers cannot be deleted from its dialog, which leads to them", async ({
  page,
  admin,
  signIn,
}) => {
  const plan = await admin.createPlan(
    [{ operation: "read", count: 5, periodMs: 1_000 }],
    unique("Busy"),
  );
  const customer = await admin.createCustomer(plan.id, unique("On busy"));
  const deletes: string[] = [];
  page.on("request", (r) => {
    if (r.method() === "DELETE") deletes.push(r.url());
  });
  await signIn();
  await page.goto(`/plans?q=${encodeURIComponent(plan.name)}`);
  await page.getByRole("button", { name: `Delete ${plan.name}` }).click();
  const dialog = page.getByRole("dialog", { name: `Delete plan “${plan.name}”?` });
  await expect(dialog).toContainText("1 customer is on this plan, so it cannot be deleted");
  // Regression: "Delete plan" stayed active and failed with a 409.
  await expect(dialog.getByRole("button", { name: "Delete plan" })).toBeDisabled();
  await dialog.getByRole("link", { name: "See its customers" }).click();
  await expect(page).toHaveURL(new RegExp(`/customers\\?plan=${plan.id}$`));
  const rows = page.getByRole("table", { name: "Customers" }).locator("tbody tr");
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText(customer.name);
  expect(deletes).toEqual([]);
});

test("the plan editor's words never call an invalid limit unlimited", async ({
  page,
  admin,
  signIn,
}) => {
  const plan = await admin.createPlan([
    { operation: "read", count: 10, periodMs: 1_000 },
    { operation: "write", count: 2, periodMs: 1_000 },
  ]);
  await signIn();
  await page.goto(`/plans/${plan.id}`);
  const reads = page.getByTestId("words-read");
  await expect(reads).toHaveText("10 per second");
  // Regression: with its only read limit at 0 it read "Reads: unlimited".
  await page.getByLabel("Count for limit 1").fill("0");
  await page.getByRole("button", { name: "Save changes" }).click();
  await expect(page.getByLabel("Count for limit 1")).toHaveAccessibleDescription(
    "Count must be at least 1",
  );
  await expect(reads).toHaveText("not valid yet: fix limit 1");
  await expect(page.getByTestId("words-write")).toHaveText("2 per second");
});

test("the plans list narrows as a name or slug is typed", async ({ page, admin, signIn }) => {
  const tag = unique("Narrow");
  await admin.createPlan([], `${tag} One`);
  await admin.createPlan([], `${tag} Two`);
  await signIn();
  await page.goto("/plans");
  await page.getByRole("searchbox", { name: "Search" }).fill(`${tag} t`);
  const rows = page.getByRole("table", { name: "Plans" }).locator("tbody tr");
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText(`${tag} Two`);
  await expect(page).toHaveURL(/\?q=/);
});
