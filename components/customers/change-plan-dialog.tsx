"use client";

import { classTitle, orderedClasses } from "@/components/classes/class-words";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { describeAnyLimits } from "@/components/ui/limit-words";
import { ErrorNote } from "@/components/ui/states";
import { useToast } from "@/components/ui/toast";
import type { CustomerListItem, PlanListItem } from "@/lib/client/types";
import { DEFAULT_CLASSES, type Operation } from "@/lib/vocabulary";
import { useCustomerPatch } from "./use-customer-patch";

/**
 * ChangePlanDialog confirms moving a customer to another plan, naming both plans and setting
 * their limits side by side (a downgrade starts refusing the customer at once), then applies it.
 * `from` is undefined when the current plan is not in the list (its name still shows).
 */
export function ChangePlanDialog({
  customer,
  from,
  to,
  onClose,
}: {
  customer: CustomerListItem;
  from: PlanListItem | undefined;
  to: PlanListItem;
  onClose: () => void;
}) {
  const toast = useToast();
  const update = useCustomerPatch(customer.id, {
    onPatched: (next) => {
      toast(`${next.name} is now on ${next.planName}. The next API request uses its limits.`);
      onClose();
    },
  });
  const limitsOf = (plan: PlanListItem | undefined, operation: Operation) =>
    plan ? describeAnyLimits(plan.limits.filter((l) => l.operation === operation)) : "–";
  // Read and write always, then every other class either plan limits.
  const classes = orderedClasses([
    ...DEFAULT_CLASSES,
    ...(from?.limits ?? []).map((l) => l.operation),
    ...to.limits.map((l) => l.operation),
  ]);
  return (
    <ConfirmDialog
      title={`Move “${customer.name}” to ${to.name}?`}
      confirmLabel={update.isPending ? "Working…" : `Move to ${to.name}`}
      tone="primary"
      busy={update.isPending}
      onConfirm={() => update.mutate({ planId: to.id })}
      onCancel={onClose}
    >
      <p>
        From the next API request, {customer.name} obeys the limits of {to.name} instead of{" "}
        {customer.planName}; requests over them are refused at once. An override set on the customer
        keeps applying until it ends.
      </p>
      <table aria-label="Limits before and after">
        <thead>
          <tr>
            <th scope="col">
              <span className="sr-only">Operation</span>
            </th>
            <th scope="col">Now: {customer.planName}</th>
            <th scope="col">After: {to.name}</th>
          </tr>
        </thead>
        <tbody>
          {classes.map((operation) => (
            <tr key={operation}>
              <th scope="row">{classTitle(operation)}</th>
              <td>{limitsOf(from, operation)}</td>
              <td>{limitsOf(to, operation)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <ErrorNote error={update.error} />
    </ConfirmDialog>
  );
}
