"use client";

import { PlanPicker } from "@/components/plans/plan-picker";
import { CreateActions, NameField } from "@/components/ui/create-form-parts";
import { ErrorNote } from "@/components/ui/states";
import { useCreateForm } from "@/components/ui/use-create-form";
import { validateWith } from "@/components/ui/validation";
import type { CreatedCustomerResponse, PlanListItem } from "@/lib/client/types";
import { customerCreateSchema } from "@/lib/schemas/customer.schema";

/** CustomerFields are the new customer form's fields; no plan until the operator picks one. */
interface CustomerFields {
  name: string;
  planId: number | null;
}

/** EMPTY is the form as it opens. */
const EMPTY: CustomerFields = { name: "", planId: null };

/** validate checks the form with the server's own schema, errors by the server's paths. */
function validate({ name, planId }: CustomerFields) {
  return validateWith(customerCreateSchema, { name, planId: planId ?? undefined });
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
  const form = useCreateForm({
    initial: EMPTY,
    validate,
    path: "/customers",
    onCreated,
  });
  const { name, planId } = form.values;
  const fieldError = (path: string) => form.errors[path]?.[0];
  return (
    <form
      className="card create-customer"
      aria-labelledby="new-customer-heading"
      noValidate
      onSubmit={form.submit}
    >
      <h2 id="new-customer-heading">New customer</h2>
      <div className="row align-start">
        <NameField
          value={name}
          error={fieldError("name")}
          onChange={(next) => form.change({ name: next, planId })}
        />
        <PlanPicker
          plans={plans}
          value={planId}
          error={fieldError("planId")}
          onChange={(plan) => form.change({ name, planId: plan?.id ?? null })}
        />
        <CreateActions label="Create customer" pending={form.pending} onCancel={onCancel} />
      </div>
      <ErrorNote error={form.failure} />
    </form>
  );
}
