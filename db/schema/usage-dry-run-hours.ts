import { HOUR_MS } from "../../lib/limiter/units";
import { dryRunTable } from "./usage-columns";

/** usageDryRunHours are usage_dry_run_minutes folded by hour, retained like usage_hours. */
export const usageDryRunHours = dryRunTable("usage_dry_run_hours", HOUR_MS);
