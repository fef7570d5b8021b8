import { type Context, Hono } from "hono";
import { describe, expect, it } from "vitest";
import { createRatekeeper, type RatekeeperError, type RatekeeperOptions } from "@/sdk/src/index";
import { decision, FakeFetch, FakeTimeouts, json, type Responder } from "./support/fake-ratekeeper";

const KEY = "rk_customer-key";
const AUTH = { authorization: `Bearer ${KEY}` };

/** app builds a real Hono app using the middleware, against a fake Ratekeeper. */
function app(responder: Responder, options: Partial<RatekeeperOptions> = {}) {
  const fake = new FakeFetch(responder);
  const errors: RatekeeperError[] = [];
  const rk = createRatekeeper({
    url: "http://127.0.0.1:9",
    token: "rks_test",
    fetch: fake.fetch,
    abortAfter: new FakeTimeouts().abortAfter,
    onError: (error) => errors.push(error),
    ...options,
  });
  const handled: string[] = [];
  const hono = new Hono<{ Variables: { user: string } }>();
  hono.use("/priced/*", rk.hono({ cost: (c) => Number(c.req.query("units") ?? 1) }));
  hono.use("/api/*", rk.hono());
  // An earlier middleware (the app's own authentication) names the customer; the whole Context is typed.
  type Env = { Variables: { user: string } };
  hono.use("/mine/*", async (c, next) => {
    c.set("user", c.req.header("x-user") ?? "");
    await next();
  });
  hono.use(
    "/mine/*",
    rk.hono<Context<Env>>({ identify: (c) => ({ customerId: Number(c.get("user")) }) }),
  );
  hono.get("/mine/things", (c) => c.text(`things of ${c.get("user")}`));
  hono.get("/api/json", (c) => {
    handled.push("json");
    return c.json({ reason: rk.decisionOf(c)?.reason, raw: rk.decisionOf(c.req.raw)?.reason });
  });
  hono.post("/api/json", (c) => {
    handled.push("post");
    return c.json({ created: true }, 201);
  });
  // A Response of the handler's own, and one whose headers cannot change.
  hono.get("/api/raw", () => new Response("raw", { status: 202, headers: { "X-Raw": "1" } }));
  hono.get("/api/redirect", () => Response.redirect("http://app.test/elsewhere", 307));
  hono.get("/api/fails", () => {
    throw new Error("route failed");
  });
  hono.get("/priced/search", (c) => c.text("found"));
  hono.onError((error, c) => c.json({ error: error.message }, 500));
  const request = (path: string, init: RequestInit = { headers: AUTH }) =>
    hono.request(`http://app.test${path}`, init);
  return { request, fake, errors, handled };
}

describe("hono()", () => {
  it("decides with the Bearer key and puts the RateLimit fields on c.json answers", async () => {
    const answer = decision("ok");
    const { request, fake, handled } = app(() => json(answer));

    const read = await request("/api/json");
    expect(read.status).toBe(200);
    expect(await read.json()).toEqual({ reason: "ok", raw: "ok" });
    expect(read.headers.get("ratelimit")).toBe(answer.headers.RateLimit);
    expect(read.headers.get("ratelimit-policy")).toBe(answer.headers["RateLimit-Policy"]);

    const write = await request("/api/json", { method: "POST", headers: AUTH });
    expect(write.status).toBe(201);
    expect(write.headers.get("ratelimit")).toBe(answer.headers.RateLimit);

    expect(fake.bodies()).toEqual([
      { key: KEY, operation: "read" },
      { key: KEY, operation: "write" },
    ]);
    expect(handled).toEqual(["json", "post"]);
  });

  it("puts the fields on a handler's own Response, one with fixed headers, and the app's error answer", async () => {
    const answer = decision("ok");
    const { request } = app(() => json(answer));

    const raw = await request("/api/raw");
    expect([raw.status, raw.headers.get("x-raw"), await raw.text()]).toEqual([202, "1", "raw"]);
    expect(raw.headers.get("ratelimit")).toBe(answer.headers.RateLimit);

    const redirect = await request("/api/redirect");
    expect(redirect.status).toBe(307);
    expect(redirect.headers.get("location")).toBe("http://app.test/elsewhere");
    expect(redirect.headers.get("ratelimit")).toBe(answer.headers.RateLimit);

    const failed = await request("/api/fails");
    expect(failed.status).toBe(500);
    expect(await failed.json()).toEqual({ error: "route failed" });
    expect(failed.headers.get("ratelimit")).toBe(answer.headers.RateLimit);
  });

  it.each([
    ["rate_limited", 429],
    ["cost_exceeds_limit", 413],
    ["store_unavailable", 503],
    ["suspended", 403],
    ["unknown_key", 401],
  ] as const)("answers %s itself with %i, its fields and its problem", async (reason, status) => {
    const answer = decision(reason);
    const { request, handled } = app(() => json(answer));
    const response = await request("/api/json");
    expect(response.status).toBe(status);
    expect(response.headers.get("content-type")).toBe("application/problem+json");
    for (const [name, value] of Object.entries(answer.headers)) {
      expect(response.headers.get(name)).toBe(value);
    }
    expect(await response.json()).toEqual(answer.problem);
    expect(handled).toEqual([]);
  });

  it("answers a request without a key 401 without asking Ratekeeper", async () => {
    const { request, fake, handled } = app(() => json(decision()));
    const response = await request("/api/json", {});
    expect(response.status).toBe(401);
    expect(response.headers.get("www-authenticate")).toMatch(/^Bearer/);
    expect(await response.json()).toMatchObject({ title: "Missing API key" });
    expect(fake.calls).toEqual([]);
    expect(handled).toEqual([]);
  });

  it("identifies the customer from what an earlier middleware set on the context", async () => {
    const { request, fake } = app(() => json(decision()));
    const response = await request("/mine/things", { headers: { "x-user": "42" } });
    expect(await response.text()).toBe("things of 42");
    expect(fake.bodies()).toEqual([{ customerId: 42, operation: "read" }]);
  });

  it("prices a request with the cost function, given the Hono context", async () => {
    const { request, fake } = app(() => json(decision()));
    const response = await request("/priced/search?units=4");
    expect(await response.text()).toBe("found");
    expect(fake.bodies()).toEqual([{ key: KEY, operation: "read", cost: 4 }]);
  });

  it("admits when Ratekeeper is unreachable and failing open; answers 503 when failing closed", async () => {
    const unreachable = () => Promise.reject(new TypeError("fetch failed"));
    const open = app(unreachable, { onUnavailable: "open" });
    const admitted = await open.request("/api/json");
    expect(admitted.status).toBe(200);
    expect(await admitted.json()).toEqual({
      reason: "ratekeeper_unavailable",
      raw: "ratekeeper_unavailable",
    });
    expect(open.errors.map((e) => e.kind)).toEqual(["network"]);

    const closed = app(unreachable, { onUnavailable: "closed" });
    const refused = await closed.request("/api/json");
    expect(refused.status).toBe(503);
    expect(refused.headers.get("retry-after")).toBe("1");
    expect(await refused.json()).toMatchObject({ title: "Rate limiter unavailable" });
    expect(closed.handled).toEqual([]);
  });
});
