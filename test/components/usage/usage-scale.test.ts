import { describe, expect, it } from "vitest";
import { describeLimitLine, LIMIT_LINE_FACTOR, usageScale } from "@/components/usage/usage-scale";

const step = (allowed: number, denied = 0) => ({ t: 0, allowed, denied });

describe("usageScale", () => {
  // Regression: the axis reached the limit's line (0 to 6,000 an hour) and the customer's 170
  // requests were drawn one pixel high.
  it("scales the count axis to the traffic, not to a limit far above it", () => {
    const scale = usageScale([step(120, 50), step(30)], 6_000);
    expect(scale.y.domain).toEqual([0, 200]);
    expect(scale.line).toBe("off-scale");
    expect(scale.busiest).toBe(170);
  });

  it("draws a limit line that fits the traffic's axis, without stretching it", () => {
    expect(usageScale([step(170)], 150)).toMatchObject({ line: "drawn", y: { domain: [0, 200] } });
  });

  it("stretches the axis to a line within LIMIT_LINE_FACTOR times the traffic", () => {
    const scale = usageScale([step(100)], 100 * LIMIT_LINE_FACTOR);
    expect(scale.line).toBe("drawn");
    expect(scale.y.domain[1]).toBeGreaterThanOrEqual(400);
    expect(usageScale([step(100)], 100 * LIMIT_LINE_FACTOR + 1).line).toBe("off-scale");
  });

  it("keeps a quiet chart's axis at its minimum and has no line without a limit", () => {
    expect(usageScale([], null)).toMatchObject({ line: "none", y: { domain: [0, 5] }, busiest: 0 });
    expect(usageScale([step(0)], 10)).toMatchObject({ line: "drawn", y: { domain: [0, 10] } });
    expect(usageScale([step(0)], 6_000).line).toBe("off-scale");
  });
});

describe("describeLimitLine", () => {
  it("names the line's value, and says when it is off the scale", () => {
    expect(describeLimitLine(usageScale([step(3)], 2), 2, "minute")).toBe(
      "The tightest limit refills 2 tokens per minute",
    );
    expect(describeLimitLine(usageScale([step(3)], 1), 1, "minute")).toBe(
      "The tightest limit refills 1 token per minute",
    );
    expect(describeLimitLine(usageScale([step(170)], 6_000), 6_000, "hour")).toBe(
      "The tightest limit refills 6,000 tokens per hour: off the scale, 35 times the busiest hour",
    );
    expect(describeLimitLine(usageScale([], 6_000), 6_000, "hour")).toBe(
      "The tightest limit refills 6,000 tokens per hour: off the scale, with no traffic to compare",
    );
  });
});
