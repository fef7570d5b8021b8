import { describe, expect, it } from "vitest";
import {
  createRatekeeper,
  type DecisionRequest,
  MAX_KEY_LENGTH,
  type Operation,
  type RatekeeperError,
} from "@/sdk/src/index";
import { decision, FakeFetch, FakeTimeouts, json } from "./support/fake-ratekeeper";

const TOKEN = "rks_test-token";

function client(
  fake: FakeFetch,
  options: { url?: string; onError?: (e: RatekeeperError) => void } = {},
) {
  return createRatekeeper({
    url: options.url ?? "http://127.0.0.1:9/",
    token: TOKEN,
    fetch: fake.fetch,
    abortAfter: new FakeTimeouts().abortAfter,
    onError: options.onError ?? (() => {}),
  });
}

describe("decide", () => {
  it("posts the request to /api/v1/decisions with the service token and resolves with the decision", async () => {
    const answer = decision("rate_limited");
    const fake = new FakeFetch(() => json(answer));
    const rk = client(fake);

    const result = await rk.decide({ key: "rk_abc", operation: "read", cost: 2, peek: true });

    expect(result).toEqual(answer);
    expect(fake.calls).toHaveLength(1);
    const [call] = fake.calls;
    expect(call?.url).toBe("http://127.0.0.1:9/api/v1/decisions");
    expect(call?.method).toBe("POST");
    expect(call?.headers.get("authorization")).toBe(`Bearer ${TOKEN}`);
    expect(call?.headers.get("content-type")).toBe("application/json");
    expect(call?.body).toEqual({ key: "rk_abc", operation: "read", cost: 2, peek: true });
    expect(call?.signal).toBeInstanceOf(AbortSignal);
  });

  it("sends a customer id, and only the fields the decision API knows", async () => {
    const fake = new FakeFetch();
    const rk = client(fake);
    const request = { customerId: 42, operation: "write", extra: "dropped" } as DecisionRequest;

    await rk.decide(request);

    expect(fake.bodies()).toEqual([{ customerId: 42, operation: "write" }]);
  });

  it("sends any operation class the operators added, as named (the server knows which exist)", async () => {
    const fake = new FakeFetch();
    const rk = client(fake);
    const operation: Operation = "bulk-exports";

    await rk.decide({ customerId: 42, operation });

    expect(fake.bodies()).toEqual([{ customerId: 42, operation: "bulk-exports" }]);
  });

  it.each([
    ["http://rk.internal:3000", "http://rk.internal:3000/api/v1/decisions"],
    ["http://rk.internal:3000/", "http://rk.internal:3000/api/v1/decisions"],
    ["https://example.com/ratekeeper", "https://example.com/ratekeeper/api/v1/decisions"],
    ["https://example.com/ratekeeper/?x=1#top", "https://example.com/ratekeeper/api/v1/decisions"],
  ])("joins the path to the base URL %s", async (url, expected) => {
    const fake = new FakeFetch();
    await client(fake, { url }).decide({ key: "rk_abc", operation: "read" });
    expect(fake.calls[0]?.url).toBe(expected);
  });

  it("answers every reason as Ratekeeper gave it, store_unavailable included, without reporting an error", async () => {
    const errors: RatekeeperError[] = [];
    for (const reason of [
      "ok",
      "rate_limited",
      "cost_exceeds_limit",
      "store_unavailable",
      "unknown_key",
      "suspended",
    ] as const) {
      const answer = decision(reason);
      const rk = client(new FakeFetch(() => json(answer)), { onError: (e) => errors.push(e) });
      await expect(rk.decide({ key: "rk_abc", operation: "read" })).resolves.toEqual(answer);
    }
    expect(errors).toEqual([]);
  });

  it.each<[string, unknown, ErrorConstructor]>([
    ["both key and customerId", { key: "rk_a", customerId: 1, operation: "read" }, TypeError],
    ["neither key nor customerId", { operation: "read" }, TypeError],
    ["a key that is not a string", { key: 42, operation: "read" }, TypeError],
    ["a customerId that is a string", { customerId: "42", operation: "read" }, RangeError],
    ["a customerId of 0", { customerId: 0, operation: "read" }, RangeError],
    // The SDK cannot know the server's classes; a name that no class can have it refuses itself.
    ["an operation that is not a class name", { key: "rk_a", operation: "Delete!" }, TypeError],
    ["an operation that is not a string", { key: "rk_a", operation: 7 }, TypeError],
    ["no operation", { key: "rk_a" }, TypeError],
    ["a cost of 0", { key: "rk_a", operation: "read", cost: 0 }, RangeError],
    ["a fractional cost", { key: "rk_a", operation: "read", cost: 1.5 }, RangeError],
    ["a negative cost", { key: "rk_a", operation: "read", cost: -1 }, RangeError],
    ["a cost past 2^53", { key: "rk_a", operation: "read", cost: 2 ** 53 }, RangeError],
    ["a peek that is not a boolean", { key: "rk_a", operation: "read", peek: "yes" }, TypeError],
    ["null", null, TypeError],
  ])("refuses a request with %s without calling Ratekeeper", async (_, request, error) => {
    const fake = new FakeFetch();
    await expect(client(fake).decide(request as DecisionRequest)).rejects.toBeInstanceOf(error);
    expect(fake.calls).toEqual([]);
  });

  it.each([
    ["an empty key", ""],
    ["a key with a space", "rk_a b"],
    ["a key with a control character", "rk_a\u0000"],
    ["a key longer than MAX_KEY_LENGTH", `rk_${"a".repeat(MAX_KEY_LENGTH)}`],
  ])("answers %s unknown_key without calling Ratekeeper", async (_, key) => {
    const fake = new FakeFetch();
    const result = await client(fake).decide({ key, operation: "write", cost: 3 });
    expect(result).toMatchObject({
      allowed: false,
      reason: "unknown_key",
      status: 401,
      customer: null,
      operation: "write",
      cost: 3,
      headers: {},
      problem: { type: "about:blank", title: "Unknown API key", status: 401 },
    });
    expect(fake.calls).toEqual([]);
  });

  it("asks about a key of exactly MAX_KEY_LENGTH characters", async () => {
    const fake = new FakeFetch();
    await client(fake).decide({ key: "k".repeat(MAX_KEY_LENGTH), operation: "read" });
    expect(fake.calls).toHaveLength(1);
  });

  it("answers unknown_key when Ratekeeper refuses the request because of its key (400 naming key)", async () => {
    const errors: RatekeeperError[] = [];
    const fake = new FakeFetch(() =>
      json(
        {
          type: "about:blank",
          title: "Invalid request",
          status: 400,
          errors: { key: ["Too long"] },
        },
        400,
      ),
    );
    const result = await client(fake, { onError: (e) => errors.push(e) }).decide({
      key: "rk_abc",
      operation: "read",
    });
    expect(result).toMatchObject({ allowed: false, reason: "unknown_key", status: 401 });
    expect(errors).toEqual([]);
  });
});

