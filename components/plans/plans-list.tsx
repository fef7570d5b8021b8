"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useCallback, useMemo, useState } from "react";
import { orderedClasses } from "@/components/classes/class-words";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { type DataColumn, DataTable, dataColumns } from "@/components/ui/data-table";
import { describeAnyLimits } from "@/components/ui/limit-words";
import { ListToolbar, SearchField } from "@/components/ui/list-toolbar";
import { Empty, ErrorNote, Loading, PageHeader } from "@/components/ui/states";
import { useToast } from "@/components/ui/toast";
import { useUrlQuery } from "@/components/ui/use-url-query";
import { api } from "@/lib/client/api";
import type { PlanListItem, PlansResponse } from "@/lib/client/types";
import { countOf } from "@/lib/format";
import { plansQuerySchema } from "@/lib/schemas/plan.schema";
import { isDefaultClass } from "@/lib/vocabulary";
import { matchesPlan } from "./plan-picker";

const column = dataColumns<PlanListItem>();

/** OTHER_CLASSES is the column of a plan's limits of classes other than read and write. */
const OTHER_CLASSES = column.display({
  id: "other-classes",
  header: "Other classes",
  cell: ({ row: { original: plan } }) => {
    const others = orderedClasses(
      plan.limits.map((l) => l.operation).filter((op) => !isDefaultClass(op)),
    );
    return others.length === 0 ? (
      <span className="muted">–</span>
    ) : (
      others
        .map((op) => `${op}: ${describeAnyLimits(plan.limits.filter((l) => l.operation === op))}`)
        .join("; ")
    );
  },
});

/**
 * planColumns are the plans table's columns; `withOtherClasses` adds one for the limits of the
 * classes other than read and write (shown only while some plan has such limits).
 */
function planColumns(
  onDelete: (plan: PlanListItem) => void,
  withOtherClasses: boolean,
): DataColumn<PlanListItem>[] {
  return [
    column.display({
      id: "plan",
      header: "Plan",
      cell: ({ row: { original: plan } }) => (
        <>
          <Link href={`/plans/${plan.id}`} className="strong">
            {plan.name}
          </Link>{" "}
          <code className="muted">{plan.slug}</code>
          {plan.description ? <div className="muted small">{plan.description}</div> : null}
        </>
      ),
    }),
    column.display({
      id: "reads",
      header: "Reads",
      cell: ({ row: { original: plan } }) =>
        describeAnyLimits(plan.limits.filter((l) => l.operation === "read")),
    }),
    column.display({
      id: "writes",
      header: "Writes",
      cell: ({ row: { original: plan } }) =>
        describeAnyLimits(plan.limits.filter((l) => l.operation === "write")),
    }),
    ...(withOtherClasses ? [OTHER_CLASSES] : []),
    column.display({
      id: "customers",
      header: "Customers",
      meta: { className: "right num" },
      cell: ({ row: { original: plan } }) =>
        plan.customerCount === 0 ? (
          "0"
        ) : (
          <Link
            href={`/customers?plan=${plan.id}`}
            aria-label={`${countOf(plan.customerCount, "customer")} on ${plan.name}`}
          >
            {plan.customerCount.toLocaleString("en-US")}
          </Link>
        ),
    }),
    column.display({
      id: "actions",
      header: () => <span className="sr-only">Actions</span>,
      meta: { className: "actions" },
      cell: ({ row: { original: plan } }) => (
        <>
          <Link href={`/plans/${plan.id}`} className="btn small" aria-label={`Edit ${plan.name}`}>
            Edit
          </Link>{" "}
          <button
            type="button"
            className="btn small ghost danger-text"
            aria-label={`Delete ${plan.name}`}
            onClick={() => onDelete(plan)}
          >
            Delete
          </button>
        </>
      ),
    }),
  ];
}

/**
 * PlansList is the plans page: every plan's limits in words and its customers (linked to them),
 * found by typing part of a name or slug (kept in the URL), with edit and delete.
 */
export function PlansList() {
  const plans = useQuery({ queryKey: ["plans"], queryFn: () => api<PlansResponse>("/plans") });
  const url = useUrlQuery(plansQuerySchema);
  const [deleting, setDeleting] = useState<PlanListItem>();
  const closeDelete = useCallback(() => setDeleting(undefined), []);
  const q = url.value.q ?? "";
  const all = plans.data?.plans;
  const withOtherClasses = (all ?? []).some((p) =>
    p.limits.some((l) => !isDefaultClass(l.operation)),
  );
  const columns = useMemo(() => planColumns(setDeleting, withOtherClasses), [withOtherClasses]);
  const shown = useMemo(() => (all ?? []).filter((p) => matchesPlan(p, q)), [all, q]);
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
      {all && all.length > 0 ? (
        <ListToolbar label="Find plans">
          <SearchField
            label="Search"
            value={q}
            placeholder="Name or slug"
            onSearch={(text) => url.set({ q: text })}
          />
        </ListToolbar>
      ) : null}
      <ErrorNote error={plans.error} />
      {plans.isPending ? (
        <Loading label="Loading plans…" />
      ) : all?.length === 0 ? (
        <Empty>
          No plans yet. <Link href="/plans/new">Create the first plan</Link>.
        </Empty>
      ) : all && shown.length === 0 ? (
        <Empty>No plan matches “{q}”.</Empty>
      ) : all ? (
        <>
          <DataTable
            caption="Plans"
            columns={columns}
            data={shown}
            getRowId={(p) => String(p.id)}
          />
          <p className="muted small" aria-live="polite">
            {shown.length === all.length
              ? countOf(all.length, "plan")
              : `${shown.length.toLocaleString("en-US")} of ${countOf(all.length, "plan")}`}
          </p>
        </>
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
  const inUse = plan.customerCount > 0;
  return (
    <ConfirmDialog
      title={`Delete plan “${plan.name}”?`}
      confirmLabel={remove.isPending ? "Deleting…" : "Delete plan"}
      busy={remove.isPending}
      // Regression: the button stayed active with customers on the plan, and failed with a 409.
      blocked={inUse}
      onConfirm={() => remove.mutate()}
      onCancel={onClose}
    >
      {inUse ? (
        <p>
          {countOf(plan.customerCount, "customer")} {plan.customerCount === 1 ? "is" : "are"} on
          this plan, so it cannot be deleted.{" "}
          <Link href={`/customers?plan=${plan.id}`}>See its customers</Link> and move them to
          another plan first.
        </p>
      ) : (
        <p>No customer is on this plan. Deleting it cannot be undone.</p>
      )}
      <ErrorNote error={remove.error} />
    </ConfirmDialog>
  );
}
