"use client";

import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { PlanPicker } from "@/components/plans/plan-picker";
import { Field } from "@/components/ui/field";
import { ErrorNote } from "@/components/ui/states";
import { ApiError, api } from "@/lib/client/api";
import type { CreatedCustomerResponse, PlanListItem } from "@/lib/client/types";
import { type CustomerCreate, customerCreateSchema } from "@/lib/schemas/customer.schema";
import { type FieldErrors, fieldErrorsOf } from "@/lib/schemas/problem.schema";

/** validate checks the form with the server's own schema, errors by the server's paths. */
function validate(name: string, planId: number | null) {
  const parsed = customerCreateSchema.safeParse({ name, planId: planId ?? undefined });
  return parsed.success
    ? ({ ok: true, data: parsed.data } as const)
    : ({ ok: false, errors: fieldErrorsOf(parsed.error) } as const);
}

/**
 * CreateCustomerForm asks for a name and a plan, and hands the created customer and key on. No
 * plan is chosen until the operator chooses one (regression: the first plan by name, often the
 * most generous, was preselected). It checks the fields with customerCreateSchema before
 * sending, and shows client and server field errors at the field; after a failed attempt the
 * errors follow the edits.
 */
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
  const [planId, setPlanId] = useState<number | null>(null);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [checking, setChecking] = useState(false);
  const create = useMutation({
    mutationFn: (body: CustomerCreate) =>
      api<CreatedCustomerResponse>("/customers", { method: "POST", body }),
    onSuccess: onCreated,
    onError: (error) => {
      if (error instanceof ApiError) setErrors(error.errors);
    },
  });
  const change = (nextName: string, nextPlanId: number | null) => {
    setName(nextName);
    setPlanId(nextPlanId);
    if (checking) {
      const result = validate(nextName, nextPlanId);
      setErrors(result.ok ? {} : result.errors);
    }
  };
  const fieldError = (path: string) => errors[path]?.[0];
  const fieldErrors = create.error instanceof ApiError && Object.keys(create.error.errors).length;
  return (
    <form
      className="card create-customer"
      aria-labelledby="new-customer-heading"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        const result = validate(name, planId);
        setChecking(!result.ok);
        setErrors(result.ok ? {} : result.errors);
        if (result.ok) create.mutate(result.data);
        else create.reset(); // a refused attempt leaves no earlier failure showing
      }}
    >
      <h2 id="new-customer-heading">New customer</h2>
      <div className="row align-start">
        <Field label="Name" error={fieldError("name")}>
          {(props) => (
            <input
              {...props}
              value={name}
              autoComplete="off"
              // biome-ignore lint/a11y/noAutofocus: the form opens on the operator's click
              autoFocus
              onChange={(e) => change(e.target.value, planId)}
            />
          )}
        </Field>
        <PlanPicker
          plans={plans}
          value={planId}
          error={fieldError("planId")}
          onChange={(plan) => change(name, plan?.id ?? null)}
        />
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
