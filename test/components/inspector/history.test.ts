import { describe, expect, it } from "vitest";
import { levelSteps, undrawnMs } from "@/components/charts/level-steps";
import { samplesFrom } from "@/components/charts/sample-window";
import {
  emptyHistory,
  recordInspection,
  recordReplay,
  seriesKey,
} from "@/components/inspector/history";
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
      fullInMs: ((b.count - b.remaining) * b.periodMs) / b.count,
    })),
  };
}

function inspection(now: number, readRemaining: number, readCount = 5): InspectResponse {
  return {
    customerId: 1,
    now,
    store: { store: "memory" },
    quotas: [],
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
    expect(h.series[read0]).toEqual([{ t: 1_000, remaining: 4, fullInMs: 1_000 }]);
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
    expect(h.series[read0]?.map(({ t, remaining }) => [t, remaining])).toEqual([
      [2_000, 3],
      [3_000, 4],
      [4_000, 5],
    ]);
  });

  it("starts a new series when a limit changes and forgets the old one", () => {
    let h = recordInspection(emptyHistory, inspection(1_000, 5), bounds);
    h = recordInspection(h, inspection(2_000, 9, 10), bounds);
    expect(h.series[read0]).toBeUndefined();
    expect(h.series[seriesKey("read", 0, { count: 10, periodMs: 5_000 })]).toEqual([
      { t: 2_000, remaining: 9, fullInMs: 500 },
    ]);
  });

  it("ignores an inspection older than the latest", () => {
    const h = recordInspection(emptyHistory, inspection(5_000, 5), bounds);
    expect(recordInspection(h, inspection(4_000, 1), bounds)).toBe(h);
  });
});

describe("recordReplay", () => {
  const replayed = (now: number) => ({
    ...inspection(now, 4),
    history: {
      fromMs: now - 3_000,
      toMs: now,
      scope: "instance" as const,
      operations: {
        read: [
          [
            { t: now - 3_000, remaining: 5, fullInMs: 0 },
            { t: now - 2_500, remaining: 0, fullInMs: 5_000 },
            { t: now, remaining: 4, fullInMs: 1_000 },
          ],
          [{ t: now - 3_000, remaining: 90, fullInMs: 6_000 }],
        ],
        write: [[{ t: now - 3_000, remaining: 2, fullInMs: 0 }]],
      },
    },
  });

  // Regression: the charts started empty; the bucket emptied before the page opened was lost.
  it("puts the replayed past before the peeks, which it never overwrites", () => {
    let h = recordInspection(emptyHistory, inspection(10_000, 4), bounds);
    h = recordInspection(h, inspection(11_000, 5), bounds);
    h = recordReplay(h, replayed(10_500), { maxAgeMs: 60_000, maxLength: 100 });
    expect(h.series[read0]?.map(({ t, remaining }) => [t, remaining])).toEqual([
      [7_500, 5],
      [8_000, 0],
      [10_000, 4],
      [11_000, 5],
    ]);
    expect(h.now).toBe(11_000);
  });

  it("fills a bucket not peeked yet, and ignores an answer without history", () => {
    const h = recordReplay(emptyHistory, replayed(10_000), { maxAgeMs: 60_000, maxLength: 100 });
    expect(h.series[read0]).toHaveLength(3);
    expect(h.now).toBe(10_000);
    expect(recordReplay(h, inspection(12_000, 1))).toBe(h);
  });

  // Regression: the replay's sample at the window's start sat exactly HISTORY_BOUNDS.maxAgeMs
  // back and the first peek after it dropped it, so a bucket's chart was blank before its first
  // recent decision (and a bucket with no traffic was blank until the page opened).
  it("keeps the replayed level at the window's start through the peeks that follow", () => {
    // The charts' longest window is as long as the history kept, and the replay as long again.
    const window = { maxAgeMs: 3_000, maxLength: 100 };
    let h = recordInspection(emptyHistory, inspection(9_900, 4), window);
    h = recordReplay(h, replayed(10_000), window);
    h = recordInspection(h, inspection(11_000, 4), window);
    const write0 = seriesKey("write", 0, { count: 2, periodMs: 1_000 });
    for (const [key, limit] of [
      [read0, { count: 5, periodMs: 5_000 }],
      [write0, { count: 2, periodMs: 1_000 }],
    ] as const) {
      const samples = h.series[key] ?? [];
      const now = 11_000;
      const points = levelSteps(limit, samplesFrom(samples, now - 3_000), now, 10);
      expect(undrawnMs(points, now - 3_000, now), key).toBe(0);
    }
    // The bucket with no traffic is drawn full from the replay's start.
    expect(h.series[write0]?.[0]).toEqual({ t: 7_000, remaining: 2, fullInMs: 0 });
  });
});
