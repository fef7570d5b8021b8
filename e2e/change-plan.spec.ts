import type { Page } from "@playwright/test";
import { expect, horizontalOverflow, seriousViolations, test, unique } from "./fixtures";

/** choose picks a plan in a row's picker; the confirmation then hides the page behind it. */
async function choose(page: Page, label: string, plan: string): Promise<void> {
  await page.getByRole("combobox", { name: label, exact: true }).fill(plan);
  await page.getByRole("option").filter({ hasText: plan }).first().click();
}

test("changing a customer's plan from the list asks first, naming both plans and the new limits", async ({
  page,
  admin,
  signIn,
}) => {
  const pro = await admin.createPlan(
    [{ operation: "read", count: 100, periodMs: 1_000 }],
    unique("Pro"),
  );
  const free = await admin.createPlan(
    [
      { operation: "read", count: 5, periodMs: 1_000 },
      { operation: "write", count: 1, periodMs: 1_000 },
    ],
    unique("Free"),
  );
  const customer = await admin.createCustomer(pro.id, unique("Paying"));
  const planOf = async () =>
    (await (await admin.request.get(`/api/admin/customers/${customer.id}`)).json()).customer.planId;
  await signIn();
  await page.goto(`/customers?q=${encodeURIComponent(customer.name)}`);
  const picker = page.getByRole("combobox", { name: `Plan for ${customer.name}`, exact: true });
  await expect(picker).toHaveValue(pro.name);

  // Regression: picking a plan applied it at once, with no confirmation.
  await choose(page, `Plan for ${customer.name}`, free.name);
  const dialog = page.getByRole("dialog", { name: `Move “${customer.name}” to ${free.name}?` });
  await expect(dialog).toBeVisible();
  const limits = dialog.getByRole("table", { name: "Limits before and after" });
  await expect(limits.getByRole("columnheader", { name: `Now: ${pro.name}` })).toBeVisible();
  await expect(limits.getByRole("columnheader", { name: `After: ${free.name}` })).toBeVisible();
  await expect(limits.getByRole("row", { name: /^Reads/ })).toHaveText(
    /Reads\s*100 per second\s*5 per second/,
  );
  await expect(limits.getByRole("row", { name: /^Writes/ })).toHaveText(
    /Writes\s*unlimited\s*1 per second/,
  );
  expect(await planOf()).toBe(pro.id);
  expect(await seriousViolations(page)).toEqual([]);
  await page.setViewportSize({ width: 390, height: 844 });
  expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
  expect(await seriousViolations(page)).toEqual([]);
  await page.setViewportSize({ width: 1366, height: 860 });

  await dialog.getByRole("button", { name: "Cancel" }).click();
  await expect(dialog).toBeHidden();
  await expect(picker).toHaveValue(pro.name);
  expect(await planOf()).toBe(pro.id);

  await choose(page, `Plan for ${customer.name}`, free.name);
  await dialog.getByRole("button", { name: `Move to ${free.name}` }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText(`${customer.name} is now on ${free.name}.`)).toBeVisible();
  await expect(picker).toHaveValue(free.name);
  expect(await planOf()).toBe(free.id);
});
