import { type DraftErrors, errorsByPath } from "@/components/ui/field-errors";
import {
  blankDraft,
  draftOfLimit,
  type LimitDraft,
  policyLimitOfDraft,
} from "@/components/ui/limit-draft";
import type { AnyLimit } from "@/components/ui/limit-words";
import type { OverrideView } from "@/lib/client/types";
import { SECOND_MS, TIME_UNITS, type TimeUnit, type TimeUnitEntry } from "@/lib/limiter";
import { type OverrideInput, overrideSchema } from "@/lib/schemas/customer.schema";
import { formatTimeInput, parseTimeInput, TIME_INPUT_ERROR } from "@/lib/time-format";

/** EXPIRY_UNITS are the units an "expires in" amount is typed in. */
export const EXPIRY_UNITS = TIME_UNITS.filter(
  (u): u is Exclude<TimeUnitEntry, { unit: "ms" }> => u.unit !== "ms",
);

/** ExpiryUnit is one of EXPIRY_UNITS: every unit of time but the millisecond. */
export type ExpiryUnit = Exclude<TimeUnit, "ms">;

/**
 * ExpiryDraft is an override's expiry as chosen: the stored one kept as it is ("keep"), never,
 * after an amount of time from saving, or at a local time.
 */
export interface ExpiryDraft {
  mode: "keep" | "never" | "after" | "at";
  amount: string;
  unit: ExpiryUnit;
  /** at is a time as typed, "YYYY-MM-DD HH:MM[:SS]" on a 24-hour clock in the browser's zone. */
  at: string;
  /** kept is the stored override's expiry (ms since the epoch), what "keep" saves; null for none. */
  kept: number | null;
}

/** OverrideDraft is the override editor's state. */
export interface OverrideDraft {
  limits: LimitDraft[];
  expiry: ExpiryDraft;
}

/**
 * draftOfOverride starts the editor from the stored override, or, with none, from the limits
 * in force (the plan's) so that an operator edits rather than retypes them. A stored expiry is
 * kept as it is ("keep", shown as when it falls and how far off it is), not turned into a date
 * to retype. Regression: an override saved to end "after 10 minutes" came back as a bare
 * date and time in the "At a date and time" field.
 */
export function draftOfOverride(
  override: OverrideView | undefined,
  fallbackLimits: readonly AnyLimit[],
): OverrideDraft {
  const limits = override?.limits ?? fallbackLimits;
  const expiresAt = override?.expiresAt ?? null;
  return {
    // A dry-run limit stays dry-run. Regression: the flag was dropped, so editing an override,
    // or starting one from a plan with a dry-run limit, enforced that limit on saving.
    limits: limits.length > 0 ? limits.map(draftOfLimit) : [blankDraft()],
    expiry: {
      mode: expiresAt === null ? "never" : "keep",
      amount: "10",
      unit: "m",
      at: expiresAt === null ? "" : formatTimeInput(expiresAt),
      kept: expiresAt,
    },
  };
}

/** OverrideResult is a valid override body, or the errors to show at the fields. */
export type OverrideResult =
  | { ok: true; value: OverrideInput }
  | { ok: false; errors: DraftErrors };

function expiresAtOf(expiry: ExpiryDraft, now: number): number | null | string {
  if (expiry.mode === "never") return null;
  if (expiry.mode === "keep") {
    if (expiry.kept !== null && expiry.kept <= now) {
      return "This expiry has passed: choose a new one";
    }
    return expiry.kept;
  }
  if (expiry.mode === "after") {
    const amount = expiry.amount.trim() === "" ? Number.NaN : Number(expiry.amount);
    if (!Number.isFinite(amount) || amount <= 0) return "Enter a time after now";
    const ms = EXPIRY_UNITS.find((u) => u.unit === expiry.unit)?.ms ?? SECOND_MS;
    return Math.round(now + amount * ms);
  }
  if (expiry.at.trim() === "") return "Choose a date and time";
  const at = parseTimeInput(expiry.at);
  if (at === undefined) return TIME_INPUT_ERROR;
  if (at <= now) return "Expiry must be in the future";
  return at;
}

/**
 * overrideOfDraft validates the editor's state with the API's override schema (buckets and
 * quotas: overrideSchema) and returns the body to PUT, or the errors by field path. `now` (ms) anchors "expires in" amounts.
 */
export function overrideOfDraft(draft: OverrideDraft, now: number): OverrideResult {
  const expiresAt = expiresAtOf(draft.expiry, now);
  const parsed = overrideSchema.safeParse({
    limits: draft.limits.map(policyLimitOfDraft),
    expiresAt: typeof expiresAt === "string" ? null : expiresAt,
  });
  const errors: DraftErrors = parsed.success ? {} : errorsByPath(parsed.error.issues);
  if (typeof expiresAt === "string") errors.expiresAt = expiresAt;
  if (!parsed.success || Object.keys(errors).length > 0) return { ok: false, errors };
  return { ok: true, value: parsed.data };
}
