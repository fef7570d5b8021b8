import type { LimitSource, Operation } from "@/lib/vocabulary";

/**
 * UsageRow is one rollup row's worth of counts: decisions by outcome and tokens, for a customer,
 * an operation and the plan it was on, in the step (minute or hour) starting at `startMs`.
 */
export interface UsageRow {
  startMs: number;
  customerId: number;
  operation: Operation;
  planId: number;
  allowed: number;
  denied: number;
  unavailable: number;
  tokensRequested: number;
  tokensTaken: number;
  /** tooLarge counts the decisions refused for their cost (413; see USAGE_OUTCOMES). */
  tooLarge: number;
}

/** DryRunRow counts the admitted decisions one dry-run limit would have refused in a step. */
export interface DryRunRow {
  startMs: number;
  customerId: number;
  operation: Operation;
  planId: number;
  source: LimitSource;
  limitCount: number;
  limitPeriodMs: number;
  refused: number;
}

/** UsageBatch is what one flush carries: counts and dry-run refusals, by minute. */
export interface UsageBatch {
  rows: UsageRow[];
  dryRun: DryRunRow[];
}

/**
 * COUNTERS are the additive fields of a UsageRow, in the order every encoding uses (a Redis
 * field names its counter by index: a new counter goes last, so old instances' fields still read).
 */
export const COUNTERS = [
  "allowed",
  "denied",
  "unavailable",
  "tokensRequested",
  "tokensTaken",
  "tooLarge",
] as const;

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
      into.allowed += row.allowed;
      into.denied += row.denied;
      into.unavailable += row.unavailable;
      into.tokensRequested += row.tokensRequested;
      into.tokensTaken += row.tokensTaken;
      into.tooLarge += row.tooLarge;
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
