import { describe, expect, it, vi } from "vitest";
import { createRatekeeper, type RatekeeperError, type RatekeeperOptions } from "@/sdk/src/index";
import {
  decision,
  FakeFetch,
  FakeTimeouts,
  json,
  never,
  QUOTA_EXCEEDED,
  type Responder,
} from "./support/fake-ratekeeper";

const KEY = "rk_customer-key";

function setup(
  responder: Responder = () => json(decision()),
  options: Partial<RatekeeperOptions> = {},
) {
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
  const handler = vi.fn(async (request: Request) =>
    Response.json({ ok: true, method: request.method }, { headers: { "X-App": "1" } }),
  );
  return { rk, fake, timeouts, errors, handler };
}

function request(
  method = "GET",
  headers: Record<string, string> = { authorization: `Bearer ${KEY}` },
) {
  return new Request("http://app.test/things", { method, headers });
}

describe("withRateLimit", () => {
  it("decides with the request's Bearer key and adds the RateLimit fields to the handler's answer", async () => {
    const answer = decision("ok");
    const { rk, fake, handler } = setup(() => json(answer));
    const GET = rk.withRateLimit(handler);

    const response = await GET(request());

    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ ok: true, method: "GET" });
    expect(response.headers.get("x-app")).toBe("1");
    expect(response.headers.get("ratelimit")).toBe(answer.headers.RateLimit);
    expect(response.headers.get("ratelimit-policy")).toBe(answer.headers["RateLimit-Policy"]);
    expect(fake.bodies()).toEqual([{ key: KEY, operation: "read" }]);
    expect(handler).toHaveBeenCalledOnce();
  });

  it.each([
    ["GET", "read"],
    ["HEAD", "read"],
    ["POST", "write"],
    ["PUT", "write"],
    ["PATCH", "write"],
    ["DELETE", "write"],
    ["OPTIONS", "write"],
  ])("derives the operation of %s: %s", async (method, operation) => {
    const { rk, fake, handler } = setup();
    await rk.withRateLimit(handler)(request(method));
    expect(fake.bodies()).toEqual([{ key: KEY, operation }]);
  });

  it("takes the operation, the cost and the customer from the options", async () => {
    const { rk, fake, handler } = setup();
    const POST = rk.withRateLimit(handler, {
      identify: (req) => ({ customerId: Number(req.headers.get("x-customer")) }),
      operation: "read",
      cost: async (req) => Number(new URL(req.url).searchParams.get("n")),
    });
    await POST(
      new Request("http://app.test/search?n=5", {
        method: "POST",
        headers: { "x-customer": "42" },
      }),
    );
    expect(fake.bodies()).toEqual([{ customerId: 42, operation: "read", cost: 5 }]);
  });

  it("accepts a key from identify, as a string or as { key }, and an operation function", async () => {
    const { rk, fake, handler } = setup();
    await rk.withRateLimit(handler, { identify: (req) => req.headers.get("x-api-key") })(
      request("GET", { "x-api-key": "rk_from-header" }),
    );
    await rk.withRateLimit(handler, {
      identify: () => ({ key: "rk_object" }),
      operation: (req) => (req.method === "POST" ? "read" : "write"),
    })(request("POST"));
    expect(fake.bodies()).toEqual([
      { key: "rk_from-header", operation: "read" },
      { key: "rk_object", operation: "read" },
    ]);
  });

  it.each([
    ["no Authorization field", {}, "Missing API key"],
    ["a Basic Authorization", { authorization: "Basic dXNlcjpwYXNz" }, "Use the Bearer scheme"],
    ["a Bearer without a key", { authorization: "Bearer " }, "Missing API key"],
    ["a Bearer with two words", { authorization: "Bearer a b" }, "Malformed Authorization field"],
  ])(
    "answers %s 401 itself, in the server's words, without asking Ratekeeper",
    async (_, headers, title) => {
      const { rk, fake, handler } = setup();
      const response = await rk.withRateLimit(handler)(request("GET", headers));
      expect(response.status).toBe(401);
      expect(response.headers.get("content-type")).toBe("application/problem+json");
      expect(response.headers.get("www-authenticate")).toMatch(/^Bearer/);
      expect(await response.json()).toEqual({
        type: "about:blank",
        title,
        status: 401,
        detail: expect.stringMatching(/^Send Authorization: Bearer <key>/),
      });
      expect(fake.calls).toEqual([]);
      expect(handler).not.toHaveBeenCalled();
    },
  );

  it("answers 401 without asking when identify finds no one", async () => {
    const { rk, fake, handler } = setup();
    for (const identity of [null, undefined, "", { key: "" }]) {
      const response = await rk.withRateLimit(handler, { identify: () => identity })(request());
      expect(response.status).toBe(401);
    }
    expect(fake.calls).toEqual([]);
  });

  it.each([
    ["rate_limited", 429],
    ["cost_exceeds_limit", 413],
    ["store_unavailable", 503],
    ["suspended", 403],
    ["unknown_key", 401],
  ] as const)(
    "answers a %s decision itself with %i, its fields and its problem",
    async (reason, status) => {
      const answer = decision(reason);
      const { rk, handler } = setup(() => json(answer));

      const response = await rk.withRateLimit(handler)(request());

      expect(response.status).toBe(status);
      expect(response.headers.get("content-type")).toBe("application/problem+json");
      for (const [name, value] of Object.entries(answer.headers)) {
        expect(response.headers.get(name)).toBe(value);
      }
      expect(await response.json()).toEqual(answer.problem);
      expect(handler).not.toHaveBeenCalled();
    },
  );

  it("sends a 429 with Retry-After and the quota-exceeded problem", async () => {
    const { rk, handler } = setup(() => json(decision("rate_limited")));
    const response = await rk.withRateLimit(handler)(request());
    expect(response.headers.get("retry-after")).toBe("1");
    expect(await response.json()).toMatchObject({
      type: QUOTA_EXCEEDED,
      "violated-policies": ["read-5-per-1s"],
    });
  });

  it("challenges a 401 for an unknown key with WWW-Authenticate", async () => {
    const { rk, handler } = setup(() => json(decision("unknown_key")));
    const response = await rk.withRateLimit(handler)(request());
    expect(response.headers.get("www-authenticate")).toMatch(/^Bearer/);
  });

  it("answers a refusal without a problem with a problem of its status", async () => {
    const { rk, handler } = setup(() => json({ ...decision("rate_limited"), problem: null }));
    const response = await rk.withRateLimit(handler)(request());
    expect(response.status).toBe(429);
    expect(await response.json()).toEqual({
      type: "about:blank",
      title: "Too many requests",
      status: 429,
    });
  });

  it("adds the fields to a response whose headers cannot change, keeping its status and fields", async () => {
    const answer = decision("ok");
    const { rk } = setup(() => json(answer));
    const redirect = Response.redirect("http://app.test/elsewhere", 307);
    expect(() => redirect.headers.set("x", "1")).toThrow(TypeError);

    const response = await rk.withRateLimit(() => redirect)(request());

    expect(response.status).toBe(307);
    expect(response.headers.get("location")).toBe("http://app.test/elsewhere");
    expect(response.headers.get("ratelimit")).toBe(answer.headers.RateLimit);
  });

  it("passes the handler's other arguments through (a Next route's context, Bun's server)", async () => {
    const { rk } = setup();
    const handler = vi.fn(
      async (_request: Request, context: { params: Promise<{ id: string }> }) =>
        new Response((await context.params).id),
    );
    const response = await rk.withRateLimit(handler)(request(), {
      params: Promise.resolve({ id: "7" }),
    });
    expect(await response.text()).toBe("7");
  });

  it("remembers the decision for decisionOf(request)", async () => {
    const answer = decision("ok");
    const { rk } = setup(() => json(answer));
    let seen: unknown;
    const req = request();
    await rk.withRateLimit((r) => {
      seen = rk.decisionOf(r);
      return new Response("ok");
    })(req);
    expect(seen).toEqual(answer);
    expect(rk.decisionOf(req)).toEqual(answer);
    expect(rk.decisionOf(request())).toBeUndefined();
  });

  it("admits, with no fields, when Ratekeeper is unreachable and failing open; the error goes to onError", async () => {
    const { rk, timeouts, errors, handler } = setup(() => never(), { onUnavailable: "open" });
    const pending = rk.withRateLimit(handler)(request());
    timeouts.advance(1_000); // the client's first call may take 1 s
    const response = await pending;
    expect(response.status).toBe(200);
    expect(response.headers.get("ratelimit")).toBeNull();
    expect(handler).toHaveBeenCalledOnce();
    expect(errors.map((e) => e.kind)).toEqual(["timeout"]);
  });

  it("answers 503 when Ratekeeper is unreachable and failing closed; the handler never runs", async () => {
    const { rk, handler } = setup(() => Promise.reject(new TypeError("fetch failed")), {
      onUnavailable: "closed",
    });
    const response = await rk.withRateLimit(handler)(request());
    expect(response.status).toBe(503);
    expect(response.headers.get("retry-after")).toBe("1");
    expect(response.headers.get("content-type")).toBe("application/problem+json");
    expect(await response.json()).toMatchObject({ title: "Rate limiter unavailable", status: 503 });
    expect(handler).not.toHaveBeenCalled();
  });

  it("lets the application's own errors through: the handler's, identify's, a bad cost", async () => {
    const { rk } = setup();
    const failure = new Error("handler failed");
    await expect(
      rk.withRateLimit(() => {
        throw failure;
      })(request()),
    ).rejects.toBe(failure);
    await expect(
      rk.withRateLimit(() => new Response(), {
        identify: () => {
          throw failure;
        },
      })(request()),
    ).rejects.toBe(failure);
    await expect(
      rk.withRateLimit(() => new Response(), { cost: () => 0 })(request()),
    ).rejects.toBeInstanceOf(RangeError);
  });
});
