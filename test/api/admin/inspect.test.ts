import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { GET as audit } from "@/app/api/admin/audit/route";
import { GET as inspect } from "@/app/api/admin/customers/[id]/inspect/route";
import { POST as reset } from "@/app/api/admin/customers/[id]/reset/route";
import { POST as testRequest } from "@/app/api/admin/customers/[id]/test-request/route";
import { GET as traffic } from "@/app/api/admin/traffic/route";
import { POST as createItemsBulk } from "@/app/api/v1/items/bulk/route";
import { POST as createItem, GET as listItems } from "@/app/api/v1/items/route";
import { replaceOverride } from "@/db/queries/customers";
import { COST_RULE, MAX_COST } from "@/lib/schemas/cost.schema";
import { api, createTestRuntime, type TestRuntime } from "../../support/runtime";
import { adminRequest, params, signIn } from "./admin-support";

let t: TestRuntime;
let cookie: string;
beforeEach(async () => {
  t = createTestRuntime();
  cookie = await signIn();
});
afterEach(() => t.cleanup());

async function inspectDemo() {
  const res = await inspect(adminRequest("/x", { cookie }), params({ id: String(t.demoId) }));
  expect(res.status).toBe(200);
  return res.json();
}

describe("inspect", () => {
  it("reports full buckets for a fresh customer and creates none", async () => {
    const body = await inspectDemo();
    expect(body.operations.read).toMatchObject({
      source: "plan",
      allowed: true,
      tokensRemaining: 5,
      retryAfterMs: 0,
    });
    expect(body.operations.read.buckets).toEqual([
      {
        limit: { count: 5, periodMs: 1_000 },
        remaining: 5,
        capacity: 5,
        retryAfterMs: 0,
        allowed: true,
        executionTime: body.now,
        fullInMs: 0,
      },
      {
        limit: { count: 100, periodMs: 60_000 },
        remaining: 100,
        capacity: 100,
        retryAfterMs: 0,
        allowed: true,
        executionTime: body.now,
        fullInMs: 0,
      },
    ]);
    expect(body.history).toBeUndefined();
    expect(body.operations.write.buckets.map((b: { remaining: number }) => b.remaining)).toEqual([
      1, 20,
    ]);
    expect(t.runtime.limiter.size).toBe(0);
  });

  it("matches the decisions made, and inspecting consumes nothing", async () => {
    for (let i = 0; i < 3; i++) await listItems(api("/api/v1/items", { key: t.demoKey }));
    await createItem(api("/api/v1/items", { key: t.demoKey, body: { name: "x" } }));
    for (let i = 0; i < 3; i++) {
      const body = await inspectDemo();
      expect(body.operations.read.buckets.map((b: { remaining: number }) => b.remaining)).toEqual([
        2, 97,
      ]);
      expect(body.operations.write.buckets.map((b: { remaining: number }) => b.remaining)).toEqual([
        0, 19,
      ]);
      expect(body.operations.write).toMatchObject({
        allowed: false,
        tokensRemaining: 0,
        retryAfterMs: 1_000,
      });
      expect(body.operations.write.buckets[0]).toMatchObject({
        allowed: false,
        retryAfterMs: 1_000,
      });
    }
    const next = await listItems(api("/api/v1/items", { key: t.demoKey }));
    expect(next.headers.get("ratelimit")).toBe('"read-5-per-1s";r=1;t=1');
    t.clock.advance(400);
    const later = await inspectDemo();
    expect(later.operations.read.buckets.map((b: { remaining: number }) => b.remaining)).toEqual([
      3, 96,
    ]);
    expect(later.operations.write.buckets[0]).toMatchObject({ remaining: 0, retryAfterMs: 600 });
  });

  it("reports an override as the source while it lasts", async () => {
    replaceOverride(
      t.runtime.db,
      t.demoId,
      "read",
      [{ count: 3, periodMs: 10_000 }],
      t.clock.now() + 5_000,
      t.clock.now(),
    );
    t.runtime.policy.applyEdit();
    expect((await inspectDemo()).operations.read).toMatchObject({
      source: "override",
      tokensRemaining: 3,
    });
    t.clock.advance(5_000);
    expect((await inspectDemo()).operations.read).toMatchObject({
      source: "plan",
      tokensRemaining: 5,
    });
  });

  // Regression: the inspector opened on empty charts; a customer refused a minute before showed
  // full buckets. With ?history= the answer replays each bucket's level over those seconds.
  it("replays each bucket's last seconds with ?history: a burst 40 s ago emptied the 5/s bucket", async () => {
    const burstAt = t.clock.now() + 300;
    t.clock.set(burstAt);
    const statuses: number[] = [];
    for (let i = 0; i < 25; i++) {
      statuses.push((await listItems(api("/api/v1/items", { key: t.demoKey }))).status);
    }
    expect(statuses.filter((s) => s === 200)).toHaveLength(5);
    t.clock.advance(40_000);
    const res = await inspect(
      adminRequest("/x?history=60", { cookie }),
      params({ id: String(t.demoId) }),
    );
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.history).toMatchObject({
      fromMs: body.now - 60_000,
      toMs: body.now,
      scope: "instance",
    });
    const [perSecond, perMinute] = body.history.operations.read;
    expect(perSecond).toEqual([
      { t: body.now - 60_000, remaining: 5, fullInMs: 0 },
      { t: burstAt, remaining: 0, fullInMs: 1_000 },
      { t: body.now, remaining: 5, fullInMs: 0 },
    ]);
    expect(perMinute.map((s: { remaining: number }) => s.remaining)).toEqual([100, 95, 100]);
    expect(perMinute.at(-1)).toMatchObject({
      remaining: body.operations.read.buckets[1].remaining,
    });
    expect(body.history.operations.write).toEqual([
      [
        { t: body.now - 60_000, remaining: 1, fullInMs: 0 },
        { t: body.now, remaining: 1, fullInMs: 0 },
      ],
      [
        { t: body.now - 60_000, remaining: 20, fullInMs: 0 },
        { t: body.now, remaining: 20, fullInMs: 0 },
      ],
    ]);
  });

  it("refuses a bad history with 400", async () => {
    for (const history of ["0", "301", "1.5", "x", ""]) {
      const res = await inspect(
        adminRequest(`/x?history=${history}`, { cookie }),
        params({ id: String(t.demoId) }),
      );
      expect(res.status, history).toBe(400);
    }
    const unknown = await inspect(
      adminRequest("/x?since=5", { cookie }),
      params({ id: String(t.demoId) }),
    );
    expect(unknown.status).toBe(400);
  });

  it("answers 404 for an unknown customer", async () => {
    expect((await inspect(adminRequest("/x", { cookie }), params({ id: "999" }))).status).toBe(404);
    expect((await inspect(adminRequest("/x", { cookie }), params({ id: "abc" }))).status).toBe(404);
  });
});

