"use client";

import { ReferenceLine } from "recharts";
import { useChartColors } from "@/components/charts/chart-colors";
import { DecisionsChart } from "@/components/charts/decisions-chart";
import { toBars } from "@/components/charts/rebin";
import type { UsageResponse } from "@/lib/client/types";
import { describePeriod } from "@/lib/format";
import { formatStepSpan } from "@/lib/time-format";
import { combineSeries } from "./usage-data";
import { formatStepTick, type RollupRange, stepTicks } from "./usage-range";
import { describeLimitLine, usageScale } from "./usage-scale";

/**
 * UsageChart draws a usage series over `range` (the answer `data`) as decisions per step,
 * allowed and denied stacked over every operation (denials in the refusal colour), on a numeric
 * axis of step starts (ms), the count axis scaled to the traffic; with `allowance`, a dashed
 * line at what the tightest limit refills per step when it sits near the traffic, else its
 * value in the key ("off the scale"). The maths lives in usage-scale.ts, usage-data.ts and
 * usage-range.ts.
 */
export function UsageChart({
  data,
  range,
  label,
  allowance,
  height = 260,
}: {
  data: UsageResponse;
  range: RollupRange;
  label: string;
  allowance?: number | null;
  height?: number;
}) {
  const colors = useChartColors();
  const { stepMs, fromMs, toMs } = data;
  const points = combineSeries(data.series);
  // Regression: the axis reached the limit's line however far above the traffic it was, and
  // 170 requests under a 6,000-an-hour line were drawn one pixel high.
  const scale = usageScale(points, allowance);
  // Bars stand at their step's middle; ticks and labels speak of the step's start.
  return (
    <DecisionsChart
      bars={toBars(points, stepMs)}
      domain={[fromMs, toMs]}
      ticks={stepTicks(fromMs, toMs, stepMs).map((t) => t + stepMs / 2)}
      formatTick={(x) => formatStepTick(x - stepMs / 2, range)}
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
