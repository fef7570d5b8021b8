import type { ComponentProps } from "react";

/** Choice is one option of a Select: the value it stands for and the words it shows. */
export interface Choice<T extends string> {
  value: T;
  label: string;
}

/** unitChoices offers units of time by their plural name ("seconds"), valued by their unit. */
export function unitChoices<U extends string>(
  units: readonly { unit: U; many: string }[],
): Choice<U>[] {
  return units.map((u) => ({ value: u.unit, label: u.many }));
}

/**
 * Select picks one of `choices`, in their order, and hands on the chosen value typed as the
 * choices are (a select only offers its own options' values). Other props go to the `<select>`.
 */
export function Select<T extends string>({
  value,
  choices,
  onChange,
  ...props
}: {
  value: T;
  choices: readonly Choice<T>[];
  onChange: (value: T) => void;
} & Omit<ComponentProps<"select">, "value" | "onChange" | "children">) {
  return (
    <select {...props} value={value} onChange={(e) => onChange(e.target.value as T)}>
      {choices.map((c) => (
        <option key={c.value} value={c.value}>
          {c.label}
        </option>
      ))}
    </select>
  );
}
