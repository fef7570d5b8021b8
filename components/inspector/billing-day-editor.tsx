"use client";

import { type FormEvent, useState } from "react";
import {
  billingDayOfDraft,
  describeBillingDay,
  SHORTER_MONTHS,
} from "@/components/customers/billing-day";
import { useCustomerPatch } from "@/components/customers/use-customer-patch";
import { Field } from "@/components/ui/field";
import { firstErrors } from "@/components/ui/field-errors";
import { ErrorNote } from "@/components/ui/states";
import { useToast } from "@/components/ui/toast";
import { validateWith } from "@/components/ui/validation";
import { ApiError } from "@/lib/client/api";
import type { CustomerResponse } from "@/lib/client/types";
import { billingAnchorDaySchema } from "@/lib/schemas/customer.schema";
import styles from "./inspector.module.css";

/**
 * BillingDayEditor shows the day of the month a customer's monthly quotas start on ("Billing
 * day: 14th of each month"; 29 to 31 say that shorter months start on their last day) and
 * changes it on request, as the override editor does: the field checked with the API's own
 * schema before sending, the server's field error shown at it, a toast once saved.
 */
export function BillingDayEditor({ customer }: { customer: CustomerResponse["customer"] }) {
  const notify = useToast();
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState(String(customer.billingAnchorDay));
  const [error, setError] = useState<string | undefined>();
  const update = useCustomerPatch(customer.id, {
    // The customer's queries are refetched (waited for) before this runs: the page shows it.
    onPatched: (next) => {
      setEditing(false);
      setError(undefined);
      notify(`Billing day saved: ${describeBillingDay(next.billingAnchorDay)}`);
    },
    onError: (failure) => {
      if (failure instanceof ApiError) setError(firstErrors(failure.errors).billingAnchorDay);
    },
  });

  function check(text: string): number | undefined {
    const result = validateWith(billingAnchorDaySchema, billingDayOfDraft(text));
    setError(result.ok ? undefined : (result.errors[""]?.[0] ?? "Enter a day from 1 to 31"));
    return result.ok ? result.data : undefined;
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    const day = check(draft);
    if (day !== undefined) update.mutate({ billingAnchorDay: day });
  }

  const headingId = `billing-day-${customer.id}`;
  const unplaced =
    update.error && !(update.error instanceof ApiError && update.error.errors.billingAnchorDay);
  return (
    <section className="card" aria-labelledby={headingId}>
      <h2 id={headingId}>Billing</h2>
      <p className={styles.status} data-testid="billing-day">
        Billing day: {describeBillingDay(customer.billingAnchorDay)}
      </p>
      {editing ? (
        <form onSubmit={submit} noValidate>
          {unplaced ? <ErrorNote error={update.error} /> : null}
          <div className={styles.inline}>
            <Field
              label="Billing day"
              error={error}
              hint={`Day of the month its monthly quotas start on; 29 to 31: ${SHORTER_MONTHS}`}
            >
              {(props) => (
                <input
                  {...props}
                  type="number"
                  inputMode="numeric"
                  min={1}
                  max={31}
                  style={{ width: 90 }}
                  value={draft}
                  onChange={(e) => {
                    setDraft(e.target.value);
                    if (error) check(e.target.value);
                  }}
                />
              )}
            </Field>
          </div>
          <div className={styles.actions}>
            <button
              type="submit"
              className="btn primary"
              disabled={update.isPending || draft === String(customer.billingAnchorDay)}
            >
              {update.isPending ? <span className="spinner" /> : null}
              Save billing day
            </button>
            <button
              type="button"
              className="btn"
              disabled={update.isPending}
              onClick={() => {
                setEditing(false);
                setDraft(String(customer.billingAnchorDay));
                setError(undefined);
                update.reset();
              }}
            >
              Cancel
            </button>
          </div>
        </form>
      ) : (
        <button type="button" className="btn" onClick={() => setEditing(true)}>
          Change billing day
        </button>
      )}
    </section>
  );
}
