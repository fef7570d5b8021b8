import { describe, expect, it } from "vitest";
import { createRatekeeper, type RatekeeperOptions, VERIFY_TIMEOUT_MS } from "@/sdk/src/index";
import { FakeFetch, FakeTimeouts, json, never, type Responder } from "./support/fake-ratekeeper";

const TOKEN = { id: 3, name: "orders-api", prefix: "rks_AbCdEfGh", scopes: ["decide"] };

function setup(responder: Responder, options: Partial<RatekeeperOptions> = {}) {
  const fake = new FakeFetch(responder);
  const timeouts = new FakeTimeouts();
  const rk = createRatekeeper({
    url: "http://127.0.0.1:9/rk",
    token: "rks_test",
    fetch: fake.fetch,
    abortAfter: timeouts.abortAfter,
    ...options,
  });
  return { rk, fake, timeouts };
}

describe("verify()", () => {
  it("asks GET /api/v1/service-token with the token, and resolves with the token's name, prefix and scopes", async () => {
    const { rk, fake, timeouts } = setup(() => json({ serviceToken: TOKEN }));
    await expect(rk.verify()).resolves.toEqual(TOKEN);
    expect(fake.calls).toHaveLength(1);
    expect(fake.calls[0]?.method).toBe("GET");
    expect(fake.calls[0]?.url).toBe("http://127.0.0.1:9/rk/api/v1/service-token");
    expect(fake.calls[0]?.headers.get("authorization")).toBe("Bearer rks_test");
    expect(fake.calls[0]?.headers.get("content-type")).toBeNull();
    expect(fake.calls[0]?.body).toBeUndefined();
    // A start-up check may wait longer than a decision: 5 s, not the 100 ms of timeoutMs.
    expect(VERIFY_TIMEOUT_MS).toBe(5_000);
    expect(timeouts.requested).toEqual([5_000]);
  });

  it("rejects a token that lacks the decide scope, naming it and what it has", async () => {
    const { rk } = setup(() => json({ serviceToken: { ...TOKEN, scopes: ["peek"] } }));
    await expect(rk.verify()).rejects.toMatchObject({
      name: "RatekeeperError",
      kind: "unauthorized",
      message:
        'The service token "orders-api" (rks_AbCdEfGh…) lacks the decide scope this client needs (it has peek): create a token with it under Service tokens',
    });
  });

  it("accepts a peek-only token when asked for peek, and a decide token for peek too", async () => {
    const peek = { ...TOKEN, scopes: ["peek"] };
    await expect(
      setup(() => json({ serviceToken: peek })).rk.verify({ scopes: ["peek"] }),
    ).resolves.toEqual(peek);
    await expect(
      setup(() => json({ serviceToken: TOKEN })).rk.verify({ scopes: ["peek"] }),
    ).resolves.toEqual(TOKEN);
  });

  it.each([
    [
      "a revoked token",
      () =>
        json(
          {
            title: "Revoked service token",
            status: 401,
            detail:
              'The service token "orders" was revoked; create a new one under Service tokens.',
          },
          401,
        ),
      "unauthorized",
      'Ratekeeper refused this service\'s token (it was revoked) on GET http://127.0.0.1:9/rk/api/v1/service-token: 401 Revoked service token: The service token "orders" was revoked; create a new one under Service tokens.',
    ],
    [
      "an unknown token",
      () =>
        json(
          {
            title: "Unknown service token",
            status: 401,
            detail:
              "No service token matches this one: check that it was copied whole, or create one under Service tokens.",
          },
          401,
        ),
      "unauthorized",
      "Ratekeeper refused this service's token (it is unknown) on GET http://127.0.0.1:9/rk/api/v1/service-token: 401 Unknown service token: No service token matches this one: check that it was copied whole, or create one under Service tokens.",
    ],
    [
      "a URL that is not Ratekeeper's",
      () => new Response("Not found", { status: 404 }),
      "rejected",
      "Ratekeeper answered 404 to GET http://127.0.0.1:9/rk/api/v1/service-token: is the url Ratekeeper's, with the right path prefix?",
    ],
    [
      "an answer that is not a service token",
      () => json({ ok: true }),
      "invalid_response",
      "Ratekeeper's answer is not a service token",
    ],
    [
      "Ratekeeper down",
      () => json({ title: "Internal error" }, 500),
      "http",
      "Ratekeeper answered 500 to GET http://127.0.0.1:9/rk/api/v1/service-token",
    ],
  ] as const)("rejects %s with a clear RatekeeperError", async (_, responder, kind, message) => {
    const { rk } = setup(responder);
    await expect(rk.verify()).rejects.toMatchObject({ name: "RatekeeperError", kind, message });
  });

  it("times out after timeoutMs when given", async () => {
    const { rk, timeouts } = setup(() => never());
    const pending = rk.verify({ timeoutMs: 250 });
    timeouts.advance(250);
    await expect(pending).rejects.toMatchObject({
      kind: "timeout",
      message: "Ratekeeper did not answer within 250 ms",
    });
  });

  it("rejects scopes it does not know with a TypeError, asking nothing", async () => {
    const { rk, fake } = setup(() => json({ serviceToken: TOKEN }));
    await expect(rk.verify({ scopes: ["admin" as never] })).rejects.toThrow(TypeError);
    expect(fake.calls).toEqual([]);
  });
});
