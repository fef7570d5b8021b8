import { describe, expect, it, vi } from "vitest";
import {
  createRatekeeper,
  type DecideResult,
  MISCONFIGURED_LOG_INTERVAL_MS,
  type RatekeeperError,
  type RatekeeperOptions,
} from "@/sdk/src/index";
import {
  decision,
  FakeFetch,
  FakeTimeouts,
  json,
  never,
  type Responder,
} from "./support/fake-ratekeeper";

// Ratekeeper refusing the client itself (its service token, its URL) is a misconfiguration, not
// an outage: by default every request is refused with 503 and the cause is logged as an error,
// whatever onUnavailable says. Regression: the client failed open on a revoked, unknown or
// peek-only token, so limiting stopped with one console.warn as the only trace.

const READ = { key: "rk_abc", operation: "read" } as const;

const UNKNOWN_TOKEN = {
  type: "about:blank",
  title: "Unknown service token",
  status: 401,
  detail:
    "No service token matches this one: check that it was copied whole, or create one under Service tokens.",
};
const REVOKED_TOKEN = {
  type: "about:blank",
  title: "Revoked service token",
  status: 401,
  detail: 'The service token "orders" was revoked; create a new one under Service tokens.',
};
const PEEK_ONLY = {
  type: "about:blank",
  title: "Service token lacks the decide scope",
  status: 403,
  detail: 'This token may only peek ("peek": true); taking tokens needs the decide scope.',
};

function setup(responder: Responder, options: Partial<RatekeeperOptions> = {}) {
  const fake = new FakeFetch(responder);
  const timeouts = new FakeTimeouts();
  let now = 1_000_000;
  const logger = { error: vi.fn(), warn: vi.fn(), info: vi.fn() };
  const rk = createRatekeeper({
    url: "http://127.0.0.1:9/rk",
    token: "rks_test",
    fetch: fake.fetch,
    abortAfter: timeouts.abortAfter,
    logger,
    now: () => now,
    ...options,
  });
  return {
    rk,
    fake,
    timeouts,
    logger,
    advance: (ms: number) => {
      now += ms;
    },
  };
}

function errorOf(result: DecideResult): RatekeeperError | undefined {
  return result.reason === "ratekeeper_misconfigured" ? result.error : undefined;
}