describe("test requests and reset", () => {
  function send(body: unknown) {
    return testRequest(adminRequest("/x", { cookie, body }), params({ id: String(t.demoId) }));
  }

  it("makes real decisions with a cost, then a reset refills every bucket", async () => {
    const first = await (await send({ operation: "read", cost: 4 })).json();
    expect(first.status).toBe(200);
    expect(first.decision).toMatchObject({ allowed: true, tokensConsumed: 4, tokensRemaining: 1 });
    const second = await (await send({ operation: "read", cost: 2 })).json();
    expect(second.status).toBe(429);
    expect(second.decision).toMatchObject({
      allowed: false,
      tokensConsumed: 0,
      tokensRemaining: 1,
      retryAfterMs: 200,
    });
    const tooBig = await (await send({ operation: "read", cost: 6 })).json();
    expect(tooBig.decision.retryAfterMs).toBeNull();
    expect((await inspectDemo()).operations.read.tokensRemaining).toBe(1);

    const res = await reset(
      adminRequest("/x", { method: "POST", cookie }),
      params({ id: String(t.demoId) }),
    );
    expect(await res.json()).toEqual({ deleted: 2 });
    expect((await inspectDemo()).operations.read.tokensRemaining).toBe(5);
    const log = await (await audit(adminRequest("/api/admin/audit?limit=1", { cookie }))).json();
    expect(log.entries[0]).toMatchObject({
      action: "customer.reset-buckets",
      entityId: String(t.demoId),
    });
  });

  // Regression: the test request re-implemented the API's decision and answered 429 where the
  // API answered 413 for a cost above every limit's count.
  it("answers the status the API would: 413 for a cost no limit can ever allow, 403 suspended", async () => {
    const api413 = await createItemsBulk(
      api("/api/v1/items/bulk", {
        key: t.demoKey,
        body: { items: [{ name: "a" }, { name: "b" }] },
      }),
    );
    expect(api413.status).toBe(413);
    const tooBig = await (await send({ operation: "write", cost: 2 })).json();
    expect(tooBig).toMatchObject({ status: 413, reason: "cost_exceeds_limit" });
    const allowed = await (await send({ operation: "write", cost: 1 })).json();
    expect(allowed).toMatchObject({ status: 200, reason: "ok" });
    const refused = await (await send({ operation: "write", cost: 1 })).json();
    expect(refused).toMatchObject({ status: 429, reason: "rate_limited" });
    expect(refused.headers["Retry-After"]).toBe("1");
    t.suspend(t.demoId);
    const suspended = await (await send({ operation: "read", cost: 1 })).json();
    expect(suspended).toEqual({ status: 403, reason: "suspended", decision: null });
  });

  it("refuses bad bodies with 400 and consumes nothing", async () => {
    const bad: [unknown, string][] = [
      [{ operation: "delete" }, "operation"],
      [{ operation: "read", cost: -1 }, "cost"],
      [{ operation: "read", cost: 1.5 }, "cost"],
      [{ operation: "read", cost: "2" }, "cost"],
      [{ operation: "read", cost: 1e12 }, "cost"],
      [{ operation: "read", extra: 1 }, "extra"],
      [{}, "operation"],
    ];
    for (const [body, field] of bad) {
      const res = await send(body);
      expect(res.status).toBe(400);
      expect(Object.keys((await res.json()).errors)).toContain(field);
    }
    expect(t.runtime.limiter.size).toBe(0);
  });

  // Regression: the test request took a cost of 0 and refused 1e9 as "Cost is too large", where
  // the API refused 0 and took 1e12: now one rule, in the same words.
  it("takes the one cost rule: 0 and over MAX_COST are 400 in its words, MAX_COST is decided", async () => {
    for (const cost of [0, MAX_COST + 1, 1e9]) {
      const res = await send({ operation: "read", cost });
      expect(res.status).toBe(400);
      expect((await res.json()).errors).toEqual({ cost: [COST_RULE] });
    }
    expect(t.runtime.limiter.size).toBe(0);
    const atCeiling = await (await send({ operation: "read", cost: MAX_COST })).json();
    expect(atCeiling).toMatchObject({ status: 413, reason: "cost_exceeds_limit" });
  });
});

