import { describe, expect, it } from "vitest";
import {
  defaultPatternDraft,
  describePattern,
  type PatternDraft,
  simulationOfDraft,
} from "@/components/simulator/pattern-draft";
import { COST_RULE } from "@/lib/schemas/cost.schema";

const limits = [{ count: "10", amount: "1", unit: "s" as const }];
const draft = (change: Partial<PatternDraft>): PatternDraft => ({
  ...defaultPatternDraft,
  ...change,
});

describe("simulationOfDraft", () => {
  it("keeps a dry-run row dry-run, so the simulator never enforces it", () => {
    const rows = [...limits, { count: "2", amount: "1", unit: "s" as const, dryRun: true }];
    expect(simulationOfDraft(rows, draft({ kind: "steady" }), "1")).toMatchObject({
      ok: true,
      value: {
        limits: [
          { count: 10, periodMs: 1_000 },
          { count: 2, periodMs: 1_000, dryRun: true },
        ],
      },
    });
  });

  it("reads each kind of pattern", () => {
    expect(
      simulationOfDraft(limits, draft({ kind: "steady", rate: "20", seconds: "5" }), "1"),
    ).toEqual({
      ok: true,
      value: {
        limits: [{ count: 10, periodMs: 1_000 }],
        pattern: { kind: "steady", ratePerSecond: 20, seconds: 5 },
        cost: 1,
      },
    });
    expect(
      simulationOfDraft(
        limits,
        draft({ kind: "bursts", size: "15", every: "0.5", seconds: "2" }),
        "2",
      ),
    ).toMatchObject({
      ok: true,
      value: { pattern: { kind: "bursts", size: 15, everySeconds: 0.5, seconds: 2 }, cost: 2 },
    });
    expect(
      simulationOfDraft(limits, draft({ kind: "ramp", from: "1", to: "9", seconds: "3" }), "1"),
    ).toMatchObject({
      ok: true,
      value: { pattern: { kind: "ramp", fromPerSecond: 1, toPerSecond: 9 } },
    });
    expect(
      simulationOfDraft(limits, draft({ kind: "timestamps", timestamps: "5\n0, 1000" }), "1"),
    ).toMatchObject({
      ok: true,
      value: { pattern: { kind: "timestamps", offsetsMs: [5, 0, 1000] } },
    });
  });

  it("reports errors by path", () => {
    expect(
      simulationOfDraft(
        [{ count: "", amount: "1", unit: "s" }],
        draft({ kind: "steady", rate: "0", seconds: "" }),
        "-1",
      ),
    ).toEqual({
      ok: false,
      errors: {
        "limits.0.count": "Count must be a number",
        "pattern.ratePerSecond": "Rate must be more than 0",
        "pattern.seconds": "Enter a number of seconds",
        cost: COST_RULE,
      },
    });
    expect(
      simulationOfDraft(limits, draft({ kind: "timestamps", timestamps: "0, soon" }), "1"),
    ).toEqual({
      ok: false,
      errors: { "pattern.offsetsMs": "“soon” is not a whole number of milliseconds" },
    });
  });
});

describe("describePattern", () => {
  it("writes patterns in words", () => {
    expect(describePattern({ kind: "steady", ratePerSecond: 20, seconds: 5 })).toBe(
      "steady 20 req/s for 5 s",
    );
    expect(describePattern({ kind: "bursts", size: 15, everySeconds: 0.5, seconds: 2 })).toBe(
      "bursts of 15 every 0.5 s for 2 s",
    );
    expect(describePattern({ kind: "timestamps", offsetsMs: [1] })).toBe("1 pasted timestamp");
  });
});
