import { describe, expect, it } from "vitest";
import { Limiter, Quota } from "@/lib/limiter";
import { MemoryDecisionStore } from "@/lib/policy/decision-store";
import { rateLimitHeaders } from "@/lib/policy/headers";
import { customerKey, planLimitFunc, type RequestInput } from "@/lib/policy/policy-limiter";
import { grantKey } from "@/lib/policy/quota-grants";
import {
  buildSnapshot,
  type CustomerPolicy,
  changedCustomers,
  limitsFor,
  type PolicyRows,
} from "@/lib/policy/snapshot";
import { decodePolicyRows, encodePolicyRows } from "@/lib/policy/snapshot-codec";
import type { AnyLimitRow } from "@/lib/vocabulary";
import { FakeClock } from "../../support/fake-clock";

const FEB_15 = Date.UTC(2025, 1, 15, 12);

/** rows are one plan of `limits` and a customer per anchor day (ids 1.., in order). */
function rows(
  limits: AnyLimitRow[],
  anchors: number[],
  more: Partial<PolicyRows> = {},
): PolicyRows {
  return {
    plans: [{ id: 1, slug: "metered", name: "Metered", limits }],
    customers: anchors.map((billingAnchorDay, i) => ({
      id: i + 1,
      name: `c${i + 1}`,
      status: "active" as const,
      planId: 1,
      apiKeyHash: `${"a".repeat(63)}${i + 1}`,
      billingAnchorDay,
    })),
    overrides: [],
    serviceTokens: [],
    ...more,
  };
}

const MONTHLY: AnyLimitRow[] = [
  { operation: "read", count: 10, periodMs: 1_000 },
  { operation: "read", count: 100, period: "month" },
];

function customer(snapshot: ReturnType<typeof buildSnapshot>, id: number): CustomerPolicy {
  const found = snapshot.byId.get(id);
  if (!found) throw new Error(`no customer ${id}`);
  return found;
}

function limiterAt(ms: number) {
  const clock = new FakeClock(ms);
  return { clock, limiter: new Limiter(customerKey, [planLimitFunc], { clock }) };
}

const input = (c: CustomerPolicy, now: number): RequestInput => ({
  customer: c,
  operation: "read",
  now,
});

