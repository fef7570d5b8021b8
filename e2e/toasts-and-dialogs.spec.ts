import { expect, test, toasts, unique } from "./fixtures";

test("toasts come one at a time and stay on the page they belong to", async ({
  page,
  admin,
  signIn,
}) => {
  const plan = await admin.createPlan([{ operation: "read", count: 5, periodMs: 60_000 }]);
  const customer = await admin.createCustomer(plan.id);
  await signIn();
  await page.goto(`/customers/${customer.id}`);
  const reset = async () => {
    await page.getByRole("button", { name: "Reset buckets" }).click();
    await page
      .getByRole("dialog", { name: "Reset buckets?" })
      .getByRole("button", { name: "Reset buckets" })
      .click();
    await expect(page.getByRole("dialog")).toBeHidden();
  };
  // Regression: four toasts stacked up, 5 s each, over the page's content.
  for (let i = 0; i < 4; i++) {
    await reset();
    await expect(toasts(page)).toHaveCount(1);
  }
  // A screen reader hears it once: one live region holds it, and nothing else repeats it.
  await expect(page.locator('[aria-live="polite"]').getByText("Buckets reset")).toHaveCount(1);
  await expect(page.getByRole("alert").filter({ hasText: "Buckets reset" })).toHaveCount(0);

  // Regression: toasts followed the operator to the next page.
  await page.getByRole("link", { name: "Audit log", exact: true }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Audit log" })).toBeVisible();
  await expect(toasts(page)).toHaveCount(0);
});

test("a dialog traps focus, closes with Escape and gives focus back", async ({
  page,
  admin,
  signIn,
}) => {
  const plan = await admin.createPlan(
    [{ operation: "read", count: 5, periodMs: 60_000 }],
    unique("Dialog"),
  );
  await signIn();
  await page.goto(`/plans?q=${encodeURIComponent(plan.name)}`);
  const remove = page.getByRole("button", { name: `Delete ${plan.name}` });
  await remove.focus();
  await page.keyboard.press("Enter");
  const dialog = page.getByRole("dialog", { name: `Delete plan “${plan.name}”?` });
  await expect(dialog).toBeVisible();
  // The safe choice has focus; Tab and Shift+Tab stay inside the dialog.
  await expect(dialog.getByRole("button", { name: "Cancel" })).toBeFocused();
  for (let i = 0; i < 4; i++) {
    await page.keyboard.press("Tab");
    expect(await dialog.evaluate((d) => d.contains(document.activeElement))).toBe(true);
  }
  await page.keyboard.press("Shift+Tab");
  expect(await dialog.evaluate((d) => d.contains(document.activeElement))).toBe(true);
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await expect(remove).toBeFocused();

  // Keyboard all the way: confirm with Enter on the focused button.
  await page.keyboard.press("Enter");
  await dialog.getByRole("button", { name: "Delete plan" }).focus();
  await page.keyboard.press("Enter");
  await expect(toasts(page)).toContainText(`Plan “${plan.name}” deleted.`);
  await expect(page.getByRole("row").filter({ hasText: plan.name })).toHaveCount(0);
});

test("every control shows where the keyboard focus is", async ({ page, signIn }) => {
  await signIn();
  await page.goto("/customers");
  // The first Tab reaches the skip link, which jumps past the navigation.
  await page.keyboard.press("Tab");
  const skip = page.getByRole("link", { name: "Skip to content" });
  await expect(skip).toBeFocused();
  await expect(skip).toBeInViewport();
  for (let i = 0; i < 12; i++) {
    await page.keyboard.press("Tab");
    const outline = await page.evaluate(() => {
      const el = document.activeElement as HTMLElement | null;
      if (!el || el === document.body) return "none";
      const style = getComputedStyle(el);
      return `${style.outlineStyle} ${style.outlineWidth}`;
    });
    expect(outline, `focus ring of tab stop ${i + 2}`).toMatch(/^(solid|auto) [1-9]/);
  }
});
