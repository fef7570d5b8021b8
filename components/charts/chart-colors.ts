/** CHART_COLORS are the charts' colours, matching the stylesheet's ok/bad/accent tokens. */
export const CHART_COLORS = {
  allowed: "#16803c",
  denied: "#c2332b",
  remaining: "#2457d6",
  grid: "#e1e5eb",
  axis: "#c9d0da",
  tick: "#5d6778",
} as const;
