import { formatPeriod } from "@/lib/limiter";
import type { LimitShape, PolicyLimit } from "@/lib/vocabulary";

const UNIT_WORDS: Record<string, [string, string]> = {
  ms: ["millisecond", "milliseconds"],
  s: ["second", "seconds"],
  m: ["minute", "minutes"],
  h: ["hour", "hours"],
  d: ["day", "days"],
};

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
  const match = /^(\d+)(ms|s|m|h|d)$/.exec(formatPeriod(periodMs));
  if (!match) return `${periodMs} ms`;
  const amount = Number(match[1]);
  const [one, many] = UNIT_WORDS[match[2] as string] as [string, string];
  return amount === 1 ? one : `${amount.toLocaleString("en-US")} ${many}`;
}

/** describeLimit writes one limit in words: "10 per second", "500 per 5 minutes". */
export function describeLimit(limit: LimitShape): string {
  return `${limit.count.toLocaleString("en-US")} per ${describePeriod(limit.periodMs)}`;
}

/** describeLimits writes limits in words, shortest period first: "10 per second, 500 per minute". */
export function describeLimits(limits: readonly LimitShape[]): string {
  if (limits.length === 0) return "unlimited";
  return [...limits]
    .sort((a, b) => a.periodMs - b.periodMs || a.count - b.count)
    .map(describeLimit)
    .join(", ");
}

/**
 * describePolicyLimits writes a plan's or an override's limits of one operation in words, the
 * enforced ones first and the dry-run ones after them: "10 per second; dry run: 3 per hour"
 * (describeLimits alone when none is dry-run).
 */
export function describePolicyLimits(limits: readonly PolicyLimit[]): string {
  const enforced = describeLimits(limits.filter((l) => !l.dryRun));
  const dryRun = limits.filter((l) => l.dryRun);
  return dryRun.length === 0 ? enforced : `${enforced}; dry run: ${describeLimits(dryRun)}`;
}

/** PERIOD_UNITS are the units a limit's period is edited in. */
export const PERIOD_UNITS = [
  { unit: "ms", label: "milliseconds", ms: 1 },
  { unit: "s", label: "seconds", ms: 1_000 },
  { unit: "m", label: "minutes", ms: 60_000 },
  { unit: "h", label: "hours", ms: 3_600_000 },
  { unit: "d", label: "days", ms: 86_400_000 },
] as const;

/** splitPeriod picks the largest unit that divides a period: 120000 -> { amount: 2, unit: "m" }. */
export function splitPeriod(periodMs: number): {
  amount: number;
  unit: (typeof PERIOD_UNITS)[number]["unit"];
} {
  for (let i = PERIOD_UNITS.length - 1; i >= 0; i--) {
    const u = PERIOD_UNITS[i] as (typeof PERIOD_UNITS)[number];
    if (periodMs % u.ms === 0) return { amount: periodMs / u.ms, unit: u.unit };
  }
  return { amount: periodMs, unit: "ms" };
}
