import { addReadOverride, expect, test, toasts } from "./fixtures";

// A date and time as the dashboard writes them: "22 Nov 2026, 14:03:05 UTC".
const DATE_TIME = String.raw`\d{1,2} \w{3} \d{4}, \d{2}:\d{2}:\d{2} \S+`;

test("an override saved to end after 10 minutes reopens saying when it ends, and keeps that end when edited", async ({
  page,
  admin,
  signIn,
}) => {
  const { customer, editor } = await addReadOverride(page, admin, signIn);
  await editor.getByLabel("Count for limit 1").fill("4");
  const expiry = editor.getByLabel("Expiry", { exact: true });
  await expiry.selectOption("after");
  await editor.getByLabel("Expires in").fill("10");
  await editor.getByLabel("Expiry unit").selectOption("m");
  await editor.getByRole("button", { name: "Save override" }).click();
  await expect(toasts(page)).toContainText("Reads override saved");
  const stored = async () =>
    (await (await admin.request.get(`/api/admin/customers/${customer.id}`)).json()).overrides.read
      .expiresAt as number;
  const endsAt = await stored();

  // Regression: reopened, the editor showed "At a date and time" with a bare date to retype.
  for (const reopen of [false, true]) {
    if (reopen) await page.reload();
    await expect(expiry).toHaveValue("keep");
    await expect(editor.getByTestId("override-expiry-read")).toHaveText(
      new RegExp(`^Expires at ${DATE_TIME} \\(in (9m \\d+s|10m)\\)\\. To move it`),
    );
    await expect(editor).toContainText(
      new RegExp(`Override in force: 4 per minute, until ${DATE_TIME} \\(in (9m \\d+s|10m)\\)`),
    );
  }

  // Editing the limits keeps the end as it was.
  await editor.getByLabel("Count for limit 1").fill("5");
  await editor.getByRole("button", { name: "Save override" }).click();
  await expect(editor).toContainText("Override in force: 5 per minute");
  expect(await stored()).toBe(endsAt);
});

// Regression: a bad date's error stayed under the field once the date was put right (and under
// "Expires in" once the expiry was switched to "After a while"), though saving then succeeded.
test("an expiry's error goes once the date is put right, or another kind of expiry chosen", async ({
  page,
  admin,
  signIn,
}) => {
  const { editor } = await addReadOverride(page, admin, signIn);
  const expiry = editor.getByLabel("Expiry", { exact: true });
  const at = editor.getByLabel("Expires at");
  const error = editor.getByText("Write a time as 2026-11-25 14:30 (24-hour)");
  await expiry.selectOption("at");
  await at.fill("tomorrow-ish");
  await editor.getByRole("button", { name: "Save override" }).click();
  await expect(error).toBeVisible();
  await expect(at).toHaveAttribute("aria-invalid", "true");

  // Put right in place: the error goes as the date is typed, before saving.
  await at.fill("2099-01-01 12:00");
  await expect(error).toHaveCount(0);
  await expect(at).toHaveAttribute("aria-invalid", "false");
  // Wrong again, it says so again, as it is typed.
  await at.fill("2099-01-01 25:00");
  await expect(error).toBeVisible();

  // Another kind of expiry: the date's error goes with its field.
  await expiry.selectOption("after");
  await expect(editor.getByLabel("Expires in")).toBeVisible();
  await expect(error).toHaveCount(0);
  await expect(editor.getByLabel("Expires in")).toHaveAttribute("aria-invalid", "false");
  await editor.getByRole("button", { name: "Save override" }).click();
  await expect(toasts(page)).toContainText("Reads override saved");
});
