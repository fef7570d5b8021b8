import { describe, expect, it } from "vitest";
import {
  formatAgo,
  formatSpan,
  liveTicks,
  offsetTicks,
  tickStepMs,
  timeDomain,
} from "@/components/charts/time-axis";

describe("time axis", () => {
  it("a live domain is the window up to now", () => {
    expect(timeDomain(100_000, 60_000)).toEqual([40_000, 100_000]);
  });

  it("picks the shortest nice step that fits the ticks", () => {
    expect(tickStepMs(60_000, 7)).toBe(10_000);
    expect(tickStepMs(300_000, 7)).toBe(60_000);
    expect(tickStepMs(5_000, 8)).toBe(1_000);
    expect(tickStepMs(10 * 86_400_000, 7)).toBe(86_400_000);
  });

  it("counts live ticks back from now", () => {
    expect(liveTicks(1_000_500, 60_000)).toEqual([
      940_500, 950_500, 960_500, 970_500, 980_500, 990_500, 1_000_500,
    ]);
  });

  it("spreads offset ticks from zero", () => {
    expect(offsetTicks(5_000)).toEqual([0, 1_000, 2_000, 3_000, 4_000, 5_000]);
    expect(offsetTicks(120_000)).toEqual([0, 30_000, 60_000, 90_000, 120_000]);
  });

  it("writes spans and ages compactly", () => {
    expect(formatSpan(0)).toBe("0s");
    expect(formatSpan(45_000)).toBe("45s");
    expect(formatSpan(90_000)).toBe("1m 30s");
    expect(formatSpan(3_600_000)).toBe("1h");
    expect(formatSpan(3_660_000)).toBe("1h 1m");
    expect(formatAgo(1_000_000, 1_000_000)).toBe("now");
    expect(formatAgo(970_000, 1_000_000)).toBe("-30s");
    expect(formatAgo(880_000, 1_000_000)).toBe("-2m");
  });
});
