import AxeBuilder from "@axe-core/playwright";
import {
  type APIRequestContext,
  test as base,
  expect,
  type Locator,
  type Page,
} from "@playwright/test";
import type { Operation } from "../lib/vocabulary";
import { E2E_ADMIN_PASSWORD } from "../playwright.config";

/** LimitInput is a limit row as the admin API takes it. */
export interface LimitInput {
  operation: Operation;
  count: number;
  periodMs: number;
  dryRun?: boolean;
}

let counter = 0;
/** unique returns a name no other spec of this run uses. */
export function unique(prefix: string): string {
  counter += 1;
  return `${prefix}-${Date.now().toString(36)}-${counter}`;
}

/**
 * shownName is a name a docs screenshot shows, as a reader would meet it ("Acme Analytics", not
 * "Acme-mx1a2b-3"): as given on a test's first attempt, numbered on a retry ("Growth 2"), since a
 * retry shares the run's database with the attempt before. Only the screenshot specs use such
 * names; no other spec may use the same.
 */
export function shownName(name: string): string {
  const { retry } = base.info();
  return retry === 0 ? name : `${name} ${retry + 1}`;
}

/** Admin is an operator's API session for seeding data, plus API calls as a customer. */
export interface Admin {
  request: APIRequestContext;
  createPlan(
    limits: LimitInput[],
    name?: string,
  ): Promise<{ id: number; slug: string; name: string }>;
  createCustomer(
    planId: number,
    name?: string,
  ): Promise<{ id: number; name: string; apiKey: string }>;
}

type Fixtures = { admin: Admin; signIn: () => Promise<void>; consoleErrors: string[] };

/**
 * test gives each spec an `admin` API session to seed its own data, a `signIn()` that logs the
 * spec's page in through the UI, and fails any spec whose page logged a console error.
 */
export const test = base.extend<Fixtures>({
  consoleErrors: [
    async ({ page }, use) => {
      const errors: string[] = [];
      page.on("console", (msg) => {
        if (msg.type() === "error") errors.push(msg.text());
      });
      page.on("pageerror", (err) => errors.push(err.message));
      await use(errors);
      expect(errors, "the browser console logged errors").toEqual([]);
    },
    { auto: true },
  ],
  admin: async ({ playwright, baseURL }, use) => {
    const request = await playwright.request.newContext({ baseURL });
    const login = await request.post("/api/admin/session", {
      data: { password: E2E_ADMIN_PASSWORD },
    });
    expect(login.status()).toBe(200);
    await use({
      request,
      async createPlan(limits, name = unique("Plan")) {
        const slug = name.toLowerCase().replace(/[^a-z0-9-]+/g, "-");
        const res = await request.post("/api/admin/plans", { data: { slug, name, limits } });
        expect(res.status(), await res.text()).toBe(201);
        return (await res.json()).plan;
      },
      async createCustomer(planId, name = unique("Customer")) {
        const res = await request.post("/api/admin/customers", { data: { name, planId } });
        expect(res.status(), await res.text()).toBe(201);
        const body = await res.json();
        return { id: body.customer.id, name: body.customer.name, apiKey: body.apiKey };
      },
    });
    await request.dispose();
  },
  signIn: async ({ page }, use) => {
    await use(async () => {
      await page.goto("/login");
      await page.getByLabel("Password").fill(E2E_ADMIN_PASSWORD);
      await page.getByRole("button", { name: "Sign in" }).click();
      await expect(page).toHaveURL(/\/overview$/);
    });
  },
});

export { expect };

/**
 * screenshotPath is where a spec saves a README screenshot: under test-results/ on every run,
 * and over the committed one in docs/ when UPDATE_DOCS_SCREENSHOTS=1, so `npm test` leaves the
 * tree clean.
 */
export function screenshotPath(name: string): string {
  return process.env.UPDATE_DOCS_SCREENSHOTS === "1" ? `docs/${name}` : `test-results/${name}`;
}

/** toasts are the toasts showing on a page (sonner's), not counting one on its way out. */
export function toasts(page: Page): Locator {
  return page.locator('[data-sonner-toast][data-visible="true"]:not([data-removed="true"])');
}

/**
 * addReadOverride seeds a plan of 10 reads a minute and a customer on it, signs in, opens the
 * customer's page and adds an override for reads: the customer, and the override's editor with
 * no field touched yet.
 */
export async function addReadOverride(
  page: Page,
  admin: Admin,
  signIn: () => Promise<void>,
): Promise<{ customer: { id: number }; editor: Locator }> {
  const plan = await admin.createPlan([{ operation: "read", count: 10, periodMs: 60_000 }]);
  const customer = await admin.createCustomer(plan.id);
  await signIn();
  await page.goto(`/customers/${customer.id}`);
  const editor = page.getByRole("region", { name: "Override for reads" });
  await editor.getByRole("button", { name: "Add an override" }).click();
  return { customer, editor };
}

/** AXE_TAGS are the rules the suite holds every page to: WCAG 2.2 A and AA. */
const AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"];

/**
 * seriousViolations runs axe on the page as it is and returns its serious and critical
 * violations, each as "rule: target, target" (empty when there are none).
 */
export async function seriousViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).withTags(AXE_TAGS).analyze();
  return results.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
}

/** horizontalOverflow is how many CSS pixels the page is wider than its viewport (0 when it fits). */
export function horizontalOverflow(page: Page): Promise<number> {
  return page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
}

/**
 * pick chooses an option of a combobox (a plan or customer picker) by typing `text` into it
 * and clicking the first option that contains it.
 */
export async function pick(page: Page, label: string, text: string): Promise<void> {
  const input = page.getByRole("combobox", { name: label, exact: true });
  await input.fill(text);
  await page.getByRole("option").filter({ hasText: text }).first().click();
  await expect(input).toHaveValue(new RegExp(text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")));
}