describe("quotas in the policy snapshot", () => {
  it("anchors months on each customer's billing day (29, 30, 31 in February)", () => {
    const snapshot = buildSnapshot(rows(MONTHLY, [29, 30, 31, 1]), 0);
    const { limiter } = limiterAt(FEB_15);
    const periods = [1, 2, 3, 4].map((id) => {
      const quota = limiter.peekNWithDebug(input(customer(snapshot, id), FEB_15), 1).quotas?.[0];
      return [quota?.periodStartMs, quota?.periodEndMs];
    });
    // February has no 29th, 30th or 31st: those months end on its last day.
    const lastOfFeb = Date.UTC(2025, 1, 28);
    expect(periods).toEqual([
      [Date.UTC(2025, 0, 29), lastOfFeb],
      [Date.UTC(2025, 0, 30), lastOfFeb],
      [Date.UTC(2025, 0, 31), lastOfFeb],
      [Date.UTC(2025, 1, 1), Date.UTC(2025, 2, 1)],
    ]);
    const march = Date.UTC(2025, 2, 1, 12);
    const { limiter: later } = limiterAt(march);
    expect(
      later.peekNWithDebug(input(customer(snapshot, 3), march), 1).quotas?.[0]?.periodEndMs,
    ).toBe(Date.UTC(2025, 2, 31));
  });

  it("shares one Quota per row and anchor day across customers, and one list when no quota is monthly", () => {
    const snapshot = buildSnapshot(rows(MONTHLY, [5, 5, 6]), 0);
    const quotaOf = (id: number) =>
      limitsFor(customer(snapshot, id), "read", FEB_15).find((l) => l instanceof Quota);
    expect(quotaOf(1)).toBe(quotaOf(2));
    expect(quotaOf(1)).not.toBe(quotaOf(3));
    const daily = buildSnapshot(
      rows([{ operation: "read", count: 100, period: "day", timeZone: "Europe/Berlin" }], [5, 6]),
      0,
    );
    expect(customer(daily, 1).planLimits).toBe(customer(daily, 2).planLimits);
  });

  it("raises a quota's count by a grant for the current period only", () => {
    const febStart = Date.UTC(2025, 1, 1);
    const grants = { [grantKey("read", "month", "UTC", febStart)]: 25 };
    const base = rows(MONTHLY, [1, 1]);
    base.customers[0] = { ...(base.customers[0] as PolicyRows["customers"][number]), grants };
    const snapshot = buildSnapshot(base, 0);
    const count = (id: number, now: number) =>
      (limitsFor(customer(snapshot, id), "read", now).find((l) => l instanceof Quota) as Quota)
        .count;
    expect(count(1, FEB_15)).toBe(125);
    expect(count(2, FEB_15)).toBe(100);
    expect(count(1, Date.UTC(2025, 2, 15))).toBe(100);
    expect(count(1, Date.UTC(2025, 0, 15))).toBe(100);
    // A customer without grants gets the snapshot's own list: nothing made per decision.
    const plain = customer(snapshot, 2);
    expect(limitsFor(plain, "read", FEB_15)).toBe(plain.planLimits.get("read"));
    // The grant shows in the RateLimit fields' quota.
    const { limiter } = limiterAt(FEB_15);
    const headers = rateLimitHeaders(
      "read",
      limiter.peekNWithDebug(input(customer(snapshot, 1), FEB_15), 1),
    );
    expect(headers["RateLimit-Policy"]).toContain('"read-125-per-month";q=125;w=2419200');
  });

  it("keeps a quota's use when its count is edited mid-period", () => {
    const { clock, limiter } = limiterAt(FEB_15);
    const before = buildSnapshot(rows(MONTHLY, [1]), 0);
    for (let i = 0; i < 7; i++) {
      expect(limiter.allowNWithDebug(input(customer(before, 1), clock.now()), 1).allowed).toBe(
        true,
      );
      clock.advance(1_000);
    }
    const edited = buildSnapshot(
      rows(
        [
          { operation: "read", count: 10, periodMs: 1_000 },
          { operation: "read", count: 8, period: "month" },
        ],
        [1],
      ),
      0,
    );
    expect(changedCustomers(before, edited)).toEqual([1]);
    const after = limiter.peekNWithDebug(input(customer(edited, 1), clock.now()), 1);
    // A peek takes nothing: 1 of the 8 is left, and 2 cannot pass.
    expect(after.quotas?.[0]).toMatchObject({ used: 7, remaining: 1 });
    expect(limiter.allowNWithDebug(input(customer(edited, 1), clock.now()), 2).allowed).toBe(false);
  });

  it("lets an override's quota replace the plan's limits of its class", () => {
    const snapshot = buildSnapshot(
      rows(MONTHLY, [1], {
        overrides: [
          {
            customerId: 1,
            operation: "read",
            count: 5,
            period: "day",
            timeZone: "Europe/Berlin",
            dryRun: false,
            expiresAt: null,
          },
        ],
      }),
      0,
    );
    const limits = limitsFor(customer(snapshot, 1), "read", FEB_15);
    expect(limits.map((l) => l.id)).toEqual(["5@day:Europe/Berlin"]);
  });

  it("keeps quota rows through the edge snapshot's codec", () => {
    const written = rows(MONTHLY, [31], {
      overrides: [
        {
          customerId: 1,
          operation: "write",
          count: 9,
          period: "week",
          timeZone: "Asia/Kolkata",
          dryRun: false,
          expiresAt: null,
        },
      ],
    });
    const decoded = decodePolicyRows(encodePolicyRows(written));
    expect(decoded.ok).toBe(true);
    if (!decoded.ok) return;
    expect(decoded.rows.plans[0]?.limits).toEqual([
      { operation: "read", count: 10, periodMs: 1_000 },
      { operation: "read", count: 100, period: "month", timeZone: "UTC" },
    ]);
    expect(decoded.rows.overrides).toEqual(written.overrides);
    const edge = buildSnapshot(decoded.rows, 0);
    expect(limitsFor(customer(edge, 1), "write", FEB_15).map((l) => l.id)).toEqual([
      "9@week:Asia/Kolkata",
    ]);
  });

  it("resets a customer's buckets and keeps its quotas (customer.reset-buckets)", async () => {
    const { clock, limiter } = limiterAt(FEB_15);
    const snapshot = buildSnapshot(rows(MONTHLY, [1]), 0);
    const store = new MemoryDecisionStore(limiter);
    const c = customer(snapshot, 1);
    for (let i = 0; i < 10; i++) store.decide(input(c, clock.now()), 1);
    expect(store.decide(input(c, clock.now()), 1).details.allowed).toBe(false);
    expect(await store.forget(1, ["read", "write"])).toBe(1);
    const after = store.decide(input(c, clock.now()), 1).details;
    expect(after.allowed).toBe(true);
    expect(after.quotas?.[0]).toMatchObject({ used: 10, remaining: 89 });
  });
});
