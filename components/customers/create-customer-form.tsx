"use client";

import { PlanPicker } from "@/components/plans/plan-picker";
import { CreateActions, NameField } from "@/components/ui/create-form-parts";
import { Field } from "@/components/ui/field";
import { ErrorNote } from "@/components/ui/states";
import { useCreateForm } from "@/components/ui/use-create-form";
import { validateWith } from "@/components/ui/validation";
import type { CreatedCustomerResponse, PlanListItem } from "@/lib/client/types";
import { customerCreateSchema } from "@/lib/schemas/customer.schema";
import { billingDayOfDraft, SHORTER_MONTHS } from "./billing-day";

/**
 * CustomerFields are the new customer form's fields; no plan until the operator picks one. The
 * billing day is the field's text (empty: the server's default, the day of creation in UTC).
 */
interface CustomerFields {
  name: string;
  planId: number | null;
  billingDay: string;
}

/** emptyFields is the form as it opens: its billing day is today's (the browser's date). */
function emptyFields(): CustomerFields {
  return { name: "", planId: null, billingDay: String(new Date().getDate()) };
}

/** validate checks the form with the server's own schema, errors by the server's paths. */
function validate({ name, planId, billingDay }: CustomerFields) {
  return validateWith(customerCreateSchema, {
    name,
    planId: planId ?? undefined,
    billingAnchorDay: billingDayOfDraft(billingDay),
  });
}

/**
 * CreateCustomerForm asks for a name, a plan and a billing day (today's unless changed: the
 * day of the month its monthly quotas start on), and hands the created customer and key on. No
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
    initial: emptyFields(),
    validate,
    path: "/customers",
    onCreated,
  });
  const { values } = form;
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
          value={values.name}
          error={fieldError("name")}
          onChange={(name) => form.change({ ...values, name })}
        />
        <PlanPicker
          plans={plans}
          value={values.planId}
          error={fieldError("planId")}
          onChange={(plan) => form.change({ ...values, planId: plan?.id ?? null })}
        />
        <Field
          label="Billing day"
          error={fieldError("billingAnchorDay")}
          hint={`Day of the month its monthly quotas start on; 29 to 31: ${SHORTER_MONTHS}`}
        >
          {(props) => (
            <input
              {...props}
              className="billing-day"
              type="number"
              inputMode="numeric"
              min={1}
              max={31}
              value={values.billingDay}
              onChange={(e) => form.change({ ...values, billingDay: e.target.value })}
            />
          )}
        </Field>
        <CreateActions label="Create customer" pending={form.pending} onCancel={onCancel} />
      </div>
      <ErrorNote error={form.failure} />
    </form>
  );
}
