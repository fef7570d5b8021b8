import { describe, expect, it } from "vitest";
import { emptyHistory, recordInspection, seriesKey } from "@/components/inspector/history";
import type { DecisionView, InspectResponse } from "@/lib/client/types";

function decision(buckets: { count: number; periodMs: number; remaining: number }[]): DecisionView {
  return {
    source: "plan",
    store: "memory",
    allowed: true,
    tokensRequested: 1,
    tokensConsumed: 0,
    tokensRemaining: Math.min(...buckets.map((b) => b.remaining)),
    retryAfterMs: 0,
    executionTime: 0,
    buckets: buckets.map((b) => ({
      limit: { count: b.count, periodMs: b.periodMs },
      remaining: b.remaining,
      capacity: b.count,
      retryAfterMs: 0,
      allowed: b.remaining > 0,
      executionTime: 0,
    })),
  };
}

function inspection(now: number, readRemaining: number, readCount = 5): InspectResponse {
  return {
    customerId: 1,
    now,
    store: { store: "memory" },
    operations: {
      read: decision([
        { count: readCount, periodMs: 5_000, remaining: readRemaining },
        { count: 100, periodMs: 60_000, remaining: 90 },
      ]),
      write: decision([{ count: 2, periodMs: 1_000, remaining: 2 }]),
    },
  };
}

const bounds = { maxAgeMs: 2_000, maxLength: 100 };
const read0 = seriesKey("read", 0, { count: 5, periodMs: 5_000 });

describe("recordInspection", () => {
  it("adds one sample per bucket, keyed by operation, position and limit", () => {
    const h = recordInspection(emptyHistory, inspection(1_000, 4), bounds);
    expect(h.now).toBe(1_000);
    expect(Object.keys(h.series).sort()).toEqual([
      "read:0:5/5000",
      "read:1:100/60000",
      "write:0:2/1000",
    ]);
    expect(h.series[read0]).toEqual([{ t: 1_000, remaining: 4 }]);
  });

  it("accumulates within the window and drops what ages out", () => {
    let h = emptyHistory;
    for (const [t, r] of [
      [1_000, 5],
      [2_000, 3],
      [3_000, 4],
      [4_000, 5],
    ] as const) {
      h = recordInspection(h, inspection(t, r), bounds);
    }
    expect(h.series[read0]).toEqual([
      { t: 2_000, remaining: 3 },
      { t: 3_000, remaining: 4 },
      { t: 4_000, remaining: 5 },
    ]);
  });

  it("starts a new series when a limit changes and forgets the old one", () => {
    let h = recordInspection(emptyHistory, inspection(1_000, 5), bounds);
    h = recordInspection(h, inspection(2_000, 9, 10), bounds);
    expect(h.series[read0]).toBeUndefined();
    expect(h.series[seriesKey("read", 0, { count: 10, periodMs: 5_000 })]).toEqual([
      { t: 2_000, remaining: 9 },
    ]);
  });

  it("ignores an inspection older than the latest", () => {
    const h = recordInspection(emptyHistory, inspection(5_000, 5), bounds);
    expect(recordInspection(h, inspection(4_000, 1), bounds)).toBe(h);
  });
});
