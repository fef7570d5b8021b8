import { afterEach, describe, expect, it, vi } from "vitest";
import {
  createRatekeeper,
  type DecideResult,
  type OnUnavailable,
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

const READ = { key: "rk_abc", operation: "read" } as const;

function setup(responder: Responder, options: Partial<RatekeeperOptions> = {}) {
  const fake = new FakeFetch(responder);
  const timeouts = new FakeTimeouts();
  const errors: RatekeeperError[] = [];
  const rk = createRatekeeper({
    url: "http://127.0.0.1:9",
    token: "rks_test",
    fetch: fake.fetch,
    abortAfter: timeouts.abortAfter,
    onError: (error) => errors.push(error),
    // Every call waits timeoutMs here; the first calls' longer budget has its own tests below.
    firstCallTimeoutMs: 1,
    ...options,
  });
  return { rk, fake, timeouts, errors };
}

/** settled reports whether a promise has settled, after letting every pending callback run. */
async function settled(promise: Promise<unknown>): Promise<boolean> {
  let done = false;
  void promise.then(
    () => (done = true),
    () => (done = true),
  );
  for (let i = 0; i < 20; i++) await Promise.resolve();
  return done;
}

function expectOpen(result: DecideResult, kind: RatekeeperError["kind"]) {
  expect(result).toMatchObject({
    allowed: true,
    reason: "ratekeeper_unavailable",
    status: 200,
    headers: {},
    problem: null,
    operation: "read",
    cost: 1,
  });
  expect(result.reason === "ratekeeper_unavailable" && result.error.kind).toBe(kind);
}

function expectClosed(result: DecideResult, kind: RatekeeperError["kind"]) {
  expect(result).toMatchObject({
    allowed: false,
    reason: "ratekeeper_unavailable",
    status: 503,
    headers: { "Retry-After": "1" },
    problem: { type: "about:blank", title: "Rate limiter unavailable", status: 503 },
  });
  expect(result.reason === "ratekeeper_unavailable" && result.error.kind).toBe(kind);
}

describe("the timeout", () => {
  it("is 100 ms by default once a call has settled, for the whole exchange, through AbortSignal.timeout", async () => {
    const timeout = vi.spyOn(AbortSignal, "timeout");
    const fake = new FakeFetch();
    const rk = createRatekeeper({
      url: "http://127.0.0.1:9",
      token: "rks_test",
      fetch: fake.fetch,
    });
    await rk.decide(READ);
    await rk.decide(READ);
    expect(timeout.mock.calls).toEqual([[1_000], [100]]);
    expect(fake.calls[1]?.signal).toBe(timeout.mock.results[1]?.value);
  });

  afterEach(() => {
    vi.restoreAllMocks();
  });

  it("takes timeoutMs from the options", async () => {
    const { rk, timeouts } = setup(() => json(decision()), { timeoutMs: 250 });
    await rk.decide(READ);
    expect(timeouts.requested).toEqual([250]);
  });

  it("lets an answer that comes before the deadline decide", async () => {
    let answer!: (response: Response) => void;
    const { rk, timeouts, errors } = setup(
      () => new Promise<Response>((resolve) => (answer = resolve)),
    );
    const pending = rk.decide(READ);

    timeouts.advance(99);
    expect(await settled(pending)).toBe(false);
    answer(json(decision("rate_limited")));

    await expect(pending).resolves.toMatchObject({ reason: "rate_limited", status: 429 });
    timeouts.advance(1);
    expect(errors).toEqual([]);
  });

  it.each<[OnUnavailable, typeof expectOpen]>([
    ["open", expectOpen],
    ["closed", expectClosed],
  ])("gives up at the deadline and fails %s", async (policy, expectPolicy) => {
    const { rk, timeouts, errors } = setup(() => never(), { onUnavailable: policy });
    const pending = rk.decide(READ);

    timeouts.advance(99);
    expect(await settled(pending)).toBe(false);
    timeouts.advance(1);

    expectPolicy(await pending, "timeout");
    expect(errors.map((e) => [e.kind, e.message])).toEqual([
      ["timeout", "Ratekeeper did not answer within 100 ms"],
    ]);
  });

  it("gives up at the deadline even when the fetch ignores its signal", async () => {
    const fake = new FakeFetch();
    const timeouts = new FakeTimeouts();
    const rk = createRatekeeper({
      url: "http://127.0.0.1:9",
      token: "rks_test",
      // A fetch that never looks at init.signal.
      fetch: () => never(),
      abortAfter: timeouts.abortAfter,
      onError: () => {},
      firstCallTimeoutMs: 1,
    });
    const pending = rk.decide(READ);
    timeouts.advance(100);
    expectOpen(await pending, "timeout");
    expect(fake.calls).toEqual([]);
  });

  it("gives up when the headers come in time but the body stalls", async () => {
    const stalled = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('{"allowed":'));
      },
    });
    const { rk, timeouts } = setup(() => new Response(stalled, { status: 200 }), {
      onUnavailable: "closed",
    });
    const pending = rk.decide(READ);
    expect(await settled(pending)).toBe(false);
    timeouts.advance(100);
    expectClosed(await pending, "timeout");
  });

  it("times each batch call out on its own, falling back for each of its requests", async () => {
    const { rk, timeouts, errors } = setup(() => never(), { onUnavailable: "closed" });
    const pending = rk.decideBatch([READ, { customerId: 3, operation: "write", cost: 4 }]);
    timeouts.advance(100);
    const results = await pending;
    expect(results.map((r) => [r.reason, r.status, r.operation, r.cost])).toEqual([
      ["ratekeeper_unavailable", 503, "read", 1],
      ["ratekeeper_unavailable", 503, "write", 4],
    ]);
    expect(errors.map((e) => e.kind)).toEqual(["timeout", "timeout"]);
  });
});

