import { expect, test } from "./fixtures";

const SECOND = 1_000;
const MINUTE = 60_000;

test("an invalid edit shows each error at its field and saves nothing", async ({
  page,
  admin,
  signIn,
}) => {
  const plan = await admin.createPlan([
    { operation: "read", count: 10, periodMs: SECOND },
    { operation: "read", count: 500, periodMs: MINUTE },
  ]);
  const before = await (await admin.request.get(`/api/admin/plans/${plan.id}`)).json();

  const writes: string[] = [];
  page.on("request", (r) => {
    if (r.url().includes("/api/admin/plans") && r.method() !== "GET") writes.push(r.method());
  });

  await signIn();
  await page.goto(`/plans/${plan.id}`);
  const name = page.getByLabel("Name", { exact: true });
  await expect(name).toHaveValue(plan.name);

  await name.fill("");
  await page.getByLabel("Count for limit 1").fill("0");
  await page.getByLabel("Period for limit 2").fill("-5");
  await page.getByRole("button", { name: "Save changes" }).click();

  await expect(name).toHaveAccessibleDescription("Name is required");
  await expect(name).toHaveAttribute("aria-invalid", "true");
  const count = page.getByLabel("Count for limit 1");
  await expect(count).toHaveAccessibleDescription("Count must be at least 1");
  await expect(count).toHaveAttribute("aria-invalid", "true");
  const period = page.getByLabel("Period for limit 2");
  await expect(period).toHaveAccessibleDescription("Period must be positive");
  await expect(page.getByLabel("Count for limit 2")).toHaveAttribute("aria-invalid", "false");

  // Fixing one field clears its error while the others stay.
  await count.fill("4");
  await expect(count).toHaveAttribute("aria-invalid", "false");
  await expect(name).toHaveAccessibleDescription("Name is required");

  // Nothing reached the server, and the plan is as it was.
  expect(writes).toEqual([]);
  const after = await (await admin.request.get(`/api/admin/plans/${plan.id}`)).json();
  expect(after).toEqual(before);
});