describe("when Ratekeeper refuses the client itself", () => {
  it.each([
    [
      "an unknown token (401)",
      () => json(UNKNOWN_TOKEN, 401),
      "unauthorized",
      "Ratekeeper refused this service's token (it is unknown)",
    ],
    [
      "a revoked token (401)",
      () => json(REVOKED_TOKEN, 401),
      "unauthorized",
      "Ratekeeper refused this service's token (it was revoked)",
    ],
    [
      "a token lacking the decide scope (403)",
      () => json(PEEK_ONLY, 403),
      "unauthorized",
      "Ratekeeper refused this service's token (it lacks the decide scope)",
    ],
    [
      "a missing token (401, stripped on the way)",
      () => json({ title: "Missing service token", status: 401 }, 401),
      "unauthorized",
      "Ratekeeper refused this service's token (none was received)",
    ],
    [
      "a URL that is not Ratekeeper's (404)",
      () => new Response("<h1>Not found</h1>", { status: 404 }),
      "rejected",
      "Ratekeeper answered 404 to this service's calls (a wrong URL, or a call it does not accept)",
    ],
    [
      "a call it does not accept (400 not about the key)",
      () => json({ errors: { cost: ["Too big"] } }, 400),
      "rejected",
      "Ratekeeper answered 400 to this service's calls (a wrong URL, or a call it does not accept)",
    ],
  ] as const)(
    "refuses with 503 and a problem naming %s, even when failing open",
    async (_, responder, kind, summary) => {
      const { rk } = setup(responder, { onUnavailable: "open" });
      const result = await rk.decide(READ);
      expect(result).toEqual({
        allowed: false,
        reason: "ratekeeper_misconfigured",
        status: 503,
        customer: null,
        operation: "read",
        cost: 1,
        remaining: null,
        limit: null,
        resetAfterMs: null,
        retryAfterMs: null,
        headers: {},
        problem: {
          type: "about:blank",
          title: "Rate limiter misconfigured",
          status: 503,
          detail: `${summary}; requests are refused until the service's configuration is fixed.`,
        },
        error: expect.objectContaining({ name: "RatekeeperError", kind }),
      });
      expect(errorOf(result)?.misconfigured).toBe(true);
    },
  );

  it("keeps the token and the URL out of the problem body, and both in the error", async () => {
    const { rk } = setup(() => json(UNKNOWN_TOKEN, 401));
    const result = await rk.decide(READ);
    expect(JSON.stringify(result.problem)).not.toMatch(/rks_test|127\.0\.0\.1/);
    expect(errorOf(result)?.message).toBe(
      "Ratekeeper refused this service's token (it is unknown) on POST http://127.0.0.1:9/rk/api/v1/decisions: 401 Unknown service token: No service token matches this one: check that it was copied whole, or create one under Service tokens.",
    );
    expect(errorOf(result)?.body).toEqual(UNKNOWN_TOKEN);
  });

  it("admits only with onMisconfigured: admit, still saying why and carrying the error", async () => {
    const { rk, logger } = setup(() => json(UNKNOWN_TOKEN, 401), { onMisconfigured: "admit" });
    const result = await rk.decide({ customerId: 4, operation: "write", cost: 3 });
    expect(result).toMatchObject({
      allowed: true,
      reason: "ratekeeper_misconfigured",
      status: 200,
      operation: "write",
      cost: 3,
      headers: {},
      problem: null,
      retryAfterMs: 0,
    });
    expect(errorOf(result)?.kind).toBe("unauthorized");
    expect(logger.error.mock.calls[0]?.[0]).toMatch(
      /Requests are admitted without limits until it is fixed \(onMisconfigured: "admit"\)\.$/,
    );
  });

  it("refuses by default whatever onUnavailable says, and onUnavailable still rules outages of a client never refused", async () => {
    const { rk } = setup(() => json(UNKNOWN_TOKEN, 401), { onUnavailable: "open" });
    expect(await rk.decide(READ)).toMatchObject({ allowed: false, status: 503 });
    const other = setup(() => json({}, 502), { onUnavailable: "open" });
    expect(await other.rk.decide(READ)).toMatchObject({
      allowed: true,
      reason: "ratekeeper_unavailable",
    });
  });

  it("refuses every request of a batch whose call is refused, each with the error", async () => {
    const { rk } = setup(() => json(PEEK_ONLY, 403));
    const results = await rk.decideBatch([READ, { customerId: 2, operation: "write" }]);
    expect(results.map((r) => [r.reason, r.status, r.operation])).toEqual([
      ["ratekeeper_misconfigured", 503, "read"],
      ["ratekeeper_misconfigured", 503, "write"],
    ]);
    expect(results.map((r) => errorOf(r)?.status)).toEqual([403, 403]);
  });

  it("rejects an onMisconfigured it does not know", () => {
    expect(() =>
      createRatekeeper({
        url: "http://127.0.0.1:9",
        token: "rks_x",
        onMisconfigured: "open" as never,
      }),
    ).toThrow(new TypeError('onMisconfigured must be "refuse" or "admit"'));
  });
});

/** slow never answers: a Ratekeeper too slow for any timeout. */
const slow: Responder = () => never();

/** flush lets every pending callback run: the fake Ratekeeper's answers arrive before time moves. */
async function flush(): Promise<void> {
  for (let i = 0; i < 20; i++) await Promise.resolve();
}