// A fresh Node 20 process's first fetch to a local server took 80 to 110 ms (loading the HTTP
// client, opening the connection): with the 100 ms default, the first call of a process timed
// out and was answered by onUnavailable, a wrong token admitted instead of refused.
describe("the first calls of a client", () => {
  function cold(responder: Responder, options: Partial<RatekeeperOptions> = {}) {
    return setup(responder, { firstCallTimeoutMs: undefined, ...options });
  }

  it("wait firstCallTimeoutMs (1 s by default) until a call has settled, then timeoutMs", async () => {
    const answers: ((response: Response) => void)[] = [];
    const { rk, timeouts } = cold(() => new Promise<Response>((resolve) => answers.push(resolve)));
    const first = rk.decide(READ);
    const concurrent = rk.decide(READ);
    expect(timeouts.requested).toEqual([1_000, 1_000]);
    await settled(first);
    answers[0]?.(json(decision()));
    await first;
    const later = rk.decide(READ);
    expect(timeouts.requested).toEqual([1_000, 1_000, 100]);
    await settled(later);
    for (const answer of answers.slice(1)) answer(json(decision()));
    expect((await Promise.all([concurrent, later])).map((d) => d.reason)).toEqual(["ok", "ok"]);
  });

  it("answer a wrong token with 503 when setting up the connection outlasts timeoutMs (regression: the first call failed open)", async () => {
    let answer!: (response: Response) => void;
    const { rk, timeouts } = cold(() => new Promise<Response>((resolve) => (answer = resolve)), {
      onUnavailable: "open",
    });
    const pending = rk.decide(READ);
    timeouts.advance(150);
    expect(await settled(pending)).toBe(false);
    answer(json({ title: "Unknown service token", status: 401 }, 401));
    expect(await pending).toMatchObject({
      allowed: false,
      reason: "ratekeeper_misconfigured",
      status: 503,
    });
  });

  it("give up at firstCallTimeoutMs, saying it was the first call, and follow onUnavailable", async () => {
    const { rk, timeouts, errors } = cold(() => never(), { onUnavailable: "closed" });
    const pending = rk.decide(READ);
    timeouts.advance(999);
    expect(await settled(pending)).toBe(false);
    timeouts.advance(1);
    expectClosed(await pending, "timeout");
    expect(errors.map((e) => e.message)).toEqual([
      "Ratekeeper did not answer the client's first call within 1000 ms",
    ]);
  });

  it("end with the first call that fails: a Ratekeeper down at start-up costs timeoutMs per call after it", async () => {
    const { rk, timeouts } = cold(() => Promise.reject(new TypeError("fetch failed")));
    await rk.decide(READ);
    await rk.decide(READ);
    expect(timeouts.requested).toEqual([1_000, 100]);
  });

  it("wait the longer of firstCallTimeoutMs and timeoutMs", async () => {
    const shorter = cold(() => json(decision()), { timeoutMs: 300, firstCallTimeoutMs: 200 });
    await shorter.rk.decide(READ);
    const longer = cold(() => json(decision()), { timeoutMs: 300, firstCallTimeoutMs: 2_000 });
    await longer.rk.decide(READ);
    await longer.rk.decide(READ);
    expect([shorter.timeouts.requested, longer.timeouts.requested]).toEqual([[300], [2_000, 300]]);
  });

  it("are over once verify() has settled: its call sets up the connection", async () => {
    const { rk, timeouts } = cold(() =>
      json({ serviceToken: { id: 1, name: "orders", prefix: "rks_test", scopes: ["decide"] } }),
    );
    await rk.verify();
    expect(timeouts.requested).toEqual([5_000]);
    await rk.decide(READ).catch(() => {});
    expect(timeouts.requested).toEqual([5_000, 100]);
  });
});

