import { expect, test, unique } from "./fixtures";

test("the live overview's totals count the window its chart draws, and say which", async ({
  page,
  request,
  admin,
  signIn,
}) => {
  const plan = await admin.createPlan([{ operation: "read", count: 1, periodMs: 60_000 }]);
  const customer = await admin.createCustomer(plan.id, unique("Live"));
  const headers = { authorization: `Bearer ${customer.apiKey}` };
  for (let i = 0; i < 3; i++) await request.get("/api/v1/items", { headers });

  const windows = new Set<string | null>();
  page.on("request", (r) => {
    const url = new URL(r.url());
    if (url.pathname === "/api/admin/traffic") windows.add(url.searchParams.get("seconds"));
  });
  await signIn();
  await expect(page).toHaveURL(/\/overview$/);
  // Regression: the cards summed 5 minutes under a chart of the last 2.
  const totals = page.getByRole("region", { name: "Totals of the last 2 minutes" });
  for (const label of ["Requests", "Allowed", "Denied", "Denied share"]) {
    await expect(totals.getByText(`${label} · 2 min`, { exact: true })).toBeVisible();
  }
  await expect(page.getByText("Last 2 minutes, as the totals above")).toBeVisible();
  const refused = page.getByRole("row").filter({ hasText: customer.name });
  // 1 a minute: of 3 reads, 1 allowed and 2 denied.
  await expect(refused.getByRole("cell")).toHaveText([customer.name, "2", "1", "66.7%"]);
  await expect(page.getByRole("heading", { name: "Refused most · last 2 minutes" })).toBeVisible();
  // Let a few polls go by: every one asks for the same window.
  await expect.poll(() => windows.size > 0 && [...windows]).toEqual(["120"]);
});

// Regression: /overview?range=5y fell back to Live without a word, where the customers list and
// the audit log name what they ignored from the address.
test("an unknown range in the address falls back to Live and says it was ignored", async ({
  page,
  signIn,
}) => {
  await signIn();
  await page.goto("/overview?range=5y");
  await expect(
    page.getByText("Ignored from the address: range (not a valid value)."),
  ).toBeVisible();
  await expect(page.getByRole("button", { name: "Live", exact: true })).toHaveAttribute(
    "aria-pressed",
    "true",
  );
  await page.getByRole("button", { name: "1 h", exact: true }).click();
  await expect(page).toHaveURL(/\/overview\?range=1h$/);
  await expect(page.getByText("Ignored from the address")).toHaveCount(0);
});
