"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { Combobox } from "@/components/ui/combobox";
import { api } from "@/lib/client/api";
import type { CustomerResponse, CustomersResponse, CustomerView } from "@/lib/client/types";

/** PICKER_ROWS is how many customers the picker asks the server for as the operator types. */
const PICKER_ROWS = 10;

type Option = Pick<CustomerView, "id" | "name" | "apiKeyPrefix">;

/**
 * CustomerPicker finds a customer among thousands by typing part of a name, a key prefix or an
 * id: each pause in typing asks the customers list for its first few matches.
 */
export function CustomerPicker({
  label,
  value,
  onChange,
  placeholder = "Any customer",
}: {
  label: string;
  value: number | null;
  onChange: (customer: Option | null) => void;
  placeholder?: string;
}) {
  const [text, setText] = useState("");
  const chosen = useQuery({
    queryKey: ["customers", value],
    queryFn: () => api<CustomerResponse>(`/customers/${value}`),
    enabled: value !== null,
  });
  const selected: Option | null = value === null ? null : (chosen.data?.customer ?? null);
  const search = selected && text === selected.name ? "" : text.trim();
  const matches = useQuery({
    queryKey: ["customers", "pick", search],
    queryFn: () =>
      api<CustomersResponse>(
        `/customers?limit=${PICKER_ROWS}&sort=name${search ? `&q=${encodeURIComponent(search)}` : ""}`,
      ),
    placeholderData: keepPreviousData,
    staleTime: 10_000,
  });
  return (
    <Combobox<Option>
      label={label}
      items={matches.data?.customers ?? []}
      selectedItem={selected}
      itemToString={(c) => c?.name ?? ""}
      itemToKey={(c) => c.id}
      renderItem={(c) => (
        <>
          {c.name} <span className="muted small">#{c.id}</span>
        </>
      )}
      onSelect={onChange}
      onInputChange={setText}
      placeholder={placeholder}
      // The previous text's matches are not offered while this one's are on their way.
      pending={matches.isPlaceholderData}
      emptyText={matches.isFetching ? "Searching…" : "No customer matches"}
    />
  );
}
