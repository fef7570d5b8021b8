import { expect, screenshotPath, test } from "./fixtures";

// The README's screenshot of the plan editor, showing a field error (see screenshotPath).

test("the plan editor", async ({ page, admin, signIn }) => {
  const plan = await admin.createPlan(
    [
      { operation: "read", count: 20, periodMs: 1_000 },
      { operation: "read", count: 1_000, periodMs: 60_000 },
      { operation: "write", count: 5, periodMs: 1_000 },
      { operation: "write", count: 200, periodMs: 60_000 },
    ],
    "Growth",
  );
  await admin.createCustomer(plan.id);
  await signIn();
  await page.setViewportSize({ width: 1366, height: 860 });
  await page.goto(`/plans/${plan.id}`);
  await expect(page.getByRole("region", { name: "In effect now" })).toContainText("1 customer");
  await page.getByLabel("Count for limit 2").fill("0");
  await page.getByRole("button", { name: "Save changes" }).click();
  await expect(page.getByLabel("Count for limit 2")).toHaveAccessibleDescription(
    "Count must be at least 1",
  );
  await page.screenshot({ path: screenshotPath("plan-editor.png") });
});