describe("traffic and audit", () => {
  it("counts allowed and denied per second and totals per customer", async () => {
    for (let i = 0; i < 7; i++) await listItems(api("/api/v1/items", { key: t.demoKey }));
    t.clock.advance(1_000);
    await listItems(api("/api/v1/items", { key: t.demoKey }));
    const body = await (
      await traffic(adminRequest("/api/admin/traffic?seconds=3", { cookie }))
    ).json();
    expect(
      body.points.map((p: { allowed: number; denied: number }) => [p.allowed, p.denied]),
    ).toEqual([
      [0, 0],
      [5, 2],
      [1, 0],
    ]);
    expect(body.totals).toEqual([
      { customerId: t.demoId, name: "Demo customer", allowed: 6, denied: 2 },
    ]);
  });

  it("pages the audit log newest first", async () => {
    for (let i = 0; i < 3; i++)
      await reset(adminRequest("/x", { method: "POST", cookie }), params({ id: String(t.demoId) }));
    const page1 = await (await audit(adminRequest("/api/admin/audit?limit=2", { cookie }))).json();
    expect(page1.entries).toHaveLength(2);
    expect(page1.total).toBe(3);
    expect(typeof page1.next).toBe("string");
    const page2 = await (
      await audit(adminRequest(`/api/admin/audit?limit=2&after=${page1.next}`, { cookie }))
    ).json();
    expect(page2.entries).toHaveLength(1);
    expect(page2.next).toBeNull();
    expect(page2.entries[0].id).toBeLessThan(page1.entries[1].id);
  });
});
