import type { CountPoint } from "@/components/charts/rebin";
import type { NearLimitView, UsageSeries } from "@/lib/client/types";
import { countOf, describeLimit, describePeriod } from "@/lib/format";
import { decisionsOf, type LimitShape, type OutcomeCounts } from "@/lib/vocabulary";

/** UsageBarPoint is one step's decisions over every operation shown, with the tokens taken. */
export interface UsageBarPoint extends CountPoint {
  tokensTaken: number;
}

/**
 * combineSeries adds the series of several operations step by step (they share their steps):
 * allowed, denied and tokens taken per step start `t`. Unavailable decisions (503) are not
 * drawn; the totals count them.
 */
export function combineSeries(series: readonly UsageSeries[]): UsageBarPoint[] {
  const byT = new Map<number, UsageBarPoint>();
  for (const s of series) {
    for (const p of s.points) {
      const point = byT.get(p.t) ?? { t: p.t, allowed: 0, denied: 0, tokensTaken: 0 };
      point.allowed += p.allowed;
      point.denied += p.denied;
      point.tokensTaken += p.tokensTaken;
      byT.set(p.t, point);
    }
  }
  return [...byT.values()].sort((a, b) => a.t - b.t);
}

/**
 * allowancePerStep is what the tightest of the limits refills in one step, count · step / period
 * (tokens, maybe fractional), or null with no limits: the line a step's tokens are drawn against.
 */
export function allowancePerStep(limits: readonly LimitShape[], stepMs: number): number | null {
  if (limits.length === 0) return null;
  return Math.min(...limits.map((l) => (l.count * stepMs) / l.periodMs));
}

/** formatAllowance writes tokens per step for the chart's key: 100, 1.5, 0.02 -> "0.02". */
export function formatAllowance(tokens: number): string {
  if (tokens >= 100) return Math.round(tokens).toLocaleString("en-US");
  return String(Number(tokens.toPrecision(3)));
}

/**
 * formatNearShare writes a near-limit share (0 to 1: how far a bucket was drained) as a whole
 * percentage, rounded to the nearest, but never 100% unless the bucket was drained, nor more:
 * 0.8 -> "80%", 0.6667 -> "67%", 0.996 -> "99%", 1 -> "100%", 1.25 -> "100%".
 */
export function formatNearShare(share: number): string {
  if (share >= 1) return "100%";
  return `${Math.min(99, Math.round(share * 100))}%`;
}

/** PeakNearLimitView is a near-limit finding by a replayed bucket. */
type PeakNearLimitView = Extract<NearLimitView, { kind: "peak" }>;

/**
 * describeNearLimit says how deep a customer drained a limit's bucket in words: "Drained to 0 of
 * 3 tokens (3 per second)", "Down to 2 of 10 tokens (10 per hour)".
 */
export function describeNearLimit(n: Pick<PeakNearLimitView, "lowestTokens" | "limit">): string {
  const how = n.lowestTokens === 0 ? "Drained to" : "Down to";
  return `${how} ${n.lowestTokens.toLocaleString("en-US")} of ${countOf(n.limit.count, "token")} (${describeLimit(n.limit)})`;
}

/**
 * describeTooLarge counts the requests refused for their cost in words: "3 requests asked for
 * more tokens than a limit holds (413)". They could never pass: the caller's mistake, counted
 * apart from the denied and from the tokens requested.
 */
export function describeTooLarge(tooLarge: number): string {
  return `${countOf(tooLarge, "request")} asked for more tokens than a limit holds (413): counted apart, not as denied`;
}

/** describeRefusals counts a customer's refusals in words: "refused 1 time", "refused 412 times". */
export function describeRefusals(refused: number): string {
  return `refused ${countOf(refused, "time")}`;
}

/**
 * describeUnmeasured says which of a refused customer's limits were not measured ("not measured:
 * 5 per second"), or, when all were, that their buckets replayed at the rollups' step were never
 * drained.
 */
export function describeUnmeasured(limits: readonly LimitShape[], resolutionMs: number): string {
  if (limits.length === 0) {
    return `its buckets, replayed per ${describePeriod(resolutionMs)}, were never drained`;
  }
  return `not measured: ${limits.map(describeLimit).join(", ")}`;
}

/**
 * nearLimitNote says how limits shorter than the rollups' step (`resolutionMs`) were judged over
 * a range: per second from `perSecondFromMs` (written by `formatTime`) where the per-second
 * counts (kept 5 minutes) cover the range, else only by their refusals. Null when the whole range
 * was measured per second. Regression: it said "the live view holds the last 5 minutes", where
 * the live view shows 2.
 */
export function nearLimitNote(
  r: { fromMs: number; resolutionMs: number; perSecondFromMs: number | null },
  formatTime: (ms: number) => string,
): string | null {
  if (r.perSecondFromMs !== null && r.perSecondFromMs <= r.fromMs) return null;
  const step = describePeriod(r.resolutionMs);
  const shorter = `Limits shorter than ${/^(hour|[aeiou])/.test(step) ? "an" : "a"} ${step}`;
  if (r.perSecondFromMs === null) {
    return `${shorter} are judged here only by refusals: per-second counts are kept for the last 5 minutes only.`;
  }
  return `${shorter} are measured per second from ${formatTime(r.perSecondFromMs)} (per-second counts are kept for the last 5 minutes); before that, only by refusals.`;
}

/**
 * NEAR_LIMIT_REPLAY says on the page what docs/usage-analytics.md says of the near-limit list:
 * its buckets are replayed under the limits in force now, over the whole range. Regression: a
 * limit set at 02:00 was shown as drained at 01:59, when another limit applied, with nothing
 * to say why.
 */
export const NEAR_LIMIT_REPLAY =
  "Each bucket is replayed under the limit in force now (the customer’s override, else its plan’s) over the whole range: traffic from before a limit was set or changed is measured against it.";

/** nearShareTone says how a share reads: "bad" once at or over the limit, else "warn". */
export function nearShareTone(share: number): "bad" | "warn" {
  return share >= 1 ? "bad" : "warn";
}

/**
 * busiestPlansFirst orders plans by their decisions over the range, most first, then by name;
 * plans with no traffic keep their alphabetical order at the end.
 */
export function busiestPlansFirst<P extends OutcomeCounts & { name: string }>(
  plans: readonly P[],
): P[] {
  const total = (p: P) => decisionsOf(p);
  return [...plans].sort((a, b) => total(b) - total(a) || a.name.localeCompare(b.name));
}
