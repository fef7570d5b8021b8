import { describe, expect, it } from "vitest";
import { bucketsOf, describeAnyLimits, describeQuota } from "@/components/ui/limit-words";
import { matchingZones, timeZoneNames } from "@/components/ui/time-zones";

describe("limits with quotas in words", () => {
  it("writes a quota's count with separators, its zone when not UTC", () => {
    expect(describeQuota({ count: 100_000, period: "month" })).toBe("100,000 per month");
    expect(describeQuota({ count: 100_000, period: "month", timeZone: "UTC" })).toBe(
      "100,000 per month",
    );
    expect(describeQuota({ count: 5, period: "day", timeZone: "Asia/Tokyo" })).toBe(
      "5 per day (Asia/Tokyo)",
    );
  });

  it("puts buckets first, then quotas shortest period first, dry-run ones after", () => {
    expect(
      describeAnyLimits([
        { count: 100_000, period: "month" },
        { count: 5_000, period: "day" },
        { count: 10, periodMs: 1_000 },
        { count: 3, periodMs: 3_600_000, dryRun: true },
        { count: 1_000, period: "week", dryRun: true },
      ]),
    ).toBe("10 per second, 5,000 per day, 100,000 per month; dry run: 3 per hour, 1,000 per week");
    expect(describeAnyLimits([])).toBe("unlimited");
  });

  it("keeps only the buckets for the views that draw refills", () => {
    expect(
      bucketsOf([
        { count: 1, periodMs: 1_000 },
        { count: 1, period: "day" },
      ]),
    ).toEqual([{ count: 1, periodMs: 1_000 }]);
  });
});

describe("time zones offered", () => {
  it("offers UTC first, then the runtime's zones by name, and a stored one it lacks", () => {
    const zones = timeZoneNames(["Etc/Unknown-Kept"]);
    expect(zones[0]).toBe("UTC");
    expect(zones).toContain("Europe/Berlin");
    expect(zones).toContain("Etc/Unknown-Kept");
    expect(zones.filter((z) => z === "UTC")).toHaveLength(1);
  });

  it("finds a zone by any of its words, in any case", () => {
    const zones = ["UTC", "America/New_York", "Europe/Berlin", "Europe/Paris"];
    expect(matchingZones(zones, "new york")).toEqual(["America/New_York"]);
    expect(matchingZones(zones, "EUROPE")).toEqual(["Europe/Berlin", "Europe/Paris"]);
    expect(matchingZones(zones, " ")).toEqual(zones);
  });
});
