import { sql } from "drizzle-orm";
import { check, index, integer, sqliteTable, text, unique } from "drizzle-orm/sqlite-core";
import { QUOTA_PERIODS } from "../../lib/vocabulary";
import { customers } from "./customers";
import { operationClasses } from "./operation-classes";

/**
 * limitOverrides replace a plan's limits for one customer and one operation. All rows of a
 * (customer, operation) share one optional expiry (ms since the epoch) after which the plan's
 * limits apply again.
 */
export const limitOverrides = sqliteTable(
  "limit_overrides",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    customerId: integer("customer_id")
      .notNull()
      .references(() => customers.id, { onDelete: "cascade" }),
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
    expiresAt: integer("expires_at"),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [
    check("limit_overrides_count_positive", sql`${t.count} > 0`),
    check("limit_overrides_period_positive", sql`${t.periodMs} > 0`),
    // A row is a bucket limit (period_ms) or a quota (quota_period and time_zone), never both.
    check("limit_overrides_kind", sql`(${t.periodMs} IS NULL) <> (${t.quotaPeriod} IS NULL)`),
    check("limit_overrides_quota_zone", sql`(${t.quotaPeriod} IS NULL) = (${t.timeZone} IS NULL)`),
    check("limit_overrides_quota_period", sql`${t.quotaPeriod} IN ('day', 'week', 'month')`),
    check("limit_overrides_dry_run", sql`${t.dryRun} IN (0, 1)`),
    index("limit_overrides_customer").on(t.customerId, t.operation),
    // Quotas: one per class, period and zone (bucket rows have a null quota_period: not covered).
    unique("limit_overrides_quota_unique").on(t.customerId, t.operation, t.quotaPeriod, t.timeZone),
  ],
);
