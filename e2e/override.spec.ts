import type { APIRequestContext } from "@playwright/test";
import { expect, test, toasts } from "./fixtures";

async function policyOf(request: APIRequestContext, apiKey: string, method: "GET" | "POST") {
  const res = await request.fetch("/api/v1/items", {
    method,
    headers: { Authorization: `Bearer ${apiKey}` },
    data: method === "POST" ? { name: "probe" } : undefined,
  });
  return res.headers()["ratelimit-policy"];
}

test.describe("overrides", () => {
  // Regression: with no override, the form opened filled with the plan's limits and
  // "Save override" enabled, as if one existed.
  test("with no override there is no form to save until one is added", async ({
    page,
    admin,
    signIn,
  }) => {
    const plan = await admin.createPlan([{ operation: "read", count: 10, periodMs: 60_000 }]);
    const customer = await admin.createCustomer(plan.id);
    await signIn();
    await page.goto(`/customers/${customer.id}`);
    const editor = page.getByRole("region", { name: "Override for reads" });
    await expect(editor).toContainText("No override: the plan's limits apply (10 per minute).");
    await expect(editor.getByLabel("Count for limit 1")).toHaveCount(0);
    await expect(editor.getByRole("button", { name: "Save override" })).toHaveCount(0);
    await editor.getByRole("button", { name: "Add an override" }).click();
    await expect(editor).toContainText("A new override, starting from the plan");
    await editor.getByRole("button", { name: "Cancel" }).click();
    await expect(editor.getByRole("button", { name: "Add an override" })).toBeVisible();

    // A stored override's form saves only once something changed.
    await editor.getByRole("button", { name: "Add an override" }).click();
    await editor.getByLabel("Count for limit 1").fill("4");
    await editor.getByRole("button", { name: "Save override" }).click();
    await expect(editor).toContainText("Override in force: 4 per minute");
    await expect(editor.getByRole("button", { name: "Save override" })).toBeDisabled();
    await editor.getByLabel("Count for limit 1").fill("6");
    await expect(editor.getByRole("button", { name: "Save override" })).toBeEnabled();
  });

  test("an override that expires in seconds takes effect, then lapses to the plan", async ({
    page,
    admin,
    signIn,
    request,
  }) => {
    const plan = await admin.createPlan([{ operation: "read", count: 10, periodMs: 60_000 }]);
    const customer = await admin.createCustomer(plan.id);
    await signIn();
    await page.goto(`/customers/${customer.id}`);

    const editor = page.getByRole("region", { name: "Override for reads" });
    await expect(editor).toContainText("No override");
    // A new override starts from the plan's limits.
    await editor.getByRole("button", { name: "Add an override" }).click();
    await expect(editor.getByLabel("Count for limit 1")).toHaveValue("10");
    await editor.getByLabel("Count for limit 1").fill("3");
    await editor.getByLabel("Period for limit 1").fill("1");
    await editor.getByLabel("Unit for limit 1").selectOption("m");
    await editor.getByLabel("Expiry", { exact: true }).selectOption("after");
    await editor.getByLabel("Expires in").fill("8");
    await editor.getByLabel("Expiry unit").selectOption("s");
    await editor.getByRole("button", { name: "Save override" }).click();
    await expect(toasts(page)).toContainText("Reads override saved");
    await expect(editor).toContainText("Override in force: 3 per minute, until");

    await expect
      .poll(() => policyOf(request, customer.apiKey, "GET"))
      .toBe('"read-3-per-1m";q=3;w=60');
    await expect(page.getByTestId("source-read")).toHaveText("override");
    await expect(page.getByTestId("capacity-read-0")).toHaveText("3");

    await expect
      .poll(() => policyOf(request, customer.apiKey, "GET"), { timeout: 20_000 })
      .toBe('"read-10-per-1m";q=10;w=60');
    await expect(page.getByTestId("source-read")).toHaveText("plan");
    await expect(page.getByTestId("capacity-read-0")).toHaveText("10");
    await expect(editor).toContainText("Override expired at");
  });

  test("the editor checks its fields, saves an override with no expiry, and clears it", async ({
    page,
    admin,
    signIn,
    request,
  }) => {
    const plan = await admin.createPlan([
      { operation: "read", count: 10, periodMs: 60_000 },
      { operation: "write", count: 5, periodMs: 60_000 },
    ]);
    const customer = await admin.createCustomer(plan.id);
    await signIn();
    await page.goto(`/customers/${customer.id}`);

    const editor = page.getByRole("region", { name: "Override for writes" });
    await editor.getByRole("button", { name: "Add an override" }).click();
    await editor.getByLabel("Count for limit 1").fill("0");
    await editor.getByLabel("Period for limit 1").fill("");
    await editor.getByRole("button", { name: "Save override" }).click();
    await expect(editor.getByText("Count must be at least 1")).toBeVisible();
    await expect(editor.getByText("Period must be a number")).toBeVisible();
    await expect(editor.getByLabel("Count for limit 1")).toHaveAttribute("aria-invalid", "true");
    await expect(editor).toContainText("No override");

    await editor.getByLabel("Count for limit 1").fill("2");
    await editor.getByLabel("Period for limit 1").fill("30");
    await editor.getByLabel("Unit for limit 1").selectOption("s");
    await editor.getByRole("button", { name: "+ Add limit" }).click();
    await editor.getByLabel("Count for limit 2").fill("50");
    await editor.getByLabel("Period for limit 2").fill("1");
    await editor.getByLabel("Unit for limit 2").selectOption("h");
    await editor.getByRole("button", { name: "Save override" }).click();
    await expect(toasts(page)).toContainText("Writes override saved");
    await expect(editor).toContainText("until cleared");
    await expect(editor.getByText("Count must be at least 1")).toBeHidden();

    await expect
      .poll(() => policyOf(request, customer.apiKey, "POST"))
      .toBe('"write-2-per-30s";q=2;w=30, "write-50-per-1h";q=50;w=3600');
    await expect(page.getByTestId("source-write")).toHaveText("override");
    // Reads keep the plan.
    expect(await policyOf(request, customer.apiKey, "GET")).toBe('"read-10-per-1m";q=10;w=60');

    await editor.getByRole("button", { name: "Clear override" }).click();
    await expect(toasts(page)).toContainText("Writes override cleared");
    await expect(editor).toContainText("No override");
    await expect
      .poll(() => policyOf(request, customer.apiKey, "POST"))
      .toBe('"write-5-per-1m";q=5;w=60');
    await expect(page.getByTestId("source-write")).toHaveText("plan");
  });
});
