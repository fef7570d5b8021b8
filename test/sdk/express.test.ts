import { createServer } from "node:http";
import express, { type NextFunction, type Request, type Response } from "express";
import { afterEach, describe, expect, it } from "vitest";
import { createRatekeeper, type RatekeeperError, type RatekeeperOptions } from "@/sdk/src/index";
import {
  decision,
  FakeFetch,
  FakeTimeouts,
  json,
  never,
  type Responder,
} from "./support/fake-ratekeeper";
import { type Listening, listen } from "./support/listen";

const KEY = "rk_customer-key";
const servers: Listening[] = [];

afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

/** app starts a real Express 5 app using the middleware, against a fake Ratekeeper. */
async function app(responder: Responder, options: Partial<RatekeeperOptions> = {}) {
  const fake = new FakeFetch(responder);
  const timeouts = new FakeTimeouts();
  const errors: RatekeeperError[] = [];
  const rk = createRatekeeper({
    url: "http://127.0.0.1:9",
    token: "rks_test",
    fetch: fake.fetch,
    abortAfter: timeouts.abortAfter,
    onError: (error) => errors.push(error),
    ...options,
  });
  const handled: string[] = [];
  const server = express();
  server.use(express.json());
  server.use("/priced", rk.express<Request>({ cost: (req) => Number(req.body?.units ?? 1) }));
  server.use(
    "/by-id",
    rk.express<Request>({ identify: (req) => ({ customerId: Number(req.get("x-customer-id")) }) }),
  );
  server.use(
    "/broken-identify",
    rk.express({
      identify: () => {
        throw new Error("identify failed");
      },
    }),
  );
  server.use(["/things", "/fails"], rk.express());
  server.get("/things", (req, res) => {
    handled.push(`GET ${req.path}`);
    res.json({ things: [], decision: rk.decisionOf(req)?.reason });
  });
  server.post("/things", (req, res) => {
    handled.push(`POST ${req.path}`);
    res.status(201).json({ created: true });
  });
  server.post("/priced", (_req, res) => {
    handled.push("POST /priced");
    res.json({ ok: true });
  });
  server.get("/by-id", (_req, res) => res.json({ ok: true }));
  server.get("/broken-identify", (_req, res) => res.json({ ok: true }));
  server.get("/fails", () => {
    throw new Error("route failed");
  });
  server.use((error: Error, _req: Request, res: Response, _next: NextFunction) => {
    res.status(500).json({ error: error.message });
  });
  const listening = await listen(createServer(server));
  servers.push(listening);
  const call = (path: string, init: RequestInit = {}, key: string | null = KEY) =>
    fetch(`${listening.url}${path}`, {
      ...init,
      headers: { ...(key ? { authorization: `Bearer ${key}` } : {}), ...(init.headers ?? {}) },
    });
  return { call, fake, timeouts, errors, handled, rk };
}

