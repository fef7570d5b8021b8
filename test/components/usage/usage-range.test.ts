import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  formatStepTick,
  overviewQuerySchema,
  RANGE_SPECS,
  rangeQuery,
  scopedRangeSchema,
  stepTicks,
  usageSearch,
} from "@/components/usage/usage-range";

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
// 2026-11-23T14:05:30.500Z, a Monday, in winter (Paris is UTC+01:00).
const NOW = Date.UTC(2026, 10, 23, 14, 5, 30, 500);

let savedTz: string | undefined;
beforeAll(() => {
  savedTz = process.env.TZ;
  process.env.TZ = "Europe/Paris";
});
afterAll(() => {
  process.env.TZ = savedTz;
});

describe("rangeQuery", () => {
  it("ends at the end of the current minute, as the API's own default, one span back", () => {
    const end = Date.UTC(2026, 10, 23, 14, 6);
    expect(rangeQuery("1h", NOW)).toEqual({ from: end - HOUR, to: end, granularity: "minute" });
    expect(rangeQuery("24h", NOW)).toEqual({ from: end - DAY, to: end, granularity: "hour" });
    expect(rangeQuery("7d", NOW)).toEqual({ from: end - 7 * DAY, to: end, granularity: "hour" });
    expect(rangeQuery("30d", NOW)).toEqual({ from: end - 30 * DAY, to: end, granularity: "day" });
  });

  it("an instant on a minute's start still counts that minute", () => {
    const onMinute = Date.UTC(2026, 10, 23, 14, 5);
    expect(rangeQuery("1h", onMinute).to).toBe(onMinute + MINUTE);
  });

  it("keeps every series within the API's 1,500 points", () => {
    for (const spec of Object.values(RANGE_SPECS)) {
      const step = { minute: MINUTE, hour: HOUR, day: DAY }[spec.granularity];
      expect(Math.ceil(spec.spanMs / step) + 1).toBeLessThanOrEqual(1_500);
    }
  });
});

describe("usageSearch", () => {
  it("writes the range, the granularity when asked, and the filters that are set", () => {
    const q = { from: 1_000, to: 61_000, granularity: "minute" as const };
    expect(usageSearch(q)).toBe("from=1000&to=61000");
    expect(usageSearch(q, { customerId: 7, planId: undefined, operation: "read" }, true)).toBe(
      "from=1000&to=61000&granularity=minute&customerId=7&operation=read",
    );
  });
});

describe("the URL's range", () => {
  it("is live on the overview and 24 h on a customer's or a plan's page by default", () => {
    expect(overviewQuerySchema.parse({}).range).toBe("live");
    expect(overviewQuerySchema.parse({ range: "7d" }).range).toBe("7d");
    expect(scopedRangeSchema.parse({}).range).toBe("24h");
    expect(scopedRangeSchema.safeParse({ range: "live" }).success).toBe(false);
    expect(overviewQuerySchema.safeParse({ range: "2h" }).success).toBe(false);
  });
});

describe("step ticks", () => {
  it("formatStepTick labels by the range: time of day, day and time, or day", () => {
    const t = Date.UTC(2026, 10, 23, 14);
    expect(formatStepTick(t, "1h")).toBe("15:00");
    expect(formatStepTick(t, "24h")).toBe("15:00");
    expect(formatStepTick(t, "7d")).toBe("23 Nov 15:00");
    expect(formatStepTick(t, "30d")).toBe("23 Nov");
  });
});

describe("stepTicks", () => {
  it("puts every n-th step start on the axis, at most maxTicks", () => {
    expect(stepTicks(0, 6 * HOUR, HOUR, 7)).toEqual([0, 1, 2, 3, 4, 5].map((h) => h * HOUR));
    const ticks = stepTicks(0, 60 * MINUTE, MINUTE, 7);
    expect(ticks.length).toBeLessThanOrEqual(7);
    expect(ticks[0]).toBe(0);
    expect(ticks[1]).toBe(9 * MINUTE);
    expect(stepTicks(0, 168 * HOUR, HOUR, 7).length).toBe(7);
  });
});
