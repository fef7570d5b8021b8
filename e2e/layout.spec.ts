import type { Locator, Page } from "@playwright/test";
import { expect, horizontalOverflow, test, unique } from "./fixtures";

const PHONE = { width: 390, height: 844 };

/** brokenWords lists the words of an element's text that the layout split across two lines. */
function brokenWords(element: Locator): Promise<string[]> {
  return element.evaluate((root) => {
    const broken: string[] = [];
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.textContent ?? "";
      for (const match of text.matchAll(/[^\s-]+/g)) {
        const range = document.createRange();
        range.setStart(node, match.index ?? 0);
        range.setEnd(node, (match.index ?? 0) + match[0].length);
        const tops = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
        if (tops.size > 1) broken.push(match[0]);
      }
    }
    return broken;
  });
}

/**
 * offCentre is how far apart (CSS pixels) the vertical centres of two elements are, both read
 * in one go, so that a page still laying out above them moves both alike.
 */
async function offCentre(a: Locator, b: Locator): Promise<number> {
  await expect(a).toBeVisible();
  await expect(b).toBeVisible();
  const [first, second] = [await a.elementHandle(), await b.elementHandle()];
  return a.page().evaluate(
    ([x, y]) => {
      const middle = (e: Element | null) => {
        const r = (e as Element).getBoundingClientRect();
        return r.top + r.height / 2;
      };
      return Math.abs(middle(x) - middle(y));
    },
    [first, second] as const,
  );
}

/** yTicksOf reads the labels of a chart's y-axis, bottom to top. */
async function yTicksOf(chart: Locator): Promise<string[]> {
  await expect(
    chart.locator(".recharts-yAxis-tick-labels .recharts-cartesian-axis-tick-value").first(),
  ).toBeVisible();
  return chart
    .locator(".recharts-yAxis-tick-labels .recharts-cartesian-axis-tick-value")
    .allTextContents();
}

test("on a phone the overview's per-plan table breaks no word in two", async ({
  page,
  admin,
  signIn,
}) => {
  // Refusals give the denied column its long second line ("83.3%, 1 customer refused"), which
  // squeezed the plan column until "Enterprise" broke as "Enterpris e".
  const plan = await admin.createPlan(
    [{ operation: "read", count: 1, periodMs: 60_000 }],
    `Trial ${Math.random().toString(36).slice(2, 6)}`,
  );
  const customer = await admin.createCustomer(plan.id, unique("Squeezed"));
  for (let i = 0; i < 6; i++) {
    await admin.request.get("/api/v1/items", {
      headers: { authorization: `Bearer ${customer.apiKey}` },
    });
  }
  await page.setViewportSize(PHONE);
  await signIn();
  await page.goto("/overview?range=1h");
  const perPlan = page.getByRole("region", { name: "Per plan" });
  await expect(perPlan.getByRole("row").filter({ hasText: plan.name })).toContainText(
    "customer refused",
    { timeout: 20_000 },
  );
  await expect(perPlan.getByRole("link", { name: "Enterprise" })).toBeVisible();
  // Regression: "Enterpris e".
  expect(await brokenWords(perPlan.getByRole("table"))).toEqual([]);
  expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
});

test("dry-run and scope checkboxes sit level with their row", async ({ page, admin, signIn }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  const plan = await admin.createPlan([
    { operation: "read", count: 10, periodMs: 1_000 },
    { operation: "read", count: 5, periodMs: 1_000, dryRun: true },
  ]);
  const customer = await admin.createCustomer(plan.id);
  await signIn();

  // Regression: each checkbox sat some pixels lower than the inputs of its row.
  await page.goto(`/plans/${plan.id}`);
  for (const n of [1, 2]) {
    const row = page.getByLabel(`Count for limit ${n}`);
    const box = page.getByLabel(`Dry run for limit ${n}`);
    expect(await offCentre(box, row), `plan row ${n}`).toBeLessThanOrEqual(2);
    const remove = page.getByRole("button", { name: `Remove limit ${n}` });
    expect(await offCentre(remove, row), `remove ${n}`).toBeLessThanOrEqual(2);
  }

  await page.goto(`/customers/${customer.id}`);
  const editor = page.getByRole("region", { name: "Override for reads" });
  await editor.getByRole("button", { name: "Add an override" }).click();
  const overrideCount = editor.getByLabel("Count for limit 1");
  const overrideBox = editor.getByLabel("Dry run for limit 1");
  expect(await offCentre(overrideBox, overrideCount)).toBeLessThanOrEqual(2);
  await editor.getByRole("button", { name: "Cancel" }).click();

  await page.goto("/service-tokens");
  await page.getByRole("button", { name: "New service token" }).click();
  for (const scope of ["decide", "peek"]) {
    const label = page.locator("label").filter({ has: page.locator("code", { hasText: scope }) });
    const box = label.getByRole("checkbox");
    const word = label.locator("code");
    expect(await offCentre(box, word), scope).toBeLessThanOrEqual(2);
  }
});

/**
 * limitRowsFit says, for the limit rows on the page, how far (CSS px) the furthest control of a
 * row reaches past the rows' own box (0 when all fit), and whether each count shows its value
 * whole.
 */
function limitRowsFit(page: Page): Promise<{ past: number; clipped: string[] }> {
  return page.evaluate(() => {
    let past = 0;
    const clipped: string[] = [];
    for (const table of document.querySelectorAll("table")) {
      if (!table.querySelector('[aria-label^="Count for limit"]')) continue;
      const box = (table.parentElement as HTMLElement).getBoundingClientRect();
      for (const control of table.querySelectorAll("input, select, button, label")) {
        past = Math.max(past, control.getBoundingClientRect().right - box.right);
      }
      for (const count of table.querySelectorAll<HTMLInputElement>('[aria-label^="Count for"]')) {
        if (count.scrollWidth > count.clientWidth) clipped.push(count.value);
      }
    }
    return { past: Math.round(past), clipped };
  });
}

