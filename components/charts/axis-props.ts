import type { ChartColors } from "./chart-colors";

/** AxisStyle is how an axis looks: its tick labels' size (px) and colour, and its line's colour. */
export interface AxisStyle {
  tick: { fontSize: number; fill: string };
  stroke: string;
}

/** axisStyle draws an axis in the charts' colours, its tick labels `fontSize` px high. */
export function axisStyle(colors: ChartColors, fontSize = 11): AxisStyle {
  return { tick: { fontSize, fill: colors.tick }, stroke: colors.axis };
}

/** TimeAxisProps are the props of a numeric time axis held to its domain (times in ms). */
export interface TimeAxisProps extends AxisStyle {
  dataKey: string;
  type: "number";
  domain: [number, number];
  allowDataOverflow: true;
  ticks: number[];
  tickFormatter: (t: number) => string;
}

/**
 * timeAxisProps lays a chart's x axis over `domain` (ms) at `ticks`, read from each point's
 * `dataKey`, in the charts' colours: the domain holds however the points fall (a point outside
 * it is clipped, so the window never stretches), and `format` labels each tick.
 */
export function timeAxisProps(
  colors: ChartColors,
  axis: {
    dataKey: string;
    domain: [number, number];
    ticks: number[];
    format: (t: number) => string;
  },
): TimeAxisProps {
  return {
    dataKey: axis.dataKey,
    type: "number",
    domain: axis.domain,
    allowDataOverflow: true,
    ticks: axis.ticks,
    tickFormatter: axis.format,
    ...axisStyle(colors),
  };
}
