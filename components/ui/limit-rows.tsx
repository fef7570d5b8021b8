"use client";

import { type ReactNode, useId } from "react";
import { DEFAULT_CLASSES, type Operation } from "@/lib/vocabulary";
import type { DraftErrors } from "./field-errors";
import { blankDraft, blankQuotaDraft, type LimitDraft, operatorZone } from "./limit-draft";
import { LimitRow } from "./limit-row";
import styles from "./limit-rows.module.css";

/** MAX_LIMIT_ROWS mirrors the schemas' "At most 20 limits". */
const MAX_LIMIT_ROWS = 20;

/** LimitAdd is one "+ Add …" button under the rows: its label and the row it appends. */
export interface LimitAdd<R extends LimitDraft> {
  label: string;
  row: () => R;
}

/** ADD_BLANK_LIMIT is the single "+ Add limit" button of rows without an operation. */
export const ADD_BLANK_LIMIT: readonly LimitAdd<LimitDraft>[] = [
  { label: "+ Add limit", row: blankDraft },
];

/**
 * ADD_BLANK_LIMIT_OR_QUOTA are an override's buttons: "+ Add limit" (a token bucket) and
 * "+ Add quota" (per month, in the operator's time zone).
 */
export const ADD_BLANK_LIMIT_OR_QUOTA: readonly LimitAdd<LimitDraft>[] = [
  ...ADD_BLANK_LIMIT,
  { label: "+ Add quota", row: () => blankQuotaDraft(operatorZone()) },
];

/**
 * LimitRows edits a list of limits: count per period (amount and unit; a quota's row per calendar
 * day, week or month of a time zone instead: "Period for limit 1", "Time zone for limit 1") and, with
 * `withOperation` (the rows must then carry one), each row's operation class, chosen among
 * `classes` (read and write by default). Errors come one per
 * dotted path ("limits.0.count", "limits.0.periodMs" or a quota's "limits.0.period" and
 * "limits.0.timeZone", "limits.0.operation", "limits.0" for the
 * row, "limits" for the list) and show under their control. Controls are labelled "Count for
 * limit 1", "Period for limit 1", "Unit for limit 1", "Operation for limit 1", "Remove limit 1",
 * and with `withDryRun`, "Dry run for limit 1" (a dry-run limit is counted, never enforced).
 */
export function LimitRows<R extends LimitDraft>({
  rows,
  errors,
  onChange,
  adds,
  withOperation = false,
  classes = DEFAULT_CLASSES,
  withDryRun = false,
  empty,
}: {
  rows: readonly R[];
  errors: Readonly<DraftErrors>;
  onChange: (rows: R[]) => void;
  adds: readonly LimitAdd<R>[];
  withOperation?: boolean;
  /** classes are the operation classes a row may choose (with `withOperation`). */
  classes?: readonly Operation[];
  /** withDryRun adds a "Dry run" box to each row: tried on live traffic, never refusing. */
  withDryRun?: boolean;
  /** empty is shown in place of the rows when there are none. */
  empty?: ReactNode;
}) {
  const idPrefix = useId();
  const update = (index: number, change: Partial<LimitDraft>) =>
    onChange(rows.map((row, i) => (i === index ? { ...row, ...change } : row)));
  const listError = errors.limits;
  return (
    <div className={withOperation ? `${styles.editor} ${styles.withOperation}` : styles.editor}>
      {rows.length === 0 ? (
        empty
      ) : (
        <table className={styles.table}>
          <thead>
            <tr>
              {withOperation ? <th>Operation</th> : null}
              <th>Count</th>
              <th />
              <th>Period</th>
              {withDryRun ? <th>Dry run</th> : null}
              <th>
                <span className="sr-only">Remove</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row, index) => (
              <LimitRow
                // A plan's rows keep their key through removals; the others have only their place.
                key={row.key ?? index}
                row={row}
                index={index}
                id={`${idPrefix}-${index}`}
                errors={errors}
                withOperation={withOperation}
                classes={classes}
                withDryRun={withDryRun}
                onChange={(change) => update(index, change)}
                onRemove={() => onChange(rows.filter((_, i) => i !== index))}
              />
            ))}
          </tbody>
        </table>
      )}
      {listError ? (
        <p className="field-error" role="alert">
          {listError}
        </p>
      ) : null}
      <div className="row">
        {adds.map((add) => (
          <button
            key={add.label}
            type="button"
            className="btn small"
            disabled={rows.length >= MAX_LIMIT_ROWS}
            onClick={() => onChange([...rows, add.row()])}
          >
            {add.label}
          </button>
        ))}
      </div>
    </div>
  );
}
