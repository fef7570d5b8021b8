import { expect, test } from "./fixtures";

// Regression: below about 1,000 px the sidebar became a 257 px dark header with a tall blue
// active item and "Sign out" alone on a line. Now a slim top bar with a Menu button.

for (const size of [
  { width: 820, height: 1180 },
  { width: 390, height: 844 },
]) {
  test(`at ${size.width} px the navigation folds into a top bar with a Menu button`, async ({
    page,
    signIn,
  }) => {
    await page.setViewportSize(size);
    await signIn();
    const bar = page.locator("header.sidebar");
    const menu = page.getByRole("button", { name: "Menu" });
    const nav = page.getByRole("navigation", { name: "Main" });
    await expect(menu).toHaveAttribute("aria-expanded", "false");
    expect((await bar.boundingBox())?.height).toBeLessThanOrEqual(64);
    await expect(nav).toBeHidden();
    await expect(page.getByRole("button", { name: "Sign out" })).toBeHidden();

    // Opened by keyboard, it shows every page and Sign out; Escape folds it again.
    await menu.focus();
    await page.keyboard.press("Enter");
    await expect(menu).toHaveAttribute("aria-expanded", "true");
    await expect(nav.getByRole("link", { name: "Overview" })).toHaveAttribute(
      "aria-current",
      "page",
    );
    await expect(page.getByRole("button", { name: "Sign out" })).toBeVisible();
    await page.keyboard.press("Escape");
    await expect(nav).toBeHidden();

    // Choosing a page closes the menu and leaves the page's heading in view.
    await menu.click();
    await nav.getByRole("link", { name: "Customers" }).click();
    await expect(page).toHaveURL(/\/customers$/);
    await expect(nav).toBeHidden();
    await expect(page.getByRole("heading", { level: 1, name: "Customers" })).toBeInViewport();
  });
}

test("on a wide screen the sidebar shows every page and Sign out, and no Menu button", async ({
  page,
  signIn,
}) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await signIn();
  await expect(page.getByRole("button", { name: "Menu" })).toBeHidden();
  // Overview, Plans, Customers, Classes, Service tokens, Gateway routes, Simulator, Audit log.
  await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link")).toHaveCount(8);
  await expect(page.getByRole("button", { name: "Sign out" })).toBeVisible();
});
