import { expect, pick, test, unique } from "./fixtures";

test("an operator creates a plan and a customer on it, whose key carries the plan's limits", async ({
  page,
  request,
  signIn,
}) => {
  const planName = unique("Starter");
  const customerName = unique("Acme");
  await signIn();

  // The plan: 7 reads per minute, 3 writes per 10 seconds.
  await page.getByRole("link", { name: "Plans", exact: true }).click();
  await page.getByRole("link", { name: "New plan" }).click();
  await expect(page.getByRole("heading", { name: "New plan" })).toBeVisible();
  await page.getByLabel("Name", { exact: true }).fill(planName);
  await expect(page.getByLabel("Slug")).toHaveValue(planName.toLowerCase());
  await page.getByLabel("Description").fill("Made by the e2e suite.");
  await page.getByLabel("Operation for limit 1").selectOption("read");
  await page.getByLabel("Count for limit 1").fill("7");
  await page.getByLabel("Period for limit 1").fill("1");
  await page.getByLabel("Unit for limit 1").selectOption({ label: "minutes" });
  await page.getByLabel("Operation for limit 2").selectOption("write");
  await page.getByLabel("Count for limit 2").fill("3");
  await page.getByLabel("Period for limit 2").fill("10");
  await page.getByLabel("Unit for limit 2").selectOption({ label: "seconds" });
  await page.getByRole("button", { name: "Create plan" }).click();

  await expect(page).toHaveURL(/\/plans$/);
  const planRow = page.getByRole("row").filter({ hasText: planName });
  await expect(planRow).toContainText("7 per minute");
  await expect(planRow).toContainText("3 per 10 seconds");

  // The customer, on that plan; its key is shown once.
  await page.getByRole("link", { name: "Customers", exact: true }).click();
  await page.getByRole("button", { name: "New customer" }).click();
  await page.getByLabel("Name", { exact: true }).fill(customerName);
  await pick(page, "Plan", planName);
  await page.getByRole("button", { name: "Create customer" }).click();

  const keyBox = page.getByRole("region", { name: "New API key" });
  await expect(keyBox).toContainText("won’t be shown again");
  const key = await keyBox.getByRole("textbox", { name: "API key" }).inputValue();
  expect(key).toMatch(/^rk_[\w-]{32}$/);
  const customerRow = page.getByRole("row").filter({ hasText: customerName });
  await expect(customerRow.getByRole("combobox", { name: `Plan for ${customerName}` })).toHaveValue(
    planName,
  );
  await expect(customerRow).toContainText(key.slice(0, 10));

  // The API knows the key and applies the plan's limits.
  const headers = { authorization: `Bearer ${key}` };
  const read = await request.get("/api/v1/items", { headers });
  expect(read.status()).toBe(200);
  expect(read.headers()["ratelimit-policy"]).toBe('"read-7-per-1m";q=7;w=60');
  const write = await request.post("/api/v1/items", { headers, data: { name: "widget" } });
  expect(write.status()).toBe(201);
  expect(write.headers()["ratelimit-policy"]).toBe('"write-3-per-10s";q=3;w=10');
});
