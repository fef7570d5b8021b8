import { describe, expect, it } from "vitest";
import { countTotals, rebin, slotWidthFor, toBars } from "@/components/charts/rebin";

const points = Array.from({ length: 10 }, (_, i) => ({ t: i * 1000, allowed: i, denied: 1 }));

describe("rebin", () => {
  it("returns copies at width 1", () => {
    const out = rebin(points, 1);
    expect(out).toEqual(points);
    expect(out[0]).not.toBe(points[0]);
  });

  it("sums consecutive points into wider slots, keeping each slot's first time", () => {
    expect(rebin(points, 3)).toEqual([
      { t: 0, allowed: 0 + 1 + 2, denied: 3 },
      { t: 3_000, allowed: 3 + 4 + 5, denied: 3 },
      { t: 6_000, allowed: 6 + 7 + 8, denied: 3 },
      { t: 9_000, allowed: 9, denied: 1 },
    ]);
  });

  it("picks nice widths that fit the bars", () => {
    expect(slotWidthFor(100, 120)).toBe(1);
    expect(slotWidthFor(121, 120)).toBe(2);
    expect(slotWidthFor(900, 120)).toBe(10);
    expect(slotWidthFor(86_400, 120)).toBe(900);
  });

  it("keeps the totals", () => {
    expect(countTotals(rebin(points, 3))).toEqual(countTotals(points));
    expect(countTotals(points)).toEqual({ allowed: 45, denied: 10 });
  });
});

describe("toBars", () => {
  it("centres each point in its slot", () => {
    expect(toBars([{ t: 2_000, allowed: 1, denied: 2 }], 1_000)).toEqual([
      { t: 2_000, x: 2_500, allowed: 1, denied: 2 },
    ]);
  });
});
