"use client";

import { type ReactNode, useId } from "react";
import { classLabel } from "@/components/classes/class-words";
import { PERIOD_UNITS } from "@/lib/format";
import { MAX_COUNT } from "@/lib/schemas/limit.schema";
import { DEFAULT_CLASSES, type Operation } from "@/lib/vocabulary";
import type { DraftErrors } from "./field-errors";
import { blankDraft, type LimitDraft } from "./limit-draft";
import styles from "./limit-rows.module.css";
import { type Choice, Select, unitChoices } from "./select";

/** classChoices offers the classes in a row's select, with the row's own kept if not listed. */
function classChoices(classes: readonly Operation[], own: Operation): Choice<Operation>[] {
  const names = classes.includes(own) ? classes : [...classes, own];
  return names.map((name) => ({ value: name, label: classLabel(name) }));
}

/** UNIT_CHOICES offer a period's units by their plural name. */
const UNIT_CHOICES = unitChoices(PERIOD_UNITS);

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
 * LimitRows edits a list of limits: count per period (amount and unit) and, with
 * `withOperation` (the rows must then carry one), each row's operation class, chosen among
 * `classes` (read and write by default). Errors come one per
 * dotted path ("limits.0.count", "limits.0.periodMs", "limits.0.operation", "limits.0" for the
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

function LimitRow({
  row,
  index,
  id,
  errors,
  withOperation,
  classes,
  withDryRun,
  onChange,
  onRemove,
}: {
  row: LimitDraft;
  index: number;
  id: string;
  errors: Readonly<DraftErrors>;
  withOperation: boolean;
  classes: readonly Operation[];
  withDryRun: boolean;
  onChange: (change: Partial<LimitDraft>) => void;
  onRemove: () => void;
}) {
  const n = index + 1;
  const opError = errors[`limits.${index}.operation`];
  const countError = errors[`limits.${index}.count`];
  const periodError = errors[`limits.${index}.periodMs`];
  const rowError = errors[`limits.${index}`];
  const invalid = (error: string | undefined, suffix: string) => ({
    "aria-invalid": Boolean(error),
    "aria-describedby": error ? `${id}-${suffix}` : undefined,
  });
  return (
    <>
      <tr className={styles.limit}>
        {withOperation ? (
          <td className={styles.opCell}>
            <Select
              aria-label={`Operation for limit ${n}`}
              value={row.operation ?? "read"}
              choices={classChoices(classes, row.operation ?? "read")}
              onChange={(operation) => onChange({ operation })}
              {...invalid(opError ?? rowError, opError ? "op" : "row")}
            />
            <RowError id={`${id}-op`} message={opError} />
          </td>
        ) : null}
        <td className={styles.countCell}>
          <input
            type="number"
            inputMode="numeric"
            className={styles.count}
            aria-label={`Count for limit ${n}`}
            min={1}
            max={MAX_COUNT}
            step={1}
            value={row.count}
            onChange={(e) => onChange({ count: e.target.value })}
            {...invalid(countError, "count")}
          />
          <RowError id={`${id}-count`} message={countError} />
        </td>
        <td className={`${styles.per} muted`}>per</td>
        <td className={styles.periodCell}>
          <div className={styles.period}>
            <input
              type="number"
              inputMode="decimal"
              className={styles.amount}
              aria-label={`Period for limit ${n}`}
              min={0}
              step="any"
              value={row.amount}
              onChange={(e) => onChange({ amount: e.target.value })}
              {...invalid(periodError, "period")}
            />
            <Select
              aria-label={`Unit for limit ${n}`}
              className={styles.unit}
              value={row.unit}
              choices={UNIT_CHOICES}
              onChange={(unit) => onChange({ unit })}
            />
          </div>
          <RowError id={`${id}-period`} message={periodError} />
        </td>
        {withDryRun ? (
          <td className={styles.dryRun}>
            <label title="Dry run: counted when it would refuse, never refusing">
              <input
                type="checkbox"
                aria-label={`Dry run for limit ${n}`}
                checked={row.dryRun === true}
                onChange={(e) => onChange({ dryRun: e.target.checked })}
              />
              <span className={styles.dryRunWord} aria-hidden="true">
                dry run
              </span>
            </label>
          </td>
        ) : null}
        <td className={`right ${styles.removeCell}`}>
          <button
            type="button"
            className={`btn ghost small ${styles.remove}`}
            aria-label={`Remove limit ${n}`}
            title="Remove this limit"
            onClick={onRemove}
          >
            ✕
          </button>
        </td>
      </tr>
      {rowError ? (
        <tr>
          <td
            colSpan={4 + (withOperation ? 1 : 0) + (withDryRun ? 1 : 0)}
            className={styles.rowError}
          >
            <RowError id={`${id}-row`} message={rowError} />
          </td>
        </tr>
      ) : null}
    </>
  );
}

function RowError({ id, message }: { id: string; message: string | undefined }) {
  if (!message) return null;
  return (
    <span id={id} className="field-error" role="alert">
      {message}
    </span>
  );
}
