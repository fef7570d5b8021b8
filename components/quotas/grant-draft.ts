// The "Grant extra" dialog's state and body: extra quota for one customer's quota in its current
// period only (POST /api/admin/customers/:id/quota-grants). Pure: tested without a browser.

import { type DraftErrors, errorsByPath } from "@/components/ui/field-errors";
import { numberOf } from "@/components/ui/limit-draft";
import { type QuotaGrantCreate, quotaGrantCreateSchema } from "@/lib/schemas/quota-grant.schema";
import type { QuotaGrantView } from "@/lib/schemas/quota-grant-answer.schema";
import type { Operation } from "@/lib/vocabulary";
import { type QuotaUse, quotaTotal, thisPeriod } from "./quota-words";

/** GrantDraft is the grant dialog's fields as typed: the extra amount and an optional note. */
export interface GrantDraft {
  extra: string;
  note: string;
}

/** GrantTarget is the quota a grant is for, in its current period. */
export type GrantTarget = Pick<
  QuotaUse,
  "period" | "timeZone" | "periodStartMs" | "count" | "granted"
> & {
  operation: Operation;
};

/** GrantResult is the body to post, or the errors to show by field ("extra", "note"). */
export type GrantResult = { ok: true; body: QuotaGrantCreate } | { ok: false; errors: DraftErrors };

/** grantPath is where a customer's grants are listed and made, under the admin API. */
export function grantPath(customerId: number): string {
  return `/customers/${customerId}/quota-grants`;
}

/** grantsKey is the query key of a customer's grants (fetched again after a grant). */
export function grantsKey(customerId: number) {
  return ["customers", customerId, "quota-grants"] as const;
}

/**
 * grantOfDraft checks the dialog's fields with the API's own schema and returns the body for the
 * quota's current period (its `periodStartMs`), or the errors by field.
 */
export function grantOfDraft(quota: GrantTarget, draft: GrantDraft): GrantResult {
  const parsed = quotaGrantCreateSchema.safeParse({
    operation: quota.operation,
    period: quota.period,
    timeZone: quota.timeZone,
    periodStartMs: quota.periodStartMs,
    extra: numberOf(draft.extra) ?? Number.NaN,
    note: draft.note,
  });
  return parsed.success
    ? { ok: true, body: parsed.data }
    : { ok: false, errors: errorsByPath(parsed.error.issues) };
}

/**
 * newTotalWords says what the quota admits this period once the grant is made: "New total this
 * month: 105,000 (100,000 + 5,000 extra)", earlier grants counted in; undefined until the amount
 * is a whole number above 0.
 */
export function newTotalWords(quota: GrantTarget, draft: GrantDraft): string | undefined {
  const extra = numberOf(draft.extra);
  if (extra === undefined || !Number.isSafeInteger(extra) || extra < 1) return undefined;
  const n = (value: number) => value.toLocaleString("en-US");
  const before = quotaTotal(quota);
  return `New total ${thisPeriod(quota.period)}: ${n(before + extra)} (${n(before)} + ${n(extra)} extra)`;
}

/** grantsOfPeriod keeps the grants made for this quota's current period, newest first as given. */
export function grantsOfPeriod(
  grants: readonly QuotaGrantView[],
  quota: Omit<GrantTarget, "count" | "granted">,
): QuotaGrantView[] {
  return grants.filter(
    (g) =>
      g.operation === quota.operation &&
      g.period === quota.period &&
      g.timeZone === quota.timeZone &&
      g.periodStartMs === quota.periodStartMs,
  );
}
