import type { CountPoint } from "@/components/charts/rebin";
import { MIN_Y_MAX, type YAxisScale, yAxis } from "@/components/overview/traffic-chart-data";
import { formatAllowance } from "./usage-data";

/**
 * LIMIT_LINE_FACTOR is how far above the busiest step a limit's line may sit and still be drawn:
 * the count axis stretches to it only while the bars keep at least a quarter of the height.
 * Further up, the line is named in words instead (a 6,000-an-hour line over 170 requests drew
 * the bars one pixel high).
 */
export const LIMIT_LINE_FACTOR = 4;

/**
 * LimitLine says where a limit's line goes: "none" (no limit), "drawn" on the axis, or
 * "off-scale", left out and named in the caption because it sits too far above the traffic.
 */
export type LimitLine = "none" | "drawn" | "off-scale";

/** UsageScale is the count axis of a usage chart and whether its limit line is drawn. */
export interface UsageScale {
  y: YAxisScale;
  line: LimitLine;
  /** busiest is the most decisions (allowed plus denied) of any step: 0 with no traffic. */
  busiest: number;
}

/**
 * usageScale scales a usage chart's count axis to its traffic (the busiest step, at least
 * MIN_Y_MAX), never to the limit: the limit's per-step `allowance` (tokens, maybe fractional;
 * null for none) is drawn when it fits that axis or sits within LIMIT_LINE_FACTOR times its top
 * (the axis then stretches to it), and is "off-scale" otherwise.
 */
export function usageScale(
  points: readonly CountPoint[],
  allowance: number | null | undefined,
): UsageScale {
  let busiest = 0;
  for (const p of points) busiest = Math.max(busiest, p.allowed + p.denied);
  const y = yAxis(points);
  if (allowance == null) return { y, line: "none", busiest };
  const top = y.domain[1];
  if (allowance <= top) return { y, line: "drawn", busiest };
  if (allowance <= Math.max(busiest, MIN_Y_MAX) * LIMIT_LINE_FACTOR) {
    return {
      y: yAxis([...points, { t: 0, allowed: Math.ceil(allowance), denied: 0 }]),
      line: "drawn",
      busiest,
    };
  }
  return { y, line: "off-scale", busiest };
}

/**
 * describeLimitLine writes the chart's key for its limit line: "The tightest limit refills 10
 * tokens per hour", and when the line is off the scale, says so with its value: "…refills 6,000
 * tokens per hour: off the scale, 35 times the busiest hour". `step` names one step ("hour").
 */
export function describeLimitLine(scale: UsageScale, allowance: number, step: string): string {
  const tokens = allowance === 1 ? "token" : "tokens";
  const refills = `The tightest limit refills ${formatAllowance(allowance)} ${tokens} per ${step}`;
  if (scale.line !== "off-scale") return refills;
  if (scale.busiest === 0) return `${refills}: off the scale, with no traffic to compare`;
  const times = Math.floor(allowance / scale.busiest);
  return `${refills}: off the scale, ${times.toLocaleString("en-US")} times the busiest ${step}`;
}
