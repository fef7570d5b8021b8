"use client";

import { classLabel } from "@/components/classes/class-words";
import { PERIOD_UNITS } from "@/lib/format";
import { MAX_COUNT, MAX_QUOTA_COUNT } from "@/lib/schemas/limit.schema";
import type { Operation } from "@/lib/vocabulary";
import type { DraftErrors } from "./field-errors";
import { isQuotaDraft, type LimitDraft } from "./limit-draft";
import styles from "./limit-rows.module.css";
import { QuotaPeriodFields } from "./quota-period";
import { type Choice, Select, unitChoices } from "./select";

/** classChoices offers the classes in a row's select, with the row's own kept if not listed. */
function classChoices(classes: readonly Operation[], own: Operation): Choice<Operation>[] {
  const names = classes.includes(own) ? classes : [...classes, own];
  return names.map((name) => ({ value: name, label: classLabel(name) }));
}

/** UNIT_CHOICES offer a period's units by their plural name. */
const UNIT_CHOICES = unitChoices(PERIOD_UNITS);

/**
 * LimitRow is one row of LimitRows: a token bucket's count per amount and unit, or a quota's
 * count per calendar period of a time zone (QuotaPeriodFields), with its errors under each.
 */
export function LimitRow({
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
  const quota = isQuotaDraft(row);
  const periodError = errors[`limits.${index}.${quota ? "period" : "periodMs"}`];
  const zoneError = quota ? errors[`limits.${index}.timeZone`] : undefined;
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
            max={quota ? MAX_QUOTA_COUNT : MAX_COUNT}
            step={1}
            value={row.count}
            onChange={(e) => onChange({ count: e.target.value })}
            {...invalid(countError, "count")}
          />
          <RowError id={`${id}-count`} message={countError} />
        </td>
        <td className={`${styles.per} muted`}>per</td>
        <td className={styles.periodCell}>
          {quota ? (
            <QuotaPeriodFields
              row={row}
              n={n}
              periodError={periodError}
              zoneError={zoneError}
              invalid={invalid(periodError, "period")}
              onChange={onChange}
            />
          ) : (
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
          )}
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
