import { useSyncExternalStore } from "react";

/** ChartColors are a chart's colours: series, grid, axis and tick labels. */
export interface ChartColors {
  allowed: string;
  denied: string;
  remaining: string;
  grid: string;
  axis: string;
  tick: string;
  cursor: string;
}

/**
 * CHART_COLORS are the charts' colours in each theme, matching the stylesheet's ok, bad and
 * accent tokens; the dark ones are lighter so marks and labels keep their contrast.
 */
export const CHART_COLORS: Record<"light" | "dark", ChartColors> = {
  light: {
    allowed: "#16803c",
    denied: "#c2332b",
    remaining: "#2457d6",
    grid: "#e1e5eb",
    axis: "#8a94a3",
    tick: "#5d6778",
    cursor: "rgba(36, 87, 214, 0.08)",
  },
  dark: {
    allowed: "#5ad48a",
    denied: "#ff8a80",
    remaining: "#8cb0ff",
    grid: "#2b3543",
    axis: "#6b7686",
    tick: "#a7b0be",
    cursor: "rgba(140, 176, 255, 0.12)",
  },
};

/**
 * DECISION_SERIES are a decisions chart's stacked series, allowed below denied: the data key
 * (also the key of its colour) and the name its key and tooltip show.
 */
export const DECISION_SERIES = [
  { key: "allowed", name: "Allowed" },
  { key: "denied", name: "Denied" },
] as const;

const DARK = "(prefers-color-scheme: dark)";

function subscribe(onChange: () => void): () => void {
  const query = window.matchMedia(DARK);
  query.addEventListener("change", onChange);
  return () => query.removeEventListener("change", onChange);
}

/** useChartColors returns the colours of the system's theme, following it as it changes. */
export function useChartColors(): ChartColors {
  const dark = useSyncExternalStore(
    subscribe,
    () => window.matchMedia(DARK).matches,
    () => false,
  );
  return CHART_COLORS[dark ? "dark" : "light"];
}