describe("when Ratekeeper cannot be asked", () => {
  const failures: [string, Responder, RatekeeperError["kind"], number | undefined][] = [
    [
      "a network error",
      () => Promise.reject(new TypeError("fetch failed", { cause: new Error("ECONNREFUSED") })),
      "network",
      undefined,
    ],
    ["a 500", () => json({ title: "Internal error" }, 500), "http", 500],
    [
      "a 502 with an HTML body",
      () => new Response("<html>bad gateway</html>", { status: 502 }),
      "http",
      502,
    ],
    ["a 503", () => json({ title: "Unavailable" }, 503), "http", 503],
    ["a 408 from a proxy", () => new Response("timeout", { status: 408 }), "http", 408],
    ["a 429 from a proxy", () => new Response("busy", { status: 429 }), "http", 429],
    [
      "a 200 that is not JSON",
      () => new Response("<html>proxy login</html>"),
      "invalid_response",
      200,
    ],
    ["a 200 that is not a decision", () => json({ ok: true }), "invalid_response", 200],
    [
      "a 200 with a decision missing its headers",
      () => json({ ...decision(), headers: null }),
      "invalid_response",
      200,
    ],
    [
      "a 200 with a status out of range",
      () => json({ ...decision(), status: 42 }),
      "invalid_response",
      200,
    ],
    [
      "a fetch that throws synchronously",
      () => {
        throw new Error("boom");
      },
      "network",
      undefined,
    ],
  ];

  it.each(failures)(
    "admits on %s when failing open, and reports it",
    async (_, responder, kind, status) => {
      const { rk, errors } = setup(responder, { onUnavailable: "open" });
      expectOpen(await rk.decide(READ), kind);
      expect(errors).toHaveLength(1);
      expect(errors[0]?.name).toBe("RatekeeperError");
      expect(errors[0]?.status).toBe(status);
    },
  );

  it.each(failures)(
    "refuses with 503 on %s when failing closed, and reports it",
    async (_, responder, kind) => {
      const { rk, errors } = setup(responder, { onUnavailable: "closed" });
      expectClosed(await rk.decide(READ), kind);
      expect(errors.map((e) => e.kind)).toEqual([kind]);
    },
  );

  it("fails open when no onUnavailable is given", async () => {
    const { rk } = setup(() => json({}, 500), { onUnavailable: undefined });
    expectOpen(await rk.decide(READ), "http");
  });

  it("keeps Ratekeeper's answer and the cause on the error", async () => {
    const cause = new Error("ECONNRESET");
    const { rk, errors } = setup(() => Promise.reject(cause));
    await rk.decide(READ);
    expect(errors[0]?.cause).toBe(cause);

    const problem = { type: "about:blank", title: "Internal error", status: 500 };
    const second = setup(() => json(problem, 500));
    await second.rk.decide(READ);
    expect(second.errors[0]?.body).toEqual(problem);
    expect(second.errors[0]?.status).toBe(500);
  });

  it("never throws an onError's own error into the caller", async () => {
    const { rk } = setup(() => json({}, 500), {
      onError: () => {
        throw new Error("the reporter is broken");
      },
    });
    expectOpen(await rk.decide(READ), "http");
  });

  it("without onError, logs once when Ratekeeper becomes unreachable and once when it answers again", async () => {
    const warn = vi.fn();
    const info = vi.fn();
    const fake = new FakeFetch(() => json({}, 503));
    const rk = createRatekeeper({
      url: "http://127.0.0.1:9",
      token: "rks_test",
      fetch: fake.fetch,
      abortAfter: new FakeTimeouts().abortAfter,
      logger: { warn, info, error: vi.fn() },
    });

    for (let i = 0; i < 3; i++) await rk.decide(READ);
    expect(warn.mock.calls).toEqual([
      [
        "[ratekeeper] Ratekeeper answered 503 to POST http://127.0.0.1:9/api/v1/decisions; failing open: requests are admitted without a decision until it answers again.",
      ],
    ]);
    expect(info).not.toHaveBeenCalled();

    fake.responder = () => json(decision());
    await rk.decide(READ);
    await rk.decide(READ);
    expect(info.mock.calls).toEqual([
      ["[ratekeeper] Ratekeeper answers again; requests are decided."],
    ]);

    fake.responder = () => Promise.reject(new TypeError("fetch failed"));
    await rk.decide(READ);
    expect(warn).toHaveBeenCalledTimes(2);
    expect(warn.mock.calls[1]?.[0]).toMatch(/could not be reached/);
  });

  it("says it fails closed in the default log when it does", async () => {
    const warn = vi.fn();
    const rk = createRatekeeper({
      url: "http://127.0.0.1:9",
      token: "rks_test",
      onUnavailable: "closed",
      fetch: new FakeFetch(() => json({}, 502)).fetch,
      logger: { warn, info: vi.fn(), error: vi.fn() },
    });
    await rk.decide(READ);
    expect(warn.mock.calls[0]?.[0]).toMatch(/502.*failing closed: requests are refused with 503/);
  });
});
