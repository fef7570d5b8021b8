import { describe, expect, it } from "vitest";
import { draftOfOverride, overrideOfDraft } from "@/components/inspector/override-draft";
import { blankQuotaDraft, type LimitDraft } from "@/components/ui/limit-draft";

const NOW = 1_700_000_000_000;

function override(limits: LimitDraft[]) {
  return {
    limits,
    expiry: { mode: "never" as const, amount: "10", unit: "m" as const, at: "", kept: null },
  };
}

describe("an override's quota rows", () => {
  it("starts from the plan's quota as a quota row and saves it as one", () => {
    const d = draftOfOverride(undefined, [
      { count: 10, periodMs: 1_000 },
      { count: 50_000, period: "week", timeZone: "America/New_York" },
    ]);
    expect(d.limits[1]).toMatchObject({
      count: "50000",
      period: "week",
      timeZone: "America/New_York",
    });
    expect(overrideOfDraft(d, NOW)).toEqual({
      ok: true,
      value: {
        limits: [
          { count: 10, periodMs: 1_000 },
          { count: 50_000, period: "week", timeZone: "America/New_York" },
        ],
        expiresAt: null,
      },
    });
  });

  it("keeps a stored dry-run quota dry-run, and says a quota cannot be", () => {
    const d = draftOfOverride(
      {
        limits: [
          { count: 10, periodMs: 1_000 },
          { count: 7, period: "day", timeZone: "UTC", dryRun: true },
        ],
        expiresAt: null,
      },
      [],
    );
    // A quota cannot be dry-run (the server refuses it): the stored flag is kept in the draft
    // and the save says why at the row's field, rather than dropping the flag silently.
    const result = overrideOfDraft(d, NOW);
    expect(result.ok).toBe(false);
    expect(!result.ok && result.errors["limits.1.dryRun"]).toMatch(/cannot be dry-run/);
  });

  it("shows a new quota's errors at its count and zone", () => {
    const result = overrideOfDraft(override([{ ...blankQuotaDraft("Nowhere/City") }]), NOW);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors["limits.0.count"]).toBe("Count must be a number");
    expect(result.errors["limits.0.timeZone"]).toMatch(/^Unknown time zone "Nowhere\/City"/);
  });

  it("counts an enforced quota as enforced: dry-run buckets beside it are allowed", () => {
    const result = overrideOfDraft(
      override([
        { count: "5", amount: "1", unit: "s", dryRun: true },
        { ...blankQuotaDraft("UTC"), count: "1000" },
      ]),
      NOW,
    );
    expect(result.ok).toBe(true);
  });
});
