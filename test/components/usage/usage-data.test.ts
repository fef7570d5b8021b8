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
  it("formatNearShare rounds down, so a share just under a threshold never reaches it", () => {
    expect(formatNearShare(0.8)).toBe("80%");
    expect(formatNearShare(0.7999)).toBe("79%");
    expect(formatNearShare(0.999)).toBe("99%");
    expect(formatNearShare(1)).toBe("100%");
    expect(formatNearShare(1.25)).toBe("125%");
    expect(formatNearShare(0.29)).toBe("29%");
  });

  it("nearShareTone turns bad at the limit", () => {
    expect(nearShareTone(0.95)).toBe("warn");
    expect(nearShareTone(1)).toBe("bad");
  });

  it("describeNearLimit puts the peak against the allowance over its window", () => {
    expect(
      describeNearLimit({
        peakTokens: 9,
        allowanceTokens: 10,
        windowMs: 3_600_000,
        limit: { count: 10, periodMs: 3_600_000 },
      }),
    ).toBe("9 of 10 tokens in 1 hour (10 per hour)");
    expect(
      describeNearLimit({
        peakTokens: 480,
        allowanceTokens: 600,
        windowMs: 60_000,
        limit: { count: 10, periodMs: 1_000 },
      }),
    ).toBe("480 of 600 tokens in 1 minute (10 per second)");
    expect(
      describeNearLimit({
        peakTokens: 1_700,
        allowanceTokens: 2_000,
        windowMs: 120_000,
        limit: { count: 1_000, periodMs: 60_000 },
      }),
    ).toBe("1,700 of 2,000 tokens in 2 minutes (1,000 per minute)");
    expect(
      describeNearLimit({
        peakTokens: 5,
        allowanceTokens: 5,
        windowMs: 1_000,
        limit: { count: 5, periodMs: 1_000 },
      }),
    ).toBe("5 of 5 tokens in 1 second (5 per second)");
  });

  it("describes a refused customer: how often, and the limits no peak measured", () => {
    expect(describeRefusals(1)).toBe("refused 1 time");
    expect(describeRefusals(1_204)).toBe("refused 1,204 times");
    expect(describeUnmeasured([{ count: 5, periodMs: 1_000 }], 60_000)).toBe(
      "not measured: 5 per second",
    );
    expect(describeUnmeasured([], 60_000)).toBe("its peaks per minute stayed under its limits");
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
    const plan = (name: string, allowed: number, denied = 0, unavailable = 0) => ({
      name,
      allowed,
      denied,
      unavailable,
    });
    const ordered = busiestPlansFirst([
      plan("Free", 0),
      plan("Pro", 10, 5),
      plan("Enterprise", 0),
      plan("Team", 3, 0, 20),
    ]);
    expect(ordered.map((p) => p.name)).toEqual(["Team", "Pro", "Enterprise", "Free"]);
  });
});
