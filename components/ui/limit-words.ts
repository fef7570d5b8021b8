// The words of a plan's or an override's limits once they may be quotas as well as token
// buckets: "10 per second, 100,000 per month; dry run: 5,000 per day (Europe/Berlin)". The words
// themselves are lib/format.ts's (describeLimit, describePolicyLimits) and the shapes
// lib/vocabulary.ts's: this file names them as the dashboard reads them. Pure.

import { describeLimit, describePolicyLimits } from "@/lib/format";
import {
  type AnyPolicyLimit,
  bucketsOf,
  isQuotaShape,
  type QuotaPeriod,
  type QuotaShape,
} from "@/lib/vocabulary";

export { bucketsOf, type QuotaShape };

/** AnyLimit is a bucket or a quota of a plan or an override, maybe dry-run. */
export type AnyLimit = AnyPolicyLimit;

/** isQuota tells a quota (a calendar `period`) from a token bucket (`periodMs`). */
export const isQuota = isQuotaShape;

/** QUOTA_PERIOD_WORDS name each calendar period as a limit's words do: "day", "week", "month". */
export const QUOTA_PERIOD_WORDS: Record<QuotaPeriod, string> = {
  day: "day",
  week: "week",
  month: "month",
};

/**
 * describeQuota writes a quota in words: "100,000 per month", with its zone when not UTC:
 * "5,000 per day (Europe/Berlin)". A month's start (each customer's billing day) is left to
 * the places that show one customer.
 */
export function describeQuota(quota: QuotaShape): string {
  return describeLimit(quota);
}

/**
 * describeAnyLimits writes one operation's limits in words, buckets shortest first then quotas
 * shortest first, the enforced ones before the dry-run ones: "10 per second, 100,000 per month;
 * dry run: 3 per hour". No limit at all is "unlimited".
 */
export function describeAnyLimits(limits: readonly AnyLimit[]): string {
  return describePolicyLimits(limits);
}
