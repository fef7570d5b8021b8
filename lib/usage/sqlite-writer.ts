import type { Db, Tx } from "@/db/client";
import {
  foldHoursIntoDays,
  foldMinutesIntoHours,
  getDayFoldWatermark,
  getFoldWatermark,
  listCustomerIds,
  oldestUsageHour,
  oldestUsageMinute,
  pruneClaims,
  pruneUsage,
  recordClaim,
  setDayFoldWatermark,
  setFoldWatermark,
  upsertDryRunRows,
  upsertUsageRows,
} from "@/db/queries/usage-rollup";
import { isEmpty, mergeBatches, type UsageBatch } from "./batch";
import { DAY_MS, floorTo, HOUR_MS, MINUTE_MS } from "./time";

/** WriteResult says how many rows a write added to (minute rows and hour rows alike). */
export interface WriteResult {
  rows: number;
}

/**
 * writeBatchIn adds a batch to the rollups inside the caller's transaction `tx` of `db`: minute
 * rows always,
 * hour rows too for minutes before the hour fold's watermark, and day rows for minutes before the
 * day fold's (a late count for a step already folded), so that every level a reader may use
 * holds every count once. Counts of customers that no longer exist are dropped (their rows went
 * with them).
 */
export function writeBatchIn(db: Db, tx: Tx, batch: UsageBatch): WriteResult {
  if (isEmpty(batch)) return { rows: 0 };
  const known = listCustomerIds(tx);
  const rows = batch.rows.filter((r) => known.has(r.customerId));
  const dryRun = batch.dryRun.filter((r) => known.has(r.customerId));
  upsertUsageRows(db, "minutes", rows);
  upsertDryRunRows(db, "minutes", dryRun);
  let written = rows.length + dryRun.length;
  const hours = getFoldWatermark(tx);
  if (hours !== undefined) {
    const late = mergeBatches(
      [
        {
          rows: rows.filter((r) => r.startMs < hours),
          dryRun: dryRun.filter((r) => r.startMs < hours),
        },
      ],
      HOUR_MS,
    );
    upsertUsageRows(db, "hours", late.rows);
    upsertDryRunRows(db, "hours", late.dryRun);
    written += late.rows.length + late.dryRun.length;
  }
  const days = getDayFoldWatermark(tx);
  if (days !== undefined) {
    const late = mergeBatches([{ rows: rows.filter((r) => r.startMs < days), dryRun: [] }], DAY_MS);
    upsertUsageRows(db, "days", late.rows);
    written += late.rows.length;
  }
  return { rows: written };
}

/** writeBatch adds a batch to the rollups in one transaction (see writeBatchIn). */
export function writeBatch(db: Db, batch: UsageBatch): WriteResult {
  if (isEmpty(batch)) return { rows: 0 };
  return db.transaction((tx) => writeBatchIn(db, tx, batch), { behavior: "immediate" });
}

/**
 * writeClaims adds the batches of Redis claims to the rollups in one transaction, each at most
 * once: a claim recorded before (its claimer wrote it, then died before deleting it from Redis)
 * adds nothing. Returns the rows written.
 */
export function writeClaims(
  db: Db,
  claims: readonly { key: string; batch: UsageBatch }[],
  now: number,
): WriteResult {
  if (claims.length === 0) return { rows: 0 };
  return db.transaction(
    (tx) => {
      const fresh: UsageBatch[] = [];
      for (const claim of claims) if (recordClaim(tx, claim.key, now)) fresh.push(claim.batch);
      return writeBatchIn(db, tx, mergeBatches(fresh, MINUTE_MS));
    },
    { behavior: "immediate" },
  );
}

/** FoldOptions: retentions and how far behind the present the fold stays (all in ms). */
export interface FoldOptions {
  minuteRetentionMs: number;
  hourRetentionMs: number;
  /** delayMs: an hour is folded once it ended this long ago (late counts are added anyway). */
  delayMs?: number;
  /** maxSpanMs bounds one fold's work: a fold far behind catches up over several runs. */
  maxSpanMs?: number;
}

