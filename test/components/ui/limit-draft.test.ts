import { describe, expect, it } from "vitest";
import { draftOfLimit, limitOfDraft } from "@/components/ui/limit-draft";

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
});
