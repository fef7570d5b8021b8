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
    expect(capacityTicks(7)).toEqual([0, 2, 4, 7]);
    expect(capacityTicks(10)).toEqual([0, 5, 10]);
    expect(capacityTicks(20)).toEqual([0, 5, 10, 15, 20]);
    expect(capacityTicks(100)).toEqual([0, 50, 100]);
    expect(capacityTicks(1_000_000)).toEqual([0, 500_000, 1_000_000]);
  });
});
