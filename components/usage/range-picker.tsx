"use client";

import styles from "./usage.module.css";
import { rangeLabel, type UsageRange } from "./usage-range";

/**
 * RangePicker chooses a time range with a row of toggle buttons (the chosen one is pressed);
 * the caller keeps the choice in the URL.
 */
export function RangePicker<R extends UsageRange>({
  ranges,
  value,
  onChange,
}: {
  ranges: readonly R[];
  value: R;
  onChange: (range: R) => void;
}) {
  return (
    <fieldset className={styles.picker}>
      <legend className="sr-only">Time range</legend>
      {ranges.map((range) => (
        <button
          key={range}
          type="button"
          className={`btn small${range === value ? " primary" : ""}`}
          aria-pressed={range === value}
          onClick={() => onChange(range)}
        >
          {rangeLabel(range)}
        </button>
      ))}
    </fieldset>
  );
}
