import type { Page } from "@playwright/test";
import { addReadOverride, expect, test, unique } from "./fixtures";

// An operator in New York: the dashboard writes every time in the browser's zone and names
// that zone one way, "UTC-05:00" (or "UTC-04:00" in summer), on every page.
test.use({ timezoneId: "America/New_York" });

const ZONE = "UTC-0[45]:00";
/** A time to the second, as the tokens page, the audit log and an override's end write it. */
const TO_THE_SECOND = new RegExp(String.raw`^\d{1,2} \w{3} \d{4}, \d{2}:\d{2}:\d{2} ${ZONE}$`);

/** zoneWordsOf lists every zone-like word a page shows ("GMT-5", "UTC-05:00", "EST"). */
async function zoneWordsOf(page: Page): Promise<string[]> {
  const text = await page.locator("main").innerText();
  return [...new Set(text.match(/\b(GMT|UTC)[+-]?[\d:]*|\b[ECMP][SD]T\b/g) ?? [])];
}

test("a browser in New York sees every time written one way, its zone named UTC-05:00", async ({
  page,
  admin,
  signIn,
}) => {
  // A token, an override with an end, and a customer at its hourly limit: times on the tokens
  // page, the audit log, the overview's near-limit card and the customer's page.
  const token = unique("zoned-service");
  expect(
    (
      await admin.request.post("/api/admin/service-tokens", {
        data: { name: token, scopes: ["decide"] },
      })
    ).status(),
  ).toBe(201);
  const plan = await admin.createPlan([{ operation: "read", count: 3, periodMs: 3_600_000 }]);
  const customer = await admin.createCustomer(plan.id, unique("Zoned"));
  for (let i = 0; i < 3; i++) {
    const read = await admin.request.get("/api/v1/items", {
      headers: { authorization: `Bearer ${customer.apiKey}` },
    });
    expect(read.status()).toBe(200);
  }
  const override = await admin.request.put(`/api/admin/customers/${customer.id}/overrides/write`, {
    data: {
      limits: [{ count: 4, periodMs: 60_000 }],
      expiresAt: Date.now() + 3_600_000,
    },
  });
  expect(override.status(), await override.text()).toBe(200);
  await signIn();

  // Regression: "25 Nov 2026, 08:01:19 GMT-5" here and in the audit log, but
  // "25 Nov 08:06 UTC-05:00" on the overview.
  await page.goto("/service-tokens");
  const created = page.getByRole("row").filter({ hasText: token }).locator("time").first();
  await expect(created).toHaveText(TO_THE_SECOND);
  expect(await zoneWordsOf(page)).toEqual([expect.stringMatching(new RegExp(`^${ZONE}$`))]);

  await page.goto(`/audit?customer=${customer.id}`);
  const rows = page.getByRole("table", { name: "Audit log" }).locator("tbody tr");
  await expect(rows.first().locator("time")).toHaveText(TO_THE_SECOND);
  // The override's end, in the entry's summary, is written the same way.
  await expect(rows.filter({ hasText: "until" }).first()).toContainText(
    new RegExp(String.raw`until \d{1,2} \w{3} \d{4}, \d{2}:\d{2}:\d{2} ${ZONE}`),
  );
  for (const word of await zoneWordsOf(page)) expect(word).toMatch(new RegExp(`^${ZONE}$`));

  await page.goto("/overview?range=1h");
  const near = page.getByRole("region", { name: "Customers near their limit" });
  const nearRow = near.getByTestId("near-limit-row").filter({ hasText: customer.name });
  await expect(nearRow).toContainText(
    new RegExp(String.raw`at \d{1,2} \w{3} \d{4}, \d{2}:\d{2} ${ZONE}`),
    { timeout: 20_000 },
  );
  await expect(page.getByText(new RegExp(`the last hour, times in ${ZONE}`))).toBeVisible();
  for (const word of await zoneWordsOf(page)) expect(word).toMatch(new RegExp(`^${ZONE}$`));

  // The inspector showed both ways on one page.
  await page.goto(`/customers/${customer.id}`);
  const writes = page.getByRole("region", { name: "Override for writes" });
  await expect(writes).toContainText(
    new RegExp(String.raw`until \d{1,2} \w{3} \d{4}, \d{2}:\d{2}:\d{2} ${ZONE}`),
  );
  await expect(page.getByText(new RegExp(`times in ${ZONE}`)).first()).toBeVisible();
  for (const word of await zoneWordsOf(page)) expect(word).toMatch(new RegExp(`^${ZONE}$`));
});

