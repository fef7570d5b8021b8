import { sql } from "drizzle-orm";
import { check, index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { QUOTA_PERIODS } from "../../lib/vocabulary";
import { customers } from "./customers";

/**
 * quotaGrants give one customer `extra` more of one quota (an operation class's quota per
 * calendar `period` in `timeZone`) for the one period that starts at `periodStartMs` (ms since
 * the epoch). Grants for the same period add up; a grant never outlives its customer. Times are
 * ms since the epoch; `createdBy` is the operator who granted it.
 */
export const quotaGrants = sqliteTable(
  "quota_grants",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    customerId: integer("customer_id")
      .notNull()
      .references(() => customers.id, { onDelete: "cascade" }),
    operation: text("operation").notNull(),
    period: text("period", { enum: QUOTA_PERIODS }).notNull(),
    timeZone: text("time_zone").notNull(),
    periodStartMs: integer("period_start_ms").notNull(),
    extra: integer("extra").notNull(),
    /** note says why it was granted, for the operators who read the list (may be empty). */
    note: text("note").notNull().default(""),
    createdAt: integer("created_at").notNull(),
    createdBy: text("created_by").notNull(),
  },
  (t) => [
    check("quota_grants_period", sql`${t.period} IN ('day', 'week', 'month')`),
    check("quota_grants_extra_positive", sql`${t.extra} > 0`),
    index("quota_grants_customer").on(t.customerId, t.id),
    // The policy reads only the grants of periods that may still be current, on every rebuild.
    index("quota_grants_period_start").on(t.periodStartMs),
  ],
);
