import { expect, test, unique } from "./fixtures";

// The rollups flush every USAGE_FLUSH_INTERVAL_MS (500 ms here) and the views ask every 5 s.
const ROLLUP_WAIT = { timeout: 20_000 };

test("a customer's usage chart is scaled to its traffic, and names a limit far above it instead of drawing it", async ({
  page,
  request,
  admin,
  signIn,
}) => {
  // 100 a minute refills 6,000 tokens an hour: far above 12 requests.
  const plan = await admin.createPlan(
    [{ operation: "read", count: 100, periodMs: 60_000 }],
    unique("Roomy"),
  );
  const customer = await admin.createCustomer(plan.id, unique("Light user"));
  const headers = { authorization: `Bearer ${customer.apiKey}` };
  for (let i = 0; i < 12; i++) {
    expect((await request.get("/api/v1/items", { headers })).status()).toBe(200);
  }
  await signIn();
  await page.goto(`/customers/${customer.id}`);
  await expect(page.getByTestId("usage-read-totals")).toContainText("12 allowed", ROLLUP_WAIT);
  const chart = page.getByRole("figure", { name: /^Reads over time: allowed and denied per hour/ });
  // Regression: the count axis ran from 0 to 6,000 and the 12 requests were a pixel high.
  const yTicks = chart.locator(".recharts-yAxis-tick-labels .recharts-cartesian-axis-tick-value");
  await expect(yTicks.last()).toHaveText("15");
  await expect(chart.locator(".recharts-reference-line")).toHaveCount(0);
  await expect(chart.locator("figcaption")).toHaveText(
    "The tightest limit refills 6,000 tokens per hour: off the scale, 500 times the busiest hour",
  );
});