test("the audit log's time filters read a 24-hour time in the zone they name", async ({
  page,
  admin,
  signIn,
}) => {
  const plan = await admin.createPlan([{ operation: "read", count: 5, periodMs: 60_000 }]);
  const customer = await admin.createCustomer(plan.id, unique("Filtered"));
  await signIn();
  await page.goto(`/audit?customer=${customer.id}`);
  const rows = page.getByRole("table", { name: "Audit log" }).locator("tbody tr");
  await expect(rows).toHaveCount(1);

  // Regression: native mm/dd/yyyy inputs with a 12-hour clock and no zone.
  const from = page.getByRole("textbox", { name: /^From/ });
  await expect(page.getByText(/24-hour, UTC-0[45]:00/).first()).toBeVisible();
  await expect(from).toHaveAttribute("placeholder", "YYYY-MM-DD HH:MM");
  // 14:30 in New York on 15 January 2026 is 19:30 UTC.
  await from.fill("2026-01-15 14:30");
  await from.press("Enter");
  await expect(page).toHaveURL(/from=2026-01-15T19%3A30%3A00.000Z/);
  await expect(from).toHaveValue("2026-01-15 14:30");
  await expect(rows).toHaveCount(1);

  // An end before the entry: nothing matches; a date alone means its midnight.
  const before = page.getByRole("textbox", { name: /^Before/ });
  await before.fill("2026-01-16");
  await before.press("Enter");
  await expect(page).toHaveURL(/to=2026-01-16T05%3A00%3A00.000Z/);
  await expect(before).toHaveValue("2026-01-16 00:00");
  await expect(page.getByText("No change matches these filters.")).toBeVisible();

  // Something that is not a time says how to write one and changes nothing.
  await before.fill("16/01/2026 2pm");
  await before.press("Enter");
  await expect(page.getByText("Write a time as 2026-11-25 14:30 (24-hour)")).toBeVisible();
  await expect(before).toHaveAttribute("aria-invalid", "true");
  await expect(page).toHaveURL(/to=2026-01-16T05%3A00%3A00.000Z/);

  // Emptied, the field drops its filter; the others stay.
  await before.fill("");
  await before.press("Enter");
  await expect(page).not.toHaveURL(/to=/);
  await expect(page).toHaveURL(/from=2026-01-15T19%3A30%3A00.000Z/);
  await expect(rows).toHaveCount(1);

  await page.getByRole("button", { name: "Clear filters" }).click();
  await expect(page).not.toHaveURL(/from=|customer=/);
  await expect(from).toHaveValue("");
  await expect(before).toHaveValue("");
});

test("an override's end is typed as a 24-hour time in the zone the field names", async ({
  page,
  admin,
  signIn,
}) => {
  const { customer, editor } = await addReadOverride(page, admin, signIn);
  await editor.getByLabel("Count for limit 1").fill("4");
  await editor.getByLabel("Expiry", { exact: true }).selectOption("at");
  // Regression: a native date input, mm/dd/yyyy with a 12-hour clock in New York.
  const end = editor.getByRole("textbox", { name: "Expires at" });
  await expect(end).toHaveAttribute("placeholder", "YYYY-MM-DD HH:MM");
  await expect(
    editor.getByText(new RegExp(`^As YYYY-MM-DD HH:MM, 24-hour, ${ZONE}\\.$`)),
  ).toBeVisible();

  await end.fill("01/15/2030 2:30 PM");
  await editor.getByRole("button", { name: "Save override" }).click();
  await expect(editor.getByText("Write a time as 2026-11-25 14:30 (24-hour)")).toBeVisible();

  // 14:30 in New York on 15 January 2030 is 19:30 UTC.
  await end.fill("2030-01-15 14:30");
  await editor.getByRole("button", { name: "Save override" }).click();
  await expect(editor).toContainText(new RegExp(`until 15 Jan 2030, 14:30:00 ${ZONE}`));
  const stored = await (await admin.request.get(`/api/admin/customers/${customer.id}`)).json();
  expect(stored.overrides.read.expiresAt).toBe(Date.UTC(2030, 0, 15, 19, 30));
});
