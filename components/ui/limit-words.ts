// The words of a plan's or an override's limits once they may be quotas as well as token
// buckets: "10 per second, 100,000 per month; dry run: 5,000 per day (Europe/Berlin)". Pure.

import { describeLimits } from "@/lib/format";
import type { LimitShape, QuotaPeriod } from "@/lib/vocabulary";

/** QuotaShape is a quota as the dashboard reads it: `count` per calendar `period` of `timeZone`. */
export interface QuotaShape {
  count: number;
  period: QuotaPeriod;
  /** timeZone is an IANA name; absent means UTC. */
  timeZone?: string;
}

/** AnyLimit is a bucket or a quota of a plan or an override, maybe dry-run. */
export type AnyLimit = (LimitShape | QuotaShape) & { dryRun?: boolean };

/** isQuota tells a quota (a calendar `period`) from a token bucket (`periodMs`). */
export function isQuota(limit: LimitShape | QuotaShape): limit is QuotaShape {
  return "period" in limit;
}

/** QUOTA_PERIOD_WORDS name each calendar period as a limit's words do: "day", "week", "month". */
export const QUOTA_PERIOD_WORDS: Record<QuotaPeriod, string> = {
  day: "day",
  week: "week",
  month: "month",
};

/** QUOTA_PERIOD_ORDER sorts quotas shortest period first. */
const QUOTA_PERIOD_ORDER: Record<QuotaPeriod, number> = { day: 0, week: 1, month: 2 };

/**
 * describeQuota writes a quota in words: "100,000 per month", with its zone when not UTC:
 * "5,000 per day (Europe/Berlin)". A month's start (each customer's billing day) is left to
 * the places that show one customer.
 */
export function describeQuota(quota: QuotaShape): string {
  const zone = quota.timeZone && quota.timeZone !== "UTC" ? ` (${quota.timeZone})` : "";
  return `${quota.count.toLocaleString("en-US")} per ${QUOTA_PERIOD_WORDS[quota.period]}${zone}`;
}

function describeSome(limits: readonly AnyLimit[]): string {
  const buckets = limits.filter((l): l is LimitShape => !isQuota(l));
  const quotas = limits
    .filter(isQuota)
    .sort(
      (a, b) => QUOTA_PERIOD_ORDER[a.period] - QUOTA_PERIOD_ORDER[b.period] || a.count - b.count,
    )
    .map(describeQuota);
  if (buckets.length === 0) return quotas.length === 0 ? "unlimited" : quotas.join(", ");
  return [describeLimits(buckets), ...quotas].join(", ");
}

/**
 * describeAnyLimits writes one operation's limits in words, buckets shortest first then quotas
 * shortest first, the enforced ones before the dry-run ones: "10 per second, 100,000 per month;
 * dry run: 3 per hour". No limit at all is "unlimited".
 */
export function describeAnyLimits(limits: readonly AnyLimit[]): string {
  const enforced = describeSome(limits.filter((l) => !l.dryRun));
  const dryRun = limits.filter((l) => l.dryRun);
  return dryRun.length === 0 ? enforced : `${enforced}; dry run: ${describeSome(dryRun)}`;
}

/** bucketsOf keeps a list's token buckets: what the bucket views (charts, simulator) can draw. */
export function bucketsOf<L extends LimitShape | QuotaShape>(
  limits: readonly L[],
): Extract<L, LimitShape>[] {
  return limits.filter((l) => !isQuota(l)) as Extract<L, LimitShape>[];
}
