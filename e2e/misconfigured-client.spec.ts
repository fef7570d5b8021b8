import { randomBytes } from "node:crypto";
import { expect, test, unique } from "./fixtures";
import { type ExpressApp, startExpressApp } from "./support/express-apps";

const QUOTA_EXCEEDED = "https://iana.org/assignments/http-problem-types#quota-exceeded";

/** get sends `count` GET /api/orders to an app as the customer, one after the other. */
async function get(app: ExpressApp, apiKey: string, count: number) {
  const answers = [];
  for (let i = 0; i < count; i++) {
    const res = await fetch(`${app.url}/api/orders`, {
      headers: { authorization: `Bearer ${apiKey}` },
    });
    answers.push({ status: res.status, headers: res.headers, body: await res.json() });
  }
  return answers;
}

/** logLines are the lines an app printed that match `pattern`. */
function logLines(app: ExpressApp, pattern: RegExp): string[] {
  return app
    .log()
    .split("\n")
    .filter((line) => pattern.test(line));
}

test("an Express API on @ratekeeper/client with a revoked, an unknown or a peek-only token refuses with 503 and logs why; the operator sees the refused calls; with a good token it admits under the plan", async ({
  page,
  admin,
  signIn,
  baseURL,
}) => {
  const plans = (await (await admin.request.get("/api/admin/plans")).json()).plans as {
    id: number;
    slug: string;
  }[];
  const free = plans.find((plan) => plan.slug === "free");
  expect(free, "the seeded Free plan").toBeDefined();
  const customer = await admin.createCustomer(free?.id as number, unique("Acme"));
  const createToken = async (name: string, scopes: string[]) => {
    const res = await admin.request.post("/api/admin/service-tokens", { data: { name, scopes } });
    expect(res.status()).toBe(201);
    return (await res.json()).token as string;
  };
  const revokedName = unique("orders-revoked");
  const peekName = unique("orders-peek");
  const revokedToken = await createToken(revokedName, ["decide"]);
  const peekToken = await createToken(peekName, ["peek"]);
  const goodToken = await createToken(unique("orders-good"), ["decide"]);
  const unknownToken = `rks_${randomBytes(24).toString("base64url")}`;

  // The operator revokes a token in the dashboard: the dialog says what its service then does.
  await signIn();
  await page.goto("/service-tokens");
  await page.getByRole("button", { name: `Revoke ${revokedName}` }).click();
  const dialog = page.getByRole("dialog");
  await expect(dialog).toContainText("is refused (401) from the next one on");
  await expect(dialog).toContainText(
    "A service on @ratekeeper/client then answers each of its own requests 503",
  );
  await expect(dialog).toContainText(
    'unless it opted into admitting them unlimited (onMisconfigured: "admit")',
  );
  await dialog.getByRole("button", { name: "Revoke token" }).click();
  await expect(page.getByRole("row").filter({ hasText: revokedName })).toContainText("Revoked");

  const apps: ExpressApp[] = [];
  const start = async (name: string, token: string, extra: Record<string, string> = {}) => {
    const app = await startExpressApp({
      name,
      env: {
        RATEKEEPER_URL: baseURL as string,
        RATEKEEPER_TOKEN: token,
        RATEKEEPER_TIMEOUT_MS: "5000",
        // Failing open on outages: a refused token must refuse all the same.
        RATEKEEPER_ON_UNAVAILABLE: "open",
        ...extra,
      },
    });
    apps.push(app);
    return app;
  };
  try {
    for (const [name, token, cause] of [
      ["with-revoked-token", revokedToken, "it was revoked"],
      ["with-unknown-token", unknownToken, "it is unknown"],
      ["with-peek-only-token", peekToken, "it lacks the decide scope"],
    ] as const) {
      const app = await start(name, token);
      const answers = await get(app, customer.apiKey, 3);
      for (const answer of answers) {
        expect(answer.status, name).toBe(503);
        expect(answer.headers.get("content-type")).toBe("application/problem+json");
        expect(answer.headers.get("ratelimit")).toBeNull();
        expect(answer.body).toEqual({
          type: "about:blank",
          title: "Rate limiter misconfigured",
          status: 503,
          detail: `Ratekeeper refused this service's token (${cause}); requests are refused until the service's configuration is fixed.`,
        });
      }
      // One clear error line for the three refusals, naming the cause.
      await expect
        .poll(() => logLines(app, /\[ratekeeper\] Misconfigured:/), { message: name })
        .toHaveLength(1);
      expect(logLines(app, /\[ratekeeper\] Misconfigured:/)[0]).toContain(
        `Ratekeeper refused this service's token (${cause}) on POST ${baseURL}/api/v1/decisions`,
      );
      expect(logLines(app, /\[ratekeeper\] Misconfigured:/)[0]).toContain(
        'Every request is refused with 503 until it is fixed (onMisconfigured: "refuse").',
      );
    }

    // A service that checks its token at start stops at once, saying why.
    const checked = startExpressApp({
      name: "verifying-revoked",
      env: {
        RATEKEEPER_URL: baseURL as string,
        RATEKEEPER_TOKEN: revokedToken,
        RATEKEEPER_VERIFY: "1",
      },
    });
    await expect(checked).rejects.toThrow(
      /exited with 1:[\s\S]*verifying-revoked: cannot start: Ratekeeper refused this service's token \(it was revoked\)/,
    );

    // The operator sees the refused calls: against the revoked and the peek-only token, and
    // the unknown token's in one total.
    await page.reload();
    const refusedOf = (name: string) =>
      page
        .getByRole("row")
        .filter({ hasText: name })
        .locator('td[data-label="Refused, last hour"]');
    await expect(page.getByRole("columnheader", { name: "Refused, last hour" })).toBeVisible();
    await expect(refusedOf(revokedName)).toHaveText("3");
    await expect(refusedOf(peekName)).toHaveText("3");
    await expect(page.getByTestId("unknown-token-refusals")).toContainText(
      "3 decision calls with an unknown or missing token refused (401) in the last hour",
    );

    // Given a good token, the same app admits under the customer's plan (Free: 5 reads a
    // second): of six requests at once, five pass and the sixth is refused 429. A machine too
    // slow to send six within the 200 ms a token takes to come back sees a refill: the burst is
    // tried again once the bucket is full (after a second), never with fewer requests.
    const good = await start("with-good-token", goodToken);
    await expect(async () => {
      const answers = await Promise.all(
        Array.from({ length: 6 }, () => get(good, customer.apiKey, 1).then(([a]) => a)),
      );
      expect(answers.map((a) => a?.status).sort()).toEqual([200, 200, 200, 200, 200, 429]);
      for (const answer of answers) {
        expect(answer?.headers.get("ratelimit-policy")).toBe(
          '"read-5-per-1s";q=5;w=1, "read-100-per-1m";q=100;w=60',
        );
        expect(answer?.headers.get("ratelimit")).toMatch(/^"read-5-per-1s";r=\d;t=1$/);
        if (answer?.status === 200) {
          expect(answer.body).toEqual({ orders: [], customerId: customer.id });
        }
      }
      const refused = answers.find((a) => a?.status === 429);
      expect(refused?.headers.get("retry-after")).toBe("1");
      expect(refused?.body).toMatchObject({
        type: QUOTA_EXCEEDED,
        status: 429,
        "violated-policies": ["read-5-per-1s"],
      });
    }).toPass({ intervals: [1_100], timeout: 15_000 });
    expect(logLines(good, /\[ratekeeper\]|ratekeeper (unauthorized|rejected)/)).toEqual([]);
  } finally {
    await Promise.all(apps.map((app) => app.stop()));
  }
});
