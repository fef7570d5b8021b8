import { expect, test, unique } from "./fixtures";

const RULE = "Cost must be a whole number from 1 to 1,000,000";

// Regression: the test request and the simulator took a cost of 0 (which the API refuses) and
// refused 1e9 in words of their own; the operator now meets the API's one rule, in its words.
test("the test request and the simulator take the API's cost rule, in its words", async ({
  page,
  admin,
  signIn,
}) => {
  const plan = await admin.createPlan(
    [
      { operation: "read", count: 5, periodMs: 1_000 },
      { operation: "write", count: 1, periodMs: 1_000 },
    ],
    unique("Cost"),
  );
  const customer = await admin.createCustomer(plan.id, unique("Acme"));
  await signIn();
  await page.goto(`/customers/${customer.id}`);
  const cost = page.getByLabel("Cost");
  const send = page.getByRole("button", { name: "Send test request" });
  for (const value of ["0", "1000001", "1.5"]) {
    await cost.fill(value);
    await send.click();
    await expect(cost).toHaveAccessibleDescription(RULE);
    await expect(page.getByTestId("test-status")).toHaveCount(0);
  }
  // At the ceiling it is a real decision: more than a limit holds at once, so 413.
  await cost.fill("1000000");
  await send.click();
  await expect(page.getByTestId("test-status")).toHaveText("413 cost exceeds a limit");
  await expect(page.getByTestId("remaining-read-0")).toHaveText("5");

  await page.goto("/simulator");
  await page.getByLabel("Count for limit 1").fill("10");
  await page.getByLabel("Period for limit 1").fill("1");
  await page.getByLabel("Pattern").selectOption("steady");
  await page.getByLabel("Requests per second").fill("2");
  await page.getByLabel("For (seconds)").fill("1");
  const simCost = page.getByLabel("Cost per request");
  await simCost.fill("0");
  await page.getByRole("button", { name: "Simulate" }).click();
  await expect(simCost).toHaveAccessibleDescription(new RegExp(RULE));
  await expect(page.getByTestId("sim-requests")).toHaveCount(0);
  await simCost.fill("1");
  await page.getByRole("button", { name: "Simulate" }).click();
  await expect(page.getByTestId("sim-requests")).toHaveText("2");
});
