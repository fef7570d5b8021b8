import { sql } from "drizzle-orm";
import { check, index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
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
    periodMs: integer("period_ms").notNull(),
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
    check("limit_overrides_dry_run", sql`${t.dryRun} IN (0, 1)`),
    index("limit_overrides_customer").on(t.customerId, t.operation),
  ],
);
