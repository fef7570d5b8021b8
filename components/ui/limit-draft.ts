import { PERIOD_UNITS, splitPeriod } from "@/lib/format";

/** PeriodUnit is a unit a period is edited in ("ms", "s", "m", "h", "d"). */
export type PeriodUnit = (typeof PERIOD_UNITS)[number]["unit"];

/** LimitDraft is one limit row as typed: count and period amount as text, and a unit. */
export interface LimitDraft {
  count: string;
  amount: string;
  unit: PeriodUnit;
}

/** draftOfLimit writes a limit as a row in the largest unit that divides its period. */
export function draftOfLimit(limit: { count: number; periodMs: number }): LimitDraft {
  const { amount, unit } = splitPeriod(limit.periodMs);
  return { count: String(limit.count), amount: String(amount), unit };
}

/** blankDraft is a new row: no count yet, per 1 second. */
export function blankDraft(): LimitDraft {
  return { count: "", amount: "1", unit: "s" };
}

function numberOf(text: string): number {
  return text.trim() === "" ? Number.NaN : Number(text);
}

/** unitMs is the length of a period unit in milliseconds. */
export function unitMs(unit: PeriodUnit): number {
  return PERIOD_UNITS.find((u) => u.unit === unit)?.ms ?? 1;
}

/**
 * limitOfDraft reads a row as numbers for validation: blanks and non-numbers become NaN (which
 * the schema refuses), and the period is rounded to whole milliseconds when float error alone
 * kept it from being whole (1.1 s is 1100 ms, not 1100.0000000000002).
 */
export function limitOfDraft(draft: LimitDraft): { count: number; periodMs: number } {
  const raw = numberOf(draft.amount) * unitMs(draft.unit);
  const whole = Math.round(raw);
  return {
    count: numberOf(draft.count),
    periodMs: Math.abs(raw - whole) < 1e-6 ? whole : raw,
  };
}
