import { primaryKey, sqliteTable } from "drizzle-orm/sqlite-core";
import { MINUTE_MS } from "../../lib/limiter/units";
import { usageChecks, usageCountColumns } from "./usage-columns";

/**
 * usageMinutes are the per-minute rollups of decisions: one row per minute, customer, operation
 * and plan, with counts by outcome and tokens requested and taken. Kept for
 * USAGE_MINUTE_RETENTION_DAYS (7 by default), folded into usage_hours before they go.
 *
 * Time leads the key, and there is no index by customer: a flush writes a row for every active
 * customer, and an index by customer, whose pages those rows scatter over, cost two thirds of a
 * flush (bench/usage.ts). A customer's minutes are read by time range, the customer checked in
 * the key; deleting a customer scans the table once.
 */
export const usageMinutes = sqliteTable("usage_minutes", usageCountColumns(), (t) => [
  primaryKey({ columns: [t.startMs, t.customerId, t.operation, t.planId] }),
  ...usageChecks("usage_minutes", t, MINUTE_MS),
]);
