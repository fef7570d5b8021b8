import { describe, expect, it } from "vitest";
import { formatPeriod, Limit, limit, parsePeriod } from "@/lib/limiter";

describe("limit", () => {
  it("takes a count and a period in milliseconds", () => {
    const l = limit(100, 60_000);
    expect(l).toBeInstanceOf(Limit);
    expect(l.count).toBe(100);
    expect(l.periodMs).toBe(60_000);
  });

  it.each([
    ["250ms", 250],
    ["10s", 10_000],
    ["2m", 120_000],
    ["1h", 3_600_000],
    ["30d", 2_592_000_000],
  ] as const)("parses the period %s as %i ms", (period, ms) => {
    expect(limit(1, period).periodMs).toBe(ms);
    expect(parsePeriod(period)).toBe(ms);
  });

  it("is immutable", () => {
    const l = limit(10, "1s");
    expect(Object.isFrozen(l)).toBe(true);
    expect(() => {
      (l as { count: number }).count = 11;
    }).toThrow(TypeError);
    expect(l.count).toBe(10);
  });

  it("is equal to a limit of the same count and period, however it was written", () => {
    expect(limit(10, "1s").equals(limit(10, 1_000))).toBe(true);
    expect(limit(10, "1s").id).toBe(limit(10, "1000ms").id);
    expect(limit(10, "1s").equals(limit(11, "1s"))).toBe(false);
    expect(limit(10, "1s").equals(limit(10, "2s"))).toBe(false);
  });

  it("describes itself in the largest whole unit", () => {
    expect(limit(10, "1s").toString()).toBe("10 per 1s");
    expect(limit(5, 90_000).toString()).toBe("5 per 90s");
    expect(limit(3, 1_500).toString()).toBe("3 per 1500ms");
    expect(formatPeriod(86_400_000)).toBe("1d");
    expect(formatPeriod(7_200_000)).toBe("2h");
    expect(formatPeriod(60_000)).toBe("1m");
  });

  it.each([0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 53])(
    "refuses the count %s with a RangeError naming count",
    (count) => {
      expect(() => limit(count, "1s")).toThrow(RangeError);
      expect(() => limit(count, "1s")).toThrow(/count/);
    },
  );

  it.each([0, -5, Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY])(
    "refuses the period %s ms with a RangeError naming period",
    (period) => {
      expect(() => limit(1, period)).toThrow(RangeError);
      expect(() => limit(1, period)).toThrow(/period/);
    },
  );

  it.each(["10x", "1.5s", "s", "", "-1s", "0s", "10 s", "1w", "1S"])(
    "refuses the period %j (bad or unknown unit) with a RangeError naming period",
    (period) => {
      const bad = period as Parameters<typeof limit>[1];
      expect(() => limit(1, bad)).toThrow(RangeError);
      expect(() => limit(1, bad)).toThrow(/period/);
    },
  );
});
