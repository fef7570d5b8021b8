"use client";

import { Field } from "@/components/ui/field";
import type { DraftErrors } from "@/components/ui/field-errors";
import type { LimitDraft } from "@/components/ui/limit-draft";
import { ADD_BLANK_LIMIT, LimitRows } from "@/components/ui/limit-rows";
import type { PlanListItem } from "@/lib/client/types";
import { describeLimits } from "@/lib/format";
import { OPERATIONS, type Operation } from "@/lib/vocabulary";
import styles from "./simulator.module.css";

/** planSourceValue names a plan's limits for one operation in the source picker: "3:read". */
export function planSourceValue(planId: number, operation: Operation): string {
  return `${planId}:${operation}`;
}

/**
 * LimitsCard picks the limits to simulate: a plan's read or write limits, or custom ones; the
 * rows can be edited in place without saving anything.
 */
export function LimitsCard({
  plans,
  source,
  edited,
  rows,
  errors,
  onSource,
  onRows,
}: {
  plans: readonly PlanListItem[];
  source: string;
  edited: boolean;
  rows: LimitDraft[];
  errors: DraftErrors;
  onSource: (value: string) => void;
  onRows: (rows: LimitDraft[]) => void;
}) {
  return (
    <section className="card" aria-labelledby="sim-limits-heading">
      <h2 id="sim-limits-heading">
        Limits{" "}
        {edited ? (
          <span className="badge" title="Edits here are never saved">
            edited, not saved
          </span>
        ) : null}
      </h2>
      <Field
        label="Start from"
        hint="Pick a plan's limits, then edit them freely: nothing is saved."
      >
        {(props) => (
          <select {...props} value={source} onChange={(e) => onSource(e.target.value)}>
            <option value="custom">Custom limits</option>
            {plans.map((plan) => (
              <optgroup key={plan.id} label={plan.name}>
                {OPERATIONS.map((operation) => (
                  <option key={operation} value={planSourceValue(plan.id, operation)}>
                    {plan.name}: {operation}s (
                    {describeLimits(plan.limits.filter((l) => l.operation === operation))})
                  </option>
                ))}
              </optgroup>
            ))}
          </select>
        )}
      </Field>
      <LimitRows
        rows={rows}
        errors={errors}
        adds={ADD_BLANK_LIMIT}
        empty={<p className={styles.hint}>No limits: every request will be allowed.</p>}
        onChange={onRows}
      />
    </section>
  );
}