describe("express()", () => {
  it("decides each request with its Bearer key and puts the RateLimit fields on the route's answer", async () => {
    const answer = decision("ok");
    const { call, fake, handled } = await app(() => json(answer));

    const read = await call("/things");
    expect(read.status).toBe(200);
    expect(await read.json()).toEqual({ things: [], decision: "ok" });
    expect(read.headers.get("ratelimit")).toBe(answer.headers.RateLimit);
    expect(read.headers.get("ratelimit-policy")).toBe(answer.headers["RateLimit-Policy"]);

    const write = await call("/things", { method: "POST" });
    expect(write.status).toBe(201);
    expect(write.headers.get("ratelimit")).toBe(answer.headers.RateLimit);

    expect(fake.bodies()).toEqual([
      { key: KEY, operation: "read" },
      { key: KEY, operation: "write" },
    ]);
    expect(handled).toEqual(["GET /things", "POST /things"]);
  });

  it("keeps the RateLimit fields on the app's own error answers", async () => {
    const answer = decision("ok");
    const { call } = await app(() => json(answer));
    const response = await call("/fails");
    expect(response.status).toBe(500);
    expect(response.headers.get("ratelimit")).toBe(answer.headers.RateLimit);
  });

  it("answers a refusal itself: 429 with Retry-After and the problem, the route never runs", async () => {
    const answer = decision("rate_limited");
    const { call, handled } = await app(() => json(answer));
    const response = await call("/things");
    expect(response.status).toBe(429);
    expect(response.headers.get("content-type")).toBe("application/problem+json");
    expect(response.headers.get("retry-after")).toBe("1");
    expect(response.headers.get("ratelimit")).toBe(answer.headers.RateLimit);
    expect(await response.json()).toEqual(answer.problem);
    expect(handled).toEqual([]);
  });

  it.each([
    ["cost_exceeds_limit", 413],
    ["store_unavailable", 503],
    ["suspended", 403],
    ["unknown_key", 401],
  ] as const)("answers %s with %i", async (reason, status) => {
    const { call, handled } = await app(() => json(decision(reason)));
    const response = await call("/things");
    expect(response.status).toBe(status);
    expect(await response.json()).toEqual(decision(reason).problem);
    expect(handled).toEqual([]);
  });

  it("answers a request without a key 401 without asking Ratekeeper", async () => {
    const { call, fake, handled } = await app(() => json(decision()));
    const response = await call("/things", {}, null);
    expect(response.status).toBe(401);
    expect(response.headers.get("www-authenticate")).toMatch(/^Bearer/);
    expect(await response.json()).toMatchObject({ title: "Missing API key", status: 401 });
    expect(fake.calls).toEqual([]);
    expect(handled).toEqual([]);
  });

  // Regression: `Authorization: <key>` without the scheme was answered "Missing API key".
  it("answers a key sent without the Bearer scheme 401 saying to use it, without asking", async () => {
    const { call, fake } = await app(() => json(decision()));
    const response = await call("/things", { headers: { authorization: KEY } }, null);
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ title: "Use the Bearer scheme", status: 401 });
    expect(fake.calls).toEqual([]);
  });

  it("prices a request with the cost function and identifies by customer id", async () => {
    const { call, fake } = await app(() => json(decision()));
    await call("/priced", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ units: 7 }),
    });
    await call("/by-id", { headers: { "x-customer-id": "42" } }, null);
    expect(fake.bodies()).toEqual([
      { key: KEY, operation: "write", cost: 7 },
      { customerId: 42, operation: "read" },
    ]);
  });

  it("hands an error of identify to Express's error handling, not to the client as a refusal", async () => {
    const { call, fake } = await app(() => json(decision()));
    const response = await call("/broken-identify");
    expect(response.status).toBe(500);
    expect(await response.json()).toEqual({ error: "identify failed" });
    expect(fake.calls).toEqual([]);
  });

  it("admits when Ratekeeper times out and failing open, reporting the timeout", async () => {
    const { call, timeouts, errors, handled } = await app(() => never(), { onUnavailable: "open" });
    const pending = call("/things");
    await expect.poll(() => timeouts.requested.length).toBe(1);
    timeouts.advance(1_000); // the client's first call may take 1 s
    const response = await pending;
    expect(response.status).toBe(200);
    expect(response.headers.get("ratelimit")).toBeNull();
    expect(handled).toEqual(["GET /things"]);
    expect(errors.map((e) => e.kind)).toEqual(["timeout"]);
  });

  it("answers 503 naming the cause when Ratekeeper refuses the service token, even failing open (regression: it admitted everything)", async () => {
    const refused = {
      type: "about:blank",
      title: "Unknown service token",
      status: 401,
      detail:
        "No service token matches this one: check that it was copied whole, or create one under Service tokens.",
    };
    const { call, errors, handled } = await app(() => json(refused, 401), {
      onUnavailable: "open",
      logger: { error: () => {}, warn: () => {}, info: () => {} },
    });
    const response = await call("/things");
    expect(response.status).toBe(503);
    expect(response.headers.get("content-type")).toBe("application/problem+json");
    expect(response.headers.get("ratelimit")).toBeNull();
    expect(await response.json()).toEqual({
      type: "about:blank",
      title: "Rate limiter misconfigured",
      status: 503,
      detail:
        "Ratekeeper refused this service's token (it is unknown); requests are refused until the service's configuration is fixed.",
    });
    expect(handled).toEqual([]);
    expect(errors.map((e) => e.kind)).toEqual(["unauthorized"]);
  });

  it("admits on a refused service token only with onMisconfigured: admit", async () => {
    const { call, handled } = await app(() => json({ title: "Unknown service token" }, 401), {
      onMisconfigured: "admit",
      logger: { error: () => {}, warn: () => {}, info: () => {} },
    });
    const response = await call("/things");
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ decision: "ratekeeper_misconfigured" });
    expect(handled).toEqual(["GET /things"]);
  });
});
