import type { TrafficPoint } from "@/lib/client/types";

/** TrafficTotals are decisions summed over a span; `deniedShare` is 0..1, or null with no traffic. */
export interface TrafficTotals {
  allowed: number;
  denied: number;
  total: number;
  deniedShare: number | null;
}

/** sumPoints adds up the allowed and denied decisions of per-second points. */
export function sumPoints(points: readonly TrafficPoint[]): TrafficTotals {
  let allowed = 0;
  let denied = 0;
  for (const p of points) {
    allowed += p.allowed;
    denied += p.denied;
  }
  const total = allowed + denied;
  return { allowed, denied, total, deniedShare: total === 0 ? null : denied / total };
}

/** niceCeiling rounds a count up to 1, 2 or 5 times a power of ten (7 -> 10, 120 -> 200); at least 1. */
export function niceCeiling(value: number): number {
  if (!Number.isFinite(value) || value <= 1) return 1;
  const power = 10 ** Math.floor(Math.log10(value));
  for (const step of [1, 2, 5, 10]) {
    if (step * power >= value) return step * power;
  }
  return 10 * power;
}

/** MIN_Y_MAX is the smallest top of the count axis, so that a quiet chart does not look busy. */
export const MIN_Y_MAX = 5;

/** YAxis is the count axis: its domain and evenly spaced whole-number ticks from 0 to the top. */
export interface YAxisScale {
  domain: [number, number];
  ticks: number[];
}

/**
 * yAxis scales the requests-per-second axis of the stacked chart: about five steps of a nice
 * size (1, 2 or 5 times a power of ten), topping out at the first step at or above the busiest
 * second (allowed plus denied), and never below MIN_Y_MAX.
 */
export function yAxis(points: readonly TrafficPoint[]): YAxisScale {
  let busiest = MIN_Y_MAX;
  for (const p of points) busiest = Math.max(busiest, p.allowed + p.denied);
  const step = niceCeiling(busiest / 5);
  const top = Math.ceil(busiest / step) * step;
  const ticks: number[] = [];
  for (let t = 0; t <= top; t += step) ticks.push(t);
  return { domain: [0, top], ticks };
}

/**
 * xDomain is the time axis in ms since the epoch: the `seconds` whole seconds up to the one that
 * holds `now`, first and last second's start included (the server's points use the same grid).
 */
export function xDomain(now: number, seconds: number): [number, number] {
  const last = Math.floor(now / 1000) * 1000;
  return [last - (Math.max(1, seconds) - 1) * 1000, last];
}

/** xTicks places a tick every `stepMs` back from the domain's end, oldest first. */
export function xTicks(domain: readonly [number, number], stepMs = 30_000): number[] {
  const ticks: number[] = [];
  for (let t = domain[1]; t >= domain[0]; t -= stepMs) ticks.unshift(t);
  return ticks;
}

/** formatAgo writes how long before `end` a time is: "now", "30s ago", "1m ago", "1m 30s ago". */
export function formatAgo(t: number, end: number): string {
  const seconds = Math.round((end - t) / 1000);
  if (seconds <= 0) return "now";
  const minutes = Math.floor(seconds / 60);
  const rest = seconds % 60;
  if (minutes === 0) return `${rest}s ago`;
  return rest === 0 ? `${minutes}m ago` : `${minutes}m ${rest}s ago`;
}

/** formatShare writes a 0..1 share as a percentage with one decimal, or "–" when there is none. */
export function formatShare(share: number | null): string {
  if (share === null) return "–";
  const percent = share * 100;
  return `${percent === 0 || percent === 100 ? percent : percent.toFixed(1)}%`;
}
