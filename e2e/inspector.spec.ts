import { expect, screenshotPath, shownName, test, toasts, unique } from "./fixtures";

test.describe("key inspector", () => {
  test("remaining tokens fall as the API is called and climb back as time passes", async ({
    page,
    admin,
    signIn,
    request,
  }) => {
    // 5 reads per 10 s: a token comes back every 2 s, so the climb is visible within seconds.
    const plan = await admin.createPlan(
      [
        { operation: "read", count: 5, periodMs: 10_000 },
        { operation: "read", count: 100, periodMs: 3_600_000 },
        { operation: "write", count: 3, periodMs: 60_000 },
      ],
      // The README's main picture: names as a reader would meet them.
      shownName("Business"),
    );
    const customer = await admin.createCustomer(plan.id, shownName("Acme Analytics"));
    const asCustomer = { Authorization: `Bearer ${customer.apiKey}` };
    await signIn();
    await page.goto(`/customers/${customer.id}`);
    await expect(page.getByRole("heading", { level: 1, name: customer.name })).toBeVisible();
    await expect(page.getByText(plan.name, { exact: true })).toBeVisible();

    const remaining = page.getByTestId("remaining-read-0");
    await expect(remaining).toHaveText("5");
    await expect(page.getByTestId("capacity-read-0")).toHaveText("5");
    await expect(page.getByTestId("retry-after-read-0")).toHaveText("none");
    await expect(page.getByTestId("remaining-read-1")).toHaveText("100");

    for (let i = 0; i < 5; i++) {
      const res = await request.get("/api/v1/items", { headers: asCustomer });
      expect(res.status()).toBe(200);
    }
    for (let i = 0; i < 3; i++) {
      const res = await request.get("/api/v1/items", { headers: asCustomer });
      expect(res.status()).toBe(429);
    }

    // The bucket is empty (a token may already be back by the next peek), then refills.
    await expect.poll(async () => Number(await remaining.textContent())).toBeLessThanOrEqual(1);
    await expect(page.getByTestId("remaining-read-1")).toHaveText("95");
    await expect(page.getByTestId("traffic-allowed")).toHaveText("5");
    await expect(page.getByTestId("traffic-denied")).toHaveText("3");
    await expect(remaining).toHaveText("3", { timeout: 15_000 });

    // A test request through the inspector is a real decision: it takes write tokens.
    await page.getByLabel("Operation").selectOption("write");
    await page.getByLabel("Cost").fill("2");
    await page.getByRole("button", { name: "Send test request" }).click();
    await expect(page.getByTestId("test-status")).toHaveText("200 allowed");
    await expect(page.getByTestId("test-remaining")).toHaveText("1");
    await expect(page.getByTestId("remaining-write-0")).toHaveText("1");
    await page.getByRole("button", { name: "Send test request" }).click();
    await expect(page.getByTestId("test-status")).toHaveText("429 too many requests");
    await expect(page.getByTestId("test-retry-after")).toHaveText(/s$/);
    await expect(page.getByTestId("traffic-denied")).toHaveText("4");

    // The picture starts at the customer's name (sending the test request scrolled the page).
    await page.evaluate(() => window.scrollTo(0, 0));
    await expect(page.getByRole("heading", { level: 1, name: customer.name })).toBeInViewport();
    await page.screenshot({ path: screenshotPath("key-inspector.png") });

    // Regression: the Decisions chart showed its key twice (the totals and a chart legend).
    const decisions = page.getByRole("region", { name: "Decisions" });
    await expect(decisions.getByTestId("traffic-allowed")).toBeVisible();
    await expect(decisions.locator(".recharts-legend-wrapper")).toHaveCount(0);

    await expect(remaining).toHaveText("5", { timeout: 15_000 });
  });

  // Regression: the charts started empty when the inspector opened, so a customer refused a
  // moment before showed full buckets; the server now replays each bucket's last minutes.
  test("a burst refused before the inspector opened shows in the bucket's past", async ({
    page,
    admin,
    signIn,
    request,
  }) => {
    const plan = await admin.createPlan(
      [
        { operation: "read", count: 5, periodMs: 1_000 },
        { operation: "read", count: 100, periodMs: 60_000 },
      ],
      unique("Burst"),
    );
    const customer = await admin.createCustomer(plan.id, unique("Bursty"));
    const headers = { Authorization: `Bearer ${customer.apiKey}` };
    const statuses = await Promise.all(
      Array.from({ length: 25 }, async () =>
        (await request.get("/api/v1/items", { headers })).status(),
      ),
    );
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(15);

    await signIn();
    await page.goto(`/customers/${customer.id}`);
    // The 5 per second bucket has long refilled, but its past shows it emptied by the burst.
    await expect(page.getByTestId("remaining-read-0")).toHaveText("5");
    await expect(page.getByTestId("lowest-read-0")).toContainText("Lowest in the last 1m: 0 of 5");
    await expect(page.getByTestId("lowest-read-1")).toContainText(
      /Lowest in the last 1m: 9\d of 100/,
    );
    await expect(page.getByRole("region", { name: "Reads", exact: true })).toContainText(
      "Before the page opened, replayed from the recorded decisions under the current limits.",
    );
  });

  // Regression: the replayed level at the window's start was dropped by the first peek after it,
  // so a bucket's chart was blank before its first recent decision, and a bucket with no traffic
  // was blank until the page opened, while "Lowest in the last 1m" spoke for the whole minute.
  test("each bucket's chart is drawn from the window's start, busy or idle", async ({
    page,
    admin,
    signIn,
    request,
  }) => {
    const plan = await admin.createPlan(
      [
        { operation: "read", count: 5, periodMs: 1_000 },
        { operation: "write", count: 3, periodMs: 60_000 },
      ],
      unique("Drawn"),
    );
    const customer = await admin.createCustomer(plan.id, unique("Drawn"));
    const headers = { Authorization: `Bearer ${customer.apiKey}` };
    await Promise.all(Array.from({ length: 25 }, () => request.get("/api/v1/items", { headers })));

    await signIn();
    await page.goto(`/customers/${customer.id}`);
    await expect(page.getByRole("region", { name: "Reads", exact: true })).toContainText(
      "replayed from the recorded decisions",
    );
    const charts = [
      page.getByRole("figure", { name: "Remaining tokens of read bucket 1 over time" }),
      page.getByRole("figure", { name: "Remaining tokens of write bucket 1 over time" }),
    ];
    // Some peeks after the replay came in: the first of them used to drop its start.
    const samples = async () => Number(await charts[1]?.getAttribute("data-samples"));
    const replayed = await samples();
    await expect.poll(samples, { timeout: 15_000 }).toBeGreaterThanOrEqual(replayed + 3);
    for (const chart of charts) await expect(chart).toHaveAttribute("data-undrawn-ms", "0");
    await expect(page.getByTestId("lowest-read-0")).toContainText("Lowest in the last 1m: 0 of 5");
    await expect(page.getByTestId("lowest-write-0")).toContainText("Lowest in the last 1m: 3 of 3");

    // The longest window is as long as the replay: drawn from its start too.
    await page.getByLabel("Window").selectOption("300000");
    for (const chart of charts) await expect(chart).toHaveAttribute("data-undrawn-ms", "0");
  });

  test("polling the inspector costs the API nothing", async ({ page, admin, signIn, request }) => {
    // Hour-long periods: a peek that took a token would show for the rest of the test.
    const plan = await admin.createPlan([
      { operation: "read", count: 3, periodMs: 3_600_000 },
      { operation: "write", count: 2, periodMs: 3_600_000 },
    ]);
    const customer = await admin.createCustomer(plan.id);
    await signIn();
    await page.goto(`/customers/${customer.id}`);

    const readChart = page.getByRole("figure", {
      name: "Remaining tokens of read bucket 1 over time",
    });
    await expect
      .poll(async () => Number(await readChart.getAttribute("data-samples")), { timeout: 20_000 })
      .toBeGreaterThanOrEqual(8);
    await expect(page.getByTestId("remaining-read-0")).toHaveText("3");
    await expect(page.getByTestId("remaining-write-0")).toHaveText("2");
    await expect(page.getByTestId("traffic-allowed")).toHaveText("0");

    // The API agrees: the first real request finds a full bucket.
    const res = await request.get("/api/v1/items", {
      headers: { Authorization: `Bearer ${customer.apiKey}` },
    });
    expect(res.status()).toBe(200);
    expect(res.headers().ratelimit).toMatch(/^"read-3-per-1h";r=2;/);
    await expect(page.getByTestId("remaining-read-0")).toHaveText("2");
  });

  test("reset buckets, after confirmation, fills them again", async ({
    page,
    admin,
    signIn,
    request,
  }) => {
    const plan = await admin.createPlan([{ operation: "read", count: 4, periodMs: 3_600_000 }]);
    const customer = await admin.createCustomer(plan.id);
    for (let i = 0; i < 3; i++) {
      await request.get("/api/v1/items", {
        headers: { Authorization: `Bearer ${customer.apiKey}` },
      });
    }
    await signIn();
    await page.goto(`/customers/${customer.id}`);
    await expect(page.getByTestId("remaining-read-0")).toHaveText("1");

    await page.getByRole("button", { name: "Reset buckets" }).click();
    const dialog = page.getByRole("dialog", { name: "Reset buckets?" });
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByTestId("remaining-read-0")).toHaveText("1");

    await page.getByRole("button", { name: "Reset buckets" }).click();
    await dialog.getByRole("button", { name: "Reset buckets" }).click();
    await expect(toasts(page)).toContainText("Buckets reset");
    await expect(page.getByTestId("remaining-read-0")).toHaveText("4");
  });

  test("the README's screenshot: the inspector on a phone", async ({
    page,
    admin,
    signIn,
    request,
  }) => {
    const plan = await admin.createPlan(
      [
        { operation: "read", count: 10, periodMs: 10_000 },
        { operation: "write", count: 3, periodMs: 60_000 },
      ],
      shownName("Team"),
    );
    const customer = await admin.createCustomer(plan.id, shownName("Acme Mobile"));
    for (let i = 0; i < 6; i++)
      await request.get("/api/v1/items", {
        headers: { Authorization: `Bearer ${customer.apiKey}` },
      });
    await page.setViewportSize({ width: 390, height: 844 });
    await signIn();
    await page.goto(`/customers/${customer.id}`);
    await expect(page.getByRole("button", { name: "Menu" })).toBeVisible();
    await expect(page.getByTestId("remaining-read-0")).not.toHaveText("10");
    await expect
      .poll(async () =>
        Number(
          await page
            .getByRole("figure", { name: "Remaining tokens of read bucket 1 over time" })
            .getAttribute("data-samples"),
        ),
      )
      .toBeGreaterThanOrEqual(3);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      390,
    );
    await page.screenshot({ path: screenshotPath("inspector-phone.png") });
  });
});
