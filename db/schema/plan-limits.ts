import { sql } from "drizzle-orm";
import { check, index, integer, sqliteTable, text, unique } from "drizzle-orm/sqlite-core";
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
    periodMs: integer("period_ms").notNull(),
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
    check("plan_limits_dry_run", sql`${t.dryRun} IN (0, 1)`),
    unique("plan_limits_unique").on(t.planId, t.operation, t.count, t.periodMs),
    index("plan_limits_plan").on(t.planId),
  ],
);
