import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { setOverride } from "@/lib/admin/customers";
import {
  decisionResultJson,
  resultOfIdentity,
  resultOfVerdict,
} from "@/lib/data-plane/decision-result";
import { decide } from "@/lib/policy/decide";
import type { DecisionAnswer } from "@/lib/schemas/decision-answer.schema";
import type { Operation } from "@/lib/vocabulary";
import { createTestRuntime, type TestRuntime } from "../../support/runtime";

describe("decisionResultJson", () => {
  let t: TestRuntime;
  beforeEach(() => {
    t = createTestRuntime();
  });
  afterEach(() => t.cleanup());

  async function made(customerId: number, operation: Operation, cost: number, peek = false) {
    const customer = t.runtime.policy.snapshot.byId.get(customerId);
    if (!customer) throw new Error("no customer");
    return resultOfVerdict(await decide(t.runtime, customer, operation, cost, { peek }));
  }

  it("writes exactly what JSON.stringify writes, for every kind of answer", async () => {
    t.addPlan("two", [
      { operation: "read", count: 3, periodMs: 1_000 },
      { operation: "read", count: 7, periodMs: 60_000 },
      { operation: "write", count: 2, periodMs: 3_600_000 },
    ]);
    t.addPlan("none", [{ operation: "write", count: 1, periodMs: 1_000 }]);
    const a = t.addCustomer("two", 'Quote " and \\ backslash, ünïcode \u2028 and \n newline');
    const b = t.addCustomer("none", "No read limits");
    const results: DecisionAnswer[] = [];
    for (let i = 0; i < 5; i++) results.push(await made(a.id, "read", 1));
    results.push(await made(a.id, "read", 2, true));
    results.push(await made(a.id, "write", 3));
    results.push(await made(a.id, "write", 2));
    results.push(await made(a.id, "write", 1));
    results.push(await made(b.id, "read", 4));
    t.clock.advance(1_500);
    results.push(await made(a.id, "read", 1));
    expect(
      setOverride(t.runtime, "admin", a.id, "read", {
        limits: [{ count: 1_000_000, periodMs: 30 * 86_400_000 }],
        expiresAt: null,
      }).ok,
    ).toBe(true);
    results.push(await made(a.id, "read", 999_999));
    results.push(resultOfIdentity("unknown_key", undefined, "read", 1));
    const suspended = t.runtime.policy.snapshot.byId.get(b.id);
    results.push(resultOfIdentity("suspended", suspended, "write", 9));
    // Every reason but store_unavailable (its own test: Redis down) is among them.
    expect(new Set(results.map((r) => r.reason))).toEqual(
      new Set(["ok", "rate_limited", "cost_exceeds_limit", "unknown_key", "suspended"]),
    );
    for (const result of results) {
      expect(decisionResultJson(result)).toBe(JSON.stringify(result));
      expect(JSON.parse(decisionResultJson(result))).toEqual(result);
    }
  });
});
