import { expect, screenshotPath, shownName, test } from "./fixtures";

// The README's screenshot of the plan editor, showing a field error (see screenshotPath).

test("the plan editor", async ({ page, admin, signIn }) => {
  const plan = await admin.createPlan(
    [
      { operation: "read", count: 20, periodMs: 1_000 },
      { operation: "read", count: 1_000, periodMs: 60_000 },
      { operation: "write", count: 5, periodMs: 1_000 },
      { operation: "write", count: 200, periodMs: 60_000 },
    ],
    shownName("Growth"),
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
  // The editor sits below the plan's usage: the picture starts at it, the field error in view.
  await page
    .getByRole("heading", { name: "Plan and limits" })
    .evaluate((heading) => heading.scrollIntoView({ block: "start" }));
  await expect(page.getByText("Count must be at least 1")).toBeInViewport();
  await page.screenshot({ path: screenshotPath("plan-editor.png") });
});
