import { describe, expect, it } from "vitest";
import {
  describeCalendar,
  describeNearQuota,
  describeRemaining,
  describeReset,
  describeUsed,
  describeUsedUp,
  type QuotaUse,
  quotaShare,
  quotaTone,
} from "@/components/quotas/quota-words";

// A month from the 14th, Berlin time: 14 Nov 2026 00:00 CET (23:00 UTC the day before) to
// 14 Dec 2026 00:00 CET.
const START = Date.UTC(2026, 10, 13, 23);
const END = Date.UTC(2026, 11, 13, 23);

const month: QuotaUse = {
  period: "month",
  timeZone: "Europe/Berlin",
  anchorDay: 14,
  count: 100_000,
  granted: 0,
  used: 92_000,
  periodStartMs: START,
  periodEndMs: END,
};

describe("a quota's use in words", () => {
  it("writes used of the count with thousands separators, and what is left", () => {
    expect(describeUsed(month)).toBe("92,000 of 100,000 used");
    expect(describeRemaining(month)).toBe("8,000 left");
  });

  it("counts what was granted into the total and names it", () => {
    const granted = { ...month, granted: 5_000 };
    expect(describeUsed(granted)).toBe("92,000 of 105,000 used (100,000 + 5,000 granted)");
    expect(describeRemaining(granted)).toBe("13,000 left");
    expect(quotaShare(granted)).toBeCloseTo(92_000 / 105_000);
  });

  it("is ok below 80%, warns from 80%, and is bad once used up", () => {
    expect(quotaTone({ ...month, used: 79_999 })).toBe("ok");
    expect(quotaTone(month)).toBe("warn");
    expect(quotaTone({ ...month, used: 100_000 })).toBe("bad");
    expect(describeRemaining({ ...month, used: 100_000 })).toBe("none left");
  });
});

describe("when a quota resets, in the operator's zone", () => {
  it("writes the same instant in Berlin and in UTC with the zone named", () => {
    expect(describeReset(month, "Europe/Berlin")).toBe("resets at 14 Dec 2026, 00:00 UTC+01:00");
    expect(describeReset(month, "UTC")).toBe("resets at 13 Dec 2026, 23:00 UTC");
  });

  it("says a used-up quota refuses until it resets; a dry-run one only counts", () => {
    const usedUp = { ...month, used: 100_000 };
    expect(describeUsedUp(month, false, "UTC")).toBeUndefined();
    expect(describeUsedUp(usedUp, false, "UTC")).toBe(
      "Used up: requests are refused until 13 Dec 2026, 23:00 UTC",
    );
    expect(describeUsedUp(usedUp, true, "Europe/Berlin")).toBe(
      "Used up: a dry run, so requests are counted, not refused, until 14 Dec 2026, 00:00 UTC+01:00",
    );
  });
});

describe("how a quota's periods are counted", () => {
  it("names a month's billing day as an ordinal, with the quota's zone", () => {
    expect(describeCalendar(month)).toBe("billing day 14th, Europe/Berlin");
    expect(describeCalendar({ ...month, anchorDay: 1, timeZone: "UTC" })).toBe(
      "billing day 1st, UTC",
    );
    expect(describeCalendar({ ...month, anchorDay: 22 })).toBe("billing day 22nd, Europe/Berlin");
  });

  it("says days start at midnight and weeks on Monday", () => {
    expect(describeCalendar({ period: "day", timeZone: "UTC" })).toBe("days from midnight, UTC");
    expect(describeCalendar({ period: "week", timeZone: "America/New_York" })).toBe(
      "weeks from Monday, America/New_York",
    );
  });
});

describe("a quota in the near-limit list", () => {
  it("says the share of the total this period, never rounding up to 100%", () => {
    expect(describeNearQuota(month)).toBe("92% of 100,000 this month");
    expect(describeNearQuota({ ...month, period: "day", used: 99_999 })).toBe(
      "99% of 100,000 today",
    );
    expect(describeNearQuota({ ...month, period: "week", granted: 20_000, used: 120_000 })).toBe(
      "100% of 120,000 this week",
    );
  });
});
