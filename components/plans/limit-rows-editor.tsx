"use client";

import type { Operation } from "@/lib/client/types";
import { PERIOD_UNITS } from "@/lib/format";
import type { FieldErrors } from "@/lib/http";
import { MAX_COUNT } from "@/lib/schemas/limit.schema";
import { type LimitDraft, limitDraft, type PeriodUnit } from "./plan-draft";

const OPERATIONS: { value: Operation; label: string }[] = [
  { value: "read", label: "Read" },
  { value: "write", label: "Write" },
];

/** MAX_ROWS mirrors the schema's "At most 20 limits". */
const MAX_ROWS = 20;

/**
 * LimitRowsEditor edits a plan's limit rows: operation, count, and period as amount and unit.
 * Errors come by the API's dotted paths ("limits.0.count") and show under their control.
 */
export function LimitRowsEditor({
  rows,
  errors,
  onChange,
}: {
  rows: LimitDraft[];
  errors: FieldErrors;
  onChange: (rows: LimitDraft[]) => void;
}) {
  const update = (index: number, change: Partial<LimitDraft>) =>
    onChange(rows.map((row, i) => (i === index ? { ...row, ...change } : row)));
  const listError = errors.limits?.[0];
  return (
    <div className="limit-rows">
      {rows.length === 0 ? (
        <p className="notice info">
          No limits: customers on this plan are never refused. Add a limit to cap them.
        </p>
      ) : (
        <table className="limits-table">
          <thead>
            <tr>
              <th>Operation</th>
              <th>Count</th>
              <th />
              <th>Period</th>
              <th>
                <span className="sr-only">Remove</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row, index) => (
              <LimitRow
                key={row.key}
                row={row}
                index={index}
                errors={errors}
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
        <button
          type="button"
          className="btn small"
          disabled={rows.length >= MAX_ROWS}
          onClick={() => onChange([...rows, limitDraft("read", 10, 1, "s")])}
        >
          + Add read limit
        </button>
        <button
          type="button"
          className="btn small"
          disabled={rows.length >= MAX_ROWS}
          onClick={() => onChange([...rows, limitDraft("write", 10, 1, "s")])}
        >
          + Add write limit
        </button>
      </div>
    </div>
  );
}

function LimitRow({
  row,
  index,
  errors,
  onChange,
  onRemove,
}: {
  row: LimitDraft;
  index: number;
  errors: FieldErrors;
  onChange: (change: Partial<LimitDraft>) => void;
  onRemove: () => void;
}) {
  const n = index + 1;
  const base = `limit-${row.key}`;
  const opError = errors[`limits.${index}.operation`]?.[0];
  const countError = errors[`limits.${index}.count`]?.[0];
  const periodError = errors[`limits.${index}.periodMs`]?.[0];
  const rowError = errors[`limits.${index}`]?.[0];
  const invalid = (error: string | undefined, suffix: string) => ({
    "aria-invalid": Boolean(error),
    "aria-describedby": error ? `${base}-${suffix}` : undefined,
  });
  return (
    <>
      <tr className={rowError ? "has-error" : undefined}>
        <td>
          <select
            aria-label={`Operation for limit ${n}`}
            value={row.operation}
            onChange={(e) => onChange({ operation: e.target.value as Operation })}
            {...invalid(opError ?? rowError, opError ? "op" : "row")}
          >
            {OPERATIONS.map((o) => (
              <option key={o.value} value={o.value}>
                {o.label}
              </option>
            ))}
          </select>
          <RowError id={`${base}-op`} message={opError} />
        </td>
        <td>
          <input
            type="number"
            inputMode="numeric"
            className="count-input"
            aria-label={`Count for limit ${n}`}
            min={1}
            max={MAX_COUNT}
            step={1}
            value={row.count}
            onChange={(e) => onChange({ count: e.target.value })}
            {...invalid(countError, "count")}
          />
          <RowError id={`${base}-count`} message={countError} />
        </td>
        <td className="per muted">per</td>
        <td>
          <div className="period">
            <input
              type="number"
              inputMode="decimal"
              className="amount-input"
              aria-label={`Period for limit ${n}`}
              min={0}
              step="any"
              value={row.amount}
              onChange={(e) => onChange({ amount: e.target.value })}
              {...invalid(periodError, "period")}
            />
            <select
              aria-label={`Unit for limit ${n}`}
              value={row.unit}
              onChange={(e) => onChange({ unit: e.target.value as PeriodUnit })}
            >
              {PERIOD_UNITS.map((u) => (
                <option key={u.unit} value={u.unit}>
                  {u.label}
                </option>
              ))}
            </select>
          </div>
          <RowError id={`${base}-period`} message={periodError} />
        </td>
        <td className="right">
          <button
            type="button"
            className="btn ghost small remove"
            aria-label={`Remove limit ${n}`}
            title="Remove this limit"
            onClick={onRemove}
          >
            ✕
          </button>
        </td>
      </tr>
      {rowError ? (
        <tr className="row-error">
          <td colSpan={5}>
            <RowError id={`${base}-row`} message={rowError} />
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
