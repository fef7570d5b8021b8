"use client";

import Link from "next/link";
import { useState } from "react";
import { PlanPicker } from "@/components/plans/plan-picker";
import { type DataColumn, dataColumns } from "@/components/ui/data-table";
import { useToast } from "@/components/ui/toast";
import type { CustomerListItem, PlanListItem } from "@/lib/client/types";
import { ChangePlanDialog } from "./change-plan-dialog";
import { useCustomerPatch } from "./use-customer-patch";

/** CustomerAction is a change that needs the operator's confirmation first. */
export type CustomerAction = "suspend" | "rotate" | "delete";

/**
 * PlanCell picks a customer's plan; a new choice waits for the operator's confirmation, naming
 * both plans and their limits (regression: it applied at once, unlike suspend, rotate and
 * delete, and a slip of the picker started refusing a paying customer).
 */
function PlanCell({ customer, plans }: { customer: CustomerListItem; plans: PlanListItem[] }) {
  const [proposed, setProposed] = useState<PlanListItem>();
  // A cancelled choice starts the picker afresh, so it shows the current plan's name again.
  const [round, setRound] = useState(0);
  if (plans.length === 0) return <>{customer.planName}</>;
  return (
    <>
      <PlanPicker
        key={round}
        label={`Plan for ${customer.name}`}
        hideLabel
        plans={plans}
        value={proposed?.id ?? customer.planId}
        disabled={proposed !== undefined}
        onChange={(plan) => {
          if (plan && plan.id !== customer.planId) setProposed(plan);
        }}
      />
      {proposed ? (
        <ChangePlanDialog
          customer={customer}
          from={plans.find((p) => p.id === customer.planId)}
          to={proposed}
          onClose={() => {
            setProposed(undefined);
            setRound((n) => n + 1);
          }}
        />
      ) : null}
    </>
  );
}

function ReactivateButton({ customer }: { customer: CustomerListItem }) {
  const toast = useToast();
  const update = useCustomerPatch(customer.id, {
    onPatched: (next) => toast(`${next.name} is active again.`),
    onError: (error) => toast(`Could not reactivate ${customer.name}: ${error.message}`, "error"),
  });
  return (
    <button
      type="button"
      className="btn small"
      aria-label={`Reactivate ${customer.name}`}
      disabled={update.isPending}
      onClick={() => update.mutate({ status: "active" })}
    >
      Reactivate
    </button>
  );
}

const column = dataColumns<CustomerListItem>();

/**
 * customerColumns are the customers table's columns: name (to the inspector), a plan picker
 * that asks before it applies, status, key prefix, recent traffic, and the row's actions.
 */
export function customerColumns(
  plans: PlanListItem[],
  onAction: (action: CustomerAction, customer: CustomerListItem) => void,
): DataColumn<CustomerListItem>[] {
  return [
    column.display({
      id: "name",
      header: "Name",
      cell: ({ row: { original: c } }) => (
        <>
          <Link href={`/customers/${c.id}`} className="strong">
            {c.name}
          </Link>{" "}
          <span className="muted small">#{c.id}</span>
        </>
      ),
    }),
    column.display({
      id: "plan",
      header: "Plan",
      cell: ({ row: { original: c } }) => <PlanCell customer={c} plans={plans} />,
    }),
    column.display({
      id: "status",
      header: "Status",
      cell: ({ row: { original: c } }) => (
        <span className={`badge ${c.status === "suspended" ? "bad" : "ok"}`}>
          {c.status === "suspended" ? "Suspended" : "Active"}
        </span>
      ),
    }),
    column.display({
      id: "key",
      header: "Key",
      cell: ({ row: { original: c } }) => <code title="Key prefix">{c.apiKeyPrefix}…</code>,
    }),
    column.display({
      id: "traffic",
      header: () => (
        <span title="Allowed / denied requests over the last 5 minutes">
          Last 5 min <span className="th-sub">allowed / denied</span>
        </span>
      ),
      meta: { label: "Last 5 min", className: "num nowrap" },
      cell: ({ row: { original: c } }) => (
        <>
          <span title="Allowed">{c.traffic.allowed.toLocaleString("en-US")}</span>
          <span className="muted"> / </span>
          <span title="Denied" className={c.traffic.denied > 0 ? "bad-text" : "muted"}>
            {c.traffic.denied.toLocaleString("en-US")}
          </span>
        </>
      ),
    }),
    column.display({
      id: "actions",
      header: () => <span className="sr-only">Actions</span>,
      meta: { className: "actions" },
      cell: ({ row: { original: c } }) => (
        <>
          {c.status === "suspended" ? (
            <ReactivateButton customer={c} />
          ) : (
            <button
              type="button"
              className="btn small"
              aria-label={`Suspend ${c.name}`}
              onClick={() => onAction("suspend", c)}
            >
              Suspend
            </button>
          )}
          <button
            type="button"
            className="btn small"
            aria-label={`Rotate key of ${c.name}`}
            onClick={() => onAction("rotate", c)}
          >
            Rotate key
          </button>
          <button
            type="button"
            className="btn small ghost danger-text"
            aria-label={`Delete ${c.name}`}
            onClick={() => onAction("delete", c)}
          >
            Delete
          </button>
        </>
      ),
    }),
  ];
}
