import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { GET as customerReport } from "@/app/api/admin/customers/[id]/dry-run/route";
import { POST as promoteOverride } from "@/app/api/admin/customers/[id]/overrides/[operation]/promote/route";
import { PUT as putOverride } from "@/app/api/admin/customers/[id]/overrides/[operation]/route";
import { POST as promote } from "@/app/api/admin/plans/[id]/dry-run/promote/route";
import { GET as planReport } from "@/app/api/admin/plans/[id]/dry-run/route";
import { PATCH as patchPlan } from "@/app/api/admin/plans/[id]/route";
import { GET as list } from "@/app/api/v1/items/route";
import { listAudit } from "@/db/queries/audit";
import { HOUR_MS, MINUTE_MS } from "@/lib/usage/time";
import { adminRequest, params, signIn } from "../api/admin/admin-support";
import { type RedisServer, startRedisServer } from "../support/redis-server";
import { api, createTestRuntime, idParams, START_MS, type TestRuntime } from "../support/runtime";

let server: RedisServer;
let prefixes = 0;
beforeAll(async () => {
  server = await startRedisServer();
});
afterAll(async () => {
  await server.close();
});

const statuses = async (key: string, n: number) => {
  const out: number[] = [];
  for (let i = 0; i < n; i++) out.push((await list(api("/api/v1/items", { key }))).status);
  return out;
};

