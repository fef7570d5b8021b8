import { addCounts, type DryRunRow, type UsageRow } from "@/lib/vocabulary";

/** UsageBatch is what one flush carries: counts and dry-run refusals, by minute. */
export interface UsageBatch {
  rows: UsageRow[];
  dryRun: DryRunRow[];
}

/** dryRunKey names a dry-run row's identity (everything but `refused`). */
export function dryRunKey(row: Omit<DryRunRow, "refused">): string {
  return `${row.startMs}|${row.customerId}|${row.operation}|${row.planId}|${row.source}|${row.limitCount}|${row.limitPeriodMs}`;
}

/**
 * mergeBatches sums batches into one, a row per identity, each row's start moved to the start of
 * its `stepMs`-long step (a minute keeps minute rows; an hour folds them). The inputs are not
 * modified.
 */
export function mergeBatches(batches: readonly UsageBatch[], stepMs: number): UsageBatch {
  const rows = new Map<string, UsageRow>();
  const dryRun = new Map<string, DryRunRow>();
  for (const batch of batches) {
    for (const row of batch.rows) {
      const startMs = row.startMs - (row.startMs % stepMs);
      const key = `${startMs}|${row.customerId}|${row.operation}|${row.planId}`;
      const into = rows.get(key);
      if (!into) {
        rows.set(key, startMs === row.startMs ? { ...row } : { ...row, startMs });
        continue;
      }
      addCounts(into, row);
    }
    for (const row of batch.dryRun) {
      const startMs = row.startMs - (row.startMs % stepMs);
      const key = dryRunKey({ ...row, startMs });
      const into = dryRun.get(key);
      if (into) into.refused += row.refused;
      else dryRun.set(key, { ...row, startMs });
    }
  }
  return { rows: [...rows.values()], dryRun: [...dryRun.values()] };
}

/** isEmpty tells whether a batch carries nothing. */
export function isEmpty(batch: UsageBatch): boolean {
  return batch.rows.length === 0 && batch.dryRun.length === 0;
}