/** FoldResult says what a fold did: the watermarks it reached, and the rows it pruned. */
export interface FoldResult {
  /** watermarkMs: every hour before it is in the hour rows. */
  watermarkMs: number;
  /** dayWatermarkMs: every UTC day before it is in the day rows. */
  dayWatermarkMs: number;
  prunedMinuteRows: number;
  prunedHourRows: number;
  prunedDayRows: number;
}

/** CLAIM_MEMORY_MS is how long written claims are remembered: far longer than any lease. */
const CLAIM_MEMORY_MS = DAY_MS;

/**
 * Fold is one level of folding: the step it folds into (ms), its watermark's setting, where the
 * rows it folds begin (ms, undefined when there are none) and the fold over [fromMs, toMs).
 */
interface Fold {
  stepMs: number;
  watermark(tx: Tx): number | undefined;
  setWatermark(tx: Tx, ms: number): void;
  oldest(tx: Tx): number | undefined;
  fold(tx: Tx, fromMs: number, toMs: number): void;
}

/** HOUR_FOLD folds minutes (counts and dry-run refusals) into hours. */
const HOUR_FOLD: Fold = {
  stepMs: HOUR_MS,
  watermark: getFoldWatermark,
  setWatermark: setFoldWatermark,
  oldest: oldestUsageMinute,
  fold: foldMinutesIntoHours,
};

/** DAY_FOLD folds hours into UTC days. */
const DAY_FOLD: Fold = {
  stepMs: DAY_MS,
  watermark: getDayFoldWatermark,
  setWatermark: setDayFoldWatermark,
  oldest: oldestUsageHour,
  fold: foldHoursIntoDays,
};

/**
 * foldUpTo folds from the watermark of `level` (before its first fold, the step of its oldest
 * row) towards `target` (ms, a step's start), `maxSpanMs` at most, and stores and returns the
 * watermark reached.
 */
function foldUpTo(tx: Tx, level: Fold, target: number, maxSpanMs: number): number {
  let watermark = level.watermark(tx);
  if (watermark === undefined) {
    const oldest = level.oldest(tx);
    watermark = oldest === undefined ? target : Math.min(floorTo(oldest, level.stepMs), target);
  }
  const end = Math.min(target, watermark + maxSpanMs);
  if (end > watermark) {
    level.fold(tx, watermark, end);
    watermark = end;
  }
  level.setWatermark(tx, watermark);
  return watermark;
}

/**
 * foldAndPrune folds the minutes of every closed hour (ended `delayMs` ago) into hour rows, and
 * the hours of every complete UTC day into day rows, moving each watermark past what it folded,
 * in one transaction; then deletes minute rows older than the minute retention (never an
 * unfolded one), hour rows older than the hour retention (day rows once their day's hours are
 * gone), and the claims remembered for a day.
 */
export function foldAndPrune(db: Db, now: number, options: FoldOptions): FoldResult {
  const delayMs = options.delayMs ?? 5 * 60_000;
  const maxSpanMs = options.maxSpanMs ?? DAY_MS;
  return db.transaction(
    (tx) => {
      const watermark = foldUpTo(tx, HOUR_FOLD, floorTo(now - delayMs, HOUR_MS), maxSpanMs);
      const days = foldUpTo(tx, DAY_FOLD, floorTo(watermark, DAY_MS), maxSpanMs);
      const pruned = pruneUsage(tx, {
        minutesMs: Math.min(watermark, now - options.minuteRetentionMs),
        hoursMs: now - options.hourRetentionMs,
      });
      pruneClaims(tx, now - CLAIM_MEMORY_MS);
      return {
        watermarkMs: watermark,
        dayWatermarkMs: days,
        prunedMinuteRows: pruned.minutes,
        prunedHourRows: pruned.hours,
        prunedDayRows: pruned.days,
      };
    },
    { behavior: "immediate" },
  );
}
