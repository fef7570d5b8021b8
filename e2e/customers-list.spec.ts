import { expect, pick, screenshotPath, shownName, test, unique } from "./fixtures";

test.describe("the customers list", () => {
  test("a new customer shows in the list at once, on no plan until one is chosen", async ({
    page,
    admin,
    signIn,
  }) => {
    const plan = await admin.createPlan([{ operation: "read", count: 5, periodMs: 1_000 }]);
    const posts: string[] = [];
    page.on("request", (r) => {
      if (r.url().endsWith("/api/admin/customers") && r.method() === "POST") posts.push(r.url());
    });
    await signIn();
    await page.goto("/customers");
    await page.getByRole("button", { name: "New customer" }).click();
    const form = page.getByRole("form", { name: "New customer" });

    // Regression: the picker preselected the first plan by name ("Enterprise").
    const planInput = form.getByRole("combobox", { name: "Plan", exact: true });
    await expect(planInput).toHaveValue("");
    const name = unique("Fresh");
    await form.getByLabel("Name", { exact: true }).fill(name);
    await form.getByRole("button", { name: "Create customer" }).click();
    await expect(planInput).toHaveAccessibleDescription("Choose a plan");
    expect(posts).toEqual([]);

    await pick(page, "Plan", plan.name);
    await form.getByRole("button", { name: "Create customer" }).click();
    const reveal = page.getByRole("region", { name: "New API key" });
    // Regression: the panel said "only its prefix is stored"; a hash and the prefix are.
    await expect(reveal).toContainText("only a hash of it");
    await expect(reveal).not.toContainText("only its prefix is stored");
    // Regression: the list showed the customer only at its next timed refresh (5 s, now 10 s).
    await expect(page.getByRole("row").filter({ hasText: name })).toBeVisible({ timeout: 2_000 });
    expect(posts).toHaveLength(1);
  });

  test("search, filters, sort and pages live in the URL, so a view can be shared", async ({
    page,
    admin,
    signIn,
  }) => {
    const tag = unique("Zeta");
    const plan = await admin.createPlan([{ operation: "read", count: 5, periodMs: 1_000 }]);
    const other = await admin.createPlan([{ operation: "read", count: 9, periodMs: 1_000 }]);
    const names = ["Charlie", "alpha", "Bravo"].map((n) => `${tag} ${n}`);
    const made = [];
    for (const n of names) made.push(await admin.createCustomer(plan.id, n));
    await admin.createCustomer(other.id, `${tag} Delta`);
    await admin.request.patch(`/api/admin/customers/${made[0]?.id}`, {
      data: { status: "suspended" },
    });
    await signIn();
    await page.goto("/customers");

    await page.getByRole("searchbox", { name: "Search" }).fill(tag);
    await expect(page).toHaveURL(new RegExp(`[?&]q=${tag}`));
    const rows = page.getByRole("table", { name: "Customers" }).locator("tbody tr");
    await expect(rows).toHaveCount(4);
    await expect(page.getByText("4 shown of 4 customers")).toBeVisible();

    await page.getByLabel("Sort").selectOption("name");
    await expect(rows.first()).toContainText(`${tag} alpha`);
    await pick(page, "Plan filter", plan.name);
    await expect(rows).toHaveCount(3);
    await page.getByLabel("Status").selectOption("suspended");
    await expect(rows).toHaveCount(1);
    await expect(rows.first()).toContainText(`${tag} Charlie`);

    // The same URL, opened afresh, shows the same view.
    const shared = page.url();
    expect(shared).toContain("status=suspended");
    expect(shared).toContain(`plan=${plan.id}`);
    expect(shared).toContain("sort=name");
    await page.goto(shared);
    await expect(rows).toHaveCount(1);
    await expect(page.getByRole("searchbox", { name: "Search" })).toHaveValue(tag);
    await expect(page.getByRole("combobox", { name: "Plan filter" })).toHaveValue(plan.name);

    // Pages of two, by name, with the server's cursors.
    await page.goto(`/customers?q=${encodeURIComponent(tag)}&sort=name&limit=2`);
    await expect(rows).toHaveCount(2);
    await expect(rows.nth(0)).toContainText(`${tag} alpha`);
    await expect(rows.nth(1)).toContainText(`${tag} Bravo`);
    await expect(page.getByRole("button", { name: "← Previous" })).toBeDisabled();
    await page.getByRole("button", { name: "Next →" }).click();
    await expect(page).toHaveURL(/after=/);
    await expect(rows.nth(0)).toContainText(`${tag} Charlie`);
    await expect(rows.nth(1)).toContainText(`${tag} Delta`);
    await expect(page.getByRole("button", { name: "Next →" })).toBeDisabled();
    await page.goBack();
    await expect(rows.nth(0)).toContainText(`${tag} alpha`);

    // A key prefix and an id find their customer too.
    const delta = await (
      await admin.request.get(`/api/admin/customers?q=${encodeURIComponent(`${tag} Delta`)}`)
    ).json();
    const prefix = delta.customers[0].apiKeyPrefix as string;
    await page.goto(`/customers?q=${encodeURIComponent(prefix)}`);
    await expect(rows).toHaveCount(1);
    await expect(rows.first()).toContainText(`${tag} Delta`);
    await page.goto(`/customers?q=%23${made[1]?.id}`);
    await expect(rows.first()).toContainText(`${tag} alpha`);
  });

  // Regression: Next, at the bottom of a page, showed the bottom of the next page.
  test("turning a page shows the new page from its first row", async ({ page, admin, signIn }) => {
    const tag = unique("Paged");
    const plan = await admin.createPlan([{ operation: "read", count: 5, periodMs: 1_000 }]);
    for (let i = 0; i < 20; i++) {
      await admin.createCustomer(plan.id, `${tag} ${String(i).padStart(2, "0")}`);
    }
    await signIn();
    await page.setViewportSize({ width: 1366, height: 500 });
    await page.goto(`/customers?q=${encodeURIComponent(tag)}&sort=name&limit=10`);
    const rows = page.getByRole("table", { name: "Customers" }).locator("tbody tr");
    await expect(rows).toHaveCount(10);
    await expect(rows.first()).toBeInViewport();
    await page.getByRole("button", { name: "Next →" }).click();
    await expect(rows.first()).toContainText(`${tag} 10`);
    await expect(rows.first()).toBeInViewport();
    await expect(rows.last()).not.toBeInViewport();
    await rows.last().scrollIntoViewIfNeeded();
    await page.getByRole("button", { name: "← Previous" }).click();
    await expect(rows.first()).toContainText(`${tag} 00`);
    await expect(rows.first()).toBeInViewport();
  });

  test("the README's screenshot: the customers list with a search", async ({
    page,
    admin,
    signIn,
  }) => {
    const pro = await admin.createPlan(
      [
        { operation: "read", count: 20, periodMs: 1_000 },
        { operation: "write", count: 5, periodMs: 1_000 },
      ],
      shownName("Scale"),
    );
    // A word no other spec's customers hold, so the search finds these three alone.
    for (const n of ["Northwind Analytics", "Northwind Logistics", "Northwind Robotics"]) {
      const c = await admin.createCustomer(pro.id, shownName(n));
      for (let i = 0; i < 3; i++)
        await admin.request.get("/api/v1/items", {
          headers: { Authorization: `Bearer ${c.apiKey}` },
        });
    }
    await signIn();
    await page.setViewportSize({ width: 1366, height: 700 });
    await page.goto("/customers?q=Northwind");
    await expect(
      page.getByRole("table", { name: "Customers" }).locator("tbody tr"),
    ).not.toHaveCount(0);
    await expect(page.getByRole("searchbox", { name: "Search" })).toHaveValue("Northwind");
    await page.screenshot({ path: screenshotPath("customers-search.png") });
  });
});
