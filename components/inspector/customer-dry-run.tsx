"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { orderedClasses } from "@/components/classes/class-words";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { ErrorNote } from "@/components/ui/states";
import { useToast } from "@/components/ui/toast";
import { DryRunCard, useDryRunReport } from "@/components/usage/dry-run-card";
import { api } from "@/lib/client/api";
import { describeLimits } from "@/lib/format";
import type { Operation } from "@/lib/vocabulary";

/**
 * CustomerDryRun shows what the dry-run limits tried on a customer (its overrides' or its
 * plan's) would have refused of its traffic over the last 24 hours, and promotes an override's
 * dry-run limits to enforced (confirmed first; audited by the API). A plan's are promoted on
 * the plan's page. Nothing shows while none was tried.
 */
export function CustomerDryRun({ customerId, planId }: { customerId: number; planId: number }) {
  const report = useDryRunReport(
    ["customers", customerId, "dry-run"],
    `/customers/${customerId}/dry-run`,
  );
  const queryClient = useQueryClient();
  const toast = useToast();
  const [promoting, setPromoting] = useState<Operation>();
  const promote = useMutation({
    mutationFn: (operation: Operation) =>
      api(`/customers/${customerId}/overrides/${operation}/promote`, { method: "POST" }),
    onSuccess: (_, operation) => {
      setPromoting(undefined);
      void queryClient.invalidateQueries({ queryKey: ["customers", customerId] });
      void queryClient.invalidateQueries({ queryKey: ["audit"] });
      toast(`The override's dry-run ${operation} limits are enforced from the next request.`);
    },
  });
  const limits = report.data?.limits ?? [];
  if (!report.error && limits.length === 0) return null;
  const promotable = (operation: Operation) =>
    limits.filter(
      (l) => l.operation === operation && l.source === "override" && l.state === "dry-run",
    );
  const planTried = limits.some((l) => l.source === "plan" && l.state === "dry-run");

  return (
    <DryRunCard
      headingId="customer-dry-run-heading"
      note="this customer's traffic, the last 24 h"
      report={report}
      withSource
    >
      <div className="row">
        {orderedClasses(limits.map((l) => l.operation)).map((operation) =>
          promotable(operation).length > 0 ? (
            <button
              key={operation}
              type="button"
              className="btn primary"
              onClick={() => setPromoting(operation)}
            >
              Promote the override's {operation} limits
            </button>
          ) : null,
        )}
        {planTried ? (
          <Link className="small" href={`/plans/${planId}`}>
            The plan's dry-run limits are promoted on its page
          </Link>
        ) : null}
      </div>
      {promoting ? (
        <ConfirmDialog
          title={`Enforce the override's dry-run ${promoting} limits?`}
          confirmLabel="Promote to enforced"
          tone="primary"
          busy={promote.isPending}
          onConfirm={() => promote.mutate(promoting)}
          onCancel={() => setPromoting(undefined)}
        >
          <p>
            From the next request, this customer's {promoting}s are refused beyond{" "}
            {describeLimits(promotable(promoting))}.
          </p>
          <ErrorNote error={promote.error} />
        </ConfirmDialog>
      ) : null}
    </DryRunCard>
  );
}
