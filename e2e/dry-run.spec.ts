import { expect, test, toasts, unique } from "./fixtures";

const MINUTE = 60_000;

test("a dry-run limit added in the plan editor reports what it would refuse while every request passes, and refuses once promoted", async ({
  page,
  request,
  admin,
  signIn,
}) => {
  const plan = await admin.createPlan(
    [{ operation: "read", count: 100, periodMs: MINUTE }],
    unique("Trial"),
  );
  const customer = await admin.createCustomer(plan.id, unique("Trial customer"));
  const headers = { authorization: `Bearer ${customer.apiKey}` };
  await signIn();
  await page.goto(`/plans/${plan.id}`);
  await expect(page.getByRole("region", { name: "Dry run" })).toHaveCount(0);

  // A second read limit, 3 per hour, marked dry-run next to the enforced 100 per minute.
  await page.getByRole("button", { name: "+ Add read limit" }).click();
  await page.getByLabel("Count for limit 2").fill("3");
  await page.getByLabel("Period for limit 2").fill("1");
  await page.getByLabel("Unit for limit 2").selectOption({ label: "hours" });
  await page.getByLabel("Dry run for limit 2").check();
  await expect(page.getByTestId("words-read")).toHaveText("100 per minute; dry run: 3 per hour");
  await page.getByRole("button", { name: "Save changes" }).click();
  await expect(toasts(page)).toContainText("Saved");
  await expect(page.getByRole("region", { name: "In effect now" })).toContainText(
    "100 per minute; dry run: 3 per hour",
  );

  // Five reads: all pass, with the enforced limit's headers alone.
  for (let i = 1; i <= 5; i++) {
    const res = await request.get("/api/v1/items", { headers });
    expect(res.status(), `read ${i} of 5`).toBe(200);
    expect(res.headers()["ratelimit-policy"]).toBe('"read-100-per-1m";q=100;w=60');
  }

  // The plan page: the limit would have refused 2 of the 5, one customer's.
  const report = page.getByRole("article", { name: "Reads: 3 per hour" });
  await expect(report.getByTestId("dry-run-verdict")).toHaveText(
    /^This limit would have refused 40% of reads, 1 customer, since it was added (less than a minute|1 min) ago \(2 of 5\)\.$/,
    { timeout: 20_000 },
  );
  await expect(report.getByRole("link", { name: customer.name })).toBeVisible();
  await expect(report.getByRole("listitem").filter({ hasText: customer.name })).toContainText(
    "2 requests",
  );
  await expect(page.getByTestId("plan-requests")).toHaveText("5");
  await expect(page.getByTestId("plan-denied")).toHaveText("0 (0%)");

  // Promote it: a confirmation, a toast, and the editor shows the limit enforced.
  await page.getByRole("button", { name: "Promote to enforced" }).click();
  const dialog = page.getByRole("dialog", { name: "Enforce the dry-run limits?" });
  await expect(dialog).toContainText("reads: 3 per hour");
  await dialog.getByRole("button", { name: "Promote to enforced" }).click();
  await expect(dialog).toBeHidden();
  await expect(toasts(page)).toContainText("1 limit enforced");
  await expect(page.getByLabel("Dry run for limit 2")).not.toBeChecked();
  await expect(page.getByRole("region", { name: "In effect now" })).toContainText(
    "100 per minute, 3 per hour",
  );
  await expect(report.getByText("enforced", { exact: true })).toBeVisible();
  await expect(report.getByTestId("dry-run-state-since")).toContainText(
    /since \d+ \w+ \d{4}, \d{2}:\d{2}:\d{2}/,
  );

  // The customer had used up the limit in the dry run: the next read is refused.
  const refused = await request.get("/api/v1/items", { headers });
  expect(refused.status()).toBe(429);
  expect(refused.headers()["ratelimit-policy"]).toContain('"read-3-per-1h";q=3;w=3600');

  // The promotion is audited.
  const audit = await admin.request.get(`/api/admin/audit?action=plan.promote-dry-run`);
  expect(audit.status()).toBe(200);
  const entries = (await audit.json()).entries as { entityId: string | null }[];
  expect(entries.some((e) => e.entityId === String(plan.id))).toBe(true);
});

test("an override's dry-run limit is reported on the customer's page and promoted there", async ({
  page,
  request,
  admin,
  signIn,
}) => {
  const plan = await admin.createPlan(
    [{ operation: "write", count: 50, periodMs: MINUTE }],
    unique("Override trial"),
  );
  const customer = await admin.createCustomer(plan.id, unique("Override trial customer"));
  const set = await admin.request.put(`/api/admin/customers/${customer.id}/overrides/write`, {
    data: {
      limits: [
        { count: 50, periodMs: MINUTE },
        { count: 1, periodMs: 3_600_000, dryRun: true },
      ],
      expiresAt: null,
    },
  });
  expect(set.status(), await set.text()).toBe(200);
  const headers = { authorization: `Bearer ${customer.apiKey}` };
  for (let i = 1; i <= 3; i++) {
    const res = await request.post("/api/v1/items", { headers, data: { name: `w${i}` } });
    expect(res.status(), `write ${i} of 3`).toBe(201);
  }

  await signIn();
  await page.goto(`/customers/${customer.id}`);
  const report = page.getByRole("article", { name: "Writes: 1 per hour (override)" });
  await expect(report.getByTestId("dry-run-verdict")).toHaveText(
    /^This limit would have refused 66\.7% of writes, 1 customer, since it was added (less than a minute|1 min) ago \(2 of 3\)\.$/,
    { timeout: 20_000 },
  );
  await page.getByRole("button", { name: "Promote the override's write limits" }).click();
  const dialog = page.getByRole("dialog", { name: "Enforce the override's dry-run write limits?" });
  await dialog.getByRole("button", { name: "Promote to enforced" }).click();
  await expect(dialog).toBeHidden();
  await expect(toasts(page)).toContainText("enforced from the next request");
  await expect(report.getByText("enforced", { exact: true })).toBeVisible();
  await expect(report.getByTestId("dry-run-state-since")).toContainText(
    /since \d+ \w+ \d{4}, \d{2}:\d{2}:\d{2}/,
  );
  const refused = await request.post("/api/v1/items", { headers, data: { name: "w4" } });
  expect(refused.status()).toBe(429);
});

