// Reading the usage rollups; db/queries/usage-rollup.ts writes, folds and prunes them.
import { and, asc, eq, gte, inArray, lt, type SQL, sql } from "drizzle-orm";
import { DAY_MS, HOUR_MS, MINUTE_MS } from "../../lib/limiter/units";
import {
  type LimitSource,
  type Operation,
  USAGE_COUNTERS,
  type UsageCounter,
  type UsageCounts,
} from "../../lib/vocabulary";
import type { Tx } from "../client";
import {
  usageDays,
  usageDryRunHours,
  usageDryRunMinutes,
  usageHours,
  usageMinutes,
} from "../schema";

/** UsageTable names a rollup resolution: "minutes", "hours" or "days". */
export type UsageTable = "minutes" | "hours" | "days";

/** DryRunTable names a dry-run rollup resolution: "minutes" or "hours". */
export type DryRunTable = "minutes" | "hours";

/** USAGE_TABLES are the rollup tables, by resolution. */
export const USAGE_TABLES = { minutes: usageMinutes, hours: usageHours, days: usageDays } as const;
/** DRY_RUN_TABLES are the dry-run rollup tables, by resolution. */
export const DRY_RUN_TABLES = { minutes: usageDryRunMinutes, hours: usageDryRunHours } as const;

/** USAGE_STEP_MS is each rollup table's step: a row spans one minute, hour or UTC day. */
export const USAGE_STEP_MS: Readonly<Record<UsageTable, number>> = {
  minutes: MINUTE_MS,
  hours: HOUR_MS,
  days: DAY_MS,
};

/** UsageFilter narrows a usage query: a time range [fromMs, toMs) and optional dimensions. */
export interface UsageFilter {
  fromMs: number;
  toMs: number;
  customerId?: number;
  planId?: number;
  operation?: Operation;
}

/** UsageGroup names what an aggregate groups by. */
export type UsageGroup = "bucket" | "customer" | "plan" | "operation";

/** UsageAggregate is one group's sums; the grouped-by fields are set, the others 0 or "read". */
export interface UsageAggregate extends UsageCounts {
  bucket: number;
  customerId: number;
  planId: number;
  operation: Operation;
}

function usageWhere(
  t: typeof usageMinutes | typeof usageHours | typeof usageDays,
  f: UsageFilter,
): SQL | undefined {
  return and(
    gte(t.startMs, f.fromMs),
    lt(t.startMs, f.toMs),
    f.customerId === undefined ? undefined : eq(t.customerId, f.customerId),
    f.planId === undefined ? undefined : eq(t.planId, f.planId),
    f.operation === undefined ? undefined : eq(t.operation, f.operation),
  );
}

/** sumsOf selects the sum of each usage counter of a rollup table. */
function sumsOf(t: (typeof USAGE_TABLES)[UsageTable]): Record<UsageCounter, SQL<number>> {
  return Object.fromEntries(
    USAGE_COUNTERS.map((counter) => [counter, sql<number>`sum(${t[counter]})`]),
  ) as Record<UsageCounter, SQL<number>>;
}

/**
 * aggregateUsage sums a rollup table's rows that match the filter, grouped by any of: the
 * `bucketMs`-long step their start falls in (`bucket`), customer, plan, operation.
 */
export function aggregateUsage(
  tx: Tx,
  table: UsageTable,
  filter: UsageFilter,
  groupBy: readonly UsageGroup[],
  bucketMs: number = USAGE_STEP_MS[table],
): UsageAggregate[] {
  const t = USAGE_TABLES[table];
  const step = sql.raw(String(bucketMs));
  const bucket = sql<number>`${t.startMs} - ${t.startMs} % ${step}`;
  const columns = {
    bucket: groupBy.includes("bucket") ? bucket : sql<number>`0`,
    customerId: groupBy.includes("customer") ? t.customerId : sql<number>`0`,
    planId: groupBy.includes("plan") ? t.planId : sql<number>`0`,
    operation: groupBy.includes("operation") ? t.operation : sql<Operation>`'read'`,
    ...sumsOf(t),
  };
  const groups: SQL[] = [];
  if (groupBy.includes("bucket")) groups.push(bucket);
  if (groupBy.includes("customer")) groups.push(sql`${t.customerId}`);
  if (groupBy.includes("plan")) groups.push(sql`${t.planId}`);
  if (groupBy.includes("operation")) groups.push(sql`${t.operation}`);
  const query = tx.select(columns).from(t).where(usageWhere(t, filter));
  return (groups.length > 0 ? query.groupBy(...groups) : query).all() as UsageAggregate[];
}

