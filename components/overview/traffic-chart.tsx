"use client";

import { Area, AreaChart, CartesianGrid, Legend, Tooltip, XAxis, YAxis } from "recharts";
import { useChartColors } from "@/components/charts/chart-colors";
import type { TrafficPoint } from "@/lib/client/types";
import { formatClock } from "@/lib/time-format";
import { formatAgo, formatCount, xTicks, yAxis } from "./traffic-chart-data";

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
        tick={{ fontSize: 12, fill: colors.tick }}
        stroke={colors.axis}
      />
      <YAxis
        domain={y.domain}
        ticks={y.ticks}
        allowDecimals={false}
        tickFormatter={(n: number) => formatCount(n)}
        tick={{ fontSize: 12, fill: colors.tick }}
        stroke={colors.axis}
      />
      <Tooltip
        labelFormatter={(t) => formatClock(Number(t))}
        formatter={(value) => formatCount(Number(value))}
        isAnimationActive={false}
      />
      <Legend verticalAlign="top" height={28} iconType="square" />
      <Area
        type="monotone"
        dataKey="allowed"
        name="Allowed"
        stackId="decisions"
        stroke={colors.allowed}
        fill={colors.allowed}
        fillOpacity={0.18}
        isAnimationActive={false}
      />
      <Area
        type="monotone"
        dataKey="denied"
        name="Denied"
        stackId="decisions"
        stroke={colors.denied}
        fill={colors.denied}
        fillOpacity={0.25}
        isAnimationActive={false}
      />
    </AreaChart>
  );
}
