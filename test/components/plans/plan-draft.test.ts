import { describe, expect, it } from "vitest";
import {
  draftFromPlan,
  emptyDraft,
  limitsInWords,
  type PlanDraft,
  sameDraft,
  slugify,
  toBody,
  validateCreate,
  validateUpdate,
} from "@/components/plans/plan-draft";
import { limitDraft } from "@/components/ui/limit-draft";
import type { PlanWithLimits } from "@/lib/client/types";

const saved: PlanWithLimits = {
  id: 7,
  slug: "pro",
  name: "Pro",
  description: "For production apps.",
  createdAt: 1,
  updatedAt: 1,
  limits: [
    { operation: "read", count: 20, periodMs: 1_000, dryRun: false },
    { operation: "read", count: 1_000, periodMs: 60_000, dryRun: false },
    { operation: "write", count: 5, periodMs: 1_000, dryRun: false },
  ],
};

function draft(change: Partial<PlanDraft> = {}): PlanDraft {
  return { ...draftFromPlan(saved), ...change };
}

describe("draftFromPlan and toBody", () => {
  it("writes each period in its largest whole unit and reads it back in ms", () => {
    const d = draftFromPlan(saved);
    expect(d.limits.map(({ count, amount, unit }) => [count, amount, unit])).toEqual([
      ["20", "1", "s"],
      ["1000", "1", "m"],
      ["5", "1", "s"],
    ]);
    expect(toBody(d).limits).toEqual(saved.limits);
  });

  it("reads a blank input as missing and undoes float noise in periods", () => {
    const body = toBody(draft({ limits: [limitDraft("read", "", "1.1", "s")] }));
    expect(body.limits).toEqual([{ operation: "read", count: undefined, periodMs: 1_100 }]);
  });
});

describe("validation gives the server's errors at the server's paths", () => {
  it("puts a zero count, a negative period and a blank name at their fields", () => {
    const result = validateUpdate(
      draft({
        name: " ",
        limits: [limitDraft("read", "0", "1", "s"), limitDraft("read", "10", "-5", "m")],
      }),
      saved,
    );
    expect(result).toEqual({
      ok: false,
      errors: {
        name: ["Name is required"],
        "limits.0.count": ["Count must be at least 1"],
        "limits.1.periodMs": ["Period must be positive"],
      },
    });
  });

  it("refuses blank counts, fractional counts and milliseconds, and bad slugs", () => {
    const result = validateCreate({
      ...emptyDraft(),
      name: "Team",
      slug: "Team!",
      limits: [limitDraft("read", "", "1", "s"), limitDraft("read", "2.5", "0.5", "ms")],
    });
    expect(result).toEqual({
      ok: false,
      errors: {
        slug: ["Use lowercase letters, digits and dashes"],
        "limits.0.count": ["Count must be a number"],
        "limits.1.count": ["Count must be a whole number"],
        "limits.1.periodMs": ["Period must be a whole number of milliseconds"],
      },
    });
  });

  it("marks a duplicate row once the rows themselves are valid (as the server does)", () => {
    const result = validateCreate({
      ...emptyDraft(),
      name: "Team",
      slug: "team",
      limits: [limitDraft("write", "3", "1", "m"), limitDraft("write", "3", "60", "s")],
    });
    expect(result).toEqual({ ok: false, errors: { "limits.1": ["Duplicate limit"] } });
  });

  it("accepts a new plan with trimmed fields", () => {
    const result = validateCreate({ ...emptyDraft(), name: " Team ", slug: "team" });
    expect(result).toEqual({
      ok: true,
      data: {
        name: "Team",
        slug: "team",
        description: "",
        limits: [
          { operation: "read", count: 100, periodMs: 60_000 },
          { operation: "write", count: 20, periodMs: 60_000 },
        ],
      },
    });
  });
});

