import { PERIOD_UNITS, splitPeriod } from "@/lib/format";
import type { LimitShape, Operation, PolicyLimit, QuotaPeriod } from "@/lib/vocabulary";
import { type AnyLimit, isQuota, type QuotaShape } from "./limit-words";

/** PeriodUnit is a unit a limit's period is edited in ("ms", "s", "m", "h", "d"). */
export type PeriodUnit = (typeof PERIOD_UNITS)[number]["unit"];

/**
 * LimitDraft is one limit row as typed: count and period amount as the inputs' raw text, and a
 * unit. A quota's row (`period` set) counts per calendar day, week or month of `timeZone`
 * instead, and ignores the amount and unit. A plan's rows also carry their operation and a
 * stable React key (OperationLimitDraft); an override's or the simulator's rows have neither,
 * and are keyed by their place.
 */
export interface LimitDraft {
  count: string;
  amount: string;
  unit: PeriodUnit;
  /** period makes the row a quota: its count is per calendar day, week or month. */
  period?: QuotaPeriod;
  /** timeZone is a quota's IANA zone, whose midnights (and Mondays) start its periods. */
  timeZone?: string;
  operation?: Operation;
  key?: number;
  /** dryRun is a stored limit's flag, kept as it was (absent on new rows: enforced). */
  dryRun?: boolean;
}

/** OperationLimitDraft is a plan's limit row: a LimitDraft with its operation and a key. */
export type OperationLimitDraft = LimitDraft & { operation: Operation; key: number };

let lastKey = 1;

/** limitDraft makes a plan's limit row with a fresh React key. */
export function limitDraft(
  operation: Operation,
  count: number | string,
  amount: number | string,
  unit: PeriodUnit,
): OperationLimitDraft {
  lastKey += 1;
  return { key: lastKey, operation, count: String(count), amount: String(amount), unit };
}

/** blankDraft is a new row with no operation: no count yet, per 1 second. */
export function blankDraft(): LimitDraft {
  return { count: "", amount: "1", unit: "s" };
}

/**
 * operatorZone is the operator's time zone (the browser's IANA name), or UTC where none is known
 * (on the server): new quotas start in it.
 */
export function operatorZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";
  } catch {
    return "UTC";
  }
}

/** blankQuotaDraft is a new quota with no operation: no count yet, per month of `timeZone`. */
export function blankQuotaDraft(timeZone: string): LimitDraft {
  return { count: "", amount: "1", unit: "s", period: "month", timeZone };
}

/** quotaDraft makes a plan's quota row with a fresh React key: `count` per `period` of `timeZone`. */
export function quotaDraft(
  operation: Operation,
  count: number | string,
  period: QuotaPeriod,
  timeZone: string,
): OperationLimitDraft {
  return { ...limitDraft(operation, count, 1, "s"), period, timeZone };
}

/** isQuotaDraft tells a quota's row from a token bucket's. */
export function isQuotaDraft(draft: LimitDraft): boolean {
  return draft.period !== undefined;
}

/**
 * draftOfLimit writes a limit as a row: a bucket in the largest unit that divides its period, a
 * quota with its period and zone (UTC when it names none), keeping its dry-run flag when set.
 */
export function draftOfLimit(limit: AnyLimit): LimitDraft {
  if (isQuota(limit)) {
    return {
      ...blankQuotaDraft(limit.timeZone ?? "UTC"),
      count: String(limit.count),
      period: limit.period,
      ...(limit.dryRun ? { dryRun: true } : {}),
    };
  }
  const { amount, unit } = splitPeriod(limit.periodMs);
  return {
    count: String(limit.count),
    amount: String(amount),
    unit,
    ...(limit.dryRun ? { dryRun: true } : {}),
  };
}

/** numberOf reads an input's text: blank is undefined, anything else a number (maybe NaN). */
export function numberOf(text: string): number | undefined {
  return text.trim() === "" ? undefined : Number(text);
}

/**
 * periodMsOf multiplies an amount by its unit's length in ms, undoing float noise (1.1 s is
 * 1100 ms, not 1100.0000000000002); a missing amount stays missing.
 */
export function periodMsOf(amount: number | undefined, unit: PeriodUnit): number | undefined {
  if (amount === undefined) return undefined;
  const raw = amount * (PERIOD_UNITS.find((u) => u.unit === unit)?.ms ?? 1);
  const rounded = Math.round(raw);
  return Math.abs(raw - rounded) < 1e-6 ? rounded : raw;
}

/**
 * limitOfDraft reads a row as numbers for validation: count, and period in ms (periodMsOf).
 * Blanks and non-numbers become NaN, which the schemas refuse ("Count must be a number").
 */
export function limitOfDraft(draft: LimitDraft): LimitShape {
  return {
    count: numberOf(draft.count) ?? Number.NaN,
    periodMs: periodMsOf(numberOf(draft.amount), draft.unit) ?? Number.NaN,
  };
}

/**
 * quotaOfDraft reads a quota's row for validation: its count (NaN when blank or not a number),
 * period and zone.
 */
export function quotaOfDraft(draft: LimitDraft): QuotaShape {
  return {
    count: numberOf(draft.count) ?? Number.NaN,
    period: draft.period ?? "month",
    timeZone: draft.timeZone ?? "UTC",
  };
}

/**
 * policyLimitOfDraft reads a row as the API takes it (limitOfDraft for a bucket, quotaOfDraft for
 * a quota) with the row's dry-run flag, when set.
 */
export function policyLimitOfDraft(draft: LimitDraft): AnyLimit {
  const limit = isQuotaDraft(draft) ? quotaOfDraft(draft) : limitOfDraft(draft);
  return { ...limit, ...(draft.dryRun ? { dryRun: true } : {}) };
}

/** bucketLimitOfDraft is policyLimitOfDraft for rows that can only be buckets (the simulator's). */
export function bucketLimitOfDraft(draft: LimitDraft): PolicyLimit {
  return { ...limitOfDraft(draft), ...(draft.dryRun ? { dryRun: true } : {}) };
}