describe("a refusal that stands", () => {
  // The trial's fake Ratekeeper: every answer a 401, every second one too slow. Regression: each
  // slow answer was an outage and failed open, so half the requests passed unlimited after the
  // client had logged that every request would be refused.
  it("never admits once Ratekeeper refused the token, when its later answers come too late", async () => {
    let calls = 0;
    const { rk, timeouts, logger } = setup(
      () => (++calls % 2 === 0 ? slow({} as never) : json(UNKNOWN_TOKEN, 401)),
      { onUnavailable: "open" },
    );
    const handler = vi.fn(() => new Response("ok"));
    const limited = rk.withRateLimit(handler);
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++) {
      const pending = limited(
        new Request("http://api.test/orders", { headers: { authorization: "Bearer rk_abc" } }),
      );
      await flush();
      timeouts.advance(1_000);
      statuses.push((await pending).status);
    }
    expect(statuses).toEqual([503, 503, 503, 503, 503, 503, 503]);
    expect(handler).not.toHaveBeenCalled();
    expect(logger.warn).not.toHaveBeenCalled();
    expect(logger.error).toHaveBeenCalledTimes(1);
  });

  it("keeps refusing through timeouts and network failures, with the refusal as the cause and onError hearing each failure", async () => {
    const errors: RatekeeperError[] = [];
    const { rk, fake, timeouts } = setup(() => json(PEEK_ONLY, 403), {
      onUnavailable: "open",
      onError: (error) => errors.push(error),
    });
    await rk.decide(READ);
    fake.responder = slow;
    const timedOut = rk.decide(READ);
    timeouts.advance(1_000);
    fake.responder = () => Promise.reject(new TypeError("fetch failed"));
    const results = [await timedOut, await rk.decide(READ)];
    expect(results.map((r) => [r.reason, r.status, errorOf(r)?.status])).toEqual([
      ["ratekeeper_misconfigured", 503, 403],
      ["ratekeeper_misconfigured", 503, 403],
    ]);
    expect(results[0]?.problem?.detail).toMatch(/it lacks the decide scope/);
    expect(errors.map((e) => e.kind)).toEqual(["unauthorized", "timeout", "network"]);
  });

  it("ends with a 200 decision: outages then follow onUnavailable again", async () => {
    const { rk, fake, timeouts, logger } = setup(() => json(UNKNOWN_TOKEN, 401), {
      onUnavailable: "open",
    });
    await rk.decide(READ);
    fake.responder = () => json(decision());
    expect((await rk.decide(READ)).reason).toBe("ok");
    fake.responder = slow;
    const pending = rk.decide(READ);
    timeouts.advance(100);
    expect(await pending).toMatchObject({ allowed: true, reason: "ratekeeper_unavailable" });
    expect(logger.info.mock.calls).toEqual([
      ["[ratekeeper] Ratekeeper accepts this service's calls again; requests are decided."],
    ]);
  });

  it("is not ended by a 400 about the customer's key, which Ratekeeper answers before the token's scope", async () => {
    const { rk, fake, timeouts } = setup(() => json(PEEK_ONLY, 403));
    await rk.decide(READ);
    fake.responder = () => json({ errors: { key: ["Too long"] } }, 400);
    expect((await rk.decide(READ)).reason).toBe("unknown_key");
    fake.responder = slow;
    const pending = rk.decide(READ);
    timeouts.advance(1_000);
    expect(await pending).toMatchObject({ reason: "ratekeeper_misconfigured", status: 503 });
  });

  it("holds for every request of a batch whose call fails after a refusal", async () => {
    const { rk, fake } = setup(() => json(UNKNOWN_TOKEN, 401));
    await rk.decide(READ);
    fake.responder = () => json({}, 502);
    const results = await rk.decideBatch([READ, { customerId: 2, operation: "write" }]);
    expect(results.map((r) => [r.reason, r.status])).toEqual([
      ["ratekeeper_misconfigured", 503],
      ["ratekeeper_misconfigured", 503],
    ]);
  });

  it("begins with a refusal verify() found: a decision that then times out is refused, and logged", async () => {
    const { rk, fake, timeouts, logger } = setup(() => json(UNKNOWN_TOKEN, 401), {
      onUnavailable: "open",
    });
    await expect(rk.verify()).rejects.toMatchObject({ kind: "unauthorized" });
    expect(logger.error).not.toHaveBeenCalled();
    fake.responder = slow;
    const pending = rk.decide(READ);
    timeouts.advance(100);
    expect(await pending).toMatchObject({ reason: "ratekeeper_misconfigured", status: 503 });
    expect(logger.error.mock.calls[0]?.[0]).toMatch(
      /^\[ratekeeper\] Misconfigured: Ratekeeper refused this service's token .* on GET /,
    );
  });

  it("does not begin with a verify() that fails for an outage: the first decision's timeout follows onUnavailable", async () => {
    const { rk, fake, timeouts } = setup(() => json({}, 503), { onUnavailable: "open" });
    await expect(rk.verify()).rejects.toMatchObject({ kind: "http" });
    fake.responder = slow;
    const pending = rk.decide(READ);
    timeouts.advance(100);
    expect((await pending).reason).toBe("ratekeeper_unavailable");
  });
});

