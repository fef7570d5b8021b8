import type { QuotaPeriod } from "@/lib/vocabulary";
import type { CustomerPolicy } from "./snapshot";

/**
 * GRANT_LOOKBACK_MS is how far back from the time it is read a snapshot carries grants, by
 * their period's start: 32 days, longer than any month plus any time zone's offset, so a grant
 * is carried as long as its period may be current, and no longer.
 */
export const GRANT_LOOKBACK_MS = 32 * 86_400_000;

/**
 * grantKey names one quota's period for a grant: "exports|month|Europe/Paris|1798761600000"
 * (the operation class, the calendar period, the IANA time zone, the period's start in ms).
 */
export function grantKey(
  operation: string,
  period: QuotaPeriod,
  timeZone: string,
  periodStartMs: number,
): string {
  return `${operation}|${period}|${timeZone}|${periodStartMs}`;
}

/**
 * grantedExtra is how much more of a quota a customer was granted for the period that starts at
 * `periodStartMs` (ms): 0 without a grant.
 */
export function grantedExtra(
  customer: CustomerPolicy,
  operation: string,
  period: QuotaPeriod,
  timeZone: string,
  periodStartMs: number,
): number {
  return customer.grants.get(grantKey(operation, period, timeZone, periodStartMs)) ?? 0;
}
