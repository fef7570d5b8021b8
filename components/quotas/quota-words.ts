// The words of a customer's quota as it stands (used of its count, what is left, when it resets),
// shared by the customer's Quotas card and the near-limit list. Pure: tested without a browser.
// Times are written in the operator's zone (the browser's) unless a `viewZone` is given.

import { ordinalDay } from "@/components/customers/billing-day";
import { QUOTA_PERIOD_WORDS } from "@/components/ui/limit-words";
import { formatDateMinute } from "@/lib/time-format";
import type { QuotaPeriod } from "@/lib/vocabulary";

/** QuotaUse is a quota's use in its current period, as the inspect and near-limit answers give it. */
export interface QuotaUse {
  period: QuotaPeriod;
  timeZone: string;
  /** anchorDay is the customer's billing day: months start on it (absent for days and weeks). */
  anchorDay?: number;
  count: number;
  granted: number;
  used: number;
  periodStartMs: number;
  periodEndMs: number;
}

/** quotaTotal is what a quota admits this period: its count and what was granted for it. */
export function quotaTotal(q: Pick<QuotaUse, "count" | "granted">): number {
  return q.count + q.granted;
}

/** quotaShare is how much of this period's total is used, from 0 to 1 (1 when used up). */
export function quotaShare(q: Pick<QuotaUse, "count" | "granted" | "used">): number {
  const total = quotaTotal(q);
  return total > 0 ? Math.min(1, q.used / total) : 1;
}

/** quotaRemaining is what is left of this period's total, never below 0. */
export function quotaRemaining(q: Pick<QuotaUse, "count" | "granted" | "used">): number {
  return Math.max(0, quotaTotal(q) - q.used);
}

/** QuotaTone says how near a quota is to used up: ok below 80%, warn from 80%, bad when used up. */
export type QuotaTone = "ok" | "warn" | "bad";

/** quotaTone is a quota's tone (QuotaTone) for its bar and badge. */
export function quotaTone(q: Pick<QuotaUse, "count" | "granted" | "used">): QuotaTone {
  if (quotaRemaining(q) === 0) return "bad";
  return quotaShare(q) >= 0.8 ? "warn" : "ok";
}

/** thisPeriod names a quota's current period: "today", "this week", "this month". */
export function thisPeriod(period: QuotaPeriod): string {
  return period === "day" ? "today" : `this ${QUOTA_PERIOD_WORDS[period]}`;
}

const n = (value: number) => value.toLocaleString("en-US");

/**
 * describeUsed says how much of a quota is used: "92,000 of 100,000 used", with what was granted
 * named: "92,000 of 105,000 used (100,000 + 5,000 granted)".
 */
export function describeUsed(q: Pick<QuotaUse, "count" | "granted" | "used">): string {
  const used = `${n(q.used)} of ${n(quotaTotal(q))} used`;
  return q.granted > 0 ? `${used} (${n(q.count)} + ${n(q.granted)} granted)` : used;
}

/** describeRemaining says what is left: "8,000 left", "none left". */
export function describeRemaining(q: Pick<QuotaUse, "count" | "granted" | "used">): string {
  const left = quotaRemaining(q);
  return left === 0 ? "none left" : `${n(left)} left`;
}

/** describeReset says when a quota starts again, to the minute in the operator's zone. */
export function describeReset(q: Pick<QuotaUse, "periodEndMs">, viewZone?: string): string {
  return `resets at ${formatDateMinute(q.periodEndMs, viewZone)}`;
}

/**
 * describeCalendar says how a quota's periods are counted: "billing day 14th, Europe/Berlin" for a
 * month, "days from midnight, UTC", "weeks from Monday, America/New_York".
 */
export function describeCalendar(q: Pick<QuotaUse, "period" | "timeZone" | "anchorDay">): string {
  if (q.period === "month") {
    const day = q.anchorDay === undefined ? "each customer's billing day" : ordinalDay(q.anchorDay);
    return `billing day ${day}, ${q.timeZone}`;
  }
  return `${q.period === "day" ? "days from midnight" : "weeks from Monday"}, ${q.timeZone}`;
}

/**
 * describeUsedUp says what happens while a quota is used up, until it resets: refused, or for a
 * dry-run quota only counted. Undefined while something is left.
 */
export function describeUsedUp(
  q: Pick<QuotaUse, "count" | "granted" | "used" | "periodEndMs">,
  dryRun: boolean,
  viewZone?: string,
): string | undefined {
  if (quotaRemaining(q) > 0) return undefined;
  const until = formatDateMinute(q.periodEndMs, viewZone);
  return dryRun
    ? `Used up: a dry run, so requests are counted, not refused, until ${until}`
    : `Used up: requests are refused until ${until}`;
}

/**
 * describeNearQuota is the near-limit list's words for a quota: "92% of 100,000 this month", the
 * total with what was granted ("… of 105,000 …").
 */
export function describeNearQuota(
  q: Pick<QuotaUse, "count" | "granted" | "used" | "period">,
): string {
  return `${Math.floor(quotaShare(q) * 100)}% of ${n(quotaTotal(q))} ${thisPeriod(q.period)}`;
}
