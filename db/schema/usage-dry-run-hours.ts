import { index, primaryKey, sqliteTable } from "drizzle-orm/sqlite-core";
import { HOUR_MS } from "../../lib/limiter/units";
import { dryRunChecks, dryRunCountColumns } from "./usage-columns";

/** usageDryRunHours are usage_dry_run_minutes folded by hour, retained like usage_hours. */
export const usageDryRunHours = sqliteTable("usage_dry_run_hours", dryRunCountColumns(), (t) => [
  primaryKey({
    columns: [
      t.startMs,
      t.customerId,
      t.operation,
      t.source,
      t.limitCount,
      t.limitPeriodMs,
      t.planId,
    ],
  }),
  index("usage_dry_run_hours_customer").on(t.customerId, t.startMs),
  ...dryRunChecks("usage_dry_run_hours", t, HOUR_MS),
]);
