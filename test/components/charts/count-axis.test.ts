import { describe, expect, it } from "vitest";
import { capacityTicks, niceStep } from "@/components/charts/count-axis";

describe("count axis", () => {
  it("rounds steps up to 1, 2 or 5 times a power of ten", () => {
    expect(niceStep(0.3)).toBe(0.5);
    expect(niceStep(1.25)).toBe(2);
    expect(niceStep(25)).toBe(50);
    expect(niceStep(250)).toBe(500);
    expect(niceStep(1_000)).toBe(1_000);
  });

  it("labels small capacities at every token", () => {
    expect(capacityTicks(3)).toEqual([0, 1, 2, 3]);
    expect(capacityTicks(5)).toEqual([0, 1, 2, 3, 4, 5]);
    expect(capacityTicks(1)).toEqual([0, 1]);
  });

  it("labels larger ones at nice steps ending at the capacity", () => {
    expect(capacityTicks(10)).toEqual([0, 5, 10]);
    expect(capacityTicks(20)).toEqual([0, 5, 10, 15, 20]);
    expect(capacityTicks(100)).toEqual([0, 50, 100]);
    expect(capacityTicks(1_000_000)).toEqual([0, 500_000, 1_000_000]);
    expect(capacityTicks(30)).toEqual([0, 10, 20, 30]);
    expect(capacityTicks(60)).toEqual([0, 20, 40, 60]);
    expect(capacityTicks(8)).toEqual([0, 2, 4, 6, 8]);
  });

  // Regression: a bucket of 50 was ticked 0, 20, 50 (and one of 7 at 0, 2, 4, 7): the last
  // interval longer than the others.
  it("spaces every tick evenly, 0, 25, 50 for a bucket of 50", () => {
    expect(capacityTicks(50)).toEqual([0, 25, 50]);
    expect(capacityTicks(75)).toEqual([0, 25, 50, 75]);
    expect(capacityTicks(250)).toEqual([0, 125, 250]);
    expect(capacityTicks(9)).toEqual([0, 3, 6, 9]);
    expect(capacityTicks(12)).toEqual([0, 3, 6, 9, 12]);
    expect(capacityTicks(7)).toEqual([0, 7]);
    expect(capacityTicks(997)).toEqual([0, 997]);
    for (let capacity = 6; capacity <= 2_000; capacity++) {
      const ticks = capacityTicks(capacity);
      const gaps = new Set(ticks.slice(1).map((t, i) => t - (ticks[i] as number)));
      expect(gaps.size, `${capacity}: ${ticks.join(", ")}`).toBe(1);
      expect(ticks.at(-1)).toBe(capacity);
      expect(ticks.length, `${capacity}`).toBeLessThanOrEqual(5);
      expect(ticks.every(Number.isInteger), `${capacity}`).toBe(true);
    }
  });
});
