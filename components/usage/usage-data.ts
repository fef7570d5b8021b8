import type { CountPoint } from "@/components/charts/rebin";
import type { NearLimitView, UsageSeries } from "@/lib/client/types";
import { describeLimit, describePeriod } from "@/lib/format";
import type { LimitShape } from "@/lib/vocabulary";

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
 * formatNearShare writes a near-limit share as a whole percentage, rounded down so that a share
 * just under the threshold never reads as reaching it: 0.8 -> "80%", 0.999 -> "99%", 1.25 -> "125%".
 */
export function formatNearShare(share: number): string {
  return `${Math.floor(share * 100 + 1e-9)}%`;
}

/**
 * describeNearLimit explains a near-limit finding in words: "9 of 10 tokens in 1 hour (10 per
 * hour)", the peak against what the limit refills over the window it was measured on.
 */
export function describeNearLimit(
  n: Pick<NearLimitView, "peakTokens" | "allowanceTokens" | "windowMs" | "limit">,
): string {
  const allowance = formatAllowance(n.allowanceTokens);
  const window = describePeriod(n.windowMs);
  const over = /^\d/.test(window) ? window : `1 ${window}`;
  return `${n.peakTokens.toLocaleString("en-US")} of ${allowance} tokens in ${over} (${describeLimit(n.limit)})`;
}

/** nearShareTone says how a share reads: "bad" once at or over the limit, else "warn". */
export function nearShareTone(share: number): "bad" | "warn" {
  return share >= 1 ? "bad" : "warn";
}

/**
 * busiestPlansFirst orders plans by their decisions over the range, most first, then by name;
 * plans with no traffic keep their alphabetical order at the end.
 */
export function busiestPlansFirst<
  P extends { allowed: number; denied: number; unavailable: number; name: string },
>(plans: readonly P[]): P[] {
  const total = (p: P) => p.allowed + p.denied + p.unavailable;
  return [...plans].sort((a, b) => total(b) - total(a) || a.name.localeCompare(b.name));
}
