"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useCallback, useState } from "react";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { Empty, ErrorNote, Loading, PageHeader } from "@/components/ui/states";
import { useToast } from "@/components/ui/toast";
import { api } from "@/lib/client/api";
import type { PlanListItem, PlansResponse } from "@/lib/client/types";
import { describeLimits } from "@/lib/format";

/** PlansList is the plans page: every plan's limits in words, its customers, edit and delete. */
export function PlansList() {
  const plans = useQuery({ queryKey: ["plans"], queryFn: () => api<PlansResponse>("/plans") });
  const [deleting, setDeleting] = useState<PlanListItem>();
  const closeDelete = useCallback(() => setDeleting(undefined), []);
  return (
    <>
      <PageHeader
        title="Plans"
        description="What each plan grants its customers. Edits apply from the next API request."
        actions={
          <Link href="/plans/new" className="btn primary">
            New plan
          </Link>
        }
      />
      <ErrorNote error={plans.error} />
      {plans.isPending ? (
        <Loading label="Loading plans…" />
      ) : plans.data?.plans.length === 0 ? (
        <Empty>
          No plans yet. <Link href="/plans/new">Create the first plan</Link>.
        </Empty>
      ) : plans.data ? (
        <div className="card flush">
          <table>
            <thead>
              <tr>
                <th>Plan</th>
                <th>Reads</th>
                <th>Writes</th>
                <th className="right">Customers</th>
                <th>
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {plans.data.plans.map((plan) => (
                <tr key={plan.id}>
                  <td>
                    <Link href={`/plans/${plan.id}`} className="strong">
                      {plan.name}
                    </Link>{" "}
                    <code className="muted">{plan.slug}</code>
                    {plan.description ? (
                      <div className="muted small">{plan.description}</div>
                    ) : null}
                  </td>
                  <td>{describeLimits(plan.limits.filter((l) => l.operation === "read"))}</td>
                  <td>{describeLimits(plan.limits.filter((l) => l.operation === "write"))}</td>
                  <td className="right num">{plan.customerCount.toLocaleString("en-US")}</td>
                  <td className="right nowrap">
                    <Link
                      href={`/plans/${plan.id}`}
                      className="btn small"
                      aria-label={`Edit ${plan.name}`}
                    >
                      Edit
                    </Link>{" "}
                    <button
                      type="button"
                      className="btn small ghost danger-text"
                      aria-label={`Delete ${plan.name}`}
                      onClick={() => setDeleting(plan)}
                    >
                      Delete
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      {deleting ? <DeletePlan plan={deleting} onClose={closeDelete} /> : null}
    </>
  );
}

function DeletePlan({ plan, onClose }: { plan: PlanListItem; onClose: () => void }) {
  const queryClient = useQueryClient();
  const toast = useToast();
  const remove = useMutation({
    mutationFn: () => api<void>(`/plans/${plan.id}`, { method: "DELETE" }),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: ["plans"] });
      toast(`Plan “${plan.name}” deleted.`);
      onClose();
    },
  });
  return (
    <ConfirmDialog
      title={`Delete plan “${plan.name}”?`}
      confirmLabel={remove.isPending ? "Deleting…" : "Delete plan"}
      busy={remove.isPending}
      onConfirm={() => remove.mutate()}
      onCancel={onClose}
    >
      <p>
        {plan.customerCount > 0
          ? `${plan.customerCount} customer${plan.customerCount === 1 ? " is" : "s are"} on this plan; move them to another plan first.`
          : "No customer is on this plan. Deleting it cannot be undone."}
      </p>
      <ErrorNote error={remove.error} />
    </ConfirmDialog>
  );
}
