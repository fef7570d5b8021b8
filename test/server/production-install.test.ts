// A production install, started as `npm start` runs it (dist/server.mjs, Next behind it):
// RATEKEEPER_DEMO=off seeds no demo customer and serves no demo items routes; a bad value stops
// the start with a message naming the variable; a gateway says at start where it forwards.
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startInstance } from "../../e2e/support/instances";
import {
  BUILD_TIMEOUT_MS,
  ensureServerBuilt,
  type RatekeeperServer,
  startRatekeeper,
} from "../sdk/support/ratekeeper-server";
import { startUpstream, type Upstream } from "../support/upstream";

let upstream: Upstream;
let server: RatekeeperServer;

beforeAll(async () => {
  upstream = await startUpstream();
  server = await startRatekeeper({ RATEKEEPER_DEMO: "off", GATEWAY_UPSTREAM: upstream.url });
}, BUILD_TIMEOUT_MS);

afterAll(async () => {
  await server?.stop();
  await upstream?.close();
});

describe("a server started with RATEKEEPER_DEMO=off", () => {
  it("prints no demo key, and answers the demo items routes 404 with a problem, even to a good key", async () => {
    expect(server.instance.log()).not.toContain("Demo customer API key");
    expect(server.instance.log()).toContain("no demo customer (RATEKEEPER_DEMO=off)");
    const plans = await (await server.admin.request("GET", "/api/admin/plans")).json();
    const free = plans.plans.find((plan: { slug: string }) => plan.slug === "free");
    const customer = await server.admin.createCustomer(free.id);
    const customers = await (await server.admin.request("GET", "/api/admin/customers")).json();
    // The customer just created is the only one: no demo customer was seeded.
    expect(customers.customers.map((c: { id: number }) => c.id)).toEqual([customer.id]);
    for (const [method, route] of [
      ["GET", "/api/v1/items"],
      ["POST", "/api/v1/items/bulk"],
      ["GET", "/api/v1/items/1"],
    ]) {
      const res = await fetch(`${server.url}${route}`, {
        method,
        headers: { authorization: `Bearer ${customer.apiKey}`, "content-type": "application/json" },
        body: method === "POST" ? JSON.stringify({ items: [{ name: "a" }] }) : undefined,
      });
      expect(res.status, `${method} ${route}`).toBe(404);
      expect(res.headers.get("content-type")).toBe("application/problem+json");
      expect(await res.json()).toMatchObject({ status: 404, title: "Not found" });
    }
  });

  // Regression: Next's JSON answers carried `Vary: rsc, next-router-state-tree, …` (what a
  // page's payload depends on) and no Cache-Control; lib/http/api-head.ts, from server/full.ts.
  it("answers the admin API with a Vary of what it depends on, never to be kept", async () => {
    const plans = await server.admin.request("GET", "/api/admin/plans");
    expect(plans.status).toBe(200);
    expect(plans.headers.get("vary") ?? "").not.toMatch(/rsc|next-router|next-url/i);
    expect(plans.headers.get("cache-control")).toBe("no-store");
    const page = await fetch(`${server.url}/login`);
    expect(page.headers.get("vary")).toMatch(/rsc/i);
  });

  it("says once at start that the gateway is on and where it forwards", () => {
    expect(
      server.instance.count(`Gateway on: /gw/* forwards admitted requests to ${upstream.url}`),
    ).toBe(1);
  });
});

describe("a server started with a bad RATEKEEPER_DEMO", () => {
  it(
    "does not start, and says which variable is wrong and what it takes",
    async () => {
      await ensureServerBuilt();
      const dir = mkdtempSync(path.join(os.tmpdir(), "ratekeeper-bad-demo-"));
      try {
        await expect(
          startInstance({
            name: "bad-demo",
            env: { RATEKEEPER_DEMO: "maybe", DATABASE_PATH: path.join(dir, "ratekeeper.db") },
            startTimeoutMs: 20_000,
          }),
        ).rejects.toThrow(/exited with 1[\s\S]*Cannot start: RATEKEEPER_DEMO must be on .* or off/);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
    BUILD_TIMEOUT_MS,
  );
});
