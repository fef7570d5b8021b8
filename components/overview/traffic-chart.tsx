"use client";

import { Area, AreaChart, CartesianGrid, Legend, Tooltip, XAxis, YAxis } from "recharts";
import { axisStyle } from "@/components/charts/axis-props";
import { DECISION_SERIES, useChartColors } from "@/components/charts/chart-colors";
import { formatCount } from "@/components/charts/number-format";
import type { TrafficPoint } from "@/lib/client/types";
import { formatClock } from "@/lib/time-format";
import { formatAgo, xTicks, yAxis } from "./traffic-chart-data";

/** FILL_OPACITY is how strongly each series' area is filled: denials a little more, to stand out. */
const FILL_OPACITY = { allowed: 0.18, denied: 0.25 } as const;

/**
 * TrafficChart draws allowed and denied decisions per second, stacked, over `domain` (ms since
 * the epoch); the maths lives in traffic-chart-data.ts, this only renders.
 */
export function TrafficChart({
  points,
  domain,
}: {
  points: readonly TrafficPoint[];
  domain: [number, number];
}) {
  const y = yAxis(points);
  const colors = useChartColors();
  return (
    <AreaChart
      responsive
      style={{ width: "100%", height: 280 }}
      data={points as TrafficPoint[]}
      margin={{ top: 8, right: 12, bottom: 0, left: -12 }}
    >
      <CartesianGrid stroke={colors.grid} vertical={false} />
      <XAxis
        dataKey="t"
        type="number"
        domain={domain}
        ticks={xTicks(domain)}
        tickFormatter={(t: number) => formatAgo(t, domain[1])}
        {...axisStyle(colors, 12)}
      />
      <YAxis
        domain={y.domain}
        ticks={y.ticks}
        allowDecimals={false}
        tickFormatter={(n: number) => formatCount(n)}
        {...axisStyle(colors, 12)}
      />
      <Tooltip
        labelFormatter={(t) => formatClock(Number(t))}
        formatter={(value) => formatCount(Number(value))}
        isAnimationActive={false}
      />
      <Legend verticalAlign="top" height={28} iconType="square" />
      {DECISION_SERIES.map(({ key, name }) => (
        <Area
          key={key}
          type="monotone"
          dataKey={key}
          name={name}
          stackId="decisions"
          stroke={colors[key]}
          fill={colors[key]}
          fillOpacity={FILL_OPACITY[key]}
          isAnimationActive={false}
        />
      ))}
    </AreaChart>
  );
}
