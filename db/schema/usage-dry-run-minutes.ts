import { index, primaryKey, sqliteTable } from "drizzle-orm/sqlite-core";
import { MINUTE_MS } from "../../lib/limiter/units";
import { dryRunChecks, dryRunCountColumns } from "./usage-columns";

/**
 * usageDryRunMinutes count, per minute, customer, operation and dry-run limit, the admitted
 * decisions that limit would have refused. Retained and folded like usage_minutes.
 */
export const usageDryRunMinutes = sqliteTable(
  "usage_dry_run_minutes",
  dryRunCountColumns(),
  (t) => [
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
    index("usage_dry_run_minutes_customer").on(t.customerId, t.startMs),
    ...dryRunChecks("usage_dry_run_minutes", t, MINUTE_MS),
  ],
);
