import { describe, expect, it } from "vitest";
import {
  draftFromPlan,
  limitsInWords,
  type PlanDraft,
  sameDraft,
  toBody,
  validateCreate,
  validateUpdate,
} from "@/components/plans/plan-draft";
import { quotaDraft } from "@/components/ui/limit-draft";
import type { PlanWithLimits } from "@/lib/client/types";

const saved: PlanWithLimits = {
  id: 7,
  slug: "pro",
  name: "Pro",
  description: "",
  createdAt: 1,
  updatedAt: 1,
  limits: [
    { operation: "read", count: 20, periodMs: 1_000, dryRun: false },
    { operation: "read", count: 100_000, period: "month", timeZone: "UTC", dryRun: false },
    { operation: "write", count: 5_000, period: "day", timeZone: "Europe/Berlin", dryRun: false },
  ],
};

function newPlan(limits: PlanDraft["limits"]): PlanDraft {
  return { name: "Quota plan", slug: "quota-plan", description: "", limits };
}

describe("a plan's quota rows: draft and body", () => {
  it("reads a stored quota as a quota row (UTC when it names no zone) and writes it back", () => {
    const d = draftFromPlan(saved);
    expect(d.limits.map((l) => [l.operation, l.count, l.period, l.timeZone, l.dryRun])).toEqual([
      ["read", "20", undefined, undefined, false],
      ["read", "100000", "month", "UTC", false],
      ["write", "5000", "day", "Europe/Berlin", false],
    ]);
    expect(toBody(d).limits).toEqual([
      { operation: "read", count: 20, periodMs: 1_000, dryRun: false },
      { operation: "read", count: 100_000, period: "month", timeZone: "UTC", dryRun: false },
      { operation: "write", count: 5_000, period: "day", timeZone: "Europe/Berlin", dryRun: false },
    ]);
  });

  it("sends nothing for an unchanged plan with quotas, a zone's absence read as UTC", () => {
    expect(validateUpdate(draftFromPlan(saved), saved)).toEqual({ ok: true, data: {} });
  });

  it("sends the limits whole when a quota's zone, period or count changes", () => {
    for (const change of [
      { timeZone: "Asia/Tokyo" },
      { period: "week" as const },
      { count: "9" },
    ]) {
      const d = draftFromPlan(saved);
      d.limits[1] = { ...d.limits[1], ...change } as PlanDraft["limits"][number];
      const result = validateUpdate(d, saved);
      expect(result.ok && result.data.limits?.length).toBe(3);
    }
  });

  it("counts a quota's zone and period as unsaved changes", () => {
    const d = draftFromPlan(saved);
    const moved = {
      ...d,
      limits: d.limits.map((l, i) => (i === 2 ? { ...l, timeZone: "UTC" } : l)),
    };
    expect(sameDraft(d, draftFromPlan(saved))).toBe(true);
    expect(sameDraft(d, moved)).toBe(false);
  });
});

describe("a plan's quota rows: validation by field", () => {
  it("accepts a quota of up to a billion per period, its zone's case corrected", () => {
    const result = validateCreate(
      newPlan([quotaDraft("read", 1_000_000_000, "month", "europe/berlin")]),
    );
    expect(result).toMatchObject({
      ok: true,
      data: {
        limits: [
          { operation: "read", count: 1_000_000_000, period: "month", timeZone: "Europe/Berlin" },
        ],
      },
    });
  });

  it("tells each quota row's fields what is wrong, at their own paths", () => {
    const result = validateCreate(
      newPlan([
        quotaDraft("read", "", "month", "UTC"),
        quotaDraft("read", 2_000_000_000, "day", "UTC"),
        quotaDraft("write", 10, "week", "Mars/Olympus"),
      ]),
    );
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors["limits.0.count"]).toEqual(["Count must be a number"]);
    expect(result.errors["limits.1.count"]).toEqual(["Count must be at most 1,000,000,000"]);
    expect(result.errors["limits.2.timeZone"]?.[0]).toMatch(/^Unknown time zone "Mars\/Olympus"/);
  });

  it("keeps a bucket's own bound: a bucket's count stops at a million", () => {
    const d = draftFromPlan(saved);
    d.limits[0] = { ...d.limits[0], count: "2000000" } as PlanDraft["limits"][number];
    const result = validateCreate(d);
    expect(!result.ok && result.errors["limits.0.count"]).toEqual([
      "Count must be at most 1,000,000",
    ]);
  });

  it("refuses two quotas of one class counting the same period in the same zone", () => {
    const result = validateCreate(
      newPlan([quotaDraft("read", 10, "day", "UTC"), quotaDraft("read", 20, "day", "UTC")]),
    );
    expect(!result.ok && result.errors["limits.1"]?.[0]).toMatch(/^Duplicate/);
    // Another zone, another period or another class is another quota.
    expect(
      validateCreate(
        newPlan([
          quotaDraft("read", 10, "day", "UTC"),
          quotaDraft("read", 10, "day", "Asia/Tokyo"),
          quotaDraft("read", 10, "week", "UTC"),
          quotaDraft("write", 10, "day", "UTC"),
        ]),
      ).ok,
    ).toBe(true);
  });
});

describe("a plan's quotas in words", () => {
  it("says buckets then quotas, the zone when not UTC", () => {
    const d = draftFromPlan(saved);
    expect(limitsInWords(d, "read")).toBe("20 per second, 100,000 per month");
    expect(limitsInWords(d, "write")).toBe("5,000 per day (Europe/Berlin)");
  });

  it("names the quota row to fix while one is not valid", () => {
    const d = newPlan([quotaDraft("read", "", "month", "UTC")]);
    expect(limitsInWords(d, "read")).toBe("not valid yet: fix limit 1");
  });
});
