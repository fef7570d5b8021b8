import { describe, expect, it } from "vitest";
import { MAX_COST } from "@/lib/schemas/cost.schema";
import { simulationSchema } from "@/lib/simulator/simulation.schema";

const pathsOf = (input: unknown) => {
  const parsed = simulationSchema.safeParse(input);
  return parsed.success ? [] : parsed.error.issues.map((i) => i.path.join("."));
};

describe("simulationSchema", () => {
  it("accepts a plain simulation, and no limits at all", () => {
    const pattern = { kind: "steady", ratePerSecond: 20, seconds: 5 };
    expect(pathsOf({ limits: [{ count: 10, periodMs: 1000 }], pattern, cost: 1 })).toEqual([]);
    expect(pathsOf({ limits: [], pattern, cost: MAX_COST })).toEqual([]);
  });

  it("takes the server's cost rule: a cost of 0 or over MAX_COST is refused at cost", () => {
    const pattern = { kind: "steady", ratePerSecond: 20, seconds: 5 };
    // Regression: the simulator accepted a cost of 0, which every decision refuses.
    expect(pathsOf({ limits: [], pattern, cost: 0 })).toEqual(["cost"]);
    expect(pathsOf({ limits: [], pattern, cost: MAX_COST + 1 })).toEqual(["cost"]);
  });

  it("puts errors at the fields", () => {
    expect(
      pathsOf({
        limits: [{ count: 0, periodMs: 1000 }],
        pattern: { kind: "bursts", size: 1.5, everySeconds: 1, seconds: 0 },
        cost: -1,
      }),
    ).toEqual(["limits.0.count", "pattern.size", "pattern.seconds", "cost"]);
  });

  it("refuses patterns with too many requests or none", () => {
    const limits = [{ count: 1, periodMs: 1000 }];
    expect(
      pathsOf({ limits, pattern: { kind: "steady", ratePerSecond: 1000, seconds: 3600 }, cost: 1 }),
    ).toEqual(["pattern"]);
    expect(
      pathsOf({
        limits,
        pattern: { kind: "ramp", fromPerSecond: 0, toPerSecond: 0, seconds: 3 },
        cost: 1,
      }),
    ).toEqual(["pattern"]);
  });
});
