import { z } from "zod";
import { DAY_MS, HOUR_MS, MINUTE_MS } from "@/lib/limiter";
import { formatDayMonth, formatTimeOfDay } from "@/lib/time-format";
import type { UsageGranularity } from "@/lib/vocabulary";

/** USAGE_RANGES are the overview's time ranges: live (per second) and four rollup ranges. */
export const USAGE_RANGES = ["live", "1h", "24h", "7d", "30d"] as const;

/** UsageRange is one of USAGE_RANGES. */
export type UsageRange = (typeof USAGE_RANGES)[number];

/** RollupRange is a range read from the usage rollups (every range but live). */
export type RollupRange = Exclude<UsageRange, "live">;

/**
 * RANGE_SPECS say, for each rollup range, its span (ms), the step its series is read in, and
 * its words: 1 h by minute (60 bars), 24 h and 7 d by hour (24 and 168), 30 d by UTC day.
 */
export const RANGE_SPECS: Readonly<
  Record<
    RollupRange,
    { spanMs: number; granularity: UsageGranularity; label: string; words: string }
  >
> = {
  "1h": { spanMs: HOUR_MS, granularity: "minute", label: "1 h", words: "the last hour" },
  "24h": { spanMs: DAY_MS, granularity: "hour", label: "24 h", words: "the last 24 hours" },
  "7d": { spanMs: 7 * DAY_MS, granularity: "hour", label: "7 d", words: "the last 7 days" },
  "30d": { spanMs: 30 * DAY_MS, granularity: "day", label: "30 d", words: "the last 30 days" },
};

/** rangeLabel is a range's button text: "Live", "1 h", "24 h", "7 d", "30 d". */
export function rangeLabel(range: UsageRange): string {
  return range === "live" ? "Live" : RANGE_SPECS[range].label;
}

/** overviewQuerySchema reads the overview's URL (`?range=24h`); live when absent. */
export const overviewQuerySchema = z.object({ range: z.enum(USAGE_RANGES).default("live") });

/** ROLLUP_RANGES are the ranges a customer's or a plan's usage is read over (no live view). */
export const ROLLUP_RANGES = ["1h", "24h", "7d", "30d"] as const satisfies readonly RollupRange[];

/** scopedRangeSchema reads a customer's or a plan's usage range from the URL (24 h by default). */
export const scopedRangeSchema = z.object({ range: z.enum(ROLLUP_RANGES).default("24h") });

/** RangeQuery is what the usage API is asked: `from` (ms since the epoch) and a granularity. */
export interface RangeQuery {
  from: number;
  to: number;
  granularity: UsageGranularity;
}

/**
 * rangeQuery turns a range into the usage API's parameters at `nowMs`: `to` is the end of the
 * current minute (so this minute's decisions count, as the API's own default), `from` one span
 * before it. Every rollup query of one view uses the same pair, so their figures agree.
 */
export function rangeQuery(range: RollupRange, nowMs: number): RangeQuery {
  const to = Math.floor(nowMs / MINUTE_MS) * MINUTE_MS + MINUTE_MS;
  const spec = RANGE_SPECS[range];
  return { from: to - spec.spanMs, to, granularity: spec.granularity };
}

/**
 * usageSearch writes a query string ("from=…&to=…") for the usage API: the range's ends, the
 * granularity when asked for, and any filters set (undefined ones are left out).
 */
export function usageSearch(
  query: RangeQuery,
  filters: Record<string, string | number | undefined> = {},
  withGranularity = false,
): string {
  const params = new URLSearchParams({ from: String(query.from), to: String(query.to) });
  if (withGranularity) params.set("granularity", query.granularity);
  for (const [key, value] of Object.entries(filters)) {
    if (value !== undefined) params.set(key, String(value));
  }
  return params.toString();
}

/**
 * formatStepTick labels a step's start on a range's axis, in the local zone (named once beside
 * the chart): "14:05" for a minute or an hour within a day's range, "23 Nov 14:00" for hours
 * over days, "23 Nov" for days.
 */
export function formatStepTick(t: number, range: RollupRange): string {
  if (range === "30d") return formatDayMonth(t);
  if (range === "7d") return `${formatDayMonth(t)} ${formatTimeOfDay(t)}`;
  return formatTimeOfDay(t);
}

/**
 * stepTicks places at most `maxTicks` ticks on the step starts of [fromMs, toMs): every n-th
 * step, n the smallest whole number that fits, counting from the first.
 */
export function stepTicks(fromMs: number, toMs: number, stepMs: number, maxTicks = 7): number[] {
  const steps = Math.max(1, Math.round((toMs - fromMs) / stepMs));
  const every = Math.max(1, Math.ceil(steps / maxTicks));
  const ticks: number[] = [];
  for (let i = 0; i < steps; i += every) ticks.push(fromMs + i * stepMs);
  return ticks;
}
