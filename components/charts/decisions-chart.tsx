"use client";

import { Bar, BarChart, CartesianGrid, Legend, Tooltip, XAxis, YAxis } from "recharts";
import { useChartColors } from "./chart-colors";
import { formatCount } from "./number-format";
import type { Bar as BarPoint } from "./rebin";

/**
 * DecisionsChart draws allowed and denied decisions per slot as stacked bars on a numeric time
 * axis (`x` is each slot's middle, see `toBars`); ticks and labels are computed by the caller.
 */
export function DecisionsChart({
  bars,
  domain,
  ticks,
  formatTick,
  formatLabel,
  label,
  height = 200,
  legend = true,
}: {
  bars: readonly BarPoint[];
  domain: [number, number];
  ticks: number[];
  formatTick: (x: number) => string;
  formatLabel: (bar: BarPoint | undefined) => string;
  label: string;
  height?: number;
  /** legend draws the chart's own key; off where the panel's totals already name the colours. */
  legend?: boolean;
}) {
  const colors = useChartColors();
  return (
    <figure aria-label={label} style={{ margin: 0 }}>
      <BarChart
        responsive
        style={{ width: "100%", height }}
        data={bars as BarPoint[]}
        margin={{ top: 6, right: 8, bottom: 0, left: 0 }}
        barCategoryGap="10%"
      >
        <CartesianGrid stroke={colors.grid} vertical={false} />
        <XAxis
          dataKey="x"
          type="number"
          domain={domain}
          allowDataOverflow
          ticks={ticks}
          tickFormatter={formatTick}
          tick={{ fontSize: 11, fill: colors.tick }}
          stroke={colors.axis}
        />
        <YAxis
          allowDecimals={false}
          width={44}
          tickFormatter={(n: number) => formatCount(n)}
          tick={{ fontSize: 11, fill: colors.tick }}
          stroke={colors.axis}
        />
        <Tooltip
          labelFormatter={(_, payload) =>
            formatLabel(payload?.[0]?.payload as BarPoint | undefined)
          }
          formatter={(value, name) => [formatCount(Number(value)), name]}
          cursor={{ fill: colors.cursor }}
          isAnimationActive={false}
        />
        {legend ? <Legend verticalAlign="top" height={26} iconType="square" /> : null}
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
      </BarChart>
    </figure>
  );
}
