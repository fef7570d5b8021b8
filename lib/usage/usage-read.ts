import type { Tx } from "@/db/client";
import {
  aggregateDryRun,
  aggregateUsage,
  type DryRunAggregate,
  type DryRunFilter,
  getFoldWatermark,
  type UsageAggregate,
  type UsageFilter,
  type UsageGroup,
  type UsageTable,
} from "@/db/queries/usage";
import { COUNTERS } from "./batch";
import { floorTo, HOUR_MS, MINUTE_MS } from "./time";

/** Piece is a part of a range read from one rollup table: [fromMs, toMs). */
export interface Piece {
  table: UsageTable;
  fromMs: number;
  toMs: number;
}

/**
 * planPieces splits [fromMs, toMs) into the parts each table answers for exactly once: hour
 * rows for the whole hours before the fold's watermark, minute rows for the rest (after the
 * watermark, and for a partial first hour while minute rows of it are kept). Where minute rows
 * are gone (before `minutesFromMs`), the range starts at its hour.
 */
export function planPieces(
  fromMs: number,
  toMs: number,
  watermarkMs: number | undefined,
  minutesFromMs: number,
): Piece[] {
  if (toMs <= fromMs) return [];
  if (watermarkMs === undefined || watermarkMs <= fromMs) {
    return [{ table: "minutes", fromMs, toMs }];
  }
  const pieces: Piece[] = [];
  let hoursFrom = Math.ceil(fromMs / HOUR_MS) * HOUR_MS;
  if (fromMs < minutesFromMs) hoursFrom = floorTo(fromMs, HOUR_MS);
  else if (hoursFrom > fromMs) {
    pieces.push({ table: "minutes", fromMs, toMs: Math.min(hoursFrom, watermarkMs, toMs) });
  }
  const hoursTo = Math.min(watermarkMs, toMs);
  if (hoursTo > hoursFrom) {
    // Hour rows cover whole hours: a range that ends inside one takes the rest from minutes.
    const wholeTo = floorTo(hoursTo, HOUR_MS);
    if (wholeTo > hoursFrom) pieces.push({ table: "hours", fromMs: hoursFrom, toMs: wholeTo });
    if (hoursTo > wholeTo) pieces.push({ table: "minutes", fromMs: wholeTo, toMs: hoursTo });
  }
  if (toMs > watermarkMs) {
    pieces.push({ table: "minutes", fromMs: Math.max(watermarkMs, fromMs), toMs });
  }
  return pieces;
}

/**
 * readUsage sums the rollups over a filter's range, grouped as asked (by `bucketMs` steps, by
 * customer, plan, operation), reading each part of the range from the table that holds it once
 * (see planPieces; `minutesOnly` reads minute rows alone, for a minute series). Groups that meet
 * across pieces are summed.
 */
export function readUsage(
  tx: Tx,
  filter: UsageFilter,
  groupBy: readonly UsageGroup[],
  options: { bucketMs?: number; minutesFromMs: number; minutesOnly?: boolean },
): UsageAggregate[] {
  const pieces = options.minutesOnly
    ? [{ table: "minutes" as const, fromMs: filter.fromMs, toMs: filter.toMs }]
    : planPieces(filter.fromMs, filter.toMs, getFoldWatermark(tx), options.minutesFromMs);
  const merged = new Map<string, UsageAggregate>();
  const bucketMs = options.bucketMs ?? MINUTE_MS;
  for (const piece of pieces) {
    const rows = aggregateUsage(
      tx,
      piece.table,
      { ...filter, fromMs: piece.fromMs, toMs: piece.toMs },
      groupBy,
      bucketMs,
    );
    for (const row of rows) {
      const key = `${row.bucket}|${row.customerId}|${row.planId}|${row.operation}`;
      const into = merged.get(key);
      if (!into) merged.set(key, { ...row });
      else for (const counter of COUNTERS) into[counter] += row[counter];
    }
  }
  return [...merged.values()];
}

/**
 * readDryRun sums the dry-run refusals over a filter's range per customer, plan, operation,
 * source and limit, each part of the range read from the table that holds it once.
 */
export function readDryRun(tx: Tx, filter: DryRunFilter, minutesFromMs: number): DryRunAggregate[] {
  const merged = new Map<string, DryRunAggregate>();
  const pieces = planPieces(filter.fromMs, filter.toMs, getFoldWatermark(tx), minutesFromMs);
  for (const piece of pieces) {
    const rows = aggregateDryRun(tx, piece.table, {
      ...filter,
      fromMs: piece.fromMs,
      toMs: piece.toMs,
    });
    for (const row of rows) {
      const key = `${row.customerId}|${row.planId}|${row.operation}|${row.source}|${row.limitCount}|${row.limitPeriodMs}`;
      const into = merged.get(key);
      if (into) into.refused += row.refused;
      else merged.set(key, { ...row });
    }
  }
  return [...merged.values()];
}