describe("createRatekeeper", () => {
  const fetch = new FakeFetch().fetch;
  it.each<[string, Record<string, unknown>, ErrorConstructor]>([
    ["a relative url", { url: "/ratekeeper", token: TOKEN }, TypeError],
    ["an ftp url", { url: "ftp://example.com", token: TOKEN }, TypeError],
    ["no token", { url: "http://127.0.0.1:9" }, TypeError],
    ["a blank token", { url: "http://127.0.0.1:9", token: "  " }, TypeError],
    ["a token with whitespace inside", { url: "http://127.0.0.1:9", token: "rks_a b" }, TypeError],
    ["a timeout of 0", { url: "http://127.0.0.1:9", token: TOKEN, timeoutMs: 0 }, RangeError],
    [
      "a NaN timeout",
      { url: "http://127.0.0.1:9", token: TOKEN, timeoutMs: Number.NaN },
      RangeError,
    ],
    [
      "an infinite timeout",
      { url: "http://127.0.0.1:9", token: TOKEN, timeoutMs: Infinity },
      RangeError,
    ],
    [
      "a negative first-call timeout",
      { url: "http://127.0.0.1:9", token: TOKEN, firstCallTimeoutMs: -1 },
      RangeError,
    ],
    [
      "a first-call timeout that is not a number",
      { url: "http://127.0.0.1:9", token: TOKEN, firstCallTimeoutMs: "1s" },
      RangeError,
    ],
    [
      "an unknown onUnavailable",
      { url: "http://127.0.0.1:9", token: TOKEN, onUnavailable: "maybe" },
      TypeError,
    ],
  ])("throws for %s", (_, options, error) => {
    expect(() => createRatekeeper({ fetch, ...options } as never)).toThrow(error);
  });

  it("accepts a URL object", async () => {
    const fake = new FakeFetch();
    const rk = createRatekeeper({
      url: new URL("http://127.0.0.1:9"),
      token: TOKEN,
      fetch: fake.fetch,
    });
    await rk.decide({ key: "rk_a", operation: "read" });
    expect(fake.calls[0]?.url).toBe("http://127.0.0.1:9/api/v1/decisions");
  });
});

