"use client";

import { type UseComboboxState, type UseComboboxStateChangeOptions, useCombobox } from "downshift";
import type { ReactNode } from "react";

/**
 * highlightFirstMatch is the combobox's state reducer: typing highlights the first item listed
 * for the text (none for an empty text), so Enter picks it, as type-to-find promises.
 * Regression: typing "fre" then Enter picked nothing.
 */
function highlightFirstMatch<T>(
  _state: UseComboboxState<T>,
  { type, changes }: UseComboboxStateChangeOptions<T>,
): Partial<UseComboboxState<T>> {
  if (type !== useCombobox.stateChangeTypes.InputChange) return changes;
  return { ...changes, highlightedIndex: (changes.inputValue ?? "").trim() === "" ? -1 : 0 };
}

/**
 * Combobox picks one item from a list that may be long: the operator types to narrow it (the
 * caller filters `items` by `onInputChange`'s text, on the client or the server), moves with the
 * arrow keys and picks with Enter or a click (downshift: the WAI-ARIA combobox pattern, with its
 * own status messages for screen readers). Typing highlights the first match. While `pending`
 * (the items answer an earlier text, the caller still asking for this one) none is offered, so
 * Enter never picks a stale one. At most `limit` items are listed at once.
 */
export function Combobox<T>({
  label,
  hideLabel,
  items,
  selectedItem,
  itemToString,
  itemToKey,
  renderItem,
  onSelect,
  onInputChange,
  placeholder,
  error,
  hint,
  emptyText = "Nothing matches",
  limit = 50,
  pending = false,
  disabled,
  className,
}: {
  label: string;
  hideLabel?: boolean;
  items: readonly T[];
  selectedItem: T | null;
  itemToString: (item: T | null) => string;
  itemToKey: (item: T) => string | number;
  renderItem?: (item: T) => ReactNode;
  onSelect: (item: T | null) => void;
  onInputChange?: (text: string) => void;
  placeholder?: string;
  error?: string;
  hint?: string;
  emptyText?: string;
  limit?: number;
  /** pending is true while `items` answer an earlier text than the one typed. */
  pending?: boolean;
  disabled?: boolean;
  className?: string;
}) {
  const shown = pending ? [] : items.slice(0, limit);
  const combobox = useCombobox<T>({
    items: shown,
    stateReducer: highlightFirstMatch,
    selectedItem,
    itemToString,
    itemToKey: (item) => (item === null ? null : itemToKey(item)),
    onSelectedItemChange: ({ selectedItem: item }) => onSelect(item ?? null),
    onInputValueChange: ({ inputValue }) => onInputChange?.(inputValue ?? ""),
  });
  const { isOpen, highlightedIndex } = combobox;
  const inputProps = combobox.getInputProps({ placeholder, disabled });
  const labelProps = combobox.getLabelProps();
  const describedBy = error ? `${inputProps.id}-error` : hint ? `${inputProps.id}-hint` : undefined;
  return (
    <div className={`field combobox${className ? ` ${className}` : ""}`}>
      <label {...labelProps} htmlFor={inputProps.id} className={hideLabel ? "sr-only" : undefined}>
        {label}
      </label>
      <div className="combobox-control">
        <input
          {...inputProps}
          // Typing highlights item 0 before the items for the text arrive: name it only if listed.
          aria-activedescendant={
            highlightedIndex < shown.length ? inputProps["aria-activedescendant"] : ""
          }
          aria-invalid={Boolean(error)}
          aria-describedby={describedBy}
          autoComplete="off"
          spellCheck={false}
        />
        <button
          type="button"
          className="combobox-toggle"
          aria-label={`Show ${label.toLowerCase()} options`}
          {...combobox.getToggleButtonProps({ disabled })}
        >
          <span aria-hidden="true">▾</span>
        </button>
      </div>
      <ul {...combobox.getMenuProps()} className="combobox-menu" hidden={!isOpen}>
        {isOpen
          ? shown.map((item, index) => (
              <li
                key={itemToKey(item)}
                className={`combobox-item${highlightedIndex === index ? " highlighted" : ""}${
                  selectedItem !== null && itemToKey(selectedItem) === itemToKey(item)
                    ? " selected"
                    : ""
                }`}
                {...combobox.getItemProps({ item, index })}
              >
                {renderItem ? renderItem(item) : itemToString(item)}
              </li>
            ))
          : null}
        {isOpen && shown.length === 0 ? <li className="combobox-empty">{emptyText}</li> : null}
        {isOpen && !pending && items.length > shown.length ? (
          <li className="combobox-empty">
            {(items.length - shown.length).toLocaleString("en-US")} more: type to narrow
          </li>
        ) : null}
      </ul>
      {error ? (
        <span id={`${inputProps.id}-error`} className="error" role="alert">
          {error}
        </span>
      ) : hint ? (
        <span id={`${inputProps.id}-hint`} className="hint">
          {hint}
        </span>
      ) : null}
    </div>
  );
}