// Regression: a dry-run limit added to a plan with traffic was judged on the whole day's, most
// of it from before the limit existed ("refused 2.3% of reads (5 of 222)").
test("a dry-run limit added to a busy plan is judged only on the traffic since it was added", async ({
  page,
  request,
  admin,
  signIn,
}) => {
  const plan = await admin.createPlan(
    [{ operation: "read", count: 1_000, periodMs: MINUTE }],
    unique("Busy trial"),
  );
  const customer = await admin.createCustomer(plan.id, unique("Busy trial customer"));
  const headers = { authorization: `Bearer ${customer.apiKey}` };
  for (let i = 1; i <= 20; i++) {
    expect((await request.get("/api/v1/items", { headers })).status(), `read ${i} before`).toBe(
      200,
    );
  }
  await signIn();
  await page.goto(`/plans/${plan.id}`);
  await expect(page.getByTestId("plan-requests")).toHaveText("20", { timeout: 20_000 });
  await page.getByRole("button", { name: "+ Add read limit" }).click();
  await page.getByLabel("Count for limit 2").fill("3");
  await page.getByLabel("Period for limit 2").fill("1");
  await page.getByLabel("Unit for limit 2").selectOption({ label: "hours" });
  await page.getByLabel("Dry run for limit 2").check();
  await page.getByRole("button", { name: "Save changes" }).click();
  await expect(toasts(page)).toContainText("Saved");
  for (let i = 1; i <= 5; i++) {
    expect((await request.get("/api/v1/items", { headers })).status(), `read ${i} after`).toBe(200);
  }
  const report = page.getByRole("article", { name: "Reads: 3 per hour" });
  await expect(report.getByTestId("dry-run-verdict")).toHaveText(
    /^This limit would have refused 40% of reads, 1 customer, since it was added (less than a minute|1 min) ago \(2 of 5\)\.$/,
    { timeout: 20_000 },
  );
  await expect(page.getByTestId("plan-requests")).toHaveText("25");
});

// Regression: once an override replaced the plan's read limits for a customer, its page judged
// the plan's dry-run limit on the customer's whole day of reads ("10.2% of reads (25 of 245)")
// and said "removed since" with no time.
test("a plan's dry-run limit an override replaced is judged on a customer's page from when it was added until the override, and says so with the time", async ({
  page,
  request,
  admin,
  signIn,
}) => {
  const plan = await admin.createPlan(
    [{ operation: "read", count: 1_000, periodMs: MINUTE }],
    unique("Share test"),
  );
  const customer = await admin.createCustomer(plan.id, unique("Share test customer"));
  const headers = { authorization: `Bearer ${customer.apiKey}` };
  for (let i = 1; i <= 20; i++) {
    expect((await request.get("/api/v1/items", { headers })).status(), `read ${i} before`).toBe(
      200,
    );
  }
  await signIn();
  await page.goto(`/plans/${plan.id}`);
  await expect(page.getByTestId("plan-requests")).toHaveText("20", { timeout: 20_000 });
  const edit = await admin.request.patch(`/api/admin/plans/${plan.id}`, {
    data: {
      limits: [
        { operation: "read", count: 1_000, periodMs: MINUTE },
        { operation: "read", count: 3, periodMs: 60 * MINUTE, dryRun: true },
      ],
    },
  });
  expect(edit.status(), await edit.text()).toBe(200);
  for (let i = 1; i <= 5; i++) {
    expect((await request.get("/api/v1/items", { headers })).status(), `read ${i} after`).toBe(200);
  }
  const set = await admin.request.put(`/api/admin/customers/${customer.id}/overrides/read`, {
    data: { limits: [{ count: 500, periodMs: MINUTE }], expiresAt: Date.now() + 10 * MINUTE },
  });
  expect(set.status(), await set.text()).toBe(200);

  await page.goto(`/customers/${customer.id}`);
  const report = page.getByRole("article", { name: "Reads: 3 per hour (plan)" });
  await expect(report.getByTestId("dry-run-verdict")).toHaveText(
    /^It would have refused 40% of reads, 1 customer, from when it was added (less than a minute|1 min) ago until (less than a minute|1 min) ago \(2 of 5\)\.$/,
    { timeout: 20_000 },
  );
  await expect(report.getByText("replaced by an override", { exact: true })).toBeVisible();
  await expect(report.getByTestId("dry-run-state-since")).toContainText(
    /since \d+ \w+ \d{4}, \d{2}:\d{2}:\d{2}/,
  );
});
