import { MINUTE_MS } from "../../lib/limiter/units";
import { dryRunTable } from "./usage-columns";

/**
 * usageDryRunMinutes count, per minute, customer, operation and dry-run limit, the admitted
 * decisions that limit would have refused. Retained and folded like usage_minutes.
 */
export const usageDryRunMinutes = dryRunTable("usage_dry_run_minutes", MINUTE_MS);
