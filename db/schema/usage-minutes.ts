import { index, primaryKey, sqliteTable } from "drizzle-orm/sqlite-core";
import { usageChecks, usageCountColumns } from "./usage-columns";

/**
 * usageMinutes are the per-minute rollups of decisions: one row per minute, customer, operation
 * and plan, with counts by outcome and tokens requested and taken. Kept for
 * USAGE_MINUTE_RETENTION_DAYS (7 by default), folded into usage_hours before they go.
 */
export const usageMinutes = sqliteTable("usage_minutes", usageCountColumns(), (t) => [
  primaryKey({ columns: [t.startMs, t.customerId, t.operation, t.planId] }),
  index("usage_minutes_customer").on(t.customerId, t.startMs),
  ...usageChecks("usage_minutes", t, 60_000),
]);
