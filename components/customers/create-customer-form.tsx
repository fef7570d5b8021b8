"use client";

import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { Field } from "@/components/ui/field";
import { ErrorNote } from "@/components/ui/states";
import { ApiError, api } from "@/lib/client/api";
import type { CreatedCustomerResponse, PlanListItem } from "@/lib/client/types";

/** CreateCustomerForm asks for a name and a plan, and hands the created customer and key on. */
export function CreateCustomerForm({
  plans,
  onCreated,
  onCancel,
}: {
  plans: PlanListItem[];
  onCreated: (created: CreatedCustomerResponse) => void;
  onCancel: () => void;
}) {
  const [name, setName] = useState("");
  const [planId, setPlanId] = useState(() => String(plans[0]?.id ?? ""));
  const create = useMutation({
    mutationFn: () =>
      api<CreatedCustomerResponse>("/customers", {
        method: "POST",
        body: { name, planId: Number(planId) },
      }),
    onSuccess: onCreated,
  });
  const fieldError = (path: string) =>
    create.error instanceof ApiError ? create.error.fieldError(path) : undefined;
  const fieldErrors = create.error instanceof ApiError && Object.keys(create.error.errors).length;
  return (
    <form
      className="card create-customer"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        create.mutate();
      }}
    >
      <h2>New customer</h2>
      <div className="row align-start">
        <Field label="Name" error={fieldError("name")}>
          {(props) => (
            <input
              {...props}
              value={name}
              autoComplete="off"
              // biome-ignore lint/a11y/noAutofocus: the form opens on the operator's click
              autoFocus
              onChange={(e) => setName(e.target.value)}
            />
          )}
        </Field>
        <Field label="Plan" error={fieldError("planId")}>
          {(props) => (
            <select {...props} value={planId} onChange={(e) => setPlanId(e.target.value)}>
              {plans.map((p) => (
                <option key={p.id} value={p.id}>
                  {p.name}
                </option>
              ))}
            </select>
          )}
        </Field>
        <div className="row field-actions">
          <button type="submit" className="btn primary" disabled={create.isPending}>
            {create.isPending ? "Creating…" : "Create customer"}
          </button>
          <button type="button" className="btn" onClick={onCancel}>
            Cancel
          </button>
        </div>
      </div>
      {fieldErrors ? null : <ErrorNote error={create.error} />}
    </form>
  );
}
