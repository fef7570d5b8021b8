import { describe, expect, it } from "vitest";
import { formatCount } from "@/components/charts/number-format";
import {
  formatAgo,
  formatShare,
  niceCeiling,
  sumPoints,
  xDomain,
  xTicks,
  yAxis,
} from "@/components/overview/traffic-chart-data";

const t0 = 1_700_000_000_000;
const point = (s: number, allowed: number, denied: number) => ({
  t: t0 + s * 1000,
  allowed,
  denied,
});

describe("sumPoints", () => {
  it("adds allowed and denied and gives the denied share", () => {
    expect(sumPoints([point(0, 3, 1), point(1, 5, 1)])).toEqual({
      allowed: 8,
      denied: 2,
      total: 10,
      deniedShare: 0.2,
    });
  });

  it("has no denied share without traffic", () => {
    expect(sumPoints([])).toEqual({ allowed: 0, denied: 0, total: 0, deniedShare: null });
    expect(sumPoints([point(0, 0, 0)]).deniedShare).toBeNull();
  });
});

describe("niceCeiling", () => {
  it.each([
    [0, 1],
    [-3, 1],
    [Number.NaN, 1],
    [1, 1],
    [1.2, 2],
    [7, 10],
    [10, 10],
    [11, 20],
    [120, 200],
    [480, 500],
    [501, 1000],
  ])("rounds %d up to %d", (value, expected) => {
    expect(niceCeiling(value)).toBe(expected);
  });
});

describe("yAxis", () => {
  it("starts at 0 and never tops out below 5", () => {
    expect(yAxis([])).toEqual({ domain: [0, 5], ticks: [0, 1, 2, 3, 4, 5] });
    expect(yAxis([point(0, 1, 1)]).domain).toEqual([0, 5]);
  });

  it("stacks allowed and denied for the busiest second, in even whole steps", () => {
    expect(yAxis([point(0, 4, 3), point(1, 3, 0)])).toEqual({
      domain: [0, 8],
      ticks: [0, 2, 4, 6, 8],
    });
    expect(yAxis([point(0, 5, 5)])).toEqual({ domain: [0, 10], ticks: [0, 2, 4, 6, 8, 10] });
    expect(yAxis([point(0, 30, 0), point(1, 20, 25)])).toEqual({
      domain: [0, 50],
      ticks: [0, 10, 20, 30, 40, 50],
    });
    expect(yAxis([point(0, 100, 21)])).toEqual({ domain: [0, 150], ticks: [0, 50, 100, 150] });
  });
});

describe("xDomain and xTicks", () => {
  it("covers the last `seconds` whole seconds up to the one holding now", () => {
    expect(xDomain(t0 + 999, 120)).toEqual([t0 - 119_000, t0]);
    expect(xDomain(t0, 1)).toEqual([t0, t0]);
  });

  it("ticks every 30 s back from the end, oldest first", () => {
    const domain = xDomain(t0, 120);
    expect(xTicks(domain)).toEqual([t0 - 90_000, t0 - 60_000, t0 - 30_000, t0]);
  });
});

describe("formatting", () => {
  it("writes ages relative to the end of the axis", () => {
    expect(formatAgo(t0, t0)).toBe("now");
    expect(formatAgo(t0 + 500, t0)).toBe("now");
    expect(formatAgo(t0 - 30_000, t0)).toBe("30s ago");
    expect(formatAgo(t0 - 60_000, t0)).toBe("1m ago");
    expect(formatAgo(t0 - 90_000, t0)).toBe("1m 30s ago");
  });

  it("writes counts and shares", () => {
    expect(formatCount(12_345)).toBe("12,345");
    expect(formatShare(null)).toBe("–");
    expect(formatShare(0)).toBe("0%");
    expect(formatShare(1)).toBe("100%");
    expect(formatShare(0.1234)).toBe("12.3%");
  });
});
