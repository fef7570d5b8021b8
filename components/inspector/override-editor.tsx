"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { formatSpan } from "@/components/charts/time-axis";
import { classTitle } from "@/components/classes/class-words";
import { Field } from "@/components/ui/field";
import { type DraftErrors, firstErrors } from "@/components/ui/field-errors";
import { useLeaveGuard } from "@/components/ui/leave-guard";
import { ADD_BLANK_LIMIT_OR_QUOTA, LimitRows } from "@/components/ui/limit-rows";
import { type AnyLimit, describeAnyLimits } from "@/components/ui/limit-words";
import { Select, unitChoices } from "@/components/ui/select";
import { ErrorNote } from "@/components/ui/states";
import { useToast } from "@/components/ui/toast";
import { ApiError, api } from "@/lib/client/api";
import type { CustomerResponse, OverrideView } from "@/lib/client/types";
import type { OverrideInput } from "@/lib/schemas/customer.schema";
import { formatDateTime, formatZone, TIME_INPUT_FORMAT } from "@/lib/time-format";
import type { Operation } from "@/lib/vocabulary";
import styles from "./inspector.module.css";
import {
  draftOfOverride,
  EXPIRY_UNITS,
  type ExpiryDraft,
  type OverrideDraft,
  overrideOfDraft,
} from "./override-draft";

type Limits = readonly AnyLimit[];

/** EXPIRY_CHOICES offer an expiry's units by their plural name. */
const EXPIRY_CHOICES = unitChoices(EXPIRY_UNITS);

/**
 * describeExpiry says when an override ends, with the date (it may be days off) and, once the
 * clock is known (`now` > 0), how far off: "22 Nov 2026, 14:13:05 UTC (in 9m 30s)".
 */
function describeExpiry(expiresAt: number, now: number): string {
  const left = now > 0 && expiresAt > now ? ` (in ${formatSpan(expiresAt - now)})` : "";
  return `${formatDateTime(expiresAt)}${left}`;
}

function OverrideStatus({
  override,
  planLimits,
  now,
}: {
  override: OverrideView | undefined;
  planLimits: Limits;
  now: number;
}) {
  const plan = `the plan's limits apply (${describeAnyLimits(planLimits)})`;
  let text: string;
  if (!override) text = `No override: ${plan}.`;
  else if (override.expiresAt === null)
    text = `Override in force: ${describeAnyLimits(override.limits)}, until cleared.`;
  else if (now > 0 && override.expiresAt <= now)
    text = `Override expired at ${formatDateTime(override.expiresAt)}: ${plan} again.`;
  else
    text = `Override in force: ${describeAnyLimits(override.limits)}, until ${describeExpiry(override.expiresAt, now)}.`;
  return (
    <p className={styles.status} data-testid={`override-status-${override ? "set" : "none"}`}>
      {text}
    </p>
  );
}

/**
 * OverrideEditor sets or clears a customer's override for one operation: limit rows and an
 * optional expiry ("never", "in N seconds/minutes/...", or a local date and time). It validates
 * with the API's overrideSchema before sending and shows the server's field errors too. The
 * parent remounts it (by key) when the stored override changes.
 */
