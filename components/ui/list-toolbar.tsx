"use client";

import { type ReactNode, useEffect, useId, useRef, useState } from "react";
import { EntryInput } from "./entry-input";
import { type Choice, Select } from "./select";

/** SEARCH_DEBOUNCE_MS is how long typing pauses before a search is sent. */
export const SEARCH_DEBOUNCE_MS = 250;

/** ListToolbar holds a list's search and filters above it, wrapping on narrow screens. */
export function ListToolbar({ label, children }: { label: string; children: ReactNode }) {
  return (
    <search className="list-toolbar" aria-label={label}>
      {children}
    </search>
  );
}

/**
 * SearchField is a list's search box: it reports its text after a pause in typing (or at once
 * on Enter), and follows `value` when the URL changes under it (back, a shared link).
 */
export function SearchField({
  label,
  value,
  placeholder,
  onSearch,
}: {
  label: string;
  value: string;
  placeholder?: string;
  onSearch: (text: string) => void;
}) {
  const id = useId();
  const [text, setText] = useState(value);
  const latest = useRef(onSearch);
  latest.current = onSearch;
  const sent = useRef(value);
  useEffect(() => {
    // The URL changed under the field: show what it says.
    if (value !== sent.current) {
      sent.current = value;
      setText(value);
    }
  }, [value]);
  useEffect(() => {
    if (text === sent.current) return;
    const timer = setTimeout(() => {
      sent.current = text;
      latest.current(text);
    }, SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [text]);
  return (
    <div className="toolbar-field grow">
      <label htmlFor={id}>{label}</label>
      <EntryInput
        id={id}
        type="search"
        value={text}
        placeholder={placeholder}
        onText={setText}
        onEnter={() => {
          sent.current = text;
          latest.current(text);
        }}
      />
    </div>
  );
}

/** FilterSelect is one filter of a list: a labelled select whose first option means "any". */
export function FilterSelect({
  label,
  value,
  anyLabel,
  options,
  onChange,
}: {
  label: string;
  value: string;
  anyLabel?: string;
  options: readonly Choice<string>[];
  onChange: (value: string) => void;
}) {
  const id = useId();
  return (
    <div className="toolbar-field">
      <label htmlFor={id}>{label}</label>
      <Select
        id={id}
        value={value}
        choices={anyLabel ? [{ value: "", label: anyLabel }, ...options] : options}
        onChange={onChange}
      />
    </div>
  );
}
