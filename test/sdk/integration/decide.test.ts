// @ratekeeper/client against a real Ratekeeper: the server entry (dist/server.mjs) on a
// temporary database, driven through its admin API.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRatekeeper, type RatekeeperError } from "@/sdk/src/index";
import { freePort } from "../../support/redis-server";
import { QUOTA_EXCEEDED } from "../support/fake-ratekeeper";
import {
  BUILD_TIMEOUT_MS,
  type RatekeeperServer,
  startRatekeeper,
} from "../support/ratekeeper-server";

const HOUR = 3_600_000;
let server: RatekeeperServer;
let token: string;

beforeAll(async () => {
  server = await startRatekeeper();
  token = (await server.admin.createServiceToken()).token;
}, BUILD_TIMEOUT_MS);

afterAll(async () => {
  await server?.stop();
});

/** client talks to the test's Ratekeeper; generous timeout, failing closed: a slow answer never admits. */
function client(
  overrides: { token?: string; url?: string; onError?: (e: RatekeeperError) => void } = {},
) {
  return createRatekeeper({
    url: overrides.url ?? server.url,
    token: overrides.token ?? token,
    timeoutMs: 5_000,
    onUnavailable: "closed",
    onError: overrides.onError ?? (() => {}),
  });
}

async function customerOn(
  limits: { operation: "read" | "write"; count: number; periodMs: number }[],
) {
  const plan = await server.admin.createPlan(limits);
  const customer = await server.admin.createCustomer(plan.id);
  return { plan, customer };
}

describe("decide() against a real Ratekeeper", () => {
  it("takes tokens until the limit, then refuses with 429, Retry-After and the quota-exceeded problem", async () => {
    const { plan, customer } = await customerOn([
      { operation: "read", count: 3, periodMs: HOUR },
      { operation: "write", count: 1, periodMs: HOUR },
    ]);
    const rk = client();
    const read = { key: customer.apiKey, operation: "read" } as const;

    const allowed = [await rk.decide(read), await rk.decide(read), await rk.decide(read)];
    expect(allowed.map((d) => [d.allowed, d.reason, d.status, d.remaining])).toEqual([
      [true, "ok", 200, 2],
      [true, "ok", 200, 1],
      [true, "ok", 200, 0],
    ]);
    expect(allowed[0]).toMatchObject({
      customer: {
        id: customer.id,
        name: customer.name,
        plan: { id: plan.id, slug: plan.slug, name: plan.name },
      },
      operation: "read",
      cost: 1,
      limit: { policy: "read-3-per-1h", count: 3, periodMs: HOUR },
      retryAfterMs: 0,
      problem: null,
      headers: {
        "RateLimit-Policy": '"read-3-per-1h";q=3;w=3600',
        RateLimit: '"read-3-per-1h";r=2;t=1200',
      },
    });

    const refused = await rk.decide(read);
    expect(refused).toMatchObject({
      allowed: false,
      reason: "rate_limited",
      status: 429,
      remaining: 0,
    });
    expect(Number(refused.headers["Retry-After"])).toBeGreaterThan(0);
    expect(refused.problem).toMatchObject({
      type: QUOTA_EXCEEDED,
      status: 429,
      "violated-policies": ["read-3-per-1h"],
    });

    // Writes draw from their own bucket.
    await expect(rk.decide({ key: customer.apiKey, operation: "write" })).resolves.toMatchObject({
      allowed: true,
      remaining: 0,
    });
  });

  it("peeks without taking, and decides by customer id from the same buckets as by key", async () => {
    const { customer } = await customerOn([{ operation: "read", count: 2, periodMs: HOUR }]);
    const rk = client();
    for (let i = 0; i < 3; i++) {
      await expect(
        rk.decide({ customerId: customer.id, operation: "read", peek: true }),
      ).resolves.toMatchObject({ allowed: true, remaining: 2 });
    }
    await expect(rk.decide({ customerId: customer.id, operation: "read" })).resolves.toMatchObject({
      allowed: true,
      remaining: 1,
    });
    await expect(rk.decide({ key: customer.apiKey, operation: "read" })).resolves.toMatchObject({
      allowed: true,
      remaining: 0,
    });
  });

  it("answers a cost no limit allows 413, an unknown key 401 and a suspended customer 403", async () => {
    const { customer } = await customerOn([{ operation: "write", count: 5, periodMs: HOUR }]);
    const rk = client();
    const tooDear = await rk.decide({ key: customer.apiKey, operation: "write", cost: 6 });
    expect(tooDear).toMatchObject({
      allowed: false,
      reason: "cost_exceeds_limit",
      status: 413,
      retryAfterMs: null,
    });

    const unknown = await rk.decide({ key: "rk_not-a-customer-key", operation: "read" });
    expect(unknown).toMatchObject({
      allowed: false,
      reason: "unknown_key",
      status: 401,
      customer: null,
    });
    const notCustomer = await rk.decide({ customerId: 999_999, operation: "read" });
    expect(notCustomer).toMatchObject({ reason: "unknown_key", status: 401 });

    const suspend = await server.admin.request("PATCH", `/api/admin/customers/${customer.id}`, {
      status: "suspended",
    });
    expect(suspend.status).toBe(200);
    await expect(rk.decide({ key: customer.apiKey, operation: "write" })).resolves.toMatchObject({
      allowed: false,
      reason: "suspended",
      status: 403,
      problem: { status: 403 },
    });
  });

  it("decides a batch in order, each on its own", async () => {
    const { customer } = await customerOn([{ operation: "read", count: 2, periodMs: HOUR }]);
    const read = { key: customer.apiKey, operation: "read" } as const;
    const results = await client().decideBatch([
      read,
      { key: "rk_unknown", operation: "read" },
      read,
      read,
      { customerId: customer.id, operation: "read", peek: true },
    ]);
    expect(results.map((r) => [r.reason, r.remaining])).toEqual([
      ["ok", 1],
      ["unknown_key", null],
      ["ok", 0],
      ["rate_limited", 0],
      ["rate_limited", 0],
    ]);
  });

  it("answers a key too long for Ratekeeper unknown_key, as Ratekeeper would", async () => {
    await expect(
      client().decide({ key: `rk_${"x".repeat(300)}`, operation: "read" }),
    ).resolves.toMatchObject({
      reason: "unknown_key",
      status: 401,
    });
  });
});

