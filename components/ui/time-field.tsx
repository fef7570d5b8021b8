"use client";

import { useEffect, useId, useState } from "react";
import {
  formatTimeInput,
  formatZone,
  parseTimeInput,
  TIME_INPUT_ERROR,
  TIME_INPUT_FORMAT,
} from "@/lib/time-format";
import { EntryInput } from "./entry-input";
import { useInBrowser } from "./use-in-browser";

/**
 * TimeField is a filter's time, typed as "2026-11-25 14:30" on a 24-hour clock in the
 * browser's zone, which its label names ("From · 24-hour, UTC-05:00"): the same on every
 * browser, unlike a native date input (mm/dd/yyyy and a 12-hour clock in the United States,
 * the zone unsaid). It reports the time (ms) on Enter or on leaving the field, undefined when
 * emptied; text that is not a time says how to write one and reports nothing. It follows `value`
 * when the URL changes under it.
 */
export function TimeField({
  label,
  value,
  onChange,
}: {
  label: string;
  value: number | undefined;
  onChange: (ms: number | undefined) => void;
}) {
  const id = useId();
  const inBrowser = useInBrowser();
  const shown = inBrowser && value !== undefined ? formatTimeInput(value) : "";
  const [text, setText] = useState(shown);
  const [invalid, setInvalid] = useState(false);
  useEffect(() => {
    setText(shown);
    setInvalid(false);
  }, [shown]);

  const commit = () => {
    const trimmed = text.trim();
    if (trimmed === "") {
      setInvalid(false);
      if (value !== undefined) onChange(undefined);
      return;
    }
    const ms = parseTimeInput(trimmed);
    if (ms === undefined) {
      setInvalid(true);
      return;
    }
    setInvalid(false);
    // A date alone, or a time with a T: show it as it was read.
    setText(formatTimeInput(ms));
    if (ms !== value) onChange(ms);
  };

  return (
    <div className="toolbar-field time-field">
      <label htmlFor={id}>
        {label}
        <span className="muted small" id={`${id}-zone`}>
          {" "}
          · 24-hour{inBrowser ? `, ${formatZone(value ?? Date.now())}` : ""}
        </span>
      </label>
      <EntryInput
        id={id}
        type="text"
        value={text}
        placeholder={TIME_INPUT_FORMAT}
        aria-invalid={invalid}
        aria-describedby={invalid ? `${id}-error` : undefined}
        onText={setText}
        onBlur={commit}
        onEnter={commit}
      />
      {invalid ? (
        <span id={`${id}-error`} className="field-error" role="alert">
          {TIME_INPUT_ERROR}
        </span>
      ) : null}
    </div>
  );
}
