import { TIME_UNITS, type TimeUnit } from "@/lib/limiter";
import {
  type AnyPolicyLimit,
  isQuotaShape,
  type LimitShape,
  QUOTA_PERIODS,
  type QuotaShape,
} from "@/lib/vocabulary";

/**
 * countOf writes a count with its noun, singular for exactly one: (1, "token") -> "1 token",
 * (1500, "token") -> "1,500 tokens", (2, "entry", "entries") -> "2 entries". The one way to
 * pluralise, for the server's messages and the dashboard's (regressions: "1 tokens taken",
 * "1 days").
 */
export function countOf(n: number, one: string, many = `${one}s`): string {
  return `${n.toLocaleString("en-US")} ${n === 1 ? one : many}`;
}

/** describePeriod writes a period in words: 1000 -> "second", 120000 -> "2 minutes". */
export function describePeriod(periodMs: number): string {
  // Not a whole, non-negative number of ms: no unit can say it.
  if (!Number.isInteger(periodMs) || periodMs < 0) return `${periodMs} ms`;
  const { amount, unit } = splitPeriod(periodMs);
  const { one, many } = TIME_UNITS.find((u) => u.unit === unit) as (typeof TIME_UNITS)[number];
  return amount === 1 ? one : `${amount.toLocaleString("en-US")} ${many}`;
}

/**
 * describeLimit writes one limit in words: "10 per second", "500 per 5 minutes"; a quota
 * "100,000 per month", with its zone when not UTC: "1,000 per day (Europe/Berlin)".
 */
export function describeLimit(limit: LimitShape | QuotaShape): string {
  if (isQuotaShape(limit)) {
    const zone = limit.timeZone && limit.timeZone !== "UTC" ? ` (${limit.timeZone})` : "";
    return `${limit.count.toLocaleString("en-US")} per ${limit.period}${zone}`;
  }
  return `${limit.count.toLocaleString("en-US")} per ${describePeriod(limit.periodMs)}`;
}

/** byPeriod orders limits: buckets by period, then quotas by period (day, week, month). */
function byPeriod(a: LimitShape | QuotaShape, b: LimitShape | QuotaShape): number {
  if (isQuotaShape(a) || isQuotaShape(b)) {
    const rank = (l: LimitShape | QuotaShape) =>
      isQuotaShape(l) ? QUOTA_PERIODS.indexOf(l.period) : -1;
    return rank(a) - rank(b) || a.count - b.count;
  }
  return a.periodMs - b.periodMs || a.count - b.count;
}

/**
 * describeLimits writes limits in words, shortest period first, quotas last: "10 per second,
 * 500 per minute, 100,000 per month".
 */
export function describeLimits(limits: readonly (LimitShape | QuotaShape)[]): string {
  if (limits.length === 0) return "unlimited";
  return [...limits].sort(byPeriod).map(describeLimit).join(", ");
}

/**
 * describePolicyLimits writes a plan's or an override's limits of one operation in words, the
 * enforced ones first and the dry-run ones after them: "10 per second; dry run: 3 per hour"
 * (describeLimits alone when none is dry-run).
 */
export function describePolicyLimits(limits: readonly AnyPolicyLimit[]): string {
  const enforced = describeLimits(limits.filter((l) => !l.dryRun));
  const dryRun = limits.filter((l) => l.dryRun);
  return dryRun.length === 0 ? enforced : `${enforced}; dry run: ${describeLimits(dryRun)}`;
}

/** PERIOD_UNITS are the units a limit's period is edited in: every unit of time. */
export const PERIOD_UNITS = TIME_UNITS;

/** splitPeriod picks the largest unit that divides a period: 120000 -> { amount: 2, unit: "m" }. */
export function splitPeriod(periodMs: number): { amount: number; unit: TimeUnit } {
  for (let i = PERIOD_UNITS.length - 1; i >= 0; i--) {
    const u = PERIOD_UNITS[i] as (typeof PERIOD_UNITS)[number];
    if (periodMs % u.ms === 0) return { amount: periodMs / u.ms, unit: u.unit };
  }
  return { amount: periodMs, unit: "ms" };
}
