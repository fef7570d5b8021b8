"use client";

import { ReferenceLine } from "recharts";
import { useChartColors } from "@/components/charts/chart-colors";
import { DecisionsChart } from "@/components/charts/decisions-chart";
import { toBars } from "@/components/charts/rebin";
import { describePeriod } from "@/lib/format";
import { formatStepSpan } from "@/lib/time-format";
import type { UsageBarPoint } from "./usage-data";
import { describeLimitLine, usageScale } from "./usage-scale";

/**
 * UsageChart draws a range's decisions per step, allowed and denied stacked (denials in the
 * refusal colour), on a numeric axis of step starts (ms), the count axis scaled to the traffic;
 * with `allowance`, a dashed line at what the tightest limit refills per step when it sits near
 * the traffic, else its value in the key ("off the scale"). The maths lives in usage-scale.ts,
 * usage-data.ts and usage-range.ts.
 */
export function UsageChart({
  points,
  stepMs,
  domain,
  ticks,
  formatTick,
  label,
  allowance,
  height = 260,
}: {
  points: readonly UsageBarPoint[];
  stepMs: number;
  /** domain is [first step's start, last step's end] in ms. */
  domain: [number, number];
  ticks: number[];
  formatTick: (t: number) => string;
  label: string;
  allowance?: number | null;
  height?: number;
}) {
  const colors = useChartColors();
  // Regression: the axis reached the limit's line however far above the traffic it was, and
  // 170 requests under a 6,000-an-hour line were drawn one pixel high.
  const scale = usageScale(points, allowance);
  // Bars stand at their step's middle; ticks and labels speak of the step's start.
  return (
    <DecisionsChart
      bars={toBars(points, stepMs)}
      domain={domain}
      ticks={ticks.map((t) => t + stepMs / 2)}
      formatTick={(x) => formatTick(x - stepMs / 2)}
      formatLabel={(bar) => (bar ? formatStepSpan(bar.t, stepMs) : "")}
      label={label}
      height={height}
      counts={scale.y}
      countsWidth={48}
      caption={
        allowance != null ? (
          <figcaption className="muted small" style={{ textAlign: "center" }}>
            {scale.line === "drawn" ? (
              <>
                <span aria-hidden="true" style={{ color: colors.remaining }}>
                  - - -
                </span>{" "}
              </>
            ) : null}
            {describeLimitLine(scale, allowance, describePeriod(stepMs))}
          </figcaption>
        ) : null
      }
    >
      {allowance != null && scale.line === "drawn" ? (
        <ReferenceLine y={allowance} stroke={colors.remaining} strokeDasharray="5 4" />
      ) : null}
    </DecisionsChart>
  );
}
