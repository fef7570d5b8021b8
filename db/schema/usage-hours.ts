import { index, primaryKey, sqliteTable } from "drizzle-orm/sqlite-core";
import { HOUR_MS } from "../../lib/limiter/units";
import { usageChecks, usageCountColumns } from "./usage-columns";

/**
 * usageHours are the per-hour rollups, folded from usage_minutes: every hour before the fold's
 * watermark (the setting "usage.folded_through_ms") is complete here. Kept for
 * USAGE_HOUR_RETENTION_DAYS (90 by default).
 */
export const usageHours = sqliteTable("usage_hours", usageCountColumns(), (t) => [
  primaryKey({ columns: [t.startMs, t.customerId, t.operation, t.planId] }),
  index("usage_hours_customer").on(t.customerId, t.startMs),
  ...usageChecks("usage_hours", t, HOUR_MS),
]);
