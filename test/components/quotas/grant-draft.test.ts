import { describe, expect, it } from "vitest";
import {
  type GrantTarget,
  grantOfDraft,
  grantPath,
  grantsOfPeriod,
  newTotalWords,
} from "@/components/quotas/grant-draft";
import type { QuotaGrantView } from "@/lib/schemas/quota-grant-answer.schema";

const START = Date.UTC(2026, 10, 13, 23);

const quota: GrantTarget = {
  operation: "exports",
  period: "month",
  timeZone: "Europe/Berlin",
  periodStartMs: START,
  count: 100_000,
  granted: 5_000,
};

describe("the grant dialog's body", () => {
  it("posts the extra for the quota's current period, to the customer's grants", () => {
    expect(grantPath(42)).toBe("/customers/42/quota-grants");
    expect(grantOfDraft(quota, { extra: "2500", note: " launch week " })).toEqual({
      ok: true,
      body: {
        operation: "exports",
        period: "month",
        timeZone: "Europe/Berlin",
        periodStartMs: START,
        extra: 2_500,
        note: "launch week",
      },
    });
  });

  it("shows what is wrong at the amount and the note", () => {
    expect(grantOfDraft(quota, { extra: "", note: "" })).toEqual({
      ok: false,
      errors: { extra: "Extra must be a whole number from 1 to 1,000,000,000" },
    });
    for (const extra of ["0", "1.5", "-3", "2000000000"]) {
      const result = grantOfDraft(quota, { extra, note: "" });
      expect(!result.ok && result.errors.extra).toBe(
        "Extra must be a whole number from 1 to 1,000,000,000",
      );
    }
    const long = grantOfDraft(quota, { extra: "10", note: "x".repeat(201) });
    expect(!long.ok && long.errors.note).toBe("Note must be at most 200 characters");
  });
});

describe("the new total before confirming", () => {
  it("adds the extra to the count and what was granted already", () => {
    expect(newTotalWords(quota, { extra: "10000", note: "" })).toBe(
      "New total this month: 115,000 (105,000 + 10,000 extra)",
    );
    expect(newTotalWords({ ...quota, period: "day", granted: 0 }, { extra: "1", note: "" })).toBe(
      "New total today: 100,001 (100,000 + 1 extra)",
    );
  });

  it("says nothing until the amount is a whole number above 0", () => {
    for (const extra of ["", "0", "2.5", "abc"]) {
      expect(newTotalWords(quota, { extra, note: "" })).toBeUndefined();
    }
  });
});

describe("this period's grants", () => {
  const grant = (id: number, change: Partial<QuotaGrantView> = {}): QuotaGrantView => ({
    id,
    customerId: 42,
    operation: "exports",
    period: "month",
    timeZone: "Europe/Berlin",
    periodStartMs: START,
    extra: 1_000,
    note: "",
    createdAt: START + 1,
    createdBy: "admin",
    ...change,
  });

  it("keeps the grants of this quota and period only, in their order", () => {
    const grants = [
      grant(4),
      grant(3, { periodStartMs: START - 30 * 86_400_000 }),
      grant(2, { timeZone: "UTC" }),
      grant(1, { operation: "read" }),
      grant(0, { period: "week" }),
      grant(5),
    ];
    expect(grantsOfPeriod(grants, quota).map((g) => g.id)).toEqual([4, 5]);
  });
});
