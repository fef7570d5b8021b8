"use client";

import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { ErrorNote } from "@/components/ui/states";
import { useToast } from "@/components/ui/toast";
import type { CustomerListItem, PlanListItem } from "@/lib/client/types";
import { describePolicyLimits } from "@/lib/format";
import { OPERATIONS } from "@/lib/vocabulary";
import { useCustomerPatch } from "./use-customer-patch";

const OPERATION_HEADINGS = { read: "Reads", write: "Writes" } as const;

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
  const limitsOf = (plan: PlanListItem | undefined, operation: (typeof OPERATIONS)[number]) =>
    plan ? describePolicyLimits(plan.limits.filter((l) => l.operation === operation)) : "–";
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
          {OPERATIONS.map((operation) => (
            <tr key={operation}>
              <th scope="row">{OPERATION_HEADINGS[operation]}</th>
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
