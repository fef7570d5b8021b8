import { describe, expect, it } from "vitest";
import {
  blankDraft,
  blankQuotaDraft,
  draftOfLimit,
  isQuotaDraft,
  limitDraft,
  limitOfDraft,
  numberOf,
  periodMsOf,
  policyLimitOfDraft,
  quotaDraft,
} from "@/components/ui/limit-draft";

describe("limit drafts", () => {
  it("writes a limit in the largest unit that divides its period", () => {
    expect(draftOfLimit({ count: 10, periodMs: 1_000 })).toEqual({
      count: "10",
      amount: "1",
      unit: "s",
    });
    expect(draftOfLimit({ count: 500, periodMs: 300_000 })).toEqual({
      count: "500",
      amount: "5",
      unit: "m",
    });
    expect(draftOfLimit({ count: 1, periodMs: 1_500 })).toEqual({
      count: "1",
      amount: "1500",
      unit: "ms",
    });
  });

  it("reads rows as numbers, blanks as NaN, periods rounded off float error", () => {
    expect(limitOfDraft({ count: "10", amount: "1.1", unit: "s" })).toEqual({
      count: 10,
      periodMs: 1_100,
    });
    expect(limitOfDraft({ count: " ", amount: "", unit: "s" })).toEqual({
      count: Number.NaN,
      periodMs: Number.NaN,
    });
    expect(limitOfDraft({ count: "1", amount: "0.5", unit: "ms" }).periodMs).toBe(0.5);
  });

  it("keeps a missing amount missing and undoes float noise in periods", () => {
    expect(periodMsOf(undefined, "s")).toBeUndefined();
    expect(periodMsOf(-5, "m")).toBe(-300_000);
    expect(periodMsOf(0.0001, "ms")).toBe(0.0001);
    expect(numberOf(" ")).toBeUndefined();
    expect(numberOf("x")).toBeNaN();
  });

  it("gives a plan's rows an operation and a fresh key; blank rows have neither", () => {
    const a = limitDraft("read", 10, 1, "s");
    const b = limitDraft("write", "", "1.5", "m");
    expect(a).toMatchObject({ operation: "read", count: "10", amount: "1", unit: "s" });
    expect(b).toMatchObject({ operation: "write", count: "", amount: "1.5", unit: "m" });
    expect(a.key).not.toBe(b.key);
    expect(blankDraft()).toEqual({ count: "", amount: "1", unit: "s" });
  });
});

describe("quota drafts", () => {
  it("writes a quota as a row with its period and zone, UTC when it names none", () => {
    expect(draftOfLimit({ count: 100_000, period: "month" })).toMatchObject({
      count: "100000",
      period: "month",
      timeZone: "UTC",
    });
    expect(
      draftOfLimit({ count: 5, period: "day", timeZone: "Europe/Berlin", dryRun: true }),
    ).toMatchObject({ count: "5", period: "day", timeZone: "Europe/Berlin", dryRun: true });
  });

  it("reads a quota row as the API takes it, and a bucket row as before", () => {
    const quota = { ...blankQuotaDraft("Asia/Tokyo"), count: "12", period: "week" as const };
    expect(isQuotaDraft(quota)).toBe(true);
    expect(policyLimitOfDraft(quota)).toEqual({
      count: 12,
      period: "week",
      timeZone: "Asia/Tokyo",
    });
    expect(policyLimitOfDraft({ count: "3", amount: "2", unit: "m", dryRun: true })).toEqual({
      count: 3,
      periodMs: 120_000,
      dryRun: true,
    });
  });

  it("gives a plan's quota rows an operation and a fresh key", () => {
    const a = quotaDraft("exports", 1_000, "month", "UTC");
    const b = quotaDraft("exports", 1_000, "month", "UTC");
    expect(a).toMatchObject({ operation: "exports", count: "1000", period: "month" });
    expect(a.key).not.toBe(b.key);
  });
});