describe("the error line of a misconfiguration", () => {
  it("is logged at once, then at most once every 10 s of the injected clock, counting the calls between", async () => {
    const { rk, logger, advance } = setup(() => json(UNKNOWN_TOKEN, 401));
    expect(MISCONFIGURED_LOG_INTERVAL_MS).toBe(10_000);

    await rk.decide(READ);
    expect(logger.error.mock.calls).toEqual([
      [
        '[ratekeeper] Misconfigured: Ratekeeper refused this service\'s token (it is unknown) on POST http://127.0.0.1:9/rk/api/v1/decisions: 401 Unknown service token: No service token matches this one: check that it was copied whole, or create one under Service tokens. Every request is refused with 503 until it is fixed (onMisconfigured: "refuse").',
      ],
    ]);
    for (let i = 0; i < 5; i++) {
      advance(1_000);
      await rk.decide(READ);
    }
    expect(logger.error).toHaveBeenCalledTimes(1);
    advance(4_999);
    await rk.decide(READ);
    expect(logger.error).toHaveBeenCalledTimes(1);
    advance(1);
    await rk.decide(READ);
    expect(logger.error).toHaveBeenCalledTimes(2);
    expect(logger.error.mock.calls[1]?.[0]).toMatch(
      / 6 more calls so refused since the last line\.$/,
    );
    expect(logger.warn).not.toHaveBeenCalled();
  });

  it("counts a single call since the last line in the singular (regression: 1 more calls)", async () => {
    const { rk, logger, advance } = setup(() => json(UNKNOWN_TOKEN, 401));
    await rk.decide(READ);
    advance(1_000);
    await rk.decide(READ);
    advance(MISCONFIGURED_LOG_INTERVAL_MS);
    await rk.decide(READ);
    expect(logger.error.mock.calls[1]?.[0]).toMatch(
      / Every request is refused with 503 until it is fixed \(onMisconfigured: "refuse"\)\. 1 more call so refused since the last line\.$/,
    );
  });

  it("is logged even when onError is given, which hears every refusal", async () => {
    const errors: RatekeeperError[] = [];
    const { rk, logger } = setup(() => json(PEEK_ONLY, 403), {
      onError: (error) => errors.push(error),
    });
    for (let i = 0; i < 3; i++) await rk.decide(READ);
    expect(errors.map((e) => [e.kind, e.status])).toEqual([
      ["unauthorized", 403],
      ["unauthorized", 403],
      ["unauthorized", 403],
    ]);
    expect(logger.error).toHaveBeenCalledTimes(1);
    expect(logger.error.mock.calls[0]?.[0]).toMatch(/it lacks the decide scope/);
  });

  it("ends with an info line when Ratekeeper accepts the client again; a new refusal is logged at once", async () => {
    const { rk, fake, logger, advance } = setup(() => json(UNKNOWN_TOKEN, 401));
    await rk.decide(READ);
    fake.responder = () => json(decision());
    await rk.decide(READ);
    await rk.decide(READ);
    expect(logger.info.mock.calls).toEqual([
      ["[ratekeeper] Ratekeeper accepts this service's calls again; requests are decided."],
    ]);
    advance(1_000);
    fake.responder = () => new Response("nope", { status: 404 });
    await rk.decide(READ);
    expect(logger.error).toHaveBeenCalledTimes(2);
    expect(logger.error.mock.calls[1]?.[0]).toMatch(
      /^\[ratekeeper\] Misconfigured: Ratekeeper answered 404 to POST http:\/\/127\.0\.0\.1:9\/rk\/api\/v1\/decisions: is the url Ratekeeper's, with the right path prefix\?/,
    );
  });

  it("writes to console.error by default", async () => {
    const error = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      const rk = createRatekeeper({
        url: "http://127.0.0.1:9",
        token: "rks_test",
        fetch: new FakeFetch(() => json(UNKNOWN_TOKEN, 401)).fetch,
      });
      await rk.decide(READ);
      expect(error).toHaveBeenCalledTimes(1);
      expect(error.mock.calls[0]?.[0]).toMatch(/^\[ratekeeper\] Misconfigured: /);
    } finally {
      error.mockRestore();
    }
  });
});

describe("the middleware on a misconfiguration", () => {
  it("answers withRateLimit's callers 503 with the problem; the handler does not run", async () => {
    const { rk } = setup(() => json(UNKNOWN_TOKEN, 401));
    const handler = vi.fn(() => new Response("ok"));
    const response = await rk.withRateLimit(handler)(
      new Request("http://api.test/orders", { headers: { authorization: "Bearer rk_abc" } }),
    );
    expect(response.status).toBe(503);
    expect(response.headers.get("content-type")).toBe("application/problem+json");
    expect(response.headers.get("retry-after")).toBeNull();
    expect(await response.json()).toMatchObject({
      title: "Rate limiter misconfigured",
      detail: expect.stringContaining("it is unknown"),
    });
    expect(handler).not.toHaveBeenCalled();
  });
});
