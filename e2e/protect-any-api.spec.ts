import { expect, test, toasts, unique } from "./fixtures";
import { type ExpressApp, startExpressApp } from "./support/express-apps";

const HOUR = 3_600_000;
const LIMIT = 200;
const REQUESTS = 260;
const SAVED = "Saved. The next API request uses the new limits.";

test("an Express API on @ratekeeper/client, in two processes, admits exactly the plan's 200 concurrent requests; a plan edit in the dashboard changes its next decision", async ({
  page,
  admin,
  signIn,
  baseURL,
}) => {
  const plan = await admin.createPlan(
    [
      { operation: "read", count: LIMIT, periodMs: HOUR },
      { operation: "write", count: 20, periodMs: HOUR },
    ],
    unique("Orders"),
  );
  const customer = await admin.createCustomer(plan.id, unique("Acme"));
  const asCustomer = { authorization: `Bearer ${customer.apiKey}` };
  await signIn();

  // The operator creates the service's token in the dashboard.
  await page.getByRole("link", { name: "Service tokens", exact: true }).click();
  await page.getByRole("button", { name: "New service token" }).click();
  await page.getByLabel("Name", { exact: true }).fill(unique("orders-api"));
  await page.getByRole("button", { name: "Create token" }).click();
  const reveal = page.getByRole("region", { name: "New service token" });
  const token = await reveal.getByRole("textbox", { name: "Service token" }).inputValue();
  expect(token).toMatch(/^rks_/);

  const apps: ExpressApp[] = [];
  try {
    // Two processes of the same API, each with its own client; failing closed with a generous
    // timeout, so a slow decision on a busy machine shows as a 503 instead of an extra admission.
    for (const name of ["orders-1", "orders-2"]) {
      apps.push(
        await startExpressApp({
          name,
          env: {
            RATEKEEPER_URL: baseURL as string,
            RATEKEEPER_TOKEN: token,
            RATEKEEPER_TIMEOUT_MS: "5000",
            RATEKEEPER_ON_UNAVAILABLE: "closed",
          },
        }),
      );
    }
    const appUrl = (i: number) => (apps[i % apps.length] as ExpressApp).url;

    await page.goto(`/customers/${customer.id}`);
    const remaining = page.getByTestId("remaining-read-0");
    await expect(remaining).toHaveText(String(LIMIT));

    const answers = await Promise.all(
      Array.from({ length: REQUESTS }, (_, i) =>
        fetch(`${appUrl(i)}/api/orders`, { headers: asCustomer }).then(async (res) => ({
          status: res.status,
          headers: res.headers,
          body: await res.json(),
        })),
      ),
    );

    const admitted = answers.filter((a) => a.status === 200);
    const refused = answers.filter((a) => a.status === 429);
    expect(admitted).toHaveLength(LIMIT);
    expect(refused).toHaveLength(REQUESTS - LIMIT);
    for (const answer of answers) {
      expect(answer.headers.get("ratelimit-policy")).toBe(
        `"read-${LIMIT}-per-1h";q=${LIMIT};w=3600`,
      );
      expect(answer.headers.get("ratelimit")).toMatch(
        new RegExp(`^"read-${LIMIT}-per-1h";r=\\d+;t=\\d+$`),
      );
    }
    for (const answer of admitted) expect(answer.body.customerId).toBe(customer.id);
    for (const answer of refused) {
      expect(Number(answer.headers.get("retry-after"))).toBeGreaterThan(0);
      expect(answer.headers.get("content-type")).toBe("application/problem+json");
      expect(answer.body).toMatchObject({
        status: 429,
        "violated-policies": [`read-${LIMIT}-per-1h`],
      });
    }
    // Both processes admitted requests: the limit is the customer's, not a process's.
    expect(new Set(admitted.map((a) => a.headers.get("x-served-by")))).toEqual(
      new Set(["orders-1", "orders-2"]),
    );

    // The inspector shows the key's buckets moving (a token comes back every 18 s).
    await expect.poll(async () => Number(await remaining.textContent())).toBeLessThanOrEqual(1);
    await expect(page.getByTestId("traffic-allowed")).toHaveText(String(LIMIT));
    await expect(page.getByTestId("traffic-denied")).toHaveText(String(REQUESTS - LIMIT));

    // The bucket is empty: the API refuses...
    const before = await fetch(`${appUrl(0)}/api/orders`, { headers: asCustomer });
    expect(before.status).toBe(429);

    // ...until the operator raises the plan's reads: the next decision uses the new limit.
    await page.goto(`/plans/${plan.id}`);
    await expect(page.getByLabel("Operation for limit 1")).toHaveValue("read");
    await page.getByLabel("Count for limit 1").fill("300");
    await page.getByRole("button", { name: "Save changes" }).click();
    await expect(toasts(page).getByText(SAVED)).toBeVisible();

    for (const i of [0, 1]) {
      const after = await fetch(`${appUrl(i)}/api/orders`, { headers: asCustomer });
      expect(after.status, `through ${apps[i]?.name}`).toBe(200);
      expect(after.headers.get("ratelimit-policy")).toBe('"read-300-per-1h";q=300;w=3600');
    }
    for (const app of apps)
      expect(app.log()).not.toMatch(/ratekeeper (timeout|network|http|unauthorized)/);
  } finally {
    await Promise.all(apps.map((app) => app.stop()));
  }
});