describe("validateUpdate sends only what changed", () => {
  it("is empty when nothing changed, even with periods written in other units", () => {
    const d = draft();
    d.limits = d.limits.map((l) => (l.unit === "m" ? { ...l, amount: "60", unit: "s" } : l));
    expect(validateUpdate(d, saved)).toEqual({ ok: true, data: {} });
  });

  it("sends a changed name alone, and changed limits whole", () => {
    expect(validateUpdate(draft({ name: "Pro 2" }), saved)).toEqual({
      ok: true,
      data: { name: "Pro 2" },
    });
    const d = draft();
    d.limits = d.limits.slice(1);
    expect(validateUpdate(d, saved)).toEqual({ ok: true, data: { limits: saved.limits.slice(1) } });
  });
});

describe("helpers", () => {
  it("derives slugs from names", () => {
    expect(slugify("Pro Plus!")).toBe("pro-plus");
    expect(slugify("  Été 2025 ")).toBe("ete-2025");
    expect(slugify("x".repeat(50))).toHaveLength(40);
  });

  it("compares drafts by value, not row keys", () => {
    expect(sameDraft(draftFromPlan(saved), draftFromPlan(saved))).toBe(true);
    expect(sameDraft(draftFromPlan(saved), draft({ description: "" }))).toBe(false);
  });

  it("counts a ticked then unticked dry-run box on a new row as no change", () => {
    const withRow = draft({ limits: [...draft().limits, limitDraft("read", "3", "1", "h")] });
    const toggled = {
      ...withRow,
      limits: withRow.limits.map((l, i) => (i === 3 ? { ...l, dryRun: false } : l)),
    };
    expect(sameDraft(withRow, toggled)).toBe(true);
    const ticked = {
      ...withRow,
      limits: withRow.limits.map((l, i) => (i === 3 ? { ...l, dryRun: true } : l)),
    };
    expect(sameDraft(withRow, ticked)).toBe(false);
  });

  it("sends a ticked dry-run row as dry-run, and only it", () => {
    const d = draft({
      limits: [
        limitDraft("read", "20", "1", "s"),
        { ...limitDraft("read", "3", "1", "h"), dryRun: true },
      ],
    });
    const result = validateUpdate(d, saved);
    expect(result.ok && result.data.limits).toEqual([
      { operation: "read", count: 20, periodMs: 1_000 },
      { operation: "read", count: 3, periodMs: 3_600_000, dryRun: true },
    ]);
  });

  it("writes the dry-run limits after the enforced ones in words", () => {
    const d = draft({
      limits: [
        limitDraft("read", "20", "1", "s"),
        { ...limitDraft("read", "3", "1", "h"), dryRun: true },
      ],
    });
    expect(limitsInWords(d, "read")).toBe("20 per second; dry run: 3 per hour");
    const onlyDry = draft({ limits: [{ ...limitDraft("write", "3", "1", "h"), dryRun: true }] });
    expect(limitsInWords(onlyDry, "write")).toBe("unlimited; dry run: 3 per hour");
  });

  it("writes an operation's limits in words, or none as unlimited", () => {
    const d = draft({
      limits: [limitDraft("read", "3", "1", "m"), limitDraft("read", "10", "1", "s")],
    });
    expect(limitsInWords(d, "read")).toBe("10 per second, 3 per minute");
    expect(limitsInWords(d, "write")).toBe("unlimited");
  });

  // Regression: with its only read limit invalid (count 0), the preview read "unlimited".
  it("never calls an operation unlimited while one of its rows is invalid", () => {
    const d = draft({
      limits: [limitDraft("write", "5", "1", "s"), limitDraft("read", "0", "1", "s")],
    });
    expect(limitsInWords(d, "read")).toBe("not valid yet: fix limit 2");
    expect(limitsInWords(d, "write")).toBe("5 per second");
    const blank = draft({ limits: [limitDraft("read", "", "1", "m")] });
    expect(limitsInWords(blank, "read")).toBe("not valid yet: fix limit 1");
    const tooLong = draft({ limits: [limitDraft("read", "3", "31", "d")] });
    expect(limitsInWords(tooLong, "read")).toBe("not valid yet: fix limit 1");
  });
});
