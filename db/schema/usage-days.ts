import { index, primaryKey, sqliteTable } from "drizzle-orm/sqlite-core";
import { DAY_MS } from "../../lib/limiter/units";
import { usageChecks, usageCountColumns } from "./usage-columns";

/**
 * usageDays are the per-day (UTC) rollups, folded from usage_hours: every day before the day
 * fold's watermark (the setting "usage.days_folded_through_ms") is complete here. They answer
 * long ranges (a month of the fleet) from a few rows per customer. Kept as long as hour rows.
 */
export const usageDays = sqliteTable("usage_days", usageCountColumns(), (t) => [
  primaryKey({ columns: [t.startMs, t.customerId, t.operation, t.planId] }),
  index("usage_days_customer").on(t.customerId, t.startMs),
  ...usageChecks("usage_days", t, DAY_MS),
]);