describe.each(["memory", "redis"] as const)("dry-run limits, buckets in %s", (store) => {
  let t: TestRuntime;
  let cookie: string;
  afterEach(() => t.cleanup());

  async function setUp() {
    t = createTestRuntime(
      store === "redis"
        ? { redis: { url: server.url, prefix: `d${++prefixes}`, timeoutMs: 500 } }
        : {},
    );
    await t.runtime.ready();
    cookie = await signIn();
    const planId = t.addPlan("trial", [
      { operation: "read", count: 100, periodMs: HOUR_MS },
      { operation: "read", count: 3, periodMs: HOUR_MS, dryRun: true },
      { operation: "write", count: 100, periodMs: HOUR_MS },
    ]);
    const a = t.addCustomer("trial", "Alpha");
    const b = t.addCustomer("trial", "Beta");
    t.clock.advance(10 * MINUTE_MS);
    return { planId, a, b };
  }

  /** settle moves the counts to SQLite: a flush, and with Redis the claim of the closed minute. */
  const settle = async () => {
    await t.runtime.usage.flush();
    if (store === "redis") {
      t.clock.advance(2 * MINUTE_MS);
      expect(await t.runtime.claims?.claim()).toBeGreaterThan(0);
    }
  };

  const report = async (planId: number) => {
    const res = await planReport(
      adminRequest(`/api/admin/plans/${planId}/dry-run`, { cookie }),
      idParams(planId),
    );
    expect(res.status).toBe(200);
    return (await res.json()).limits;
  };

  it("never refuses, counts each would-be refusal once, and enforces from the next request once promoted", async () => {
    const { planId, a, b } = await setUp();
    expect(await statuses(a.key, 5)).toEqual([200, 200, 200, 200, 200]);
    expect(await statuses(b.key, 2)).toEqual([200, 200]);
    await settle();
    const rangeEnd = Math.floor(t.clock.now() / MINUTE_MS) * MINUTE_MS + MINUTE_MS;
    expect(await report(planId)).toEqual([
      {
        operation: "read",
        count: 3,
        periodMs: HOUR_MS,
        source: "plan",
        state: "dry-run",
        stateSinceMs: null,
        // Added with the plan, within the range: counted since.
        sinceMs: START_MS,
        tried: [{ fromMs: START_MS, toMs: rangeEnd }],
        refused: 2,
        decisions: 7,
        share: 2 / 7,
        customers: 1,
        top: [{ customerId: a.id, name: "Alpha", refused: 2 }],
      },
    ]);

    t.clock.advance(1_000);
    const promotedAt = t.clock.now();
    const promoted = await promote(
      adminRequest(`/api/admin/plans/${planId}/dry-run/promote`, { cookie, method: "POST" }),
      idParams(planId),
    );
    expect(promoted.status).toBe(200);
    const answer = await promoted.json();
    expect(answer.promoted).toBe(1);
    expect(answer.plan.limits.filter((l: { dryRun: boolean }) => l.dryRun)).toEqual([]);
    const [entry] = listAudit(t.runtime.db, { limit: 1 });
    expect(entry).toMatchObject({ action: "plan.promote-dry-run", actor: "admin" });
    const dryOf = (plan: unknown) =>
      (plan as { limits: { count: number; dryRun: boolean }[] }).limits.find((l) => l.count === 3)
        ?.dryRun;
    expect([dryOf(entry?.before), dryOf(entry?.after)]).toEqual([true, false]);

    // The limit enforces from the buckets it filled while dry-run: Alpha took its 3, Beta 2.
    expect(await statuses(a.key, 1)).toEqual([429]);
    expect(await statuses(b.key, 2)).toEqual([200, 429]);
    t.clock.advance(1_000);
    await t.runtime.livePush?.push();
    await settle();
    // Judged while it was dry-run only: the 7 reads before the promotion, not the 3 after it
    // (in the same minute: the live view's seconds tell them apart).
    const after = await report(planId);
    expect(after).toMatchObject([
      {
        state: "enforced",
        stateSinceMs: promotedAt,
        sinceMs: START_MS,
        tried: [{ fromMs: START_MS, toMs: promotedAt }],
        refused: 2,
        decisions: 7,
      },
    ]);

    const again = await promote(
      adminRequest(`/api/admin/plans/${planId}/dry-run/promote`, {
        cookie,
        body: { operation: "read" },
      }),
      idParams(planId),
    );
    expect(again.status).toBe(409);
  });

  // Regression: a dry-run limit added to a plan was judged on the plan's whole day of traffic,
  // most of it from before the limit existed ("refused 2.3% of reads (5 of 222)").
  it("counts only the traffic since a dry-run limit was added, to the second where it can", async () => {
    const { planId, a, b } = await setUp();
    expect(await statuses(a.key, 12)).toEqual(Array(12).fill(200)); // at 0:10, long before
    t.clock.set(START_MS + 15 * MINUTE_MS);
    expect(await statuses(a.key, 8)).toEqual(Array(8).fill(200)); // at 0:15, just before
    t.clock.advance(1_000);
    await t.runtime.livePush?.push();
    t.clock.set(START_MS + 15 * MINUTE_MS + 30_000);
    const edit = await patchPlan(
      adminRequest(`/api/admin/plans/${planId}`, {
        cookie,
        method: "PATCH",
        body: {
          limits: [
            { operation: "read", count: 100, periodMs: HOUR_MS },
            { operation: "read", count: 3, periodMs: HOUR_MS, dryRun: true },
            { operation: "read", count: 2, periodMs: HOUR_MS, dryRun: true },
            { operation: "write", count: 100, periodMs: HOUR_MS },
          ],
        },
      }),
      idParams(planId),
    );
    expect(edit.status).toBe(200);
    t.clock.advance(10_000);
    expect(await statuses(b.key, 5)).toEqual(Array(5).fill(200)); // at 0:15:40, after
    await settle();
    const added = START_MS + 15 * MINUTE_MS + 30_000;
    // The new limit: Beta's 5 reads since it was added, 3 beyond its 2 an hour; not Alpha's
    // 20 before, though 8 of them came in the minute it was added in.
    expect(await report(planId)).toMatchObject([
      { count: 2, sinceMs: added, refused: 3, decisions: 5, share: 3 / 5 },
      // The limit kept through the edit keeps its start: every read of the plan since.
      { count: 3, sinceMs: START_MS, refused: 17, decisions: 25 },
    ]);
    const customer = async (id: number) => {
      const res = await customerReport(
        adminRequest(`/api/admin/customers/${id}/dry-run`, { cookie }),
        idParams(id),
      );
      return (await res.json()).limits;
    };
    expect(await customer(a.id)).toMatchObject([
      { count: 2, sinceMs: added, refused: 0, decisions: 0, share: null },
      { count: 3, sinceMs: START_MS, refused: 17, decisions: 20 },
    ]);
    expect(await customer(b.id)).toMatchObject([
      { count: 2, sinceMs: added, refused: 3, decisions: 5 },
      { count: 3, sinceMs: START_MS, refused: 0, decisions: 5 },
    ]);
  });

  // Regression: once an override replaced the plan's read limits for a customer, the customer's
  // page judged the plan's dry-run limit on the customer's whole day of reads, from before the
  // limit existed ("removed since", with no time; "10.2% of reads (25 of 245)"), where the plan's
  // page said "since it was added (25 of 30)".
  it("judges a plan's dry-run limit on a customer only while it was tried there: from when it was added until an override replaced it, and again after the override expired", async () => {
    const { a } = await setUp();
    const second = 1_000;
    // Hourly limits: with Redis, buckets refill on the server's clock, not the test's.
    const planId = t.addPlan("share-test", [
      { operation: "read", count: 1_000, periodMs: HOUR_MS },
      { operation: "write", count: 1_000, periodMs: HOUR_MS },
    ]);
    const c = t.addCustomer("share-test", "Gamma");
    expect(await statuses(c.key, 200)).toEqual(Array(200).fill(200)); // 200 reads at 0:10
    // 0:20:15: a dry-run read limit of 2 an hour, added in the plan editor.
    const added = START_MS + 20 * MINUTE_MS + 15 * second;
    t.clock.set(added);
    const edit = await patchPlan(
      adminRequest(`/api/admin/plans/${planId}`, {
        cookie,
        method: "PATCH",
        body: {
          limits: [
            { operation: "read", count: 1_000, periodMs: HOUR_MS },
            { operation: "read", count: 2, periodMs: HOUR_MS, dryRun: true },
            { operation: "write", count: 1_000, periodMs: HOUR_MS },
          ],
        },
      }),
      idParams(planId),
    );
    expect(edit.status).toBe(200);
    t.clock.advance(5 * second);
    expect(await statuses(c.key, 30)).toEqual(Array(30).fill(200)); // 28 beyond 2 an hour
    t.clock.advance(second);
    await t.runtime.livePush?.push(); // the live view's push, every second in the app
    // 0:20:55: a read override for 10 minutes, with a dry-run limit of its own.
    const replaced = START_MS + 20 * MINUTE_MS + 55 * second;
    const expires = replaced + 10 * MINUTE_MS;
    t.clock.set(replaced);
    const put = await putOverride(
      adminRequest(`/api/admin/customers/${c.id}/overrides/read`, {
        cookie,
        method: "PUT",
        body: {
          limits: [
            { count: 1_000, periodMs: HOUR_MS },
            { count: 5, periodMs: HOUR_MS, dryRun: true },
          ],
          expiresAt: expires,
        },
      }),
      params({ id: String(c.id), operation: "read" }),
    );
    expect(put.status).toBe(200);
    t.clock.advance(2 * second);
    // 15 reads under the override, in the same minute: 10 beyond its 5 an hour.
    expect(await statuses(c.key, 15)).toEqual(Array(15).fill(200));
    expect(await statuses(a.key, 4)).toEqual(Array(4).fill(200)); // another plan's customer
    t.clock.advance(second);
    await t.runtime.livePush?.push();
    await settle();

    const customer = async () => {
      const res = await customerReport(
        adminRequest(`/api/admin/customers/${c.id}/dry-run`, { cookie }),
        idParams(c.id),
      );
      expect(res.status).toBe(200);
      return (await res.json()) as { toMs: number; limits: unknown[] };
    };
    const during = await customer();
    expect(during.limits).toEqual([
      {
        operation: "read",
        count: 2,
        periodMs: HOUR_MS,
        source: "plan",
        // Still the plan's, replaced for this customer, since the override was saved.
        state: "replaced",
        stateSinceMs: replaced,
        sinceMs: added,
        // Tried from when it was added until the override: its 30 reads, not the 200 before
        // nor the 15 after (all three in the same minute but the 200).
        tried: [{ fromMs: added, toMs: replaced }],
        refused: 28,
        decisions: 30,
        share: 28 / 30,
        customers: 1,
        top: [{ customerId: c.id, name: "Gamma", refused: 28 }],
      },
      {
        operation: "read",
        count: 5,
        periodMs: HOUR_MS,
        source: "override",
        state: "dry-run",
        stateSinceMs: null,
        sinceMs: replaced,
        tried: [{ fromMs: replaced, toMs: during.toMs }],
        refused: 10,
        decisions: 15,
        share: 10 / 15,
        customers: 1,
        top: [{ customerId: c.id, name: "Gamma", refused: 10 }],
      },
    ]);

    // 0:31:25, the override expired at 0:30:55: the plan's limit is tried again, the
    // override's is not.
    t.clock.set(expires + 30 * second);
    expect(await statuses(c.key, 6)).toEqual(Array(6).fill(200)); // all 6 beyond 2 an hour
    t.clock.advance(second);
    await t.runtime.livePush?.push();
    await settle();
    const after = await customer();
    // The live view no longer holds 0:20, the minute of the addition and of the override: its
    // decisions count whole for both limits (45: the 30 before the override, the 15 after).
    expect(after.limits).toMatchObject([
      {
        count: 2,
        source: "plan",
        state: "dry-run",
        stateSinceMs: null,
        sinceMs: added,
        tried: [
          { fromMs: added, toMs: replaced },
          { fromMs: expires, toMs: after.toMs },
        ],
        refused: 34,
        decisions: 45 + 6,
      },
      {
        count: 5,
        source: "override",
        state: "expired",
        stateSinceMs: expires,
        sinceMs: replaced,
        tried: [{ fromMs: replaced, toMs: expires }],
        refused: 10,
        decisions: 45,
      },
    ]);
  });

  it("keeps a dry-run limit's start when its override is saved again, and forgets it once enforced", async () => {
    const { a } = await setUp();
    const put = (limits: unknown[]) =>
      putOverride(
        adminRequest(`/api/admin/customers/${a.id}/overrides/read`, {
          cookie,
          method: "PUT",
          body: { limits },
        }),
        params({ id: String(a.id), operation: "read" }),
      );
    const tried = { count: 1, periodMs: HOUR_MS, dryRun: true };
    const first = t.clock.now();
    expect((await put([{ count: 50, periodMs: HOUR_MS }, tried])).status).toBe(200);
    t.clock.advance(5 * MINUTE_MS);
    expect((await put([{ count: 40, periodMs: HOUR_MS }, tried])).status).toBe(200);
    const sinceOf = async () => {
      const res = await customerReport(
        adminRequest(`/api/admin/customers/${a.id}/dry-run`, { cookie }),
        idParams(a.id),
      );
      return (await res.json()).limits.map((l: { count: number; sinceMs: number | null }) => [
        l.count,
        l.sinceMs,
      ]);
    };
    expect(await sinceOf()).toEqual([[1, first]]);
    const promoted = await promoteOverride(
      adminRequest(`/api/admin/customers/${a.id}/overrides/read/promote`, {
        cookie,
        method: "POST",
      }),
      params({ id: String(a.id), operation: "read" }),
    );
    expect(promoted.status).toBe(200);
    t.clock.advance(MINUTE_MS);
    // Tried again later: a new start.
    expect((await put([{ count: 40, periodMs: HOUR_MS }, tried])).status).toBe(200);
    expect(await sinceOf()).toEqual([[1, t.clock.now()]]);
  });

  it("counts nothing for a request the enforced limits refuse, and a cost no dry-run limit allows", async () => {
    const { planId, a } = await setUp();
    const edit = await patchPlan(
      adminRequest(`/api/admin/plans/${planId}`, {
        cookie,
        method: "PATCH",
        body: {
          limits: [
            { operation: "read", count: 2, periodMs: HOUR_MS },
            { operation: "read", count: 1, periodMs: HOUR_MS, dryRun: true },
          ],
        },
      }),
      idParams(planId),
    );
    expect(edit.status).toBe(200);
    // 1: both allow; 2: the dry-run limit would refuse; 3: the enforced limit refuses.
    expect(await statuses(a.key, 3)).toEqual([200, 200, 429]);
    await settle();
    expect(await report(planId)).toMatchObject([{ count: 1, refused: 1, decisions: 3 }]);
  });

  it("tries an override's dry-run limits for its customer alone, and promotes them", async () => {
    const { planId, a } = await setUp();
    const put = await putOverride(
      adminRequest(`/api/admin/customers/${a.id}/overrides/read`, {
        cookie,
        method: "PUT",
        body: {
          limits: [
            { count: 50, periodMs: HOUR_MS },
            { count: 1, periodMs: HOUR_MS, dryRun: true },
          ],
        },
      }),
      params({ id: String(a.id), operation: "read" }),
    );
    expect(put.status).toBe(200);
    expect(await statuses(a.key, 3)).toEqual([200, 200, 200]);
    await settle();
    // The plan's own dry-run limit did not apply to Alpha while its override did.
    expect(await report(planId)).toMatchObject([{ count: 3, refused: 0, customers: 0 }]);
    const mine = await customerReport(
      adminRequest(`/api/admin/customers/${a.id}/dry-run`, { cookie }),
      idParams(a.id),
    );
    expect((await mine.json()).limits).toMatchObject([
      { operation: "read", count: 1, source: "override", state: "dry-run", refused: 2 },
    ]);
    const promoted = await promoteOverride(
      adminRequest(`/api/admin/customers/${a.id}/overrides/read/promote`, {
        cookie,
        method: "POST",
      }),
      params({ id: String(a.id), operation: "read" }),
    );
    expect(promoted.status).toBe(200);
    expect(listAudit(t.runtime.db, { limit: 1 })[0]?.action).toBe("override.promote-dry-run");
    expect(await statuses(a.key, 1)).toEqual([429]);
  });

  it("refuses bad dry-run input with field errors, changing nothing", async () => {
    const { planId, a } = await setUp();
    const bad = await patchPlan(
      adminRequest(`/api/admin/plans/${planId}`, {
        cookie,
        method: "PATCH",
        body: {
          limits: [
            { operation: "read", count: 5, periodMs: HOUR_MS, dryRun: "yes" },
            { operation: "read", count: 5, periodMs: HOUR_MS, dryRun: true },
          ],
        },
      }),
      idParams(planId),
    );
    expect(bad.status).toBe(400);
    expect(Object.keys((await bad.json()).errors).sort()).toEqual(["limits.0.dryRun"]);
    const dryOnly = await putOverride(
      adminRequest(`/api/admin/customers/${a.id}/overrides/read`, {
        cookie,
        method: "PUT",
        body: { limits: [{ count: 1, periodMs: HOUR_MS, dryRun: true }] },
      }),
      params({ id: String(a.id), operation: "read" }),
    );
    expect(dryOnly.status).toBe(400);
    expect((await dryOnly.json()).errors.limits[0]).toMatch(/at least one enforced limit/);
    const duplicate = await patchPlan(
      adminRequest(`/api/admin/plans/${planId}`, {
        cookie,
        method: "PATCH",
        body: {
          limits: [
            { operation: "read", count: 5, periodMs: HOUR_MS },
            { operation: "read", count: 5, periodMs: HOUR_MS, dryRun: true },
          ],
        },
      }),
      idParams(planId),
    );
    expect((await duplicate.json()).errors).toEqual({ "limits.1": ["Duplicate limit"] });
    expect(await report(planId)).toMatchObject([{ count: 3, state: "dry-run" }]);
    const missing = await promote(
      adminRequest("/api/admin/plans/9999/dry-run/promote", { cookie, method: "POST" }),
      idParams(9999),
    );
    expect(missing.status).toBe(404);
    const wrongBody = await promote(
      adminRequest(`/api/admin/plans/${planId}/dry-run/promote`, {
        cookie,
        body: { operation: "delete" },
      }),
      idParams(planId),
    );
    expect(wrongBody.status).toBe(400);
  });

  if (store === "redis") {
    it("adds no round trip: one script per decision, dry-run limits and all", async () => {
      const { a } = await setUp();
      const redis = server.client();
      const calls = async () => {
        const info = await redis.info("commandstats");
        const count = (name: string) =>
          Number(new RegExp(`cmdstat_${name}:calls=(\\d+)`).exec(info)?.[1] ?? 0);
        return count("evalsha") + count("eval");
      };
      await statuses(a.key, 1); // loads the script
      const before = await calls();
      expect(await statuses(a.key, 4)).toEqual([200, 200, 200, 200]);
      // One script per request: the dry-run limit rides in the decision's own.
      expect((await calls()) - before).toBe(4);
    });
  }
});
