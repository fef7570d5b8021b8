import { describe, expect, it } from "vitest";
import { MINUTE_MS } from "@/lib/usage/time";
import { UsageCounter } from "@/lib/usage/usage-counter";

const T0 = Date.UTC(2025, 0, 1);

describe("UsageCounter", () => {
  // Regression: a cell held read and write only, so every other class was counted as writes.
  it("counts each operation class on its own row", () => {
    const counter = new UsageCounter();
    counter.record(1, 10, "write", "allowed", 1, 1, T0 + 1_000);
    counter.record(1, 10, "exports", "allowed", 5, 5, T0 + 2_000);
    counter.record(1, 10, "exports", "denied", 2, 0, T0 + 3_000);
    counter.record(1, 10, "imports", "allowed", 1, 1, T0 + 4_000);
    const rows = counter.drain().rows.map((r) => [r.operation, r.allowed, r.denied, r.tokensTaken]);
    expect(rows).toEqual([
      ["write", 1, 0, 1],
      ["exports", 1, 1, 5],
      ["imports", 1, 0, 1],
    ]);
    // A cell reused for the next minute starts every class at zero.
    counter.record(1, 10, "read", "allowed", 1, 1, T0 + MINUTE_MS + 1);
    expect(counter.drain().rows.map((r) => r.operation)).toEqual(["read"]);
  });

  it("sums a minute's decisions per customer, operation and plan, and drains them once", () => {
    const counter = new UsageCounter();
    counter.record(1, 10, "read", "allowed", 1, 1, T0 + 1_000);
    counter.record(1, 10, "read", "denied", 3, 0, T0 + 2_000);
    counter.record(1, 10, "write", "unavailable", 2, 0, T0 + 3_000);
    counter.record(1, 10, "write", "too_large", 0, 0, T0 + 4_000);
    counter.record(2, 10, "read", "allowed", 5, 5, T0 + 59_999);
    expect(counter.pendingCells).toBe(2);
    expect(counter.drain().rows).toEqual([
      {
        startMs: T0,
        customerId: 1,
        operation: "read",
        planId: 10,
        allowed: 1,
        denied: 1,
        unavailable: 0,
        tokensRequested: 4,
        tokensTaken: 1,
        tooLarge: 0,
      },
      {
        startMs: T0,
        customerId: 1,
        operation: "write",
        planId: 10,
        allowed: 0,
        denied: 0,
        unavailable: 1,
        tokensRequested: 2,
        tokensTaken: 0,
        tooLarge: 1,
      },
      {
        startMs: T0,
        customerId: 2,
        operation: "read",
        planId: 10,
        allowed: 1,
        denied: 0,
        unavailable: 0,
        tokensRequested: 5,
        tokensTaken: 5,
        tooLarge: 0,
      },
    ]);
    expect(counter.drain()).toEqual({ rows: [], dryRun: [] });
    expect(counter.pendingCells).toBe(0);
  });

  it("keeps minutes and plans apart, even when decisions arrive out of order across a minute's edge", () => {
    const counter = new UsageCounter();
    counter.record(1, 10, "read", "allowed", 1, 1, T0 + MINUTE_MS); // the next minute first,
    counter.record(1, 10, "read", "allowed", 1, 1, T0 + MINUTE_MS - 1); // then a late one,
    counter.record(1, 10, "read", "allowed", 1, 1, T0 + MINUTE_MS + 1); // and the next again.
    counter.record(1, 11, "read", "allowed", 1, 1, T0 + MINUTE_MS + 2); // a plan change
    const rows = counter.drain().rows.map((r) => [r.startMs - T0, r.planId, r.allowed]);
    expect(
      rows.sort(
        (a, b) => (a[0] as number) - (b[0] as number) || (a[1] as number) - (b[1] as number),
      ),
    ).toEqual([
      [0, 10, 1],
      [MINUTE_MS, 10, 2],
      [MINUTE_MS, 11, 1],
    ]);
  });

  it("counts each dry-run limit's would-be refusals on their own", () => {
    const counter = new UsageCounter();
    const limit = { count: 3, periodMs: 3_600_000 };
    counter.record(1, 10, "read", "allowed", 1, 1, T0);
    counter.recordDryRun(1, 10, "read", "plan", limit, T0);
    counter.recordDryRun(1, 10, "read", "plan", limit, T0 + 1);
    counter.recordDryRun(1, 10, "read", "override", limit, T0 + 2);
    expect(counter.drain().dryRun).toEqual([
      {
        startMs: T0,
        customerId: 1,
        operation: "read",
        planId: 10,
        source: "plan",
        limitCount: 3,
        limitPeriodMs: 3_600_000,
        refused: 2,
      },
      {
        startMs: T0,
        customerId: 1,
        operation: "read",
        planId: 10,
        source: "override",
        limitCount: 3,
        limitPeriodMs: 3_600_000,
        refused: 1,
      },
    ]);
  });
});
