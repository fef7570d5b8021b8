import { expect, seriousViolations, test, unique } from "./fixtures";

test.describe("unsaved changes", () => {
  // Regression: the plan editor said "Unsaved changes" and a click in the sidebar threw them away.
  test("a sidebar link asks before leaving unsaved plan edits, and a saved plan leaves freely", async ({
    page,
    admin,
    signIn,
  }) => {
    const plan = await admin.createPlan([{ operation: "read", count: 10, periodMs: 1_000 }]);
    await signIn();
    await page.goto(`/plans/${plan.id}`);
    const count = page.getByLabel("Count for limit 1");
    await count.fill("7");
    await expect(page.getByText("Unsaved changes")).toBeVisible();

    const customersLink = page.getByRole("navigation", { name: "Main" }).getByRole("link", {
      name: "Customers",
    });
    await customersLink.click();
    const dialog = page.getByRole("dialog", { name: "Leave without saving?" });
    await expect(dialog).toBeVisible();
    await expect(page).toHaveURL(new RegExp(`/plans/${plan.id}$`));
    expect(await seriousViolations(page)).toEqual([]);
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await expect(dialog).toBeHidden();
    await expect(count).toHaveValue("7");

    // Sign-out asks too.
    await page.getByRole("button", { name: "Sign out" }).click();
    await expect(dialog).toBeVisible();
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await expect(page).toHaveURL(new RegExp(`/plans/${plan.id}$`));

    await customersLink.click();
    await dialog.getByRole("button", { name: "Leave without saving" }).click();
    await expect(page).toHaveURL(/\/customers$/);
    const stored = await (await admin.request.get(`/api/admin/plans/${plan.id}`)).json();
    expect(stored.plan.limits[0].count).toBe(10);

    // Saved edits leave without a question.
    await page.goto(`/plans/${plan.id}`);
    await count.fill("8");
    await page.getByRole("button", { name: "Save changes" }).click();
    await expect(page.getByText("Unsaved changes")).toBeHidden();
    await customersLink.click();
    await expect(page).toHaveURL(/\/customers$/);
    await expect(dialog).toHaveCount(0);
  });

  test("reloading or closing the tab with unsaved plan edits meets the browser's question", async ({
    page,
    admin,
    signIn,
  }) => {
    const plan = await admin.createPlan([{ operation: "read", count: 10, periodMs: 1_000 }]);
    await signIn();
    await page.goto(`/plans/${plan.id}`);
    // A click: browsers ask before unloading only a page the user has interacted with.
    await page.getByLabel("Count for limit 1").click();
    await page.getByLabel("Count for limit 1").fill("7");
    await expect(page.getByText("Unsaved changes")).toBeVisible();
    const asked = page.waitForEvent("dialog");
    await page.close({ runBeforeUnload: true });
    const dialog = await asked;
    expect(dialog.type()).toBe("beforeunload");
    await dialog.accept();
  });

  // Regression: the browser's Back button left the plan editor with no question, and the
  // edits were lost; links, sign-out and reload asked.
  test("the browser's Back button asks before leaving unsaved plan edits: staying keeps them, leaving leaves", async ({
    page,
    admin,
    signIn,
  }) => {
    const plan = await admin.createPlan([{ operation: "read", count: 10, periodMs: 1_000 }]);
    await signIn();
    await page.goto("/plans");
    await page.getByRole("link", { name: `Edit ${plan.name}` }).click();
    await expect(page).toHaveURL(new RegExp(`/plans/${plan.id}$`));
    const count = page.getByLabel("Count for limit 1");
    // Several edits: one question, not one per edit.
    await count.fill("7");
    await page.getByLabel("Period for limit 1").fill("2");
    await count.fill("8");
    await expect(page.getByText("Unsaved changes")).toBeVisible();
    const dialog = page.getByRole("dialog", { name: "Leave without saving?" });

    await page.goBack();
    await expect(dialog).toBeVisible();
    await expect(page).toHaveURL(new RegExp(`/plans/${plan.id}$`));
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await expect(dialog).toHaveCount(0);
    await expect(count).toHaveValue("8");
    await expect(page.getByText("Unsaved changes")).toBeVisible();

    // Staying put the question back: Back asks again, once.
    await page.goBack();
    await expect(dialog).toHaveCount(1);
    await expect(count).toHaveValue("8");
    await dialog.getByRole("button", { name: "Leave without saving" }).click();
    await expect(page).toHaveURL(/\/plans$/);
    await expect(dialog).toHaveCount(0);
    await expect(page.getByRole("heading", { level: 1, name: "Plans" })).toBeVisible();
    const stored = await (await admin.request.get(`/api/admin/plans/${plan.id}`)).json();
    expect(stored.plan.limits[0].count).toBe(10);

    // Forward comes back to the plan as stored, and Back leaves it without a question.
    await page.goForward();
    await expect(page).toHaveURL(new RegExp(`/plans/${plan.id}$`));
    await expect(count).toHaveValue("10");
    await page.goBack();
    await expect(page).toHaveURL(/\/plans$/);
    await expect(dialog).toHaveCount(0);
  });

  test("saved or undone edits leave the history as it was: one Back leaves the editor", async ({
    page,
    admin,
    signIn,
  }) => {
    const plan = await admin.createPlan([{ operation: "read", count: 10, periodMs: 1_000 }]);
    await signIn();
    await page.goto("/plans");
    await page.getByRole("link", { name: `Edit ${plan.name}` }).click();
    const count = page.getByLabel("Count for limit 1");
    const dialog = page.getByRole("dialog", { name: "Leave without saving?" });

    // Undone by hand: nothing to ask about.
    await count.fill("7");
    await expect(page.getByText("Unsaved changes")).toBeVisible();
    await count.fill("10");
    await expect(page.getByText("Unsaved changes")).toBeHidden();
    // Edited again, with the usage range changed meanwhile, then saved.
    await count.fill("8");
    await page.getByRole("button", { name: "1 h" }).click();
    await expect(page).toHaveURL(/range=1h/);
    await page.getByRole("button", { name: "Save changes" }).click();
    await expect(page.getByText("Unsaved changes")).toBeHidden();
    await expect(page).toHaveURL(new RegExp(`/plans/${plan.id}\\?range=1h$`));

    await page.goBack();
    await expect(page).toHaveURL(/\/plans$/);
    await expect(dialog).toHaveCount(0);
  });

  test("after a new plan is created, Back returns to the form once, then to the list", async ({
    page,
    signIn,
  }) => {
    await signIn();
    await page.goto("/plans");
    await page.getByRole("link", { name: "New plan" }).click();
    await expect(page).toHaveURL(/\/plans\/new$/);
    await page.getByLabel("Name").fill(unique("Created"));
    await page.getByRole("button", { name: "+ Add read limit" }).click();
    await expect(page.getByText("Unsaved changes")).toBeVisible();
    await page.getByRole("button", { name: "Create plan" }).click();
    await expect(page).toHaveURL(/\/plans$/);

    await page.goBack();
    await expect(page).toHaveURL(/\/plans\/new$/);
    await page.goBack();
    await expect(page).toHaveURL(/\/plans$/);
  });

  test("the browser's Back button asks before leaving an unsaved override", async ({
    page,
    admin,
    signIn,
  }) => {
    const plan = await admin.createPlan([{ operation: "read", count: 10, periodMs: 60_000 }]);
    const customer = await admin.createCustomer(plan.id);
    await signIn();
    await page.goto("/customers");
    await page.goto(`/customers/${customer.id}`);
    const editor = page.getByRole("region", { name: "Override for reads" });
    await editor.getByRole("button", { name: "Add an override" }).click();
    await editor.getByLabel("Count for limit 1").fill("4");
    await expect(editor.getByText("Unsaved changes")).toBeVisible();
    const dialog = page.getByRole("dialog", { name: "Leave without saving?" });
    await page.goBack();
    await expect(dialog).toBeVisible();
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await expect(editor.getByLabel("Count for limit 1")).toHaveValue("4");
    await page.goBack();
    await dialog.getByRole("button", { name: "Leave without saving" }).click();
    await expect(page).toHaveURL(/\/customers$/);
  });

  test("a link asks before leaving an unsaved override", async ({ page, admin, signIn }) => {
    const plan = await admin.createPlan([{ operation: "read", count: 10, periodMs: 60_000 }]);
    const customer = await admin.createCustomer(plan.id);
    await signIn();
    await page.goto(`/customers/${customer.id}`);
    const editor = page.getByRole("region", { name: "Override for reads" });
    await editor.getByRole("button", { name: "Add an override" }).click();
    await editor.getByLabel("Count for limit 1").fill("4");
    await expect(editor.getByText("Unsaved changes")).toBeVisible();
    await page
      .getByRole("navigation", { name: "Main" })
      .getByRole("link", { name: "Plans" })
      .click();
    const dialog = page.getByRole("dialog", { name: "Leave without saving?" });
    await expect(dialog).toBeVisible();
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await expect(editor.getByLabel("Count for limit 1")).toHaveValue("4");
    await page
      .getByRole("navigation", { name: "Main" })
      .getByRole("link", { name: "Plans" })
      .click();
    await dialog.getByRole("button", { name: "Leave without saving" }).click();
    await expect(page).toHaveURL(/\/plans$/);
  });
});