/** TakenStep is one step's tokens taken by a customer for an operation (plans summed). */
export interface TakenStep {
  customerId: number;
  operation: Operation;
  startMs: number;
  tokensTaken: number;
}

/**
 * listTakenSteps returns, for the customers given, each step's tokens taken per operation,
 * ordered by customer, operation and time: the series the near-limit windows slide over. One
 * pass over the range (minute rows are keyed by time first), a few hundred customers at a time.
 */
export function listTakenSteps(
  tx: Tx,
  table: "minutes" | "hours",
  filter: UsageFilter,
  customerIds: readonly number[],
): TakenStep[] {
  const t = USAGE_TABLES[table];
  const out: TakenStep[] = [];
  for (let i = 0; i < customerIds.length; i += 500) {
    const some = customerIds.slice(i, i + 500);
    const rows = tx
      .select({
        customerId: t.customerId,
        operation: t.operation,
        startMs: t.startMs,
        tokensTaken: sql<number>`sum(${t.tokensTaken})`,
      })
      .from(t)
      .where(and(usageWhere(t, filter), inArray(t.customerId, some)))
      .groupBy(t.customerId, t.operation, t.startMs)
      .orderBy(asc(t.customerId), asc(t.operation), asc(t.startMs))
      .all();
    for (const row of rows) out.push(row);
  }
  return out;
}

/**
 * PeakBound is an upper bound on a customer's use: its largest step and its total, per
 * operation, with the decisions refused over the range.
 */
export interface PeakBound {
  customerId: number;
  operation: Operation;
  maxStepTaken: number;
  totalTaken: number;
  denied: number;
}

/**
 * listPeakBounds returns, per customer and operation with traffic in the filter, the most tokens
 * taken in one step and in all (no window of k steps can take more than min(total, k × max)),
 * and the decisions refused.
 */
export function listPeakBounds(
  tx: Tx,
  table: "minutes" | "hours",
  filter: UsageFilter,
): PeakBound[] {
  const t = USAGE_TABLES[table];
  const perStep = tx
    .select({
      customerId: t.customerId,
      operation: t.operation,
      taken: sql<number>`sum(${t.tokensTaken})`.as("taken"),
      denied: sql<number>`sum(${t.denied})`.as("denied"),
    })
    .from(t)
    .where(usageWhere(t, filter))
    .groupBy(t.customerId, t.operation, t.startMs)
    .as("per_step");
  return tx
    .select({
      customerId: perStep.customerId,
      operation: perStep.operation,
      maxStepTaken: sql<number>`max(${perStep.taken})`,
      totalTaken: sql<number>`sum(${perStep.taken})`,
      denied: sql<number>`sum(${perStep.denied})`,
    })
    .from(perStep)
    .groupBy(perStep.customerId, perStep.operation)
    .all();
}

/** DryRunAggregate is one dry-run limit's refusals for one customer over a range. */
export interface DryRunAggregate {
  customerId: number;
  planId: number;
  operation: Operation;
  source: LimitSource;
  limitCount: number;
  limitPeriodMs: number;
  refused: number;
}

/** DryRunFilter narrows dry-run refusals: a time range and optional plan, customer, source. */
export interface DryRunFilter {
  fromMs: number;
  toMs: number;
  planId?: number;
  customerId?: number;
  source?: LimitSource;
}

/** aggregateDryRun sums a dry-run table's refusals per customer, plan, operation and limit. */
export function aggregateDryRun(
  tx: Tx,
  table: DryRunTable,
  filter: DryRunFilter,
): DryRunAggregate[] {
  const t = DRY_RUN_TABLES[table];
  return tx
    .select({
      customerId: t.customerId,
      planId: t.planId,
      operation: t.operation,
      source: t.source,
      limitCount: t.limitCount,
      limitPeriodMs: t.limitPeriodMs,
      refused: sql<number>`sum(${t.refused})`,
    })
    .from(t)
    .where(
      and(
        gte(t.startMs, filter.fromMs),
        lt(t.startMs, filter.toMs),
        filter.planId === undefined ? undefined : eq(t.planId, filter.planId),
        filter.customerId === undefined ? undefined : eq(t.customerId, filter.customerId),
        filter.source === undefined ? undefined : eq(t.source, filter.source),
      ),
    )
    .groupBy(t.customerId, t.planId, t.operation, t.source, t.limitCount, t.limitPeriodMs)
    .all();
}
