"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { classTitle, orderedClasses } from "@/components/classes/class-words";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { ErrorNote, Loading } from "@/components/ui/states";
import { useToast } from "@/components/ui/toast";
import { DryRunCard, useDryRunReport } from "@/components/usage/dry-run-card";
import { api } from "@/lib/client/api";
import type { PlanWithLimits, PromoteResponse } from "@/lib/client/types";
import { countOf, describeLimits } from "@/lib/format";

/** planDryRunKey is the query key of a plan's dry-run report. */
export function planDryRunKey(planId: number) {
  return ["plan", planId, "dry-run"] as const;
}

/**
 * PlanDryRun shows what the plan's dry-run limits would have refused over the last 24 hours,
 * with the customers, and promotes them to enforced (after a confirmation; audited by the
 * API). Nothing shows while the plan has tried no limit.
 */
export function PlanDryRun({
  plan,
  onPromoted,
}: {
  plan: PlanWithLimits;
  onPromoted: (plan: PlanWithLimits) => void;
}) {
  const report = useDryRunReport(planDryRunKey(plan.id), `/plans/${plan.id}/dry-run`);
  const queryClient = useQueryClient();
  const toast = useToast();
  const [confirming, setConfirming] = useState(false);
  const promote = useMutation({
    mutationFn: () =>
      api<PromoteResponse>(`/plans/${plan.id}/dry-run/promote`, { method: "POST", body: {} }),
    onSuccess: (result) => {
      setConfirming(false);
      onPromoted(result.plan);
      void queryClient.invalidateQueries({ queryKey: planDryRunKey(plan.id) });
      void queryClient.invalidateQueries({ queryKey: ["plans"] });
      void queryClient.invalidateQueries({ queryKey: ["audit"] });
      toast(
        `${countOf(result.promoted, "limit")} enforced. The next API request obeys ${result.promoted === 1 ? "it" : "them"}.`,
      );
    },
  });
  const dryRun = plan.limits.filter((l) => l.dryRun);

  if (report.isPending) {
    return dryRun.length > 0 ? <Loading label="Loading the dry run…" /> : null;
  }
  const limits = report.data?.limits ?? [];
  if (!report.error && limits.length === 0) return null;

  return (
    <DryRunCard
      headingId="dry-run-heading"
      note="the last 24 h; every request was answered as before"
      report={report}
    >
      {dryRun.length > 0 ? (
        <div className="row">
          <button type="button" className="btn primary" onClick={() => setConfirming(true)}>
            Promote to enforced
          </button>
          <span className="muted small">
            Makes the dry-run limits refuse from the next request on.
          </span>
        </div>
      ) : null}
      {confirming ? (
        <ConfirmDialog
          title="Enforce the dry-run limits?"
          confirmLabel="Promote to enforced"
          tone="primary"
          busy={promote.isPending}
          onConfirm={() => promote.mutate()}
          onCancel={() => setConfirming(false)}
        >
          <p>
            From the next request, customers on “{plan.name}” are refused when they exceed{" "}
            {orderedClasses(dryRun.map((l) => l.operation))
              .map((op) => {
                const mine = dryRun.filter((l) => l.operation === op);
                return mine.length > 0
                  ? `${classTitle(op).toLowerCase()}: ${describeLimits(mine)}`
                  : null;
              })
              .filter(Boolean)
              .join("; ")}
            . A customer that has used up a limit in the dry run is refused at once. Unsaved edits
            in the form below are discarded.
          </p>
          <ErrorNote error={promote.error} />
        </ConfirmDialog>
      ) : null}
    </DryRunCard>
  );
}
