// The middleware in a real Express 5 app and a real Hono app (on @hono/node-server), each on its
// own loopback port, deciding through a real Ratekeeper (dist/server.mjs on a temporary database).
import { createServer, type Server } from "node:http";
import { createAdaptorServer } from "@hono/node-server";
import express, { type Request } from "express";
import { type Context, Hono } from "hono";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRatekeeper, type Ratekeeper, type RatekeeperError } from "@/sdk/src/index";
import { QUOTA_EXCEEDED } from "../support/fake-ratekeeper";
import { type Listening, listen } from "../support/listen";
import {
  BUILD_TIMEOUT_MS,
  type RatekeeperServer,
  startRatekeeper,
} from "../support/ratekeeper-server";

const HOUR = 3_600_000;
let server: RatekeeperServer;
const apps: Record<string, Listening> = {};
const hits: Record<string, number> = { express: 0, hono: 0 };
const errors: RatekeeperError[] = [];

function expressApp(rk: Ratekeeper): Server {
  const app = express();
  app.use("/priced", rk.express<Request>({ cost: (req) => Number(req.query.units ?? 1) }));
  app.use("/api", rk.express());
  app.get("/api/things", (_req, res) => {
    hits.express = (hits.express ?? 0) + 1;
    res.json({ things: ["a", "b"] });
  });
  app.post("/api/things", (_req, res) => {
    hits.express = (hits.express ?? 0) + 1;
    res.status(201).json({ created: true });
  });
  app.post("/priced", (_req, res) => res.json({ priced: true }));
  return createServer(app);
}

function honoApp(rk: Ratekeeper): Server {
  const app = new Hono();
  app.use("/priced", rk.hono<Context>({ cost: (c) => Number(c.req.query("units") ?? 1) }));
  app.use("/api/*", rk.hono());
  app.get("/api/things", (c) => {
    hits.hono = (hits.hono ?? 0) + 1;
    return c.json({ things: ["a", "b"] });
  });
  app.post("/api/things", (c) => {
    hits.hono = (hits.hono ?? 0) + 1;
    return c.json({ created: true }, 201);
  });
  app.post("/priced", (c) => c.json({ priced: true }));
  return createAdaptorServer({ fetch: app.fetch }) as Server;
}

beforeAll(async () => {
  server = await startRatekeeper();
  const { token } = await server.admin.createServiceToken();
  // Failing closed with a generous timeout: a slow answer on a busy machine can never admit.
  const rk = createRatekeeper({
    url: server.url,
    token,
    timeoutMs: 5_000,
    onUnavailable: "closed",
    onError: (error) => errors.push(error),
  });
  apps.express = await listen(expressApp(rk));
  apps.hono = await listen(honoApp(rk));
}, BUILD_TIMEOUT_MS);

afterAll(async () => {
  await Promise.all(Object.values(apps).map((app) => app.close()));
  await server?.stop();
  expect(errors).toEqual([]);
});

async function customerOn(
  limits: { operation: "read" | "write"; count: number; periodMs: number }[],
) {
  const plan = await server.admin.createPlan(limits);
  return server.admin.createCustomer(plan.id);
}

describe.each(["express", "hono"])("%s middleware against a real Ratekeeper", (name) => {
  const call = (path: string, key: string | null, init: RequestInit = {}) =>
    fetch(`${apps[name]?.url}${path}`, {
      ...init,
      headers: key ? { authorization: `Bearer ${key}` } : {},
    });

  it("admits exactly the plan's reads, with the RateLimit fields on every answer, then answers 429 itself", async () => {
    const customer = await customerOn([
      { operation: "read", count: 5, periodMs: HOUR },
      { operation: "write", count: 2, periodMs: HOUR },
    ]);
    const before = hits[name] ?? 0;
    for (let i = 1; i <= 5; i++) {
      const res = await call("/api/things", customer.apiKey);
      expect(res.status, `read ${i}`).toBe(200);
      expect(await res.json()).toEqual({ things: ["a", "b"] });
      expect(res.headers.get("ratelimit-policy")).toBe('"read-5-per-1h";q=5;w=3600');
      expect(res.headers.get("ratelimit")).toMatch(
        new RegExp(`^"read-5-per-1h";r=${5 - i};t=\\d+$`),
      );
    }
    const refused = await call("/api/things", customer.apiKey);
    expect(refused.status).toBe(429);
    expect(refused.headers.get("content-type")).toBe("application/problem+json");
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(refused.headers.get("ratelimit")).toMatch(/^"read-5-per-1h";r=0;t=\d+$/);
    expect(await refused.json()).toMatchObject({
      type: QUOTA_EXCEEDED,
      status: 429,
      "violated-policies": ["read-5-per-1h"],
    });
    expect((hits[name] ?? 0) - before).toBe(5);

    // Writes come from their own bucket.
    const write = await call("/api/things", customer.apiKey, { method: "POST" });
    expect(write.status).toBe(201);
    expect(write.headers.get("ratelimit")).toMatch(/^"write-2-per-1h";r=1;/);
  });

  it("admits exactly the limit of concurrent requests", async () => {
    const customer = await customerOn([{ operation: "read", count: 12, periodMs: HOUR }]);
    const answers = await Promise.all(
      Array.from({ length: 30 }, () => call("/api/things", customer.apiKey)),
    );
    const statuses = answers.map((res) => res.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(12);
    expect(statuses.filter((s) => s === 429)).toHaveLength(18);
    for (const res of answers) {
      expect(res.headers.get("ratelimit")).toMatch(/^"read-12-per-1h";r=\d+;t=\d+$/);
      expect(res.headers.get("ratelimit-policy")).toBe('"read-12-per-1h";q=12;w=3600');
    }
  });

  it("answers 401 for a missing or unknown key and 403 for a suspended customer", async () => {
    const missing = await call("/api/things", null);
    expect(missing.status).toBe(401);
    expect(missing.headers.get("www-authenticate")).toMatch(/^Bearer/);
    expect(await missing.json()).toMatchObject({ title: "Missing API key", status: 401 });

    const unknown = await call("/api/things", "rk_no-such-customer");
    expect(unknown.status).toBe(401);
    expect(unknown.headers.get("www-authenticate")).toMatch(/^Bearer/);
    expect(await unknown.json()).toMatchObject({ title: "Unknown API key", status: 401 });

    const customer = await customerOn([{ operation: "read", count: 5, periodMs: HOUR }]);
    await server.admin.request("PATCH", `/api/admin/customers/${customer.id}`, {
      status: "suspended",
    });
    const suspended = await call("/api/things", customer.apiKey);
    expect(suspended.status).toBe(403);
    expect(await suspended.json()).toMatchObject({ status: 403 });
  });

  it("prices requests with the cost function and answers a cost no limit allows 413", async () => {
    const customer = await customerOn([{ operation: "write", count: 4, periodMs: HOUR }]);
    const priced = await call("/priced?units=3", customer.apiKey, { method: "POST" });
    expect(priced.status).toBe(200);
    expect(priced.headers.get("ratelimit")).toMatch(/^"write-4-per-1h";r=1;/);
    const tooDear = await call("/priced?units=5", customer.apiKey, { method: "POST" });
    expect(tooDear.status).toBe(413);
    expect(await tooDear.json()).toMatchObject({ status: 413 });
    const refused = await call("/priced?units=2", customer.apiKey, { method: "POST" });
    expect(refused.status).toBe(429);
  });
});
