import { describe, expect, it } from "vitest";
import { matchesPlan } from "@/components/plans/plan-picker";

describe("matchesPlan", () => {
  const plan = { name: "Enterprise Plus", slug: "enterprise-plus" };

  it("finds a plan by any part of its name, in any case, or of its slug", () => {
    expect(matchesPlan(plan, "plus")).toBe(true);
    expect(matchesPlan(plan, "ENTER")).toBe(true);
    expect(matchesPlan(plan, "prise-p")).toBe(true);
    expect(matchesPlan(plan, "  ")).toBe(true);
    expect(matchesPlan(plan, "pro")).toBe(false);
  });

  it("narrows hundreds of plans to the few that match", () => {
    const plans = Array.from({ length: 500 }, (_, i) => ({
      name: `Tier ${String(i).padStart(3, "0")}`,
      slug: `tier-${i}`,
    }));
    expect(plans.filter((p) => matchesPlan(p, "Tier 42")).map((p) => p.name)).toEqual([
      "Tier 420",
      "Tier 421",
      "Tier 422",
      "Tier 423",
      "Tier 424",
      "Tier 425",
      "Tier 426",
      "Tier 427",
      "Tier 428",
      "Tier 429",
    ]);
  });
});
