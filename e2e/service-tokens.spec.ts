import { expect, horizontalOverflow, seriousViolations, test, unique } from "./fixtures";

test("an operator creates a service token, sees it once, copies it; it decides until revoked", async ({
  page,
  context,
  admin,
  signIn,
  request,
}) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  const plan = await admin.createPlan(
    [
      { operation: "read", count: 100, periodMs: 3_600_000 },
      { operation: "write", count: 4, periodMs: 3_600_000 },
    ],
    unique("Tokens"),
  );
  const customer = await admin.createCustomer(plan.id, unique("Acme"));
  const name = unique("checkout-api");
  await signIn();

  await page.getByRole("link", { name: "Service tokens", exact: true }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Service tokens" })).toBeVisible();
  await page.getByRole("button", { name: "New service token" }).click();
  // The form checks before sending: a name is needed.
  await page.getByRole("button", { name: "Create token" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "Name is required" })).toBeVisible();
  await page.getByLabel("Name", { exact: true }).fill(name);
  await expect(page.getByRole("checkbox", { name: /decide/ })).toBeChecked();
  await page.getByRole("button", { name: "Create token" }).click();

  const reveal = page.getByRole("region", { name: "New service token" });
  await expect(reveal).toContainText("won’t be shown again");
  // Regression: the panel said "only its prefix is stored"; a hash and the prefix are.
  await expect(reveal).toContainText("keeps only a hash of it");
  const token = await reveal.getByRole("textbox", { name: "Service token" }).inputValue();
  expect(token).toMatch(/^rks_[\w-]{32}$/);
  await reveal.getByRole("button", { name: "Copy" }).click();
  await expect(reveal.getByRole("status")).toHaveText("Copied to the clipboard.");
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(token);

  const row = page.getByRole("row").filter({ hasText: name });
  await expect(row).toContainText(token.slice(0, 12));
  await expect(row).toContainText("Never");
  await expect(row).toContainText("Active");
  await reveal.getByRole("button", { name: "Done" }).click();
  await expect(reveal).toBeHidden();
  // Shown once: nowhere on the page any more, nor after a reload.
  await page.reload();
  await expect(page.getByText(token)).toHaveCount(0);

  // The token decides for the customer, on the customer's buckets.
  const decide = () =>
    request.post("/api/v1/decisions", {
      headers: { Authorization: `Bearer ${token}` },
      data: { key: customer.apiKey, operation: "write" },
    });
  for (const remaining of [3, 2]) {
    const res = await decide();
    expect(res.status()).toBe(200);
    expect(await res.json()).toMatchObject({ allowed: true, reason: "ok", remaining });
  }
  await page.reload();
  await expect(page.getByRole("row").filter({ hasText: name })).toContainText("Just now");

  // The inspector shows the API's decisions like any others.
  await page.goto(`/customers/${customer.id}`);
  await expect(page.getByTestId("remaining-write-0")).toHaveText("2");
  await expect(page.getByTestId("traffic-allowed")).toHaveText("2");

  // Revoking asks first, then stops the token at once.
  await page.goto("/service-tokens");
  await page.getByRole("button", { name: `Revoke ${name}` }).click();
  const dialog = page.getByRole("dialog");
  await expect(dialog).toContainText("refused (401)");
  await expect(dialog).toContainText("answers each of its own requests 503");
  await dialog.getByRole("button", { name: "Cancel" }).click();
  expect((await decide()).status()).toBe(200);
  await page.getByRole("button", { name: `Revoke ${name}` }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Revoke token" }).click();
  await expect(page.getByRole("row").filter({ hasText: name })).toContainText("Revoked");
  await expect(page.getByRole("button", { name: `Revoke ${name}` })).toHaveCount(0);
  // On a phone the list stacks into one card per token: nothing wider than the screen.
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(page.getByRole("row").filter({ hasText: name })).toContainText("Revoked");
  expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
  expect(await seriousViolations(page)).toEqual([]);
  await page.setViewportSize({ width: 1366, height: 860 });
  const refused = await decide();
  expect(refused.status()).toBe(401);
  expect(await refused.json()).toMatchObject({ title: "Revoked service token" });
  // The revoked token's refused call is counted against it, on its row.
  await page.reload();
  await expect(
    page.getByRole("row").filter({ hasText: name }).locator('td[data-label="Refused, last hour"]'),
  ).toHaveText("1");

  // Both changes are in the audit log, in words, naming the token (linked to this page).
  await page.getByRole("link", { name: "Audit log", exact: true }).click();
  // Regression: the page said it logs changes to "plans, customers and overrides" only.
  await expect(
    page.getByText(
      /^Every change an operator made to plans, .*, overrides, service tokens, .*operation classes,/,
    ),
  ).toBeVisible();
  const rows = page.getByRole("table", { name: "Audit log" }).locator("tbody tr");
  const revoked = rows.filter({ hasText: "Service token revoked" }).filter({ hasText: name });
  await expect(revoked).toHaveCount(1);
  await expect(
    rows.filter({ hasText: "Service token created" }).filter({ hasText: name }),
  ).toHaveCount(1);
  await expect(revoked.getByRole("link", { name })).toHaveAttribute("href", "/service-tokens");
});

// Regression: a peek-only token's "Try it" call lacked "peek": true, so it was refused 403.
test("a peek-only token's first call to try peeks, and works as shown", async ({
  page,
  admin,
  signIn,
  request,
}) => {
  const plan = await admin.createPlan(
    [{ operation: "read", count: 5, periodMs: 3_600_000 }],
    unique("Peeks"),
  );
  const customer = await admin.createCustomer(plan.id, unique("Peeked"));
  const name = unique("peek-svc");
  await signIn();
  await page.goto("/service-tokens");
  await page.getByRole("button", { name: "New service token" }).click();
  await page.getByLabel("Name", { exact: true }).fill(name);
  await page.getByRole("checkbox", { name: /^decide/ }).uncheck();
  // Regression: the form said "decide and peek", as if both scopes were required.
  await page.getByRole("button", { name: "Create token" }).click();
  await expect(
    page.getByRole("alert").filter({ hasText: "Choose at least one scope: decide or peek" }),
  ).toBeVisible();
  await page.getByRole("checkbox", { name: /^peek/ }).check();
  await page.getByRole("button", { name: "Create token" }).click();

  const reveal = page.getByRole("region", { name: "New service token" });
  const token = await reveal.getByRole("textbox", { name: "Service token" }).inputValue();
  await reveal.getByText("Try it: one peek with curl").click();
  await expect(reveal).toContainText("This token only peeks");
  const command = (await reveal.locator("pre").textContent()) ?? "";
  expect(command).toContain(`Bearer ${token}`);
  expect(command).toContain('"peek": true');

  // The call as shown, with the customer's key in its place, is answered, and takes nothing.
  const body = /-d '(.*)'$/m.exec(command)?.[1] ?? "";
  const peek = async () => {
    const res = await request.post("/api/v1/decisions", {
      headers: { Authorization: `Bearer ${token}` },
      data: JSON.parse(body.replace("rk_…customer key…", customer.apiKey)),
    });
    expect(res.status(), await res.text()).toBe(200);
    return res.json();
  };
  const first = await peek();
  expect(first).toMatchObject({ allowed: true, reason: "ok" });
  expect(await peek()).toMatchObject({ allowed: true, remaining: first.remaining });
});
