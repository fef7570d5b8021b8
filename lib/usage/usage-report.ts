import type { Tx } from "@/db/client";
import type {
  UsagePoint,
  UsageReport,
  UsageSeries,
  UsageTotals,
} from "@/lib/schemas/usage-answer.schema";
import {
  addCounts,
  DEFAULT_CLASSES,
  isDefaultClass,
  type Operation,
  USAGE_GRANULARITIES,
  type UsageGranularity,
  zeroCounts,
} from "@/lib/vocabulary";
import { DAY_MS, floorTo, HOUR_MS, MINUTE_MS } from "./time";
import { readUsage } from "./usage-read";

/** STEP_MS is each granularity's step: UTC minutes, hours and days. */
export const STEP_MS: Readonly<Record<UsageGranularity, number>> = {
  minute: MINUTE_MS,
  hour: HOUR_MS,
  day: DAY_MS,
};

/** MAX_POINTS bounds a series: a range finer than this many steps is refused or coarsened. */
export const MAX_POINTS = 1_500;

/** UsageQuery is a validated usage question: a range, a step, and optional filters. */
export interface UsageQuery {
  fromMs: number;
  toMs: number;
  granularity: UsageGranularity;
  customerId?: number;
  planId?: number;
  operation?: Operation;
}

/** alignRange widens [fromMs, toMs) to whole steps. */
export function alignRange(fromMs: number, toMs: number, stepMs: number) {
  return { fromMs: floorTo(fromMs, stepMs), toMs: Math.ceil(toMs / stepMs) * stepMs };
}

/** pointsIn is how many steps of `stepMs` the range [fromMs, toMs) spans once aligned. */
export function pointsIn(fromMs: number, toMs: number, stepMs: number): number {
  const aligned = alignRange(fromMs, toMs, stepMs);
  return (aligned.toMs - aligned.fromMs) / stepMs;
}

/**
 * finestGranularity is the finest step whose series over the range fits MAX_POINTS (minutes only
 * while minute rows are kept for the whole range), or undefined if even days do not fit.
 */
export function finestGranularity(
  fromMs: number,
  toMs: number,
  minutesFromMs: number,
): UsageGranularity | undefined {
  return USAGE_GRANULARITIES.find(
    (g) =>
      pointsIn(fromMs, toMs, STEP_MS[g]) <= MAX_POINTS &&
      (g !== "minute" || fromMs >= minutesFromMs),
  );
}

/**
 * usageReport reads the rollups for a query (see UsageReport): one series per operation (both, or the filtered
 * one) with a point per step of the range widened to whole steps, and the totals. Minute series
 * read minute rows only; hour and day series read hour rows where the fold has made them.
 */
export function usageReport(tx: Tx, query: UsageQuery, minutesFromMs: number): UsageReport {
  const stepMs = STEP_MS[query.granularity];
  const { fromMs, toMs } = alignRange(query.fromMs, query.toMs, stepMs);
  const rows = readUsage(
    tx,
    {
      fromMs,
      toMs,
      customerId: query.customerId,
      planId: query.planId,
      operation: query.operation,
    },
    ["bucket", "operation"],
    { bucketMs: stepMs, minutesFromMs, minutesOnly: query.granularity === "minute" },
  );
  // The default classes always (zeros included), then every other class with rows in the range
  // (history outlives a class), by name.
  const others = new Set<Operation>();
  for (const row of rows) if (!isDefaultClass(row.operation)) others.add(row.operation);
  const operations = query.operation
    ? [query.operation]
    : [...DEFAULT_CLASSES, ...[...others].sort()];
  const series: UsageSeries[] = operations.map((operation) => ({ operation, points: [] }));
  const index = new Map<string, UsagePoint>();
  for (const s of series) {
    for (let t = fromMs; t < toMs; t += stepMs) {
      const point = { t, ...zeroCounts() };
      s.points.push(point);
      index.set(`${s.operation}|${t}`, point);
    }
  }
  const totals: UsageTotals = {
    ...zeroCounts(),
    byOperation: Object.fromEntries(operations.map((operation) => [operation, zeroCounts()])),
  };
  for (const row of rows) {
    const point = index.get(`${row.operation}|${row.bucket}`);
    if (!point) continue;
    addCounts(point, row);
    addCounts(totals, row);
    const byOperation = totals.byOperation[row.operation];
    if (byOperation) addCounts(byOperation, row);
  }
  return { fromMs, toMs, granularity: query.granularity, stepMs, series, totals };
}
