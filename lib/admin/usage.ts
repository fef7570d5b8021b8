import type { z } from "zod";
import type { Db } from "@/db/client";
import { listCustomers } from "@/db/queries/customers";
import { countCustomersByPlan, listPlans } from "@/db/queries/plans";
import { countOf } from "@/lib/format";
import type { Clock } from "@/lib/limiter";
import type { PolicyStore } from "@/lib/policy/policy-store";
import type { CustomerView } from "@/lib/schemas/customer-answer.schema";
import type {
  topCustomersQuerySchema,
  UsageFiltersInput,
  UsageQueryInput,
} from "@/lib/schemas/usage.schema";
import type {
  CustomerUsage,
  NamedCustomerUsage,
  PlansUsageAnswer,
  PlanUsage,
  PlanUsageView,
  TopCustomersAnswer,
  UsageAnswer,
} from "@/lib/schemas/usage-answer.schema";
import { customerUsage, planUsage, topCustomers } from "@/lib/usage/rankings";
import { DAY_MS } from "@/lib/usage/time";
import {
  finestGranularity,
  MAX_POINTS,
  pointsIn,
  STEP_MS,
  usageReport,
} from "@/lib/usage/usage-report";
import type { UsageSettings } from "@/lib/usage/usage-settings";
import { zeroCounts } from "@/lib/vocabulary";
import type { Outcome } from "./plans";
import { type Range, resolveRange } from "./usage-range";

/** UsageContext is what the usage services read: the database, the policy, the clock, settings. */
export interface UsageContext {
  db: Db;
  clock: Clock;
  policy: PolicyStore;
  usageSettings: UsageSettings;
}

/** DEFAULT_SPAN_MS: a usage question without `from` covers the last 24 hours. */
export const DEFAULT_SPAN_MS = DAY_MS;
/** MAX_SPAN_MS bounds series, rankings and aggregates (a daily series of 400 points at most). */
const MAX_SPAN_MS = 400 * DAY_MS;
/** MAX_DETAIL_SPAN_MS bounds what reads rows customer by customer: the CSV, near-limit, dry run. */
export const MAX_DETAIL_SPAN_MS = 93 * DAY_MS;

/**
 * detailRange resolves the range of a question read customer by customer (near-limit, dry run):
 * `to` by `now` (ms), the last DEFAULT_SPAN_MS by default, MAX_DETAIL_SPAN_MS at most.
 */
export function detailRange(input: { from?: number; to?: number }, now: number): Outcome<Range> {
  return resolveRange(input, now, DEFAULT_SPAN_MS, MAX_DETAIL_SPAN_MS);
}

/** minutesFrom is the earliest instant (ms) whose minute rows the retention guarantees. */
export function minutesFrom(ctx: UsageContext): number {
  return ctx.clock.now() - ctx.usageSettings.minuteRetentionDays * DAY_MS;
}

function invalid(field: string, message: string): Outcome<never> {
  return { ok: false, status: 400, title: "Invalid request", errors: { [field]: [message] } };
}

/**
 * usageSeries answers a usage query: series and totals over the range (default the last 24 h),
 * at the granularity asked, or the finest that fits MAX_POINTS points (minutes only while minute
 * rows are kept). An explicit granularity that does not fit is refused, never truncated.
 */
