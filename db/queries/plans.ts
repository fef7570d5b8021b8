import { and, asc, count, eq, isNotNull } from "drizzle-orm";
import type { PlanView, StoredLimit } from "../../lib/schemas/plan-answer.schema";
import {
  type AnyLimitRow,
  isQuotaShape,
  type Operation,
  QUOTA_PERIODS,
  type QuotaPeriod,
} from "../../lib/vocabulary";
import type { Tx } from "../client";
import { customers, planLimits, plans } from "../schema";

/** LimitColumns are the stored columns of a limit of either kind (plan_limits, limit_overrides). */
export interface LimitColumns {
  count: number;
  periodMs: number | null;
  quotaPeriod: QuotaPeriod | null;
  timeZone: string | null;
  dryRun: boolean;
}

/**
 * limitOfColumns reads stored columns as a limit: a quota (`period`, `timeZone`) when the row has
 * a quota period, else a bucket limit (`periodMs`); the CHECKs hold exactly one of them.
 */
export function limitOfColumns(
  row: LimitColumns,
):
  | { count: number; periodMs: number; dryRun: boolean }
  | { count: number; period: QuotaPeriod; timeZone: string; dryRun: boolean } {
  return row.quotaPeriod !== null
    ? {
        count: row.count,
        period: row.quotaPeriod,
        timeZone: row.timeZone ?? "UTC",
        dryRun: row.dryRun,
      }
    : { count: row.count, periodMs: row.periodMs ?? 0, dryRun: row.dryRun };
}

/** columnsOfLimit are the columns to store for a limit of either kind (a quota's zone: UTC if none). */
export function columnsOfLimit(
  limit:
    | { count: number; periodMs: number }
    | { count: number; period: QuotaPeriod; timeZone?: string },
): Pick<LimitColumns, "count" | "periodMs" | "quotaPeriod" | "timeZone"> {
  return isQuotaShape(limit)
    ? {
        count: limit.count,
        periodMs: null,
        quotaPeriod: limit.period,
        timeZone: limit.timeZone ?? "UTC",
      }
    : { count: limit.count, periodMs: limit.periodMs, quotaPeriod: null, timeZone: null };
}

/** limitOrder is where a limit sorts among its class's: buckets by period, then quotas by period and zone. */
export function limitOrder(
  a: { count: number; periodMs: number } | { count: number; period: QuotaPeriod; timeZone: string },
  b: { count: number; periodMs: number } | { count: number; period: QuotaPeriod; timeZone: string },
): number {
  const aQuota = isQuotaShape(a);
  const bQuota = isQuotaShape(b);
  if (aQuota !== bQuota) return aQuota ? 1 : -1;
  if (isQuotaShape(a) && isQuotaShape(b)) {
    return (
      QUOTA_PERIODS.indexOf(a.period) - QUOTA_PERIODS.indexOf(b.period) ||
      a.timeZone.localeCompare(b.timeZone) ||
      a.count - b.count
    );
  }
  if (!isQuotaShape(a) && !isQuotaShape(b)) return a.periodMs - b.periodMs || a.count - b.count;
  return 0;
}

function sortLimits(limits: StoredLimit[]): StoredLimit[] {
  return limits.sort(
    (a, b) =>
      a.operation.localeCompare(b.operation) ||
      Number(a.dryRun) - Number(b.dryRun) ||
      limitOrder(a, b),
  );
}

const limitColumns = {
  operation: planLimits.operation,
  count: planLimits.count,
  periodMs: planLimits.periodMs,
  quotaPeriod: planLimits.quotaPeriod,
  timeZone: planLimits.timeZone,
  dryRun: planLimits.dryRun,
};

/** listPlans returns every plan with its limits, by name. */
export function listPlans(tx: Tx): PlanView[] {
  const rows = tx.select().from(plans).orderBy(asc(plans.name)).all();
  const limitRows = tx.select().from(planLimits).all();
  return rows.map((plan) => ({
    ...plan,
    limits: sortLimits(
      limitRows
        .filter((l) => l.planId === plan.id)
        .map((l) => ({ operation: l.operation, ...limitOfColumns(l) })),
    ),
  }));
}

/** getPlan returns one plan with its limits, or undefined. */
export function getPlan(tx: Tx, id: number): PlanView | undefined {
  const plan = tx.select().from(plans).where(eq(plans.id, id)).get();
  if (!plan) return undefined;
  const limits = tx
    .select(limitColumns)
    .from(planLimits)
    .where(eq(planLimits.planId, id))
    .all()
    .map((l) => ({ operation: l.operation, ...limitOfColumns(l) }));
  return { ...plan, limits: sortLimits(limits) };
}

/** getPlanBySlug returns the plan with that slug, or undefined. */
export function getPlanBySlug(tx: Tx, slug: string): PlanView | undefined {
  const plan = tx.select({ id: plans.id }).from(plans).where(eq(plans.slug, slug)).get();
  return plan ? getPlan(tx, plan.id) : undefined;
}

