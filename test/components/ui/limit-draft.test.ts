import { describe, expect, it } from "vitest";
import {
  blankDraft,
  draftOfLimit,
  limitDraft,
  limitOfDraft,
  numberOf,
  periodMsOf,
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
