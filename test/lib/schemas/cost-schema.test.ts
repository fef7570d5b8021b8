import { describe, expect, it } from "vitest";
import { COST_RULE, costSchema, isCost, MAX_COST } from "@/lib/schemas/cost.schema";
import { testRequestSchema } from "@/lib/schemas/customer.schema";
import { decisionRequestSchema } from "@/lib/schemas/decision.schema";
import { MAX_COUNT } from "@/lib/schemas/limit.schema";
import { simulationSchema } from "@/lib/simulator/simulation.schema";
import * as sdk from "@/sdk/src/requests";

const GOOD = [1, 2, 999_999, MAX_COST];
const BAD: unknown[] = [
  0,
  -1,
  1.5,
  MAX_COST + 1,
  1e9,
  1e12,
  2 ** 53,
  Number.NaN,
  Number.POSITIVE_INFINITY,
  "2",
  null,
  true,
];

/** Each surface's answer to a cost: null when it takes it, else the messages it gives at `cost`. */
const SURFACES: Record<string, (cost: unknown) => string[] | null> = {
  "the decision API": (cost) => {
    const parsed = decisionRequestSchema.safeParse({ key: "rk_a", operation: "read", cost });
    return parsed.success ? null : parsed.error.issues.map((i) => i.message);
  },
  "the dashboard's test request": (cost) => {
    const parsed = testRequestSchema.safeParse({ operation: "read", cost });
    return parsed.success ? null : parsed.error.issues.map((i) => i.message);
  },
  "the simulator": (cost) => {
    const pattern = { kind: "steady", ratePerSecond: 1, seconds: 1 };
    const parsed = simulationSchema.safeParse({ limits: [], pattern, cost });
    return parsed.success ? null : parsed.error.issues.map((i) => i.message);
  },
  "the SDK": (cost) => {
    try {
      sdk.wireRequest({ key: "rk_a", operation: "read", cost } as never);
      return null;
    } catch (error) {
      expect(error).toBeInstanceOf(RangeError);
      // The SDK says which value it was given after the rule's words.
      return [(error as Error).message.replace(/, got .*$/, "")];
    }
  },
};

describe("the one cost rule", () => {
  it("is a whole number from 1 to the largest count a limit may have", () => {
    expect(MAX_COST).toBe(MAX_COUNT);
    expect(COST_RULE).toBe("Cost must be a whole number from 1 to 1,000,000");
    for (const cost of GOOD) expect(isCost(cost), String(cost)).toBe(true);
    for (const cost of BAD) expect(isCost(cost), String(cost)).toBe(false);
  });

  it("refuses a bad cost with one message, the rule's words", () => {
    for (const cost of BAD) {
      const parsed = costSchema.safeParse(cost);
      expect(parsed.success, String(cost)).toBe(false);
      expect(parsed.error?.issues.map((i) => i.message)).toEqual([COST_RULE]);
    }
  });

  // Regression: the decision API took 1e12 and refused 0; the test request and the simulator
  // took 0 and refused 1e9, each in words of its own.
  it.each(Object.keys(SURFACES))(
    "holds on %s: the same costs taken, the rest refused alike",
    (surface) => {
      const answer = SURFACES[surface] as (cost: unknown) => string[] | null;
      for (const cost of GOOD) expect(answer(cost), `${surface} takes ${cost}`).toBeNull();
      for (const cost of BAD) {
        expect(answer(cost), `${surface} refuses ${String(cost)}`).toEqual([COST_RULE]);
      }
    },
  );
});