/** insertPlan creates a plan with its limits and returns it. */
export function insertPlan(
  tx: Tx,
  values: { slug: string; name: string; description: string; limits: AnyLimitRow[] },
  now: number,
): PlanView {
  const plan = tx
    .insert(plans)
    .values({
      slug: values.slug,
      name: values.name,
      description: values.description,
      createdAt: now,
      updatedAt: now,
    })
    .returning()
    .get();
  replacePlanLimits(tx, plan.id, values.limits, now);
  return getPlan(tx, plan.id) as PlanView;
}

/** updatePlanRow changes a plan's own fields. */
export function updatePlanRow(
  tx: Tx,
  id: number,
  values: { slug?: string; name?: string; description?: string },
  now: number,
): void {
  tx.update(plans)
    .set({ ...values, updatedAt: now })
    .where(eq(plans.id, id))
    .run();
}

/**
 * replacePlanLimits replaces all of a plan's limits at `now` (ms): a dry-run limit the plan
 * already had keeps its `dryRunSince`, a new one starts at `now`.
 */
export function replacePlanLimits(
  tx: Tx,
  planId: number,
  limits: AnyLimitRow[],
  now: number,
): void {
  const since = dryRunSinceOf(listPlanDryRunSince(tx, planId));
  tx.delete(planLimits).where(eq(planLimits.planId, planId)).run();
  if (limits.length > 0) {
    tx.insert(planLimits)
      .values(
        limits.map((l) => ({
          planId,
          operation: l.operation,
          ...columnsOfLimit(l),
          dryRun: l.dryRun ?? false,
          // Only bucket limits may be dry-run (quota rows refuse it: QUOTA_DRY_RUN_RULE).
          dryRunSince: l.dryRun && !isQuotaShape(l) ? (since.get(dryRunKey(l)) ?? now) : null,
        })),
      )
      .run();
  }
}

/** DryRunSince is when a stored dry-run limit became dry-run (ms), or null if not recorded. */
export interface DryRunSince {
  operation: Operation;
  count: number;
  periodMs: number;
  dryRunSince: number | null;
}

/** dryRunKey names a limit of an operation: "read|5|1000". */
export function dryRunKey(l: { operation: Operation; count: number; periodMs: number }): string {
  return `${l.operation}|${l.count}|${l.periodMs}`;
}

/** dryRunSinceOf indexes dry-run limits' times by `dryRunKey`, the recorded ones only. */
export function dryRunSinceOf(rows: readonly DryRunSince[]): Map<string, number> {
  const since = new Map<string, number>();
  for (const row of rows) if (row.dryRunSince !== null) since.set(dryRunKey(row), row.dryRunSince);
  return since;
}

/** listPlanDryRunSince returns when each of a plan's dry-run (bucket) limits became dry-run. */
export function listPlanDryRunSince(tx: Tx, planId: number): DryRunSince[] {
  return tx
    .select({
      operation: planLimits.operation,
      count: planLimits.count,
      periodMs: planLimits.periodMs,
      dryRunSince: planLimits.dryRunSince,
    })
    .from(planLimits)
    .where(
      and(
        eq(planLimits.planId, planId),
        eq(planLimits.dryRun, true),
        isNotNull(planLimits.periodMs),
      ),
    )
    .all()
    .map((row) => ({ ...row, periodMs: row.periodMs ?? 0 }));
}

/**
 * countCustomersByPlan returns how many customers each plan has (a plan with none is absent), in
 * one grouped count; only `planId`'s when given.
 */
export function countCustomersByPlan(tx: Tx, planId?: number): Map<number, number> {
  const rows = tx
    .select({ planId: customers.planId, n: count() })
    .from(customers)
    .where(planId === undefined ? undefined : eq(customers.planId, planId))
    .groupBy(customers.planId)
    .all();
  return new Map(rows.map((row) => [row.planId, row.n]));
}

/** countCustomersOnPlan returns how many customers a plan has. */
export function countCustomersOnPlan(tx: Tx, planId: number): number {
  return countCustomersByPlan(tx, planId).get(planId) ?? 0;
}

/**
 * promotePlanDryRun makes a plan's dry-run limits enforced (those of one operation, if given) and
 * returns how many it changed.
 */
export function promotePlanDryRun(tx: Tx, planId: number, operation?: Operation): number {
  const where = and(
    eq(planLimits.planId, planId),
    eq(planLimits.dryRun, true),
    operation ? eq(planLimits.operation, operation) : undefined,
  );
  return tx.update(planLimits).set({ dryRun: false, dryRunSince: null }).where(where).run().changes;
}

/** deletePlanRow deletes a plan (its limits cascade). */
export function deletePlanRow(tx: Tx, id: number): void {
  tx.delete(plans).where(eq(plans.id, id)).run();
}