describe("decideBatch", () => {
  it("posts the requests to /api/v1/decisions/batch and answers in order", async () => {
    const answers = [decision("ok"), decision("rate_limited"), decision("suspended")];
    const fake = new FakeFetch(() => json({ results: answers }));
    const rk = client(fake);

    const results = await rk.decideBatch([
      { key: "rk_a", operation: "read" },
      { customerId: 7, operation: "write", cost: 2 },
      { key: "rk_c", operation: "read", peek: true },
    ]);

    expect(results).toEqual(answers);
    expect(fake.calls.map((c) => c.url)).toEqual(["http://127.0.0.1:9/api/v1/decisions/batch"]);
    expect(fake.bodies()).toEqual([
      {
        decisions: [
          { key: "rk_a", operation: "read" },
          { customerId: 7, operation: "write", cost: 2 },
          { key: "rk_c", operation: "read", peek: true },
        ],
      },
    ]);
  });

  it("answers an empty list with no call", async () => {
    const fake = new FakeFetch();
    await expect(client(fake).decideBatch([])).resolves.toEqual([]);
    expect(fake.calls).toEqual([]);
  });

  it("sends more than 1,000 requests in calls of 1,000, one after the other, and keeps the order", async () => {
    let inFlight = 0;
    let maxInFlight = 0;
    const fake = new FakeFetch(async (call) => {
      inFlight += 1;
      maxInFlight = Math.max(maxInFlight, inFlight);
      await Promise.resolve();
      inFlight -= 1;
      const asked = (call.body as { decisions: { customerId: number }[] }).decisions;
      return json({
        results: asked.map((d) => decision("ok", { customer: null, cost: d.customerId })),
      });
    });
    const requests = Array.from({ length: 2500 }, (_, i) => ({
      customerId: i + 1,
      operation: "read" as const,
    }));

    const results = await client(fake).decideBatch(requests);

    expect(fake.calls.map((c) => (c.body as { decisions: unknown[] }).decisions.length)).toEqual([
      1000, 1000, 500,
    ]);
    expect(maxInFlight).toBe(1);
    expect(results.map((r) => r.cost)).toEqual(requests.map((r) => r.customerId));
  });

  it("answers keys no customer can have itself and asks only about the others, in order", async () => {
    const fake = new FakeFetch(() => json({ results: [decision("ok"), decision("rate_limited")] }));
    const results = await client(fake).decideBatch([
      { key: "", operation: "read" },
      { key: "rk_a", operation: "read" },
      { key: "x".repeat(MAX_KEY_LENGTH + 1), operation: "read" },
      { key: "rk_b", operation: "read" },
    ]);
    expect(results.map((r) => r.reason)).toEqual([
      "unknown_key",
      "ok",
      "unknown_key",
      "rate_limited",
    ]);
    expect(fake.bodies()).toEqual([
      {
        decisions: [
          { key: "rk_a", operation: "read" },
          { key: "rk_b", operation: "read" },
        ],
      },
    ]);
  });

  it("refuses the whole batch, before any call, when one request is malformed", async () => {
    const fake = new FakeFetch();
    const batch = [
      { key: "rk_a", operation: "read" },
      { key: "rk_b", operation: "read", cost: 0 },
    ];
    await expect(client(fake).decideBatch(batch as DecisionRequest[])).rejects.toBeInstanceOf(
      RangeError,
    );
    expect(fake.calls).toEqual([]);
  });

  it("falls back for every request of a call whose answer does not hold one decision per request", async () => {
    const errors: RatekeeperError[] = [];
    const fake = new FakeFetch(() => json({ results: [decision("ok")] }));
    const results = await client(fake, { onError: (e) => errors.push(e) }).decideBatch([
      { key: "rk_a", operation: "read" },
      { key: "rk_b", operation: "write" },
    ]);
    expect(results.map((r) => [r.reason, r.allowed, r.operation])).toEqual([
      ["ratekeeper_unavailable", true, "read"],
      ["ratekeeper_unavailable", true, "write"],
    ]);
    expect(errors.map((e) => e.kind)).toEqual(["invalid_response", "invalid_response"]);
  });
});
