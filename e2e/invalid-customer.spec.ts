import { expect, test } from "./fixtures";

test("a new customer with a blank or too long name shows the error at the field and sends nothing", async ({
  page,
  signIn,
}) => {
  const posts: string[] = [];
  page.on("request", (r) => {
    if (r.url().includes("/api/admin/customers") && r.method() === "POST") posts.push(r.url());
  });
  await signIn();
  await page.goto("/customers");
  await page.getByRole("button", { name: "New customer" }).click();
  const name = page.getByLabel("Name", { exact: true });
  await name.fill("   ");
  await page.getByRole("button", { name: "Create customer" }).click();
  await expect(name).toHaveAccessibleDescription("Name is required");
  await expect(name).toHaveAttribute("aria-invalid", "true");

  // After a failed attempt the error follows the edits.
  await name.fill("x".repeat(81));
  await expect(name).toHaveAccessibleDescription("Name must be at most 80 characters");
  await name.fill("Fixed name");
  await expect(name).toHaveAttribute("aria-invalid", "false");
  expect(posts).toEqual([]);
});
