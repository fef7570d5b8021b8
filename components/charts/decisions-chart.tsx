"use client";

import type { ReactNode } from "react";
import { Bar, BarChart, CartesianGrid, Legend, Tooltip, XAxis, YAxis } from "recharts";
import { axisStyle, timeAxisProps } from "./axis-props";
import { DECISION_SERIES, useChartColors } from "./chart-colors";
import { formatCount } from "./number-format";
import type { Bar as BarPoint } from "./rebin";

/** CountScale is a chart's count axis set by its caller: domain and ticks, in requests. */
export interface CountScale {
  domain: [number, number];
  ticks: number[];
}

/**
 * DecisionsChart draws allowed and denied decisions per slot as stacked bars on a numeric time
 * axis (`x` is each slot's middle, see `toBars`); ticks and labels are computed by the caller.
 * The count axis is recharts' own unless `counts` sets it; `children` draw over the bars (a
 * limit's line) and `caption` goes beneath the chart.
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
  counts,
  countsWidth = 44,
  caption,
  children,
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
  counts?: CountScale;
  /** countsWidth is the count axis's width in px, room for its longest label. */
  countsWidth?: number;
  caption?: ReactNode;
  children?: ReactNode;
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
        <XAxis {...timeAxisProps(colors, { dataKey: "x", domain, ticks, format: formatTick })} />
        <YAxis
          allowDecimals={false}
          domain={counts?.domain}
          ticks={counts?.ticks}
          width={countsWidth}
          tickFormatter={(n: number) => formatCount(n)}
          {...axisStyle(colors)}
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
        {DECISION_SERIES.map(({ key, name }) => (
          <Bar
            key={key}
            dataKey={key}
            name={name}
            stackId="decisions"
            fill={colors[key]}
            isAnimationActive={false}
          />
        ))}
        {children}
      </BarChart>
      {caption}
    </figure>
  );
}
