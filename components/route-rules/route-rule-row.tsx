"use client";

import { type Choice, Select } from "@/components/ui/select";
import { ROUTE_METHODS, type RouteMethod } from "@/lib/schemas/route-rule.schema";
import styles from "./route-rules.module.css";
import { DEFAULT_CLASS, type RuleDraft } from "./route-rules-draft";

const METHOD_CHOICES: Choice<RouteMethod>[] = ROUTE_METHODS.map((m) => ({
  value: m,
  label: m === "*" ? "Any" : m,
}));

type Effect = "metered" | "unmetered";
const EFFECT_CHOICES: Choice<Effect>[] = [
  { value: "metered", label: "Metered" },
  { value: "unmetered", label: "Unmetered" },
];

/**
 * RouteRuleRow edits one rule of the ordered list: its method, pattern and effect (metered with
 * a class and a cost, or unmetered), with buttons to move it up or down and to remove it; each
 * field's error (by the server's path, `rules.{index}.{field}`) shows beneath the row.
 */
export function RouteRuleRow({
  index,
  count,
  rule,
  classes,
  error,
  onChange,
  onMove,
  onRemove,
}: {
  index: number;
  count: number;
  rule: RuleDraft;
  classes: readonly string[];
  error: (path: string) => string | undefined;
  onChange: (rule: RuleDraft) => void;
  onMove: (by: -1 | 1) => void;
  onRemove: () => void;
}) {
  const classChoices: Choice<string>[] = [
    { value: DEFAULT_CLASS, label: "Method's default" },
    ...classes.map((c) => ({ value: c, label: c })),
  ];
  const at = `rules.${index}`;
  const errors = ["", ".method", ".pattern", ".unmetered", ".operation", ".cost"]
    .map((field) => error(`${at}${field}`))
    .filter((message): message is string => message !== undefined);
  const n = index + 1;
  return (
    <>
      <tr>
        <td className={styles.position}>{n}</td>
        <td>
          <Select
            aria-label={`Rule ${n} method`}
            value={rule.method}
            choices={METHOD_CHOICES}
            onChange={(method) => onChange({ ...rule, method })}
          />
        </td>
        <td>
          <input
            aria-label={`Rule ${n} pattern`}
            aria-invalid={Boolean(error(`${at}.pattern`))}
            className={`mono ${styles.pattern}`}
            value={rule.pattern}
            spellCheck={false}
            autoComplete="off"
            placeholder="/v1/exports/**"
            onChange={(e) => onChange({ ...rule, pattern: e.target.value })}
          />
        </td>
        <td>
          <Select
            aria-label={`Rule ${n} effect`}
            value={rule.unmetered ? "unmetered" : "metered"}
            choices={EFFECT_CHOICES}
            onChange={(effect) => onChange({ ...rule, unmetered: effect === "unmetered" })}
          />
        </td>
        <td>
          {rule.unmetered ? null : (
            <Select
              aria-label={`Rule ${n} class`}
              aria-invalid={Boolean(error(`${at}.operation`))}
              value={rule.operation}
              choices={classChoices}
              onChange={(operation) => onChange({ ...rule, operation })}
            />
          )}
        </td>
        <td>
          {rule.unmetered ? null : (
            <input
              aria-label={`Rule ${n} cost in tokens`}
              aria-invalid={Boolean(error(`${at}.cost`))}
              className={styles.cost}
              inputMode="numeric"
              placeholder="1"
              value={rule.cost}
              onChange={(e) => onChange({ ...rule, cost: e.target.value })}
            />
          )}
        </td>
        <td>
          <div className={styles.actions}>
            <button
              type="button"
              className="btn ghost"
              aria-label={`Move rule ${n} up`}
              disabled={index === 0}
              onClick={() => onMove(-1)}
            >
              ↑
            </button>
            <button
              type="button"
              className="btn ghost"
              aria-label={`Move rule ${n} down`}
              disabled={index === count - 1}
              onClick={() => onMove(1)}
            >
              ↓
            </button>
            <button
              type="button"
              className="btn ghost"
              aria-label={`Remove rule ${n}`}
              onClick={onRemove}
            >
              Remove
            </button>
          </div>
        </td>
      </tr>
      {errors.length > 0 ? (
        <tr>
          <td />
          <td colSpan={6} className={styles.rowError}>
            <span className="error" role="alert">
              {errors.join(" ")}
            </span>
          </td>
        </tr>
      ) : null}
    </>
  );
}
