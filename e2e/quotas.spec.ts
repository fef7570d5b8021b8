import type { APIRequestContext } from "@playwright/test";
import { formatDateMinute } from "../lib/time-format";
import { expect, test, toasts, unique } from "./fixtures";

/** decide asks the decision API for one token of `operation` for a customer: whether it passed. */
async function decide(
  request: APIRequestContext,
  token: string,
  customerId: number,
  operation: string,
): Promise<boolean> {
  const res = await request.post("/api/v1/decisions", {
    headers: { Authorization: `Bearer ${token}` },
    data: { customerId, operation },
  });
  expect(res.status(), await res.text()).toBe(200);
  return (await res.json()).allowed;
}

// An operator adds a class and a monthly quota of it in the dashboard, sees a customer use it up,
// grants extra for the month, and makes a gateway route cost 5 tokens of the class.
test("a monthly quota of a new class: exact, shown, granted, and metered by a route rule", async ({
  page,
  admin,
  signIn,
  request,
}) => {
  // A retry shares the run's database: the class then needs a name of its own.
  const { retry } = test.info();
  const exports = retry === 0 ? "exports" : `exports-${retry + 1}`;
  const cleared = await admin.request.put("/api/admin/route-rules", { data: { rules: [] } });
  expect(cleared.status(), await cleared.text()).toBe(200);
  const plan = await admin.createPlan([{ operation: "read", count: 100, periodMs: 1_000 }]);
  const made = await admin.request.post("/api/admin/service-tokens", {
    data: { name: unique("quota-service"), scopes: ["decide"] },
  });
  expect(made.status(), await made.text()).toBe(201);
  const token: string = (await made.json()).token;

  // The class, on the Classes page.
  await signIn();
  await page.goto("/classes");
  await page.getByRole("button", { name: "New class" }).click();
  await page.getByRole("textbox", { name: "Name" }).fill(exports);
  await page.getByRole("textbox", { name: "Description" }).fill("CSV exports");
  await page.getByRole("button", { name: "Create class" }).click();
  await expect(page.getByRole("row").filter({ hasText: "CSV exports" })).toContainText(exports);

  // A quota of 50 a month of it, in the plan editor.
  await page.goto(`/plans/${plan.id}`);
  await page.getByRole("button", { name: "+ Add quota" }).click();
  await page.getByLabel("Operation for limit 2").selectOption(exports);
  await page.getByLabel("Count for limit 2").fill("50");
  await expect(page.getByLabel("Period for limit 2")).toHaveValue("month");
  await page.getByRole("button", { name: "Save changes" }).click();
  await expect(toasts(page)).toContainText("Saved. The next API request uses the new limits.");

  // 60 requests of the class at once: exactly 50 pass.
  const customer = await admin.createCustomer(plan.id, unique("Exporter"));
  const first = await Promise.all(
    Array.from({ length: 60 }, () => decide(request, token, customer.id, exports)),
  );
  expect(first.filter(Boolean)).toHaveLength(50);

  // The customer's page: 50 of 50 used, and when the month resets.
  const inspect = await admin.request.get(`/api/admin/customers/${customer.id}/inspect`);
  expect(inspect.status()).toBe(200);
  const quota = (await inspect.json()).quotas.find(
    (q: { operation: string }) => q.operation === exports,
  );
  expect(quota).toMatchObject({ period: "month", count: 50, used: 50, granted: 0 });
  expect(quota.periodEndMs).toBeGreaterThan(Date.now());
  await page.goto(`/customers/${customer.id}`);
  const zone = await page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone);
  const card = page.getByTestId(`quota-${exports}-month`);
  await expect(card).toContainText("50 of 50 used");
  await expect(card).toContainText(
    `none left, resets at ${formatDateMinute(quota.periodEndMs, zone)}`,
  );
  await expect(card.getByRole("status")).toContainText("Used up: requests are refused until");

  // 10 extra for this month, granted on the customer's page.
  await card.getByRole("button", { name: "Grant extra" }).click();
  const dialog = page.getByRole("dialog", { name: `Grant extra ${exports} per month` });
  await dialog.getByLabel("Extra").fill("10");
  await expect(dialog.getByTestId("grant-new-total")).toContainText("60");
  await dialog.getByRole("button", { name: "Grant extra" }).click();
  await expect(dialog).toHaveCount(0);
  await expect(card).toContainText("50 of 60 used (50 + 10 granted)");

  // 10 more pass, the 11th is refused.
  for (let i = 0; i < 10; i += 1) {
    expect(await decide(request, token, customer.id, exports), `request ${i + 1}`).toBe(true);
  }
  expect(await decide(request, token, customer.id, exports), "the 11th request").toBe(false);
  await page.reload();
  await expect(card).toContainText("60 of 60 used (50 + 10 granted)");

  // A route rule on the Gateway routes page: POST /gw/exports costs 5 tokens of the class.
  await page.goto("/routes");
  await page.getByRole("button", { name: "+ Add rule" }).click();
  await page.getByLabel("Rule 1 method").selectOption("POST");
  await page.getByLabel("Rule 1 pattern").fill("/exports");
  await page.getByLabel("Rule 1 class").selectOption(exports);
  await page.getByLabel("Rule 1 cost in tokens").fill("5");
  await page.getByRole("button", { name: "Save rules" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Save rules" }).click();
  await expect(toasts(page)).toContainText("Saved. The gateway's next request uses the new rules.");

  const other = await admin.createCustomer(plan.id, unique("Exporter"));
  const res = await request.post("/gw/exports", {
    headers: { Authorization: `Bearer ${other.apiKey}` },
  });
  expect(res.status(), await res.text()).toBe(200);
  expect(await res.json()).toEqual({ method: "POST", path: "/exports" });
  const headers = res.headers();
  expect(headers["ratelimit-policy"]).toContain(`"${exports}-50-per-month";q=50;w=`);
  expect(headers.ratelimit).toMatch(new RegExp(`^"${exports}-50-per-month";r=45;t=\\d+$`));
  await page.goto(`/customers/${other.id}`);
  await expect(page.getByTestId(`quota-${exports}-month`)).toContainText("5 of 50 used");
});
