import { sql } from "drizzle-orm";
import { check, index, integer, sqliteTable, text, unique } from "drizzle-orm/sqlite-core";
import { QUOTA_PERIODS } from "../../lib/vocabulary";
import { operationClasses } from "./operation-classes";
import { plans } from "./plans";

/** planLimits are a plan's limits: several per operation (a burst and a sustained one, say). */
export const planLimits = sqliteTable(
  "plan_limits",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    planId: integer("plan_id")
      .notNull()
      .references(() => plans.id, { onDelete: "cascade" }),
    operation: text("operation")
      .notNull()
      .references(() => operationClasses.name, { onDelete: "restrict" }),
    count: integer("count").notNull(),
    /** periodMs is a bucket limit's period (ms); null for a quota. */
    periodMs: integer("period_ms"),
    /** quotaPeriod is a quota's calendar period (day, week, month); null for a bucket limit. */
    quotaPeriod: text("quota_period", { enum: QUOTA_PERIODS }),
    /** timeZone is a quota's IANA time zone, as validated; null for a bucket limit. */
    timeZone: text("time_zone"),
    /** dryRun: evaluated and counted on every admitted decision, never refusing (0 or 1). */
    dryRun: integer("dry_run", { mode: "boolean" }).notNull().default(false),
    /**
     * dryRunSince is when the limit became dry-run (ms since the epoch): what its dry-run report
     * counts from. Null while it is enforced. Kept when the limits are saved again unchanged.
     */
    dryRunSince: integer("dry_run_since"),
  },
  (t) => [
    check("plan_limits_count_positive", sql`${t.count} > 0`),
    check("plan_limits_period_positive", sql`${t.periodMs} > 0`),
    // A row is a bucket limit (period_ms) or a quota (quota_period and time_zone), never both.
    check("plan_limits_kind", sql`(${t.periodMs} IS NULL) <> (${t.quotaPeriod} IS NULL)`),
    check("plan_limits_quota_zone", sql`(${t.quotaPeriod} IS NULL) = (${t.timeZone} IS NULL)`),
    check("plan_limits_quota_period", sql`${t.quotaPeriod} IN ('day', 'week', 'month')`),
    check("plan_limits_dry_run", sql`${t.dryRun} IN (0, 1)`),
    unique("plan_limits_unique").on(t.planId, t.operation, t.count, t.periodMs),
    // Quotas: one per class, period and zone (their period_ms is null, which the above ignores).
    unique("plan_limits_quota_unique").on(t.planId, t.operation, t.quotaPeriod, t.timeZone),
    index("plan_limits_plan").on(t.planId),
  ],
);
