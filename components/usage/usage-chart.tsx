"use client";

import {
  Bar,
  BarChart,
  CartesianGrid,
  Legend,
  ReferenceLine,
  Tooltip,
  XAxis,
  YAxis,
} from "recharts";
import { useChartColors } from "@/components/charts/chart-colors";
import { formatCount } from "@/components/charts/number-format";
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
  const bars = points.map((p) => ({ ...p, x: p.t + stepMs / 2 }));
  // Regression: the axis reached the limit's line however far above the traffic it was, and
  // 170 requests under a 6,000-an-hour line were drawn one pixel high.
  const scale = usageScale(points, allowance);
  const y = scale.y;
  return (
    <figure aria-label={label} style={{ margin: 0 }}>
      <BarChart
        responsive
        style={{ width: "100%", height }}
        data={bars}
        margin={{ top: 6, right: 8, bottom: 0, left: 0 }}
        barCategoryGap="10%"
      >
        <CartesianGrid stroke={colors.grid} vertical={false} />
        <XAxis
          dataKey="x"
          type="number"
          domain={domain}
          allowDataOverflow
          ticks={ticks.map((t) => t + stepMs / 2)}
          tickFormatter={(x: number) => formatTick(x - stepMs / 2)}
          tick={{ fontSize: 11, fill: colors.tick }}
          stroke={colors.axis}
        />
        <YAxis
          allowDecimals={false}
          domain={y.domain}
          ticks={y.ticks}
          width={48}
          tickFormatter={(n: number) => formatCount(n)}
          tick={{ fontSize: 11, fill: colors.tick }}
          stroke={colors.axis}
        />
        <Tooltip
          labelFormatter={(_, payload) => {
            const p = payload?.[0]?.payload as UsageBarPoint | undefined;
            return p ? formatStepSpan(p.t, stepMs) : "";
          }}
          formatter={(value, name) => [formatCount(Number(value)), name]}
          cursor={{ fill: colors.cursor }}
          isAnimationActive={false}
        />
        <Legend verticalAlign="top" height={26} iconType="square" />
        <Bar
          dataKey="allowed"
          name="Allowed"
          stackId="decisions"
          fill={colors.allowed}
          isAnimationActive={false}
        />
        <Bar
          dataKey="denied"
          name="Denied"
          stackId="decisions"
          fill={colors.denied}
          isAnimationActive={false}
        />
        {allowance != null && scale.line === "drawn" ? (
          <ReferenceLine y={allowance} stroke={colors.remaining} strokeDasharray="5 4" />
        ) : null}
      </BarChart>
      {allowance != null ? (
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
      ) : null}
    </figure>
  );
}
