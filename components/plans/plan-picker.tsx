"use client";

import { useMemo, useState } from "react";
import { Combobox } from "@/components/ui/combobox";
import { describeAnyLimits } from "@/components/ui/limit-words";
import type { PlanListItem } from "@/lib/client/types";

/** matchesPlan tells whether a plan's name or slug contains the typed text (any case). */
export function matchesPlan(plan: Pick<PlanListItem, "name" | "slug">, text: string): boolean {
  const t = text.trim().toLowerCase();
  return t === "" || plan.name.toLowerCase().includes(t) || plan.slug.includes(t);
}

/**
 * PlanPicker chooses a plan by typing part of its name or slug: it works with hundreds of plans,
 * where a select would not. With nothing chosen it shows its placeholder; it never picks one on
 * the operator's behalf.
 */
export function PlanPicker({
  label = "Plan",
  hideLabel,
  plans,
  value,
  onChange,
  placeholder = "Choose a plan",
  error,
  hint,
  disabled,
  className,
}: {
  label?: string;
  hideLabel?: boolean;
  plans: readonly PlanListItem[];
  value: number | null;
  onChange: (plan: PlanListItem | null) => void;
  placeholder?: string;
  error?: string;
  hint?: string;
  disabled?: boolean;
  className?: string;
}) {
  const selected = plans.find((p) => p.id === value) ?? null;
  const [text, setText] = useState("");
  // While the input shows the chosen plan's name, every plan is offered.
  const filter = selected && text === selected.name ? "" : text;
  const items = useMemo(() => plans.filter((p) => matchesPlan(p, filter)), [plans, filter]);
  return (
    <Combobox
      label={label}
      hideLabel={hideLabel}
      items={items}
      selectedItem={selected}
      itemToString={(p) => p?.name ?? ""}
      itemToKey={(p) => p.id}
      renderItem={(p) => (
        <>
          <span className="strong">{p.name}</span>{" "}
          <span className="muted small">
            reads {describeAnyLimits(p.limits.filter((l) => l.operation === "read"))}
          </span>
        </>
      )}
      onSelect={onChange}
      onInputChange={setText}
      placeholder={placeholder}
      error={error}
      hint={hint}
      emptyText="No plan matches"
      disabled={disabled}
      className={className}
    />
  );
}
