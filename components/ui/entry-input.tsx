import type { ComponentProps } from "react";

/**
 * EntryInput is a text box for a typed entry (a search, a time): the browser neither fills it
 * in nor checks its spelling; `onText` follows the typing, and Enter calls `onEnter` to commit
 * the entry instead of submitting a form around it. Other props go to the `<input>`.
 */
export function EntryInput({
  onText,
  onEnter,
  ...props
}: {
  onText: (text: string) => void;
  onEnter: () => void;
} & Omit<ComponentProps<"input">, "onChange" | "onKeyDown" | "autoComplete" | "spellCheck">) {
  return (
    <input
      {...props}
      autoComplete="off"
      spellCheck={false}
      onChange={(e) => onText(e.target.value)}
      onKeyDown={(e) => {
        if (e.key === "Enter") {
          e.preventDefault();
          onEnter();
        }
      }}
    />
  );
}
