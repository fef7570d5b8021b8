"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { ErrorNote } from "@/components/ui/states";
import { useToast } from "@/components/ui/toast";
import { api } from "@/lib/client/api";
import type { CustomerListItem, CustomerResponse, PlanListItem } from "@/lib/client/types";

/** CustomerAction is a change that needs the operator's confirmation first. */
export type CustomerAction = "suspend" | "rotate" | "delete";

/** CustomerRow is one customer: a plan select that applies at once, status, key, traffic, actions. */
export function CustomerRow({
  customer,
  plans,
  onAction,
}: {
  customer: CustomerListItem;
  plans: PlanListItem[];
  onAction: (action: CustomerAction, customer: CustomerListItem) => void;
}) {
  const queryClient = useQueryClient();
  const toast = useToast();
  const update = useMutation({
    mutationFn: (body: { planId?: number; status?: "active" }) =>
      api<CustomerResponse>(`/customers/${customer.id}`, { method: "PATCH", body }),
    onSuccess: async ({ customer: next }, body) => {
      await queryClient.invalidateQueries({ queryKey: ["customers"] });
      void queryClient.invalidateQueries({ queryKey: ["plans"] });
      toast(
        body.planId !== undefined
          ? `${next.name} is now on ${next.planName}. The next API request uses its limits.`
          : `${next.name} is active again.`,
      );
    },
  });
  const suspended = customer.status === "suspended";
  return (
    <>
      <tr className={suspended ? "dimmed" : undefined}>
        <td>
          <Link href={`/customers/${customer.id}`} className="strong">
            {customer.name}
          </Link>
        </td>
        <td>
          {plans.length === 0 ? (
            customer.planName
          ) : (
            <select
              aria-label={`Plan for ${customer.name}`}
              value={(update.isPending && update.variables?.planId) || customer.planId}
              disabled={update.isPending}
              onChange={(e) => update.mutate({ planId: Number(e.target.value) })}
            >
              {plans.map((p) => (
                <option key={p.id} value={p.id}>
                  {p.name}
                </option>
              ))}
            </select>
          )}
        </td>
        <td>
          <span className={`badge ${suspended ? "bad" : "ok"}`}>
            {suspended ? "Suspended" : "Active"}
          </span>
        </td>
        <td>
          <code title="Key prefix">{customer.apiKeyPrefix}…</code>
        </td>
        <td className="num nowrap">
          <span title="Allowed">{customer.traffic.allowed.toLocaleString("en-US")}</span>
          <span className="muted"> / </span>
          <span title="Denied" className={customer.traffic.denied > 0 ? "bad-text" : "muted"}>
            {customer.traffic.denied.toLocaleString("en-US")}
          </span>
        </td>
        <td className="right nowrap actions">
          {suspended ? (
            <button
              type="button"
              className="btn small"
              aria-label={`Reactivate ${customer.name}`}
              disabled={update.isPending}
              onClick={() => update.mutate({ status: "active" })}
            >
              Reactivate
            </button>
          ) : (
            <button
              type="button"
              className="btn small"
              aria-label={`Suspend ${customer.name}`}
              onClick={() => onAction("suspend", customer)}
            >
              Suspend
            </button>
          )}
          <button
            type="button"
            className="btn small"
            aria-label={`Rotate key of ${customer.name}`}
            onClick={() => onAction("rotate", customer)}
          >
            Rotate key
          </button>
          <button
            type="button"
            className="btn small ghost danger-text"
            aria-label={`Delete ${customer.name}`}
            onClick={() => onAction("delete", customer)}
          >
            Delete
          </button>
        </td>
      </tr>
      {update.error ? (
        <tr className="row-error">
          <td colSpan={6}>
            <ErrorNote error={update.error} />
          </td>
        </tr>
      ) : null}
    </>
  );
}
