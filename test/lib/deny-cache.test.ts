import { describe, expect, it } from "vitest";
import { type DebugDetails, Limiter } from "@/lib/limiter";
import { DenyCache } from "@/lib/policy/deny-cache";
import { customerKey, planLimitFunc, type RequestInput } from "@/lib/policy/policy-limiter";
import { buildSnapshot, type CustomerPolicy } from "@/lib/policy/snapshot";
import { FakeClock } from "../support/fake-clock";

const HOUR = 3_600_000;

/** customers builds a snapshot of customers on one plan of 2 reads per hour (override optional). */
function customers(count: number, override?: { count: number; expiresAt: number | null }) {
  const snapshot = buildSnapshot(
    {
      plans: [
        {
          id: 1,
          slug: "two",
          name: "Two",
          limits: [{ operation: "read", count: 2, periodMs: HOUR }],
        },
      ],
      customers: Array.from({ length: count }, (_, i) => ({
        id: i + 1,
        name: `c${i + 1}`,
        status: "active" as const,
        planId: 1,
        apiKeyHash: `hash-${i + 1}`,
        billingAnchorDay: 1,
      })),
      overrides: override
        ? [
            {
              customerId: 1,
              operation: "read" as const,
              periodMs: HOUR,
              dryRun: false,
              ...override,
            },
          ]
        : [],
      serviceTokens: [],
    },
    0,
  );
  return [...snapshot.byId.values()];
}

/** refusal drains the customer's reads on an in-memory limiter and returns the next refusal. */
function refusal(clock: FakeClock, customer: CustomerPolicy, cost = 1): DebugDetails {
  const limiter = new Limiter(customerKey, [planLimitFunc], { clock });
  const input: RequestInput = { customer, operation: "read", now: clock.now() };
  while (limiter.allowNWithDebug(input, 1).allowed) {}
  return limiter.allowNWithDebug(input, cost);
}

const at = (customer: CustomerPolicy, now: number): RequestInput => ({
  customer,
  operation: "read",
  now,
});

describe("DenyCache", () => {
  it("answers a remembered refusal until its retry-after, with its times advanced", () => {
    const clock = new FakeClock(1_000);
    const [customer] = customers(1) as [CustomerPolicy];
    const cache = new DenyCache(10);
    const details = refusal(clock, customer);
    expect(details.retryAfterMs).toBe(HOUR / 2);
    cache.remember(at(customer, 1_000), 1, details, cache.epoch);

    const later = cache.lookup(at(customer, 1_000 + 60_000), 1);
    expect(later).toEqual({
      ...details,
      executionTime: details.executionTime + 60_000,
      retryAfterMs: HOUR / 2 - 60_000,
      buckets: details.buckets.map((b) => ({
        ...b,
        executionTime: b.executionTime + 60_000,
        retryAfterMs: HOUR / 2 - 60_000,
        fullInMs: b.fullInMs - 60_000,
      })),
    });
    // Another cost, another operation: not remembered.
    expect(cache.lookup(at(customer, 1_000), 2)).toBeUndefined();
    expect(cache.lookup({ ...at(customer, 1_000), operation: "write" }, 1)).toBeUndefined();
    // At the retry-after, Redis decides again.
    expect(cache.lookup(at(customer, 1_000 + HOUR / 2 - 1), 1)).toBeDefined();
    expect(cache.lookup(at(customer, 1_000 + HOUR / 2), 1)).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it("remembers nothing but refusals with something to wait for", () => {
    const clock = new FakeClock(0);
    const [customer] = customers(1) as [CustomerPolicy];
    const cache = new DenyCache(10);
    const limiter = new Limiter(customerKey, [planLimitFunc], { clock });
    cache.remember(at(customer, 0), 1, limiter.allowNWithDebug(at(customer, 0), 1), cache.epoch);
    expect(cache.size).toBe(0);
    // A cost no limit allows never passes: remembered until something changes.
    const never = limiter.allowNWithDebug(at(customer, 0), 3);
    expect(never.retryAfterMs).toBe(Number.POSITIVE_INFINITY);
    cache.remember(at(customer, 0), 3, never, cache.epoch);
    expect(cache.lookup(at(customer, 100 * HOUR), 3)?.retryAfterMs).toBe(Number.POSITIVE_INFINITY);
  });

  it("holds at most its bound, evicting the least recently used", () => {
    const clock = new FakeClock(0);
    const [a, b, c] = customers(3) as [CustomerPolicy, CustomerPolicy, CustomerPolicy];
    const cache = new DenyCache(2);
    cache.remember(at(a, 0), 1, refusal(clock, a), cache.epoch);
    cache.remember(at(b, 0), 1, refusal(clock, b), cache.epoch);
    // Using a makes b the least recently used.
    expect(cache.lookup(at(a, 1), 1)).toBeDefined();
    cache.remember(at(c, 0), 1, refusal(clock, c), cache.epoch);
    expect(cache.size).toBe(2);
    expect(cache.lookup(at(b, 2), 1)).toBeUndefined();
    expect(cache.lookup(at(a, 2), 1)).toBeDefined();
    expect(cache.lookup(at(c, 2), 1)).toBeDefined();
    expect(() => new DenyCache(0)).toThrow(RangeError);
  });

  it("forgets a customer's refusals, and keeps none decided across that", () => {
    const clock = new FakeClock(0);
    const [a, b] = customers(2) as [CustomerPolicy, CustomerPolicy];
    const cache = new DenyCache(10);
    cache.remember(at(a, 0), 1, refusal(clock, a), cache.epoch);
    cache.remember(at(b, 0), 1, refusal(clock, b), cache.epoch);
    const epoch = cache.epoch;
    cache.forgetCustomers([a.id]);
    expect(cache.lookup(at(a, 1), 1)).toBeUndefined();
    expect(cache.lookup(at(b, 1), 1)).toBeDefined();
    // A refusal Redis made before the reset finished is not kept.
    cache.remember(at(a, 1), 1, refusal(clock, a), epoch);
    expect(cache.lookup(at(a, 2), 1)).toBeUndefined();
    cache.clear();
    expect(cache.size).toBe(0);
  });

  it("drops a refusal once the limits it was decided on no longer apply", () => {
    const clock = new FakeClock(0);
    const [overridden] = customers(1, { count: 1, expiresAt: 10 * 60_000 }) as [CustomerPolicy];
    const cache = new DenyCache(10);
    const details = refusal(clock, overridden);
    expect(details.retryAfterMs).toBe(HOUR);
    cache.remember(at(overridden, 0), 1, details, cache.epoch);
    expect(cache.lookup(at(overridden, 10 * 60_000 - 1), 1)).toBeDefined();
    // The override expired: the plan's limits (other buckets) decide now.
    expect(cache.lookup(at(overridden, 10 * 60_000), 1)).toBeUndefined();
  });
});