// Regression: at 1280 px the six figures of a plan's usage left "Tokens taken" alone on a second
// row.
test("a plan's six figures share their rows evenly", async ({ page, admin, signIn }) => {
  const plan = await admin.createPlan([{ operation: "read", count: 2, periodMs: 1_000 }]);
  await page.setViewportSize({ width: 1280, height: 900 });
  await signIn();
  await page.goto(`/plans/${plan.id}`);
  const figures = page.getByRole("region", { name: /^The plan over/ }).locator(".stat");
  await expect(figures).toHaveCount(6);
  for (const width of [1280, 1024, 1600, 820, 390]) {
    await page.setViewportSize({ width, height: 900 });
    const tops = await figures.evaluateAll((all) =>
      all.map((e) => Math.round(e.getBoundingClientRect().top)),
    );
    const perRow = new Map<number, number>();
    for (const top of tops) perRow.set(top, (perRow.get(top) ?? 0) + 1);
    expect(new Set(perRow.values()).size, `${width} px: ${[...perRow.values()]}`).toBe(1);
  }
});

// Regression: from 361 to 610 px wide a plan's limit rows ran wider than their card (an
// override's from 361 to 430), and on a phone a count of 1,000,000 was clipped in its box.
test("limit rows fit their card at every width, a limit of 1,000,000 shown whole", async ({
  page,
  admin,
  signIn,
}) => {
  const plan = await admin.createPlan([
    { operation: "read", count: 1_000_000, periodMs: 1 },
    { operation: "read", count: 100, periodMs: 60_000, dryRun: true },
    { operation: "write", count: 1, periodMs: 1_000 },
  ]);
  const customer = await admin.createCustomer(plan.id);
  await signIn();
  for (const width of [390, 430, 480, 540, 600, 820, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto(`/plans/${plan.id}`);
    await expect(page.getByLabel("Count for limit 1")).toHaveValue("1000000");
    expect(await limitRowsFit(page), `plan, ${width} px`).toEqual({ past: 0, clipped: [] });
    await page.goto(`/customers/${customer.id}`);
    const editor = page.getByRole("region", { name: "Override for reads" });
    await editor.getByRole("button", { name: "Add an override" }).click();
    await expect(editor.getByLabel("Count for limit 1")).toHaveValue("1000000");
    expect(await limitRowsFit(page), `override, ${width} px`).toEqual({ past: 0, clipped: [] });
  }

  // On a phone a limit takes two lines, its count over its period, with a rule above every
  // limit but the first, so each reads as one.
  await page.setViewportSize(PHONE);
  await page.goto(`/plans/${plan.id}`);
  const rows = page.locator("tbody tr").filter({ has: page.getByLabel(/^Count for limit \d+$/) });
  await expect(rows).toHaveCount(3);
  const rules = await rows.evaluateAll((all) => all.map((e) => getComputedStyle(e).borderTopStyle));
  expect(rules).toEqual(["none", "solid", "solid"]);
  expect(
    await offCentre(page.getByLabel("Count for limit 1"), page.getByLabel("Unit for limit 1")),
  ).toBeGreaterThan(20);
});

test("on a phone a revoked token's card is grey edge to edge, not inset", async ({
  page,
  admin,
  signIn,
}) => {
  const name = unique("revoked-service");
  const created = await admin.request.post("/api/admin/service-tokens", {
    data: { name, scopes: ["decide"] },
  });
  expect(created.status()).toBe(201);
  const { serviceToken } = await created.json();
  expect(
    (await admin.request.delete(`/api/admin/service-tokens/${serviceToken.id}`)).status(),
  ).toBeLessThan(300);
  await page.setViewportSize(PHONE);
  await signIn();
  await page.goto("/service-tokens");
  const row = page.getByRole("row").filter({ hasText: name });
  await expect(row).toContainText("Revoked");
  // Regression: each cell painted its own grey inside the card's padding, a box within a box.
  const painted = await row.evaluate((tr) => {
    const transparent = "rgba(0, 0, 0, 0)";
    return {
      row: getComputedStyle(tr).backgroundColor !== transparent,
      cells: [...tr.querySelectorAll("td")].filter(
        (td) => getComputedStyle(td).backgroundColor !== transparent,
      ).length,
    };
  });
  expect(painted).toEqual({ row: true, cells: 0 });
  // And the list is one box: the grey reaches its border, not a card's padding around it.
  const list = page.locator(".table-wrap").filter({ has: row });
  const [rowBox, listBox] = [await row.boundingBox(), await list.boundingBox()];
  if (!rowBox || !listBox) throw new Error("not visible");
  expect(Math.abs(rowBox.x - listBox.x)).toBeLessThanOrEqual(1);
  expect(Math.abs(rowBox.width - listBox.width)).toBeLessThanOrEqual(2);
  await expect(page.locator(".card").filter({ has: list })).toHaveCount(0);
});

test("the inspector ticks a bucket of 50 at 0, 25 and 50", async ({ page, admin, signIn }) => {
  const plan = await admin.createPlan([{ operation: "read", count: 50, periodMs: 1_000 }]);
  const customer = await admin.createCustomer(plan.id);
  await signIn();
  await page.goto(`/customers/${customer.id}`);
  const bucket = page.getByRole("region", { name: "read bucket 1: 50 per second" });
  // Regression: 0, 20 and 50, unevenly spaced.
  expect(await yTicksOf(bucket)).toEqual(["0", "25", "50"]);
});
