import { describe, expect, it } from "vitest";
import {
  draftOfOverride,
  type OverrideDraft,
  overrideOfDraft,
} from "@/components/inspector/override-draft";
import type { LimitDraft } from "@/components/ui/limit-draft";
import { formatTimeInput, parseTimeInput } from "@/lib/time-format";

const NOW = 1_700_000_000_000;

function draft(
  partial: Partial<OverrideDraft["expiry"]> = {},
  limits: LimitDraft[] = [{ count: "3", amount: "1", unit: "m" }],
): OverrideDraft {
  return {
    limits,
    expiry: { mode: "never", amount: "10", unit: "m", at: "", kept: null, ...partial },
  };
}

describe("dry-run limits in an override", () => {
  // Regression: the dry-run flag was dropped on the way into the editor and out of it, so saving
  // an override (or starting one from a plan with a dry-run limit) enforced the dry-run limit.
  it("keeps a stored override's dry-run limit dry-run when it is saved again", () => {
    const d = draftOfOverride(
      {
        limits: [
          { count: 10, periodMs: 1_000, dryRun: false },
          { count: 3, periodMs: 3_600_000, dryRun: true },
        ],
        expiresAt: null,
      },
      [],
    );
    expect(d.limits).toEqual([
      { count: "10", amount: "1", unit: "s" },
      { count: "3", amount: "1", unit: "h", dryRun: true },
    ]);
    const result = overrideOfDraft(d, NOW);
    expect(result.ok && result.value.limits).toEqual([
      { count: 10, periodMs: 1_000 },
      { count: 3, periodMs: 3_600_000, dryRun: true },
    ]);
  });

  it("keeps a plan's dry-run limit dry-run in a new override started from the plan", () => {
    const d = draftOfOverride(undefined, [
      { count: 5, periodMs: 1_000 },
      { count: 50, periodMs: 60_000, dryRun: true },
    ]);
    const result = overrideOfDraft(d, NOW);
    expect(result.ok && result.value.limits).toEqual([
      { count: 5, periodMs: 1_000 },
      { count: 50, periodMs: 60_000, dryRun: true },
    ]);
  });

  it("refuses an override of dry-run limits alone, as the API does", () => {
    const result = overrideOfDraft(
      draft({}, [{ count: "3", amount: "1", unit: "m", dryRun: true }]),
      NOW,
    );
    expect(result.ok).toBe(false);
  });
});

describe("draftOfOverride", () => {
  // Regression: an override saved to end "after 10 minutes" reopened as a bare date and time.
  it("starts from the stored override, keeping its expiry as it is", () => {
    const d = draftOfOverride({ limits: [{ count: 3, periodMs: 120_000 }], expiresAt: NOW }, []);
    expect(d.limits).toEqual([{ count: "3", amount: "2", unit: "m" }]);
    expect(d.expiry.mode).toBe("keep");
    expect(d.expiry.kept).toBe(NOW);
    // Switching to "At a date and time" starts from the stored one.
    expect(parseTimeInput(d.expiry.at)).toBe(NOW);
  });

  it("saves a kept expiry unchanged, and asks for a new one once it has passed", () => {
    const d = draftOfOverride({ limits: [{ count: 3, periodMs: 60_000 }], expiresAt: NOW }, []);
    expect(overrideOfDraft(d, NOW - 540_000)).toMatchObject({
      ok: true,
      value: { expiresAt: NOW },
    });
    expect(overrideOfDraft(d, NOW)).toEqual({
      ok: false,
      errors: { expiresAt: "This expiry has passed: choose a new one" },
    });
  });

  it("starts from the limits in force when there is no override", () => {
    const d = draftOfOverride(undefined, [{ count: 5, periodMs: 1_000 }]);
    expect(d.limits).toEqual([{ count: "5", amount: "1", unit: "s" }]);
    expect(d.expiry.mode).toBe("never");
    expect(draftOfOverride(undefined, []).limits).toEqual([{ count: "", amount: "1", unit: "s" }]);
  });
});

describe("overrideOfDraft", () => {
  it("builds the body, with no expiry", () => {
    expect(overrideOfDraft(draft(), NOW)).toEqual({
      ok: true,
      value: { limits: [{ count: 3, periodMs: 60_000 }], expiresAt: null },
    });
  });

  it("reads 'expires in' from now, seconds included", () => {
    const result = overrideOfDraft(draft({ mode: "after", amount: "6", unit: "s" }), NOW);
    expect(result).toMatchObject({ ok: true, value: { expiresAt: NOW + 6_000 } });
  });

  it("reads a local date and time", () => {
    const at = formatTimeInput(NOW + 3_600_000);
    expect(overrideOfDraft(draft({ mode: "at", at }), NOW)).toMatchObject({
      ok: true,
      value: { expiresAt: NOW + 3_600_000 },
    });
  });

  // Regression: the end was a native date input, mm/dd/yyyy and a 12-hour clock in the United
  // States, where the rest of the dashboard writes "2026-11-25 14:30" and 24-hour times.
  it("reads an end typed as the dashboard writes times, and says how to write one otherwise", () => {
    const typed = formatTimeInput(NOW + 3_600_000);
    expect(typed).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}(:\d{2})?$/);
    for (const bad of ["11/14/2023 11:13 PM", "tomorrow", "2023-11-14 25:00"]) {
      expect(overrideOfDraft(draft({ mode: "at", at: bad }), NOW), bad).toEqual({
        ok: false,
        errors: { expiresAt: "Write a time as 2026-11-25 14:30 (24-hour)" },
      });
    }
    expect(overrideOfDraft(draft({ mode: "at", at: "  " }), NOW)).toEqual({
      ok: false,
      errors: { expiresAt: "Choose a date and time" },
    });
  });

  it("reports errors at the fields, by path", () => {
    const result = overrideOfDraft(
      draft({ mode: "after", amount: "0" }, [
        { count: "", amount: "1", unit: "s" },
        { count: "2.5", amount: "0.0001", unit: "s" },
      ]),
      NOW,
    );
    expect(result).toEqual({
      ok: false,
      errors: {
        "limits.0.count": "Count must be a number",
        "limits.1.count": "Count must be a whole number",
        "limits.1.periodMs": "Period must be a whole number of milliseconds",
        expiresAt: "Enter a time after now",
      },
    });
  });

  it("refuses an expiry in the past and an empty list", () => {
    expect(overrideOfDraft(draft({ mode: "at", at: formatTimeInput(NOW - 1_000) }), NOW)).toEqual({
      ok: false,
      errors: { expiresAt: "Expiry must be in the future" },
    });
    expect(overrideOfDraft(draft({}, []), NOW)).toEqual({
      ok: false,
      errors: { limits: "Add at least one limit" },
    });
  });
});
