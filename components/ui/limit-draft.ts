import { PERIOD_UNITS, splitPeriod } from "@/lib/format";
import type { LimitShape, Operation, PolicyLimit } from "@/lib/vocabulary";

/** PeriodUnit is a unit a limit's period is edited in ("ms", "s", "m", "h", "d"). */
export type PeriodUnit = (typeof PERIOD_UNITS)[number]["unit"];

/**
 * LimitDraft is one limit row as typed: count and period amount as the inputs' raw text, and a
 * unit. A plan's rows also carry their operation and a stable React key (OperationLimitDraft);
 * an override's or the simulator's rows have neither, and are keyed by their place.
 */
export interface LimitDraft {
  count: string;
  amount: string;
  unit: PeriodUnit;
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
 * draftOfLimit writes a limit as a row in the largest unit that divides its period, keeping its
 * dry-run flag when set.
 */
export function draftOfLimit(limit: PolicyLimit): LimitDraft {
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

/** policyLimitOfDraft is limitOfDraft with the row's dry-run flag, when set. */
export function policyLimitOfDraft(draft: LimitDraft): PolicyLimit {
  return { ...limitOfDraft(draft), ...(draft.dryRun ? { dryRun: true } : {}) };
}
