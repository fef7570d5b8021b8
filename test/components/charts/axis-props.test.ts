import { describe, expect, it } from "vitest";
import { axisStyle, timeAxisProps } from "@/components/charts/axis-props";
import { CHART_COLORS } from "@/components/charts/chart-colors";

const light = CHART_COLORS.light;

describe("axis props", () => {
  it("draws an axis in the theme's tick and axis colours, 11 px unless told", () => {
    expect(axisStyle(light)).toEqual({
      tick: { fontSize: 11, fill: light.tick },
      stroke: light.axis,
    });
    expect(axisStyle(CHART_COLORS.dark, 12).tick).toEqual({
      fontSize: 12,
      fill: CHART_COLORS.dark.tick,
    });
  });

  it("holds a time axis to its domain, with the caller's ticks and labels", () => {
    const format = (t: number) => `${t / 1000}s`;
    const props = timeAxisProps(light, {
      dataKey: "x",
      domain: [0, 60_000],
      ticks: [0, 30_000, 60_000],
      format,
    });
    expect(props).toMatchObject({
      dataKey: "x",
      type: "number",
      domain: [0, 60_000],
      allowDataOverflow: true,
      ticks: [0, 30_000, 60_000],
      stroke: light.axis,
    });
    expect(props.tickFormatter(30_000)).toBe("30s");
  });
});