describe("when Ratekeeper refuses the service token or cannot be reached", () => {
  it("refuses 503 (misconfigured, not unavailable) for an unknown, a revoked and a peek-only token, even failing open", async () => {
    const { customer } = await customerOn([{ operation: "read", count: 10, periodMs: HOUR }]);
    const revoked = await server.admin.createServiceToken();
    expect(
      (await server.admin.request("DELETE", `/api/admin/service-tokens/${revoked.id}`)).status,
    ).toBe(204);
    const peekOnly = await server.admin.createServiceToken(["peek"]);

    for (const [bad, status, cause] of [
      ["rks_not-a-token", 401, "it is unknown"],
      [revoked.token, 401, "it was revoked"],
      [peekOnly.token, 403, "it lacks the decide scope"],
    ] as const) {
      const errors: RatekeeperError[] = [];
      const lines: string[] = [];
      const rk = createRatekeeper({
        url: server.url,
        token: bad,
        timeoutMs: 5_000,
        onUnavailable: "open",
        onError: (e) => errors.push(e),
        logger: { error: (line) => lines.push(line), warn: () => {}, info: () => {} },
      });
      const result = await rk.decide({ key: customer.apiKey, operation: "read" });
      expect(result).toMatchObject({
        allowed: false,
        reason: "ratekeeper_misconfigured",
        status: 503,
        problem: { title: "Rate limiter misconfigured", status: 503 },
      });
      expect(result.problem?.detail).toContain(
        `Ratekeeper refused this service's token (${cause})`,
      );
      expect(errors.map((e) => [e.kind, e.status])).toEqual([["unauthorized", status]]);
      expect(lines).toHaveLength(1);
      await expect(rk.verify()).rejects.toMatchObject({ kind: "unauthorized" });
    }

    // None of it took a token.
    await expect(
      client().decide({ key: customer.apiKey, operation: "read", peek: true }),
    ).resolves.toMatchObject({ remaining: 10 });
  });

  it("verifies a good token: its name, prefix and scopes", async () => {
    const peekOnly = await server.admin.createServiceToken(["peek"]);
    const info = await client().verify();
    expect(info).toMatchObject({ prefix: token.slice(0, 12), scopes: ["decide"] });
    expect(typeof info.name).toBe("string");
    await expect(client({ token: peekOnly.token }).verify({ scopes: ["peek"] })).resolves.toEqual(
      expect.objectContaining({ id: peekOnly.id, scopes: ["peek"] }),
    );
  });

  it("calls a URL that is not Ratekeeper's misconfigured (404), not unavailable", async () => {
    const errors: RatekeeperError[] = [];
    const rk = client({ url: `${server.url}/not-ratekeeper/`, onError: (e) => errors.push(e) });
    const lines: string[] = [];
    const quiet = createRatekeeper({
      url: `${server.url}/not-ratekeeper/`,
      token,
      timeoutMs: 5_000,
      logger: { error: (line) => lines.push(line), warn: () => {}, info: () => {} },
    });
    await expect(quiet.decide({ key: "rk_a", operation: "read" })).resolves.toMatchObject({
      allowed: false,
      reason: "ratekeeper_misconfigured",
      status: 503,
    });
    expect(lines[0]).toMatch(/404.*is the url Ratekeeper's/);
    await expect(rk.verify()).rejects.toMatchObject({ kind: "rejected", status: 404 });
    expect(errors).toEqual([]);
  });

  it("fails open or closed when nothing listens at the URL", async () => {
    const url = `http://127.0.0.1:${await freePort()}`;
    const errors: RatekeeperError[] = [];
    const open = createRatekeeper({
      url,
      token,
      onUnavailable: "open",
      onError: (e) => errors.push(e),
    });
    await expect(open.decide({ key: "rk_a", operation: "read" })).resolves.toMatchObject({
      allowed: true,
      reason: "ratekeeper_unavailable",
    });
    const closed = createRatekeeper({
      url,
      token,
      onUnavailable: "closed",
      onError: (e) => errors.push(e),
    });
    await expect(closed.decide({ key: "rk_a", operation: "read" })).resolves.toMatchObject({
      allowed: false,
      status: 503,
    });
    expect(errors.map((e) => e.kind)).toEqual(["network", "network"]);
  });
});
