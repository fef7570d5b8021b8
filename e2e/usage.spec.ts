import { readFile } from "node:fs/promises";
import { expect, screenshotPath, shownName, test, unique } from "./fixtures";

const HOUR = 3_600_000;
// The rollups flush every USAGE_FLUSH_INTERVAL_MS (500 ms here) and the views ask every 5 s.
const ROLLUP_WAIT = { timeout: 20_000 };

/** csvRows parses the usage CSV (no field of this spec's holds a comma or a quote). */
function csvRows(text: string): Record<string, string>[] {
  const [header, ...lines] = text.trim().split("\r\n");
  const columns = (header as string).split(",");
  return lines.map((line) => Object.fromEntries(line.split(",").map((v, i) => [columns[i], v])));
}

test("an operator sees traffic in the overview's ranges and on the customer's page, finds the customer near its limit, and downloads it as CSV", async ({
  page,
  request,
  admin,
  signIn,
}) => {
  // 10 reads and 2 writes an hour: 12 reads are 10 allowed and 2 refused (a full bucket's
  // worth: the read limit's bucket drained, 100% of it); 1 write is allowed.
  const plan = await admin.createPlan(
    [
      { operation: "read", count: 10, periodMs: HOUR },
      { operation: "write", count: 2, periodMs: HOUR },
    ],
    // The docs' overview picture: names as a reader would meet them.
    shownName("Metered"),
  );
  const customer = await admin.createCustomer(plan.id, shownName("Initech"));
  const headers = { authorization: `Bearer ${customer.apiKey}` };
  const statuses: number[] = [];
  for (let i = 0; i < 12; i++) {
    statuses.push((await request.get("/api/v1/items", { headers })).status());
  }
  expect(statuses).toEqual([...Array(10).fill(200), 429, 429]);
  const write = await request.post("/api/v1/items", { headers, data: { name: "widget" } });
  expect(write.status()).toBe(201);

  await signIn();

  // The overview, last hour: the plan's row counts exactly what was sent.
  await page.getByRole("button", { name: "1 h", exact: true }).click();
  await expect(page).toHaveURL(/\/overview\?range=1h$/);
  await expect(page.getByRole("button", { name: "1 h", exact: true })).toHaveAttribute(
    "aria-pressed",
    "true",
  );
  await expect(page.getByText(/the last hour, times in UTC([+-]\d\d:\d\d)?/)).toBeVisible();
  const plans = page.getByRole("region", { name: "Per plan" });
  const planRow = plans.getByRole("row").filter({ hasText: plan.name });
  await expect(planRow.getByRole("cell").nth(1)).toHaveText("11", ROLLUP_WAIT);
  await expect(planRow.getByRole("cell").nth(2)).toHaveText(/^2\s*15\.4%, 1 customer refused$/);
  await expect(
    page.getByRole("figure", { name: /Allowed and denied decisions per minute/ }),
  ).toBeVisible();

  // Near its limit: the read limit's bucket drained.
  const near = page.getByRole("region", { name: "Customers near their limit" });
  const nearRow = near.getByTestId("near-limit-row").filter({ hasText: customer.name });
  await expect(nearRow).toContainText("100%");
  await expect(nearRow).toContainText("Drained to 0 of 10 tokens (10 per hour)");
  await expect(nearRow).toContainText("Reads");
  // Regression: the list replays today's limits over the whole range and did not say so.
  await expect(near.getByTestId("near-limit-replay")).toHaveText(
    /replayed under the limit in force now .* over the whole range/,
  );

  // The last 24 hours: the same counts, by hour; the README's screenshot.
  await page.getByRole("button", { name: "24 h", exact: true }).click();
  await expect(page).toHaveURL(/\/overview\?range=24h$/);
  await expect(
    page.getByText(/the last 24 hours, times in UTC([+-]\d\d:\d\d)?/).first(),
  ).toBeVisible();
  await expect(planRow.getByRole("cell").nth(1)).toHaveText("11", ROLLUP_WAIT);
  await expect(planRow.getByRole("cell").nth(2)).toHaveText(/^2\s*15\.4%, 1 customer refused$/);
  await expect(
    page.getByRole("figure", { name: /Allowed and denied decisions per hour/ }),
  ).toBeVisible();
  await expect(nearRow).toContainText("100%");
  await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
  await page.screenshot({ path: screenshotPath("overview-24h.png") });

  // The CSV of the same range: the customer's rows hold exactly the traffic sent.
  const downloading = page.waitForEvent("download");
  await page.getByRole("link", { name: "Download CSV" }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(
    /^ratekeeper-usage-\d{4}-\d\d-\d\d-to-\d{4}-\d\d-\d\d\.csv$/,
  );
  const rows = csvRows(await readFile((await download.path()) as string, "utf8")).filter(
    (r) => r.customer_id === String(customer.id),
  );
  const sum = (operation: string, column: string) =>
    rows.filter((r) => r.operation === operation).reduce((n, r) => n + Number(r[column]), 0);
  expect(rows.every((r) => r.customer === customer.name && r.plan === plan.slug)).toBe(true);
  expect(sum("read", "allowed")).toBe(10);
  expect(sum("read", "denied")).toBe(2);
  expect(sum("read", "tokens_taken")).toBe(10);
  expect(sum("write", "allowed")).toBe(1);
  expect(sum("write", "denied")).toBe(0);
  expect(sum("read", "unavailable") + sum("write", "unavailable")).toBe(0);

  // The customer's page, from the near-limit row: its usage over the range, against its limits.
  await page.goto("/overview?range=24h");
  await near.getByRole("link", { name: customer.name }).click();
  await expect(page).toHaveURL(new RegExp(`/customers/${customer.id}$`));
  await expect(page.getByRole("heading", { level: 1, name: customer.name })).toBeVisible();
  await expect(page.getByTestId("usage-read-totals")).toContainText(
    "10 allowed, 2 denied, 10 tokens taken · limits (plan): 10 per hour",
    ROLLUP_WAIT,
  );
  await expect(page.getByTestId("usage-write-totals")).toContainText("1 allowed, 0 denied");
  await expect(
    page.getByRole("figure", { name: /^Reads over time: allowed and denied per hour/ }),
  ).toBeVisible();
  await page.getByRole("button", { name: "1 h", exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/customers/${customer.id}\\?range=1h$`));
  await expect(page.getByTestId("usage-read-totals")).toContainText("10 allowed, 2 denied");
  await expect(
    page.getByRole("figure", { name: /^Reads over time: allowed and denied per minute/ }),
  ).toBeVisible();

  // The inspector's decision chart opens with the server's last minutes already drawn.
  await page.getByLabel("Window").selectOption({ label: "5 minutes" });
  await expect(page.getByTestId("traffic-allowed")).toHaveText("11");
  await expect(page.getByTestId("traffic-denied")).toHaveText("2");
});

test("the usage views say so when there is nothing, and the CSV of no traffic is its header", async ({
  page,
  admin,
  signIn,
}) => {
  const plan = await admin.createPlan(
    [{ operation: "read", count: 5, periodMs: 1_000 }],
    unique("Quiet"),
  );
  const customer = await admin.createCustomer(plan.id, unique("Quiet customer"));
  await signIn();
  await page.goto(`/customers/${customer.id}?range=7d`);
  await expect(page.getByRole("button", { name: "7 d", exact: true })).toHaveAttribute(
    "aria-pressed",
    "true",
  );
  await expect(page.getByText("No reads in the last 7 days.")).toBeVisible();
  await expect(page.getByText("No writes in the last 7 days.")).toBeVisible();
  await page.goto(`/plans/${plan.id}?range=30d`);
  await expect(page.getByText("No requests on this plan in the last 30 days.")).toBeVisible();
  await expect(page.getByTestId("plan-customers")).toHaveText("1");
  await expect(page.getByTestId("plan-requests")).toHaveText("0");
  const csv = await admin.request.get(`/api/admin/usage.csv?customerId=${customer.id}`);
  expect(csv.status()).toBe(200);
  expect(await csv.text()).toBe(
    "date,customer_id,customer,plan,operation,allowed,denied,unavailable,tokens_requested,tokens_taken,too_large\r\n",
  );
});

// Regression: a customer refused by a 5 per second limit was in "Refused most" while "Customers
// near their limit" said nobody came within 80%: the limit was measured against minute totals.
test("a customer refused by a per-second limit is near its limit, measured per second", async ({
  page,
  request,
  admin,
  signIn,
}) => {
  const plan = await admin.createPlan(
    [
      { operation: "read", count: 5, periodMs: 1_000 },
      { operation: "read", count: 1_000, periodMs: HOUR },
    ],
    unique("Per second"),
  );
  const customer = await admin.createCustomer(plan.id, unique("Bursty customer"));
  const headers = { authorization: `Bearer ${customer.apiKey}` };
  const statuses = await Promise.all(
    Array.from({ length: 25 }, async () =>
      (await request.get("/api/v1/items", { headers })).status(),
    ),
  );
  const refused = statuses.filter((s) => s === 429).length;
  expect(refused).toBeGreaterThanOrEqual(15);

  await signIn();
  await page.goto("/overview?range=1h");
  const denials = page.getByRole("region", { name: "Refused most" });
  await expect(denials.getByRole("row").filter({ hasText: customer.name })).toContainText(
    String(refused),
    ROLLUP_WAIT,
  );
  const near = page.getByRole("region", { name: "Customers near their limit" });
  const nearRow = near.getByTestId("near-limit-row").filter({ hasText: customer.name });
  await expect(nearRow).toContainText("Drained to 0 of 5 tokens (5 per second)");
  await expect(nearRow).toContainText("100%");
  await expect(nearRow).toContainText(`refused ${refused} times`, ROLLUP_WAIT);
  await expect(near.getByTestId("near-limit-note")).toContainText(
    "Limits shorter than a minute are measured per second from",
  );
});

// Regression: three bulk writes no limit could hold (413) made the customer's tokens requested
// jump by their cost and put it in "Customers near their limit" at 100%, "refused 3 times by its
// limits". They are the caller's mistake: counted apart, and said so.
test("requests that ask for more than a limit holds are counted apart, not as refusals by the limits", async ({
  page,
  request,
  admin,
  signIn,
}) => {
  const plan = await admin.createPlan(
    [
      { operation: "read", count: 100, periodMs: HOUR },
      { operation: "write", count: 3, periodMs: 60_000 },
    ],
    unique("Bulk"),
  );
  const customer = await admin.createCustomer(plan.id, unique("Bulk customer"));
  const headers = { authorization: `Bearer ${customer.apiKey}` };
  const items = Array.from({ length: 5 }, (_, i) => ({ name: `item ${i}` }));
  for (let i = 0; i < 3; i++) {
    const res = await request.post("/api/v1/items/bulk", { headers, data: { items } });
    expect(res.status()).toBe(413);
  }
  expect((await request.post("/api/v1/items", { headers, data: { name: "one" } })).status()).toBe(
    201,
  );

  await signIn();
  await page.goto(`/customers/${customer.id}?range=1h`);
  const writes = page.getByRole("region", { name: "Writes over time" });
  await expect(page.getByTestId("usage-write-totals")).toContainText(
    "1 allowed, 0 denied, 1 token taken",
    ROLLUP_WAIT,
  );
  await expect(writes.getByTestId("too-large-note")).toHaveText(
    "3 requests asked for more tokens than a limit holds (413): counted apart, not as denied.",
  );

  await page.goto("/overview?range=1h");
  const planRow = page
    .getByRole("region", { name: "Per plan" })
    .getByRole("row")
    .filter({ hasText: plan.name });
  await expect(planRow.getByRole("cell").nth(1)).toHaveText("1", ROLLUP_WAIT);
  await expect(planRow.getByRole("cell").nth(2)).toHaveText(/^0\s*0(\.0)?%$/);
  await expect(page.getByTestId("too-large-note")).toContainText(
    "asked for more tokens than a limit holds (413): counted apart, not as denied or near a limit.",
  );
  const near = page.getByRole("region", { name: "Customers near their limit" });
  await expect(near.getByTestId("near-limit-row").filter({ hasText: customer.name })).toHaveCount(
    0,
  );
  const csv = await admin.request.get(`/api/admin/usage.csv?customerId=${customer.id}`);
  expect((await csv.text()).trim().split("\r\n")[1]).toMatch(/,write,1,0,0,1,1,3$/);
});

// Regression: a customer the limiter held to 3 reads a second showed "166% - 5 of 3 tokens in 1
// second (3 per second)": a full bucket and its refill admit up to about twice the count in one
// clock second, so counting tokens per second read as the limiter letting the customer past.
test("a customer held to its limit is drained to 0 of it, at 100% and never more", async ({
  page,
  request,
  admin,
  signIn,
}) => {
  const plan = await admin.createPlan(
    [{ operation: "read", count: 3, periodMs: 1_000 }],
    unique("Three a second"),
  );
  const customer = await admin.createCustomer(plan.id, unique("Held customer"));
  const headers = { authorization: `Bearer ${customer.apiKey}` };
  let allowed = 0;
  // Bursts of 15 until the bucket's refill has let some through after the first 3.
  while (allowed <= 6) {
    const statuses = await Promise.all(
      Array.from({ length: 15 }, async () =>
        (await request.get("/api/v1/items", { headers })).status(),
      ),
    );
    allowed += statuses.filter((s) => s === 200).length;
  }

  await signIn();
  await page.goto("/overview?range=1h");
  const near = page.getByRole("region", { name: "Customers near their limit" });
  const nearRow = near.getByTestId("near-limit-row").filter({ hasText: customer.name });
  await expect(nearRow).toContainText("Drained to 0 of 3 tokens (3 per second)", ROLLUP_WAIT);
  await expect(nearRow).toContainText(/refused [\d,]+ times/, ROLLUP_WAIT);
  await expect(nearRow.getByRole("cell").nth(1)).toHaveText("100%");
  for (const share of await near.getByTestId("near-limit-row").allTextContents()) {
    expect(share).not.toMatch(/\b(1\d[1-9]|1[1-9]\d|[2-9]\d\d)%/);
  }
});