export function OverrideEditor({
  customerId,
  operation,
  override,
  planLimits,
  now,
}: {
  customerId: number;
  operation: Operation;
  override: OverrideView | undefined;
  planLimits: Limits;
  now: number;
}) {
  const queryClient = useQueryClient();
  const notify = useToast();
  const [initial] = useState<OverrideDraft>(() => draftOfOverride(override, planLimits));
  const [draft, setDraft] = useState<OverrideDraft>(initial);
  const [errors, setErrors] = useState<DraftErrors>({});
  // After a refused attempt, the errors follow the edits (and go once fixed), as the plan
  // editor's do. Regression: a bad date's error stayed after the date was put right.
  const [checking, setChecking] = useState(false);
  // Regression: with no override the form showed, filled with the plan's limits and ready to
  // save, as if one existed. Now it opens on request, as a new override.
  const [adding, setAdding] = useState(false);
  const changed = JSON.stringify(draft) !== JSON.stringify(initial);
  // Leaving the page with an unsaved override asks first, as the plan editor does.
  useLeaveGuard(changed);
  const title = classTitle(operation);
  const path = `/customers/${customerId}/overrides/${operation}`;

  const onStored = (result: Pick<CustomerResponse, "overrides">, message: string) => {
    setErrors({});
    setChecking(false);
    notify(message);
    queryClient.setQueryData<CustomerResponse>(["customers", customerId], (old) =>
      old ? { ...old, overrides: result.overrides } : old,
    );
    void queryClient.invalidateQueries({ queryKey: ["customers", customerId, "inspect"] });
  };
  const onFailed = (error: Error) => {
    if (error instanceof ApiError) {
      setErrors(firstErrors(error.errors));
      setChecking(true);
    }
  };
  const save = useMutation({
    mutationFn: (body: OverrideInput) =>
      api<Pick<CustomerResponse, "overrides">>(path, { method: "PUT", body }),
    onSuccess: (result) => onStored(result, `${title} override saved`),
    onError: onFailed,
  });
  const clear = useMutation({
    mutationFn: () => api<Pick<CustomerResponse, "overrides">>(path, { method: "DELETE" }),
    onSuccess: (result) => onStored(result, `${title} override cleared`),
    onError: onFailed,
  });

  function submit(event: FormEvent) {
    event.preventDefault();
    const result = overrideOfDraft(draft, Date.now());
    if (!result.ok) {
      setErrors(result.errors);
      setChecking(true);
      return;
    }
    save.mutate(result.value);
  }

  /** change shows the edited draft and, after a refused attempt, checks it again. */
  const change = (next: OverrideDraft) => {
    setDraft(next);
    if (checking) {
      const result = overrideOfDraft(next, Date.now());
      setErrors(result.ok ? {} : result.errors);
    }
  };
  const setExpiry = (edit: Partial<ExpiryDraft>) =>
    change({ ...draft, expiry: { ...draft.expiry, ...edit } });
  const headingId = `override-${operation}`;
  const busy = save.isPending || clear.isPending;
  const failure = save.error ?? clear.error;
  const unplaced =
    failure &&
    !(
      failure instanceof ApiError &&
      Object.keys(failure.errors).some((p) => p.startsWith("limits") || p === "expiresAt")
    );
  if (!override && !adding) {
    return (
      <section className="card" aria-labelledby={headingId}>
        <h2 id={headingId}>Override for {title.toLowerCase()}</h2>
        <OverrideStatus override={override} planLimits={planLimits} now={now} />
        <button type="button" className="btn" onClick={() => setAdding(true)}>
          Add an override
        </button>
      </section>
    );
  }
  return (
    <section className="card" aria-labelledby={headingId}>
      <h2 id={headingId}>Override for {title.toLowerCase()}</h2>
      <OverrideStatus override={override} planLimits={planLimits} now={now} />
      {override ? null : (
        <p className="muted small">A new override, starting from the plan&rsquo;s limits.</p>
      )}
      {unplaced ? <ErrorNote error={failure} /> : null}
      <form onSubmit={submit} noValidate>
        <LimitRows
          rows={draft.limits}
          errors={errors}
          withDryRun
          adds={ADD_BLANK_LIMIT_OR_QUOTA}
          onChange={(limits) => change({ ...draft, limits })}
        />
        <div className={styles.inline} style={{ marginTop: 14 }}>
          <Field
            label="Expiry"
            error={
              draft.expiry.mode === "never" || draft.expiry.mode === "keep"
                ? errors.expiresAt
                : undefined
            }
          >
            {(props) => (
              <select
                {...props}
                value={draft.expiry.mode}
                onChange={(e) => setExpiry({ mode: e.target.value as ExpiryDraft["mode"] })}
              >
                {draft.expiry.kept !== null ? <option value="keep">As saved</option> : null}
                <option value="never">Never (until cleared)</option>
                <option value="after">After a while</option>
                <option value="at">At a date and time</option>
              </select>
            )}
          </Field>
          {draft.expiry.mode === "after" ? (
            <>
              <Field label="Expires in" error={errors.expiresAt}>
                {(props) => (
                  <input
                    {...props}
                    type="number"
                    inputMode="decimal"
                    min={0}
                    step="any"
                    style={{ width: 90 }}
                    value={draft.expiry.amount}
                    onChange={(e) => setExpiry({ amount: e.target.value })}
                  />
                )}
              </Field>
              <div className="field">
                <Select
                  aria-label="Expiry unit"
                  value={draft.expiry.unit}
                  choices={EXPIRY_CHOICES}
                  onChange={(unit) => setExpiry({ unit })}
                />
              </div>
            </>
          ) : null}
          {draft.expiry.mode === "at" ? (
            <Field
              label="Expires at"
              error={errors.expiresAt}
              hint={`As ${TIME_INPUT_FORMAT}, 24-hour, ${formatZone(now > 0 ? now : Date.now())}.`}
            >
              {(props) => (
                <input
                  {...props}
                  type="text"
                  placeholder={TIME_INPUT_FORMAT}
                  autoComplete="off"
                  spellCheck={false}
                  value={draft.expiry.at}
                  onChange={(e) => setExpiry({ at: e.target.value })}
                />
              )}
            </Field>
          ) : null}
        </div>
        {draft.expiry.mode === "keep" && draft.expiry.kept !== null ? (
          <p className="muted small" data-testid={`override-expiry-${operation}`}>
            Expires at {describeExpiry(draft.expiry.kept, now)}. To move it, choose another expiry.
          </p>
        ) : null}
        <div className={styles.actions}>
          <button
            type="submit"
            className="btn primary"
            disabled={busy || (override !== undefined && !changed)}
          >
            {save.isPending ? <span className="spinner" /> : null}
            Save override
          </button>
          {override ? (
            <button type="button" className="btn" disabled={busy} onClick={() => clear.mutate()}>
              Clear override
            </button>
          ) : (
            <button
              type="button"
              className="btn"
              disabled={busy}
              onClick={() => {
                setAdding(false);
                setDraft(initial);
                setErrors({});
                setChecking(false);
              }}
            >
              Cancel
            </button>
          )}
          {changed && !busy ? <span className="muted">Unsaved changes</span> : null}
        </div>
      </form>
    </section>
  );
}