export function usageSeries(ctx: UsageContext, input: UsageQueryInput): Outcome<UsageAnswer> {
  const now = ctx.clock.now();
  const range = resolveRange(input, now, DEFAULT_SPAN_MS, MAX_SPAN_MS);
  if (!range.ok) return range;
  const { fromMs, toMs } = range.value;
  const minutesFromMs = minutesFrom(ctx);
  const days = ctx.usageSettings.minuteRetentionDays;
  let granularity = input.granularity;
  if (granularity === "minute" && fromMs < minutesFromMs) {
    return invalid(
      "granularity",
      `Minute rows are kept ${countOf(days, "day")}: choose hour or day, or a later from`,
    );
  }
  if (granularity !== undefined) {
    const points = pointsIn(fromMs, toMs, STEP_MS[granularity]);
    if (points > MAX_POINTS) {
      return invalid(
        "granularity",
        `That range holds ${points} ${granularity}s; a series has at most ${MAX_POINTS} points: choose a coarser granularity`,
      );
    }
  }
  granularity ??= finestGranularity(fromMs, toMs, minutesFromMs);
  if (granularity === undefined) return invalid("from", "The range is too long for a series");
  const report = usageReport(
    ctx.db,
    {
      fromMs,
      toMs,
      granularity,
      customerId: input.customerId,
      planId: input.planId,
      operation: input.operation,
    },
    minutesFromMs,
  );
  return {
    ok: true,
    value: { ...report, now, flushIntervalMs: ctx.usageSettings.flushIntervalMs },
  };
}

/** namesOf maps every customer's id to its view (name, current plan). */
export function namesOf(db: Db): Map<number, CustomerView> {
  return new Map(listCustomers(db).map((c) => [c.id, c]));
}

/** customerName is customer `id`'s name in `names`, or "Customer #<id>" once it is deleted. */
export function customerName(names: Map<number, CustomerView>, id: number): string {
  return names.get(id)?.name ?? `Customer #${id}`;
}

function named(
  rows: readonly CustomerUsage[],
  names: Map<number, CustomerView>,
): NamedCustomerUsage[] {
  return rows.map((row) => {
    const c = names.get(row.customerId);
    return {
      ...row,
      name: customerName(names, row.customerId),
      planId: c?.planId ?? null,
      planSlug: c?.planSlug ?? null,
      planName: c?.planName ?? null,
    };
  });
}

/** topCustomerUsage ranks customers by denials and by usage over the range (default 24 h). */
export function topCustomerUsage(
  ctx: UsageContext,
  input: z.infer<typeof topCustomersQuerySchema>,
): Outcome<TopCustomersAnswer> {
  const range = resolveRange(input, ctx.clock.now(), DEFAULT_SPAN_MS, MAX_SPAN_MS);
  if (!range.ok) return range;
  const rows = customerUsage(ctx.db, { ...input, ...range.value }, minutesFrom(ctx));
  const top = topCustomers(rows, input.limit ?? 10);
  const names = namesOf(ctx.db);
  return {
    ok: true,
    value: {
      ...range.value,
      byDenials: named(top.byDenials, names),
      byUsage: named(top.byUsage, names),
    },
  };
}

/**
 * plansUsage aggregates each plan's traffic over the range (default 24 h): every plan there is,
 * and any since deleted that still has traffic in the range.
 */
export function plansUsage(ctx: UsageContext, input: UsageFiltersInput): Outcome<PlansUsageAnswer> {
  const range = resolveRange(input, ctx.clock.now(), DEFAULT_SPAN_MS, MAX_SPAN_MS);
  if (!range.ok) return range;
  const usage = new Map(
    planUsage(ctx.db, { ...input, ...range.value }, minutesFrom(ctx)).map((p) => [p.planId, p]),
  );
  const counts = countCustomersByPlan(ctx.db);
  const empty = (planId: number): PlanUsage => ({
    planId,
    ...zeroCounts(),
    activeCustomers: 0,
    refusedCustomers: 0,
  });
  const plans: PlanUsageView[] = listPlans(ctx.db)
    .filter((p) => input.planId === undefined || p.id === input.planId)
    .map((p) => ({
      ...(usage.get(p.id) ?? empty(p.id)),
      slug: p.slug,
      name: p.name,
      customers: counts.get(p.id) ?? 0,
    }));
  for (const [planId, u] of usage) {
    if (plans.some((p) => p.planId === planId)) continue;
    plans.push({ ...u, slug: null, name: `Deleted plan #${planId}`, customers: 0 });
  }
  return { ok: true, value: { ...range.value, plans } };
}
