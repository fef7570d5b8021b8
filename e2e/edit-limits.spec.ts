import { expect, test, toasts } from "./fixtures";

const MINUTE = 60_000;
const SAVED = "Saved. The next API request uses the new limits.";

test("lowering a read limit in the UI refuses the next requests; raising it lets them pass", async ({
  page,
  request,
  admin,
  signIn,
}) => {
  const plan = await admin.createPlan([
    { operation: "read", count: 50, periodMs: MINUTE },
    { operation: "write", count: 10, periodMs: MINUTE },
  ]);
  const customer = await admin.createCustomer(plan.id);
  const headers = { authorization: `Bearer ${customer.apiKey}` };
  const read = () => request.get("/api/v1/items", { headers });

  await signIn();
  await page.goto(`/plans/${plan.id}`);
  const inEffect = page.getByRole("region", { name: "In effect now" });
  await expect(inEffect).toContainText("50 per minute");

  // Lower reads from 50 to 3 per minute (limit 1: the plan's limits come reads first).
  await expect(page.getByLabel("Operation for limit 1")).toHaveValue("read");
  await page.getByLabel("Count for limit 1").fill("3");
  await page.getByRole("button", { name: "Save changes" }).click();
  await expect(toasts(page).getByText(SAVED)).toBeVisible();
  await expect(inEffect).toContainText("3 per minute");

  for (let i = 1; i <= 3; i++) {
    const res = await read();
    expect(res.status(), `request ${i} of 3`).toBe(200);
    expect(res.headers()["ratelimit-policy"]).toBe('"read-3-per-1m";q=3;w=60');
  }
  const refused = await read();
  expect(refused.status()).toBe(429);
  expect(Number(refused.headers()["retry-after"])).toBeGreaterThan(0);

  // Raise reads to 100 per minute: a fresh bucket for the new limit, so requests pass again.
  await page.getByLabel("Count for limit 1").fill("100");
  await page.getByRole("button", { name: "Save changes" }).click();
  await expect(inEffect).toContainText("100 per minute");
  for (let i = 1; i <= 5; i++) {
    const res = await read();
    expect(res.status(), `request ${i} after raising`).toBe(200);
    expect(res.headers()["ratelimit-policy"]).toBe('"read-100-per-1m";q=100;w=60');
  }
});
