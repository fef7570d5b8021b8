import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { GET, POST } from "@/app/api/v1/items/route";
import type { Operation } from "@/lib/vocabulary";
import { api, createTestRuntime, type TestRuntime } from "../../../support/runtime";

// The seeded free plan reads 5 per second and 100 per minute.
const FREE_READ_POLICY = '"read-5-per-1s";q=5;w=1, "read-100-per-1m";q=100;w=60';

describe("items API: rate limits", () => {
  let t: TestRuntime;
  beforeEach(() => {
    t = createTestRuntime();
  });
  afterEach(() => t.cleanup());

  /** limiterPeek is what the shared limiter itself says about a customer's next request. */
  function limiterPeek(customerId: number, operation: Operation) {
    const customer = t.runtime.policy.snapshot.byId.get(customerId);
    if (!customer) throw new Error(`No customer ${customerId}`);
    return t.runtime.limiter.peekWithDetails({ customer, operation, now: t.clock.now() });
  }

  it("answers 200 with the plan's RateLimit-Policy and the binding limit's RateLimit", async () => {
    const list = () => GET(api("/api/v1/items", { key: t.demoKey }));
    const first = await list();
    expect(first.status).toBe(200);
    expect(await first.json()).toEqual({ items: [], next: null });
    expect(first.headers.get("RateLimit-Policy")).toBe(FREE_READ_POLICY);
    // Per second binds: 4 left, and one token (200 ms) refills it, shown as a whole second.
    expect(first.headers.get("RateLimit")).toBe('"read-5-per-1s";r=4;t=1');
    expect(first.headers.get("Retry-After")).toBeNull();
  });

  it("reports the limit with the fewest tokens left, switching from burst to sustained", async () => {
    t.addPlan("steep", [
      { operation: "read", count: 10, periodMs: 1_000 },
      { operation: "read", count: 12, periodMs: 60_000 },
    ]);
    const { key } = t.addCustomer("steep");
    const list = () => GET(api("/api/v1/items", { key }));
    const policy = '"read-10-per-1s";q=10;w=1, "read-12-per-1m";q=12;w=60';
    for (let r = 9; r >= 0; r--) {
      const ok = await list();
      expect(ok.headers.get("RateLimit-Policy")).toBe(policy);
      expect(ok.headers.get("RateLimit")).toBe(`"read-10-per-1s";r=${r};t=1`);
    }
    // One second on, the burst is full again but the minute has refilled only 2 (of 12).
    t.clock.advance(1_000);
    const a = await list();
    expect(a.status).toBe(200);
    expect(a.headers.get("RateLimit")).toBe('"read-12-per-1m";r=1;t=55');
    const b = await list();
    expect(b.status).toBe(200);
    expect(b.headers.get("RateLimit")).toBe('"read-12-per-1m";r=0;t=5');
    const refused = await list();
    expect(refused.status).toBe(429);
    expect(refused.headers.get("RateLimit")).toBe('"read-12-per-1m";r=0;t=4');
    expect(refused.headers.get("Retry-After")).toBe("4");
  });

  it("refuses a drained read burst with 429, Retry-After and a problem body", async () => {
    for (let r = 4; r >= 0; r--) {
      const ok = await GET(api("/api/v1/items", { key: t.demoKey }));
      expect(ok.status).toBe(200);
      expect(ok.headers.get("RateLimit")).toBe(`"read-5-per-1s";r=${r};t=1`);
    }
    const refused = await GET(api("/api/v1/items", { key: t.demoKey }));
    expect(refused.status).toBe(429);
    expect(refused.headers.get("Content-Type")).toBe("application/problem+json");
    expect(refused.headers.get("Retry-After")).toBe("1");
    expect(refused.headers.get("RateLimit-Policy")).toBe(FREE_READ_POLICY);
    expect(refused.headers.get("RateLimit")).toBe('"read-5-per-1s";r=0;t=1');
    // The RateLimit draft's problem type, naming the policy that refused (the minute had room).
    expect(await refused.json()).toEqual({
      type: "https://iana.org/assignments/http-problem-types#quota-exceeded",
      title: "Too many requests",
      status: 429,
      detail: "Rate limit of the free plan reached for reads.",
      "violated-policies": ["read-5-per-1s"],
      retryAfterSeconds: 1,
    });
    // Retry-After is whole seconds, never earlier than the limiter's own retry-after.
    const peek = limiterPeek(t.demoId, "read");
    expect(peek).toMatchObject({ allowed: false, tokensRemaining: 0, retryAfterMs: 200 });
    expect(peek.retryAfterMs).toBeLessThanOrEqual(
      Number(refused.headers.get("Retry-After")) * 1000,
    );
  });

  it("admits again once the fake clock has refilled one token, not a millisecond before", async () => {
    const list = () => GET(api("/api/v1/items", { key: t.demoKey }));
    for (let i = 0; i < 5; i++) expect((await list()).status).toBe(200);
    expect((await list()).status).toBe(429);
    t.clock.advance(199);
    const early = await list();
    expect(early.status).toBe(429);
    expect(early.headers.get("Retry-After")).toBe("1");
    t.clock.advance(1);
    const refilled = await list();
    expect(refilled.status).toBe(200);
    expect(refilled.headers.get("RateLimit")).toBe('"read-5-per-1s";r=0;t=1');
    expect((await list()).status).toBe(429);
    // A whole second refills the burst: 5 more, then a refusal.
    t.clock.advance(1_000);
    for (let r = 4; r >= 0; r--) {
      const ok = await list();
      expect(ok.status).toBe(200);
      expect(ok.headers.get("RateLimit")).toBe(`"read-5-per-1s";r=${r};t=1`);
    }
    expect((await list()).status).toBe(429);
  });

  it("keeps reads and writes in separate buckets even when their limits are equal", async () => {
    t.addPlan("equal", [
      { operation: "read", count: 2, periodMs: 60_000 },
      { operation: "write", count: 2, periodMs: 60_000 },
    ]);
    const { id, key } = t.addCustomer("equal");
    expect((await GET(api("/api/v1/items", { key }))).status).toBe(200);
    expect((await GET(api("/api/v1/items", { key }))).status).toBe(200);
    const refused = await GET(api("/api/v1/items", { key }));
    expect(refused.status).toBe(429);
    expect(refused.headers.get("Retry-After")).toBe("30");
    const created = await POST(api("/api/v1/items", { key, body: { name: "a" } }));
    expect(created.status).toBe(201);
    expect(created.headers.get("RateLimit-Policy")).toBe('"write-2-per-1m";q=2;w=60');
    expect(created.headers.get("RateLimit")).toBe('"write-2-per-1m";r=1;t=30');
    expect(limiterPeek(id, "write").tokensRemaining).toBe(1);
    expect(limiterPeek(id, "read").tokensRemaining).toBe(0);
    expect(t.runtime.limiter.size).toBe(2);
  });
});
