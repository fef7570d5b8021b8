import { describe, expect, it } from "vitest";
import {
  allowancePerStep,
  busiestPlansFirst,
  combineSeries,
  describeNearLimit,
  describeRefusals,
  describeUnmeasured,
  formatAllowance,
  formatNearShare,
  nearLimitNote,
  nearShareTone,
} from "@/components/usage/usage-data";
import type { UsageSeries } from "@/lib/client/types";

const point = (t: number, allowed: number, denied: number, tokensTaken = allowed) => ({
  t,
  allowed,
  denied,
  unavailable: 0,
  tooLarge: 0,
  tokensRequested: tokensTaken + denied,
  tokensTaken,
});

describe("combineSeries", () => {
  it("adds the operations step by step, in time order", () => {
    const series: UsageSeries[] = [
      { operation: "read", points: [point(0, 3, 1), point(60_000, 0, 0)] },
      { operation: "write", points: [point(0, 2, 0, 4), point(60_000, 1, 2)] },
    ];
    expect(combineSeries(series)).toEqual([
      { t: 0, allowed: 5, denied: 1, tokensTaken: 7 },
      { t: 60_000, allowed: 1, denied: 2, tokensTaken: 1 },
    ]);
  });

  it("is empty for no series", () => {
    expect(combineSeries([])).toEqual([]);
  });
});

describe("allowancePerStep", () => {
  it("is what the tightest limit refills in one step", () => {
    const limits = [
      { count: 10, periodMs: 1_000 },
      { count: 100, periodMs: 60_000 },
    ];
    expect(allowancePerStep(limits, 60_000)).toBe(100);
    expect(allowancePerStep([{ count: 10, periodMs: 3_600_000 }], 60_000)).toBeCloseTo(1 / 6);
    expect(allowancePerStep([], 60_000)).toBeNull();
  });

  it("formatAllowance keeps three figures below 100", () => {
    expect(formatAllowance(1 / 6)).toBe("0.167");
    expect(formatAllowance(2.5)).toBe("2.5");
    expect(formatAllowance(600)).toBe("600");
    expect(formatAllowance(12_345.6)).toBe("12,346");
  });
});

describe("near-limit shares", () => {
  // Regression: 1.667 read "166%", and a bucket drained by a limited customer read over 100%.
  it("formatNearShare rounds to the nearest, never to 100% short of drained, never over", () => {
    expect(formatNearShare(0.8)).toBe("80%");
    expect(formatNearShare(2 / 3)).toBe("67%");
    expect(formatNearShare(0.7999)).toBe("80%");
    expect(formatNearShare(0.996)).toBe("99%");
    expect(formatNearShare(1)).toBe("100%");
    expect(formatNearShare(1.667)).toBe("100%");
    expect(formatNearShare(0.29)).toBe("29%");
  });

  it("nearShareTone turns bad at the limit", () => {
    expect(nearShareTone(0.95)).toBe("warn");
    expect(nearShareTone(1)).toBe("bad");
  });

  it("describeNearLimit says how low the bucket went, of its count", () => {
    expect(describeNearLimit({ lowestTokens: 0, limit: { count: 3, periodMs: 1_000 } })).toBe(
      "Drained to 0 of 3 tokens (3 per second)",
    );
    expect(describeNearLimit({ lowestTokens: 2, limit: { count: 10, periodMs: 3_600_000 } })).toBe(
      "Down to 2 of 10 tokens (10 per hour)",
    );
    expect(
      describeNearLimit({ lowestTokens: 150, limit: { count: 1_000, periodMs: 60_000 } }),
    ).toBe("Down to 150 of 1,000 tokens (1,000 per minute)");
    expect(describeNearLimit({ lowestTokens: 0, limit: { count: 1, periodMs: 1_000 } })).toBe(
      "Drained to 0 of 1 token (1 per second)",
    );
  });

  it("describes a refused customer: how often, and the limits no peak measured", () => {
    expect(describeRefusals(1)).toBe("refused 1 time");
    expect(describeRefusals(1_204)).toBe("refused 1,204 times");
    expect(describeUnmeasured([{ count: 5, periodMs: 1_000 }], 60_000)).toBe(
      "not measured: 5 per second",
    );
    expect(describeUnmeasured([], 60_000)).toBe(
      "its buckets, replayed per minute, were never drained",
    );
  });

  it("nearLimitNote says how limits shorter than the rollups' step were judged", () => {
    const at = (ms: number) => `@${ms}`;
    expect(nearLimitNote({ fromMs: 0, resolutionMs: 60_000, perSecondFromMs: 700_000 }, at)).toBe(
      "Limits shorter than a minute are measured per second from @700000 (per-second counts are kept for the last 5 minutes); before that, only by refusals.",
    );
    expect(nearLimitNote({ fromMs: 0, resolutionMs: 3_600_000, perSecondFromMs: null }, at)).toBe(
      "Limits shorter than an hour are judged here only by refusals: per-second counts are kept for the last 5 minutes only.",
    );
    expect(nearLimitNote({ fromMs: 5, resolutionMs: 60_000, perSecondFromMs: 5 }, at)).toBeNull();
  });
});

describe("busiestPlansFirst", () => {
  it("puts the plans with most decisions first, the quiet ones by name", () => {
    const plan = (name: string, allowed: number, denied = 0, unavailable = 0, tooLarge = 0) => ({
      name,
      allowed,
      denied,
      unavailable,
      tooLarge,
    });
    const ordered = busiestPlansFirst([
      plan("Free", 0),
      plan("Pro", 10, 5),
      plan("Enterprise", 0),
      plan("Team", 3, 0, 20),
      plan("Bulk", 0, 0, 0, 16),
    ]);
    expect(ordered.map((p) => p.name)).toEqual(["Team", "Bulk", "Pro", "Enterprise", "Free"]);
  });
});
