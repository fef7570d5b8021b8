"use client";

import { Area, AreaChart, CartesianGrid, Tooltip, XAxis, YAxis } from "recharts";
import { formatClock } from "@/lib/time-format";
import { axisStyle, timeAxisProps } from "./axis-props";
import { useChartColors } from "./chart-colors";
import { capacityTicks } from "./count-axis";
import { type LevelPoint, undrawnMs } from "./level-steps";
import { formatCount } from "./number-format";
import { formatAgo, liveTicks, timeDomain } from "./time-axis";

/**
 * RemainingChart draws a bucket's remaining tokens as steps over the live window ending at `now`
 * (ms), from 0 to its capacity: `points` from `levelSteps`, each holding until the next.
 * `samples` is how many samples (peeks and replayed moments) they were drawn from. The maths
 * (steps, window, ticks, labels) lives in the .ts files beside it. `data-undrawn-ms` says how much
 * of the window's start is left blank (0 once the chart is drawn from the window's start).
 */
export function RemainingChart({
  points,
  samples,
  capacity,
  now,
  windowMs,
  label,
}: {
  points: readonly LevelPoint[];
  samples: number;
  capacity: number;
  now: number;
  windowMs: number;
  label: string;
}) {
  const colors = useChartColors();
  const domain = timeDomain(now, windowMs);
  return (
    <figure
      aria-label={label}
      data-samples={samples}
      data-undrawn-ms={Math.round(undrawnMs(points, now - windowMs, now))}
      style={{ margin: 0 }}
    >
      <AreaChart
        responsive
        style={{ width: "100%", height: 130 }}
        data={points as LevelPoint[]}
        margin={{ top: 6, right: 8, bottom: 0, left: 0 }}
      >
        <CartesianGrid stroke={colors.grid} vertical={false} />
        <XAxis
          {...timeAxisProps(colors, {
            dataKey: "t",
            domain,
            ticks: liveTicks(now, windowMs),
            format: (t) => formatAgo(t, now),
          })}
        />
        <YAxis
          domain={[0, capacity]}
          ticks={capacityTicks(capacity)}
          interval={0}
          width={44}
          tickFormatter={(n: number) => formatCount(n)}
          {...axisStyle(colors)}
        />
        <Tooltip
          labelFormatter={(t) => formatClock(Number(t))}
          formatter={(value) => [formatCount(Number(value)), "Remaining"]}
          isAnimationActive={false}
        />
        <Area
          type="stepAfter"
          dataKey="remaining"
          name="Remaining"
          stroke={colors.remaining}
          strokeWidth={2}
          fill={colors.remaining}
          fillOpacity={0.12}
          dot={false}
          isAnimationActive={false}
        />
      </AreaChart>
    </figure>
  );
}
