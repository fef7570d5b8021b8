import type { Tx } from "@/db/client";
import {
  aggregateDryRun,
  aggregateUsage,
  type DryRunAggregate,
  type DryRunFilter,
  type DryRunTable,
  type UsageAggregate,
  type UsageFilter,
  type UsageGroup,
  type UsageTable,
} from "@/db/queries/usage";
import { getDayFoldWatermark, getFoldWatermark } from "@/db/queries/usage-rollup";
import { addCounts } from "@/lib/vocabulary";
import { DAY_MS, floorTo, HOUR_MS, MINUTE_MS } from "./time";

/** Piece is a part of a range read from one rollup table: [fromMs, toMs). */
export interface Piece {
  table: UsageTable;
  fromMs: number;
  toMs: number;
}

/**
 * Level is a rollup table a range may be read from: rows of `stepMs`, complete for every step
 * before `throughMs` (its fold's watermark; undefined before the first fold). The minute table is
 * the finest, complete up to the present.
 */
export interface Level {
  table: UsageTable;
  stepMs: number;
  throughMs: number | undefined;
}

/**
 * planPieces splits [fromMs, toMs) into parts each read from one table, each instant from one
 * table only: the coarsest level (first) for the whole steps it has folded, finer levels for the
 * rest, down to minutes. Where minute rows are gone (before `minutesFromMs`), a part that would
 * need them starts at its hour instead (the range widens to the hour).
 */
export function planPieces(
  fromMs: number,
  toMs: number,
  levels: readonly Level[],
  minutesFromMs: number,
): Piece[] {
  if (toMs <= fromMs) return [];
  const [level, ...finer] = levels;
  if (!level) return [];
  if (finer.length === 0) return [{ table: level.table, fromMs, toMs }];
  const { stepMs, throughMs } = level;
  if (throughMs === undefined || throughMs <= fromMs) {
    return planPieces(fromMs, toMs, finer, minutesFromMs);
  }
  let start = Math.ceil(fromMs / stepMs) * stepMs;
  // The part before the first whole step needs the finer rows; minutes may be gone.
  if (start > fromMs && finer.length === 1 && fromMs < minutesFromMs) {
    start = floorTo(fromMs, stepMs);
  }
  const end = floorTo(Math.min(toMs, throughMs), stepMs);
  if (end <= start) return planPieces(fromMs, toMs, finer, minutesFromMs);
  return [
    ...planPieces(fromMs, start, finer, minutesFromMs),
    { table: level.table, fromMs: start, toMs: end },
    ...planPieces(end, toMs, finer, minutesFromMs),
  ];
}

/**
 * levelsOf lists the levels a read may use, coarse to fine: days and hours as far as they are
 * folded, then minutes. A series by `bucketMs` uses only levels whose step divides its bucket.
 */
export function levelsOf(tx: Tx, bucketMs?: number): Level[] {
  const all: Level[] = [
    { table: "days", stepMs: DAY_MS, throughMs: getDayFoldWatermark(tx) },
    { table: "hours", stepMs: HOUR_MS, throughMs: getFoldWatermark(tx) },
    { table: "minutes", stepMs: MINUTE_MS, throughMs: undefined },
  ];
  return all.filter((l) => bucketMs === undefined || bucketMs % l.stepMs === 0);
}

/**
 * readUsage sums the rollups over a filter's range, grouped as asked (by `bucketMs` steps, by
 * customer, plan, operation), reading each part of the range from the coarsest table that holds
 * it, once (see planPieces; `minutesOnly` reads minute rows alone, for a minute series). Groups
 * that meet across pieces are summed.
 */
export function readUsage(
  tx: Tx,
  filter: UsageFilter,
  groupBy: readonly UsageGroup[],
  options: { bucketMs?: number; minutesFromMs: number; minutesOnly?: boolean },
): UsageAggregate[] {
  const grouped = groupBy.includes("bucket") ? options.bucketMs : undefined;
  const pieces = options.minutesOnly
    ? [{ table: "minutes" as const, fromMs: filter.fromMs, toMs: filter.toMs }]
    : planPieces(filter.fromMs, filter.toMs, levelsOf(tx, grouped), options.minutesFromMs);
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
      else addCounts(into, row);
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
  const levels = levelsOf(tx).filter((l) => l.table !== "days");
  const pieces = planPieces(filter.fromMs, filter.toMs, levels, minutesFromMs);
  for (const piece of pieces) {
    const rows = aggregateDryRun(tx, piece.table as DryRunTable, {
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
