"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { classTitle } from "@/components/classes/class-words";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { Field } from "@/components/ui/field";
import { type DraftErrors, firstErrors } from "@/components/ui/field-errors";
import { QUOTA_PERIOD_WORDS } from "@/components/ui/limit-words";
import { ErrorNote } from "@/components/ui/states";
import { useToast } from "@/components/ui/toast";
import { ApiError, api } from "@/lib/client/api";
import type { QuotaView } from "@/lib/schemas/inspect-answer.schema";
import type { QuotaGrantCreate } from "@/lib/schemas/quota-grant.schema";
import type { QuotaGrantAnswer } from "@/lib/schemas/quota-grant-answer.schema";
import { formatDateMinute } from "@/lib/time-format";
import { type GrantDraft, grantOfDraft, grantPath, grantsKey, newTotalWords } from "./grant-draft";
import { thisPeriod } from "./quota-words";
import styles from "./quotas.module.css";

/** PLACED are the fields the dialog shows errors at; the others show above them. */
const PLACED = new Set(["extra", "note"]);

/**
 * GrantDialog grants a customer extra of one quota for its current period only (the quota's
 * `periodStartMs`): an amount and an optional note, checked with the API's own schema, the new
 * total shown before confirming, the server's field errors shown at the fields. Once granted,
 * the customer's quotas and grants are fetched again.
 */
export function GrantDialog({
  customerId,
  quota,
  onClose,
}: {
  customerId: number;
  quota: QuotaView;
  onClose: () => void;
}) {
  const queryClient = useQueryClient();
  const notify = useToast();
  const [draft, setDraft] = useState<GrantDraft>({ extra: "", note: "" });
  const [errors, setErrors] = useState<DraftErrors>({});
  const [checking, setChecking] = useState(false);
  const grant = useMutation({
    mutationFn: (body: QuotaGrantCreate) =>
      api<QuotaGrantAnswer>(grantPath(customerId), { method: "POST", body }),
    onSuccess: async ({ grant: made }) => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: grantsKey(customerId) }),
        queryClient.invalidateQueries({ queryKey: ["customers", customerId, "inspect"] }),
      ]);
      notify(
        `Granted ${made.extra.toLocaleString("en-US")} more ${classTitle(made.operation).toLowerCase()} ${thisPeriod(made.period)}`,
      );
      onClose();
    },
    onError: (error) => {
      if (error instanceof ApiError) setErrors(firstErrors(error.errors));
    },
  });

  const change = (next: GrantDraft) => {
    setDraft(next);
    if (checking) {
      const result = grantOfDraft(quota, next);
      setErrors(result.ok ? {} : result.errors);
    }
  };
  const submit = (event?: FormEvent) => {
    event?.preventDefault();
    const result = grantOfDraft(quota, draft);
    if (!result.ok) {
      setErrors(result.errors);
      setChecking(true);
      return;
    }
    setErrors({});
    grant.mutate(result.body);
  };
  const total = newTotalWords(quota, draft);
  const elsewhere = Object.entries(errors).filter(([path]) => !PLACED.has(path));
  const unplaced =
    grant.error && !(grant.error instanceof ApiError && Object.keys(grant.error.errors).length > 0);
  const name = `${classTitle(quota.operation).toLowerCase()} per ${QUOTA_PERIOD_WORDS[quota.period]}`;
  return (
    <ConfirmDialog
      title={`Grant extra ${name}`}
      confirmLabel="Grant extra"
      tone="primary"
      busy={grant.isPending}
      onConfirm={() => submit()}
      onCancel={onClose}
    >
      <p>
        For the current period only, from {formatDateMinute(quota.periodStartMs)} until{" "}
        {formatDateMinute(quota.periodEndMs)}; the next period starts from the quota&rsquo;s count
        again.
      </p>
      {unplaced ? <ErrorNote error={grant.error} /> : null}
      {elsewhere.length > 0 ? (
        <div className="notice error" role="alert">
          {elsewhere.map(([path, message]) => (path ? `${path}: ${message}` : message)).join(" ")}
        </div>
      ) : null}
      <form onSubmit={submit} noValidate>
        <Field label="Extra" error={errors.extra} hint="Whole requests, added to this period.">
          {(props) => (
            <input
              {...props}
              type="number"
              inputMode="numeric"
              min={1}
              step={1}
              autoComplete="off"
              value={draft.extra}
              onChange={(e) => change({ ...draft, extra: e.target.value })}
            />
          )}
        </Field>
        <Field
          label="Note"
          error={errors.note}
          hint="Optional; kept with the grant and the audit log."
        >
          {(props) => (
            <input
              {...props}
              type="text"
              maxLength={200}
              autoComplete="off"
              value={draft.note}
              onChange={(e) => change({ ...draft, note: e.target.value })}
            />
          )}
        </Field>
      </form>
      <p className={styles.newTotal} data-testid="grant-new-total">
        {total ??
          `Total ${thisPeriod(quota.period)}: ${(quota.count + quota.granted).toLocaleString("en-US")}`}
      </p>
    </ConfirmDialog>
  );
}
