"use client";

import { classTitle } from "@/components/classes/class-words";
import { useClassNames } from "@/components/classes/use-classes";
import { PlanPicker } from "@/components/plans/plan-picker";
import { Field } from "@/components/ui/field";
import type { DraftErrors } from "@/components/ui/field-errors";
import type { LimitDraft } from "@/components/ui/limit-draft";
import { ADD_BLANK_LIMIT, LimitRows } from "@/components/ui/limit-rows";
import type { PlanListItem } from "@/lib/client/types";
import { isClassName } from "@/lib/schemas/operation-class.schema";
import type { Operation } from "@/lib/vocabulary";
import styles from "./simulator.module.css";

/** planSourceValue names a plan's limits for one operation in the source picker: "3:read". */
export function planSourceValue(planId: number, operation: Operation): string {
  return `${planId}:${operation}`;
}

/** sourceOf reads a source value back: the plan and operation, or no plan for custom limits. */
export function sourceOf(value: string): { planId: number | null; operation: Operation } {
  const [id, operation] = value.split(":");
  const planId = Number(id);
  return Number.isSafeInteger(planId) && planId > 0 && isClassName(operation)
    ? { planId, operation }
    : { planId: null, operation: "read" };
}

/**
 * LimitsCard picks the limits to simulate: a plan's limits of one operation class (its dry-run ones
 * marked so), or custom ones; the rows can be edited in place without saving anything.
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
  const chosen = sourceOf(source);
  const classes = useClassNames();
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
      <div className={styles.source}>
        <PlanPicker
          label="Start from a plan"
          plans={plans}
          value={chosen.planId}
          placeholder="Custom limits"
          hint="Pick a plan's limits, then edit them freely: nothing is saved."
          onChange={(plan) =>
            onSource(plan ? planSourceValue(plan.id, chosen.operation) : "custom")
          }
        />
        <Field label="Operation">
          {(props) => (
            <select
              {...props}
              value={chosen.operation}
              disabled={chosen.planId === null}
              onChange={(e) =>
                chosen.planId !== null &&
                onSource(planSourceValue(chosen.planId, e.target.value as Operation))
              }
            >
              {(classes.includes(chosen.operation) ? classes : [...classes, chosen.operation]).map(
                (operation) => (
                  <option key={operation} value={operation}>
                    {classTitle(operation)}
                  </option>
                ),
              )}
            </select>
          )}
        </Field>
      </div>
      <LimitRows
        rows={rows}
        errors={errors}
        adds={ADD_BLANK_LIMIT}
        withDryRun
        empty={<p className={styles.hint}>No limits: every request will be allowed.</p>}
        onChange={onRows}
      />
      <p className={styles.hint}>
        A dry-run limit never refuses: it is tried on each allowed request, as on the server, and
        the result says what it would have refused.
      </p>
    </section>
  );
}
