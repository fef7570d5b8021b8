"use client";

import { PERIOD_UNITS } from "@/lib/format";
import { blankDraft, type LimitDraft, type PeriodUnit } from "./limit-draft";
import styles from "./limit-rows.module.css";

/** MAX_LIMIT_ROWS mirrors the schemas' "At most 20 limits". */
const MAX_LIMIT_ROWS = 20;

/**
 * LimitRows edits a list of limits (count per period amount and unit), without an operation.
 * Errors come by dotted path under `path` ("limits.0.count", "limits.0.periodMs", "limits") and
 * show under their control. Controls are labelled "Count for limit 1", "Period for limit 1"...
 */
export function LimitRows({
  rows,
  errors,
  onChange,
  path = "limits",
  idPrefix,
}: {
  rows: LimitDraft[];
  errors: Readonly<Record<string, string | undefined>>;
  onChange: (rows: LimitDraft[]) => void;
  path?: string;
  /** idPrefix keeps ids unique when two editors share a page. */
  idPrefix: string;
}) {
  const update = (index: number, change: Partial<LimitDraft>) =>
    onChange(rows.map((row, i) => (i === index ? { ...row, ...change } : row)));
  const listError = errors[path];
  return (
    <div>
      {rows.length > 0 ? (
        <div className={styles.heads} aria-hidden="true">
          <span>Count</span>
          <span className={styles.spacer}>per</span>
          <span>Period</span>
          <span>Unit</span>
          <span className={`btn ghost small ${styles.spacer}`}>✕</span>
        </div>
      ) : null}
      <div className={styles.rows}>
        {rows.map((row, index) => {
          const n = index + 1;
          const id = `${idPrefix}-${index}`;
          const countError = errors[`${path}.${index}.count`];
          const periodError = errors[`${path}.${index}.periodMs`];
          return (
            // biome-ignore lint/suspicious/noArrayIndexKey: rows have no identity but their place
            <div key={index} className={styles.row}>
              <div className={styles.control}>
                <input
                  type="number"
                  inputMode="numeric"
                  aria-label={`Count for limit ${n}`}
                  min={1}
                  step={1}
                  value={row.count}
                  aria-invalid={Boolean(countError)}
                  aria-describedby={countError ? `${id}-count` : undefined}
                  onChange={(e) => update(index, { count: e.target.value })}
                />
                {countError ? (
                  <span id={`${id}-count`} className={styles.error} role="alert">
                    {countError}
                  </span>
                ) : null}
              </div>
              <span className={styles.per}>per</span>
              <div className={styles.control}>
                <input
                  type="number"
                  inputMode="decimal"
                  aria-label={`Period for limit ${n}`}
                  min={0}
                  step="any"
                  value={row.amount}
                  aria-invalid={Boolean(periodError)}
                  aria-describedby={periodError ? `${id}-period` : undefined}
                  onChange={(e) => update(index, { amount: e.target.value })}
                />
                {periodError ? (
                  <span id={`${id}-period`} className={styles.error} role="alert">
                    {periodError}
                  </span>
                ) : null}
              </div>
              <div className={styles.control}>
                <select
                  aria-label={`Unit for limit ${n}`}
                  value={row.unit}
                  onChange={(e) => update(index, { unit: e.target.value as PeriodUnit })}
                >
                  {PERIOD_UNITS.map((u) => (
                    <option key={u.unit} value={u.unit}>
                      {u.label}
                    </option>
                  ))}
                </select>
              </div>
              <button
                type="button"
                className="btn ghost small"
                aria-label={`Remove limit ${n}`}
                title="Remove this limit"
                onClick={() => onChange(rows.filter((_, i) => i !== index))}
              >
                ✕
              </button>
            </div>
          );
        })}
      </div>
      {listError ? (
        <p className={styles.error} role="alert">
          {listError}
        </p>
      ) : null}
      <button
        type="button"
        className="btn small"
        disabled={rows.length >= MAX_LIMIT_ROWS}
        onClick={() => onChange([...rows, blankDraft()])}
      >
        + Add limit
      </button>
    </div>
  );
}
